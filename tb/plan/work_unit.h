// SPDX-License-Identifier: Apache-2.0
// Work units for the input shifter (rtl/ane_shifter.sv, docs/shifter.md): how a convolution's
// input is cut into bank-sized patches, and the bytes and descriptor of each. This is the
// memory side (what a DMA and the rasterizer would do), not the oracle: tests check what the
// shifter then delivers against oracle::ConvInputAt.
#ifndef TB_PLAN_WORK_UNIT_H_
#define TB_PLAN_WORK_UNIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tb/oracle/conv_walk.h"

namespace ane::harness {

enum class Layout { kPlanar, kInterleaved };
const char* LayoutName(Layout l);

// The layer-level shifter configuration.
struct ShifterLayer {
  oracle::ConvGeometry geom;
  int tile_h = 1;
  int tile_w = 1;
  int channels_per_wu = 1;     // input channels in one work unit (the last may hold fewer)
  int kernel_rows_per_wu = 0;  // kernel rows in one work unit, 0 = all; fewer needs one channel
  Layout layout = Layout::kPlanar;
  bool elem16 = true;  // 16-bit elements (fp16 / int4 x4) or 8-bit (int8)
  bool two_kernel = false;
  bool four_kernel = false;  // positions = lanes / 4 (the shifter needs no mode bit: a tile fits)
  // Channel i of a work unit in bank i of its run of banks (planar; the channel stride is one
  // bank, so the work unit spans channels_per_wu banks of the shifter's ring): the depthwise
  // interleave of the core (docs/core.md).
  bool bank_per_channel = false;
  // Derived: the full patch of a tile, its strides in elements.
  int patch_h = 0;
  int patch_w = 0;
  int row_stride = 0;
  int col_stride = 0;
  int ch_stride = 0;
};
// Fills the derived fields. Returns "" or a one-line reason the layer does not fit
// (`lanes` positions, `bank_bytes` per bank).
std::string PlanShifterLayer(ShifterLayer* l, int lanes, int bank_bytes);

// The configuration register writes (address, data) of a layer, PREP last (the SHIFTER window's
// registers, packed with tb/regs/ane_regs.h; throws std::out_of_range when a value does not fit).
std::vector<std::pair<uint32_t, uint32_t>> ShifterConfigWrites(const ShifterLayer& l);

struct WorkUnit {
  oracle::TileMap tile;
  int c0 = 0;                  // first input channel
  int nc = 0;                  // channels held
  int ky0 = 0;                 // first kernel row; requests give ky - ky0
  int nky = 0;                 // kernel rows
  int ph = 0, pw = 0;          // valid patch rows and columns
  int off_y = 0, off_x = 0;    // patch coordinates of tile position (0, 0) at ky = kx = 0
  int oh = 0, ow = 0;          // outputs of the tile inside the output map
  std::vector<uint8_t> bytes;  // the bank image, a whole number of beats (junk outside the patch)
  uint64_t Desc() const;       // ld_desc_i
};

// Every work unit of the layer in rasterizer order: for tile row: for tile column: for channel
// slice: for kernel-row slice (the N-2 order continues across the slices of a tile).
std::vector<WorkUnit> PlanWorkUnits(const ShifterLayer& l, const oracle::Tensor3& x, int beat_bytes);

}  // namespace ane::harness

#endif  // TB_PLAN_WORK_UNIT_H_
