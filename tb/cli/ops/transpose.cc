// SPDX-License-Identifier: Apache-2.0
// op: transpose -- y = x with its axes permuted (numpy.transpose), on the planar engine through
// its patch transpose (N-4.1; docs/planar.md, "Channels last"): the codes move unchanged.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "tb/cli/op_family.h"

namespace ane::cli::ops {
namespace {

std::string FieldHelp() {
  return "input x (fp16 or int8, [W], [H, W] or [C, H, W]); perm: a permutation of x's axes (default reversed, as "
         "numpy.transpose), y axis k = x axis perm[k]; the codes move unchanged";
}

void ReadFields(Fields& fields, Operation* op) {
  op->transpose_perm.clear();
  if (const std::optional<Field> f = fields.Optional("perm")) {
    if (f->IsScalar()) f->Fail("expected a list of axes, e.g. [1, 0]");
    for (const Field& item : f->Items()) op->transpose_perm.push_back(int(item.Integer(0, 2)));
    if (op->transpose_perm.empty()) f->Fail("expected a list of axes, e.g. [1, 0]");
  }
}

// x's right-aligned [C, H, W] and the perm over it
void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& x = op->inputs.at("x").tensor;
  const Field& fx = where.at("x");
  if (x.dtype != DType::kFp16 && x.dtype != DType::kInt8) {
    fx.Fail(fmt::format("wrong dtype: {} ('{}'); transpose takes fp16 ('<f2') or int8 ('|i1')", DTypeName(x.dtype),
                        NpyDescr(x.dtype)));
  }
  RequirePlanarTensor(x, fx, "transpose");
  const int r = int(x.shape.size());
  std::vector<int> p = op->transpose_perm;
  if (p.empty()) {
    for (int k = r - 1; k >= 0; --k) p.push_back(k);
  } else {
    std::vector<int> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> want(static_cast<size_t>(r), 0);
    std::iota(want.begin(), want.end(), 0);
    if (sorted != want) {
      std::string list;
      for (int k : p) list += (list.empty() ? "" : ", ") + std::to_string(k);
      fx.Fail(fmt::format("perm [{}] is not a permutation of the {} axes of shape {}", list, r, ShapeString(x.shape)));
    }
  }
  std::vector<int64_t> y;
  for (int k : p) y.push_back(x.shape[size_t(k)]);
  op->transpose_perm.clear();
  for (int k = 0; k < 3 - r; ++k) op->transpose_perm.push_back(k);
  for (int k : p) op->transpose_perm.push_back(k + 3 - r);
  op->outputs = {{"y", TensorType{x.dtype, y}}};
}

std::string Describe(const Operation& op) {
  const int r = int(op.inputs.at("x").tensor.shape.size());
  std::string list;
  for (int k = 3 - r; k < 3; ++k)
    list += (list.empty() ? "" : ", ") + std::to_string(op.transpose_perm[size_t(k)] - (3 - r));
  return fmt::format(" perm [{}]", list);
}

// The element of x that element i of y is.
size_t Source(const Operation& op, size_t i) {
  const std::vector<int64_t>& s = op.inputs.at("x").tensor.shape;
  int64_t n[3] = {1, 1, 1};  // x's [C, H, W]
  for (size_t k = 0; k < s.size(); ++k) n[3 - s.size() + k] = s[k];
  const std::vector<int>& p = op.transpose_perm;
  const int64_t d1 = n[p[1]], d2 = n[p[2]];
  const int64_t yi[3] = {int64_t(i) / (d1 * d2), int64_t(i) / d2 % d1, int64_t(i) % d2};
  int64_t xi[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) xi[p[size_t(k)]] = yi[k];
  return size_t((xi[0] * n[1] + xi[1]) * n[2] + xi[2]);
}

std::string ReferenceNote(const Operation&) { return ""; }

// Every element itself, moved: the oracle's result and the fp64 reference's.
Tensor Moved(const Operation& op) {
  const Tensor& x = op.inputs.at("x").tensor;
  const TensorType& type = op.outputs.at("y");
  Tensor y{type.dtype, type.shape, {}};
  for (size_t i = 0; i < x.bits.size(); ++i) y.bits.push_back(x.bits[Source(op, i)]);
  return y;
}

TensorMap Reference(const Operation& op) { return Y(Moved(op)); }

#ifndef ANE_CLI_NO_ENGINES
Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault&) {
  const Tensor& x = op.inputs.at("x").tensor;
  const TensorType& type = op.outputs.at("y");
  const bool x8 = x.dtype == DType::kInt8;
  Tensor want{type.dtype, type.shape, {}};
  if (engine != Engine::kRtl) want = Moved(op);
  if (engine == Engine::kOracle) return OracleOnly(std::move(want));
  RtlRun rtl;
  rtl.engine.emplace();
  const int perm[3] = {op.transpose_perm[0], op.transpose_perm[1], op.transpose_perm[2]};
  const oracle::Tensor3 y = harness::EngineTranspose(As3(x), x8, perm, &*rtl.engine);
  Tensor got{type.dtype, type.shape, {}};
  for (uint16_t c : y.codes) got.bits.push_back(x8 ? uint32_t(c & 0xFFu) : uint32_t(c));
  return RtlEvaluation(engine, rtl, std::move(got), want, [&](size_t i) -> decltype(EngineMismatch::stage) {
    return {perm[2] == 2 ? "planar engine, copy with permuted strides" : "planar engine, channels last (N-4.1)",
            fmt::format("input x = {}", ValueText(x.bits[Source(op, i)], x.dtype))};
  });
}

void PrintRtl(const Operation&, const RtlRun& rtl) { PrintEngineRtl(*rtl.engine); }
#endif

}  // namespace

const OpFamily kTransposeFamily = {"transpose",
                                   "y = x with its axes permuted, the codes unchanged (N-4.1's patch transpose); RTL: "
                                   "the planar engine",
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
