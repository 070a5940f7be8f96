// SPDX-License-Identifier: Apache-2.0
#include "tb/td/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "tb/oracle/elementwise.h"
#include "tb/oracle/formats.h"

namespace ane::td {
namespace {

namespace r = regs::td;

[[noreturn]] void Fail(const std::string& what) { throw TdError(what); }

constexpr int kKernelChannels = 16;
constexpr uint16_t kFp16One = 0x3C00;

// Repeated registers: element i of a field is its element 0's id + i x the register's fields.
constexpr int kEnStep = r::kKernelDMASrc_CoeffDMAConfig_1_En - r::kKernelDMASrc_CoeffDMAConfig_0_En;
constexpr int kBaseStep = r::kKernelDMASrc_CoeffBaseAddr_1_Addr - r::kKernelDMASrc_CoeffBaseAddr_0_Addr;
constexpr int kSizeStep = r::kKernelDMASrc_CoeffBfrSize_1_MemBfrSize - r::kKernelDMASrc_CoeffBfrSize_0_MemBfrSize;
int ChannelEn(int c) { return r::kKernelDMASrc_CoeffDMAConfig_0_En + kEnStep * c; }
int ChannelBase(int c) { return r::kKernelDMASrc_CoeffBaseAddr_0_Addr + kBaseStep * c; }
int ChannelSize(int c) { return r::kKernelDMASrc_CoeffBfrSize_0_MemBfrSize + kSizeStep * c; }

const char* Name(int field) { return r::kFields[field].name; }

// The table domain of assumption A11: [-8, 8], step 1/2.
constexpr uint16_t kTableLo = 0xC800;  // -8
constexpr int kTableStepLog2 = -1;
constexpr size_t kTableBytes = 37 * 2;  // words 0..36

uint16_t U16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }

bool Finite(uint16_t h) { return (h & 0x7C00) != 0x7C00; }

std::string Value(uint32_t v) { return v > 9 ? fmt::format("{} (0x{:x})", v, v) : fmt::format("{}", v); }

// The modelled fields a kind of TD does not use: they must be 0 (an NE task has no second source
// and no planar operation; a planar task has no kernels and no NE operation).
constexpr int kUnusedByNe[] = {
    r::kHeader_8_RBase1,
    r::kHeader_8_RBE1,
    r::kCommon_ChCfg_Src1Fmt,
    r::kTileDMASrc_Src1BaseAddr_Addr,
    r::kTileDMASrc_Src1RowStride_Stride,
    r::kTileDMASrc_Src1PlaneStride_Stride,
    r::kTileDMASrc_Src1GroupStride_Stride,
    r::kTileDMASrc_Src1Fmt_MemFmt,
    r::kPlanar_Cfg_Op,
    r::kPlanar_Cfg_Binary,
    r::kPlanar_Post_Bias,
    r::kPlanar_Post_Scale,
    r::kPlanar_Src0Scale_Scale,
};
constexpr int kUnusedByPlanar[] = {
    r::kHeader_9_KBase0,
    r::kHeader_9_KBE0,
    r::kNE_KernelCfg_KernelFmt,
    r::kNE_MACCfg_OpMode,
    r::kNE_MACCfg_KernelMode,
    r::kNE_MACCfg_BiasMode,
    r::kNE_MACCfg_NonlinearMode,
    r::kNE_PostScale_PostScale,
    r::kNE_PostScale_PostRightShift,
    r::kCommon_Cfg_ActiveNE,
    r::kTileDMASrc_GroupStride_Stride,
    r::kTileDMASrc_Src1GroupStride_Stride,
    r::kTileDMADst_GroupStride_GroupStride,
};

}  // namespace

int ElemBytes(ElemFormat f) { return f == ElemFormat::kFp16 ? 2 : 1; }
const char* ElemName(ElemFormat f) { return f == ElemFormat::kFp16 ? "fp16" : "int8"; }

const char* PlanarOpName(PlanarOp op) {
  switch (op) {
    case PlanarOp::kAdd: return "add";
    case PlanarOp::kMul: return "mul";
    case PlanarOp::kMax: return "max";
    case PlanarOp::kMin: return "min";
  }
  return "?";
}

