// SPDX-License-Identifier: Apache-2.0
// The oracle's MAC path against the measured figures of NUMERICS N-2 (the chapter's Table 3.1
// and worked sums) and the N-1 / N-2 rules. Expected values come from the contract, never from
// the oracle. Each test names the clause it covers.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tb/oracle/elementwise.h"
#include "tb/oracle/formats.h"
#include "tb/oracle/mac.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/test_seed.h"

namespace ane::oracle {
namespace {

using test::H;
using test::Repeat;

// Dot product of `data` against a ones vector (the chapter's reduce_via_matmul).
uint16_t SumViaMatmul(const std::vector<uint16_t>& data, Generation gen = Generation::kM1) {
  std::vector<uint16_t> ones(data.size(), H(1.0));
  return Reduce(MacMode::kFp16, gen, data.data(), ones.data(), data.size()).fp16;
}

// ---- N-2 reference table ----

TEST(OracleMacTable, N2_5_SixteenThousandOnesAreExact) {
  EXPECT_EQ(SumViaMatmul(std::vector<uint16_t>(16000, H(1.0))), H(16000.0));
}

TEST(OracleMacTable, N2_4_WorkedSum4096Then1024OnesIs5116) {
  std::vector<uint16_t> v = {H(4096.0)};
  v.insert(v.end(), 1024, H(1.0));
  EXPECT_EQ(SumViaMatmul(v), H(5116.0));
}

class CancellationTriple : public ::testing::TestWithParam<std::pair<double, double>> {};

// Table 3.1: [b, -b, 1] x 16 keeps 16 ones below 4096 and exactly 4 from 4096 on.
TEST_P(CancellationTriple, N2_4_Table31SurvivorsLayoutBMinusBOne) {
  const auto [b, survivors] = GetParam();
  EXPECT_EQ(SumViaMatmul(Repeat({b, -b, 1.0}, 16)), H(survivors)) << "b = " << b;
}

TEST_P(CancellationTriple, N2_4_Table31SurvivorsLayoutBOneMinusB) {
  const auto [b, survivors] = GetParam();
  EXPECT_EQ(SumViaMatmul(Repeat({b, 1.0, -b}, 16)), H(survivors)) << "b = " << b;
}

INSTANTIATE_TEST_SUITE_P(Table31, CancellationTriple,
                         ::testing::Values(std::make_pair(1024.0, 16.0), std::make_pair(3000.0, 16.0),
                                           std::make_pair(4090.0, 16.0), std::make_pair(4096.0, 4.0),
                                           std::make_pair(8000.0, 4.0), std::make_pair(16000.0, 4.0),
                                           std::make_pair(30000.0, 4.0)));

// The sweep behind Table 3.1: 16 survivors for every positive fp16 magnitude below 4096, and 4
// for every one from 4096 to 32000, in both layouts.
TEST(OracleMacTable, N2_4_SurvivorSweepOverEveryFp16Magnitude) {
  int checked = 0;
  for (uint16_t b = 0x0001; b <= H(32000.0); ++b) {
    const double bv = Fp16ToDouble(b);
    const uint16_t want = bv < 4096.0 ? H(16.0) : H(4.0);
    for (int layout = 0; layout < 2; ++layout) {
      std::vector<uint16_t> v;
      for (int t = 0; t < 16; ++t) {
        if (layout == 0) {
          v.insert(v.end(), {b, uint16_t(b | 0x8000), H(1.0)});
        } else {
          v.insert(v.end(), {b, H(1.0), uint16_t(b | 0x8000)});
        }
      }
      ASSERT_EQ(SumViaMatmul(v), want) << "b = " << bv << " layout " << layout;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * H(32000.0));
}

TEST(OracleMacTable, N2_4_NaiveFp16RunningSumStallsAt2048) {
  // Not the engine: a host fp16 loop, and the oracle's own fp16 add, both stall at 2048.
  _Float16 host = 0;
  uint16_t ew = 0;
  for (int i = 0; i < 16000; ++i) {
    host = host + static_cast<_Float16>(1.0f);
    ew = Fp16Add(ew, H(1.0));
  }
  EXPECT_EQ(static_cast<double>(host), 2048.0);
  EXPECT_EQ(ew, H(2048.0));
  // ... while the engine's wide accumulator does not.
  EXPECT_EQ(SumViaMatmul(std::vector<uint16_t>(4000, H(1.0))), H(4000.0));
}

TEST(OracleMacTable, N2_6_LinearOutput32752PassesAnd32768IsInf) {
  EXPECT_EQ(SumViaMatmul({H(16376.0), H(16376.0)}), H(32752.0));
  EXPECT_EQ(SumViaMatmul({H(16384.0), H(16384.0)}), kFp16PosInf);
  EXPECT_EQ(SumViaMatmul({H(-16384.0), H(-16384.0)}), kFp16NegInf);
  // The ceiling compares RNE_fp16(acc): 32760 is an fp16 tie that rounds to 32768, so inf,
  // although the fp32 accumulator itself holds 32760 < 32768.
  EXPECT_EQ(SumViaMatmul({H(16376.0), H(16384.0)}), kFp16PosInf);
  // A product that lands on 32752 through a real multiply, as in a linear layer.
  const uint16_t a[2] = {H(2047.0), H(0.0)};
  const uint16_t w[2] = {H(16.0), H(3.0)};
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, a, w, 2).fp16, H(32752.0));
}

TEST(OracleMacTable, N2_6_CeilingSeesTheAccumulatorBetweenQuadsOnly) {
  EXPECT_EQ(SumViaMatmul({H(16384.0), H(16384.0), 0, 0, H(-16384.0), H(-16384.0), 0, 0, H(1.0)}), kFp16PosInf);
  EXPECT_EQ(SumViaMatmul({H(16384.0), H(16384.0), H(-16384.0), H(-16384.0), H(1.0)}), H(1.0));
}

TEST(OracleMacTable, N2_6_InteriorOverflowStaysInfAfterLaterCancellation) {
  std::vector<uint16_t> v = {H(30000.0), H(30000.0), 0, 0};
  for (int i = 0; i < 8; ++i) v.push_back(H(-30000.0));
  EXPECT_EQ(SumViaMatmul(v), kFp16PosInf);
}

TEST(OracleMacTable, N2_6_KEqualsOnePasses60000) {
  const uint16_t a = H(60000.0), w = H(1.0);
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &a, &w, 1).fp16, H(60000.0));
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM5, &a, &w, 1).fp16, H(60000.0));
  // K = 1 still overflows at the true fp16 limit (>= 65520 after rounding).
  const uint16_t big = H(65504.0), two = H(2.0);
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &big, &two, 1).fp16, kFp16PosInf);
  // K = 2 with the same value hits the port ceiling.
  EXPECT_EQ(SumViaMatmul({H(60000.0), 0}), kFp16PosInf);
}

