// SPDX-License-Identifier: Apache-2.0
// op: reduce -- the sum, max or min of each row, column, plane, or across the channels (N-4.4):
// oracle::ReduceTensor, or the planar engine (ane_planar: one task through its reduction tree for
// rows and planes, through the line buffer in front of it for columns and channels).
#include <fmt/format.h>

#include "tb/cli/ops/planar_lists.h"

namespace ane::cli::ops {
namespace {

std::string FieldHelp() {
  return "input x (fp16 [W], [H, W] or [C, H, W]); function: sum, max, min; axis: rows, columns, planes, channels";
}

void ReadFields(Fields& fields, Operation* op) {
  const Field fn = fields.Required("function");
  if (!oracle::ParseReduceOp(fn.Scalar(), &op->reduce)) {
    fn.Fail(fmt::format("unknown function '{}' (supported: sum, max, min)", fn.Scalar()));
  }
  op->axis = ReadAxis(fields.Required("axis"));
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& x = op->inputs.at("x").tensor;
  const Field& f = where.at("x");
  RequireFp16(*op, x, f);
  const size_t rank = x.shape.size();
  if (rank < 1 || rank > 3 || ElementCount(x.shape) == 0) {
    f.Fail(
        fmt::format("shape {}: reduce takes [W], [H, W] or [C, H, W] with no empty dimension", ShapeString(x.shape)));
  }
  // rank 3 [C, H, W]: rows [C, H], columns [C, W], planes [C], channels [H, W];
  // rank 2 [H, W]: [H], [W], [], [H, W]; rank 1 [W]: [], [W], [], [W].
  const oracle::Tensor3 v = As3(x);
  const int64_t c = v.c, h = v.h, w = v.w;
  std::vector<int64_t> y;
  switch (op->axis) {
    case oracle::ReduceAxis::kRows:
      y = rank == 3 ? std::vector<int64_t>{c, h} : rank == 2 ? std::vector<int64_t>{h} : std::vector<int64_t>{};
      break;
    case oracle::ReduceAxis::kColumns: y = rank == 3 ? std::vector<int64_t>{c, w} : std::vector<int64_t>{w}; break;
    case oracle::ReduceAxis::kPlanes: y = rank == 3 ? std::vector<int64_t>{c} : std::vector<int64_t>{}; break;
    case oracle::ReduceAxis::kChannels: y = rank == 1 ? std::vector<int64_t>{w} : std::vector<int64_t>{h, w}; break;
  }
  op->outputs = {{"y", TensorType{DType::kFp16, y}}};
}

std::string Describe(const Operation& op) {
  return fmt::format(" {} over {}", oracle::ReduceOpName(op.reduce), oracle::ReduceAxisName(op.axis));
}

// fp64: the sum of each list in order (exact for these sizes), or its exact max / min, rounded
// once to fp16.
TensorMap Reference(const Operation& op) {
  const std::vector<uint32_t> y =
      ReduceReference(ReduceLists(op.axis, As3(op.inputs.at("x").tensor)), op.reduce, nullptr);
  return Y(Tensor{DType::kFp16, op.outputs.at("y").shape, y});
}

#ifndef ANE_CLI_NO_ENGINES
Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const oracle::Tensor3 v = As3(op.inputs.at("x").tensor);
  const std::vector<int64_t>& shape = op.outputs.at("y").shape;
  Tensor want{DType::kFp16, shape, {}};
  if (engine != Engine::kRtl) {
    const oracle::Tensor3 r = oracle::ReduceTensor(op.reduce, op.axis, v);
    want.bits.assign(r.codes.begin(), r.codes.end());
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  // One engine task: over rows or planes each list streams through the tree as patches of 64;
  // over columns or across channels the line buffer comes first.
  RtlRun rtl;
  rtl.engine.emplace();
  const oracle::Tensor3 got = harness::EngineReduce(op.reduce, op.axis, v, &*rtl.engine);
  const char* stage = harness::ReducesThroughLineBuffer(op.axis)
                          ? "planar engine: line buffer and reduction tree (N-4.4)"
                          : "planar engine: reduction tree (N-4.4)";
  return RtlEvaluation(engine, rtl, Fp16Tensor(shape, got.codes), want, [&](size_t) -> decltype(EngineMismatch::stage) {
    return {stage, "the output's tree result differs"};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) { PrintEngineRtl(*rtl.engine); }
#endif

}  // namespace

const OpFamily kReduceFamily = {"reduce",
                                "the sum, max or min of each row, column or plane, or across the channels (N-4.4); "
                                "RTL: the planar engine (its reduction tree, line buffer)",
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
