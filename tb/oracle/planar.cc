// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/planar.h"

#include <algorithm>
#include <stdexcept>

#include "tb/oracle/activation.h"
#include "tb/oracle/elementwise.h"
#include "tb/oracle/exact.h"

namespace ane::oracle {

namespace {

constexpr uint32_t kFp32PosInf = 0x7F800000u;
constexpr uint32_t kFp32NegInf = 0xFF800000u;

std::string S(int v) { return std::to_string(v); }

}  // namespace

const char* ReduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return "sum";
    case ReduceOp::kMax: return "max";
    case ReduceOp::kMin: return "min";
  }
  return "?";
}

bool ParseReduceOp(const std::string& name, ReduceOp* out) {
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin}) {
    if (name == ReduceOpName(op)) {
      *out = op;
      return true;
    }
  }
  return false;
}

uint32_t ReduceIdentity(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return 0;
    case ReduceOp::kMax: return kFp32NegInf;
    case ReduceOp::kMin: return kFp32PosInf;
  }
  return 0;
}

uint32_t ReduceNode(ReduceOp op, uint32_t a, uint32_t b) {
  const Exact x = DecodeFp32(a), y = DecodeFp32(b);
  switch (op) {
    case ReduceOp::kSum: return RoundToFp32(x + y);  // inf + (-inf) = +0 (Exact, N-4.2)
    case ReduceOp::kMax: return Exact::Compare(x, y) >= 0 ? (x.is_zero() ? 0 : a) : b;
    case ReduceOp::kMin: return Exact::Compare(x, y) <= 0 ? (x.is_zero() ? 0 : a) : b;
  }
  return 0;
}

uint32_t ReduceTree(ReduceOp op, const std::array<uint16_t, kPatch>& values, uint64_t valid) {
  std::array<uint32_t, kPatch> level{};
  for (int i = 0; i < kPatch; ++i) {
    level[size_t(i)] = ((valid >> i) & 1) ? Fp16ToFp32(InputBoundary(values[size_t(i)])) : ReduceIdentity(op);
  }
  for (int n = kPatch / 2; n >= 1; n /= 2) {
    for (int i = 0; i < n; ++i) level[size_t(i)] = ReduceNode(op, level[size_t(2 * i)], level[size_t(2 * i + 1)]);
  }
  return level[0];
}

uint16_t ReduceFinish(uint32_t acc) { return Fp32ToFp16(acc); }

uint16_t ReduceList(ReduceOp op, const std::vector<uint16_t>& values) {
  uint32_t acc = ReduceIdentity(op);
  for (size_t p = 0; p < values.size(); p += kPatch) {
    std::array<uint16_t, kPatch> patch{};
    uint64_t valid = 0;
    for (size_t i = 0; i < size_t(kPatch) && p + i < values.size(); ++i) {
      patch[i] = values[p + i];
      valid |= uint64_t(1) << i;
    }
    acc = ReduceAccumulate(op, acc, ReduceTree(op, patch, valid));
  }
  return ReduceFinish(acc);
}

const char* ReduceAxisName(ReduceAxis a) {
  switch (a) {
    case ReduceAxis::kRows: return "rows";
    case ReduceAxis::kColumns: return "columns";
    case ReduceAxis::kPlanes: return "planes";
    case ReduceAxis::kChannels: return "channels";
  }
  return "?";
}

bool ParseReduceAxis(const std::string& name, ReduceAxis* out) {
  for (ReduceAxis a : {ReduceAxis::kRows, ReduceAxis::kColumns, ReduceAxis::kPlanes, ReduceAxis::kChannels}) {
    if (name == ReduceAxisName(a)) {
      *out = a;
      return true;
    }
  }
  return false;
}

Tensor3 ReduceTensor(ReduceOp op, ReduceAxis axis, const Tensor3& x) {
  Tensor3 y;
  std::vector<uint16_t> list;
  switch (axis) {
    case ReduceAxis::kRows:
      y = Tensor3{x.c, x.h, 1, {}};
      for (int c = 0; c < x.c; ++c) {
        for (int r = 0; r < x.h; ++r) {
          list.clear();
          for (int q = 0; q < x.w; ++q) list.push_back(x.at(c, r, q));
          y.codes.push_back(ReduceList(op, list));
        }
      }
      break;
    case ReduceAxis::kColumns:
      y = Tensor3{x.c, 1, x.w, {}};
      for (int c = 0; c < x.c; ++c) {
        for (int q = 0; q < x.w; ++q) {
          list.clear();
          for (int r = 0; r < x.h; ++r) list.push_back(x.at(c, r, q));
          y.codes.push_back(ReduceList(op, list));
        }
      }
      break;
    case ReduceAxis::kPlanes:
      y = Tensor3{x.c, 1, 1, {}};
      for (int c = 0; c < x.c; ++c) {
        list.assign(x.codes.begin() + long(c) * x.h * x.w, x.codes.begin() + long(c + 1) * x.h * x.w);
        y.codes.push_back(ReduceList(op, list));
      }
      break;
    case ReduceAxis::kChannels:
      y = Tensor3{1, x.h, x.w, {}};
      for (int r = 0; r < x.h; ++r) {
        for (int q = 0; q < x.w; ++q) {
          list.clear();
          for (int c = 0; c < x.c; ++c) list.push_back(x.at(c, r, q));
          y.codes.push_back(ReduceList(op, list));
        }
      }
      break;
  }
  return y;
}

