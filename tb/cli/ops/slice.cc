// SPDX-License-Identifier: Apache-2.0
// op: slice -- y = x[begin:end] along one axis on the planar engine, with the width-slice gain of
// N-4.6: on m1 a slice along the width (last) axis with a nonzero begin stores 16 x each value
// (oracle::WidthSliceStore); any other slice, and every slice on m5, copies the values.
#include <fmt/format.h>

#include "tb/cli/op_family.h"

namespace ane::cli::ops {
namespace {

std::string FieldHelp() {
  return "input x (fp16, [W], [H, W] or [C, H, W]); axis (default -1, the width; negative counts from the last); "
         "begin (default 0), end (default the axis's size), 0 <= begin < end; on m1 a width slice with begin > 0 "
         "multiplies by 16 (N-4.6)";
}

void ReadFields(Fields& fields, Operation* op) {
  op->slice_axis = -1;
  op->slice_begin = 0;
  op->slice_end = -1;  // the axis's size (Infer)
  if (const std::optional<Field> f = fields.Optional("axis")) op->slice_axis = int(f->Integer(-3, 2));
  if (const std::optional<Field> f = fields.Optional("begin")) op->slice_begin = f->Integer(0, 16382);
  if (const std::optional<Field> f = fields.Optional("end")) op->slice_end = f->Integer(1, 16383);
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& x = op->inputs.at("x").tensor;
  const Field& fx = where.at("x");
  RequireFp16(*op, x, fx);
  RequirePlanarTensor(x, fx, "slice");
  const int r = int(x.shape.size());
  const int axis = op->slice_axis < 0 ? op->slice_axis + r : op->slice_axis;
  if (axis < 0 || axis >= r)
    fx.Fail(fmt::format("axis {} is not an axis of shape {}", op->slice_axis, ShapeString(x.shape)));
  const int64_t size = x.shape[size_t(axis)];
  if (op->slice_end < 0) op->slice_end = size;
  if (op->slice_begin >= op->slice_end || op->slice_end > size) {
    fx.Fail(fmt::format("begin {} and end {} are not a slice of axis {} of shape {} (0 <= begin < end <= {})",
                        op->slice_begin, op->slice_end, op->slice_axis, ShapeString(x.shape), size));
  }
  op->slice_axis = axis + (3 - r);  // of the right-aligned [C, H, W]
  std::vector<int64_t> y = x.shape;
  y[size_t(axis)] = op->slice_end - op->slice_begin;
  op->outputs = {{"y", TensorType{DType::kFp16, y}}};
}

bool Gain(const Operation& op) {
  return op.slice_axis == 2 && op.slice_begin != 0 && op.generation == oracle::Generation::kM1;
}

std::string Describe(const Operation& op) {
  static const char* const kAxes[] = {"channels", "rows", "width"};
  return fmt::format(" {} [{}, {}){}", kAxes[op.slice_axis], op.slice_begin, op.slice_end,
                     Gain(op) ? " (width-slice gain x16, N-4.6)" : "");
}

// The element of x that element i of y copies.
size_t Source(const Operation& op, size_t i) {
  // x's H and W (right-aligned [C, H, W]); only the shape, not a copy of the tensor
  const std::vector<int64_t>& s = op.inputs.at("x").tensor.shape;
  const int64_t xw = s.back(), xh = s.size() >= 2 ? s[s.size() - 2] : 1;
  const int64_t yh = op.slice_axis == 1 ? op.slice_end - op.slice_begin : xh;
  const int64_t yw = op.slice_axis == 2 ? op.slice_end - op.slice_begin : xw;
  int64_t w = int64_t(i) % yw, h = int64_t(i) / yw % yh, c = int64_t(i) / (yw * yh);
  if (op.slice_axis == 0) c += op.slice_begin;
  if (op.slice_axis == 1) h += op.slice_begin;
  if (op.slice_axis == 2) w += op.slice_begin;
  return size_t((c * xh + h) * xw + w);
}

std::string ReferenceNote(const Operation&) { return ""; }

// fp64: the element itself, 16 times it where the gain applies, rounded once to fp16.
TensorMap Reference(const Operation& op) {
  const Tensor& x = op.inputs.at("x").tensor;
  const TensorType& type = op.outputs.at("y");
  Tensor y{DType::kFp16, type.shape, {}};
  for (size_t i = 0; i < size_t(ElementCount(type.shape)); ++i) {
    const uint32_t b = x.bits[Source(op, i)];
    y.bits.push_back(Gain(op) ? ReferenceFp16(16.0 * ReferenceValue(b, DType::kFp16)) : b);
  }
  return Y(std::move(y));
}

#ifndef ANE_CLI_NO_ENGINES
Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const Tensor& x = op.inputs.at("x").tensor;
  const TensorType& type = op.outputs.at("y");
  Tensor want{DType::kFp16, type.shape, {}};
  if (engine != Engine::kRtl) {
    for (size_t i = 0; i < size_t(ElementCount(type.shape)); ++i) {
      want.bits.push_back(oracle::WidthSliceStore(uint16_t(x.bits[Source(op, i)]), op.slice_axis == 2,
                                                  int(op.slice_begin), op.generation));
    }
  }
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  RtlRun rtl;
  rtl.engine.emplace();
  const oracle::Tensor3 y =
      harness::EngineSlice(As3(x), op.slice_axis, int(op.slice_begin), int(op.slice_end), Gain(op), &*rtl.engine);
  return RtlEvaluation(engine, rtl, Fp16Tensor(type.shape, y.codes), want,
                       [&](size_t i) -> decltype(EngineMismatch::stage) {
                         return {Gain(op) ? "planar engine, width-slice gain (N-4.6)" : "planar engine, copy",
                                 fmt::format("input x = {}", ValueText(x.bits[Source(op, i)], DType::kFp16))};
                       });
}

void PrintRtl(const Operation&, const RtlRun& rtl) { PrintEngineRtl(*rtl.engine); }
#endif

}  // namespace

const OpFamily kSliceFamily = {"slice",
                               "y = x[begin:end] along one axis, with the m1 width-slice gain (N-4.6); RTL: the "
                               "planar engine",
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
