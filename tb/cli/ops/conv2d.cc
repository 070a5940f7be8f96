// SPDX-License-Identifier: Apache-2.0
// op: conv2d -- x [C, H, W] (or [N, C, H, W]) * w [Cout, C / groups, KH, KW] (N-2), with the
// post-processing of N-3: oracle::Conv2d, or the 256-lane neural-engine core RTL.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tb/cli/op_family.h"
#include "tb/oracle/conv.h"
#include "tb/oracle/fast_mac.h"
#include "tb/oracle/kernel_codec.h"

namespace ane::cli::ops {
namespace {

std::string FieldHelp() {
  return "inputs x [C, H, W] or [N, C, H, W] and w [Cout, C / groups, KH, KW] (each fp16 or int8: int8 x int8 "
         "accumulates in "
         "int32, int8 x fp16 and fp16 x int8 convert the int8 side exactly to fp16), optional scale and bias (fp16 "
         "[Cout]); stride, dilation: n or [rows, columns]; padding: n, "
         "[rows, columns] or [top, bottom, left, right]; groups; activation: relu or an activation function; "
         "shift: 0..31 and store: int8 | fp16 (int8 x int8); mapping: auto, broadcast, two_kernel, four_kernel, "
         "depthwise; sparse: true | false; mac: multiply | max | min (N-2.9: the window's maximum or minimum, "
         "w's values ignored); rounding: nearest | stochastic (N-3.4, fp accumulators) with rounding_seed "
         "(1 .. 2^32 - 1, default 1) and rounding_bits (1 .. 13, default 13); kernel_format: fp16 | int8sym | "
         "palette (N-6: fp16 w stored compressed) with kernel_scale: per_tensor | per_channel (int8sym) or "
         "palette_bits: 1, 2, 4, 6 or 8 (palette, default 4); precision: int8 | int4 (int8 x and w of -8..7 in the "
         "MAC's int4 packed mode, N-2.8; RTL: the core runs four images at once, one per nibble of a 16-bit "
         "element, in the broadcast mapping)";
}

// kernel_format, palette_bits, kernel_scale: how fp16 kernels are stored (N-6)
void ReadKernelFormat(Fields& fields, Operation* op) {
  harness::RtlConvOptions& o = op->conv_rtl;
  if (const std::optional<Field> f = fields.Optional("kernel_format")) {
    const std::string name = f->Scalar();
    oracle::KernelFormat kf = oracle::KernelFormat::kFp16;
    if (!oracle::ParseKernelFormat(name, &kf) || kf == oracle::KernelFormat::kRaw8 ||
        kf == oracle::KernelFormat::kRaw4) {
      f->Fail(fmt::format("unknown kernel_format '{}' (expected fp16, int8sym or palette)", name));
    }
    o.fp16_kernels = kf;
  }
  if (const std::optional<Field> f = fields.Optional("palette_bits")) {
    if (o.fp16_kernels != oracle::KernelFormat::kPalette) f->Fail("takes `kernel_format: palette`");
    const int b = int(f->Integer(1, 8));
    if (b == 3 || b == 5 || b == 7) f->Fail(fmt::format("palette index bits are 1, 2, 4, 6 or 8, not {}", b));
    o.palette_bits = b;
  }
  if (const std::optional<Field> f = fields.Optional("kernel_scale")) {
    if (o.fp16_kernels != oracle::KernelFormat::kInt8Sym) f->Fail("takes `kernel_format: int8sym`");
    const std::string v = f->Scalar();
    if (v != "per_tensor" && v != "per_channel") {
      f->Fail(fmt::format("unknown kernel_scale '{}' (expected per_tensor or per_channel)", v));
    }
    o.per_channel_scale = v == "per_channel";
  }
}

// [rows, columns] of an option: two integers in lo..hi, or one for both.
std::pair<int, int> ConvPair(const Field& f, int64_t lo, int64_t hi) {
  if (f.IsScalar()) {
    const int v = int(f.Integer(lo, hi));
    return {v, v};
  }
  const std::vector<Field> items = f.Items();
  if (items.size() != 2) f.Fail("expected an integer or a list of two integers [rows, columns]");
  return {int(items[0].Integer(lo, hi)), int(items[1].Integer(lo, hi))};
}

// The fields before the inputs: stride, padding, dilation, groups, mapping, sparse (the kernel
// and the input's shape come from w and x in Infer).
void ReadFields(Fields& fields, Operation* op) {
  oracle::ConvGeometry& g = op->conv.geom;
  if (const std::optional<Field> f = fields.Optional("stride")) std::tie(g.stride_y, g.stride_x) = ConvPair(*f, 1, 4);
  if (const std::optional<Field> f = fields.Optional("dilation"))
    std::tie(g.dilation_y, g.dilation_x) = ConvPair(*f, 1, 4);
  if (const std::optional<Field> pd = fields.Optional("padding")) ReadPadding(*pd, 56, true, &g);
  if (const std::optional<Field> f = fields.Optional("groups")) op->conv.groups = int(f->Integer(1, 1023));
  if (const std::optional<Field> f = fields.Optional("mapping")) {
    static const std::pair<const char*, harness::ConvMapping> kMappings[] = {
        {"auto", harness::ConvMapping::kAuto},
        {"broadcast", harness::ConvMapping::kBroadcast},
        {"two_kernel", harness::ConvMapping::kTwoKernel},
        {"four_kernel", harness::ConvMapping::kFourKernel},
        {"depthwise", harness::ConvMapping::kDepthwise}};
    const std::string m = f->Scalar();
    bool known = false;
    for (const auto& [name, mapping] : kMappings) {
      if (m == name) {
        op->conv_rtl.mapping = mapping;
        known = true;
      }
    }
    if (!known) {
      f->Fail(fmt::format("unknown mapping '{}' (expected auto, broadcast, two_kernel, four_kernel or depthwise)", m));
    }
  }
  if (const std::optional<Field> f = fields.Optional("mac")) {
    // N-2.9: the lanes' compare mode instead of multiply-add (Infer keeps it)
    const std::string m = f->Scalar();
    if (m == "max" || m == "min") {
      op->conv.mode = m == "max" ? oracle::MacMode::kCmpMax : oracle::MacMode::kCmpMin;
    } else if (m != "multiply") {
      f->Fail(fmt::format("unknown mac '{}' (expected multiply, max or min)", m));
    }
  }
  if (const std::optional<Field> f = fields.Optional("sparse")) {
    const std::string v = f->Scalar();
    if (v != "true" && v != "false") f->Fail("expected true or false");
    op->conv_rtl.sparse = v == "true";
  }
  ReadKernelFormat(fields, op);
  if (const std::optional<Field> f = fields.Optional("precision")) {
    const std::string p = f->Scalar();
    if (p != "int8" && p != "int4") f->Fail(fmt::format("unknown precision '{}' (supported: int8, int4)", p));
    op->int4 = p == "int4";
    op->conv_rtl.int4 = op->int4;
    // the int4 packed mode runs in the broadcast mapping (two kernels a pass, four images)
    const harness::ConvMapping m = op->conv_rtl.mapping;
    if (op->int4 && m != harness::ConvMapping::kAuto && m != harness::ConvMapping::kBroadcast) {
      f->Fail("precision int4 runs in the core's broadcast mapping (four images per 16-bit element)");
    }
  }
}

std::vector<const char*> Inputs(const Operation&) { return {"x", "w"}; }

std::vector<std::vector<uint16_t>> ConvKernels(const Operation& op);

// int8sym / palette kernels (N-6): the layer's one scale (per_tensor; per_channel: each kernel's
// own) or palette, chosen from all of w as the encoder chooses per group, then the coefficients
// the MAC receives (w stored and decompressed) into op->conv_coefs. Every kernel group of the
// core stores that scale or palette, so both engines compute with the same coefficients.
void StoreKernels(Operation* op, const Field& where) {
  harness::RtlConvOptions& o = op->conv_rtl;
  oracle::KernelGroup layer;  // every kernel, for the layer's one choice
  layer.spec.format = o.fp16_kernels;
  layer.spec.sparse = o.sparse;
  layer.spec.palette_bits = o.palette_bits;
  layer.spec.per_channel_scale = o.per_channel_scale;
  layer.weights = ConvKernels(*op);
  const std::vector<std::vector<uint16_t>>& w = layer.weights;
  if (o.fp16_kernels == oracle::KernelFormat::kInt8Sym) {
    const size_t k = w[0].size();
    for (size_t i = 0; i < w.size() * k; ++i) {
      const uint16_t c = w[i / k][i % k];
      if ((c & 0x7C00) == 0x7C00) {
        where.Fail(fmt::format("kernel_format int8sym quantizes finite weights; w[{}] (kernel {}, step {}) is {}", i,
                               i / k, i % k, FormatValue(c, DType::kFp16)));
      }
    }
  }
  const oracle::KernelSpec& spec = layer.spec;
  try {
    // per channel, each kernel's scale is its own whatever the grouping: the groups choose it
    if (!(spec.format == oracle::KernelFormat::kInt8Sym && spec.per_channel_scale)) oracle::ChooseStorage(&layer);
    o.palette = layer.palette;
    o.scales = layer.scales;
    op->conv_coefs = oracle::StoredCoefficients(spec, o.palette, o.scales, w);
  } catch (const std::invalid_argument& e) {
    where.Fail(fmt::format("kernel_format {}: {}", oracle::KernelFormatName(spec.format), e.what()));
  }
}

// The coefficients the MAC receives: w, or w as stored (conv_coefs).
std::vector<std::vector<uint16_t>> ConvCoefficients(const Operation& op) {
  return op.conv_coefs.empty() ? ConvKernels(op) : op.conv_coefs;
}

// " int8sym per_tensor", " palette 4-bit" or "".
std::string KernelFormatText(const Operation& op) {
  const harness::RtlConvOptions& o = op.conv_rtl;
  if (o.fp16_kernels == oracle::KernelFormat::kInt8Sym) {
    return o.per_channel_scale ? " kernels int8sym per_channel" : " kernels int8sym per_tensor";
  }
  if (o.fp16_kernels == oracle::KernelFormat::kPalette) return fmt::format(" kernels palette {}-bit", o.palette_bits);
  return "";
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& x = op->inputs.at("x").tensor;
  const Tensor& w = op->inputs.at("w").tensor;
  for (const char* name : {"x", "w"}) {
    const Tensor& t = op->inputs.at(name).tensor;
    if (t.dtype != DType::kFp16 && t.dtype != DType::kInt8) {
      where.at(name).Fail(fmt::format("wrong dtype: {} ('{}'); conv2d inputs are fp16 ('<f2') or int8 ('|i1')",
                                      DTypeName(t.dtype), NpyDescr(t.dtype)));
    }
    if (ElementCount(t.shape) == 0 || t.shape.empty()) {
      where.at(name).Fail(fmt::format("empty tensor (shape {})", ShapeString(t.shape)));
    }
  }
  if (x.shape.size() != 3 && x.shape.size() != 4) {
    where.at("x").Fail(fmt::format("shape {}: conv2d takes x [C, H, W] or [N, C, H, W]", ShapeString(x.shape)));
  }
  if (w.shape.size() != 4) {
    where.at("w").Fail(fmt::format("shape {}: conv2d takes w [Cout, Cin / groups, KH, KW]", ShapeString(w.shape)));
  }
  const size_t r = x.shape.size();
  oracle::ConvLayer& l = op->conv;
  oracle::ConvGeometry& g = l.geom;
  op->batch = r == 4 ? x.shape[0] : 0;
  const int64_t cin = x.shape[r - 3];
  if (x.shape[r - 2] > 4095 || x.shape[r - 1] > 4095 || cin > 65535) {
    where.at("x").Fail(fmt::format("shape {}: H and W at most 4095, C at most 65535", ShapeString(x.shape)));
  }
  if (w.shape[0] > 65535) where.at("w").Fail(fmt::format("shape {}: Cout at most 65535", ShapeString(w.shape)));
  g.height = int(x.shape[r - 2]);
  g.width = int(x.shape[r - 1]);
  g.kernel_h = int(std::min<int64_t>(w.shape[2], 99));
  g.kernel_w = int(std::min<int64_t>(w.shape[3], 99));
  l.cout = int(w.shape[0]);
  if (cin % l.groups != 0 || w.shape[1] != cin / l.groups) {
    where.at("w").Fail(fmt::format("shape {}: x has {} channels and groups is {}, so w needs shape [Cout, {}, KH, KW]",
                                   ShapeString(w.shape), cin, l.groups,
                                   cin % l.groups == 0 ? fmt::format("{}", cin / l.groups) : std::string("?")));
  }
  if (l.cout % l.groups != 0) {
    where.at("w").Fail(
        fmt::format("shape {}: Cout {} is not a multiple of groups {}", ShapeString(w.shape), l.cout, l.groups));
  }
  g.channels = int(cin / l.groups);
  // N-2.1: the operands' dtypes choose the MAC mode; a mixed layer converts its int8 side
  // exactly to fp16 and accumulates in fp (int8 x fp16: int8 data; fp16 x int8: int8 kernels)
  const bool x8 = x.dtype == DType::kInt8, w8 = w.dtype == DType::kInt8;
  if (op->int4) {  // N-2.8: int8 tensors of -8..7 (an int8 x int8 layer, in the int4 packed mode)
    if (oracle::IsCompareMode(l.mode)) where.at("x").Fail("precision int4 multiplies; `mac: max | min` compares fp16");
    if (op->conv_rtl.fp16_kernels != oracle::KernelFormat::kFp16) {
      where.at("w").Fail(fmt::format("precision int4 takes int8 w; kernel_format {} stores fp16 kernels",
                                     oracle::KernelFormatName(op->conv_rtl.fp16_kernels)));
    }
    CheckInt4Values(x, "x", "x and w", where.at("x"));
    CheckInt4Values(w, "w", "x and w", where.at("w"));
  }
  if (oracle::IsCompareMode(l.mode)) {
    // N-2.9: acc = max / min(acc, data) over the window, the kernel's values ignored
    if (x8 || w8) {
      where.at(x8 ? "x" : "w").Fail("`mac: max` and `mac: min` compare fp16 data with fp16 kernels (N-2.9)");
    }
  } else {
    l.mode = x8 && w8 ? oracle::MacMode::kInt8
             : x8     ? oracle::MacMode::kInt8xFp16
             : w8     ? oracle::MacMode::kFp16xInt8
                      : oracle::MacMode::kFp16;
  }
  const std::string bad = oracle::CheckConvGeometry(g, oracle::kMaxLayerKernel);
  if (!bad.empty())
    where.at("x").Fail(fmt::format("x {} with w {}: {}", ShapeString(x.shape), ShapeString(w.shape), bad));
  if (op->conv_rtl.fp16_kernels != oracle::KernelFormat::kFp16) {
    if (w8) {
      where.at("w").Fail(fmt::format("kernel_format {} stores fp16 kernels; this w is int8 (stored raw)",
                                     oracle::KernelFormatName(op->conv_rtl.fp16_kernels)));
    }
    StoreKernels(op, where.at("w"));
  }
  std::vector<int64_t> y;
  if (r == 4) y.push_back(op->batch);
  y.insert(y.end(), {int64_t(l.cout), int64_t(g.OutHeight()), int64_t(g.OutWidth())});
  op->outputs = {{"y", TensorType{DType::kFp16, y}}};
}

// The post-processing (N-3): scale and bias inputs (fp16 [Cout]), activation (relu or a table),
// and for int8 x int8 layers the requantization `shift` with `store: int8` (default) or
// `store: fp16`. Sets op->conv.post, op->conv.channel and y's dtype, then checks the whole layer.
void ReadPost(Operation* op, const std::map<std::string, Field>& where, const std::map<std::string, Field>& late) {
  const auto field = [&](const char* name) {
    return late.count(name) ? std::optional<Field>(late.at(name)) : std::nullopt;
  };
  const std::optional<Field> activation = field("activation");
  const std::optional<Field> shift = field("shift");
  const std::optional<Field> store = field("store");
  const std::optional<Field> rounding = field("rounding");
  const std::optional<Field> rounding_seed = field("rounding_seed");
  const std::optional<Field> rounding_bits = field("rounding_bits");
  oracle::ConvLayer& l = op->conv;
  oracle::PostConfig& cfg = l.post;
  cfg = oracle::PostConfig{};
  cfg.gen = op->generation;
  l.gen = op->generation;
  ReadScaleBiasActivation(*op, where, activation, l.cout, "output channel", &cfg);
  TensorType& y = op->outputs.at("y");
  if (l.mode == oracle::MacMode::kInt8) {
    if (!shift) where.at("w").Fail("an int8 x int8 conv2d needs `shift` (the requantization of N-3.3)");
    cfg.int_acc = true;
    cfg.shift = int(shift->Integer(0, 31));
    cfg.store = oracle::PostStore::kInt8;
    if (store) {
      if (store->Scalar() == "fp16") {
        cfg.store = oracle::PostStore::kFp16;
      } else if (store->Scalar() != "int8") {
        store->Fail(fmt::format("unknown store '{}' (expected int8 or fp16)", store->Scalar()));
      }
    }
    y.dtype = cfg.store == oracle::PostStore::kInt8 ? DType::kInt8 : DType::kFp16;
  } else {
    const char* what = l.mode == oracle::MacMode::kInt8xFp16   ? "int8 x fp16"
                       : l.mode == oracle::MacMode::kFp16xInt8 ? "fp16 x int8"
                       : oracle::IsCompareMode(l.mode)         ? "a compare (mac: max or min)"
                                                               : "fp16";
    if (shift) shift->Fail(fmt::format("`shift` requantizes int8 x int8 layers; this conv2d is {}", what));
    if (store && store->Scalar() != "fp16") {
      store->Fail(fmt::format("this conv2d is {}: it stores fp16 (store: int8 needs int8 x and w)", what));
    }
  }
  // N-3.4: stochastic rounding of the accumulator to fp16, its LFSR seeded per image
  ReadRounding(rounding, rounding_seed, rounding_bits, "this conv2d is int8 x int8", &cfg);
  for (int64_t co = 0; co < l.cout; ++co) l.channel.push_back(Channel(*op, co));
  const std::string bad = oracle::CheckConvLayer(l, true);
  if (!bad.empty()) throw CliError(fmt::format("{}: conv2d: {}", op->file, bad));
}

std::string Describe(const Operation& op) {
  const oracle::ConvGeometry& g = op.conv.geom;
  std::string fn = fmt::format(" {}x{} stride [{}, {}] padding [{}, {}, {}, {}]", g.kernel_h, g.kernel_w, g.stride_y,
                               g.stride_x, g.pad_top, g.pad_bottom, g.pad_left, g.pad_right);
  if (g.dilation_y != 1 || g.dilation_x != 1) fn += fmt::format(" dilation [{}, {}]", g.dilation_y, g.dilation_x);
  if (op.conv.groups != 1) fn += fmt::format(" groups {}", op.conv.groups);
  if (oracle::IsCompareMode(op.conv.mode)) fn += op.conv.mode == oracle::MacMode::kCmpMax ? " mac max" : " mac min";
  if (op.int4) fn += " int4";
  return fn + KernelFormatText(op);
}

// The stored kernels' difference from w: "" for uncompressed kernels.
std::string StoredNote(const Operation& op) {
  if (op.conv_coefs.empty()) return "";
  const std::vector<std::vector<uint16_t>> w = ConvKernels(op);
  size_t changed = 0, total = 0;
  double most = 0;
  for (size_t co = 0; co < w.size(); ++co) {
    for (size_t s = 0; s < w[co].size(); ++s, ++total) {
      if (w[co][s] == op.conv_coefs[co][s]) continue;
      ++changed;
      most = std::max(
          most, std::fabs(ReferenceValue(w[co][s], DType::kFp16) - ReferenceValue(op.conv_coefs[co][s], DType::kFp16)));
    }
  }
  return fmt::format(
      "note: the kernels are stored as{} (N-6); the engines and the reference compute with the stored\n"
      "weights: {} of {} differ from w{}.\n",
      KernelFormatText(op).substr(std::string(" kernels").size()), changed, total,
      changed ? fmt::format(", by at most {:g}", most) : std::string());
}

std::string ReferenceNote(const Operation& op) {
  const std::string sr = (op.conv.post.sr ? kStochasticNote : "") + StoredNote(op);
  if (!oracle::IsCompareMode(op.conv.mode)) return kDotProductNote + sr;
  return "note: the fp64 reference takes the window's extreme of the values after N-1; on m1 the engine's\n"
         "compare treats a denormal as +0 (N-2.3), and the post-processing rounds as the reference does.\n" +
         sr;
}

// Image n of x as [Cin][H][W] codes (int8 in bits [7:0]).
oracle::Tensor3 ConvImage(const Operation& op, int64_t n) {
  const oracle::ConvLayer& l = op.conv;
  const Tensor& x = op.inputs.at("x").tensor;
  const size_t plane = size_t(l.Cin()) * size_t(l.geom.height) * size_t(l.geom.width);
  oracle::Tensor3 t{l.Cin(), l.geom.height, l.geom.width, {}};
  for (size_t i = 0; i < plane; ++i) t.codes.push_back(uint16_t(x.bits[size_t(n) * plane + i] & 0xFFFFu));
  return t;
}

// The kernels as [Cout][Cg KH KW] in the N-2 step order (c, ky, kx), which is w's own layout;
// int8 weights sign-extended to 16 bits (raw8 kernels).
std::vector<std::vector<uint16_t>> ConvKernels(const Operation& op) {
  const oracle::ConvLayer& l = op.conv;
  const Tensor& w = op.inputs.at("w").tensor;
  const size_t k = size_t(l.geom.Steps());
  std::vector<std::vector<uint16_t>> kernels(size_t(l.cout));
  for (size_t co = 0; co < kernels.size(); ++co) {
    for (size_t s = 0; s < k; ++s) {
      const uint32_t b = w.bits[co * k + s];
      kernels[co].push_back(w.dtype == DType::kInt8 ? uint16_t(int16_t(int8_t(uint8_t(b)))) : uint16_t(b));
    }
  }
  return kernels;
}

// fp64: each output the sum over (c, ky, kx) in order of x * w (x zero outside the input, the
// N-1 input boundary applied), then PostReference per output channel.
TensorMap Reference(const Operation& op) {
  const oracle::ConvLayer& l = op.conv;
  const oracle::ConvGeometry& g = l.geom;
  const DType in = op.inputs.at("x").tensor.dtype, wt = op.inputs.at("w").tensor.dtype;
  const std::vector<std::vector<uint16_t>> w = ConvCoefficients(op);
  Tensor y{op.outputs.at("y").dtype, op.outputs.at("y").shape, {}};
  const int per = l.cout / l.groups;
  // the steps, the weights and each image as values once, outside the sums
  std::vector<oracle::ConvStep> steps;
  for (int s = 0; s < g.Steps(); ++s) steps.push_back(oracle::StepAt(g, s));
  std::vector<std::vector<double>> wv(w.size());
  for (size_t co = 0; co < w.size(); ++co) {
    for (uint16_t b : w[co]) wv[co].push_back(ReferenceValue(b, wt));
  }
  const bool cmp = oracle::IsCompareMode(l.mode), max = l.mode == oracle::MacMode::kCmpMax;
  for (int64_t n = 0; n < std::max<int64_t>(op.batch, 1); ++n) {
    const oracle::Tensor3 x = ConvImage(op, n);
    std::vector<double> xv;
    xv.reserve(x.codes.size());
    for (uint16_t b : x.codes) xv.push_back(ReferenceValue(b, in));
    for (int co = 0; co < l.cout; ++co) {
      const int c0 = (co / per) * g.channels;
      for (int oy = 0; oy < g.OutHeight(); ++oy) {
        for (int ox = 0; ox < g.OutWidth(); ++ox) {
          double sum = 0;
          for (int s = 0; s < g.Steps(); ++s) {
            const oracle::ConvStep& st = steps[size_t(s)];
            const int yy = oy * g.stride_y - g.pad_top + st.ky * g.dilation_y;
            const int xx = ox * g.stride_x - g.pad_left + st.kx * g.dilation_x;
            const bool outside = yy < 0 || yy >= g.height || xx < 0 || xx >= g.width;
            const size_t at = outside ? 0 : x.index(c0 + st.c, yy, xx);
            if (cmp) {  // the window's values, the padding's zeros among them
              const double v = outside ? 0.0 : xv[at];
              sum = s == 0 ? v : max ? std::max(sum, v) : std::min(sum, v);
              continue;
            }
            if (outside) continue;
            const double a = xv[at];
            const double b = wv[size_t(co)][size_t(s)];
            const double prod = (a == 0 || b == 0) ? 0.0 : a * b;
            sum = (std::isinf(sum) && std::isinf(prod) && sum != prod) ? 0.0 : sum + prod;
          }
          y.bits.push_back(PostReference(l.post, l.channel[size_t(co)], sum));
        }
      }
    }
  }
  return Y(std::move(y));
}

#ifndef ANE_CLI_NO_ENGINES
std::string RtlCheck(const Operation& op) {
  harness::CoreLayerPlan plan;
  const std::string bad = harness::PlanRtlConv(op.conv, op.conv_rtl, &plan);
  return bad.empty() ? "" : fmt::format("the 256-lane core cannot run this layer: {} (--engine oracle can)", bad);
}

// One image's outputs as output bits (int8: the low byte of the sign-extended code).
void AppendConvOutputs(const oracle::Tensor3& y, DType dtype, std::vector<uint32_t>* out) {
  for (uint16_t c : y.codes) out->push_back(dtype == DType::kInt8 ? (c & 0xFFu) : c);
}

// oracle::Conv2d per image of the batch (engine oracle), the 256-lane core (rtl), or both with
// the first differing output located in the core's tiling.
Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault& fault) {
  const TensorType& type = op.outputs.at("y");
  // the RTL stores w as the op asks (N-6); the oracle computes with the stored coefficients
  const std::vector<std::vector<uint16_t>> w = ConvKernels(op);
  const std::vector<std::vector<uint16_t>> coefs = ConvCoefficients(op);
  const int64_t images = std::max<int64_t>(op.batch, 1);
  Tensor want{type.dtype, type.shape, {}};
  Tensor got{type.dtype, type.shape, {}};
  harness::RtlConvStats total;
  harness::CoreLayerPlan plan;
  // int4: the images wait here until four (or the batch's last) run on the core together
  std::vector<oracle::Tensor3> int4_images;
  int64_t runs = 0;  // runs of the core (int4: four images each)
  // N-3.4: stochastic rounding draws once per lane of every post-processor vector, so the oracle
  // runs the post-processing over the core's vectors in the core's order (its plan)
  std::vector<oracle::PostVector> order;
  if (op.conv.post.sr && engine != Engine::kRtl) {
    const std::string bad = harness::PlanRtlConv(op.conv, op.conv_rtl, &plan);
    if (!bad.empty()) {
      throw CliError(fmt::format(
          "{}: conv2d: stochastic rounding draws in the core's vector order, and the core cannot run this layer: {}",
          op.file, bad));
    }
    order = harness::CorePostVectors(plan, harness::kCore256Params);
  }
  for (int64_t n = 0; n < images; ++n) {
    const oracle::Tensor3 x = ConvImage(op, n);
    // engine oracle: the fast exact path (oracle/fast_mac.h, equal to the reference by
    // oracle_fast_mac_test); engine both: the reference stages, the RTL's judge; stochastic
    // rounding: the reference stages over the core's vectors (each image from the seed again)
    if (op.conv.post.sr && engine != Engine::kRtl) {
      AppendConvOutputs(oracle::Conv2dInVectors(op.conv, x, coefs, order), type.dtype, &want.bits);
    } else if (engine == Engine::kOracle) {
      AppendConvOutputs(oracle::FastConv2d(op.conv, x, coefs), type.dtype, &want.bits);
    } else if (engine == Engine::kBoth) {
      AppendConvOutputs(oracle::Conv2d(op.conv, x, coefs), type.dtype, &want.bits);
    }
    if (engine == Engine::kOracle) continue;
    oracle::Tensor3 xr = x;
    const int64_t plane = int64_t(x.h) * x.w;
    if (fault.active() && fault.row < x.c && fault.k < plane) {  // ANE_FAULT=C,I: x[c] element I
      xr.codes[size_t(fault.row * plane + fault.k)] ^= 1;
    }
    if (op.int4) {
      int4_images.push_back(std::move(xr));
      if (int4_images.size() < 4 && n + 1 < images) continue;
    }
    harness::RtlConvStats s;
    try {
      if (op.int4) {
        const harness::RtlConvInt4Result r = harness::RtlConv2dInt4(op.conv, int4_images, w, op.conv_rtl);
        for (const oracle::Tensor3& y : r.y) AppendConvOutputs(y, type.dtype, &got.bits);
        plan = r.plan;
        s = r.stats;
        int4_images.clear();
      } else {
        const harness::RtlConvResult r = harness::RtlConv2d(op.conv, xr, w, op.conv_rtl);
        AppendConvOutputs(r.y, type.dtype, &got.bits);
        plan = r.plan;
        s = r.stats;
      }
    } catch (const std::invalid_argument& err) {
      throw CliError(fmt::format("{}: the 256-lane core cannot run this layer: {}", op.file, err.what()));
    }
    if (runs++ == 0) {
      total = s;
    } else {
      total.cycles += s.cycles;
      total.macs += s.macs;
      total.seconds += s.seconds;
      total.counters.cycles += s.counters.cycles;
      total.counters.mac += s.counters.mac;
      total.counters.stall_res += s.counters.stall_res;
      total.counters.wait_slot += s.counters.wait_slot;
      total.counters.wait_load += s.counters.wait_load;
      total.counters.wait_kern += s.counters.wait_kern;
    }
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  const int oh = op.conv.geom.OutHeight(), ow = op.conv.geom.OutWidth();
  const int64_t per_image = int64_t(op.conv.cout) * oh * ow;
  total.utilization = total.cycles ? double(total.macs) / (256.0 * double(total.cycles)) : 0.0;
  RtlRun rtl;
  rtl.conv = total;
  return RtlEvaluation(engine, rtl, std::move(got), want, [&](size_t i) -> decltype(EngineMismatch::stage) {
    const int64_t j = int64_t(i) % per_image;
    const int co = int(j / (oh * ow)), oy = int(j % (oh * ow) / ow), ox = int(j % ow);
    const int64_t image = int64_t(i) / per_image;
    return {"neural-engine core: MAC reduction (N-2) or post-processor (N-3)",
            fmt::format("output channel {}, position ({}, {}){}: {}{}", co, oy, ox,
                        op.batch ? fmt::format(" of image {}", image) : "", harness::ConvOutputPlace(plan, co, oy, ox),
                        op.int4 ? fmt::format(", run {}, nibble {} (output channel {} of the run)", image / 4,
                                              image % 4, 4 * co + image % 4)
                                : "")};
  });
}

void PrintRtl(const Operation& op, const RtlRun& rtl) {
  const harness::RtlConvStats& s = *rtl.conv;
  const harness::CoreCounters& c = s.counters;
  fmt::print(
      "rtl         neural-engine core, 256 lanes, {} mapping, {}x{} tiles ({} tiles x {} passes{}): {} cycles, "
      "{} MAC cycles, utilization {:.1f}%{}\n",
      s.two_kernel    ? "two-kernel"
      : s.four_kernel ? "four-kernel"
      : s.diag        ? "depthwise interleave"
      : op.int4       ? "int4 packed broadcast"
                      : "broadcast",
      s.tile_h, s.tile_w, s.tiles, s.passes,
      !op.batch ? std::string()
      : op.int4
          ? fmt::format(", per run, {} run{} for {} images", (op.batch + 3) / 4, op.batch > 4 ? "s" : "", op.batch)
          : fmt::format(", per image, {} images", op.batch),
      s.cycles, c.mac, 100.0 * s.utilization,
      op.int4 ? " (N-2.8: four images a run, one per nibble; multiply-accumulates per lane and cycle, four an "
                "operation)"
              : "");
  fmt::print(
      "rtl cycles  not issuing a MAC operation: {} (waiting for results to drain {}, for an accumulator slot {}, "
      "for input {}, for kernels {})\n",
      s.cycles - c.mac, c.stall_res, c.wait_slot, c.wait_load, c.wait_kern);
  PrintRtlSpeed(s.cycles, s.macs, s.seconds);
}
#endif

}  // namespace

const OpFamily kConv2dFamily = {
    "conv2d",
    "x [C, H, W] or [N, C, H, W] * w [Cout, C / groups, KH, KW] (N-2), post-processed (N-3); RTL: the 256-lane "
    "neural-engine core",
    FieldHelp,
    ReadFields,
    Inputs,
    {"scale", "bias"},
    Infer,
    {"activation", "shift", "store", "rounding", "rounding_seed", "rounding_bits"},
    ReadPost,
    Describe,
    true,
    ANE_CLI_ENGINE(RtlCheck),
    ANE_CLI_ENGINE(Evaluate),
    ANE_CLI_ENGINE(PrintRtl),
    ReferenceNote,
    Reference};

}  // namespace ane::cli::ops
