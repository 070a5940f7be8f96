#include "tb/td/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "tb/oracle/formats.h"

namespace ane::td {
namespace {

namespace r = regs::td;

[[noreturn]] void Fail(const std::string& what) { throw TdError(what); }

// A field by its description name; a missing name is a bug of this file, not of the input.
int F(const std::string& name) {
  const int f = FieldByName(name);
  if (f < 0) throw std::logic_error("register description has no field " + name);
  return f;
}

uint32_t Get(const Td& t, const std::string& name) { return t.Get(F(name)); }

constexpr int kKernelChannels = 16;
constexpr uint16_t kFp16One = 0x3C00;

// The table domain of assumption A11: [-8, 8], step 1/2.
constexpr uint16_t kTableLo = 0xC800;  // -8
constexpr int kTableStepLog2 = -1;
constexpr size_t kTableBytes = 37 * 2;  // words 0..36

uint16_t U16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }

bool Finite(uint16_t h) { return (h & 0x7C00) != 0x7C00; }

}  // namespace

int ElemBytes(ElemFormat f) { return f == ElemFormat::kFp16 ? 2 : 1; }
const char* ElemName(ElemFormat f) { return f == ElemFormat::kFp16 ? "fp16" : "int8"; }

uint64_t TensorAccess::Offset(int ci, int yi, int xi) const {
  return base + uint64_t(ci) * plane + uint64_t(yi) * row + uint64_t(xi) * uint64_t(ElemBytes(format));
}

uint64_t TensorAccess::End() const { return Offset(c - 1, h - 1, w); }

oracle::ActTable TableFromBlob(const uint8_t* blob, size_t size) {
  if (size < kTableBytes) Fail(fmt::format("a lookup table needs {} bytes, its buffer has {}", kTableBytes, size));
  oracle::ActTable t;
  t.mode = oracle::ActMode::kDirect;
  t.sym = oracle::ActSym::kNone;
  t.lo = kTableLo;
  t.step_log2 = kTableStepLog2;
  t.left = U16(blob + 4);
  t.right = U16(blob + 6);
  if (!Finite(t.left) || !Finite(t.right)) {
    Fail(fmt::format("lookup table: the values outside the domain (0x{:04x}, 0x{:04x}) must be finite", t.left, t.right));
  }
  t.at_ninf = t.left;
  t.at_pinf = t.right;
  double y[oracle::kActSegments + 1];
  for (int i = 0; i <= oracle::kActSegments; ++i) {
    const uint16_t k = U16(blob + 8 + 2 * i);
    if (!Finite(k)) Fail(fmt::format("lookup table: knot {} is 0x{:04x}, not a finite fp16 value", i, k));
    y[i] = oracle::Fp16ToDouble(k);
  }
  oracle::ActSegmentsFromKnots(&t, y);
  return t;
}

std::vector<uint8_t> TableBlob(const std::vector<uint16_t>& knots, uint16_t below, uint16_t above) {
  std::vector<uint8_t> b(128, 0);
  auto put = [&](size_t word, uint16_t v) {
    b[2 * word] = uint8_t(v);
    b[2 * word + 1] = uint8_t(v >> 8);
  };
  put(2, below);
  put(3, above);
  for (size_t i = 0; i < knots.size() && i <= size_t(oracle::kActSegments); ++i) put(4 + i, knots[i]);
  return b;
}

std::string TdLayer::Describe() const {
  const oracle::ConvGeometry& g = layer.geom;
  const char* act = layer.post.act == oracle::PostAct::kRelu    ? ", ReLU"
                    : layer.post.act == oracle::PostAct::kTable ? ", lookup table"
                                                                : "";
  std::string post;
  if (layer.post.scale_en) post += fmt::format(", scale {}", oracle::Fp16ToDouble(layer.channel[0].scale));
  if (layer.post.bias_en) post += ", bias";
  if (layer.post.int_acc) post += fmt::format(", shift {}", layer.post.shift);
  if (pass) {
    return fmt::format("per-element pass, {} [{}, {}, {}] -> {}{}{}", ElemName(src.format), src.c, src.h, src.w,
                       ElemName(dst.format), post, act);
  }
  return fmt::format("convolution {}x{} stride {},{} pad {},{},{},{} groups {}, {} [{}, {}, {}] -> {} [{}, {}, {}]{}{}",
                     g.kernel_h, g.kernel_w, g.stride_y, g.stride_x, g.pad_top, g.pad_bottom, g.pad_left, g.pad_right,
                     layer.groups, ElemName(src.format), src.c, src.h, src.w, ElemName(dst.format), dst.c, dst.h, dst.w,
                     post, act);
}

