// SPDX-License-Identifier: Apache-2.0
#include "tb/plan/work_unit.h"

#include <algorithm>

#include "tb/regs/ane_regs.h"

namespace ane::harness {

const char* LayoutName(Layout l) { return l == Layout::kPlanar ? "planar" : "interleaved"; }

std::string PlanShifterLayer(ShifterLayer* l, int lanes, int bank_bytes) {
  const oracle::ConvGeometry& g = l->geom;
  const std::string bad = oracle::CheckConvGeometry(g);
  if (!bad.empty()) return bad;
  const int positions = l->four_kernel ? lanes / 4 : l->two_kernel ? lanes / 2 : lanes;
  if (l->two_kernel && !l->elem16) return "the two-kernel mode takes fp16 (16-bit) data";
  if (l->four_kernel && !l->elem16) return "the four-kernel mode takes fp16 (16-bit) data";
  if (l->four_kernel && l->two_kernel) return "two-kernel and four-kernel modes together";
  if (l->tile_h < 1 || l->tile_w < 1 || l->tile_h * l->tile_w > positions || l->tile_w > 511 || l->tile_h > 511) {
    return "tile " + std::to_string(l->tile_h) + "x" + std::to_string(l->tile_w) + " does not fit " +
           std::to_string(positions) + " lane positions";
  }
  const int krows = l->kernel_rows_per_wu == 0 ? g.kernel_h : l->kernel_rows_per_wu;
  if (krows < 1 || krows > g.kernel_h) return "kernel rows per work unit must be 1 .. KH";
  if (krows < g.kernel_h && l->channels_per_wu != 1) {
    return "a work unit with part of the kernel rows holds one channel (N-2 order)";
  }
  l->patch_h = (l->tile_h - 1) * g.stride_y + (krows - 1) * g.dilation_y + 1;
  l->patch_w = (l->tile_w - 1) * g.stride_x + (g.kernel_w - 1) * g.dilation_x + 1;
  const int nc = std::min(l->channels_per_wu, g.channels);
  if (nc < 1) return "a work unit holds at least one channel";
  const int elem_bytes = l->elem16 ? 2 : 1;
  if (l->bank_per_channel && l->layout != Layout::kPlanar) return "a bank per channel takes the planar layout";
  const int bytes = (l->bank_per_channel ? 1 : nc) * l->patch_h * l->patch_w * elem_bytes;
  if (bytes > bank_bytes) {
    return "a work unit of " + std::to_string(nc) + " channel(s) of " + std::to_string(l->patch_h) + "x" +
           std::to_string(l->patch_w) + " needs " + std::to_string(bytes) + " bytes, more than the " +
           std::to_string(bank_bytes) + "-byte bank";
  }
  if (l->layout == Layout::kPlanar) {
    l->col_stride = 1;
    l->row_stride = l->patch_w;
    l->ch_stride = l->bank_per_channel ? bank_bytes / elem_bytes : l->patch_h * l->patch_w;
  } else {
    l->col_stride = nc;
    l->row_stride = l->patch_w * nc;
    l->ch_stride = 1;
  }
  return "";
}

std::vector<std::pair<uint32_t, uint32_t>> ShifterConfigWrites(const ShifterLayer& l) {
  namespace rc = regs::core;
  const oracle::ConvGeometry& g = l.geom;
  const uint32_t geom = rc::PackWindow(rc::kShifter, rc::kShifterGeomAddr,
                                       {{rc::kShifterGeomSy, g.stride_y},
                                        {rc::kShifterGeomSx, g.stride_x},
                                        {rc::kShifterGeomDy, g.dilation_y},
                                        {rc::kShifterGeomDx, g.dilation_x},
                                        {rc::kShifterGeomElem16, l.elem16},
                                        {rc::kShifterGeomTwoKernel, l.two_kernel},
                                        {rc::kShifterGeomTileW, l.tile_w},
                                        {rc::kShifterGeomTileH, l.tile_h}});
  const uint32_t stride =
      rc::PackWindow(rc::kShifter, rc::kShifterStrideAddr,
                     {{rc::kShifterStrideRow, l.row_stride}, {rc::kShifterStrideCol, l.col_stride}});
  const uint32_t chstr = rc::PackWindow(rc::kShifter, rc::kShifterChstrAddr, {{rc::kShifterChstrCh, l.ch_stride}});
  return {{rc::kShifterGeomAddr, geom},
          {rc::kShifterStrideAddr, stride},
          {rc::kShifterChstrAddr, chstr},
          {rc::kShifterPrepAddr, 0}};
}

uint64_t WorkUnit::Desc() const {
  auto field = [](int v, int bits) { return uint64_t(uint32_t(v) & ((1u << bits) - 1)); };
  return field(ph, 10) | field(pw, 10) << 10 | field(off_y, 12) << 20 | field(off_x, 12) << 32 | field(oh, 9) << 44 |
         field(ow, 9) << 53;
}

std::vector<WorkUnit> PlanWorkUnits(const ShifterLayer& l, const oracle::Tensor3& x, int beat_bytes) {
  const oracle::ConvGeometry& g = l.geom;
  const int oh_all = g.OutHeight(), ow_all = g.OutWidth();
  const int elem_bytes = l.elem16 ? 2 : 1;
  const int krows = l.kernel_rows_per_wu == 0 ? g.kernel_h : l.kernel_rows_per_wu;
  std::vector<WorkUnit> out;
  for (int oy0 = 0; oy0 < oh_all; oy0 += l.tile_h) {
    for (int ox0 = 0; ox0 < ow_all; ox0 += l.tile_w) {
      for (int c0 = 0; c0 < g.channels; c0 += l.channels_per_wu) {
        for (int ky0 = 0; ky0 < g.kernel_h; ky0 += krows) {
          WorkUnit wu;
          wu.tile = oracle::TileMap{oy0, ox0, l.tile_h, l.tile_w, l.two_kernel, l.four_kernel};
          wu.c0 = c0;
          wu.nc = std::min(l.channels_per_wu, g.channels - c0);
          wu.ky0 = ky0;
          wu.nky = std::min(krows, g.kernel_h - ky0);
          const int top = oy0 * g.stride_y - g.pad_top + ky0 * g.dilation_y;
          const int left = ox0 * g.stride_x - g.pad_left;
          const int r0 = std::max(0, top), r1 = std::min(g.height, top + l.patch_h);
          const int q0 = std::max(0, left), q1 = std::min(g.width, left + l.patch_w);
          wu.ph = std::max(0, r1 - r0);
          wu.pw = std::max(0, q1 - q0);
          wu.off_y = top - r0;
          wu.off_x = left - q0;
          wu.oh = std::min(l.tile_h, oh_all - oy0);
          wu.ow = std::min(l.tile_w, ow_all - ox0);
          const int used =
              (wu.nc - 1) * l.ch_stride + (l.patch_h - 1) * l.row_stride + (l.patch_w - 1) * l.col_stride + 1;
          const int beats = std::max(1, (used * elem_bytes + beat_bytes - 1) / beat_bytes);
          // Bytes outside the valid patch hold junk, never zeros, so that a shifter that reads
          // them instead of inserting the zero padding is caught.
          wu.bytes.resize(size_t(beats * beat_bytes));
          for (size_t i = 0; i < wu.bytes.size(); ++i) wu.bytes[i] = uint8_t(0xA5 + 37 * i + 11 * out.size());
          for (int c = 0; c < wu.nc; ++c) {
            for (int y = 0; y < wu.ph; ++y) {
              for (int xx = 0; xx < wu.pw; ++xx) {
                const uint16_t v = x.at(c0 + c, r0 + y, q0 + xx);
                const size_t a = size_t((c * l.ch_stride + y * l.row_stride + xx * l.col_stride) * elem_bytes);
                wu.bytes[a] = uint8_t(v);
                if (l.elem16) wu.bytes[a + 1] = uint8_t(v >> 8);
              }
            }
          }
          out.push_back(std::move(wu));
        }
      }
    }
  }
  return out;
}

}  // namespace ane::harness
