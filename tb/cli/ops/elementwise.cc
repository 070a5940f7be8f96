// op: elementwise -- y = f(x), f(a, b) or f(a, b, c) element by element (N-4.1 .. N-4.3) through
// the oracle's fp16 functions, or the planar engine's elementwise unit (ane_pe_ew).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tb/cli/op_family.h"
#include "tb/oracle/elementwise.h"
#include "tb/harness/rtl_codes.h"

namespace ane::cli {

const std::vector<EwFunction>& EwFunctions() {
  using harness::PeEwOp;
  static const std::vector<EwFunction> f = {
      {"add", PeEwOp::kAdd, 2},          {"sub", PeEwOp::kSub, 2},
      {"mul", PeEwOp::kMul, 2},          {"max", PeEwOp::kMax, 2},
      {"min", PeEwOp::kMin, 2},          {"compare", PeEwOp::kCompare, 2},
      {"abs", PeEwOp::kAbs, 1},          {"neg", PeEwOp::kNeg, 1},
      {"relu", PeEwOp::kRelu, 1},        {"square", PeEwOp::kSquare, 1},
      {"multiply_add", PeEwOp::kMultiplyAdd, 3}, {"add_multiply", PeEwOp::kAddMultiply, 3},
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
}

std::vector<const char*> Inputs(const Operation& op) {
  switch (Arity(op)) {
    case 1: return {"x"};
    case 2: return {"a", "b"};
    default: return {"a", "b", "c"};
  }
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const std::string first = where.count("x") ? "x" : "a";
  const Tensor& x0 = op->inputs.at(first).tensor;
  for (const auto& [name, f] : where) {
    const Tensor& t = op->inputs.at(name).tensor;
    RequireFp16(*op, t, f);
    if (t.shape != x0.shape) {
      f.Fail(fmt::format("shape mismatch: {} is {} but {} is {} (elementwise inputs have one shape)", name,
                         ShapeString(t.shape), first, ShapeString(x0.shape)));
    }
  }
  if (ElementCount(x0.shape) == 0) where.at(first).Fail(fmt::format("empty tensor (shape {})", ShapeString(x0.shape)));
  op->outputs = {{"y", TensorType{DType::kFp16, x0.shape}}};
}

std::string FieldHelp() {
  std::string names;
  for (const EwFunction& f : EwFunctions()) names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", f.name, f.arity == 1 ? "x" : f.arity == 2 ? "a, b" : "a, b, c");
  return "inputs (fp16, one shape) by function: " + names;
}

std::string Describe(const Operation& op) {
  for (const EwFunction& f : EwFunctions()) {
    if (f.op == op.ew) return fmt::format(" {}", f.name);
  }
  return "";
}

std::string ReferenceNote(const Operation& op) {
  if (op.ew != PeEwOp::kMultiplyAdd && op.ew != PeEwOp::kAddMultiply) return "";
  return "note: the fp64 reference rounds a + b*c or (a + b)*c once; the engine rounds after each of\n"
         "the two operations (N-4.3), so a difference of an ulp or so is expected.\n";
}

// fp64: every function in one step, rounded once to fp16 (the ternaries therefore round once
// where the engine rounds twice); indeterminate forms give +0 (N-4.2).
TensorMap Reference(const Operation& op) {
  const bool unary = op.inputs.count("x") > 0;
  const Tensor& ta = op.inputs.at(unary ? "x" : "a").tensor;
  Tensor y{DType::kFp16, ta.shape, {}};
  for (size_t i = 0; i < ta.bits.size(); ++i) {
    auto val = [&](const char* n) {
      return op.inputs.count(n) ? ReferenceValue(op.inputs.at(n).tensor.bits[i], DType::kFp16) : 0.0;
    };
    const double a = ReferenceValue(ta.bits[i], DType::kFp16), b = val("b"), c = val("c");
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
    y.bits.push_back(ReferenceFp16(v));
  }
  return Y(std::move(y));
}

#ifndef ANE_CLI_NO_ENGINES
std::vector<uint16_t> Codes(const Operation& op, const char* name) {
  if (!op.inputs.count(name)) return {};
  const Tensor& t = op.inputs.at(name).tensor;
  return std::vector<uint16_t>(t.bits.begin(), t.bits.end());
}

Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const bool unary = op.inputs.count("x") > 0;
  const std::vector<uint16_t> a = Codes(op, unary ? "x" : "a"), b = Codes(op, "b"), c = Codes(op, "c");
  const std::vector<int64_t>& shape = op.outputs.at("y").shape;
  Tensor want{DType::kFp16, shape, {}};
  if (engine != Engine::kRtl) {
    for (size_t i = 0; i < a.size(); ++i) {
      want.bits.push_back(harness::EwOracle(op.ew, a[i], b.empty() ? 0 : b[i], c.empty() ? 0 : c[i]));
    }
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  RtlRun rtl;
  rtl.planar.emplace();
  const std::vector<uint16_t> got = harness::RtlElementwise(op.ew, a, b, c, &*rtl.planar);
  return RtlEvaluation(engine, rtl, Fp16Tensor(shape, got), want, [&](size_t i) -> decltype(EngineMismatch::stage) {
    return {"planar elementwise unit (N-4.1)", fmt::format("inputs {}", ValueText(a[i], DType::kFp16))};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) {
  fmt::print("rtl         planar elementwise unit, {} lanes: {} vectors, {} cycles\n", harness::kPlanarLanes,
             rtl.planar->vectors, rtl.planar->cycles);
}
#endif

}  // namespace

const OpFamily kElementwiseFamily = {
    "elementwise",
    "y = f(x), f(a, b) or f(a, b, c) element by element (N-4.1 .. N-4.3); RTL: the planar elementwise unit",
    FieldHelp,
    ReadFields, Inputs, {}, Infer, {}, nullptr, Describe, false, RtlTakesAll,
    ANE_CLI_ENGINE(Evaluate), ANE_CLI_ENGINE(PrintRtl), ReferenceNote, Reference};

}  // namespace ops
}  // namespace ane::cli