const char* PoolOpName(PoolOp op) {
  switch (op) {
    case PoolOp::kMax: return "max";
    case PoolOp::kMin: return "min";
    case PoolOp::kMean: return "mean";
  }
  return "?";
}

bool ParsePoolOp(const std::string& name, PoolOp* out) {
  for (PoolOp op : {PoolOp::kMax, PoolOp::kMin, PoolOp::kMean}) {
    if (name == PoolOpName(op)) {
      *out = op;
      return true;
    }
  }
  return false;
}

std::string CheckPoolGeometry(const ConvGeometry& g) {
  if (g.kernel_h < 1 || g.kernel_h > 8 || g.kernel_w < 1 || g.kernel_w > 8) {
    return "pooling window " + S(g.kernel_h) + "x" + S(g.kernel_w) + " is outside 1x1 .. 8x8";
  }
  if (g.dilation_y != 1 || g.dilation_x != 1) return "pooling has no dilation";
  if (g.stride_y < 1 || g.stride_y > 8 || g.stride_x < 1 || g.stride_x > 8) {
    return "pooling stride [" + S(g.stride_y) + ", " + S(g.stride_x) + "] is outside 1 .. 8";
  }
  if (g.pad_top < 0 || g.pad_bottom < 0 || g.pad_left < 0 || g.pad_right < 0 || g.pad_top >= g.kernel_h ||
      g.pad_bottom >= g.kernel_h || g.pad_left >= g.kernel_w || g.pad_right >= g.kernel_w) {
    return "pooling padding must be smaller than the window (every window holds a real element)";
  }
  if (g.channels < 1 || g.height < 1 || g.width < 1) return "pooling input shape must be positive";
  if (g.OutHeight() < 1 || g.OutWidth() < 1) return "the pooling window is larger than the padded input";
  return "";
}

uint16_t MeanFinish(uint32_t sum, int n) {
  if (n < 1 || n > kPatch) throw std::invalid_argument("MeanFinish: count " + S(n));
  const Exact s = DecodeFp32(sum);
  if (s.is_inf()) return s.negative() ? kFp16NegInf : kFp16PosInf;
  if (s.is_zero()) return 0;
  // |sum / n| < 2^-40 is far below half the smallest fp16 denormal (2^-25): RNE16 gives +0.
  // (It also keeps the quotient's exponent inside Exact's range for fp32 denormal sums.)
  if (s.Exponent() < -40) return 0;
  // sum = (-1)^neg * m * 2^e with an integer m < 2^24.
  const int be = int((sum >> 23) & 0xFF);
  const uint64_t m = be ? ((sum & 0x7FFFFF) | 0x800000u) : (sum & 0x7FFFFF);
  const int e = (be ? be : 1) - 150;
  const uint64_t num = m << 39;  // < 2^63
  const uint64_t q = num / uint64_t(n);
  const bool inexact = num % uint64_t(n) != 0;
  // q * 2^(e - 39) plus a sticky half-ulp far below fp16 precision when inexact.
  const bool neg = (sum >> 31) != 0;
  return RoundToFp16(Exact::FromInt(neg, 2 * q + (inexact ? 1 : 0), e - 40));
}

Tensor3 Pool(PoolOp op, const ConvGeometry& g, const Tensor3& x) {
  const std::string bad = CheckPoolGeometry(g);
  if (!bad.empty()) throw std::invalid_argument(bad);
  const ReduceOp rop = PoolReduceOp(op);
  Tensor3 y{x.c, g.OutHeight(), g.OutWidth(), {}};
  for (int c = 0; c < x.c; ++c) {
    for (int oy = 0; oy < y.h; ++oy) {
      for (int ox = 0; ox < y.w; ++ox) {
        std::array<uint16_t, kPatch> patch{};
        uint64_t valid = 0;
        int n = 0;
        for (int ky = 0; ky < g.kernel_h; ++ky) {
          for (int kx = 0; kx < g.kernel_w; ++kx) {
            const int iy = oy * g.stride_y - g.pad_top + ky, ix = ox * g.stride_x - g.pad_left + kx;
            if (iy < 0 || iy >= x.h || ix < 0 || ix >= x.w) continue;  // padding takes no part
            patch[size_t(8 * ky + kx)] = x.at(c, iy, ix);
            valid |= uint64_t(1) << (8 * ky + kx);
            ++n;
          }
        }
        const uint32_t t = ReduceTree(rop, patch, valid);
        y.codes.push_back(op == PoolOp::kMean ? MeanFinish(t, n) : ReduceFinish(t));
      }
    }
  }
  return y;
}

