// SPDX-License-Identifier: Apache-2.0
// op: matmul -- y = a x b (N-2), a [M, K] (or [K]) and b [K, N] (or [K]), fp16 x fp16 -> fp16 or
// int8 x int8 -> int32, optionally post-processed (N-3: scale, bias, activation, int8
// requantization): oracle::Matmul and oracle::PostProcessor, or the 256-lane MAC array RTL and
// the post-processor RTL. `precision: int4` runs int8 tensors of -8..7 in the int4 packed mode
// (N-2.8): oracle::MatmulInt4, the array's int4 mapping.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tb/cli/op_family.h"
#include "tb/oracle/fast_mac.h"
#include "tb/oracle/mac.h"

namespace ane::cli::ops {
namespace {

std::string FieldHelp() {
  return "inputs a [M, K] or [K] and b [K, N] or [K] (fp16 or int8; int8 x int8 gives int32), optional scale and bias "
         "(fp16 [N]); activation: relu or an activation function; "
         "shift: 0..31 (int8 x int8: requantize to int8); precision: int8 or int4 (int8 tensors of -8..7 in the "
         "int4 packed mode); rounding: nearest | stochastic (N-3.4, fp16 results) with rounding_seed (1 .. 2^32 - 1, "
         "default 1) and rounding_bits (1 .. 13, default 13)";
}

void ReadFields(Fields& fields, Operation* op) {
  if (const std::optional<Field> f = fields.Optional("precision")) {
    const std::string p = f->Scalar();
    if (p != "int8" && p != "int4") f->Fail(fmt::format("unknown precision '{}' (supported: int8, int4)", p));
    op->int4 = p == "int4";
  }
}

std::vector<const char*> Inputs(const Operation&) { return {"a", "b"}; }

void CheckInput(const Tensor& t, const Field& where) {
  if (t.dtype != DType::kFp16 && t.dtype != DType::kInt8) {
    where.Fail(fmt::format("wrong dtype: {} ('{}'); matmul inputs are fp16 ('<f2') or int8 ('|i1')", DTypeName(t.dtype),
                           NpyDescr(t.dtype)));
  }
  if (t.shape.size() != 1 && t.shape.size() != 2) {
    where.Fail(fmt::format("matmul needs a 2-D matrix or a 1-D vector, got shape {}", ShapeString(t.shape)));
  }
  if (ElementCount(t.shape) == 0) where.Fail(fmt::format("empty tensor (shape {})", ShapeString(t.shape)));
}

void Infer(Operation* op, const std::map<std::string, Field>& where) {
  const Tensor& a = op->inputs.at("a").tensor;
  const Tensor& b = op->inputs.at("b").tensor;
  CheckInput(a, where.at("a"));
  CheckInput(b, where.at("b"));
  if (op->int4) {
    CheckInt4Values(a, "a", "a and b", where.at("a"));
    CheckInt4Values(b, "b", "a and b", where.at("b"));
  }
  const MatrixShape ma = AsMatrix(a, false);
  const MatrixShape mb = AsMatrix(b, true);
  if (ma.cols != mb.rows) {
    where.at("b").Fail(fmt::format("shape mismatch: a is {} so b needs {} rows (K), got shape {}", ShapeString(a.shape),
                                   ma.cols, ShapeString(b.shape)));
  }
  TensorType y;
  y.dtype = a.dtype == DType::kInt8 && b.dtype == DType::kInt8 ? DType::kInt32 : DType::kFp16;
  if (a.shape.size() == 2) y.shape.push_back(ma.rows);
  if (b.shape.size() == 2) y.shape.push_back(mb.cols);
  op->outputs = {{"y", y}};
}

// The post-processing options: checks them and sets op->post and y's dtype.
void ReadPost(Operation* op, const std::map<std::string, Field>& where, const std::map<std::string, Field>& late) {
  const auto field = [&](const char* name) {
    return late.count(name) ? std::optional<Field>(late.at(name)) : std::nullopt;
  };
  const std::optional<Field> activation = field("activation");
  const std::optional<Field> shift = field("shift");
  const std::optional<Field> rounding = field("rounding");
  const std::optional<Field> rounding_seed = field("rounding_seed");
  const std::optional<Field> rounding_bits = field("rounding_bits");
  const bool has_scale = op->inputs.count("scale") > 0, has_bias = op->inputs.count("bias") > 0;
  if (!activation && !shift && !has_scale && !has_bias && !rounding && !rounding_seed && !rounding_bits) return;
  TensorType& y = op->outputs.at("y");
  const int64_t n =
      y.shape.empty() ? 1 : (op->inputs.at("b").tensor.shape.size() == 2 ? op->inputs.at("b").tensor.shape[1] : 1);
  oracle::PostConfig cfg;
  cfg.gen = op->generation;
  ReadScaleBiasActivation(*op, where, activation, n, "output column", &cfg);
  // N-3.4: stochastic rounding of the fp32 accumulators (not of int32 ones)
  cfg.int_acc = y.dtype == DType::kInt32;
  ReadRounding(rounding, rounding_seed, rounding_bits,
               op->int4 ? "this matmul is int4 (int32 accumulators)" : "this matmul is int8 x int8", &cfg);
  if (y.dtype == DType::kInt32) {
    if (!shift) {
      (activation  ? *activation
       : has_scale ? where.at("scale")
       : has_bias  ? where.at("bias")
                   : *rounding)  // `rounding: nearest` (the others were refused by ReadRounding)
          .Fail("int8 x int8 post-processing needs `shift` (requantization to int8, N-3.3)");
    }
    cfg.shift = int(shift->Integer(0, 31));
    cfg.store = oracle::PostStore::kInt8;
    if (has_scale || has_bias || cfg.act == oracle::PostAct::kTable) {
      (has_scale  ? where.at("scale")
       : has_bias ? where.at("bias")
                  : *activation)
          .Fail("an int8 store takes only `shift` and `activation: relu` (N-3.3)");
    }
    y.dtype = DType::kInt8;
  } else if (shift) {
    shift->Fail("`shift` requantizes int8 x int8 results; this matmul gives fp16");
  }
  const std::string err = oracle::ValidatePostConfig(cfg);
  if (!err.empty()) throw CliError(fmt::format("{}: post-processing: {}", op->file, err));
  op->post = cfg;
}

std::string Describe(const Operation& op) { return op.int4 ? " int4" : ""; }

std::string ReferenceNote(const Operation& op) {
  return std::string(kDotProductNote) + (op.post && op.post->sr ? kStochasticNote : "");
}

// fp64: each output the dot product of the decoded inputs (after N-1; 0 x inf = 0 and
// inf - inf = +0 as in the engine), summed in index order and rounded once to the output type
// (fp16 by the oracle's exact RNE, int32 clamped), or post-processed by PostReference.
TensorMap Reference(const Operation& op) {
  const Tensor& a = op.inputs.at("a").tensor;
  const Tensor& b = op.inputs.at("b").tensor;
  const MatrixShape ma = AsMatrix(a, false);
  const MatrixShape mb = AsMatrix(b, true);
  Tensor y{op.outputs.at("y").dtype, op.outputs.at("y").shape, {}};
  for (int64_t r = 0; r < ma.rows; ++r) {
    for (int64_t c = 0; c < mb.cols; ++c) {
      double sum = 0;
      for (int64_t k = 0; k < ma.cols; ++k) {
        const double x = ReferenceValue(a.bits[size_t(r * ma.cols + k)], a.dtype);
        const double w = ReferenceValue(b.bits[size_t(k * mb.cols + c)], b.dtype);
        const double p = (x == 0 || w == 0) ? 0.0 : x * w;  // exact: 11 x 11 significand bits
        sum = (std::isinf(sum) && std::isinf(p) && sum != p) ? 0.0 : sum + p;
      }
      if (op.post) {
        y.bits.push_back(PostReference(*op.post, Channel(op, c), sum));
      } else if (y.dtype == DType::kInt32) {
        y.bits.push_back(uint32_t(int32_t(std::clamp(sum, double(INT32_MIN), double(INT32_MAX)))));
      } else {
        y.bits.push_back(ReferenceFp16(sum));
      }
    }
  }
  return Y(std::move(y));
}

#ifndef ANE_CLI_NO_ENGINES
oracle::Matrix ToOracle(const Tensor& t, bool is_b) {
  oracle::Matrix m;
  m.type = t.dtype == DType::kInt8 ? oracle::ElemType::kInt8 : oracle::ElemType::kFp16;
  const MatrixShape s = AsMatrix(t, is_b);
  m.rows = s.rows;
  m.cols = s.cols;
  m.codes.assign(t.bits.begin(), t.bits.end());
  return m;
}

Tensor OutputTensor(const Operation& op, const oracle::MatmulResult& r) {
  Tensor y;
  y.dtype = r.is_int ? DType::kInt32 : DType::kFp16;  // before any post-processing
  y.shape = op.outputs.at("y").shape;
  if (r.is_int) {
    for (int32_t v : r.int32) y.bits.push_back(uint32_t(v));
  } else {
    y.bits.assign(r.fp16.begin(), r.fp16.end());
  }
  return y;
}

// Columns of the output (the channels of the post-processing).
int64_t OutputColumns(const Operation& op) {
  const Tensor& b = op.inputs.at("b").tensor;
  return b.shape.size() == 2 ? b.shape[1] : 1;
}

uint32_t PostBits(uint16_t v, DType dtype) { return dtype == DType::kInt8 ? (v & 0xFFu) : v; }

uint32_t AccBits(uint32_t bits, DType dtype) {
  return dtype == DType::kFp16 ? oracle::Fp16ToFp32(uint16_t(bits)) : bits;
}

// The post-processor's input vectors: each output column's rows in vectors of kPostprocLanes lanes
// (rows past M: +0), column by column. Both engines take them in this order, so the LFSR of
// stochastic rounding, stepping once per lane of every vector (N-3.4), gives each output the same
// draw on both. The accumulators are y's values (fp16 as fp32, int32), or with stochastic
// rounding the raw fp32 accumulator slots `raw` (row-major), which the post-processor rounds.
std::vector<harness::PostVector> PostVectors(const Operation& op, const Tensor& y, const std::vector<uint32_t>* raw) {
  const int64_t n = OutputColumns(op), rows = int64_t(y.bits.size()) / n;
  const int64_t lanes = harness::kPostprocLanes;
  std::vector<harness::PostVector> in;
  for (int64_t c = 0; c < n; ++c) {
    for (int64_t r0 = 0; r0 < rows; r0 += lanes) {
      harness::PostVector v;
      v.ch = Channel(op, c);
      for (int64_t r = r0; r < r0 + lanes; ++r) {
        const size_t i = size_t(r * n + c);
        v.acc.push_back(r >= rows ? 0u : raw ? (*raw)[i] : AccBits(y.bits[i], y.dtype));
      }
      in.push_back(std::move(v));
    }
  }
  return in;
}

// The post-processed vectors back in y's places.
Tensor PostScatter(const Operation& op, const Tensor& y, const std::vector<std::vector<uint16_t>>& got) {
  const int64_t n = OutputColumns(op), rows = int64_t(y.bits.size()) / n;
  const int64_t lanes = harness::kPostprocLanes;
  Tensor out{op.outputs.at("y").dtype, y.shape, std::vector<uint32_t>(y.bits.size(), 0)};
  size_t k = 0;
  for (int64_t c = 0; c < n; ++c) {
    for (int64_t r0 = 0; r0 < rows; r0 += lanes, ++k) {
      for (int64_t r = r0; r < std::min(rows, r0 + lanes); ++r) {
        out.bits[size_t(r * n + c)] = PostBits(got[k][size_t(r - r0)], out.dtype);
      }
    }
  }
  return out;
}

// The post-processing of the outputs on the oracle (channel = column), vector by vector.
Tensor PostOracle(const Operation& op, const Tensor& y, const std::vector<uint32_t>* raw) {
  oracle::PostProcessor pp(*op.post);
  std::vector<std::vector<uint16_t>> got;
  for (const harness::PostVector& v : PostVectors(op, y, raw)) got.push_back(pp.Process(v.acc, v.ch));
  return PostScatter(op, y, got);
}

// The same on the post-processor RTL (8 lanes).
Tensor PostRtl(const Operation& op, const Tensor& y, const std::vector<uint32_t>* raw, harness::RtlPostStats* stats) {
  return PostScatter(op, y, harness::RtlPostprocess(*op.post, PostVectors(op, y, raw), stats));
}

Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault& fault) {
  const oracle::Matrix a = ToOracle(op.inputs.at("a").tensor, false);
  const oracle::Matrix b = ToOracle(op.inputs.at("b").tensor, true);
  Evaluation e;
  std::optional<oracle::MatmulResult> want;
  // stochastic rounding rounds the raw fp32 accumulators, which the reference stages keep
  const bool sr = op.post && op.post->sr;
  // engine oracle: the fast exact path (oracle/fast_mac.h, equal to the reference by
  // oracle_fast_mac_test); engine both: the reference stages, the RTL's judge
  if (op.int4) {
    // N-2.8 through the oracle's int4 steps (MacLane kInt4), on both engines
    if (engine != Engine::kRtl) want = oracle::MatmulInt4(a, b, op.generation);
  } else {
    if (engine == Engine::kOracle && !sr) want = oracle::FastMatmul(a, b, op.generation);
    if (engine == Engine::kBoth || (engine == Engine::kOracle && sr)) want = oracle::Matmul(a, b, op.generation);
  }
  if (engine == Engine::kOracle) {
    e.saturated = want->saturated_count;
    const Tensor y = OutputTensor(op, *want);
    e.outputs.emplace("y", op.post ? PostOracle(op, y, sr ? &want->acc : nullptr) : y);
    return e;
  }
  harness::RtlMatmulOptions options;
  options.fault = fault;
  options.int4 = op.int4;
  const harness::RtlMatmulResult got = harness::RtlMatmul(a, b, op.generation, options);
  e.saturated = got.y.saturated_count;
  e.rtl = RtlRun{};
  e.rtl->matmul = got.stats;
  Tensor y = OutputTensor(op, got.y);
  if (want) {
    CompareWithOracle(&e, y, OutputTensor(op, *want), [&](size_t i) {
      return harness::LocateMismatch(a, b, op.generation, int64_t(i) / b.cols, int64_t(i) % b.cols, fault, op.int4);
    });
    if (!e.mismatch && got.y.saturated_count != want->saturated_count) {
      e.mismatch = EngineMismatch{"y (saturation count)",
                                  std::to_string(got.y.saturated_count),
                                  std::to_string(want->saturated_count),
                                  1,
                                  1,
                                  {"accumulate (N-2.8)", "the int32 saturation flags differ"}};
    }
  }
  if (op.post) {
    harness::RtlPostStats post_stats;
    Tensor post_y = PostRtl(op, y, sr ? &got.raw : nullptr, &post_stats);
    e.rtl->post = post_stats;
    if (want && !e.mismatch) {
      CompareWithOracle(&e, post_y, PostOracle(op, OutputTensor(op, *want), sr ? &want->acc : nullptr),
                        [&](size_t i) -> decltype(EngineMismatch::stage) {
                          return {"post-processor (N-3)",
                                  fmt::format("the matmul outputs agree; the post-processed value of {} differs",
                                              ValueText(y.bits[i], y.dtype))};
                        });
    }
    y = std::move(post_y);
  }
  e.outputs.emplace("y", std::move(y));
  return e;
}

void PrintRtl(const Operation&, const RtlRun& rtl) {
  if (rtl.post) PrintPostRtl(*rtl.post);
  const harness::RtlMatmulStats& s = *rtl.matmul;
  fmt::print("rtl         {} lanes, {} mapping: {} operations, {} cycles, utilization {:.1f}%\n", harness::kArrayLanes,
             s.int4         ? "int4 packed"
             : s.two_kernel ? "two-kernel"
                            : "broadcast",
             s.operations, s.cycles, 100.0 * s.utilization);
  PrintRtlSpeed(s.cycles, s.macs, s.seconds);
}
#endif

}  // namespace

const OpFamily kMatmulFamily = {
    "matmul",
    "y = a x b (N-2), optionally post-processed (N-3); RTL: the 256-lane MAC array and the post-processor",
    FieldHelp,
    ReadFields,
    Inputs,
    {"scale", "bias"},
    Infer,
    {"activation", "shift", "rounding", "rounding_seed", "rounding_bits"},
    ReadPost,
    Describe,
    false,
    RtlTakesAll,
    ANE_CLI_ENGINE(Evaluate),
    ANE_CLI_ENGINE(PrintRtl),
    ReferenceNote,
    Reference};

}  // namespace ane::cli::ops
