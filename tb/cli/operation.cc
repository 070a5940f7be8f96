#include "tb/cli/operation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "tb/cli/operation_internal.h"
#include "tb/oracle/elementwise.h"
#include "tb/oracle/mac.h"
#include "tb/oracle/planar.h"

namespace ane::cli {

namespace {

using internal::As3;
using internal::AsMatrix;
using internal::Channel;
using internal::MatrixShape;

oracle::Matrix ToOracle(const Tensor& t, bool is_b) {
  oracle::Matrix m;
  m.type = t.dtype == DType::kInt8 ? oracle::ElemType::kInt8 : oracle::ElemType::kFp16;
  const MatrixShape s = AsMatrix(t, is_b);
  m.rows = s.rows;
  m.cols = s.cols;
  m.codes.assign(t.bits.begin(), t.bits.end());
  return m;
}

// The value of one input element for the fp64 reference (after the N-1 input boundary).
double ReferenceValue(uint32_t bits, DType dtype) {
  if (dtype == DType::kInt8) return int8_t(uint8_t(bits));
  return oracle::Fp16ToDouble(oracle::InputBoundary(uint16_t(bits)));
}

// An fp64 reference value rounded once to fp16; NaN (an indeterminate form) gives +0 (N-4.2).
uint32_t ReferenceFp16(double v) { return std::isnan(v) ? 0u : oracle::DoubleToFp16(v); }

}  // namespace

std::optional<Engine> ParseEngine(const std::string& text) {
  if (text == "oracle") return Engine::kOracle;
  if (text == "rtl") return Engine::kRtl;
  if (text == "both") return Engine::kBoth;
  return std::nullopt;
}

const char* EngineName(Engine e) {
  switch (e) {
    case Engine::kOracle:
      return "oracle";
    case Engine::kRtl:
      return "rtl";
    case Engine::kBoth:
      return "both";
  }
  return "?";
}

void CheckEngine(Engine engine, const Operation& op) {
  if (engine == Engine::kOracle) return;
  if (op.op == "conv2d") {
    harness::CoreLayerPlan plan;
    const std::string bad = harness::PlanRtlConv(op.conv, op.conv_rtl, &plan);
    if (!bad.empty()) {
      throw CliError(fmt::format("{}: --engine {}: the 256-lane core cannot run this layer: {} (--engine oracle can)",
                                 op.file, EngineName(engine), bad));
    }
    return;
  }
  if (op.op == "matmul" || op.op == "activation" || op.op == "elementwise" || op.op == "reduce" ||
      op.op == "pool" || op.op == "softmax") {
    return;
  }
  throw CliError(fmt::format("--engine {}: there is no RTL engine for {} yet; use --engine oracle",
                             EngineName(engine), op.op));
}

harness::DataFault FaultFromEnvironment() {
  const char* env = std::getenv("ANE_FAULT");
  if (env == nullptr) return {};
  const std::string text(env);
  const size_t comma = text.find(',');
  const auto number = [](const std::string& s) {
    return !s.empty() && s.size() < 12 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (comma == std::string::npos || !number(text.substr(0, comma)) ||
      !number(text.substr(comma + 1))) {
    throw CliError(fmt::format("ANE_FAULT={}: expected ROW,K (two non-negative integers)", text));
  }
  return {std::stoll(text.substr(0, comma)), std::stoll(text.substr(comma + 1))};
}

std::string ValueText(uint32_t bits, DType dtype) {
  return dtype == DType::kFp16 ? fmt::format("{} (0x{:04x})", FormatValue(bits, dtype), bits)
                               : FormatValue(bits, dtype);
}

std::string ElementName(const std::string& output, int64_t index, const Tensor& t) {
  return t.bits.size() == 1 ? output : output + IndexString(index, t.shape);
}

// Compares every element of the RTL's y with the oracle's want: the first difference, with the
// stage locate(i) names, becomes e->mismatch, and every difference counts.
template <class Locate>
void CompareWithOracle(Evaluation* e, const Tensor& y, const Tensor& want, Locate locate) {
  for (size_t i = 0; i < y.bits.size(); ++i) {
    if (y.bits[i] == want.bits[i]) continue;
    if (!e->mismatch) {
      EngineMismatch m;
      m.element = ElementName("y", int64_t(i), y);
      m.rtl = ValueText(y.bits[i], y.dtype);
      m.oracle = ValueText(want.bits[i], want.dtype);
      m.total = int64_t(y.bits.size());
      m.stage = locate(i);
      e->mismatch = m;
    }
    ++e->mismatch->count;
  }
}

namespace {

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

}  // namespace

namespace {

Evaluation EvaluateActivation(const Operation& op, Engine engine) {
  const Tensor& x = op.inputs.at("x").tensor;
  const oracle::ActTable& table = oracle::DefaultActTable(op.function);
  std::vector<uint16_t> codes(x.bits.begin(), x.bits.end());
  Tensor want{DType::kFp16, x.shape, {}};
  if (engine != Engine::kRtl) {
    for (uint16_t c : codes) want.bits.push_back(oracle::EvalActTable(table, c));
  }
  Evaluation e;
  if (engine == Engine::kOracle) {
    e.outputs.emplace("y", std::move(want));
    return e;
  }
  harness::RtlPostStats stats;
  const std::vector<uint16_t> got = harness::RtlActivation(table, codes, &stats);
  e.rtl = RtlRun{{}, stats, std::nullopt, std::nullopt};
  Tensor y{DType::kFp16, x.shape, std::vector<uint32_t>(got.begin(), got.end())};
  if (engine == Engine::kBoth) {
    CompareWithOracle(&e, y, want, [&](size_t i) -> decltype(EngineMismatch::stage) {
      return {"activation table (N-5.1)", fmt::format("input x = {}", ValueText(x.bits[i], DType::kFp16))};
    });
  }
  e.outputs.emplace("y", std::move(y));
  return e;
}

// The function whose default table `t` is (for the fp64 reference).
oracle::ActFn ActFnOf(const oracle::ActTable& t) {
  for (oracle::ActFn fn : oracle::kAllActFns) {
    const oracle::ActTable& d = oracle::DefaultActTable(fn);
    if (d.m == t.m && d.c == t.c && d.mode == t.mode && d.sym == t.sym &&
        d.cos_phase == t.cos_phase) {
      return fn;
    }
  }
  return oracle::ActFn::kSigmoid;
}

// Columns of a matmul output (the channels of the post-processing).
int64_t OutputColumns(const Operation& op) {
  const Tensor& b = op.inputs.at("b").tensor;
  return b.shape.size() == 2 ? b.shape[1] : 1;
}


uint32_t PostBits(uint16_t v, DType dtype) { return dtype == DType::kInt8 ? (v & 0xFFu) : v; }

uint32_t AccBits(uint32_t bits, DType dtype) {
  return dtype == DType::kFp16 ? oracle::Fp16ToFp32(uint16_t(bits)) : bits;
}

// The post-processing of a matmul's outputs on the oracle: element by element, channel = column.
Tensor PostOracle(const Operation& op, const Tensor& y) {
  oracle::PostProcessor pp(*op.post);
  const int64_t n = OutputColumns(op);
  Tensor out{op.outputs.at("y").dtype, y.shape, {}};
  for (size_t i = 0; i < y.bits.size(); ++i) {
    const uint16_t v = pp.Process({AccBits(y.bits[i], y.dtype)}, Channel(op, int64_t(i) % n))[0];
    out.bits.push_back(PostBits(v, out.dtype));
  }
  return out;
}

// The same on the post-processor RTL: each column's rows in vectors of 8 lanes.
Tensor PostRtl(const Operation& op, const Tensor& y, harness::RtlPostStats* stats) {
  const int64_t n = OutputColumns(op), rows = int64_t(y.bits.size()) / n;
  const int64_t lanes = harness::kPostprocLanes;
  std::vector<harness::PostVector> in;
  for (int64_t c = 0; c < n; ++c) {
    for (int64_t r0 = 0; r0 < rows; r0 += lanes) {
      harness::PostVector v;
      v.ch = Channel(op, c);
      for (int64_t r = r0; r < r0 + lanes; ++r) {
        v.acc.push_back(r < rows ? AccBits(y.bits[size_t(r * n + c)], y.dtype) : 0u);
      }
      in.push_back(std::move(v));
    }
  }
  const auto got = harness::RtlPostprocess(*op.post, in, stats);
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

// The oracle of one elementwise function (NUMERICS N-4.1 .. N-4.3).
uint16_t EwOracle(harness::PeEwOp op, uint16_t a, uint16_t b, uint16_t c) {
  using harness::PeEwOp;
  switch (op) {
    case PeEwOp::kAdd: return oracle::Fp16Add(a, b);
    case PeEwOp::kSub: return oracle::Fp16Sub(a, b);
    case PeEwOp::kMul: return oracle::Fp16Mul(a, b);
    case PeEwOp::kMax: return oracle::Fp16Max(a, b);
    case PeEwOp::kMin: return oracle::Fp16Min(a, b);
    case PeEwOp::kCompare: return oracle::Compare(a, b);
    case PeEwOp::kAbs: return oracle::Fp16Abs(a);
    case PeEwOp::kNeg: return oracle::Fp16Neg(a);
    case PeEwOp::kRelu: return oracle::Fp16Max(a, 0);
    case PeEwOp::kSquare: return oracle::Fp16Square(a);
    case PeEwOp::kMultiplyAdd: return oracle::Ternary(oracle::TernaryOp::kAddMul, a, b, c);
    case PeEwOp::kAddMultiply: return oracle::Ternary(oracle::TernaryOp::kMulAfterAdd, a, b, c);
  }
  return 0;
}

std::vector<uint16_t> Codes(const Operation& op, const char* name) {
  if (!op.inputs.count(name)) return {};
  const Tensor& t = op.inputs.at(name).tensor;
  return std::vector<uint16_t>(t.bits.begin(), t.bits.end());
}

Evaluation EvaluateElementwise(const Operation& op, Engine engine) {
  const bool unary = op.inputs.count("x") > 0;
  const std::vector<uint16_t> a = Codes(op, unary ? "x" : "a"), b = Codes(op, "b"), c = Codes(op, "c");
  const std::vector<int64_t>& shape = op.outputs.at("y").shape;
  Tensor want{DType::kFp16, shape, {}};
  if (engine != Engine::kRtl) {
    for (size_t i = 0; i < a.size(); ++i) {
      want.bits.push_back(EwOracle(op.ew, a[i], b.empty() ? 0 : b[i], c.empty() ? 0 : c[i]));
    }
  }
  Evaluation e;
  if (engine == Engine::kOracle) {
    e.outputs.emplace("y", std::move(want));
    return e;
  }
  harness::RtlPlanarStats stats;
  const std::vector<uint16_t> got = harness::RtlElementwise(op.ew, a, b, c, &stats);
  e.rtl = RtlRun{};
  e.rtl->planar = stats;
  Tensor y{DType::kFp16, shape, std::vector<uint32_t>(got.begin(), got.end())};
  if (engine == Engine::kBoth) {
    CompareWithOracle(&e, y, want, [&](size_t i) -> decltype(EngineMismatch::stage) {
      return {"planar elementwise unit (N-4.1)", fmt::format("inputs {}", ValueText(a[i], DType::kFp16))};
    });
  }
  e.outputs.emplace("y", std::move(y));
  return e;
}


// The element indices (into x.codes) of the lists a tensor reduction reduces, in the order of
// oracle::ReduceTensor's outputs; each list in reduction order.
std::vector<std::vector<size_t>> ListIndices(oracle::ReduceAxis axis, const oracle::Tensor3& x) {
  std::vector<std::vector<size_t>> lists;
  auto at = [&](int c, int r, int q) { return (size_t(c) * size_t(x.h) + size_t(r)) * size_t(x.w) + size_t(q); };
  switch (axis) {
    case oracle::ReduceAxis::kRows:
      for (int c = 0; c < x.c; ++c) {
        for (int r = 0; r < x.h; ++r) {
          lists.emplace_back();
          for (int q = 0; q < x.w; ++q) lists.back().push_back(at(c, r, q));
        }
      }
      break;
    case oracle::ReduceAxis::kColumns:
      for (int c = 0; c < x.c; ++c) {
        for (int q = 0; q < x.w; ++q) {
          lists.emplace_back();
          for (int r = 0; r < x.h; ++r) lists.back().push_back(at(c, r, q));
        }
      }
      break;
    case oracle::ReduceAxis::kPlanes:
      for (int c = 0; c < x.c; ++c) {
        lists.emplace_back();
        for (int r = 0; r < x.h; ++r)
          for (int q = 0; q < x.w; ++q) lists.back().push_back(at(c, r, q));
      }
      break;
    case oracle::ReduceAxis::kChannels:
      for (int r = 0; r < x.h; ++r) {
        for (int q = 0; q < x.w; ++q) {
          lists.emplace_back();
          for (int c = 0; c < x.c; ++c) lists.back().push_back(at(c, r, q));
        }
      }
      break;
  }
  return lists;
}

// The values at those indices.
std::vector<std::vector<uint16_t>> ListValues(const std::vector<std::vector<size_t>>& idx, const oracle::Tensor3& x) {
  std::vector<std::vector<uint16_t>> lists;
  for (const auto& list : idx) {
    lists.emplace_back();
    for (size_t i : list) lists.back().push_back(x.codes[i]);
  }
  return lists;
}

std::vector<std::vector<uint16_t>> ReduceLists(oracle::ReduceAxis axis, const oracle::Tensor3& x) {
  return ListValues(ListIndices(axis, x), x);
}

// Tree patches that reduce each list with `op` (0 sum, 1 max, 2 min): 64 elements per patch.
std::vector<harness::TreePatch> ListPatches(const std::vector<std::vector<uint16_t>>& lists, int op) {
  std::vector<harness::TreePatch> patches;
  for (const auto& list : lists) {
    for (size_t p = 0; p < list.size(); p += 64) {
      harness::TreePatch t;
      t.op = op;
      t.first = p == 0;
      t.last = p + 64 >= list.size();
      for (size_t i = 0; i < 64 && p + i < list.size(); ++i) {
        t.v[i] = list[p + i];
        t.mask |= uint64_t(1) << i;
      }
      patches.push_back(t);
    }
  }
  return patches;
}

// The windows of a pooling, in output order: tree patches (element (ky, kx) at 8 ky + kx) and
// the number of real elements.
std::vector<harness::TreePatch> PoolPatches(const Operation& op, const oracle::Tensor3& x,
                                            std::vector<int>* counts) {
  const oracle::ConvGeometry& g = op.window;
  std::vector<harness::TreePatch> patches;
  for (int c = 0; c < x.c; ++c) {
    for (int oy = 0; oy < g.OutHeight(); ++oy) {
      for (int ox = 0; ox < g.OutWidth(); ++ox) {
        harness::TreePatch p;
        p.op = op.pool == oracle::PoolOp::kMax ? 1 : op.pool == oracle::PoolOp::kMin ? 2 : 0;
        p.first = p.last = true;
        int n = 0;
        for (int ky = 0; ky < g.kernel_h; ++ky) {
          for (int kx = 0; kx < g.kernel_w; ++kx) {
            const int iy = oy * g.stride_y - g.pad_top + ky, ix = ox * g.stride_x - g.pad_left + kx;
            if (iy < 0 || iy >= x.h || ix < 0 || ix >= x.w) continue;
            p.v[size_t(8 * ky + kx)] = x.at(c, iy, ix);
            p.mask |= uint64_t(1) << (8 * ky + kx);
            ++n;
          }
        }
        patches.push_back(p);
        counts->push_back(n);
      }
    }
  }
  return patches;
}

// Reductions whose lists run across lines (columns of a plane, or channels): these go through
// the line buffer; rows and planes are contiguous lists for the tree alone.
bool Across(oracle::ReduceAxis axis) {
  return axis == oracle::ReduceAxis::kColumns || axis == oracle::ReduceAxis::kChannels;
}

// One reduction per list of the axis, on the RTL: through the line buffer (columns, channels)
// or the tree (rows, planes). values: the tensor to reduce (x, or the exponentials in x's
// layout); lists: the same values in list order.
std::vector<uint16_t> RtlReduceLists(int op, oracle::ReduceAxis axis, const oracle::Tensor3& values,
                                     const std::vector<std::vector<uint16_t>>& lists, harness::RtlPlanarStats* stats) {
  std::vector<uint16_t> out;
  if (Across(axis)) {
    harness::LineStats ls;
    const oracle::ReduceOp rop = op == 0 ? oracle::ReduceOp::kSum : op == 1 ? oracle::ReduceOp::kMax : oracle::ReduceOp::kMin;
    out = harness::RtlReduceAcross(rop, axis, values, {}, &ls);
    stats->vectors = ls.beats;
    stats->cycles = ls.cycles;
  } else {
    for (const auto& r : harness::RtlReduceTree(ListPatches(lists, op), stats)) out.push_back(r.fp16);
  }
  return out;
}

Evaluation EvaluatePlanar(const Operation& op, Engine engine) {
  const Tensor& x = op.inputs.at("x").tensor;
  const oracle::Tensor3 v = As3(x);
  const std::vector<int64_t>& shape = op.outputs.at("y").shape;
  Tensor want{DType::kFp16, shape, {}};
  if (engine != Engine::kRtl) {
    const oracle::Tensor3 r = op.op == "reduce" ? oracle::ReduceTensor(op.reduce, op.axis, v)
                                                : oracle::Pool(op.pool, op.window, v);
    want.bits.assign(r.codes.begin(), r.codes.end());
  }
  Evaluation e;
  if (engine == Engine::kOracle) {
    e.outputs.emplace("y", std::move(want));
    return e;
  }
  harness::RtlPlanarStats stats;
  std::vector<uint16_t> got;
  std::string stage;
  if (op.op == "reduce" && Across(op.axis)) {
    // Over columns or across channels: the line buffer in front of the tree (ane_pe_vreduce).
    harness::LineStats ls;
    got = harness::RtlReduceAcross(op.reduce, op.axis, v, {}, &ls);
    stats.vectors = ls.beats;
    stats.cycles = ls.cycles;
    stage = "line buffer and reduction tree (N-4.4)";
  } else if (op.op == "reduce") {
    // Over rows or planes: each list streams through the tree as patches of 64.
    for (const auto& r : harness::RtlReduceTree(ListPatches(ReduceLists(op.axis, v), int(op.reduce)), &stats)) {
      got.push_back(r.fp16);
    }
    stage = "planar reduction tree (N-4.4)";
  } else {
    // The pooling path: first filter, line buffer, second filter (ane_pe_pool).
    oracle::ConvGeometry g = op.window;
    g.channels = v.c;
    g.height = v.h;
    g.width = v.w;
    harness::PoolStats ps;
    got = harness::RtlPool(harness::ToPoolGeometry(op.pool, g), v.codes, {}, &ps);
    stats.vectors = ps.beats;
    stats.cycles = ps.cycles;
    stage = "pooling: first filter, line buffer, second filter (N-4.5)";
  }
  e.rtl = RtlRun{};
  e.rtl->planar = stats;
  Tensor y{DType::kFp16, shape, std::vector<uint32_t>(got.begin(), got.end())};
  if (engine == Engine::kBoth) {
    CompareWithOracle(&e, y, want, [&](size_t) -> decltype(EngineMismatch::stage) {
      return {stage, op.op == "pool" ? "the window's result differs" : "the output's tree result differs"};
    });
  }
  e.outputs.emplace("y", std::move(y));
  return e;
}

// Softmax (N-4.7) over each list of the axis, as the planar engine runs it: five passes.
//   1 max     reduction tree (max) of each list (behind the line buffer for columns, channels)
//   2 d       elementwise unit: x - max of its list
//   3 e       post-processor: the exp table (N-5) at d
//   4 s       reduction tree (sum) of each list of e (likewise)
//   5 y       exact reciprocal of s, then elementwise unit: e * recip(s)
Evaluation EvaluateSoftmax(const Operation& op, Engine engine) {
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
  Evaluation e;
  if (engine == Engine::kOracle) {
    e.outputs.emplace("y", std::move(want));
    return e;
  }
  harness::RtlPlanarStats total, stats;
  auto add = [&] {
    total.vectors += stats.vectors;
    total.cycles += stats.cycles;
  };
  std::vector<uint16_t> flat, maxes;  // the list elements in list order, each list's max per element
  maxes = RtlReduceLists(1, op.axis, v, lists, &stats);
  add();
  std::vector<uint16_t> mb;
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
  const std::vector<uint16_t> sums = RtlReduceLists(0, op.axis, et, elists, &stats);
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
  e.rtl = RtlRun{};
  e.rtl->planar = total;
  if (engine == Engine::kBoth) {
    CompareWithOracle(&e, got, want, [&](size_t i) -> decltype(EngineMismatch::stage) {
      return {"softmax passes (N-4.7)", fmt::format("input {}", ValueText(x.bits[i], DType::kFp16))};
    });
  }
  e.outputs.emplace("y", std::move(got));
  return e;
}

// conv2d's tensors for the oracle and the core: image n of x as [Cin][H][W] codes (int8 in bits
// [7:0]), and the kernels as [Cout][Cg KH KW] in the N-2 step order (c, ky, kx), which is w's
// own layout; int8 weights sign-extended to 16 bits (raw8 kernels).
oracle::Tensor3 ConvImage(const Operation& op, int64_t n) {
  const oracle::ConvLayer& l = op.conv;
  const Tensor& x = op.inputs.at("x").tensor;
  const size_t plane = size_t(l.Cin()) * size_t(l.geom.height) * size_t(l.geom.width);
  oracle::Tensor3 t{l.Cin(), l.geom.height, l.geom.width, {}};
  for (size_t i = 0; i < plane; ++i) t.codes.push_back(uint16_t(x.bits[size_t(n) * plane + i] & 0xFFFFu));
  return t;
}

std::vector<std::vector<uint16_t>> ConvKernels(const Operation& op) {
  const oracle::ConvLayer& l = op.conv;
  const Tensor& w = op.inputs.at("w").tensor;
  const size_t k = size_t(l.geom.Steps());
  std::vector<std::vector<uint16_t>> kernels(size_t(l.cout));
  for (size_t co = 0; co < kernels.size(); ++co) {
    for (size_t s = 0; s < k; ++s) {
      const uint32_t b = w.bits[co * k + s];
      kernels[co].push_back(w.dtype == DType::kInt8 ? uint16_t(int16_t(int8_t(uint8_t(b)))) : uint16_t(b));
    }
  }
  return kernels;
}

// One image's outputs as output bits (int8: the low byte of the sign-extended code).
void AppendConvOutputs(const oracle::Tensor3& y, DType dtype, std::vector<uint32_t>* out) {
  for (uint16_t c : y.codes) out->push_back(dtype == DType::kInt8 ? (c & 0xFFu) : c);
}

// conv2d: oracle::Conv2d per image of the batch (engine oracle), the 256-lane core (rtl), or
// both with the first differing output located in the core's tiling.
Evaluation EvaluateConv(const Operation& op, Engine engine, const harness::DataFault& fault) {
  const TensorType& type = op.outputs.at("y");
  const std::vector<std::vector<uint16_t>> w = ConvKernels(op);
  const int64_t images = std::max<int64_t>(op.batch, 1);
  Tensor want{type.dtype, type.shape, {}};
  Tensor got{type.dtype, type.shape, {}};
  Evaluation e;
  harness::RtlConvStats total;
  harness::CoreLayerPlan plan;
  for (int64_t n = 0; n < images; ++n) {
    const oracle::Tensor3 x = ConvImage(op, n);
    if (engine != Engine::kRtl) AppendConvOutputs(oracle::Conv2d(op.conv, x, w), type.dtype, &want.bits);
    if (engine == Engine::kOracle) continue;
    harness::RtlConvResult r;
    oracle::Tensor3 xr = x;
    const int64_t plane = int64_t(x.h) * x.w;
    if (fault.active() && fault.row < x.c && fault.k < plane) {  // ANE_FAULT=C,I: x[c] element I
      xr.codes[size_t(fault.row * plane + fault.k)] ^= 1;
    }
    try {
      r = harness::RtlConv2d(op.conv, xr, w, op.conv_rtl);
    } catch (const std::invalid_argument& err) {
      throw CliError(fmt::format("{}: the 256-lane core cannot run this layer: {}", op.file, err.what()));
    }
    AppendConvOutputs(r.y, type.dtype, &got.bits);
    plan = r.plan;
    harness::RtlConvStats& s = r.stats;
    if (n == 0) {
      total = s;
    } else {
      total.cycles += s.cycles;
      total.macs += s.macs;
      total.seconds += s.seconds;
      total.counters.cycles += s.counters.cycles;
      total.counters.mac += s.counters.mac;
      total.counters.stall_res += s.counters.stall_res;
      total.counters.wait_slot += s.counters.wait_slot;
      total.counters.wait_load += s.counters.wait_load;
      total.counters.wait_kern += s.counters.wait_kern;
    }
  }
  if (engine == Engine::kOracle) {
    e.outputs.emplace("y", std::move(want));
    return e;
  }
  total.utilization = total.cycles ? double(total.macs) / (256.0 * double(total.cycles)) : 0.0;
  e.rtl = RtlRun{};
  e.rtl->conv = total;
  if (engine == Engine::kBoth) {
    const int oh = op.conv.geom.OutHeight(), ow = op.conv.geom.OutWidth();
    const int64_t per_image = int64_t(op.conv.cout) * oh * ow;
    CompareWithOracle(&e, got, want, [&](size_t i) -> decltype(EngineMismatch::stage) {
      const int64_t j = int64_t(i) % per_image;
      const int co = int(j / (oh * ow)), oy = int(j % (oh * ow) / ow), ox = int(j % ow);
      return {"neural-engine core: MAC reduction (N-2) or post-processor (N-3)",
              fmt::format("output channel {}, position ({}, {}){}: {}", co, oy, ox,
                          op.batch ? fmt::format(" of image {}", int64_t(i) / per_image) : "",
                          harness::ConvOutputPlace(plan, co, oy, ox))};
    });
  }
  e.outputs.emplace("y", std::move(got));
  return e;
}

}  // namespace

Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault& fault) {
  if (op.op == "activation") return EvaluateActivation(op, engine);
  if (op.op == "elementwise") return EvaluateElementwise(op, engine);
  if (op.op == "reduce" || op.op == "pool") return EvaluatePlanar(op, engine);
  if (op.op == "softmax") return EvaluateSoftmax(op, engine);
  if (op.op == "conv2d") return EvaluateConv(op, engine, fault);
  const oracle::Matrix a = ToOracle(op.inputs.at("a").tensor, false);
  const oracle::Matrix b = ToOracle(op.inputs.at("b").tensor, true);
  Evaluation e;
  std::optional<oracle::MatmulResult> want;
  if (engine != Engine::kRtl) want = oracle::Matmul(a, b, op.generation);
  if (engine == Engine::kOracle) {
    e.saturated = want->saturated_count;
    const Tensor y = OutputTensor(op, *want);
    e.outputs.emplace("y", op.post ? PostOracle(op, y) : y);
    return e;
  }
  harness::RtlMatmulOptions options;
  options.fault = fault;
  const harness::RtlMatmulResult got = harness::RtlMatmul(a, b, op.generation, options);
  e.saturated = got.y.saturated_count;
  e.rtl = RtlRun{got.stats, std::nullopt, std::nullopt, std::nullopt};
  Tensor y = OutputTensor(op, got.y);
  if (want) {
    const Tensor ref = OutputTensor(op, *want);
    for (size_t i = 0; i < y.bits.size(); ++i) {
      if (y.bits[i] == ref.bits[i]) continue;
      if (!e.mismatch) {
        EngineMismatch m;
        m.element = ElementName("y", int64_t(i), y);
        m.rtl = ValueText(y.bits[i], y.dtype);
        m.oracle = ValueText(ref.bits[i], ref.dtype);
        m.total = int64_t(y.bits.size());
        m.stage = harness::LocateMismatch(a, b, op.generation, int64_t(i) / b.cols,
                                          int64_t(i) % b.cols, fault);
        e.mismatch = m;
      }
      ++e.mismatch->count;
    }
    if (!e.mismatch && got.y.saturated_count != want->saturated_count) {
      e.mismatch = EngineMismatch{"y (saturation count)", std::to_string(got.y.saturated_count),
                                  std::to_string(want->saturated_count), 1, 1,
                                  {"accumulate (N-2.8)", "the int32 saturation flags differ"}};
    }
  }
  if (op.post) {
    harness::RtlPostStats post_stats;
    Tensor post_y = PostRtl(op, y, &post_stats);
    e.rtl->post = post_stats;
    if (want && !e.mismatch) {
      const Tensor ref = PostOracle(op, OutputTensor(op, *want));
      for (size_t i = 0; i < post_y.bits.size(); ++i) {
        if (post_y.bits[i] == ref.bits[i]) continue;
        if (!e.mismatch) {
          e.mismatch = EngineMismatch{ElementName("y", int64_t(i), post_y),
                                      ValueText(post_y.bits[i], post_y.dtype),
                                      ValueText(ref.bits[i], ref.dtype),
                                      0,
                                      int64_t(post_y.bits.size()),
                                      {"post-processor (N-3)",
                                       fmt::format("the matmul outputs agree; the post-processed "
                                                   "value of {} differs",
                                                   ValueText(y.bits[i], y.dtype))}};
        }
        ++e.mismatch->count;
      }
    }
    y = std::move(post_y);
  }
  e.outputs.emplace("y", std::move(y));
  return e;
}

namespace {

// The fp64 post-processing of one reduction `sum` (N-3 in exact arithmetic, one rounding): int8
// store: round(sum / 2^shift) clamped to int8, then ReLU; otherwise sum x scale + bias (the
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

// conv2d in fp64: each output the sum over (c, ky, kx) in order of x * w (x zero outside the
// input, the N-1 input boundary applied), then PostReference per output channel.
Tensor ConvReference(const Operation& op) {
  const oracle::ConvLayer& l = op.conv;
  const oracle::ConvGeometry& g = l.geom;
  const DType in = op.inputs.at("x").tensor.dtype;
  const std::vector<std::vector<uint16_t>> w = ConvKernels(op);
  Tensor y{op.outputs.at("y").dtype, op.outputs.at("y").shape, {}};
  const int per = l.cout / l.groups;
  for (int64_t n = 0; n < std::max<int64_t>(op.batch, 1); ++n) {
    const oracle::Tensor3 x = ConvImage(op, n);
    for (int co = 0; co < l.cout; ++co) {
      for (int oy = 0; oy < g.OutHeight(); ++oy) {
        for (int ox = 0; ox < g.OutWidth(); ++ox) {
          double sum = 0;
          for (int s = 0; s < g.Steps(); ++s) {
            const oracle::ConvStep st = oracle::StepAt(g, s);
            const int yy = oy * g.stride_y - g.pad_top + st.ky * g.dilation_y;
            const int xx = ox * g.stride_x - g.pad_left + st.kx * g.dilation_x;
            if (yy < 0 || yy >= g.height || xx < 0 || xx >= g.width) continue;
            const double a = ReferenceValue(x.at((co / per) * g.channels + st.c, yy, xx), in);
            const double b = ReferenceValue(w[size_t(co)][size_t(s)], in);
            const double prod = (a == 0 || b == 0) ? 0.0 : a * b;
            sum = (std::isinf(sum) && std::isinf(prod) && sum != prod) ? 0.0 : sum + prod;
          }
          y.bits.push_back(PostReference(l.post, l.channel[size_t(co)], sum));
        }
      }
    }
  }
  return y;
}

}  // namespace

TensorMap Reference(const Operation& op) {
  if (op.op == "conv2d") return {{"y", ConvReference(op)}};
  if (op.op == "softmax") {
    // fp64: NaN enters as +inf (N-1); m = max; e_i = exp(x_i - m) with inf - inf = 0;
    // y_i = e_i / sum(e), rounded once to fp16.
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
    return {{"y", y}};
  }
  if (op.op == "reduce" || op.op == "pool") {
    // fp64: the sum of the reduced values in order (exact for these sizes), or the exact
    // max / min, or the sum divided by the number of real elements; rounded once to fp16.
    const oracle::Tensor3 v = As3(op.inputs.at("x").tensor);
    std::vector<std::vector<uint16_t>> lists;
    std::vector<int> counts;
    int which = 0;  // 0 sum, 1 max, 2 min
    if (op.op == "reduce") {
      lists = ReduceLists(op.axis, v);
      which = int(op.reduce);
    } else {
      for (const harness::TreePatch& p : PoolPatches(op, v, &counts)) {
        lists.emplace_back();
        for (int i = 0; i < 64; ++i) {
          if ((p.mask >> i) & 1) lists.back().push_back(p.v[size_t(i)]);
        }
      }
      which = op.pool == oracle::PoolOp::kMax ? 1 : op.pool == oracle::PoolOp::kMin ? 2 : 0;
    }
    Tensor y{DType::kFp16, op.outputs.at("y").shape, {}};
    for (size_t k = 0; k < lists.size(); ++k) {
      double acc = which == 0 ? 0.0 : which == 1 ? -INFINITY : INFINITY;
      for (uint16_t c : lists[k]) {
        const double x = ReferenceValue(c, DType::kFp16);
        if (which == 0) {
          acc = (std::isinf(acc) && std::isinf(x) && acc != x) ? 0.0 : acc + x;
        } else {
          acc = which == 1 ? std::max(acc, x) : std::min(acc, x);
        }
      }
      if (op.op == "pool" && op.pool == oracle::PoolOp::kMean) acc /= counts[k];
      y.bits.push_back(ReferenceFp16(acc));
    }
    return {{"y", y}};
  }
  if (op.op == "elementwise") {
    // fp64: every function in one step, rounded once to fp16 (the ternaries therefore round
    // once where the engine rounds twice); indeterminate forms give +0 (N-4.2).
    using harness::PeEwOp;
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
      }
      y.bits.push_back(ReferenceFp16(v));
    }
    return {{"y", y}};
  }
  if (op.op == "activation") {
    const Tensor& x = op.inputs.at("x").tensor;
    Tensor y{DType::kFp16, x.shape, {}};
    for (uint32_t c : x.bits) {
      const double v = oracle::ActReference(op.function, ReferenceValue(c, DType::kFp16));
      y.bits.push_back(ReferenceFp16(v));
    }
    return {{"y", y}};
  }
  const Tensor& a = op.inputs.at("a").tensor;
  const Tensor& b = op.inputs.at("b").tensor;
  const MatrixShape ma = AsMatrix(a, false);
  const MatrixShape mb = AsMatrix(b, true);
  Tensor y;
  y.dtype = op.outputs.at("y").dtype;
  y.shape = op.outputs.at("y").shape;
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
        continue;
      }
      if (y.dtype == DType::kInt32) {
        y.bits.push_back(uint32_t(int32_t(std::clamp(sum, double(INT32_MIN), double(INT32_MAX)))));
      } else {
        y.bits.push_back(ReferenceFp16(sum));
      }
    }
  }
  return {{"y", y}};
}

Difference Compare(const Tensor& got, const Tensor& want) {
  Difference d;
  for (size_t i = 0; i < got.bits.size(); ++i) {
    const int64_t diff =
        std::llabs(OrderedValue(got.bits[i], got.dtype) - OrderedValue(want.bits[i], want.dtype));
    if (diff == 0) continue;
    ++d.count;
    if (diff > d.max) {
      d.max = diff;
      d.worst = int64_t(i);
    }
  }
  return d;
}

}  // namespace ane::cli
