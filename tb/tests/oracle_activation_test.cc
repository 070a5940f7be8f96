// SPDX-License-Identifier: Apache-2.0
// The activation tables of the oracle (NUMERICS N-5) checked on their own, before they judge any
// RTL:
//   - accuracy over every finite fp16 input against the exact function in fp64 (N-5.3): the
//     chapter's measured figures for sigmoid, tanh and gelu, the figures docs/postproc.md
//     states for the others;
//   - the evaluation itself (segments, clamps, symmetry, range reduction, specials) against a
//     second, independent implementation written with host _Float16 / double arithmetic;
//   - the chapter's facts: exp first returns inf at 11.09375, the N-5.4 special inputs, the
//     origin bias of gelu and silu;
//   - the checked-in tables are what the generator writes (N-5.1: one source of truth).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tb/oracle/activation.h"
#include "tb/oracle/formats.h"
#include "tb/tests/fp16_values.h"

namespace ane {
namespace {

using oracle::ActFn;
using oracle::ActMode;
using oracle::ActSym;
using oracle::ActTable;
using test::H;
using test::HostBits;
using test::HostHalf;

bool IsFinite(uint16_t h) { return ((h >> 10) & 0x1F) != 0x1F; }
double D(uint16_t h) { return static_cast<double>(HostHalf(h)); }

// ---- the independent reference: host arithmetic, written from docs/postproc.md ----

uint16_t Boundary(uint16_t h) {
  if (((h >> 10) & 0x1F) == 0x1F && (h & 0x3FF)) return 0x7C00;
  return h == 0x8000 ? 0 : h;
}
// fp16 operations of N-4.1 on the host: the exact result in double (products of two fp16
// values and sums of two are exact in double), then one conversion to _Float16 (RNE).
uint16_t HMul(uint16_t a, uint16_t b) {
  a = Boundary(a), b = Boundary(b);
  const double x = D(a), y = D(b);
  if ((std::isinf(x) && y == 0) || (x == 0 && std::isinf(y))) return 0;
  return HostBits(static_cast<_Float16>(x * y));
}
uint16_t HAdd(uint16_t a, uint16_t b) {
  a = Boundary(a), b = Boundary(b);
  const double s = D(a) + D(b);
  if (std::isnan(s)) return 0;
  return HostBits(static_cast<_Float16>(s));
}
uint16_t HLdexp(uint16_t h, long n) {
  if (n > 60) n = 60;
  if (n < -60) n = -60;
  const uint16_t r = HostBits(static_cast<_Float16>(std::ldexp(D(h), int(n))));
  return r == 0x8000 ? 0 : r;
}
uint16_t HSegments(const ActTable& t, uint16_t x) {
  const double v = D(x), lo = D(t.lo), h = std::ldexp(1.0, t.step_log2);
  if (v < lo) return t.left;
  if (v >= lo + 32 * h) return t.right_identity ? x : t.right;
  const int i = int(std::floor((v - lo) / h));
  return HAdd(HMul(t.m[size_t(i)], x), t.c[size_t(i)]);
}
uint16_t HEval(const ActTable& t, uint16_t x) {
  x = Boundary(x);
  if (x == 0x7C00) return t.at_pinf;
  if (x == 0xFC00) return t.at_ninf;
  const bool range = t.mode == ActMode::kLog || t.mode == ActMode::kPow;
  if (x == 0 && (t.zero_en || range)) return t.at_zero;
  if ((x & 0x8000) && t.neg_en) return t.at_neg;
  const bool flip = t.sym == ActSym::kOdd && (x & 0x8000);
  if (t.sym != ActSym::kNone) x &= 0x7FFF;
  uint16_t y = 0;
  if (t.mode == ActMode::kDirect) {
    y = HSegments(t, x);
  } else if (t.mode == ActMode::kExp2) {
    const uint16_t v = HMul(x, t.k);
    if (v == 0x7C00) {
      y = 0x7C00;
    } else if (v == 0xFC00) {
      y = 0;
    } else {
      const double n = std::floor(D(v));
      const uint16_t f = HAdd(v, HostBits(static_cast<_Float16>(-n)));
      y = HLdexp(HSegments(t, f), long(n));
    }
  } else if (t.mode == ActMode::kTrig) {
    const uint16_t u = HMul(x & 0x7FFF, t.k);
    const double fl = std::floor(D(u));
    const uint16_t f = HostBits(static_cast<_Float16>(D(u) - fl));  // exact: u >= 0
    const long q = long(fl) + (t.cos_phase ? 1 : 0);
    y = HSegments(t, (q & 1) ? HAdd(0x3C00, f ^ 0x8000) : f);
    if ((q & 2) && (y & 0x7FFF)) y ^= 0x8000;
  } else {
    int e = 0;
    const double m = 2 * std::frexp(D(x & 0x7FFF), &e);  // |x| = m * 2^(e - 1), m in [1, 2)
    long ex = e - 1;
    double mm = m;
    if (t.mode == ActMode::kLog) {
      const uint16_t w =
          HAdd(HostBits(static_cast<_Float16>(double(ex))), HSegments(t, HostBits(static_cast<_Float16>(mm))));
      y = HMul(w, t.k);
    } else {
      if (t.pow_split && (ex & 1)) mm *= 2, ex -= 1;
      long g = t.pow_split ? ex / 2 : ex;
      if (t.pow_negate) g = -g;
      y = HLdexp(HSegments(t, HostBits(static_cast<_Float16>(mm))), g);
    }
  }
  if (flip && (y & 0x7FFF)) y ^= 0x8000;
  return y == 0x8000 ? 0 : y;
}

// N-5.1: every default table against the independent reference, on all 2^16 input codes.
TEST(OracleActivation, N5_1_EveryTableMatchesAnIndependentEvaluation) {
  for (ActFn fn : oracle::kAllActFns) {
    const ActTable& t = oracle::DefaultActTable(fn);
    for (uint32_t c = 0; c < 0x10000; ++c) {
      ASSERT_EQ(oracle::EvalActTable(t, uint16_t(c)), HEval(t, uint16_t(c)))
          << oracle::ActFnName(fn) << " x = 0x" << std::hex << c;
    }
  }
}

// N-5.1: the table shape: 33 knots over the documented domain (32 segments), and a table is
// continuous at its interior knots to within the fp16 evaluation (both neighbouring segments
// give nearly the same value at the shared knot).
TEST(OracleActivation, N5_1_ThirtyThreeKnotsAndContinuity) {
  struct Domain {
    ActFn fn;
    double lo, hi;
  };
  const Domain domains[] = {{ActFn::kSigmoid, -8, 8}, {ActFn::kTanh, 0, 4}, {ActFn::kErf, 0, 2}, {ActFn::kGelu, -4, 4},
                            {ActFn::kSilu, -8, 8},    {ActFn::kExp, 0, 1},  {ActFn::kSin, 0, 1}};
  for (const Domain& d : domains) {
    const ActTable& t = oracle::DefaultActTable(d.fn);
    const double h = std::ldexp(1.0, t.step_log2);
    EXPECT_EQ(D(t.lo), d.lo) << oracle::ActFnName(d.fn);
    EXPECT_EQ(D(t.lo) + 32 * h, d.hi) << oracle::ActFnName(d.fn);
    for (int i = 1; i < 32; ++i) {
      const uint16_t knot = H(d.lo + i * h);
      const double left = D(HAdd(HMul(t.m[size_t(i) - 1], knot), t.c[size_t(i) - 1]));
      const double right = D(HAdd(HMul(t.m[size_t(i)], knot), t.c[size_t(i)]));
      // Each side rounds m * x and the sum to fp16: within 0.002 plus an ulp of the value.
      const double ulp = std::ldexp(1.0, std::ilogb(std::fabs(left) + 1e-30) - 10);
      EXPECT_LE(std::fabs(left - right), 0.002 + ulp) << oracle::ActFnName(d.fn) << " knot " << i;
    }
  }
}

// Sigmoid takes exact samples (N-5.2): at every knot the table is within one fp16 ulp (of the
// value's binade) of the exact function; exp's knots are 2^(i/32).
TEST(OracleActivation, N5_2_SampledKnotsFollowTheFunction) {
  const ActTable& s = oracle::DefaultActTable(ActFn::kSigmoid);
  for (int i = 0; i < 32; ++i) {
    const double x = -8 + 0.5 * i;
    const double got = D(oracle::EvalActTable(s, H(x)));
    EXPECT_LE(std::fabs(got - 1 / (1 + std::exp(-x))), 1.0 / 2048) << "sigmoid knot " << x;
  }
  const ActTable& e = oracle::DefaultActTable(ActFn::kExp);
  for (int i = 0; i < 32; ++i) {
    const double got = D(oracle::EvalActSegments(e, H(i / 32.0)));
    EXPECT_LE(std::fabs(got - std::exp2(i / 32.0)), 1.0 / 1024) << "exp knot " << i;
  }
}

struct Accuracy {
  double worst = 0;
  double at = 0;
};
// Worst |table - exact| over every finite input with |x| <= limit (and a finite exact value).
Accuracy AbsoluteError(ActFn fn, double limit = 1e9) {
  Accuracy a;
  const ActTable& t = oracle::DefaultActTable(fn);
  for (uint32_t c = 0; c < 0x10000; ++c) {
    if (!IsFinite(uint16_t(c)) || std::fabs(D(uint16_t(c))) > limit) continue;
    const double want = oracle::ActReference(fn, D(uint16_t(c)));
    if (!std::isfinite(want)) continue;
    const double err = std::fabs(D(oracle::EvalActTable(t, uint16_t(c))) - want);
    if (err > a.worst) a.worst = err, a.at = D(uint16_t(c));
  }
  return a;
}
// Worst error in units of the fp16 ulp of the exact value, over inputs where the exact value is
// a finite normal fp16 magnitude (the range-reduced functions).
Accuracy UlpError(ActFn fn, double limit = 1e9) {
  Accuracy a;
  const ActTable& t = oracle::DefaultActTable(fn);
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const double x = D(uint16_t(c));
    if (!IsFinite(uint16_t(c)) || std::fabs(x) > limit) continue;
    const double want = oracle::ActReference(fn, x);
    if (!std::isfinite(want) || std::fabs(want) < std::ldexp(1.0, -14) || std::fabs(want) > 65504) continue;
    int e = 0;
    std::frexp(want, &e);
    const double ulp = std::ldexp(1.0, e - 11);
    const double err = std::fabs(D(oracle::EvalActTable(t, uint16_t(c))) - want) / ulp;
    if (err > a.worst) a.worst = err, a.at = x;
  }
  return a;
}

// N-5.3: the chapter's measured worst errors are ceilings for sigmoid, tanh and gelu.
TEST(OracleActivation, N5_3_SeedFiguresHoldOverAllFp16Inputs) {
  const struct {
    ActFn fn;
    double bound;
  } cases[] = {{ActFn::kSigmoid, 0.0034}, {ActFn::kTanh, 0.0017}, {ActFn::kGelu, 0.0059}};
  for (const auto& c : cases) {
    const Accuracy a = AbsoluteError(c.fn);
    std::printf("%-8s worst |error| %.6f at x = %.8g (ceiling %.4f)\n", oracle::ActFnName(c.fn), a.worst, a.at,
                c.bound);
    EXPECT_LE(a.worst, c.bound) << oracle::ActFnName(c.fn) << " at x = " << a.at;
    EXPECT_GT(a.worst, 0.0) << oracle::ActFnName(c.fn);
  }
}

// N-5.3: the figures docs/postproc.md states for the other tables.
TEST(OracleActivation, N5_3_StatedFiguresForTheOtherTables) {
  // oracle::StatedActBound: the figures docs/postproc.md states (the ONNX conformance rule uses them)
  for (ActFn fn : {ActFn::kSilu, ActFn::kErf, ActFn::kSoftplus, ActFn::kSoftsign, ActFn::kSin, ActFn::kCos, ActFn::kExp,
                   ActFn::kLog, ActFn::kRecip, ActFn::kRsqrt, ActFn::kSqrt}) {
    const oracle::ActBound b = oracle::StatedActBound(fn);
    const Accuracy a = b.ulps ? UlpError(fn, b.domain) : AbsoluteError(fn, b.domain);
    std::printf("%-8s worst %s %.6f at x = %.8g (stated %.4g)\n", oracle::ActFnName(fn), b.ulps ? "ulps " : "|err|",
                a.worst, a.at, b.bound);
    EXPECT_LE(a.worst, b.bound) << oracle::ActFnName(fn) << " at x = " << a.at;
  }
  // the chapter's three (N5_3_SeedFiguresHoldOverAllFp16Inputs checks them)
  EXPECT_EQ(oracle::StatedActBound(ActFn::kSigmoid).bound, 0.0034);
  EXPECT_EQ(oracle::StatedActBound(ActFn::kTanh).bound, 0.0017);
  EXPECT_EQ(oracle::StatedActBound(ActFn::kGelu).bound, 0.0059);
}

// N-5.3: exp first returns inf at 11.09375 (every smaller input is finite).
TEST(OracleActivation, N5_3_ExpFirstReturnsInfAt11_09375) {
  const ActTable& t = oracle::DefaultActTable(ActFn::kExp);
  EXPECT_EQ(oracle::EvalActTable(t, H(11.09375)), 0x7C00);
  for (uint16_t c = 0; c < H(11.09375); ++c) {
    ASSERT_NE(oracle::EvalActTable(t, c), 0x7C00) << "exp(" << D(c) << ") is inf";
  }
  for (uint16_t c = 0x8000; c < 0xFC00; ++c) {  // every negative input is finite too
    ASSERT_NE(oracle::EvalActTable(t, c), 0x7C00) << "exp(" << D(c) << ") is inf";
  }
}

// N-5.4: special inputs after the N-1 boundary (NaN acts as +inf).
TEST(OracleActivation, N5_4_SpecialInputs) {
  auto eval = [](ActFn fn, uint16_t x) { return oracle::EvalActTable(oracle::DefaultActTable(fn), x); };
  const uint16_t nan = 0x7E00, pinf = 0x7C00, ninf = 0xFC00;
  for (uint16_t x : {pinf, nan, uint16_t(0xFE01)}) {
    EXPECT_EQ(eval(ActFn::kSigmoid, x), H(1.0));
    EXPECT_EQ(eval(ActFn::kTanh, x), H(1.0));
    EXPECT_EQ(eval(ActFn::kErf, x), H(1.0));
    EXPECT_EQ(eval(ActFn::kExp, x), pinf);
    EXPECT_EQ(eval(ActFn::kSoftplus, x), 0) << "softplus(+inf) collapses to +0";
    EXPECT_EQ(eval(ActFn::kSoftsign, x), 0) << "softsign(+inf) collapses to +0";
  }
  EXPECT_EQ(eval(ActFn::kLog, 0x0000), H(-65504)) << "log(+0) sentinel";
  EXPECT_EQ(eval(ActFn::kLog, 0x8000), H(-65504)) << "log(-0) = log(+0) (N-1.2)";
  EXPECT_EQ(eval(ActFn::kSigmoid, ninf), 0);
  EXPECT_EQ(eval(ActFn::kTanh, ninf), H(-1.0));
  EXPECT_EQ(eval(ActFn::kExp, ninf), 0);
  EXPECT_EQ(eval(ActFn::kRecip, 0x8000), pinf) << "recip(-0) = +inf (N-1.2)";
  EXPECT_EQ(eval(ActFn::kRsqrt, 0x8000), pinf) << "rsqrt(-0) = +inf (N-1.2)";
  EXPECT_EQ(eval(ActFn::kSqrt, 0x8000), 0) << "sqrt(-0) = +0 (N-1.2)";
  EXPECT_EQ(eval(ActFn::kSqrt, H(-4)), 0) << "sqrt(negative) = +0 (N-4.2)";
  EXPECT_EQ(eval(ActFn::kLog, H(-4)), 0) << "log(negative) = +0";
  // Clamping past the domain (N-5.1): the end asymptotes.
  EXPECT_EQ(eval(ActFn::kSigmoid, H(9)), H(1.0));
  EXPECT_EQ(eval(ActFn::kSigmoid, H(-9)), 0);
  EXPECT_EQ(eval(ActFn::kTanh, H(100)), H(1.0));
  EXPECT_EQ(eval(ActFn::kTanh, H(-100)), H(-1.0));
  EXPECT_EQ(eval(ActFn::kGelu, H(100)), H(100)) << "gelu tracks x above its domain";
  EXPECT_EQ(eval(ActFn::kSilu, H(-100)), 0);
  // No table ever returns a NaN or a -0.
  for (ActFn fn : oracle::kAllActFns) {
    for (uint32_t c = 0; c < 0x10000; ++c) {
      const uint16_t y = eval(fn, uint16_t(c));
      ASSERT_FALSE(((y >> 10) & 0x1F) == 0x1F && (y & 0x3FF)) << oracle::ActFnName(fn);
      ASSERT_NE(y, 0x8000) << oracle::ActFnName(fn) << " x = 0x" << std::hex << c;
    }
  }
}

// N-5.4: the origin bias of gelu and silu is what the table gives at 0: small (below the
// smallest normal fp16, 2^-14), reported, and the same for +0 and -0.
TEST(OracleActivation, N5_4_OriginBiasOfGeluAndSilu) {
  for (ActFn fn : {ActFn::kGelu, ActFn::kSilu}) {
    const ActTable& t = oracle::DefaultActTable(fn);
    const uint16_t y = oracle::EvalActTable(t, 0);
    std::printf("%s(0) = %.8g (0x%04X), exact 0\n", oracle::ActFnName(fn), D(y), y);
    EXPECT_EQ(oracle::EvalActTable(t, 0x8000), y);
    EXPECT_LT(std::fabs(D(y)), std::ldexp(1.0, -14)) << oracle::ActFnName(fn);
  }
}

// N-5.1: one source of truth. The checked-in tables are what the generator writes now.
TEST(OracleActivation, N5_1_CheckedInTablesAreCurrent) {
  const std::string out = ::testing::TempDir() + "act_tables.inc";
  const std::string cmd = std::string(ANE_TABLEGEN) + " " + out + " > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto slurp = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const std::string fresh = slurp(out);
  ASSERT_FALSE(fresh.empty());
  EXPECT_EQ(fresh, slurp(ANE_TABLES_INC)) << "run `make tables` and commit tb/oracle/act_tables.inc";
}

}  // namespace
}  // namespace ane