uint16_t Compare(uint16_t a, uint16_t b) {
  const int c = Exact::Compare(DecodeFp16(InputBoundary(a)), DecodeFp16(InputBoundary(b)));
  return c > 0 ? uint16_t(0x3C00) : c < 0 ? uint16_t(0xBC00) : uint16_t(0);
}

uint16_t Ternary(TernaryOp op, uint16_t a, uint16_t b, uint16_t c) {
  return op == TernaryOp::kAddMul ? Fp16Add(a, Fp16Mul(b, c)) : Fp16Mul(Fp16Add(a, b), c);
}

uint16_t Int8ToFp16(int8_t q) { return RoundToFp16(Exact::FromSigned(q)); }

int8_t Fp16ToInt8(uint16_t h) {
  h = InputBoundary(h);
  if (Fp16IsInf(h)) return (h & 0x8000) ? int8_t(-128) : int8_t(127);
  // |h| = m * 2^e; RNE to an integer, exactly.
  const int be = (h >> 10) & 0x1F;
  const int64_t m = be ? ((h & 0x3FF) | 0x400) : (h & 0x3FF);
  const int e = (be ? be : 1) - 25;
  int64_t q;
  if (e >= 0) {
    q = m << e;
  } else if (e < -12) {
    q = 0;  // below 0.5
  } else {
    q = m >> (-e);
    const int64_t rem = m - (q << (-e)), half = int64_t(1) << (-e - 1);
    if (rem > half || (rem == half && (q & 1))) ++q;
  }
  if (h & 0x8000) q = -q;
  return int8_t(std::clamp<int64_t>(q, -128, 127));
}

uint16_t WidthSliceStore(uint16_t x, bool width_axis, int begin, Generation gen) {
  if (gen == Generation::kM1 && width_axis && begin != 0) return Fp16Mul(x, 0x4C00);  // x 16
  return x;
}

const char* FcUnaryName(FcUnary u) {
  switch (u) {
    case FcUnary::kNone: return "none";
    case FcUnary::kAbs: return "abs";
    case FcUnary::kNeg: return "neg";
    case FcUnary::kRelu: return "relu";
  }
  return "?";
}

bool ParseFcUnary(const std::string& name, FcUnary* out) {
  for (FcUnary u : {FcUnary::kNone, FcUnary::kAbs, FcUnary::kNeg, FcUnary::kRelu}) {
    if (name == FcUnaryName(u)) {
      *out = u;
      return true;
    }
  }
  return false;
}

uint16_t FormatConvert(const FcConfig& c, uint16_t lane) {
  const uint16_t x = c.in_int8 ? Int8ToFp16(int8_t(lane & 0xFF)) : lane;
  const uint16_t s = Fp16Add(Fp16Mul(x, c.scale), c.bias);
  uint16_t u = s;
  switch (c.unary) {
    case FcUnary::kNone: break;
    case FcUnary::kAbs: u = Fp16Abs(s); break;
    case FcUnary::kNeg: u = Fp16Neg(s); break;
    case FcUnary::kRelu: u = Fp16Max(s, 0x0000); break;
  }
  const uint16_t g = c.gain ? WidthSliceStore(u, true, 1, Generation::kM1) : u;
  return c.out_int8 ? uint16_t(int16_t(Fp16ToInt8(g))) : g;
}

std::vector<uint16_t> TransposePatch(const std::vector<uint16_t>& patch, int n) {
  std::vector<uint16_t> t(patch.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) t[size_t(j) * n + i] = patch[size_t(i) * n + j];
  return t;
}

std::vector<uint16_t> Softmax(const std::vector<uint16_t>& x) {
  const uint16_t m = ReduceList(ReduceOp::kMax, x);
  const ActTable& exp_table = DefaultActTable(ActFn::kExp);
  std::vector<uint16_t> e;
  for (uint16_t v : x) e.push_back(EvalActTable(exp_table, Fp16Sub(v, m)));
  const uint16_t r = Fp16Recip(ReduceList(ReduceOp::kSum, e));
  std::vector<uint16_t> y;
  for (uint16_t v : e) y.push_back(Fp16Mul(v, r));
  return y;
}

}  // namespace ane::oracle