std::vector<TdLayer> Interpret(const std::vector<Td>& tds, const std::vector<uint8_t>& weights, int weights_bar) {
  std::vector<TdLayer> out;
  for (size_t i = 0; i < tds.size(); ++i) {
    const Td& t = tds[i];
    const std::string where = fmt::format("TD {} at 0x{:x}", i, t.at);
    auto need = [&](const std::string& field, uint32_t want, const std::string& why) {
      const uint32_t v = Get(t, field);
      if (v != want) Fail(fmt::format("{}: {} = {}: {} (only {} is modelled)", where, field, v, why, want));
    };
    TdLayer L;
    L.index = int(i);
    L.at = t.at;

    // Buffers (header): one source, one destination, kernels from the weights (A6).
    need("Header[8].RBE0", 1, "the TD has no source buffer");
    need("Header[8].RBE1", 0, "a second source buffer");
    need("Header[8].WBE", 1, "the TD has no destination buffer");
    need("Header[8].TBE", 0, "an intermediate buffer");
    for (int k = 1; k <= 3; ++k) need(fmt::format("Header[9].KBE{}", k), 0, "a second kernel buffer");
    L.src.bar = int(Get(t, "Header[8].RBase0"));
    L.dst.bar = int(Get(t, "Header[8].WBase"));
    if (L.src.bar == L.dst.bar) Fail(fmt::format("{}: source and destination are the same buffer {}", where, L.src.bar));

    // The planar engine and the L2 options the model does not cover (A16).
    for (uint32_t w = 0; w < r::kStreams[4].words; ++w) {
      const uint32_t v = t.words[r::kStreams[4].td_offset / 4 + 1 + w];
      if (v) {
        Fail(fmt::format("{}: Planar stream word {} (TD+0x{:x}) is 0x{:x}: the planar engine's registers are not "
                         "understood (the model runs TDs whose Planar stream is zero)",
                         where, w, r::kStreams[4].td_offset + 4 + 4 * w, v));
      }
    }
    need("L2.L2Cfg.InputReLU", 0, "ReLU on the input");
    need("L2.L2Cfg.PaddingMode", 0, "a padding mode other than zeros");
    need("TileDMASrc.DMAConfig.En", 1, "the source DMA is off");
    need("TileDMADst.DMAConfig.En", 1, "the destination DMA is off");

    // Formats (A13).
    auto format = [&](const std::string& field) {
      const uint32_t v = Get(t, field);
      if (v != 1 && v != 2) {
        Fail(fmt::format("{}: {} = {}: unknown format code (1 int8, 2 fp16 are modelled)", where, field, v));
      }
      return ElemFormat(v);
    };
    L.src.format = format("Common.ChCfg.InFmt");
    L.dst.format = format("Common.ChCfg.OutFmt");
    if (format("TileDMASrc.Fmt.MemFmt") != L.src.format) {
      Fail(fmt::format("{}: TileDMASrc.Fmt.MemFmt differs from Common.ChCfg.InFmt (conversion on load is not modelled)",
                       where));
    }
    if (format("TileDMADst.Fmt.MemFmt") != L.dst.format) {
      Fail(fmt::format("{}: TileDMADst.Fmt.MemFmt differs from Common.ChCfg.OutFmt (conversion on store is not modelled)",
                       where));
    }

    // Shapes (A17) and the DMA strides (A4, A5).
    L.src.w = int(Get(t, "Common.InDim.Win"));
    L.src.h = int(Get(t, "Common.InDim.Hin"));
    L.src.c = int(Get(t, "Common.Cin.Cin"));
    L.dst.w = int(Get(t, "Common.OutDim.Wout"));
    L.dst.h = int(Get(t, "Common.OutDim.Hout"));
    L.dst.c = int(Get(t, "Common.Cout.Cout"));
    for (const auto& [name, v] : {std::pair<const char*, int>{"Common.InDim.Win", L.src.w}, {"Common.InDim.Hin", L.src.h},
                                  {"Common.Cin.Cin", L.src.c}, {"Common.OutDim.Wout", L.dst.w},
                                  {"Common.OutDim.Hout", L.dst.h}, {"Common.Cout.Cout", L.dst.c}}) {
      if (v == 0) Fail(fmt::format("{}: {} is 0", where, name));
    }
    auto strides = [&](TensorAccess* a, const std::string& dma, const char* row, const char* plane, const char* depth) {
      a->base = uint64_t(Get(t, dma + ".BaseAddr.Addr")) * 64;
      a->row = uint64_t(Get(t, dma + row)) * 64;
      a->plane = uint64_t(Get(t, dma + plane)) * 64;
      a->depth = uint64_t(Get(t, dma + depth)) * 64;
      const uint64_t row_bytes = uint64_t(a->w) * uint64_t(ElemBytes(a->format));
      if (a->h > 1 && a->row < row_bytes) {
        Fail(fmt::format("{}: {}{} = {} bytes is less than a row of {} bytes", where, dma, row, a->row, row_bytes));
      }
      if (a->c > 1 && a->plane < (a->h > 1 ? uint64_t(a->h) * a->row : row_bytes)) {
        Fail(fmt::format("{}: {}{} = {} bytes is less than a channel plane of the tensor", where, dma, plane, a->plane));
      }
    };
    strides(&L.src, "TileDMASrc", ".RowStride.Stride", ".PlaneStride.PlaneStride", ".DepthStride.Stride");
    strides(&L.dst, "TileDMADst", ".RowStride.RowStride", ".PlaneStride.PlaneStride", ".DepthStride.DepthStride");

    // The operation (A9, A10).
    const uint32_t op_mode = Get(t, "NE.MACCfg.OpMode"), kernel_mode = Get(t, "NE.MACCfg.KernelMode");
    if (op_mode == 4 && kernel_mode == 1) {
      L.pass = true;
    } else if (op_mode == 0 && kernel_mode == 0) {
      L.pass = false;
    } else {
      Fail(fmt::format("{}: NE.MACCfg OpMode {} with KernelMode {} is not modelled (0/0 convolution, 4/1 per-element "
                       "pass)",
                       where, op_mode, kernel_mode));
    }
    need("NE.MACCfg.MatrixBiasEn", 0, "a matrix bias");
    need("NE.MatrixVectorBias.MatrixVectorBias", 0, "a matrix-vector bias");
    need("NE.AccBias.AccBiasShift", 0, "a shifted accumulator bias");
    need("NE.MACCfg.PostScaleMode", 0, "another post-scale mode");
    need("NE.KernelCfg.PalettizedEn", 0, "palettized kernels");
    need("NE.KernelCfg.SparseFmt", 0, "sparse kernels");

    oracle::ConvLayer& l = L.layer;
    oracle::ConvGeometry& g = l.geom;
    const int kw = int(Get(t, "Common.ConvCfg.Kw")), kh = int(Get(t, "Common.ConvCfg.Kh"));
    const int sx = int(Get(t, "Common.ConvCfg.Sx")), sy = int(Get(t, "Common.ConvCfg.Sy"));
    const int px = int(Get(t, "Common.ConvCfg.Px")), py = int(Get(t, "Common.ConvCfg.Py"));
    const int groups = int(Get(t, "Common.GroupConvCfg.NumGroups"));
    if (kw == 0 || kh == 0) Fail(fmt::format("{}: Common.ConvCfg kernel {}x{} (Kh x Kw) has a zero side", where, kh, kw));
    if (sx == 0 || sy == 0) Fail(fmt::format("{}: Common.ConvCfg stride {},{} (Sy, Sx) has a zero", where, sy, sx));
    if (groups == 0) Fail(fmt::format("{}: Common.GroupConvCfg.NumGroups is 0", where));
    if (L.pass) {
      if (L.src.c != L.dst.c || L.src.h != L.dst.h || L.src.w != L.dst.w) {
        Fail(fmt::format("{}: a per-element pass needs the same input and output shape, got [{}, {}, {}] -> [{}, {}, {}]",
                         where, L.src.c, L.src.h, L.src.w, L.dst.c, L.dst.h, L.dst.w));
      }
      if (kw != 1 || kh != 1 || sx != 1 || sy != 1 || px != 0 || py != 0) {
        Fail(fmt::format("{}: a per-element pass needs the 1x1 stride-1 unpadded Common.ConvCfg", where));
      }
    }
    // A per-element pass is the depthwise 1x1 convolution with unit weights.
    l.groups = L.pass ? L.src.c : groups;
    l.cout = L.dst.c;
    if (L.src.c % l.groups != 0 || l.cout % l.groups != 0) {
      Fail(fmt::format("{}: NumGroups {} does not divide Cin {} and Cout {}", where, l.groups, L.src.c, l.cout));
    }
    g.channels = L.src.c / l.groups;
    g.height = L.src.h;
    g.width = L.src.w;
    g.kernel_h = kh;
    g.kernel_w = kw;
    g.stride_y = sy;
    g.stride_x = sx;
    g.pad_top = py;
    g.pad_left = px;
    // The far padding is the least the output size needs (A12); a stride may leave input rows
    // past the last window unread (no padding then).
    g.pad_bottom = std::max(0, (L.dst.h - 1) * sy + kh - L.src.h - py);
    g.pad_right = std::max(0, (L.dst.w - 1) * sx + kw - L.src.w - px);
    if (g.pad_bottom >= kh || g.pad_right >= kw || g.OutHeight() != L.dst.h || g.OutWidth() != L.dst.w) {
      Fail(fmt::format("{}: output {}x{} does not follow from input {}x{}, kernel {}x{}, stride {},{}, padding {},{}",
                       where, L.dst.h, L.dst.w, L.src.h, L.src.w, kh, kw, sy, sx, py, px));
    }

    // MAC mode and the post-processor (N-3).
    const ElemFormat kfmt = L.pass ? L.src.format : format("NE.KernelCfg.KernelFmt");
    if (L.src.format == ElemFormat::kFp16 && kfmt == ElemFormat::kFp16) {
      l.mode = oracle::MacMode::kFp16;
    } else if (L.src.format == ElemFormat::kInt8 && kfmt == ElemFormat::kInt8) {
      l.mode = oracle::MacMode::kInt8;
    } else {
      Fail(fmt::format("{}: {} data with {} kernels is not modelled (fp16 x fp16, int8 x int8)", where,
                       ElemName(L.src.format), ElemName(kfmt)));
    }
    l.gen = oracle::Generation::kM1;  // cpusubtype 4: H13, the M1's engine
    oracle::PostConfig& post = l.post;
    post.gen = l.gen;
    const uint16_t scale = uint16_t(Get(t, "NE.PostScale.PostScale"));
    const bool bias = Get(t, "NE.MACCfg.BiasMode") != 0;
    const uint16_t acc_bias = uint16_t(Get(t, "NE.AccBias.AccBias"));
    if (l.mode == oracle::MacMode::kInt8) {
      post.int_acc = true;
      post.shift = int(Get(t, "NE.PostScale.PostRightShift"));
      post.store = L.dst.format == ElemFormat::kInt8 ? oracle::PostStore::kInt8 : oracle::PostStore::kFp16;
      if (post.store == oracle::PostStore::kInt8 && (scale != kFp16One || bias)) {
        Fail(fmt::format("{}: an int8 result takes no post scale or bias (N-3.3): NE.PostScale must be 1.0 and "
                         "NE.MACCfg.BiasMode 0",
                         where));
      }
    } else {
      need("NE.PostScale.PostRightShift", 0, "a right shift of fp16 results");
      if (L.dst.format != ElemFormat::kFp16) {
        Fail(fmt::format("{}: fp16 data stored as int8 is not modelled (Common.ChCfg.OutFmt 1)", where));
      }
    }
    if (!Finite(scale)) Fail(fmt::format("{}: NE.PostScale 0x{:04x} is not a finite fp16 value", where, scale));
    if (bias && !Finite(acc_bias)) Fail(fmt::format("{}: NE.AccBias 0x{:04x} is not a finite fp16 value", where, acc_bias));
    post.scale_en = scale != kFp16One;
    post.bias_en = bias;
    const uint32_t nl = Get(t, "NE.MACCfg.NonlinearMode");
    if (nl == 3) Fail(fmt::format("{}: NE.MACCfg.NonlinearMode 3 is not known (0 none, 1 ReLU, 2 lookup table)", where));
    post.act = nl == 1 ? oracle::PostAct::kRelu : nl == 2 ? oracle::PostAct::kTable : oracle::PostAct::kNone;
    oracle::ChannelParams ch;
    ch.scale = scale;
    ch.bias = bias ? oracle::Fp16ToFp32(acc_bias) : 0;
    l.channel.assign(size_t(l.cout), ch);

    // Kernel DMA channels (A7, A8, A11): 0..E-1 enabled; with a table, the last one holds it.
    std::vector<int> enabled;
    for (int c = 0; c < kKernelChannels; ++c) {
      if (Get(t, fmt::format("KernelDMASrc.CoeffDMAConfig[{}].En", c))) enabled.push_back(c);
    }
    for (size_t k = 0; k < enabled.size(); ++k) {
      if (enabled[k] != int(k)) {
        Fail(fmt::format("{}: kernel DMA channels {} enabled: the model reads channels 0, 1, ... in order", where,
                         fmt::join(enabled, ", ")));
      }
    }
    const int needed_kbe = enabled.empty() ? 0 : 1;
    if (int(Get(t, "Header[9].KBE0")) != needed_kbe) {
      Fail(fmt::format("{}: Header[9].KBE0 = {} but {} kernel DMA channel{} enabled", where, Get(t, "Header[9].KBE0"),
                       enabled.size(), enabled.size() == 1 ? " is" : "s are"));
    }
    if (needed_kbe) {
      const int kb = int(Get(t, "Header[9].KBase0"));
      if (kb != weights_bar || weights_bar < 0) {
        Fail(fmt::format("{}: kernels from buffer {}, which is not the weights section", where, kb));
      }
    }
    auto channel_bytes = [&](int c, uint64_t* base, uint64_t* size) {
      *base = uint64_t(Get(t, fmt::format("KernelDMASrc.CoeffBaseAddr[{}].Addr", c))) * 64;
      *size = uint64_t(Get(t, fmt::format("KernelDMASrc.CoeffBfrSize[{}].MemBfrSize", c))) * 64;
      if (*base + *size > weights.size()) {
        Fail(fmt::format("{}: kernel DMA channel {} reads 0x{:x}+0x{:x}, past the weights' 0x{:x} bytes", where, c,
                         *base, *size, weights.size()));
      }
    };
    int kernel_count = int(enabled.size());
    if (post.act == oracle::PostAct::kTable) {
      if (enabled.empty()) Fail(fmt::format("{}: NonlinearMode 2 (lookup table) but no kernel DMA channel holds a table", where));
      L.table_channel = enabled.back();
      --kernel_count;
      uint64_t base, size;
      channel_bytes(L.table_channel, &base, &size);
      try {
        L.table = TableFromBlob(weights.data() + base, size_t(size));
      } catch (const TdError& e) {
        Fail(fmt::format("{}: kernel DMA channel {}: {}", where, L.table_channel, e.what()));
      }
      post.table = *L.table;
    }
    const int steps = g.Steps();
    if (L.pass) {
      if (kernel_count != 0) {
        Fail(fmt::format("{}: a per-element pass reads no kernels, but {} kernel DMA channel{} enabled", where,
                         kernel_count, kernel_count == 1 ? " is" : "s are"));
      }
      const uint16_t one = l.mode == oracle::MacMode::kInt8 ? 1 : kFp16One;
      L.w.assign(size_t(l.cout), std::vector<uint16_t>(size_t(steps), one));
    } else {
      if (kernel_count == 0) Fail(fmt::format("{}: a convolution with no kernel DMA channel enabled", where));
      const int eb = ElemBytes(kfmt);
      const uint64_t kbytes = (uint64_t(steps) * uint64_t(eb) + 63) / 64 * 64;
      for (int c = 0; c < kernel_count; ++c) L.kernel_channels.push_back(c);
      L.w.resize(size_t(l.cout));
      for (int co = 0; co < l.cout; ++co) {
        const int c = co % kernel_count;
        uint64_t base, size;
        channel_bytes(c, &base, &size);
        const uint64_t off = uint64_t(co / kernel_count) * kbytes;
        if (off + uint64_t(steps) * uint64_t(eb) > size) {
          Fail(fmt::format("{}: the kernel of output channel {} ({} bytes at +0x{:x}) does not fit kernel DMA channel "
                           "{}'s 0x{:x} bytes",
                           where, co, steps * eb, off, c, size));
        }
        const uint8_t* p = weights.data() + base + off;
        for (int s = 0; s < steps; ++s) {
          L.w[size_t(co)].push_back(eb == 2 ? U16(p + 2 * s) : uint16_t(int16_t(int8_t(p[s]))));
        }
      }
    }
    const std::string bad = oracle::CheckConvLayer(l);
    if (!bad.empty()) Fail(fmt::format("{}: the layer is outside what the model runs: {}", where, bad));
    out.push_back(std::move(L));
  }
  return out;
}

}  // namespace ane::td
