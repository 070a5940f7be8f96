// SPDX-License-Identifier: Apache-2.0
// The oracle's elementwise fp16 operations (NUMERICS N-4.1, N-4.2) and format conversions
// (N-0.1, N-1) against independent references: the host's IEEE binary16 arithmetic (GCC
// _Float16, correctly rounded for + - * / sqrt because float has 24 >= 2*11 + 2 bits) with the
// N-1 / N-4.2 mapping applied, and exact rationals (GMP) for rsqrt, which the host cannot
// round correctly in one step.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "tb/oracle/elementwise.h"
#include "tb/oracle/formats.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/test_seed.h"

namespace ane::oracle {
namespace {

using test::H;
using test::HostBits;
using test::HostHalf;

// ---- The independent reference ----

// N-1 applied to an operand, as the contract states it.
uint16_t Boundary(uint16_t h) {
  if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) return 0x7C00;
  return h == 0x8000 ? 0 : h;
}

// Round-to-nearest-even of 1/sqrt(x) checked on exact rationals: returns the fp16 code.
uint16_t RsqrtExact(uint16_t x_code) {
  const mpq_class x = mpq_class(static_cast<double>(HostHalf(x_code)));  // exact for fp16
  // Walk the positive finite codes by bisection: find the largest code c with value(c) <=
  // 1/sqrt(x), i.e. value(c)^2 * x <= 1.
  auto below = [&](uint16_t c) {
    const mpq_class v(static_cast<double>(HostHalf(c)));
    return v * v * x <= 1;
  };
  uint16_t lo = 0, hi = 0x7BFF;
  if (below(hi)) {
    lo = hi;
  } else {
    while (hi - lo > 1) {
      const uint16_t mid = uint16_t((lo + hi) / 2);
      (below(mid) ? lo : hi) = mid;
    }
  }
  // The true value lies in [v(lo), v(lo + 1)); decide by the midpoint, ties to even.
  const mpq_class vlo(static_cast<double>(HostHalf(lo)));
  if (lo == 0x7BFF) {
    // Above 65504: overflow when 1/sqrt(x) >= 65520.
    return mpq_class(65520) * mpq_class(65520) * x <= 1 ? 0x7C00 : lo;
  }
  const mpq_class vhi(static_cast<double>(HostHalf(uint16_t(lo + 1))));
  const mpq_class mid = (vlo + vhi) / 2;
  const int c = cmp(mid * mid * x, mpq_class(1));  // > 0: mid above the true value
  if (c > 0) return lo;
  if (c < 0) return uint16_t(lo + 1);
  return (lo & 1) ? uint16_t(lo + 1) : lo;
}

uint16_t Reference(EwOp op, uint16_t a_in, uint16_t b_in) {
  const uint16_t a_code = Boundary(a_in), b_code = Boundary(b_in);
  const _Float16 a = HostHalf(a_code), b = HostHalf(b_code);
  _Float16 r = 0;
  switch (op) {
    case EwOp::kAdd: r = a + b; break;
    case EwOp::kSub: r = a - b; break;
    case EwOp::kMul: r = a * b; break;
    case EwOp::kDiv: r = a / b; break;
    case EwOp::kMax: r = a >= b ? a : b; break;
    case EwOp::kMin: r = a <= b ? a : b; break;
    case EwOp::kAbs: r = a < 0 ? -a : a; break;
    case EwOp::kNeg: r = -a; break;
    case EwOp::kSquare: r = a * a; break;
    case EwOp::kRecip: r = static_cast<_Float16>(1.0f / static_cast<float>(a)); break;
    case EwOp::kSqrt: r = static_cast<_Float16>(std::sqrt(static_cast<float>(a))); break;
    case EwOp::kRsqrt: {
      if (a_code == 0) return 0x7C00;
      if (a_code == 0x7C00) return 0;
      if (a_code & 0x8000) return 0;  // sqrt of a negative: indeterminate, +0
      return RsqrtExact(a_code);
    }
  }
  const uint16_t bits = HostBits(r);
  if ((bits & 0x7C00) == 0x7C00 && (bits & 0x3FF)) return 0;  // N-4.2: indeterminate -> +0
  if (op == EwOp::kAbs) return bits & 0x7FFF;                 // abs(-0): no -0 after N-1
  return bits;
}

// A dense subset of codes: every sign and exponent, significands with the low 7 bits in a
// small set (so ties, carries and ulp neighbours all occur), plus NaN payloads.
std::vector<uint16_t> DenseSubset() {
  std::vector<uint16_t> s;
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const uint32_t low = c & 0x7F;
    if (low == 0x00 || low == 0x01 || low == 0x3F || low == 0x40 || low == 0x7F) s.push_back(uint16_t(c));
  }
  return s;
}

