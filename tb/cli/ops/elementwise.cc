// SPDX-License-Identifier: Apache-2.0
// op: elementwise -- y = f(x), f(a, b) or f(a, b, c) element by element (N-4.1 .. N-4.3) through
// the oracle's fp16 functions, or the planar engine (ane_planar: one elementwise task). The
// inputs broadcast (numpy's rule on the last three axes: a missing or size-1 axis takes the
// other inputs' size), a as well as b and c.
#include "tb/oracle/elementwise.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "tb/cli/op_family.h"
#include "tb/harness/rtl_codes.h"

namespace ane::cli {

const std::vector<EwFunction>& EwFunctions() {
  using harness::PeEwOp;
  static const std::vector<EwFunction> f = {
      {"add", PeEwOp::kAdd, 2},
      {"sub", PeEwOp::kSub, 2},
      {"mul", PeEwOp::kMul, 2},
      {"max", PeEwOp::kMax, 2},
      {"min", PeEwOp::kMin, 2},
      {"compare", PeEwOp::kCompare, 2},
      {"abs", PeEwOp::kAbs, 1},
      {"neg", PeEwOp::kNeg, 1},
      {"relu", PeEwOp::kRelu, 1},
      {"square", PeEwOp::kSquare, 1},
      {"multiply_add", PeEwOp::kMultiplyAdd, 3},
      {"add_multiply", PeEwOp::kAddMultiply, 3},
  };
  return f;
}

namespace ops {
namespace {

using harness::PeEwOp;

int Arity(const Operation& op) {
  for (const EwFunction& f : EwFunctions()) {
    if (f.op == op.ew) return f.arity;
  }
  return 0;
}

void ReadFields(Fields& fields, Operation* op) {
  const Field fn = fields.Required("function");
  std::string names;
  bool known = false;
  for (const EwFunction& f : EwFunctions()) {
    names += std::string(names.empty() ? "" : ", ") + f.name;
    if (fn.Scalar() == f.name) {
      op->ew = f.op;
      known = true;
    }
  }
  if (!known) fn.Fail(fmt::format("unknown function '{}' (supported: {})", fn.Scalar(), names));
  if (const std::optional<Field> f = fields.Optional("scale")) {
    op->ew_scale = uint16_t(ParseValue(*f, DType::kFp16));
    if ((*op->ew_scale & 0x7C00) == 0x7C00) f->Fail("scale must be a finite fp16 value");
  }
  if (const std::optional<Field> f = fields.Optional("bias")) {
    op->ew_bias = uint16_t(ParseValue(*f, DType::kFp16));
    if ((*op->ew_bias & 0x7C00) == 0x7C00) f->Fail("bias must be a finite fp16 value");
  }
}

// The result converter of `scale` / `bias` (FC_O: y = RNE16(RNE16(f x scale) + bias), N-4.1), or
// none.
std::optional<oracle::FcConfig> ResultConverter(const Operation& op) {
  if (!op.ew_scale && !op.ew_bias) return std::nullopt;
  oracle::FcConfig c;
  c.scale = op.ew_scale.value_or(0x3C00);
  c.bias = op.ew_bias.value_or(0x0000);
  return c;
}

std::vector<const char*> Inputs(const Operation& op) {
  switch (Arity(op)) {
    case 1: return {"x"};
    case 2: return {"a", "b"};
    default: return {"a", "b", "c"};
  }
}

// The first operand (x or a).
const Tensor& FirstInput(const Operation& op) { return op.inputs.at(op.inputs.count("x") ? "x" : "a").tensor; }

// The broadcast of shapes a and b (numpy's rule: right-aligned, each axis equal or 1), or
// nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> BroadcastShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()), 1);
  for (size_t k = 0; k < out.size(); ++k) {
    const int64_t d = k < a.size() ? a[a.size() - 1 - k] : 1, e = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (d != e && d != 1 && e != 1) return std::nullopt;
    out[out.size() - 1 - k] = d == 1 ? e : d;
  }
  return out;
}

// The element of an operand of shape `s` that serves element `i` of a result of shape `to`.
size_t BroadcastIndex(const std::vector<int64_t>& s, const std::vector<int64_t>& to, size_t i) {
  if (s == to) return i;
  size_t at = 0, stride = 1;
  for (size_t k = 0; k < to.size(); ++k) {
    const size_t axis = to.size() - 1 - k;
    const size_t coord = i % size_t(to[axis]);
    i /= size_t(to[axis]);
    if (k < s.size()) {
      const int64_t d = s[s.size() - 1 - k];
      if (d != 1) at += coord * stride;
      stride *= size_t(d);
    }
  }
  return at;
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const std::string first = where.count("x") ? "x" : "a";
  std::vector<int64_t> out = op->inputs.at(first).tensor.shape;
  std::string shapes;
  bool differ = false;
  for (const auto& [name, f] : where) {
    const Tensor& t = op->inputs.at(name).tensor;
    RequireFp16(*op, t, f);
    if (ElementCount(t.shape) == 0) f.Fail(fmt::format("empty tensor (shape {})", ShapeString(t.shape)));
    shapes += fmt::format("{}{} {}", shapes.empty() ? "" : ", ", name, ShapeString(t.shape));
    differ |= t.shape != out;
    const std::optional<std::vector<int64_t>> b = BroadcastShape(out, t.shape);
    if (!b) f.Fail(fmt::format("shape mismatch: {} do not broadcast (each axis equal or 1)", shapes));
    out = *b;
  }
  if (differ && out.size() > 3) {
    where.at(first).Fail(fmt::format("shapes {}: a broadcast takes at most three axes ([C, H, W])", shapes));
  }
  op->outputs = {{"y", TensorType{DType::kFp16, out}}};
}

std::string FieldHelp() {
  std::string names;
  for (const EwFunction& f : EwFunctions())
    names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", f.name,
                         f.arity == 1   ? "x"
                         : f.arity == 2 ? "a, b"
                                        : "a, b, c");
  return "inputs (fp16; of one shape, or broadcast to one along their last three axes) by function: " + names +
         "; optional scale and bias (fp16 values): y = RNE16(RNE16(f x scale) + bias)";
}

std::string Describe(const Operation& op) {
  std::string conv;
  if (op.ew_scale) conv += " scale " + FormatValue(*op.ew_scale, DType::kFp16);
  if (op.ew_bias) conv += " bias " + FormatValue(*op.ew_bias, DType::kFp16);
  for (const EwFunction& f : EwFunctions()) {
    if (f.op == op.ew) return fmt::format(" {}{}", f.name, conv);
  }
  return conv;
}

std::string ReferenceNote(const Operation& op) {
  std::string note;
  if (op.ew == PeEwOp::kMultiplyAdd || op.ew == PeEwOp::kAddMultiply) {
    note +=
        "note: the fp64 reference rounds a + b*c or (a + b)*c once; the engine rounds after each of\n"
        "the two operations (N-4.3), so a difference of an ulp or so is expected.\n";
  }
  if (op.ew_scale || op.ew_bias) {
    note +=
        "note: the fp64 reference applies scale and bias before its one rounding; the engine rounds\n"
        "the function, the product and the sum (N-4.1).\n";
  }
  return note;
}

// fp64: every function in one step, rounded once to fp16 (the ternaries therefore round once
// where the engine rounds twice); indeterminate forms give +0 (N-4.2).
TensorMap Reference(const Operation& op) {
  const Tensor& ta = FirstInput(op);
  const std::vector<int64_t>& shape = op.outputs.at("y").shape;
  Tensor y{DType::kFp16, shape, {}};
  for (size_t i = 0; i < size_t(ElementCount(shape)); ++i) {
    auto val = [&](const Tensor& t) { return ReferenceValue(t.bits[BroadcastIndex(t.shape, shape, i)], DType::kFp16); };
    auto opt = [&](const char* n) { return op.inputs.count(n) ? val(op.inputs.at(n).tensor) : 0.0; };
    const double a = val(ta), b = opt("b"), c = opt("c");
    double v = 0;
    switch (op.ew) {
      case PeEwOp::kAdd: v = a + b; break;
      case PeEwOp::kSub: v = a - b; break;
      case PeEwOp::kMul: v = a * b; break;
      case PeEwOp::kMax: v = std::max(a, b); break;
      case PeEwOp::kMin: v = std::min(a, b); break;
      case PeEwOp::kCompare: v = a > b ? 1.0 : a < b ? -1.0 : 0.0; break;
      case PeEwOp::kAbs: v = std::fabs(a); break;
      case PeEwOp::kNeg: v = -a; break;
      case PeEwOp::kRelu: v = std::max(a, 0.0); break;
      case PeEwOp::kSquare: v = a * a; break;
      case PeEwOp::kMultiplyAdd: v = a + b * c; break;
      case PeEwOp::kAddMultiply: v = (a + b) * c; break;
      case PeEwOp::kPass: v = a; break;
    }
    if (op.ew_scale) v *= ReferenceValue(*op.ew_scale, DType::kFp16);
    if (op.ew_bias) v += ReferenceValue(*op.ew_bias, DType::kFp16);
    y.bits.push_back(ReferenceFp16(v));
  }
  return Y(std::move(y));
}

// Whether an input has another shape than the result (and so broadcasts to it).
bool HasBroadcast(const Operation& op) {
  for (const auto& [name, t] : op.inputs) {
    if (t.tensor.shape != op.outputs.at("y").shape) return true;
  }
  return false;
}

// The planar engine takes each axis up to 16383 (one task's [C, H, W]).
std::string RtlCheck(const Operation& op) {
  const std::vector<int64_t>& shape = op.outputs.at("y").shape;
  if (!HasBroadcast(op)) {
    return ElementCount(shape) <= int64_t(16383) * 1024
               ? ""
               : "the planar engine takes at most 16,776,192 elements (16383 rows of 1024)";
  }
  for (int64_t d : shape) {
    if (d > 16383)
      return fmt::format("shape {}: a broadcast runs as one [C, H, W] task, each axis at most 16383",
                         ShapeString(shape));
  }
  return "";
}

#ifndef ANE_CLI_NO_ENGINES
// An input as the engine's [C, H, W] operand: its shape right-aligned to a's last three axes.
oracle::Tensor3 Operand(const Tensor& t) {
  oracle::Tensor3 v;
  const size_t r = t.shape.size();
  v.w = r >= 1 ? int(t.shape[r - 1]) : 1;
  v.h = r >= 2 ? int(t.shape[r - 2]) : 1;
  v.c = r >= 3 ? int(t.shape[r - 3]) : 1;
  v.codes.assign(t.bits.begin(), t.bits.end());
  return v;
}

Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const Tensor& ta = FirstInput(op);
  const Tensor* tb = op.inputs.count("b") ? &op.inputs.at("b").tensor : nullptr;
  const Tensor* tc = op.inputs.count("c") ? &op.inputs.at("c").tensor : nullptr;
  const std::vector<int64_t>& shape = op.outputs.at("y").shape;
  // element i of the result's operand t (0 for an operand the function does not have)
  auto code = [&](const Tensor* t, size_t i) -> uint16_t {
    return t ? uint16_t(t->bits[BroadcastIndex(t->shape, shape, i)]) : uint16_t(0);
  };
  const size_t n = size_t(ElementCount(shape));
  Tensor want{DType::kFp16, shape, {}};
  const std::optional<oracle::FcConfig> fco = ResultConverter(op);
  if (engine != Engine::kRtl) {
    for (size_t i = 0; i < n; ++i) {
      const uint16_t f = harness::EwOracle(op.ew, code(&ta, i), code(tb, i), code(tc, i));
      want.bits.push_back(fco ? oracle::FormatConvert(*fco, f) : f);
    }
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  RtlRun rtl;
  rtl.engine.emplace();
  std::vector<uint16_t> got;
  if (HasBroadcast(op)) {
    // one task on the result's [C, H, W], each operand broadcast by its strides
    const oracle::Tensor3 a3 = Operand(ta);
    std::optional<oracle::Tensor3> b3, c3;
    if (tb) b3 = Operand(*tb);
    if (tc) c3 = Operand(*tc);
    got = harness::EngineElementwise(op.ew, harness::PePostOp::kPass, nullptr, fco ? &*fco : nullptr, a3,
                                     b3 ? &*b3 : nullptr, c3 ? &*c3 : nullptr, &*rtl.engine)
              .codes;
  } else {
    // the elements in order: rows of up to 1024, the rest as a second task
    const size_t w = std::min<size_t>(n, 1024), full = n / w * w;
    auto part = [&](size_t from, int h, int width) {
      auto slice = [&](const Tensor* t) {
        oracle::Tensor3 v{1, h, width, {}};
        for (size_t i = from; i < from + size_t(h) * size_t(width); ++i) v.codes.push_back(code(t, i));
        return v;
      };
      const oracle::Tensor3 a3 = slice(&ta), b3 = slice(tb), c3 = slice(tc);
      const oracle::Tensor3 y = harness::EngineElementwise(op.ew, harness::PePostOp::kPass, nullptr,
                                                           fco ? &*fco : nullptr, a3, &b3, &c3, &*rtl.engine);
      got.insert(got.end(), y.codes.begin(), y.codes.end());
    };
    part(0, int(n / w), int(w));
    if (full < n) part(full, 1, int(n - full));
  }
  return RtlEvaluation(engine, rtl, Fp16Tensor(shape, got), want, [&](size_t i) -> decltype(EngineMismatch::stage) {
    return {"planar engine, elementwise (N-4.1)", fmt::format("input a = {}", ValueText(code(&ta, i), DType::kFp16))};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) { PrintEngineRtl(*rtl.engine); }
#endif

}  // namespace

const OpFamily kElementwiseFamily = {"elementwise",
                                     "y = f(x), f(a, b) or f(a, b, c) element by element, the inputs broadcast, an "
                                     "optional scale and bias (N-4.1 .. N-4.3); RTL: the planar engine",
                                     FieldHelp,
                                     ReadFields,
                                     Inputs,
                                     {},
                                     Infer,
                                     {},
                                     nullptr,
                                     Describe,
                                     false,
                                     RtlCheck,
                                     ANE_CLI_ENGINE(Evaluate),
                                     ANE_CLI_ENGINE(PrintRtl),
                                     ReferenceNote,
                                     Reference};

}  // namespace ops
}  // namespace ane::cli
