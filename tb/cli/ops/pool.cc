// SPDX-License-Identifier: Apache-2.0
// op: pool -- max, min or mean pooling over kernel windows (N-4.5): oracle::Pool, or the planar
// engine's pooling path (first filter, line buffer, second filter: ane_pe_pool).
#include <fmt/format.h>

#include "tb/cli/ops/planar_lists.h"

namespace ane::cli::ops {
namespace {

std::string FieldHelp() {
  return "input x (fp16 [H, W] or [C, H, W]); function: max, min, mean; kernel: [rows, columns] (1..8); stride: [rows, "
         "columns] (default: the "
         "kernel); padding: [rows, columns] or [top, bottom, left, right] (0..7)";
}

void ReadFields(Fields& fields, Operation* op) {
  const Field fn = fields.Required("function");
  if (!oracle::ParsePoolOp(fn.Scalar(), &op->pool)) {
    fn.Fail(fmt::format("unknown function '{}' (supported: max, min, mean)", fn.Scalar()));
  }
  auto pair = [](const Field& f, int64_t lo, int64_t hi) {
    const std::vector<Field> items = f.Items();
    if (items.size() != 2) f.Fail("expected a list of two integers [rows, columns]");
    return std::pair<int, int>(int(items[0].Integer(lo, hi)), int(items[1].Integer(lo, hi)));
  };
  oracle::ConvGeometry& g = op->window;
  std::tie(g.kernel_h, g.kernel_w) = pair(fields.Required("kernel"), 1, 8);
  g.stride_y = g.kernel_h;
  g.stride_x = g.kernel_w;
  if (const std::optional<Field> st = fields.Optional("stride")) std::tie(g.stride_y, g.stride_x) = pair(*st, 1, 8);
  if (const std::optional<Field> pd = fields.Optional("padding")) ReadPadding(*pd, 7, false, &g);
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& x = op->inputs.at("x").tensor;
  const Field& f = where.at("x");
  RequireFp16(*op, x, f);
  const size_t rank = x.shape.size();
  if (rank < 2 || rank > 3 || ElementCount(x.shape) == 0) {
    f.Fail(fmt::format("shape {}: pool takes [H, W] or [C, H, W] with no empty dimension", ShapeString(x.shape)));
  }
  const oracle::Tensor3 v = As3(x);
  op->window.channels = v.c;
  op->window.height = v.h;
  op->window.width = v.w;
  const std::string bad = oracle::CheckPoolGeometry(op->window);
  if (!bad.empty()) f.Fail(bad);
  std::vector<int64_t> y;
  if (rank == 3) y.push_back(v.c);
  y.push_back(op->window.OutHeight());
  y.push_back(op->window.OutWidth());
  op->outputs = {{"y", TensorType{DType::kFp16, y}}};
}

std::string Describe(const Operation& op) {
  const oracle::ConvGeometry& w = op.window;
  return fmt::format(" {} {}x{} stride [{}, {}] padding [{}, {}, {}, {}]", oracle::PoolOpName(op.pool), w.kernel_h,
                     w.kernel_w, w.stride_y, w.stride_x, w.pad_top, w.pad_bottom, w.pad_left, w.pad_right);
}

// fp64: the exact max / min of each window's real elements, or their sum divided by their
// number (mean), rounded once to fp16.
TensorMap Reference(const Operation& op) {
  std::vector<std::vector<uint16_t>> lists;
  std::vector<int> counts;
  for (const harness::TreePatch& p : PoolPatches(op, As3(op.inputs.at("x").tensor), &counts)) {
    lists.emplace_back();
    for (int i = 0; i < 64; ++i) {
      if ((p.mask >> i) & 1) lists.back().push_back(p.v[size_t(i)]);
    }
  }
  const bool mean = op.pool == oracle::PoolOp::kMean;
  return Y(Tensor{DType::kFp16, op.outputs.at("y").shape,
                  ReduceReference(lists, oracle::PoolReduceOp(op.pool), mean ? &counts : nullptr)});
}

#ifndef ANE_CLI_NO_ENGINES
Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const oracle::Tensor3 v = As3(op.inputs.at("x").tensor);
  const std::vector<int64_t>& shape = op.outputs.at("y").shape;
  Tensor want{DType::kFp16, shape, {}};
  if (engine != Engine::kRtl) {
    const oracle::Tensor3 r = oracle::Pool(op.pool, op.window, v);
    want.bits.assign(r.codes.begin(), r.codes.end());
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  // the engine's pooling tasks: output strips of up to 64 columns
  RtlRun rtl;
  rtl.engine.emplace();
  const oracle::Tensor3 got = harness::EnginePool(op.pool, op.window, v, &*rtl.engine);
  return RtlEvaluation(engine, rtl, Fp16Tensor(shape, got.codes), want, [&](size_t) -> decltype(EngineMismatch::stage) {
    return {"planar engine: transposes, pooling filters and line buffer (N-4.5)", "the window's result differs"};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) { PrintEngineRtl(*rtl.engine); }
#endif

}  // namespace

const OpFamily kPoolFamily = {"pool",
                              "max, min or mean pooling over kernel windows (N-4.5); RTL: the planar engine "
                              "(transposes, filter, line buffer, filter)",
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