// ---- N-2.4 the quad stage, directed ----

TEST(OracleQuad, N2_4_Add12KeepsTwelveBitsOfTheLargerOperand) {
  auto v = [](double x) { return DecodeFp16(H(x)); };
  EXPECT_EQ(Add12(v(4096.0), v(1.0)), v(4096.0));                       // 4097 ties to even on grid 2
  EXPECT_EQ(Add12(v(4094.0), v(1.0)), Exact::FromInt(false, 4095, 0));  // grid 1: exact
  EXPECT_EQ(Add12(v(4096.0), v(3.0)), v(4100.0));                       // 4099 ties up to 4100
  EXPECT_EQ(Add12(v(-4096.0), v(1.0)), v(-4096.0));                     // -4095 on grid 2 ties to -4096
  EXPECT_EQ(Add12(v(2048.0), v(0.5)), v(2048.0));                       // 2048.5 ties to even on grid 1
  EXPECT_EQ(Add12(v(2048.0), v(1.5)), v(2050.0));                       // 2049.5 ties to even: 2050
  EXPECT_TRUE(Add12(Exact(), Exact()).is_zero());
  EXPECT_TRUE(Add12(Exact::Infinity(false), Exact::Infinity(true)).is_zero());
  EXPECT_TRUE(Add12(Exact::Infinity(true), v(5.0)).is_inf());
  // A lone product is rounded to 12 significant bits (23-bit product of two fp16 values).
  const Exact p = DecodeFp16(H(2047.0)) * DecodeFp16(H(2047.0));  // 4190209
  EXPECT_EQ(Add12(p, Exact()), Exact::FromInt(false, 2046, 11));  // 4190208 = 2046 * 2^11
}