uint16_t PlanarElement(const PlanarTask& p, uint16_t a, uint16_t b) {
  const uint16_t a0 = oracle::Fp16Mul(a, p.src0_scale);
  uint16_t v = 0;
  switch (p.op) {
    case PlanarOp::kAdd: v = oracle::Fp16Add(a0, b); break;
    case PlanarOp::kMul: v = oracle::Fp16Mul(a0, b); break;
    case PlanarOp::kMax: v = oracle::Fp16Max(a0, b); break;
    case PlanarOp::kMin: v = oracle::Fp16Min(a0, b); break;
  }
  return oracle::Fp16Add(oracle::Fp16Mul(v, p.scale), p.bias);
}

TaskKind KindOf(const Td& t) {
  if (t.Get(r::kHeader_8_ENE) == 0) return TaskKind::kPlanar;
  if (t.As<r::kNE_MACCfg_OpMode>() == r::OpMode::kPass && t.Get(r::kNE_MACCfg_KernelMode) == 1) return TaskKind::kPass;
  return TaskKind::kConv;
}

std::string FixedFieldError(const Td& t) {
  const int kind = int(KindOf(t));
  for (const r::FixedRule& rule : r::kFixedRules) {
    const uint32_t v = t.words[rule.td_offset / 4] & rule.mask;
    bool ok = false;
    for (uint32_t k = 0; k < rule.count[kind]; ++k) ok = ok || rule.allowed[kind][k] == v;
    if (ok) continue;
    // a named field's values shifted down to the field, unnamed bits as they sit in the word
    const uint32_t lsb = rule.field >= 0 ? uint32_t(__builtin_ctz(rule.mask)) : 0;
    std::vector<std::string> allowed;
    for (uint32_t k = 0; k < rule.count[kind]; ++k) allowed.push_back(Value(rule.allowed[kind][k] >> lsb));
    const std::string what = rule.field >= 0
                                 ? fmt::format("{} = {}", Name(rule.field), Value(v >> lsb))
                                 : fmt::format("TD+0x{:03x} bits 0x{:08x} (outside every named field) = 0x{:x}",
                                               rule.td_offset, rule.mask, v);  // unshifted, as `allowed`
    return fmt::format("{}: not modelled, and the real programs' {}s carry {} only (docs/td.md, field status)", what,
                       r::kKindNames[kind], fmt::join(allowed, " or "));
  }
  return "";
}

bool UncarriedValue(const r::FixedRule& rule, TaskKind kind, uint32_t* value) {
  const int k = int(kind);
  const uint32_t step = rule.mask & -rule.mask;
  uint32_t v = rule.allowed[k][0];
  for (int tries = 0; tries < 8; ++tries) {
    v = (v + step) & rule.mask;
    bool carried = false;
    for (uint32_t i = 0; i < rule.count[k]; ++i) carried = carried || rule.allowed[k][i] == v;
    if (!carried) {
      *value = v;
      return true;
    }
  }
  return false;
}

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
    Fail(fmt::format("lookup table: the values outside the domain (0x{:04x}, 0x{:04x}) must be finite", t.left,
                     t.right));
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
  if (planar) {
    std::string ops;
    if (pe.src0_scale != kFp16One) ops += fmt::format(", source 0 x {}", oracle::Fp16ToDouble(pe.src0_scale));
    if (pe.scale != kFp16One) ops += fmt::format(", result x {}", oracle::Fp16ToDouble(pe.scale));
    if (pe.bias != 0) ops += fmt::format(", + {}", oracle::Fp16ToDouble(pe.bias));
    return fmt::format("planar {}, {} [{}, {}, {}] and [{}, {}, {}] -> {} [{}, {}, {}]{}", PlanarOpName(pe.op),
                       ElemName(src.format), src.c, src.h, src.w, src1.c, src1.h, src1.w, ElemName(dst.format), dst.c,
                       dst.h, dst.w, ops);
  }
  const oracle::ConvGeometry& g = layer.geom;
  const char* act = layer.post.act == oracle::PostAct::kRelu    ? ", ReLU"
                    : layer.post.act == oracle::PostAct::kTable ? ", lookup table"
                                                                : "";
  std::string post;
  if (layer.post.scale_en) post += fmt::format(", scale {}", oracle::Fp16ToDouble(layer.channel[0].scale));
  if (layer.post.bias_en) post += ", per-channel bias";
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

