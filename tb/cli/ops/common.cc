// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the operation families (op_family.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tb/cli/op_family.h"
#include "tb/oracle/activation.h"

namespace ane::cli::ops {

namespace {

// The function whose default table `t` is (for the fp64 reference).
oracle::ActFn ActFnOf(const oracle::ActTable& t) {
  for (oracle::ActFn fn : oracle::kAllActFns) {
    const oracle::ActTable& d = oracle::DefaultActTable(fn);
    if (d.m == t.m && d.c == t.c && d.mode == t.mode && d.sym == t.sym && d.cos_phase == t.cos_phase) {
      return fn;
    }
  }
  return oracle::ActFn::kSigmoid;
}

}  // namespace

MatrixShape AsMatrix(const Tensor& t, bool is_b) {
  if (t.shape.size() == 2) return {t.shape[0], t.shape[1]};
  return is_b ? MatrixShape{t.shape[0], 1} : MatrixShape{1, t.shape[0]};
}

oracle::ChannelParams Channel(const Operation& op, int64_t col) {
  oracle::ChannelParams ch;
  if (op.inputs.count("scale")) ch.scale = uint16_t(op.inputs.at("scale").tensor.bits[size_t(col)]);
  if (op.inputs.count("bias")) {
    ch.bias = oracle::Fp16ToFp32(uint16_t(op.inputs.at("bias").tensor.bits[size_t(col)]));
  }
  return ch;
}

oracle::Tensor3 As3(const Tensor& x) {
  oracle::Tensor3 t;
  const size_t r = x.shape.size();
  t.w = int(x.shape[r - 1]);
  t.h = r >= 2 ? int(x.shape[r - 2]) : 1;
  t.c = r >= 3 ? int(x.shape[0]) : 1;
  t.codes.assign(x.bits.begin(), x.bits.end());
  return t;
}

void RequireFp16(const Operation& op, const Tensor& t, const Field& where) {
  if (t.dtype != DType::kFp16) {
    where.Fail(fmt::format("wrong dtype: {} ('{}'); {} inputs are fp16 ('<f2')", DTypeName(t.dtype), NpyDescr(t.dtype),
                           op.op));
  }
}

void ReadScaleBiasActivation(const Operation& op, const std::map<std::string, Field>& where,
                             const std::optional<Field>& activation, int64_t n, const char* per,
                             oracle::PostConfig* cfg) {
  for (const char* name : {"scale", "bias"}) {
    if (!op.inputs.count(name)) continue;
    const Tensor& t = op.inputs.at(name).tensor;
    if (t.dtype != DType::kFp16 || t.shape.size() != 1 || t.shape[0] != n) {
      where.at(name).Fail(fmt::format("{} must be fp16 with shape [{}] (one value per {}), got {} {}", name, n, per,
                                      DTypeName(t.dtype), ShapeString(t.shape)));
    }
  }
  cfg->scale_en = op.inputs.count("scale") > 0;
  cfg->bias_en = op.inputs.count("bias") > 0;
  if (activation) {
    const std::string name = activation->Scalar();
    oracle::ActFn fn;
    if (name == "relu") {
      cfg->act = oracle::PostAct::kRelu;
    } else if (oracle::ParseActFn(name, &fn)) {
      cfg->act = oracle::PostAct::kTable;
      cfg->table = oracle::DefaultActTable(fn);
    } else {
      activation->Fail(fmt::format("unknown activation '{}' (relu or an activation function)", name));
    }
  }
}

void CheckInt4Values(const Tensor& t, const char* name, const char* pair, const Field& where) {
  if (t.dtype != DType::kInt8) {
    where.Fail(fmt::format("precision int4 needs int8 {}, got {} ('{}')", pair, DTypeName(t.dtype), NpyDescr(t.dtype)));
  }
  for (size_t i = 0; i < t.bits.size(); ++i) {
    const int v = int8_t(uint8_t(t.bits[i]));
    if (v >= -8 && v <= 7) continue;
    std::vector<int64_t> at(t.shape.size(), 0);  // i as an index of t's shape
    int64_t rest = int64_t(i);
    for (size_t d = t.shape.size(); d-- > 0;) {
      at[d] = rest % t.shape[d];
      rest /= t.shape[d];
    }
    where.Fail(fmt::format("precision int4: {}[{}] = {} is outside -8 .. 7", name, fmt::join(at, ", "), v));
  }
}

void ReadRounding(const std::optional<Field>& rounding, const std::optional<Field>& seed,
                  const std::optional<Field>& bits, const std::string& what, oracle::PostConfig* cfg) {
  if (rounding && rounding->Scalar() != "nearest" && rounding->Scalar() != "stochastic") {
    rounding->Fail(fmt::format("unknown rounding '{}' (expected nearest or stochastic)", rounding->Scalar()));
  }
  cfg->sr = rounding && rounding->Scalar() == "stochastic";
  for (const std::optional<Field>& f : {seed, bits}) {
    if (f && !cfg->sr) f->Fail("takes `rounding: stochastic`");
  }
  if (!cfg->sr) return;
  if (cfg->int_acc) rounding->Fail(fmt::format("stochastic rounding rounds fp accumulators; {}", what));
  cfg->sr_seed = seed ? uint32_t(seed->Integer(1, 0xFFFFFFFFll)) : 1u;
  cfg->sr_width = bits ? int(bits->Integer(1, 13)) : 13;
}

const char kStochasticNote[] =
    "note: the engine rounds each accumulator stochastically (N-3.4); the reference rounds to nearest.\n";

void RequirePlanarTensor(const Tensor& x, const Field& where, const char* op) {
  if (x.shape.empty() || x.shape.size() > 3 || ElementCount(x.shape) == 0) {
    where.Fail(fmt::format("shape {}: {} takes a non-empty [W], [H, W] or [C, H, W]", ShapeString(x.shape), op));
  }
  for (int64_t d : x.shape) {
    if (d > 16383) where.Fail(fmt::format("shape {}: each axis at most 16383 (one planar task)", ShapeString(x.shape)));
  }
}

std::vector<const char*> InputX(const Operation&) { return {"x"}; }

std::string RtlTakesAll(const Operation&) { return ""; }

std::string RtlCheckPlanarShape(const Operation& op) {
  const Tensor& x = op.inputs.at("x").tensor;
  for (int64_t d : x.shape) {
    if (d > 16383) {
      return fmt::format("input x is {}: the planar engine takes at most 16383 along each axis", ShapeString(x.shape));
    }
  }
  return "";
}

void ReadPadding(const Field& f, int64_t hi, bool scalar_ok, oracle::ConvGeometry* g) {
  if (scalar_ok && f.IsScalar()) {
    g->pad_top = g->pad_bottom = g->pad_left = g->pad_right = int(f.Integer(0, hi));
    return;
  }
  const std::vector<Field> items = f.Items();
  if (items.size() == 2) {
    g->pad_top = g->pad_bottom = int(items[0].Integer(0, hi));
    g->pad_left = g->pad_right = int(items[1].Integer(0, hi));
  } else if (items.size() == 4) {
    g->pad_top = int(items[0].Integer(0, hi));
    g->pad_bottom = int(items[1].Integer(0, hi));
    g->pad_left = int(items[2].Integer(0, hi));
    g->pad_right = int(items[3].Integer(0, hi));
  } else {
    f.Fail(scalar_ok ? "expected an integer, [rows, columns] or [top, bottom, left, right]"
                     : "expected [rows, columns] or [top, bottom, left, right]");
  }
}

double ReferenceValue(uint32_t bits, DType dtype) {
  if (dtype == DType::kInt8) return int8_t(uint8_t(bits));
  return oracle::Fp16ToDouble(oracle::InputBoundary(uint16_t(bits)));
}

uint32_t ReferenceFp16(double v) { return std::isnan(v) ? 0u : oracle::DoubleToFp16(v); }

// int8 store: round(sum / 2^shift) clamped to int8, then ReLU; otherwise sum x scale + bias (the
// bias as the engine holds it), then the activation, rounded once to fp16.
uint32_t PostReference(const oracle::PostConfig& p, const oracle::ChannelParams& ch, double sum) {
  if (p.store == oracle::PostStore::kInt8) {
    double q = std::clamp(std::nearbyint(std::ldexp(sum, -p.shift)), -128.0, 127.0);
    if (p.act == oracle::PostAct::kRelu) q = std::max(q, 0.0);
    return uint32_t(int32_t(q)) & 0xFFu;
  }
  double v = p.int_acc ? std::ldexp(sum, -p.shift) : sum;
  if (p.scale_en) v *= ReferenceValue(ch.scale, DType::kFp16);
  if (p.bias_en) v += oracle::Fp16ToDouble(oracle::Fp32ToFp16(ch.bias));
  if (p.act == oracle::PostAct::kRelu) v = std::max(v, 0.0);
  if (p.act == oracle::PostAct::kTable) v = oracle::ActReference(ActFnOf(p.table), v);
  return ReferenceFp16(v);
}

const char kDotProductNote[] =
    "note: the fp64 reference rounds the fp64 dot product of the inputs once; the engine's\n"
    "quad stage (N-2.4) and port ceiling (N-2.6) are not IEEE, so differences are expected.\n"
    "They are information, not a failure.\n";

#ifndef ANE_CLI_NO_ENGINES
Evaluation OracleOnly(Tensor want) {
  Evaluation e;
  e.outputs.emplace("y", std::move(want));
  return e;
}

Tensor Fp16Tensor(const std::vector<int64_t>& shape, const std::vector<uint16_t>& codes) {
  return Tensor{DType::kFp16, shape, std::vector<uint32_t>(codes.begin(), codes.end())};
}

void PrintRtlSpeed(uint64_t cycles, uint64_t macs, double seconds) {
  fmt::print("rtl speed   {:.0f} simulated cycles/s, {:.2f} M MACs/s ({:.2f} s)\n", double(cycles) / seconds,
             double(macs) / seconds / 1e6, seconds);
}

void PrintEngineRtl(const harness::PlanarEngineStats& s) {
  fmt::print(
      "rtl         planar engine (ane_planar), {} lanes: {} task{}, {} source beats read, {} result beats written, {} "
      "cycles\n",
      harness::kEngineLanes, s.tasks, s.tasks == 1 ? "" : "s", s.reads, s.beats, s.cycles);
}

void PrintPostRtl(const harness::RtlPostStats& s) {
  fmt::print("rtl         post-processor, {} lanes: {} vectors, {} cycles ({:.2f} s)\n", harness::kPostprocLanes,
             s.vectors, s.cycles, s.seconds);
}
#endif

}  // namespace ane::cli::ops
