// SPDX-License-Identifier: Apache-2.0
// op: softmax -- y = exp(x - max) / sum over each list of an axis (N-4.7): oracle::Softmax, or
// the planar engine's five passes (max, x - max, the exp table, sum, reciprocal x multiply).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tb/cli/ops/planar_lists.h"

namespace ane::cli::ops {
namespace {

std::string FieldHelp() {
  return "input x (fp16 [W], [H, W] or [C, H, W]); axis: rows (default: the last axis, W), columns, planes, channels";
}

void ReadFields(Fields& fields, Operation* op) {
  op->axis = oracle::ReduceAxis::kRows;  // the last axis, W
  if (const std::optional<Field> ax = fields.Optional("axis")) op->axis = ReadAxis(*ax);
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& x = op->inputs.at("x").tensor;
  const Field& f = where.at("x");
  RequireFp16(*op, x, f);
  if (x.shape.empty() || x.shape.size() > 3 || ElementCount(x.shape) == 0) {
    f.Fail(
        fmt::format("shape {}: softmax takes [W], [H, W] or [C, H, W] with no empty dimension", ShapeString(x.shape)));
  }
  op->outputs = {{"y", TensorType{DType::kFp16, x.shape}}};
}

std::string Describe(const Operation& op) { return fmt::format(" over {}", oracle::ReduceAxisName(op.axis)); }

// fp64: NaN enters as +inf (N-1); m = max; e_i = exp(x_i - m) with inf - inf = 0;
// y_i = e_i / sum(e), rounded once to fp16.
TensorMap Reference(const Operation& op) {
  const Tensor& x = op.inputs.at("x").tensor;
  Tensor y{DType::kFp16, x.shape, std::vector<uint32_t>(x.bits.size())};
  for (const auto& list : ListIndices(op.axis, As3(x))) {
    std::vector<double> val;
    double m = -INFINITY;
    for (size_t i : list) {
      double t = ReferenceValue(x.bits[i], DType::kFp16);
      if (std::isnan(t)) t = INFINITY;
      val.push_back(t);
      m = std::max(m, t);
    }
    double sum = 0;
    for (double& t : val) {
      t = (std::isinf(t) && t == m) ? 1.0 : std::exp(t - m);
      sum += t;
    }
    for (size_t k = 0; k < list.size(); ++k) y.bits[list[k]] = ReferenceFp16(val[k] / sum);
  }
  return Y(std::move(y));
}

#ifndef ANE_CLI_NO_ENGINES
// The passes over each list of the axis (each a task of the planar engine but exp):
//   1 max     a reduction (max) along the axis: the tree, or the line buffer for columns, channels
//   2 d       elementwise: x - the max of its list (the maxima broadcast along the axis)
//   3 e       the neural engine's post-processor: the exp table (N-5) at d
//   4 s       a reduction (sum) of e along the axis
//   5 r       elementwise pass, the post-processor's reciprocal of s (N-4.1)
//   6 y       elementwise: e * r (r broadcast along the axis)
Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const Tensor& x = op.inputs.at("x").tensor;
  const oracle::Tensor3 v = As3(x);
  const auto idx = ListIndices(op.axis, v);
  Tensor want{DType::kFp16, x.shape, std::vector<uint32_t>(x.bits.size())};
  const std::vector<std::vector<uint16_t>> lists = ListValues(idx, v);
  if (engine != Engine::kRtl) {
    for (size_t k = 0; k < idx.size(); ++k) {
      const std::vector<uint16_t> y = oracle::Softmax(lists[k]);
      for (size_t j = 0; j < idx[k].size(); ++j) want.bits[idx[k][j]] = y[j];
    }
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  // engine tasks: max (a reduction), x - max (elementwise, the maxima broadcast along the axis),
  // exp (the neural engine's post-processor: the planar engine has no table), sum (a reduction),
  // recip (elementwise pass with the post-processor's reciprocal), e * recip (elementwise)
  RtlRun rtl;
  rtl.engine.emplace();
  rtl.post.emplace();
  harness::PlanarEngineStats& es = *rtl.engine;
  const oracle::Tensor3 m = harness::EngineReduce(oracle::ReduceOp::kMax, op.axis, v, &es);
  const oracle::Tensor3 d = harness::EngineElementwise(harness::PeEwOp::kSub, harness::PePostOp::kPass, nullptr,
                                                       nullptr, v, &m, nullptr, &es);
  oracle::Tensor3 e = d;
  e.codes = harness::RtlActivation(oracle::DefaultActTable(oracle::ActFn::kExp), d.codes, &*rtl.post);
  const oracle::Tensor3 s = harness::EngineReduce(oracle::ReduceOp::kSum, op.axis, e, &es);
  const oracle::Tensor3 r = harness::EngineElementwise(harness::PeEwOp::kPass, harness::PePostOp::kRecip, nullptr,
                                                       nullptr, s, nullptr, nullptr, &es);
  const oracle::Tensor3 y = harness::EngineElementwise(harness::PeEwOp::kMul, harness::PePostOp::kPass, nullptr,
                                                       nullptr, e, &r, nullptr, &es);
  Tensor got{DType::kFp16, x.shape, std::vector<uint32_t>(y.codes.begin(), y.codes.end())};
  return RtlEvaluation(engine, rtl, std::move(got), want, [&](size_t i) -> decltype(EngineMismatch::stage) {
    return {"softmax passes (N-4.7)", fmt::format("input {}", ValueText(x.bits[i], DType::kFp16))};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) {
  PrintEngineRtl(*rtl.engine);
  PrintPostRtl(*rtl.post);
}
#endif

}  // namespace

const OpFamily kSoftmaxFamily = {
    "softmax",
    "exp(x - max) / sum over each list of an axis (N-4.7); RTL: the planar engine's five passes",
    FieldHelp,
    ReadFields,
    InputX,
    {},
    Infer,
    {},
    nullptr,
    Describe,
    false,
    RtlCheckPlanarShape,
    ANE_CLI_ENGINE(Evaluate),
    ANE_CLI_ENGINE(PrintRtl),
    nullptr,
    Reference};

}  // namespace ane::cli::ops