TEST(OracleQuad, N2_4_M1RoundsJustAboveATieToEvenWhereM5RoundsUp) {
  // 2048 + (1 + 2^-10): m1's add12 makes it 2049, an exact fp16 tie, which rounds to even
  // 2048; m5 keeps 2049.0009765625 in fp32 and rounds up to 2050.
  const std::vector<uint16_t> v = {H(2048.0), H(1.0009765625)};
  EXPECT_EQ(SumViaMatmul(v, Generation::kM1), H(2048.0));
  EXPECT_EQ(SumViaMatmul(v, Generation::kM5), H(2050.0));
}

TEST(OracleQuad, N2_4_M5QuadsAreExact) {
  EXPECT_EQ(SumViaMatmul(Repeat({4096.0, -4096.0, 1.0}, 16), Generation::kM5), H(16.0));
  std::vector<uint16_t> v = {H(4096.0)};
  v.insert(v.end(), 1024, H(1.0));
  EXPECT_EQ(SumViaMatmul(v, Generation::kM5), H(5120.0));
}

TEST(OracleQuad, N2_4_IncompleteFinalQuadIsPaddedNotDropped) {
  // K = 5 ones: quads [1, 1, 1, 1] and [1, 0, 0, 0] give 5 (dropping the last quad gives 4).
  EXPECT_EQ(SumViaMatmul(std::vector<uint16_t>(5, H(1.0))), H(5.0));
  // K = 6: the lone product 2047 * (2047 * 2^-12) = 4190209 * 2^-12 of the last quad is
  // padded by add12 to 12 bits, 4190208 * 2^-12 = 1023, before the fp32 accumulator.
  const uint16_t a[6] = {0, 0, 0, 0, H(2047.0), 0};
  const uint16_t w[6] = {0, 0, 0, 0, H(0.499755859375), 0};
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, a, w, 6).acc, 0x447FC000u);  // 1023.0f
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM5, a, w, 6).acc, 0x447FC004u);  // exact
}

TEST(OracleQuad, N2_4_IncompleteFinalQuadIsPaddedWithZero) {
  // K = 5: the fifth product forms its own quad [1, 0, 0, 0].
  EXPECT_EQ(SumViaMatmul({H(4096.0), H(1.0), H(1.0), H(1.0), H(1.0)}), H(4096.0));
  EXPECT_EQ(SumViaMatmul({H(1.0), H(4096.0), H(1.0), H(1.0), H(1.0)}), H(4096.0));
}

// ---- N-1, N-2.2, N-2.3, N-2.5, N-2.7 rules ----

TEST(OracleMacRules, N1_1_NanOperandActsAsPlusInf) {
  EXPECT_EQ(SumViaMatmul({0x7E00}), kFp16PosInf);
  EXPECT_EQ(SumViaMatmul({0xFE01, H(1.0)}), kFp16PosInf);  // negative NaN is +inf too
  const uint16_t nan = 0x7C01, zero = 0;
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &nan, &zero, 1).fp16, 0);  // 0 x inf = +0
}

TEST(OracleMacRules, N2_2_InfTimesNonzeroKeepsTheProductSign) {
  const uint16_t a[2] = {kFp16PosInf, H(1.0)};
  const uint16_t w[2] = {H(-2.0), H(1.0)};
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, a, w, 2).fp16, kFp16NegInf);
}

