// SPDX-License-Identifier: Apache-2.0
// op: convert -- format conversion on the planar engine (N-4.1): x fp16 or int8, y fp16 or int8,
// y = out(unary(RNE16(RNE16(x x scale) + bias))) element by element through the engine's result
// converter (oracle::FormatConvert), with one scale and bias for the tensor or one per channel.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tb/cli/op_family.h"

namespace ane::cli::ops {
namespace {

std::string FieldHelp() {
  return "input x (fp16 or int8, [W], [H, W] or [C, H, W]); to: fp16 | int8 (default fp16); scale, bias: an fp16 "
         "value or a list of one per channel C (default 1 and 0); unary: none, abs, neg, relu (after the bias); "
         "y = to(unary(RNE16(RNE16(x scale) + bias))), int8 by RNE clamped to -128..127";
}

// One finite fp16 value, or a list of them (one per channel).
std::vector<uint16_t> ReadValues(const Field& f) {
  std::vector<uint16_t> v;
  if (f.IsScalar()) {
    v.push_back(uint16_t(ParseValue(f, DType::kFp16)));
  } else {
    for (const Field& item : f.Items()) v.push_back(uint16_t(ParseValue(item, DType::kFp16)));
    if (v.empty()) f.Fail("expected an fp16 value or a list of one per channel");
  }
  for (uint16_t c : v) {
    if ((c & 0x7C00) == 0x7C00) f.Fail(fmt::format("{} is not a finite fp16 value", FormatValue(c, DType::kFp16)));
  }
  return v;
}

void ReadFields(Fields& fields, Operation* op) {
  oracle::FcConfig fc;
  if (const std::optional<Field> f = fields.Optional("to")) {
    if (f->Scalar() != "fp16" && f->Scalar() != "int8") {
      f->Fail(fmt::format("unknown format '{}' (expected fp16 or int8)", f->Scalar()));
    }
    fc.out_int8 = f->Scalar() == "int8";
  }
  if (const std::optional<Field> f = fields.Optional("unary")) {
    if (!oracle::ParseFcUnary(f->Scalar(), &fc.unary)) {
      f->Fail(fmt::format("unknown unary '{}' (expected none, abs, neg or relu)", f->Scalar()));
    }
  }
  op->convert = {fc};
  op->convert_scale = {0x3C00};
  op->convert_bias = {0x0000};
  if (const std::optional<Field> f = fields.Optional("scale")) op->convert_scale = ReadValues(*f);
  if (const std::optional<Field> f = fields.Optional("bias")) op->convert_bias = ReadValues(*f);
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& x = op->inputs.at("x").tensor;
  const Field& fx = where.at("x");
  if (x.dtype != DType::kFp16 && x.dtype != DType::kInt8) {
    fx.Fail(fmt::format("wrong dtype: {} ('{}'); convert takes fp16 ('<f2') or int8 ('|i1')", DTypeName(x.dtype),
                        NpyDescr(x.dtype)));
  }
  RequirePlanarTensor(x, fx, "convert");
  const int64_t channels = x.shape.size() == 3 ? x.shape[0] : 1;
  const size_t ns = op->convert_scale.size(), nb = op->convert_bias.size();
  if ((ns != 1 && int64_t(ns) != channels) || (nb != 1 && int64_t(nb) != channels)) {
    fx.Fail(fmt::format("shape {} has {} channel(s) but scale has {} value(s) and bias {} (one, or one per channel)",
                        ShapeString(x.shape), channels, ns, nb));
  }
  const oracle::FcConfig base = op->convert.at(0);
  op->convert.clear();
  const size_t n = std::max(ns, nb);
  for (size_t c = 0; c < n; ++c) {
    oracle::FcConfig f = base;
    f.scale = op->convert_scale[ns == 1 ? 0 : c];
    f.bias = op->convert_bias[nb == 1 ? 0 : c];
    op->convert.push_back(f);
  }
  op->outputs = {{"y", TensorType{base.out_int8 ? DType::kInt8 : DType::kFp16, x.shape}}};
}

std::string Describe(const Operation& op) {
  const oracle::FcConfig& f = op.convert.at(0);
  std::string s = fmt::format(" to {}", f.out_int8 ? "int8" : "fp16");
  if (op.convert.size() > 1) return s + fmt::format(" ({} channel converters)", op.convert.size());
  if (f.scale != 0x3C00) s += " scale " + FormatValue(f.scale, DType::kFp16);
  if (f.bias != 0) s += " bias " + FormatValue(f.bias, DType::kFp16);
  if (f.unary != oracle::FcUnary::kNone) s += fmt::format(" unary {}", oracle::FcUnaryName(f.unary));
  return s;
}

std::string ReferenceNote(const Operation&) {
  return "note: the fp64 reference rounds x scale + bias once; the engine rounds the product and the\n"
         "sum (N-4.1), so a difference of an ulp is expected where both round.\n";
}

int64_t ChannelOf(const Operation& op, size_t i) {
  const std::vector<int64_t>& s = op.inputs.at("x").tensor.shape;
  return s.size() == 3 ? int64_t(i) / (s[1] * s[2]) : 0;
}

const oracle::FcConfig& ConverterOf(const Operation& op, size_t i) {
  return op.convert.size() == 1 ? op.convert[0] : op.convert[size_t(ChannelOf(op, i))];
}

// fp64: x scale + bias in one step (after N-1), the unary, then one rounding to fp16 (or RNE to an
// int8, clamped).
TensorMap Reference(const Operation& op) {
  const Tensor& x = op.inputs.at("x").tensor;
  Tensor y{op.outputs.at("y").dtype, x.shape, {}};
  for (size_t i = 0; i < x.bits.size(); ++i) {
    const oracle::FcConfig& f = ConverterOf(op, i);
    double v = ReferenceValue(x.bits[i], x.dtype) * ReferenceValue(f.scale, DType::kFp16) +
               ReferenceValue(f.bias, DType::kFp16);
    if (f.unary == oracle::FcUnary::kAbs) v = std::fabs(v);
    if (f.unary == oracle::FcUnary::kNeg) v = -v;
    if (f.unary == oracle::FcUnary::kRelu) v = std::max(v, 0.0);
    if (f.out_int8) {
      y.bits.push_back(uint32_t(int32_t(std::clamp(std::nearbyint(v), -128.0, 127.0))) & 0xFFu);
    } else {
      y.bits.push_back(ReferenceFp16(v));
    }
  }
  return Y(std::move(y));
}

#ifndef ANE_CLI_NO_ENGINES
Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const Tensor& x = op.inputs.at("x").tensor;
  const bool x8 = x.dtype == DType::kInt8;
  const TensorType& type = op.outputs.at("y");
  auto bits = [&](uint16_t lane) { return type.dtype == DType::kInt8 ? uint32_t(lane & 0xFFu) : uint32_t(lane); };
  Tensor want{type.dtype, type.shape, {}};
  if (engine != Engine::kRtl) {
    for (size_t i = 0; i < x.bits.size(); ++i) {
      // the reader converts an int8 element exactly to fp16 (N-4.1)
      const uint16_t in = x8 ? oracle::Int8ToFp16(int8_t(uint8_t(x.bits[i]))) : uint16_t(x.bits[i]);
      want.bits.push_back(bits(oracle::FormatConvert(ConverterOf(op, i), in)));
    }
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  RtlRun rtl;
  rtl.engine.emplace();
  const oracle::Tensor3 y = harness::EngineConvert(op.convert, x8, As3(x), &*rtl.engine);
  Tensor got{type.dtype, type.shape, {}};
  for (uint16_t c : y.codes) got.bits.push_back(bits(c));
  return RtlEvaluation(engine, rtl, std::move(got), want, [&](size_t i) -> decltype(EngineMismatch::stage) {
    return {"planar engine, format converter (N-4.1)", fmt::format("input x = {}", ValueText(x.bits[i], x.dtype))};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) { PrintEngineRtl(*rtl.engine); }
#endif

}  // namespace

const OpFamily kConvertFamily = {
    "convert",
    "format conversion fp16 / int8 -> fp16 / int8 with a scale, a bias (per tensor or per channel) and a unary "
    "(N-4.1); RTL: the planar engine's result converter",
    FieldHelp,
    ReadFields,
    InputX,
    {},
    Infer,
    {},
    nullptr,
    Describe,
    false,
    RtlTakesAll,
    ANE_CLI_ENGINE(Evaluate),
    ANE_CLI_ENGINE(PrintRtl),
    ReferenceNote,
    Reference};

}  // namespace ane::cli::ops