std::vector<std::pair<uint64_t, uint64_t>> TdLayer::KernelReads() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  if (planar || pass) {
    if (table_channel >= 0) {
      const uint64_t b = kernels.base[size_t(table_channel)];
      out.push_back({b, b + kTableBytes});
    }
    return out;
  }
  const int k = int(kernel_channels.size());
  const int eb = layer.mode == oracle::MacMode::kInt8 ? 1 : 2;
  const uint64_t bytes = uint64_t(layer.geom.Steps() + (kernels.bias_in_block ? 1 : 0)) * uint64_t(eb);
  for (int co = 0; co < layer.cout; ++co) {
    const uint64_t b = kernels.base[size_t(co % k)] + uint64_t(co / k) * kernels.block_bytes;
    out.push_back({b, b + bytes});
  }
  if (table_channel >= 0) {
    const uint64_t b = kernels.base[size_t(table_channel)];
    out.push_back({b, b + kTableBytes});
  }
  return out;
}

void LoadKernels(TdLayer* l, const std::vector<uint8_t>& kbuf) {
  const std::string where = fmt::format("TD {} at 0x{:x}", l->index, l->at);
  const KernelSource& ks = l->kernels;
  for (size_t c = 0; c < ks.base.size(); ++c) {
    if (ks.base[c] + ks.size[c] > kbuf.size()) {
      Fail(fmt::format("{}: kernel DMA channel {} reads 0x{:x}+0x{:x}, past the 0x{:x} bytes of buffer {}", where, c,
                       ks.base[c], ks.size[c], kbuf.size(), ks.bar));
    }
  }
  if (l->layer.post.act == oracle::PostAct::kTable) {
    const size_t c = size_t(l->table_channel);
    try {
      l->table = TableFromBlob(kbuf.data() + ks.base[c], size_t(ks.size[c]));
    } catch (const TdError& e) {
      Fail(fmt::format("{}: kernel DMA channel {}: {}", where, c, e.what()));
    }
    l->layer.post.table = *l->table;
  }
  oracle::ConvLayer& cl = l->layer;
  const int steps = cl.geom.Steps();
  l->w.clear();
  if (l->pass) {
    const uint16_t one = cl.mode == oracle::MacMode::kInt8 ? 1 : kFp16One;
    l->w.assign(size_t(cl.cout), std::vector<uint16_t>(size_t(steps), one));
  } else {
    const int k = int(l->kernel_channels.size());
    const int eb = cl.mode == oracle::MacMode::kInt8 ? 1 : 2;
    const int lead = ks.bias_in_block ? 1 : 0;
    l->w.resize(size_t(cl.cout));
    for (int co = 0; co < cl.cout; ++co) {
      const int c = co % k;
      const uint64_t off = uint64_t(co / k) * ks.block_bytes;
      if (off + uint64_t(steps + lead) * uint64_t(eb) > ks.size[size_t(c)]) {
        Fail(fmt::format(
            "{}: the kernel of output channel {} ({} bytes at +0x{:x}) does not fit kernel DMA channel {}'s "
            "0x{:x} bytes",
            where, co, (steps + lead) * eb, off, c, ks.size[size_t(c)]));
      }
      const uint8_t* p = kbuf.data() + ks.base[size_t(c)] + off;
      if (ks.bias_in_block) {
        const uint16_t b = U16(p);
        if (!Finite(b))
          Fail(fmt::format("{}: the bias of output channel {} is 0x{:04x}, not a finite fp16 value", where, co, b));
        cl.channel[size_t(co)].bias = oracle::Fp16ToFp32(b);
      }
      for (int s = 0; s < steps; ++s) {
        const uint8_t* q = p + size_t(lead + s) * size_t(eb);
        l->w[size_t(co)].push_back(eb == 2 ? U16(q) : uint16_t(int16_t(int8_t(q[0]))));
      }
    }
  }
  l->loaded = true;
}

namespace {

// Reads one TD as a task (Interpret): its fields checked and turned into a TdLayer, one step a
// method. Every refusal names the TD and the field.
class TdReader {
 public:
  TdReader(const Td& td, size_t i) : t(td), where(fmt::format("TD {} at 0x{:x}", i, td.at)) {
    L.index = int(i);
    L.at = t.at;
    L.kind = KindOf(t);
    L.pass = L.kind == TaskKind::kPass;
    L.planar = L.kind == TaskKind::kPlanar;
  }