TEST(OracleMacRules, N2_5_InfPlusMinusInfIsPlusZeroInQuadAndAccumulator) {
  EXPECT_EQ(SumViaMatmul({kFp16PosInf, kFp16NegInf}), 0);           // inside a quad
  EXPECT_EQ(SumViaMatmul({kFp16PosInf, 0, 0, 0, kFp16NegInf}), 0);  // across quads
  EXPECT_EQ(SumViaMatmul({kFp16PosInf, 0, 0, 0, kFp16NegInf, 0, 0, 0, H(3.0)}), H(3.0));
}

TEST(OracleMacRules, N2_7_ZeroResultsArePlusZero) {
  EXPECT_EQ(SumViaMatmul({H(-3.0), H(3.0)}), 0);
  EXPECT_EQ(SumViaMatmul({0x8000, 0x8000}), 0);
  const uint16_t a = H(-1.0), w = 0;
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &a, &w, 1).fp16, 0);
}

TEST(OracleMacRules, N2_3_M1FlushesDenormalOperandsAndResults) {
  const uint16_t d1 = 0x0001, d2 = 0x0200;  // denormals 2^-24 and 2^-15
  // A pair of denormals summed in a matmul, representable total, returns +0 on m1.
  EXPECT_EQ(SumViaMatmul({d1, d2}, Generation::kM1), 0);
  // m5 keeps them: 2^-24 + 2^-15 is the denormal 0x0201.
  EXPECT_EQ(SumViaMatmul({d1, d2}, Generation::kM5), 0x0201);
  // A normal x normal product that lands below 2^-14 leaves the m1 MAC as +0.
  const uint16_t a = H(0.0078125), w = H(0.0009765625);  // 2^-7 * 2^-10 = 2^-17
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &a, &w, 1).fp16, 0);
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM5, &a, &w, 1).fp16, 0x0080);
  // The flush looks at the result after RNE to fp16: 2^-14 - 2^-25 rounds up to 2^-14 and
  // survives on m1 (a flush decided before rounding would return +0).
  const uint16_t da[2] = {0x0400, 0x0800};              // 2^-14, 2^-13
  const uint16_t dw[2] = {H(1.0), H(-0.000244140625)};  // 1, -2^-12
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, da, dw, 2).fp16, 0x0400);
  // ... while 2^-14 - 2^-13 * 2^-11 = 2^-14 - 2^-24 rounds to the denormal 0x03FF: +0 on m1.
  const uint16_t dw2[2] = {H(1.0), H(-0.00048828125)};  // 1, -2^-11
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, da, dw2, 2).fp16, 0);
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM5, da, dw2, 2).fp16, 0x03FF);
}

TEST(OracleMacRules, N2_3_M5ProductOfTwoDenormalsSurvivesInTheAccumulator) {
  const uint16_t d = 0x0200;  // 2^-15
  const MacResult m5 = Reduce(MacMode::kFp16, Generation::kM5, &d, &d, 1);
  EXPECT_EQ(m5.acc, 0x30800000u);  // 2^-30 in fp32 (biased exponent 97)
  EXPECT_EQ(m5.fp16, 0);           // below the fp16 denormal range at the output port
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &d, &d, 1).acc, 0u);
}

TEST(OracleMacRules, N2_5_LoadedSlotContinuesAPartialSumAcrossPasses) {
  // Splitting a reduction at a quad boundary and reloading the raw slot gives the same bits.
  std::vector<uint16_t> v = Repeat({4096.0, -4096.0, 1.0}, 16);
  std::vector<uint16_t> ones(v.size(), H(1.0));
  const MacResult first = Reduce(MacMode::kFp16, Generation::kM1, v.data(), ones.data(), 24);
  const MacResult second = Reduce(MacMode::kFp16, Generation::kM1, v.data() + 24, ones.data(), 24, first.acc);
  EXPECT_EQ(second.fp16, H(4.0));  // Table 3.1: 4 survivors, split or not
  // A loaded slot counts as K >= 2 for the ceiling: one more product of 1 on 32767.5 is inf.
  const uint16_t one = H(1.0);
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &one, &one, 1, 0x46FFFE00u).fp16,
            kFp16PosInf);  // 32767 + 1 = 32768
}