// ---- Directed N-4.2 / N-1 cases ----

TEST(OracleElementwise, N4_2_IndeterminateFormsReturnPlusZero) {
  EXPECT_EQ(Fp16Sub(kFp16PosInf, kFp16PosInf), 0);
  EXPECT_EQ(Fp16Add(kFp16PosInf, kFp16NegInf), 0);
  EXPECT_EQ(Fp16Mul(0, kFp16PosInf), 0);
  EXPECT_EQ(Fp16Mul(kFp16NegInf, 0x8000), 0);
  EXPECT_EQ(Fp16Div(kFp16PosInf, kFp16NegInf), 0);
  EXPECT_EQ(Fp16Div(0, 0x8000), 0);
  EXPECT_EQ(Fp16Sqrt(H(-4.0)), 0);
  EXPECT_EQ(Fp16Sqrt(kFp16NegInf), 0);
}

TEST(OracleElementwise, N1_2_SignedZeroLosesItsSignBeforeRecipAndRsqrt) {
  EXPECT_EQ(Fp16Recip(0x8000), kFp16PosInf);
  EXPECT_EQ(Fp16Rsqrt(0x8000), kFp16PosInf);
  EXPECT_EQ(Fp16Sqrt(0x8000), 0);
  EXPECT_EQ(Fp16Abs(0x8000), 0);
  EXPECT_EQ(Fp16Add(0x8000, 0x8000), 0);  // identity of -0 is +0
}

TEST(OracleElementwise, N1_1_NanBehavesExactlyLikePlusInf) {
  for (uint16_t nan : {uint16_t(0x7C01), uint16_t(0x7E00), uint16_t(0xFFFF)}) {
    for (EwOp op : kAllEwOps) {
      EXPECT_EQ(Elementwise(op, nan, H(3.0)), Elementwise(op, kFp16PosInf, H(3.0))) << EwOpName(op);
      EXPECT_EQ(Elementwise(op, H(-2.0), nan), Elementwise(op, H(-2.0), kFp16PosInf)) << EwOpName(op);
    }
  }
  EXPECT_EQ(Fp16Max(0x7E00, H(1.0)), kFp16PosInf);
}

TEST(OracleElementwise, N4_1_DenormalsAreKeptAndOverflowIsAtTheTrueLimit) {
  EXPECT_EQ(Fp16Add(0x0001, 0), 0x0001);         // smallest denormal echoes
  EXPECT_EQ(Fp16Mul(0x0200, H(2.0)), 0x0400);    // scales into the normal range
  EXPECT_EQ(Fp16Square(H(256.0)), kFp16PosInf);  // square first returns inf at 256 (N-5.3)
  EXPECT_EQ(Fp16Square(H(255.875)), H(65472.0));
  EXPECT_EQ(Fp16Mul(H(65504.0), H(1.0009765625)), kFp16PosInf);  // 65567.96 >= 65520
  EXPECT_EQ(Fp16Add(H(65504.0), H(8.0)), H(65504.0));            // 65512 < 65520
  EXPECT_EQ(Fp16Add(H(65504.0), H(16.0)), kFp16PosInf);          // 65520 rounds to inf
}

// ---- Exhaustive unary operations: all 2^16 codes ----

TEST(OracleElementwiseSweep, N4_1_UnaryOpsMatchTheReferenceOnAllCodes) {
  for (EwOp op : kAllEwOps) {
    if (EwOpArity(op) != 1) continue;
    for (uint32_t c = 0; c < 0x10000; ++c) {
      ASSERT_EQ(Elementwise(op, uint16_t(c)), Reference(op, uint16_t(c), 0))
          << EwOpName(op) << " of 0x" << std::hex << c;
    }
  }
}

// ---- Binary operations: all pairs of the dense subset, then random pairs ----

class BinaryOp : public ::testing::TestWithParam<EwOp> {};

TEST_P(BinaryOp, N4_1_AllPairsOfADenseSubsetMatchTheReference) {
  const EwOp op = GetParam();
  const std::vector<uint16_t> subset = DenseSubset();
  for (uint16_t a : subset) {
    for (uint16_t b : subset) {
      ASSERT_EQ(Elementwise(op, a, b), Reference(op, a, b))
          << EwOpName(op) << "(0x" << std::hex << a << ", 0x" << b << ")";
    }
  }
}

