// SPDX-License-Identifier: Apache-2.0
// op: activation -- y = f(x) elementwise through the post-processor's activation table (N-5,
// docs/postproc.md): the oracle's EvalActTable, or the post-processor RTL.
#include "tb/oracle/activation.h"

#include <fmt/format.h>

#include "tb/cli/op_family.h"

namespace ane::cli::ops {
namespace {

void ReadFields(Fields& fields, Operation* op) {
  const Field fn = fields.Required("function");
  if (!oracle::ParseActFn(fn.Scalar(), &op->function)) {
    std::string names;
    for (oracle::ActFn f : oracle::kAllActFns) names += std::string(names.empty() ? "" : ", ") + oracle::ActFnName(f);
    fn.Fail(fmt::format("unknown function '{}' (supported: {}, swish)", fn.Scalar(), names));
  }
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& x = op->inputs.at("x").tensor;
  RequireFp16(*op, x, where.at("x"));
  if (ElementCount(x.shape) == 0) where.at("x").Fail(fmt::format("empty tensor (shape {})", ShapeString(x.shape)));
  op->outputs = {{"y", TensorType{DType::kFp16, x.shape}}};
}

std::string FieldHelp() {
  std::string names;
  for (oracle::ActFn f : oracle::kAllActFns) names += std::string(names.empty() ? "" : ", ") + oracle::ActFnName(f);
  return "input x (fp16, any shape); function: " + names + ", swish (= silu)";
}

std::string Describe(const Operation& op) { return fmt::format(" {}", oracle::ActFnName(op.function)); }

std::string ReferenceNote(const Operation&) {
  return "note: the fp64 reference rounds the exact function once; the engine evaluates a 33-knot\n"
         "table (N-5), so differences are expected. They are information, not a failure.\n";
}

// fp64: the function of each input (after N-1), rounded once to fp16.
TensorMap Reference(const Operation& op) {
  const Tensor& x = op.inputs.at("x").tensor;
  Tensor y{DType::kFp16, x.shape, {}};
  for (uint32_t c : x.bits)
    y.bits.push_back(ReferenceFp16(oracle::ActReference(op.function, ReferenceValue(c, DType::kFp16))));
  return Y(std::move(y));
}

#ifndef ANE_CLI_NO_ENGINES
Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const Tensor& x = op.inputs.at("x").tensor;
  const oracle::ActTable& table = oracle::DefaultActTable(op.function);
  const std::vector<uint16_t> codes(x.bits.begin(), x.bits.end());
  Tensor want{DType::kFp16, x.shape, {}};
  if (engine != Engine::kRtl) {
    for (uint16_t c : codes) want.bits.push_back(oracle::EvalActTable(table, c));
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  RtlRun rtl;
  rtl.post.emplace();
  const std::vector<uint16_t> got = harness::RtlActivation(table, codes, &*rtl.post);
  return RtlEvaluation(engine, rtl, Fp16Tensor(x.shape, got), want, [&](size_t i) -> decltype(EngineMismatch::stage) {
    return {"activation table (N-5.1)", fmt::format("input x = {}", ValueText(x.bits[i], DType::kFp16))};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) { PrintPostRtl(*rtl.post); }
#endif

}  // namespace

const OpFamily kActivationFamily = {
    "activation",
    "y = f(x) elementwise through the post-processor's activation table (N-5); RTL: the post-processor",
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