TEST(OracleMacRules, N1_1_LoadedNanSlotActsAsPlusInf) {
  const uint16_t one = H(1.0), minus_inf = kFp16NegInf;
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &one, &one, 1, 0x7FC00001u).fp16, kFp16PosInf);
  EXPECT_EQ(Reduce(MacMode::kFp16, Generation::kM1, &minus_inf, &one, 1, 0xFFC00000u).fp16, 0);
  EXPECT_EQ(Reduce(MacMode::kCmpMin, Generation::kM1, &one, &one, 1, 0x7FC00000u).fp16, H(1.0));
}

// ---- N-2.1 mixed modes, N-2.8 integer MAC, N-2.9 compare ----

TEST(OracleMacModes, N2_1_Int8OperandIsConvertedExactlyToFp16) {
  const uint16_t data[3] = {0x80, 0x7F, 0xFF};  // -128, 127, -1
  const uint16_t w[3] = {H(0.5), H(2.0), H(1024.0)};
  EXPECT_EQ(Reduce(MacMode::kInt8xFp16, Generation::kM1, data, w, 3).fp16, H(-64.0 + 254.0 - 1024.0));
  EXPECT_EQ(Reduce(MacMode::kFp16xInt8, Generation::kM1, w, data, 3).fp16, H(-64.0 + 254.0 - 1024.0));
}

TEST(OracleMacModes, N2_8_Int8ProductsAreExactAndAccumulateInInt32) {
  const uint16_t a[4] = {0x80, 0x80, 0x7F, 0x01};  // -128, -128, 127, 1
  const uint16_t w[4] = {0x80, 0x7F, 0x7F, 0xFF};  // -128, 127, 127, -1
  const MacResult r = Reduce(MacMode::kInt8, Generation::kM1, a, w, 4);
  EXPECT_EQ(r.int32, 16384 - 16256 + 16129 - 1);
  EXPECT_FALSE(r.saturated);
}

TEST(OracleMacModes, N2_8_Int32AccumulatorSaturatesWithAStickyFlag) {
  const uint16_t a = 0x7F, w = 0x7F;
  MacResult r = Reduce(MacMode::kInt8, Generation::kM1, &a, &w, 1, 0x7FFFFF00u);
  EXPECT_EQ(r.int32, INT32_MAX);
  EXPECT_TRUE(r.saturated);
  const uint16_t neg = 0x81;  // -127
  r = Reduce(MacMode::kInt8, Generation::kM1, &neg, &w, 1, 0x80000100u);
  EXPECT_EQ(r.int32, INT32_MIN);
  EXPECT_TRUE(r.saturated);
  // Sticky: coming back into range keeps the flag.
  MacLane lane;
  lane.Load(0, 0x7FFFFF00u);
  lane.Step(MacMode::kInt8, a, w, 0, true);
  lane.Step(MacMode::kInt8, neg, w, 0, true);
  EXPECT_EQ(lane.ReadInt32(0), INT32_MAX - 16129);
  EXPECT_TRUE(lane.Saturated(0));
  // Saturation is checked once per quad (docs/numerics.md, interpretation 3): +16129 and
  // -16129 in one quad cancel before they reach the accumulator, so nothing saturates...
  const uint16_t pair_a[2] = {0x7F, 0x81}, pair_w[2] = {0x7F, 0x7F};
  r = Reduce(MacMode::kInt8, Generation::kM1, pair_a, pair_w, 2, 0x7FFFFF00u);
  EXPECT_EQ(r.int32, 0x7FFFFF00);
  EXPECT_FALSE(r.saturated);
  // 140000 products of 127 * 127 overflow int32 from a cleared slot.
  std::vector<uint16_t> big(140000, 0x7F);
  r = Reduce(MacMode::kInt8, Generation::kM1, big.data(), big.data(), big.size());
  EXPECT_EQ(r.int32, INT32_MAX);
  EXPECT_TRUE(r.saturated);
}

