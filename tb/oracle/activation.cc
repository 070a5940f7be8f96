// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/activation.h"

#include <cmath>

#include "tb/oracle/elementwise.h"
#include "tb/oracle/exact.h"
#include "tb/oracle/formats.h"

namespace ane::oracle {

namespace {

constexpr uint16_t kOne = 0x3C00;

bool Neg(uint16_t h) { return h & 0x8000; }

// floor of a finite fp16 value, as an integer (|v| <= 65504).
int64_t FloorFp16(uint16_t v) {
  const int e = (v >> 10) & 0x1F;
  const int64_t sig = (v & 0x3FF) | (e ? 0x400 : 0);
  const int exp = (e ? e : 1) - 25;  // value = sig * 2^exp
  if (exp >= 0) {
    const int64_t mag = sig << exp;
    return Neg(v) ? -mag : mag;
  }
  const int64_t mag = sig >> -exp;
  const bool frac = (sig & ((int64_t(1) << -exp) - 1)) != 0;
  if (!Neg(v)) return mag;
  return frac ? -(mag + 1) : -mag;
}

// An integer of magnitude at most 65504 as its (exact) fp16 code.
uint16_t IntToFp16(int64_t n) { return RoundToFp16(Exact::FromSigned(n)); }

// x = 2^e * m with m in [1, 2): a finite nonzero fp16 magnitude split exactly.
struct Normalized {
  uint16_t m;  // fp16 code of m
  int e;
};
Normalized Normalize(uint16_t x) {
  x &= 0x7FFF;
  int biased = (x >> 10) & 0x1F;
  int sig = x & 0x3FF;
  int e;
  if (biased == 0) {  // denormal: sig * 2^-24
    int top = 9;
    while (!((sig >> top) & 1)) --top;
    e = top - 24;
    sig = (sig << (10 - top)) & 0x3FF;
  } else {
    e = biased - 15;
  }
  return {uint16_t(0x3C00 | sig), e};
}

uint16_t NegateNonzero(uint16_t y) { return (y & 0x7FFF) ? uint16_t(y ^ 0x8000) : y; }

}  // namespace

const char* ActFnName(ActFn fn) {
  switch (fn) {
    case ActFn::kSigmoid: return "sigmoid";
    case ActFn::kTanh: return "tanh";
    case ActFn::kGelu: return "gelu";
    case ActFn::kSilu: return "silu";
    case ActFn::kErf: return "erf";
    case ActFn::kExp: return "exp";
    case ActFn::kSoftplus: return "softplus";
    case ActFn::kSoftsign: return "softsign";
    case ActFn::kSin: return "sin";
    case ActFn::kCos: return "cos";
    case ActFn::kLog: return "log";
    case ActFn::kRecip: return "recip";
    case ActFn::kRsqrt: return "rsqrt";
    case ActFn::kSqrt: return "sqrt";
  }
  return "?";
}

ActBound StatedActBound(ActFn fn) {
  constexpr double kAll = 1e9;
  switch (fn) {
    case ActFn::kSigmoid: return {false, 0.0034, kAll};  // the chapter's figures (N-5.3)
    case ActFn::kTanh: return {false, 0.0017, kAll};
    case ActFn::kGelu: return {false, 0.0059, kAll};
    case ActFn::kSilu: return {false, 0.0106, kAll};  // the project's own (docs/postproc.md)
    case ActFn::kErf: return {false, 0.0047, kAll};
    case ActFn::kSoftplus: return {false, 0.0048, kAll};
    case ActFn::kSoftsign: return {false, 0.059, kAll};
    case ActFn::kSin: return {false, 0.0045, 8};
    case ActFn::kCos: return {false, 0.0045, 8};
    case ActFn::kExp: return {true, 10.5, kAll};
    case ActFn::kLog: return {false, 0.013, kAll};
    case ActFn::kRecip: return {true, 2, kAll};
    case ActFn::kRsqrt: return {true, 2.5, kAll};
    case ActFn::kSqrt: return {true, 2, kAll};
  }
  return {};
}

bool ParseActFn(const std::string& name, ActFn* out) {
  if (name == "swish") {
    *out = ActFn::kSilu;
    return true;
  }
  for (ActFn fn : kAllActFns) {
    if (name == ActFnName(fn)) {
      *out = fn;
      return true;
    }
  }
  return false;
}

double ActReference(ActFn fn, double x) {
  switch (fn) {
    case ActFn::kSigmoid: return 1.0 / (1.0 + std::exp(-x));
    case ActFn::kTanh: return std::tanh(x);
    case ActFn::kGelu: return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    case ActFn::kSilu: return x / (1.0 + std::exp(-x));
    case ActFn::kErf: return std::erf(x);
    case ActFn::kExp: return std::exp(x);
    case ActFn::kSoftplus: return x > 30 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    case ActFn::kSoftsign: return x / (1.0 + std::fabs(x));
    case ActFn::kSin: return std::sin(x);
    case ActFn::kCos: return std::cos(x);
    case ActFn::kLog: return std::log(x);
    case ActFn::kRecip: return 1.0 / x;
    case ActFn::kRsqrt: return 1.0 / std::sqrt(x);
    case ActFn::kSqrt: return std::sqrt(x);
  }
  return 0;
}

uint16_t Fp16Ldexp(uint16_t h, int n) {
  h = InputBoundary(h);
  if (Fp16IsInf(h) || Fp16IsZero(h)) return h;
  // |h| is in [2^-24, 2^16): beyond these bounds the result is 0 or inf either way.
  if (n > 48) n = 48;
  if (n < -48) n = -48;
  return RoundToFp16(DecodeFp16(h) * Exact::FromInt(false, 1, n));
}

uint16_t EvalActSegments(const ActTable& table, uint16_t t) {
  t = InputBoundary(t);
  const Exact tv = DecodeFp16(t);
  const Exact lo = DecodeFp16(table.lo);
  const Exact hi = lo + Exact::FromInt(false, kActSegments, table.step_log2);
  if (tv < lo) return table.left;
  if (!(tv < hi)) return table.right_identity ? t : table.right;
  int i = kActSegments - 1;
  while (i > 0 && tv < lo + Exact::FromInt(false, uint64_t(i), table.step_log2)) --i;
  return Fp16Add(Fp16Mul(table.m[size_t(i)], t), table.c[size_t(i)]);
}

void ActSegmentsFromKnots(ActTable* t, const double* y) {
  const double lo = Fp16ToDouble(t->lo), h = std::ldexp(1.0, t->step_log2);
  for (int s = 0; s < kActSegments; ++s) {
    const uint16_t m = DoubleToFp16((y[s + 1] - y[s]) / h);
    const double xbar = lo + (s + 0.5) * h, ybar = (y[s] + y[s + 1]) / 2;
    t->m[size_t(s)] = m;
    t->c[size_t(s)] = DoubleToFp16(ybar - Fp16ToDouble(m) * xbar);
  }
}

uint16_t EvalActTable(const ActTable& table, uint16_t x) {
  x = InputBoundary(x);
  if (x == kFp16PosInf) return table.at_pinf;
  if (x == kFp16NegInf) return table.at_ninf;
  const bool range_modes = table.mode == ActMode::kLog || table.mode == ActMode::kPow;
  if (Fp16IsZero(x) && (table.zero_en || range_modes)) return table.at_zero;
  if (Neg(x) && table.neg_en) return table.at_neg;
  bool flip = false;
  if (table.sym != ActSym::kNone) {
    flip = table.sym == ActSym::kOdd && Neg(x);
    x &= 0x7FFF;
  }
  uint16_t y = 0;
  switch (table.mode) {
    case ActMode::kDirect: y = EvalActSegments(table, x); break;
    case ActMode::kExp2: {
      const uint16_t v = Fp16Mul(x, table.k);
      if (v == kFp16PosInf) {
        y = kFp16PosInf;
      } else if (v == kFp16NegInf) {
        y = 0;
      } else {
        const int64_t n = FloorFp16(v);
        const uint16_t f = Fp16Sub(v, IntToFp16(n));
        const int64_t clamped = n > 64 ? 64 : (n < -64 ? -64 : n);
        y = Fp16Ldexp(EvalActSegments(table, f), int(clamped));
      }
      break;
    }
    case ActMode::kTrig: {
      const uint16_t u = Fp16Mul(x & 0x7FFF, table.k);
      const int64_t q0 = FloorFp16(u);
      const uint16_t f = Fp16Sub(u, IntToFp16(q0));
      const int64_t q = q0 + (table.cos_phase ? 1 : 0);
      const uint16_t t = (q & 1) ? Fp16Sub(kOne, f) : f;
      y = EvalActSegments(table, t);
      if (q & 2) y = NegateNonzero(y);
      break;
    }
    case ActMode::kLog: {
      const Normalized nx = Normalize(x);
      const uint16_t w = Fp16Add(IntToFp16(nx.e), EvalActSegments(table, nx.m));
      y = Fp16Mul(w, table.k);
      break;
    }
    case ActMode::kPow: {
      Normalized nx = Normalize(x);
      if (table.pow_split && (nx.e & 1)) {
        nx.m = uint16_t(nx.m + 0x0400);  // m * 2, still a normal fp16 in [2, 4)
        nx.e -= 1;
      }
      int g = table.pow_split ? nx.e / 2 : nx.e;
      if (table.pow_negate) g = -g;
      y = Fp16Ldexp(EvalActSegments(table, nx.m), g);
      break;
    }
  }
  if (flip) y = NegateNonzero(y);
  if (y == 0x8000) y = 0;  // a table result is never -0
  return y;
}

namespace {
#include "tb/oracle/act_tables.inc"

const ActTable* Tables() {
  static const ActTable* tables = [] {
    static ActTable t[kNumActFns];
    FillDefaultActTables(t);
    return t;
  }();
  return tables;
}
}  // namespace

const ActTable& DefaultActTable(ActFn fn) { return Tables()[int(fn)]; }

}  // namespace ane::oracle
