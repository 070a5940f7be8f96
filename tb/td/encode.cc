// SPDX-License-Identifier: Apache-2.0
#include "tb/td/encode.h"

#include <fmt/format.h>

namespace ane::td {
namespace {

namespace r = regs::td;

void Set(Td* t, int field, uint64_t v) { t->Set(field, v); }

// Element i of a repeated kernel-channel field.
int Channel(int field0, int field1, int i) { return field0 + (field1 - field0) * i; }

void Append64(std::vector<uint8_t>* b, const std::vector<uint8_t>& block) {
  b->insert(b->end(), block.begin(), block.end());
  b->resize((b->size() + 63) / 64 * 64, 0);
}

}  // namespace

uint64_t PackedRow(int w, ElemFormat f) { return (uint64_t(w) * uint64_t(ElemBytes(f)) + 63) / 64 * 64; }

Td TemplateTd(TaskKind kind) {
  Td t = Td::Blank();
  const int k = int(kind);
  for (const r::FixedRule& rule : r::kFixedRules) {
    uint32_t& w = t.words[rule.td_offset / 4];
    w = (w & ~rule.mask) | rule.allowed[k][0];
  }
  return t;
}

std::vector<uint8_t> KernelBlocks(const LayerSpec& s, int c) {
  std::vector<uint8_t> out;
  const int eb = ElemBytes(s.in);
  for (int co = c; co < s.cout; co += s.kernel_channels) {
    std::vector<uint8_t> block;
    if (s.bias) {
      const uint16_t b = s.biases.empty() ? s.bias_value : s.biases.at(size_t(co));
      block.push_back(uint8_t(b));
      block.push_back(uint8_t(b >> 8));
    }
    for (uint16_t v : s.weights.at(size_t(co))) {
      block.push_back(uint8_t(v));
      if (eb == 2) block.push_back(uint8_t(v >> 8));
    }
    Append64(&out, block);
  }
  return out;
}

Encoded EncodeLayers(const std::vector<LayerSpec>& layers, int weights_bar, std::vector<uint8_t> prefix) {
  Encoded e;
  if (prefix.size() % 64) throw TdError("the weights' prefix is not a multiple of 64 bytes");
  e.weights = std::move(prefix);
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerSpec& s = layers[i];
    const TaskKind kind = s.planar ? TaskKind::kPlanar : s.pass ? TaskKind::kPass : TaskKind::kConv;
    Td t = TemplateTd(kind);
    t.at = uint32_t(i) * r::kChainStride;
    const bool last = i + 1 == layers.size();
    // Header: the chain (the next TD from the TD buffer, entry 0), the buffers.
    Set(&t, r::kHeader_0_TID, i);
    Set(&t, r::kHeader_0_EON, last);
    Set(&t, r::kHeader_7_NextPointer, last ? 0 : (i + 1) * r::kChainStride);
    Set(&t, r::kHeader_1_NextSize, last ? 0 : r::kTdBytes / 4 - 1);
    Set(&t, r::kHeader_8_TBE, last ? 0 : 1);
    Set(&t, r::kHeader_8_RBase0, uint64_t(s.src_bar));
    Set(&t, r::kHeader_8_RBE0, 1);
    Set(&t, r::kHeader_8_WBase, uint64_t(s.dst_bar));
    Set(&t, r::kHeader_8_WBE, 1);
    Set(&t, r::kHeader_8_ENE, s.planar ? 0 : 1);  // Common.Cfg.ActiveNE = ENE - 1 = 0
    // Common.
    Set(&t, r::kCommon_InDim_Win, uint64_t(s.w));
    Set(&t, r::kCommon_InDim_Hin, uint64_t(s.h));
    Set(&t, r::kCommon_Cin_Cin, uint64_t(s.cin));
    Set(&t, r::kCommon_Cout_Cout, uint64_t(s.planar ? s.cin : s.cout));
    Set(&t, r::kCommon_OutDim_Wout, uint64_t(s.planar ? s.w : s.ow));
    Set(&t, r::kCommon_OutDim_Hout, uint64_t(s.planar ? s.h : s.oh));
    Set(&t, r::kCommon_ChCfg_InFmt, uint64_t(s.in));
    Set(&t, r::kCommon_ChCfg_OutFmt, uint64_t(s.out));
    Set(&t, r::kCommon_ConvCfg_Kw, uint64_t(s.planar ? 1 : s.kw));
    Set(&t, r::kCommon_ConvCfg_Kh, uint64_t(s.planar ? 1 : s.kh));
    Set(&t, r::kCommon_ConvCfg_Sx, uint64_t(s.planar ? 1 : s.sx));
    Set(&t, r::kCommon_ConvCfg_Sy, uint64_t(s.planar ? 1 : s.sy));
    Set(&t, r::kCommon_ConvCfg_Px, uint64_t(s.planar ? 0 : s.px));
    Set(&t, r::kCommon_ConvCfg_Py, uint64_t(s.planar ? 0 : s.py));
    Set(&t, r::kCommon_GroupConvCfg_NumGroups, uint64_t(s.pass || s.planar ? 1 : s.groups));
    // Tile DMA: base and strides in 64-byte units.
    auto dma = [&](uint64_t base, uint64_t row, uint64_t plane, int w, int h, ElemFormat f, int fbase, int frow,
                   int fplane, int fmem) {
      if (row == 0) row = PackedRow(w, f);
      if (plane == 0) plane = row * uint64_t(h);
      if (base % 64 || row % 64 || plane % 64)
        throw TdError(fmt::format("TD {}: base and strides must be multiples of 64", i));
      Set(&t, fbase, base / 64);
      Set(&t, frow, row / 64);
      Set(&t, fplane, plane / 64);
      Set(&t, fmem, uint64_t(f));
    };
    Set(&t, r::kTileDMASrc_DMAConfig_En, 1);
    Set(&t, r::kTileDMADst_DMAConfig_En, 1);
    dma(s.src_base, s.src_row, s.src_plane, s.w, s.h, s.in, r::kTileDMASrc_BaseAddr_Addr,
        r::kTileDMASrc_RowStride_Stride, r::kTileDMASrc_PlaneStride_PlaneStride, r::kTileDMASrc_Fmt_MemFmt);
    dma(s.dst_base, s.dst_row, s.dst_plane, s.planar ? s.w : s.ow, s.planar ? s.h : s.oh, s.out,
        r::kTileDMADst_BaseAddr_Addr, r::kTileDMADst_RowStride_RowStride, r::kTileDMADst_PlaneStride_PlaneStride,
        r::kTileDMADst_Fmt_MemFmt);
    if (s.planar) {
      Set(&t, r::kHeader_8_RBase1, uint64_t(s.src1_bar));
      Set(&t, r::kHeader_8_RBE1, 1);
      Set(&t, r::kCommon_ChCfg_Src1Fmt, uint64_t(s.in));
      dma(s.src1_base, s.src1_row, s.src1_plane, s.w, s.h, s.in, r::kTileDMASrc_Src1BaseAddr_Addr,
          r::kTileDMASrc_Src1RowStride_Stride, r::kTileDMASrc_Src1PlaneStride_Stride, r::kTileDMASrc_Src1Fmt_MemFmt);
      Set(&t, r::kPlanar_Cfg_Op, uint64_t(s.pe.op));
      Set(&t, r::kPlanar_Cfg_Binary, 1);
      Set(&t, r::kPlanar_Post_Scale, s.pe.scale);
      Set(&t, r::kPlanar_Post_Bias, s.pe.bias);
      Set(&t, r::kPlanar_Src0Scale_Scale, s.pe.src0_scale);
      e.tds.push_back(t);
      continue;
    }
    // NE.
    Set(&t, r::kNE_MACCfg_OpMode, uint64_t(s.pass ? r::OpMode::kPass : r::OpMode::kConv));
    Set(&t, r::kNE_MACCfg_KernelMode, s.pass ? 1 : 0);
    Set(&t, r::kNE_MACCfg_NonlinearMode, uint64_t(s.nonlinear));
    Set(&t, r::kNE_MACCfg_BiasMode, s.bias ? 1 : 0);
    Set(&t, r::kNE_PostScale_PostScale, s.scale);
    Set(&t, r::kNE_PostScale_PostRightShift, uint64_t(s.shift));
    if (!s.pass) Set(&t, r::kNE_KernelCfg_KernelFmt, uint64_t(s.in));
    if (s.bias && s.pass) throw TdError(fmt::format("TD {}: a per-element pass has no kernel block to hold a bias", i));
    // Kernels: output channel co in kernel channel co % K at block co / K (A8); the table last.
    int channel = 0;
    auto open_channel = [&](uint64_t base, uint64_t bytes) {
      if (channel >= 16) throw TdError(fmt::format("TD {}: more than 16 kernel DMA channels", i));
      Set(&t, Channel(r::kKernelDMASrc_CoeffDMAConfig_0_En, r::kKernelDMASrc_CoeffDMAConfig_1_En, channel), 1);
      Set(&t, Channel(r::kKernelDMASrc_CoeffBaseAddr_0_Addr, r::kKernelDMASrc_CoeffBaseAddr_1_Addr, channel),
          base / 64);
      Set(&t, Channel(r::kKernelDMASrc_CoeffBfrSize_0_MemBfrSize, r::kKernelDMASrc_CoeffBfrSize_1_MemBfrSize, channel),
          bytes / 64);
      ++channel;
    };
    if (!s.pass) {
      const int k = s.kernel_channels;
      if (k < 1 || k > 16 - (s.nonlinear == r::Nonlinear::kTable))
        throw TdError(fmt::format("TD {}: {} kernel channels", i, k));
      uint64_t run_base = 0;  // kernels from a run-time buffer: the channels back to back from 0
      for (int c = 0; c < k; ++c) {
        const std::vector<uint8_t> blocks = KernelBlocks(s, c);
        const uint64_t bytes = std::max<uint64_t>(blocks.size(), 64);
        if (s.kernel_bar >= 0) {
          open_channel(run_base, bytes);
          run_base += bytes;
        } else {
          const uint64_t base = e.weights.size();
          Append64(&e.weights, blocks);
          if (e.weights.size() == base) e.weights.resize(base + 64, 0);
          open_channel(base, bytes);
        }
      }
    }
    if (s.nonlinear == r::Nonlinear::kTable) {
      if (s.kernel_bar >= 0) throw TdError(fmt::format("TD {}: a lookup table comes from the weights", i));
      const uint64_t base = e.weights.size();
      Append64(&e.weights, TableBlob(s.knots, s.below, s.above));
      open_channel(base, e.weights.size() - base);
    }
    for (int c = channel; c < 16; ++c) {  // a disabled channel as every real program has it
      Set(&t, Channel(r::kKernelDMASrc_CoeffBfrSize_0_MemBfrSize, r::kKernelDMASrc_CoeffBfrSize_1_MemBfrSize, c), 1);
    }
    if (channel > 0) {
      Set(&t, r::kHeader_9_KBase0, uint64_t(s.kernel_bar >= 0 ? s.kernel_bar : weights_bar));
      Set(&t, r::kHeader_9_KBE0, 1);
    }
    e.tds.push_back(t);
  }
  e.chain = EncodeChain(e.tds, uint32_t(layers.size() - 1) * r::kChainStride + r::kTdBytes);
  return e;
}

}  // namespace ane::td