TEST(OracleMacModes, N2_8_Int4PackedModeFeedsFourConsecutiveSlots) {
  MacLane lane;
  // Data nibbles (bits [3:0] first): 1, 7, -1, -8. Kernel -3.
  lane.Step(MacMode::kInt4, 0x8F71, 0x000D, 2, false);
  lane.Step(MacMode::kInt4, 0x8F71, 0x0002, 2, true);  // kernel 2
  EXPECT_EQ(lane.ReadInt32(2), 1 * -3 + 1 * 2);
  EXPECT_EQ(lane.ReadInt32(3), 7 * -3 + 7 * 2);
  EXPECT_EQ(lane.ReadInt32(4), -1 * -3 + -1 * 2);
  EXPECT_EQ(lane.ReadInt32(5), -8 * -3 + -8 * 2);
  EXPECT_EQ(lane.ReadInt32(0), 0);
  EXPECT_EQ(lane.ReadInt32(6), 0);
  EXPECT_THROW(lane.Step(MacMode::kInt4, 0, 0, 5, true), std::out_of_range);
}

// N-2.8 as a matrix multiply: four rows of a share a data word. Judged by exact int64 dot
// products (no quad can saturate at these sizes) and by the int8 path over the same values.
TEST(OracleMacModes, N2_8_Int4MatmulGivesEachRowItsOwnDotProduct) {
  const uint64_t seed = test::TestSeed(4404);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int it = 0; it < 40; ++it) {
    Matrix a, b;
    a.type = b.type = ElemType::kInt8;
    a.rows = 1 + rng.Below(11);
    a.cols = b.rows = 1 + rng.Below(it < 20 ? 9 : 300);
    b.cols = 1 + rng.Below(4);
    for (int64_t i = 0; i < a.rows * a.cols; ++i) a.codes.push_back(uint16_t((rng.Below(16) - 8) & 0xFF));
    for (int64_t i = 0; i < b.rows * b.cols; ++i) b.codes.push_back(uint16_t((rng.Below(16) - 8) & 0xFF));
    const Generation gen = it % 2 ? Generation::kM5 : Generation::kM1;
    const MatmulResult y = MatmulInt4(a, b, gen);
    const MatmulResult y8 = Matmul(a, b, gen);
    ASSERT_TRUE(y.is_int);
    ASSERT_EQ(y.rows, a.rows);
    ASSERT_EQ(y.cols, b.cols);
    EXPECT_EQ(y.saturated_count, 0);
    for (int64_t r = 0; r < a.rows; ++r) {
      for (int64_t c = 0; c < b.cols; ++c) {
        int64_t want = 0;
        for (int64_t k = 0; k < a.cols; ++k) want += int64_t(int8_t(a.at(r, k))) * int8_t(b.at(k, c));
        ASSERT_EQ(y.int32[size_t(r * b.cols + c)], want) << "it " << it << " y[" << r << ", " << c << "]";
      }
    }
    EXPECT_EQ(y.int32, y8.int32);
  }
  // A worked case: rows 1, 7, -1, -8 and one more group; K = 2 (kernels -3, 2).
  Matrix a{ElemType::kInt8, 5, 2, {1, 1, 7, 7, 0xFF, 0xFF, 0xF8, 0xF8, 3, 0xFC}};
  Matrix b{ElemType::kInt8, 2, 1, {0xFD, 2}};
  EXPECT_EQ(MatmulInt4(a, b, Generation::kM1).int32, (std::vector<int32_t>{-1, -7, 1, 8, -9 - 8}));
}

TEST(OracleMacModes, N2_8_Int4MatmulRefusesValuesOutsideFourBits) {
  Matrix a{ElemType::kInt8, 1, 2, {7, 8}};
  Matrix b{ElemType::kInt8, 2, 1, {1, 1}};
  try {
    MatmulInt4(a, b, Generation::kM1);
    ADD_FAILURE() << "8 is not an int4";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "MatmulInt4: a[0, 1] = 8 is outside -8 .. 7");
  }
  b.codes = {0xF7, 1};  // -9
  a.codes = {7, 0xF8};
  EXPECT_THROW(MatmulInt4(a, b, Generation::kM1), std::invalid_argument);
  Matrix f{ElemType::kFp16, 1, 2, {0, 0}};
  EXPECT_THROW(MatmulInt4(f, b, Generation::kM1), std::invalid_argument);
  Matrix wrong{ElemType::kInt8, 3, 1, {1, 1, 1}};
  EXPECT_THROW(MatmulInt4(a, wrong, Generation::kM1), std::invalid_argument);
}