  TdLayer Read(const std::vector<uint8_t>& weights, int weights_bar) {
    CheckCommon();
    ReadTensors();
    ReadGeometry();
    if (L.planar) {
      ReadPlanar();
      return std::move(L);
    }
    ReadConv();
    ReadMacAndPost();
    ReadKernelChannels(weights, weights_bar);
    return std::move(L);
  }

 private:
  uint32_t get(int field) const { return t.Get(field); }
  void need(int field, uint32_t want, const std::string& why) const {
    const uint32_t v = get(field);
    if (v != want) Fail(fmt::format("{}: {} = {}: {} (only {} is modelled)", where, Name(field), Value(v), why, want));
  }
  // Field F (a format field) as the element format of a tensor; fails on a code that names none.
  template <int F>
  ElemFormat format() const {
    const r::Fmt v = t.As<F>();
    if (v != r::Fmt::kInt8 && v != r::Fmt::kFp16) {
      Fail(fmt::format("{}: {} = {}: unknown format code (1 int8, 2 fp16 are modelled)", where, Name(F), uint32_t(v)));
    }
    return ElemFormat(uint32_t(v));
  }
  // A tensor's DMA base and strides (A4, A5): each a number of 64-byte units, a row and a plane
  // at least as long as the tensor's.
  void strides(TensorAccess* a, int base, int row, int plane) const {
    a->base = uint64_t(get(base)) * 64;
    a->row = uint64_t(get(row)) * 64;
    a->plane = uint64_t(get(plane)) * 64;
    const uint64_t row_bytes = uint64_t(a->w) * uint64_t(ElemBytes(a->format));
    if (a->h > 1 && a->row < row_bytes) {
      Fail(fmt::format("{}: {} = {} bytes is less than a row of {} bytes", where, Name(row), a->row, row_bytes));
    }
    if (a->c > 1 && a->plane < (a->h > 1 ? uint64_t(a->h) * a->row : row_bytes)) {
      Fail(fmt::format("{}: {} = {} bytes is less than a channel plane of the tensor", where, Name(plane), a->plane));
    }
  }

  // The fields the model does not run, the chain and the engines.
  void CheckCommon() {
    // Every field the model does not run holds a value the real programs carry (docs/td.md).
    if (const std::string bad = FixedFieldError(t); !bad.empty()) Fail(fmt::format("{}: {}", where, bad));
    for (int f : L.planar ? std::vector<int>(std::begin(kUnusedByPlanar), std::end(kUnusedByPlanar))
                          : std::vector<int>(std::begin(kUnusedByNe), std::end(kUnusedByNe))) {
      need(f, 0,
           L.planar ? "a planar task has no kernels and no neural-engine operation"
                    : "a neural-engine task has no second source and no planar operation");
    }
    if (L.planar) {
      for (int c = 0; c < kKernelChannels; ++c) {
        need(ChannelEn(c), 0, "a planar task reads no kernels");
        need(ChannelBase(c), 0, "a planar task reads no kernels");
        need(ChannelSize(c), 0, "a planar task reads no kernels");
      }
    }

    // The chain: the next TD is fetched from the TD buffer (TBase 0) when there is one (A14).
    const bool last = get(r::kHeader_0_EON) != 0;
    need(r::kHeader_8_TBE, last ? 0 : 1,
         last ? "the last TD fetches no next TD" : "a TD with a successor names the buffer it is fetched from");
    need(r::kHeader_8_TBase, 0, "the next TD comes from the chain's own buffer, entry 0");
    need(r::kHeader_1_NextSize, last ? 0 : r::kTdBytes / 4 - 1,
         last ? "no next TD" : "the next TD is a whole H13 TD (0x274 bytes, 0x9c = words - 1)");
    // The engines: ENE neural engines share an NE task (N-7.1: the split changes no value).
    const uint32_t ene = get(r::kHeader_8_ENE), active = get(r::kCommon_Cfg_ActiveNE);
    if (!L.planar && active + 1 != ene) {
      Fail(
          fmt::format("{}: Common.Cfg.ActiveNE = {} but Header[8].ENE = {} (every real program has ActiveNE = ENE - 1)",
                      where, active, ene));
    }
  }

