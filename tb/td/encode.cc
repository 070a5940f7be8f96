#include "tb/td/encode.h"

#include <fmt/format.h>

namespace ane::td {
namespace {

namespace r = regs::td;

void Set(Td* t, const std::string& name, uint64_t v) {
  const int f = FieldByName(name);
  if (f < 0) throw std::logic_error("register description has no field " + name);
  t->Set(f, v);
}

void Append64(std::vector<uint8_t>* b, const std::vector<uint8_t>& block) {
  b->insert(b->end(), block.begin(), block.end());
  b->resize((b->size() + 63) / 64 * 64, 0);
}

}  // namespace

uint64_t PackedRow(int w, ElemFormat f) { return (uint64_t(w) * uint64_t(ElemBytes(f)) + 63) / 64 * 64; }

Encoded EncodeLayers(const std::vector<LayerSpec>& layers, int weights_bar) {
  Encoded e;
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerSpec& s = layers[i];
    Td t = Td::Blank();
    t.at = uint32_t(i) * r::kChainStride;
    // Header: the chain, the buffers.
    Set(&t, "Header[0].TID", i);
    Set(&t, "Header[0].EON", i + 1 == layers.size());
    Set(&t, "Header[7].NextPointer", i + 1 == layers.size() ? 0 : (i + 1) * r::kChainStride);
    Set(&t, "Header[1].NextSize", i + 1 == layers.size() ? 0 : r::kTdBytes / 4 - 1);
    Set(&t, "Header[8].RBase0", uint64_t(s.src_bar));
    Set(&t, "Header[8].RBE0", 1);
    Set(&t, "Header[8].WBase", uint64_t(s.dst_bar));
    Set(&t, "Header[8].WBE", 1);
    Set(&t, "Header[8].ENE", 1);
    // Common.
    Set(&t, "Common.InDim.Win", uint64_t(s.w));
    Set(&t, "Common.InDim.Hin", uint64_t(s.h));
    Set(&t, "Common.Cin.Cin", uint64_t(s.cin));
    Set(&t, "Common.Cout.Cout", uint64_t(s.cout));
    Set(&t, "Common.OutDim.Wout", uint64_t(s.ow));
    Set(&t, "Common.OutDim.Hout", uint64_t(s.oh));
    Set(&t, "Common.ChCfg.InFmt", uint64_t(s.in));
    Set(&t, "Common.ChCfg.OutFmt", uint64_t(s.out));
    Set(&t, "Common.ConvCfg.Kw", uint64_t(s.kw));
    Set(&t, "Common.ConvCfg.Kh", uint64_t(s.kh));
    Set(&t, "Common.ConvCfg.Sx", uint64_t(s.sx));
    Set(&t, "Common.ConvCfg.Sy", uint64_t(s.sy));
    Set(&t, "Common.ConvCfg.Px", uint64_t(s.px));
    Set(&t, "Common.ConvCfg.Py", uint64_t(s.py));
    Set(&t, "Common.GroupConvCfg.NumGroups", uint64_t(s.pass ? 1 : s.groups));
    // Tile DMA: base and strides in 64-byte units.
    auto dma = [&](const std::string& d, uint64_t base, uint64_t row, uint64_t plane, int w, int h, int c, ElemFormat f,
                   const char* rs, const char* ps, const char* ds) {
      if (row == 0) row = PackedRow(w, f);
      if (plane == 0) plane = row * uint64_t(h);
      if (base % 64 || row % 64 || plane % 64) throw TdError(fmt::format("TD {}: {} base and strides must be multiples of 64", i, d));
      Set(&t, d + ".DMAConfig.En", 1);
      Set(&t, d + ".BaseAddr.Addr", base / 64);
      Set(&t, d + rs, row / 64);
      Set(&t, d + ps, plane / 64);
      Set(&t, d + ds, plane * uint64_t(c) / 64);
      Set(&t, d + ".Fmt.MemFmt", uint64_t(f));
    };
    dma("TileDMASrc", s.src_base, s.src_row, s.src_plane, s.w, s.h, s.cin, s.in, ".RowStride.Stride",
        ".PlaneStride.PlaneStride", ".DepthStride.Stride");
    dma("TileDMADst", s.dst_base, s.dst_row, s.dst_plane, s.ow, s.oh, s.cout, s.out, ".RowStride.RowStride",
        ".PlaneStride.PlaneStride", ".DepthStride.DepthStride");
    // NE.
    Set(&t, "NE.MACCfg.OpMode", s.pass ? 4 : 0);
    Set(&t, "NE.MACCfg.KernelMode", s.pass ? 1 : 0);
    Set(&t, "NE.MACCfg.NonlinearMode", uint64_t(s.nonlinear));
    Set(&t, "NE.MACCfg.BiasMode", s.bias ? 1 : 0);
    Set(&t, "NE.AccBias.AccBias", s.bias ? s.bias_value : 0);
    Set(&t, "NE.PostScale.PostScale", s.scale);
    Set(&t, "NE.PostScale.PostRightShift", uint64_t(s.shift));
    if (!s.pass) Set(&t, "NE.KernelCfg.KernelFmt", uint64_t(s.in));
    // Kernels: output channel co in kernel channel co % K at block co / K (A8); the table last.
    int channel = 0;
    auto open_channel = [&](uint64_t base, uint64_t bytes) {
      if (channel >= 16) throw TdError(fmt::format("TD {}: more than 16 kernel DMA channels", i));
      Set(&t, fmt::format("KernelDMASrc.CoeffDMAConfig[{}].En", channel), 1);
      Set(&t, fmt::format("KernelDMASrc.CoeffBaseAddr[{}].Addr", channel), base / 64);
      Set(&t, fmt::format("KernelDMASrc.CoeffBfrSize[{}].MemBfrSize", channel), bytes / 64);
      ++channel;
    };
    if (!s.pass) {
      const int k = s.kernel_channels;
      if (k < 1 || k > 16 - (s.nonlinear == 2)) throw TdError(fmt::format("TD {}: {} kernel channels", i, k));
      const int eb = ElemBytes(s.in);
      for (int c = 0; c < k; ++c) {
        const uint64_t base = e.weights.size();
        for (int co = c; co < s.cout; co += k) {
          std::vector<uint8_t> block;
          for (uint16_t v : s.weights.at(size_t(co))) {
            block.push_back(uint8_t(v));
            if (eb == 2) block.push_back(uint8_t(v >> 8));
          }
          Append64(&e.weights, block);
        }
        open_channel(base, std::max<uint64_t>(e.weights.size() - base, 64));
        if (e.weights.size() == base) e.weights.resize(base + 64, 0);
      }
    }
    if (s.nonlinear == 2) {
      const uint64_t base = e.weights.size();
      Append64(&e.weights, TableBlob(s.knots, s.below, s.above));
      open_channel(base, e.weights.size() - base);
    }
    if (channel > 0) {
      Set(&t, "Header[9].KBase0", uint64_t(weights_bar));
      Set(&t, "Header[9].KBE0", 1);
    }
    e.tds.push_back(t);
  }
  e.chain = EncodeChain(e.tds, uint32_t(layers.size() - 1) * r::kChainStride + r::kTdBytes);
  return e;
}

}  // namespace ane::td