TEST(OracleMacModes, N2_9_CompareModeTakesMaxOrMinAfterTheBoundary) {
  const uint16_t data[5] = {H(-3.0), 0x7E00 /* NaN -> +inf */, H(2.0), 0x0001, H(-7.0)};
  const uint16_t w[5] = {};
  EXPECT_EQ(Reduce(MacMode::kCmpMax, Generation::kM1, data, w, 5).fp16, kFp16PosInf);
  EXPECT_EQ(Reduce(MacMode::kCmpMin, Generation::kM1, data, w, 5).fp16, H(-7.0));
  EXPECT_EQ(Reduce(MacMode::kCmpMax, Generation::kM1, data, w, 1).fp16, H(-3.0));
  // m1 treats the denormal as +0; m5 keeps it.
  const uint16_t small[2] = {H(-1.0), 0x0001};
  EXPECT_EQ(Reduce(MacMode::kCmpMax, Generation::kM1, small, w, 2).fp16, 0);
  EXPECT_EQ(Reduce(MacMode::kCmpMax, Generation::kM5, small, w, 2).fp16, 0x0001);
  // Compare mode holds the full fp16 range (no port ceiling).
  const uint16_t big[2] = {H(60000.0), H(40000.0)};
  EXPECT_EQ(Reduce(MacMode::kCmpMax, Generation::kM1, big, w, 2).fp16, H(60000.0));
}

// ---- N-7 determinism ----

TEST(OracleMacDeterminism, N7_1_RowResultDoesNotDependOnBatchSizeOrPosition) {
  Matrix a{ElemType::kFp16, 8, 40, {}};
  Matrix b{ElemType::kFp16, 40, 3, {}};
  uint32_t x = 12345;
  auto next = [&x]() {
    x = x * 1664525u + 1013904223u;
    return uint16_t((x >> 16) & 0x7BFF);  // finite codes of either sign
  };
  for (int i = 0; i < 8 * 40; ++i) a.codes.push_back(uint16_t(next() | ((i & 1) << 15)));
  for (int i = 0; i < 40 * 3; ++i) b.codes.push_back(next() & 0x3FFF);
  const MatmulResult batch = Matmul(a, b, Generation::kM1);
  for (int r = 0; r < 8; ++r) {
    Matrix row{ElemType::kFp16, 1, 40, {}};
    row.codes.assign(a.codes.begin() + r * 40, a.codes.begin() + (r + 1) * 40);
    const MatmulResult alone = Matmul(row, b, Generation::kM1);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(alone.fp16[size_t(c)], batch.fp16[size_t(r * 3 + c)]);
  }
}

TEST(OracleMacDeterminism, N7_2_MatmulEqualsMultiplyThenSameOrderReduction) {
  // A dot product written as a matmul and as products fed one by one to a lane agree.
  const std::vector<uint16_t> a = Repeat({3000.0, -2998.0, 0.125, 7.0}, 9);
  const std::vector<uint16_t> b = Repeat({0.5, 1.5, -2.0, 0.25}, 9);
  Matrix ma{ElemType::kFp16, 1, int64_t(a.size()), a};
  Matrix mb{ElemType::kFp16, int64_t(b.size()), 1, b};
  MacLane lane;
  for (size_t i = 0; i < a.size(); ++i) lane.Step(MacMode::kFp16, a[i], b[i], 5, i + 1 == a.size());
  EXPECT_EQ(Matmul(ma, mb, Generation::kM1).fp16[0], lane.ReadFp16(5));
}

}  // namespace
}  // namespace ane::oracle