  // The buffers, formats (A13), shapes (A17) and strides of the source and the destination.
  void ReadTensors() {
    // Buffers (header): sources, destination (A6).
    need(r::kHeader_8_RBE0, 1, "the TD has no source buffer");
    need(r::kHeader_8_WBE, 1, "the TD has no destination buffer");
    L.src.bar = int(get(r::kHeader_8_RBase0));
    L.dst.bar = int(get(r::kHeader_8_WBase));
    need(r::kTileDMASrc_DMAConfig_En, 1, "the source DMA is off (a source in the L2 is not modelled)");
    need(r::kTileDMADst_DMAConfig_En, 1, "the destination DMA is off (a result kept in the L2 is not modelled)");

    // Formats (A13).
    L.src.format = format<r::kCommon_ChCfg_InFmt>();
    L.dst.format = format<r::kCommon_ChCfg_OutFmt>();
    if (format<r::kTileDMASrc_Fmt_MemFmt>() != L.src.format) {
      Fail(fmt::format("{}: TileDMASrc.Fmt.MemFmt differs from Common.ChCfg.InFmt (conversion on load is not modelled)",
                       where));
    }
    if (format<r::kTileDMADst_Fmt_MemFmt>() != L.dst.format) {
      Fail(fmt::format(
          "{}: TileDMADst.Fmt.MemFmt differs from Common.ChCfg.OutFmt (conversion on store is not modelled)", where));
    }

    // Shapes (A17) and the DMA strides (A4, A5).
    L.src.w = int(get(r::kCommon_InDim_Win));
    L.src.h = int(get(r::kCommon_InDim_Hin));
    L.src.c = int(get(r::kCommon_Cin_Cin));
    L.dst.w = int(get(r::kCommon_OutDim_Wout));
    L.dst.h = int(get(r::kCommon_OutDim_Hout));
    L.dst.c = int(get(r::kCommon_Cout_Cout));
    for (const auto& [field, v] : {std::pair<int, int>{r::kCommon_InDim_Win, L.src.w},
                                   {r::kCommon_InDim_Hin, L.src.h},
                                   {r::kCommon_Cin_Cin, L.src.c},
                                   {r::kCommon_OutDim_Wout, L.dst.w},
                                   {r::kCommon_OutDim_Hout, L.dst.h},
                                   {r::kCommon_Cout_Cout, L.dst.c}}) {
      if (v == 0) Fail(fmt::format("{}: {} is 0", where, Name(field)));
    }
    strides(&L.src, r::kTileDMASrc_BaseAddr_Addr, r::kTileDMASrc_RowStride_Stride,
            r::kTileDMASrc_PlaneStride_PlaneStride);
    strides(&L.dst, r::kTileDMADst_BaseAddr_Addr, r::kTileDMADst_RowStride_RowStride,
            r::kTileDMADst_PlaneStride_PlaneStride);
  }

  // The geometry (A12): a planar task and a per-element pass take the 1x1 stride-1 encoding.
  void ReadGeometry() {
    kw = int(get(r::kCommon_ConvCfg_Kw));
    kh = int(get(r::kCommon_ConvCfg_Kh));
    sx = int(get(r::kCommon_ConvCfg_Sx));
    sy = int(get(r::kCommon_ConvCfg_Sy));
    px = int(get(r::kCommon_ConvCfg_Px));
    py = int(get(r::kCommon_ConvCfg_Py));
    groups = int(get(r::kCommon_GroupConvCfg_NumGroups));
    if (kw == 0 || kh == 0)
      Fail(fmt::format("{}: Common.ConvCfg kernel {}x{} (Kh x Kw) has a zero side", where, kh, kw));
    if (sx == 0 || sy == 0) Fail(fmt::format("{}: Common.ConvCfg stride {},{} (Sy, Sx) has a zero", where, sy, sx));
    if (groups == 0) Fail(fmt::format("{}: Common.GroupConvCfg.NumGroups is 0", where));
    if (L.pass || L.planar) {
      const char* what = L.planar ? "a planar task" : "a per-element pass";
      if (L.src.c != L.dst.c || L.src.h != L.dst.h || L.src.w != L.dst.w) {
        Fail(fmt::format("{}: {} needs the same input and output shape, got [{}, {}, {}] -> [{}, {}, {}]", where, what,
                         L.src.c, L.src.h, L.src.w, L.dst.c, L.dst.h, L.dst.w));
      }
      if (kw != 1 || kh != 1 || sx != 1 || sy != 1 || px != 0 || py != 0) {
        Fail(fmt::format("{}: {} needs the 1x1 stride-1 unpadded Common.ConvCfg", where, what));
      }
      if (groups != 1) Fail(fmt::format("{}: {} has Common.GroupConvCfg.NumGroups 1", where, what));
    }
    if (groups > 1) {  // a group stride the model would have to apply
      need(r::kTileDMASrc_GroupStride_Stride, 0, "a group stride (the model reads group g at g Cin/G planes)");
      need(r::kTileDMADst_GroupStride_GroupStride, 0, "a group stride (the model writes group g at g Cout/G planes)");
    }
  }