TEST_P(BinaryOp, N4_1_TenMillionRandomPairsMatchTheReference) {
  const EwOp op = GetParam();
  const uint64_t seed = test::TestSeed(0xE1E0 + uint64_t(op));
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const uint64_t pairs = 10'000'000 * test::SoakFactor();
  for (uint64_t i = 0; i < pairs; ++i) {
    const uint64_t r = rng.Next();
    const uint16_t a = uint16_t(r), b = uint16_t(r >> 16);
    ASSERT_EQ(Elementwise(op, a, b), Reference(op, a, b))
        << EwOpName(op) << "(0x" << std::hex << a << ", 0x" << b << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, BinaryOp,
                         ::testing::Values(EwOp::kAdd, EwOp::kSub, EwOp::kMul, EwOp::kDiv, EwOp::kMax, EwOp::kMin),
                         [](const auto& info) { return EwOpName(info.param); });

// ---- Format conversions (N-0.1, N-1) ----

TEST(OracleFormats, N1_InputBoundaryOnEveryCode) {
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const uint16_t h = uint16_t(c);
    const uint16_t want = std::isnan(static_cast<float>(HostHalf(h))) ? 0x7C00 : (h == 0x8000 ? 0 : h);
    ASSERT_EQ(InputBoundary(h), want) << std::hex << c;
  }
}

TEST(OracleFormats, N0_1_Fp16DecodeEncodeRoundTripsEveryCode) {
  for (uint32_t c = 0; c < 0x10000; ++c) {
    const uint16_t h = uint16_t(c);
    if (Fp16IsNan(h)) continue;
    ASSERT_EQ(RoundToFp16(DecodeFp16(h), h == 0x8000), h) << std::hex << c;
    ASSERT_EQ(Fp16ToFp32(h),
              [&] {
                const float f = static_cast<float>(HostHalf(h));
                uint32_t u;
                std::memcpy(&u, &f, 4);
                return u;
              }())
        << std::hex << c;
  }
}

TEST(OracleFormats, N0_3_Fp32ToFp16RoundsToNearestEvenLikeTheHost) {
  const uint64_t seed = test::TestSeed(32);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int i = 0; i < 2'000'000; ++i) {
    // Bias the exponents into and around the fp16 range so that ties, denormals and
    // overflow all occur.
    uint32_t f = uint32_t(rng.Next());
    if (i % 2) f = (f & 0x80FFFFFFu) | (uint32_t(96 + rng.Below(48)) << 23);
    float x;
    std::memcpy(&x, &f, 4);
    uint16_t want;
    if (std::isnan(x)) {
      want = 0x7C00;  // N-1.1
    } else if (f == 0x80000000u) {
      want = 0;  // N-1.2
    } else {
      want = HostBits(static_cast<_Float16>(x));
      if ((want & 0x7FFF) == 0) want = 0;  // a value that rounds to zero gives the engine's +0
    }
    const uint16_t got = Fp32ToFp16(f);
    ASSERT_EQ(got, want) << "fp32 0x" << std::hex << f;
  }
}

// The fp64 reference lines round through DoubleToFp16: every double, the tiniest denormals and
// the largest finite values included, rounds as the host's double -> _Float16 conversion does
// (zeros to +0), and none leaves the exact type's range (sigmoid(-75) once did).
TEST(OracleFormats, N0_3_DoubleToFp16RoundsLikeTheHostOverEveryExponent) {
  const uint64_t seed = test::TestSeed(64);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int i = 0; i < 2'000'000; ++i) {
    uint64_t d = rng.Next();
    // Half the draws near the fp16 range (binary exponents -40 .. 20) for ties and denormals.
    if (i % 2) d = (d & 0x800FFFFFFFFFFFFFull) | (uint64_t(1023 - 40 + rng.Below(61)) << 52);
    double x;
    std::memcpy(&x, &d, 8);
    if (std::isnan(x)) {
      EXPECT_THROW(DoubleToFp16(x), std::invalid_argument);
      continue;
    }
    uint16_t want = HostBits(static_cast<_Float16>(x));
    if ((want & 0x7FFF) == 0) want = 0;
    ASSERT_EQ(DoubleToFp16(x), want) << "double 0x" << std::hex << d;
  }
  EXPECT_EQ(DoubleToFp16(std::exp(-75.0)), 0);  // sigmoid(-75) = 2.7e-33
  EXPECT_EQ(DoubleToFp16(-1e300), 0xFC00);
  EXPECT_EQ(DoubleToFp16(65519.99), 0x7BFF);
  EXPECT_EQ(DoubleToFp16(65520.0), 0x7C00);
  EXPECT_EQ(DoubleToFp16(std::ldexp(1.0, -25)), 0);  // a tie at half the smallest denormal
  EXPECT_EQ(DoubleToFp16(std::nextafter(std::ldexp(1.0, -25), 1.0)), 1);
  EXPECT_EQ(DoubleToFp16(4.9e-324), 0);
}

}  // namespace
}  // namespace ane::oracle
