// SPDX-License-Identifier: Apache-2.0
// Property test of the quad stage, accumulator and output port (NUMERICS N-2.3 to N-2.6):
// for seeded random fp16 vectors, the oracle's dot product equals an independent evaluation of
// the clauses written here with exact rationals (GMP mpq_class). Nothing in this file calls an
// oracle stage function: only the oracle's top-level Reduce() is compared.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <vector>

#include "tb/oracle/mac.h"
#include "tb/tests/mac_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane::oracle {
namespace {

using test::RandomOperand;
using test::Rng;

// ---- An independent model of N-2, on exact rationals ----

struct RVal {
  bool inf = false;
  bool neg = false;  // sign of an infinity
  mpq_class v = 0;   // value when finite
};

mpq_class Pow2(int e) {
  mpz_class p = 1;
  if (e >= 0) {
    p <<= e;
    return mpq_class(p);
  }
  p <<= -e;
  return mpq_class(1, p);
}

// floor(log2 |v|) for v != 0.
int FloorLog2(const mpq_class& v) {
  const mpq_class a = abs(v);
  int e = int(mpz_sizeinbase(a.get_num_mpz_t(), 2)) - int(mpz_sizeinbase(a.get_den_mpz_t(), 2));
  while (a < Pow2(e)) --e;
  while (a >= Pow2(e + 1)) ++e;
  return e;
}

// Nearest multiple of 2^q, ties to the even multiple.
mpq_class RoundToMultiple(const mpq_class& v, int q) {
  const mpq_class x = v / Pow2(q);
  mpz_class fl;
  mpz_fdiv_q(fl.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  const mpq_class frac = x - mpq_class(fl);
  const mpq_class half(1, 2);
  if (frac > half || (frac == half && mpz_odd_p(fl.get_mpz_t()))) fl += 1;
  return mpq_class(fl) * Pow2(q);
}

// RNE into a binary format with p significand bits, normal exponents [emin, emax].
RVal RoundFloat(const RVal& x, int p, int emin, int emax) {
  if (x.inf || x.v == 0) return x;
  const int e = std::max(FloorLog2(x.v), emin);
  RVal r;
  r.v = RoundToMultiple(x.v, e - (p - 1));
  if (r.v != 0 && abs(r.v) >= Pow2(emax + 1)) {
    r.inf = true;
    r.neg = x.v < 0;
    r.v = 0;
  }
  return r;
}
RVal RoundFp16(const RVal& x) { return RoundFloat(x, 11, -14, 15); }
RVal RoundFp32(const RVal& x) { return RoundFloat(x, 24, -126, 127); }

RVal Add(const RVal& a, const RVal& b) {
  if (a.inf && b.inf && a.neg != b.neg) return RVal{};  // inf + (-inf) = +0
  if (a.inf) return a;
  if (b.inf) return b;
  RVal r;
  r.v = a.v + b.v;
  return r;
}

// add12 of N-2.4: RNE on the grid 2^(e - 11), e the larger exponent of the nonzero operands.
RVal Add12Ref(const RVal& a, const RVal& b) {
  RVal s = Add(a, b);
  if (a.inf || b.inf || s.v == 0) return s;
  int e = -1000;
  if (a.v != 0) e = FloorLog2(a.v);
  if (b.v != 0) e = std::max(e, FloorLog2(b.v));
  s.v = RoundToMultiple(s.v, e - 11);
  return s;
}

// An fp16 operand after N-1 and N-2.3.
RVal Operand(uint16_t h, bool m1) {
  const int ex = (h >> 10) & 0x1F;
  const int man = h & 0x3FF;
  const bool neg = h & 0x8000;
  RVal r;
  if (ex == 0x1F) {
    r.inf = true;
    r.neg = man == 0 && neg;  // NaN -> +inf
    return r;
  }
  if (ex == 0) {
    if (m1) return r;  // denormals (and zeros) are +0 inside the m1 MAC
    r.v = mpq_class(man) * Pow2(-24);
  } else {
    r.v = mpq_class(man + 1024) * Pow2(ex - 25);
  }
  if (neg) r.v = -r.v;
  return r;
}

RVal Product(const RVal& a, const RVal& b) {
  const bool a_zero = !a.inf && a.v == 0;
  const bool b_zero = !b.inf && b.v == 0;
  if (a_zero || b_zero) return RVal{};  // includes 0 x inf = +0
  RVal r;
  if (a.inf || b.inf) {
    r.inf = true;
    const bool na = a.inf ? a.neg : a.v < 0;
    const bool nb = b.inf ? b.neg : b.v < 0;
    r.neg = na != nb;
    return r;
  }
  r.v = a.v * b.v;
  return r;
}

uint16_t EncodeFp16(const RVal& r) {
  if (r.inf) return r.neg ? 0xFC00 : 0x7C00;
  if (r.v == 0) return 0;
  const uint16_t sign = r.v < 0 ? 0x8000 : 0;
  const mpq_class a = abs(r.v);
  const int e = FloorLog2(a);
  if (e < -14) return sign | uint16_t(mpq_class(a / Pow2(-24)).get_num().get_ui());
  const unsigned sig = unsigned(mpq_class(a / Pow2(e - 10)).get_num().get_ui());
  return sign | uint16_t((e + 15) << 10) | uint16_t(sig - 1024);
}

// The whole of N-2.4 to N-2.6 for one dot product.
uint16_t ReferenceDot(const std::vector<uint16_t>& a, const std::vector<uint16_t>& w, bool m1) {
  const size_t k = a.size();
  RVal acc;
  for (size_t q = 0; q < k; q += 4) {
    RVal t;
    for (size_t i = q; i < q + 4; ++i) {
      // A final incomplete quad is padded with +0 (which add12 still rounds to 12 bits).
      const RVal p = i < k ? Product(Operand(a[i], m1), Operand(w[i], m1)) : RVal{};
      t = (i == q) ? p : (m1 ? Add12Ref(t, p) : Add(t, p));
    }
    acc = RoundFp32(Add(acc, t));
    if (k >= 2 && !acc.inf) {
      const RVal port = RoundFp16(acc);
      if (port.inf || abs(port.v) >= 32768) {
        acc.inf = true;
        acc.neg = acc.v < 0;
        acc.v = 0;
      }
    }
  }
  RVal r = RoundFp16(acc);
  if (m1 && !r.inf && r.v != 0 && abs(r.v) < Pow2(-14)) r = RVal{};
  return EncodeFp16(r);
}

class QuadStageProperty : public ::testing::TestWithParam<Generation> {};

TEST_P(QuadStageProperty, N2_4_to_N2_6_OracleDotEqualsExactRationalModel) {
  const Generation gen = GetParam();
  const bool m1 = gen == Generation::kM1;
  const uint64_t seed = test::TestSeed(m1 ? 2024 : 2025);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const int vectors = int(100000 * test::SoakFactor());
  int nonzero = 0, infinite = 0;
  for (int n = 0; n < vectors; ++n) {
    const size_t k = 1 + rng.Below(n % 4 == 0 ? 64 : 12);
    const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
    std::vector<uint16_t> a(k), w(k);
    const int kernel_kind = int(rng.Below(3));
    for (size_t i = 0; i < k; ++i) {
      a[i] = RandomOperand(rng, anchor);
      w[i] =
          kernel_kind == 0 ? 0x3C00 : (kernel_kind == 1 ? RandomOperand(rng, 0x3C00) : uint16_t(0x3C00 + rng.Below(8)));
    }
    const uint16_t want = ReferenceDot(a, w, m1);
    const uint16_t got = Reduce(MacMode::kFp16, gen, a.data(), w.data(), k).fp16;
    ASSERT_EQ(got, want) << "vector " << n << " K=" << k;
    nonzero += (want & 0x7FFF) != 0;
    infinite += (want & 0x7FFF) == 0x7C00;
  }
  // The generator must reach both finite nonzero and infinite results.
  EXPECT_GT(nonzero - infinite, vectors / 4);
  EXPECT_GT(infinite, vectors / 50);
}

INSTANTIATE_TEST_SUITE_P(Generations, QuadStageProperty, ::testing::Values(Generation::kM1, Generation::kM5),
                         [](const auto& info) { return GenerationName(info.param); });

}  // namespace
}  // namespace ane::oracle