  // A planar task (A18): two sources, the operator, the scales and bias.
  void ReadPlanar() {
    if (get(r::kPlanar_Cfg_Binary) != 1) {
      Fail(
          fmt::format("{}: Planar.Cfg.Binary = 0: a planar operation of one source is not modelled (every real "
                      "planar program adds two)",
                      where));
    }
    need(r::kHeader_8_RBE1, 1, "a two-source planar operation reads source 1 through RBase1");
    // the planar engine's SHAPE and CHAN registers hold W, H and C in 14 bits (docs/planar.md);
    // the RTL front end refuses the rest with code 3 (ane_td_setup's bad_core)
    if (L.src.c > 16383 || L.src.h > 16383 || L.src.w > 16383) {
      Fail(fmt::format("{}: a planar task of [{}, {}, {}]: the planar engine takes C, H and W up to 16383", where,
                       L.src.c, L.src.h, L.src.w));
    }
    L.src1 = L.src;
    L.src1.bar = int(get(r::kHeader_8_RBase1));
    L.src1.format = format<r::kCommon_ChCfg_Src1Fmt>();
    if (format<r::kTileDMASrc_Src1Fmt_MemFmt>() != L.src1.format) {
      Fail(fmt::format("{}: TileDMASrc.Src1Fmt.MemFmt differs from Common.ChCfg.Src1Fmt", where));
    }
    strides(&L.src1, r::kTileDMASrc_Src1BaseAddr_Addr, r::kTileDMASrc_Src1RowStride_Stride,
            r::kTileDMASrc_Src1PlaneStride_Stride);
    for (const TensorAccess* a : {&L.src, &L.src1, &L.dst}) {
      if (a->format != ElemFormat::kFp16) {
        Fail(fmt::format("{}: a planar task on int8 data is not modelled (Common.ChCfg InFmt, Src1Fmt, OutFmt 2)",
                         where));
      }
    }
    L.pe.op = t.As<r::kPlanar_Cfg_Op>();
    L.pe.src0_scale = uint16_t(get(r::kPlanar_Src0Scale_Scale));
    L.pe.scale = uint16_t(get(r::kPlanar_Post_Scale));
    L.pe.bias = uint16_t(get(r::kPlanar_Post_Bias));
    for (const auto& [field, v] : {std::pair<int, uint16_t>{r::kPlanar_Src0Scale_Scale, L.pe.src0_scale},
                                   {r::kPlanar_Post_Scale, L.pe.scale},
                                   {r::kPlanar_Post_Bias, L.pe.bias}}) {
      if (!Finite(v)) Fail(fmt::format("{}: {} = 0x{:04x} is not a finite fp16 value", where, Name(field), v));
    }
    L.loaded = true;
  }

  // The neural engine's operation and the convolution's geometry.
  void ReadConv() {
    const r::OpMode op_mode = t.As<r::kNE_MACCfg_OpMode>();
    const uint32_t kernel_mode = get(r::kNE_MACCfg_KernelMode);
    if (!L.pass && !(op_mode == r::OpMode::kConv && kernel_mode == 0)) {
      Fail(fmt::format(
          "{}: NE.MACCfg OpMode {} with KernelMode {} is not modelled (0/0 convolution, 4/1 per-element pass)", where,
          uint32_t(op_mode), kernel_mode));
    }
    oracle::ConvLayer& l = L.layer;
    oracle::ConvGeometry& g = l.geom;
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
  }

