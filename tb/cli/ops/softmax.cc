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
    f.Fail(fmt::format("shape {}: softmax takes [W], [H, W] or [C, H, W] with no empty dimension", ShapeString(x.shape)));
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
// The five passes over each list of the axis:
//   1 max     reduction tree (max) of each list (behind the line buffer for columns, channels)
//   2 d       elementwise unit: x - max of its list
//   3 e       post-processor: the exp table (N-5) at d
//   4 s       reduction tree (sum) of each list of e (likewise)
//   5 y       exact reciprocal of s, then elementwise unit: e * recip(s)
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
  harness::RtlPlanarStats total, stats;
  auto add = [&] {
    total.vectors += stats.vectors;
    total.cycles += stats.cycles;
  };
  std::vector<uint16_t> flat, mb;  // the list elements in list order, each list's max per element
  const std::vector<uint16_t> maxes = RtlReduceLists(oracle::ReduceOp::kMax, op.axis, v, lists, &stats);
  add();
  for (size_t k = 0; k < lists.size(); ++k) {
    flat.insert(flat.end(), lists[k].begin(), lists[k].end());
    mb.insert(mb.end(), lists[k].size(), maxes[k]);
  }
  const std::vector<uint16_t> d = harness::RtlElementwise(harness::PeEwOp::kSub, flat, mb, {}, &stats);
  add();
  harness::RtlPostStats post;
  const std::vector<uint16_t> ex = harness::RtlActivation(oracle::DefaultActTable(oracle::ActFn::kExp), d, &post);
  total.cycles += post.cycles;
  std::vector<std::vector<uint16_t>> elists;
  size_t at = 0;
  for (const auto& list : lists) {
    elists.emplace_back(ex.begin() + long(at), ex.begin() + long(at + list.size()));
    at += list.size();
  }
  // The exponentials in x's layout, for the line buffer.
  oracle::Tensor3 et = v;
  at = 0;
  for (const auto& list : idx) {
    for (size_t i : list) et.codes[i] = ex[at++];
  }
  const std::vector<uint16_t> sums = RtlReduceLists(oracle::ReduceOp::kSum, op.axis, et, elists, &stats);
  add();
  const std::vector<uint16_t> recips = harness::RtlRecip(sums);
  std::vector<uint16_t> rb;
  for (size_t k = 0; k < lists.size(); ++k) rb.insert(rb.end(), lists[k].size(), recips[k]);
  const std::vector<uint16_t> y = harness::RtlElementwise(harness::PeEwOp::kMul, ex, rb, {}, &stats);
  add();
  Tensor got{DType::kFp16, x.shape, std::vector<uint32_t>(x.bits.size())};
  at = 0;
  for (const auto& list : idx) {
    for (size_t i : list) got.bits[i] = y[at++];
  }
  RtlRun rtl;
  rtl.planar = total;
  return RtlEvaluation(engine, rtl, std::move(got), want, [&](size_t i) -> decltype(EngineMismatch::stage) {
    return {"softmax passes (N-4.7)", fmt::format("input {}", ValueText(x.bits[i], DType::kFp16))};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) {
  fmt::print("rtl         planar passes max, sub, exp, sum, recip x mul: {} patches and vectors, {} cycles\n",
             rtl.planar->vectors, rtl.planar->cycles);
}
#endif

}  // namespace

const OpFamily kSoftmaxFamily = {
    "softmax",
    "exp(x - max) / sum over each list of an axis (N-4.7); RTL: the planar engine's five passes",
    FieldHelp, ReadFields, InputX, {}, Infer, {}, nullptr, Describe, false, RtlTakesAll,
    ANE_CLI_ENGINE(Evaluate), ANE_CLI_ENGINE(PrintRtl), nullptr, Reference};

}  // namespace ane::cli::ops