  // MAC mode and the post-processor (N-3).
  void ReadMacAndPost() {
    oracle::ConvLayer& l = L.layer;
    kfmt = L.pass ? L.src.format : format<r::kNE_KernelCfg_KernelFmt>();
    if (L.pass && t.As<r::kNE_KernelCfg_KernelFmt>() != r::Fmt::kNone) {
      Fail(fmt::format("{}: NE.KernelCfg.KernelFmt = {}: a per-element pass reads no kernels (0 in every real pass)",
                       where, get(r::kNE_KernelCfg_KernelFmt)));
    }
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
    const uint16_t scale = uint16_t(get(r::kNE_PostScale_PostScale));
    bias = get(r::kNE_MACCfg_BiasMode) != 0;
    if (bias && L.pass) {
      Fail(
          fmt::format("{}: NE.MACCfg.BiasMode 1 on a per-element pass: its bias is in the kernel blocks (A19), and a "
                      "pass has none",
                      where));
    }
    if (bias && l.mode == oracle::MacMode::kInt8) {
      Fail(fmt::format(
          "{}: NE.MACCfg.BiasMode 1 with int8 kernels: the layout of an int8 bias is not known (fc_bias.hwx "
          "has an fp16 one)",
          where));
    }
    if (l.mode == oracle::MacMode::kInt8) {
      post.int_acc = true;
      post.shift = int(get(r::kNE_PostScale_PostRightShift));
      post.store = L.dst.format == ElemFormat::kInt8 ? oracle::PostStore::kInt8 : oracle::PostStore::kFp16;
      if (post.store == oracle::PostStore::kInt8 && scale != kFp16One) {
        Fail(fmt::format("{}: an int8 result takes no post scale (N-3.3): NE.PostScale must be 1.0", where));
      }
    } else {
      need(r::kNE_PostScale_PostRightShift, 0, "a right shift of fp16 results");
      if (L.dst.format != ElemFormat::kFp16) {
        Fail(fmt::format("{}: fp16 data stored as int8 is not modelled (Common.ChCfg.OutFmt 1)", where));
      }
    }
    if (!Finite(scale)) Fail(fmt::format("{}: NE.PostScale 0x{:04x} is not a finite fp16 value", where, scale));
    post.scale_en = scale != kFp16One;
    post.bias_en = bias;
    const r::Nonlinear nl = t.As<r::kNE_MACCfg_NonlinearMode>();
    switch (nl) {
      case r::Nonlinear::kNone: post.act = oracle::PostAct::kNone; break;
      case r::Nonlinear::kRelu: post.act = oracle::PostAct::kRelu; break;
      case r::Nonlinear::kTable: post.act = oracle::PostAct::kTable; break;
      default:
        Fail(fmt::format("{}: NE.MACCfg.NonlinearMode {} is not known (0 none, 1 ReLU, 2 lookup table)", where,
                         uint32_t(nl)));
    }
    oracle::ChannelParams ch;
    ch.scale = scale;
    ch.bias = 0;  // BiasMode 1: each channel's from its kernel block (LoadKernels)
    l.channel.assign(size_t(l.cout), ch);
  }

  // Kernel DMA channels (A7, A8, A11): 0..E-1 enabled; with a table, the last one holds it.
  void ReadKernelChannels(const std::vector<uint8_t>& weights, int weights_bar) {
    oracle::ConvLayer& l = L.layer;
    const oracle::ConvGeometry& g = l.geom;
    const oracle::PostConfig& post = l.post;
    std::vector<int> enabled;
    for (int c = 0; c < kKernelChannels; ++c) {
      if (get(ChannelEn(c))) enabled.push_back(c);
    }
    for (size_t k = 0; k < enabled.size(); ++k) {
      if (enabled[k] != int(k)) {
        Fail(fmt::format("{}: kernel DMA channels {} enabled: the model reads channels 0, 1, ... in order", where,
                         fmt::join(enabled, ", ")));
      }
    }
    for (int c = int(enabled.size()); c < kKernelChannels; ++c) {  // as in every real program
      need(ChannelBase(c), 0, fmt::format("kernel DMA channel {} is not enabled", c));
      need(ChannelSize(c), 1, fmt::format("kernel DMA channel {} is not enabled", c));
    }
    const int needed_kbe = enabled.empty() ? 0 : 1;
    if (int(get(r::kHeader_9_KBE0)) != needed_kbe) {
      Fail(fmt::format("{}: Header[9].KBE0 = {} but {} kernel DMA channel{} enabled", where, get(r::kHeader_9_KBE0),
                       enabled.size(), enabled.size() == 1 ? " is" : "s are"));
    }
    if (!needed_kbe) need(r::kHeader_9_KBase0, 0, "no kernel buffer is enabled");
    KernelSource& ks = L.kernels;
    ks.bar = needed_kbe ? int(get(r::kHeader_9_KBase0)) : -1;
    ks.bias_in_block = bias;
    for (int c : enabled) {
      ks.base.push_back(uint64_t(get(ChannelBase(c))) * 64);
      ks.size.push_back(uint64_t(get(ChannelSize(c))) * 64);
    }
    int kernel_count = int(enabled.size());
    if (post.act == oracle::PostAct::kTable) {
      if (enabled.empty())
        Fail(fmt::format("{}: NonlinearMode 2 (lookup table) but no kernel DMA channel holds a table", where));
      L.table_channel = enabled.back();
      --kernel_count;
    }
    const int steps = g.Steps();
    const int eb = ElemBytes(kfmt);
    ks.block_bytes = (uint64_t(steps + (bias ? 1 : 0)) * uint64_t(eb) + 63) / 64 * 64;
    if (L.pass) {
      if (kernel_count != 0) {
        Fail(fmt::format("{}: a per-element pass reads no kernels, but {} kernel DMA channel{} enabled", where,
                         kernel_count, kernel_count == 1 ? " is" : "s are"));
      }
    } else {
      if (kernel_count == 0) Fail(fmt::format("{}: a convolution with no kernel DMA channel enabled", where));
      for (int c = 0; c < kernel_count; ++c) L.kernel_channels.push_back(c);
      const uint64_t used = uint64_t(steps + (bias ? 1 : 0)) * uint64_t(eb);  // bytes of a block read
      for (int c = 0; c < kernel_count; ++c) {
        const uint64_t blocks = uint64_t((l.cout - c + kernel_count - 1) / kernel_count);
        if (blocks > 0 && (blocks - 1) * ks.block_bytes + used > ks.size[size_t(c)]) {
          Fail(fmt::format(
              "{}: kernel DMA channel {} holds 0x{:x} bytes (KernelDMASrc.CoeffBfrSize[{}]), less than its {} "
              "kernel block{} of 0x{:x} bytes",
              where, c, ks.size[size_t(c)], c, blocks, blocks == 1 ? "" : "s", ks.block_bytes));
        }
      }
    }
    if (L.table_channel >= 0 && ks.size[size_t(L.table_channel)] < kTableBytes) {
      Fail(fmt::format("{}: the lookup table's kernel DMA channel {} holds 0x{:x} bytes, a table needs {}", where,
                       L.table_channel, ks.size[size_t(L.table_channel)], kTableBytes));
    }
    if (L.pass) {
      const uint16_t one = l.mode == oracle::MacMode::kInt8 ? 1 : kFp16One;
      L.w.assign(size_t(l.cout), std::vector<uint16_t>(size_t(steps), one));
    }
    if (ks.bar < 0) {
      L.loaded = true;
    } else if (ks.bar == weights_bar && weights_bar >= 0) {
      LoadKernels(&L, weights);
    }
    const std::string bad = oracle::CheckConvLayer(l);
    if (!bad.empty()) Fail(fmt::format("{}: the layer is outside what the model runs: {}", where, bad));
  }

  const Td& t;
  const std::string where;
  TdLayer L;
  int kw = 0, kh = 0, sx = 0, sy = 0, px = 0, py = 0, groups = 0;  // ReadGeometry
  ElemFormat kfmt = ElemFormat::kFp16;                             // ReadMacAndPost
  bool bias = false;                                               // NE.MACCfg.BiasMode
};

}  // namespace

std::vector<TdLayer> Interpret(const std::vector<Td>& tds, const std::vector<uint8_t>& weights, int weights_bar) {
  std::vector<TdLayer> out;
  for (size_t i = 0; i < tds.size(); ++i) out.push_back(TdReader(tds[i], i).Read(weights, weights_bar));
  return out;
}

}  // namespace ane::td
