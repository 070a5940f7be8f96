// SPDX-License-Identifier: Apache-2.0
// The post-processor of the oracle (NUMERICS N-3) checked on its own: the LFSR against its
// documented recurrence and for a maximal period, stochastic rounding against its defining
// properties (N-3.4), requantization and the int -> fp16 store against integer and host
// references (N-3.3), and the scale / bias / activation chain against host _Float16 (N-3.1,
// N-3.2).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <vector>

#include "tb/oracle/mac.h"
#include "tb/oracle/postproc.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::ChannelParams;
using oracle::Generation;
using oracle::PostAct;
using oracle::PostConfig;
using oracle::PostProcessor;
using oracle::PostStore;
using test::H;
using test::HostBits;
using test::HostHalf;

double D(uint16_t h) { return static_cast<double>(HostHalf(h)); }
uint32_t F32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// ---- N-3.4 the LFSR ----

// The documented recurrence written on the output bit stream: b_t = b_{t-32} ^ b_{t-22} ^
// b_{t-2} ^ b_{t-1}, the seed's bit j being b_{-1-j}; draw i is the `width` newest bits after
// 16 (i + 1) steps, newest bit in bit 0.
TEST(OraclePostproc, N3_4_LfsrDrawsFollowTheDocumentedRecurrence) {
  const uint32_t seed = 0xACE1u;
  std::deque<int> bits;  // oldest first
  for (int j = 31; j >= 0; --j) bits.push_back((seed >> j) & 1);
  oracle::SrLfsr lfsr(seed);
  for (int draw = 0; draw < 2000; ++draw) {
    for (int s = 0; s < 16; ++s) {
      const size_t n = bits.size();
      bits.push_back(bits[n - 32] ^ bits[n - 22] ^ bits[n - 2] ^ bits[n - 1]);
    }
    uint32_t want = 0;
    for (int j = 0; j < 13; ++j) want |= uint32_t(bits[bits.size() - 1 - size_t(j)]) << j;
    ASSERT_EQ(lfsr.Draw(13), want) << "draw " << draw;
  }
}

// GF(2) 32x32 matrices as 32 column words.
using Mat = std::array<uint32_t, 32>;
Mat Mul(const Mat& a, const Mat& b) {  // a * b
  Mat r{};
  for (int c = 0; c < 32; ++c) {
    uint32_t col = 0;
    for (int k = 0; k < 32; ++k) {
      if ((b[size_t(c)] >> k) & 1) col ^= a[size_t(k)];
    }
    r[size_t(c)] = col;
  }
  return r;
}
Mat Power(Mat m, uint64_t e) {
  Mat r{};
  for (int i = 0; i < 32; ++i) r[size_t(i)] = 1u << i;
  while (e) {
    if (e & 1) r = Mul(r, m);
    m = Mul(m, m);
    e >>= 1;
  }
  return r;
}

// The step is a linear map; its order is 2^32 - 1 (a maximal-length LFSR) when M^(2^32-1) = I
// and M^((2^32-1)/p) != I for each prime p of 2^32 - 1 = 3 * 5 * 17 * 257 * 65537.
TEST(OraclePostproc, N3_4_LfsrHasMaximalPeriod) {
  Mat step{};
  for (int i = 0; i < 32; ++i) {
    oracle::SrLfsr l(1u << i);
    l.Step();
    step[size_t(i)] = l.state();
  }
  const uint64_t period = (uint64_t(1) << 32) - 1;
  Mat id{};
  for (int i = 0; i < 32; ++i) id[size_t(i)] = 1u << i;
  EXPECT_EQ(Power(step, period), id);
  for (uint64_t p : {3ull, 5ull, 17ull, 257ull, 65537ull}) {
    EXPECT_NE(Power(step, period / p), id) << "order divides (2^32-1)/" << p;
  }
}

// ---- N-3.4 stochastic rounding ----

// Over every draw of a `width`-bit random value, the mean of the rounded results is |a|
// truncated to `width` bits below the fp16 LSB (the defining property: unbiased), and each
// result is one of the two fp16 neighbours.
TEST(OraclePostproc, N3_4_StochasticRoundingIsUnbiasedOverAllDraws) {
  const uint64_t seed = test::TestSeed(41);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int iter = 0; iter < 3000; ++iter) {
    const int width = 1 + int(rng.Below(8));
    // fp32 values in the normal fp16 range, either sign.
    const float mag = std::ldexp(float(1 + rng.Below(1u << 23)) / float(1u << 23), int(rng.Below(29)) - 14);
    const float a = rng.Below(2) ? -mag : mag;
    const double ad = std::fabs(double(a));
    int e = 0;
    std::frexp(ad, &e);
    const double ulp = std::ldexp(1.0, std::max(e - 1, -14) - 10);  // 2^-24 below 2^-14
    const double lo = std::floor(ad / ulp) * ulp;
    double sum = 0;
    for (uint32_t r = 0; r < (1u << width); ++r) {
      const uint16_t y = oracle::StochasticRound(F32(a), r, width, Generation::kM5);
      const double v = std::fabs(D(y));
      if (y == 0x7C00 || y == 0xFC00) {
        ASSERT_GE(lo + ulp, 65520.0);
        sum += lo + ulp;
        continue;
      }
      ASSERT_TRUE(v == lo || v == lo + ulp) << a << " r " << r;
      if (v != 0) {
        ASSERT_EQ(std::signbit(D(y)), a < 0);
      }
      sum += v;
    }
    const double trunc_w = std::floor(ad / ulp * std::ldexp(1.0, width)) * ulp / std::ldexp(1.0, width);
    ASSERT_EQ(sum / std::ldexp(1.0, width), trunc_w) << "a = " << a << " width " << width;
  }
}

TEST(OraclePostproc, N3_4_StochasticRoundingDirectedCases) {
  const Generation m1 = Generation::kM1, m5 = Generation::kM5;
  // Representable values never move.
  for (uint32_t r : {0u, 1u, 4095u, 8191u}) {
    EXPECT_EQ(oracle::StochasticRound(F32(1.0f), r, 13, m1), H(1.0));
    EXPECT_EQ(oracle::StochasticRound(F32(-3.5f), r, 13, m1), H(-3.5));
  }
  // Half an ulp above 1: width 1 rounds down with r = 0, up with r = 1.
  const float half = 1.0f + std::ldexp(1.0f, -11);
  EXPECT_EQ(oracle::StochasticRound(F32(half), 0, 1, m1), H(1.0));
  EXPECT_EQ(oracle::StochasticRound(F32(half), 1, 1, m1), H(1.0 + std::ldexp(1.0, -10)));
  // Only `width` bits take part: a quarter ulp is invisible at width 1.
  const float quarter = 1.0f + std::ldexp(1.0f, -12);
  EXPECT_EQ(oracle::StochasticRound(F32(quarter), 1, 1, m1), H(1.0));
  EXPECT_EQ(oracle::StochasticRound(F32(quarter), 3, 2, m1), H(1.0 + std::ldexp(1.0, -10)));
  // Above 65504 only a carry into 65536 overflows.
  EXPECT_EQ(oracle::StochasticRound(F32(65519.0f), 0, 13, m1), H(65504));
  EXPECT_EQ(oracle::StochasticRound(F32(65519.0f), 8191, 13, m1), 0x7C00);
  EXPECT_EQ(oracle::StochasticRound(F32(1e6f), 0, 13, m1), 0x7C00);
  EXPECT_EQ(oracle::StochasticRound(F32(-1e6f), 0, 13, m1), 0xFC00);
  // Infinity passes, zero is +0, a NaN code is +inf (N-1.1).
  EXPECT_EQ(oracle::StochasticRound(0xFF800000u, 5, 13, m1), 0xFC00);
  EXPECT_EQ(oracle::StochasticRound(0x80000000u, 8191, 13, m1), 0);
  EXPECT_EQ(oracle::StochasticRound(0x7FC00000u, 0, 13, m1), 0x7C00);
  // m1 flushes a denormal result (N-2.3), m5 keeps it; a truncated tiny negative is +0.
  const float tiny = std::ldexp(1.0f, -20);
  EXPECT_EQ(oracle::StochasticRound(F32(tiny), 0, 13, m1), 0);
  EXPECT_EQ(oracle::StochasticRound(F32(tiny), 0, 13, m5), H(std::ldexp(1.0, -20)));
  EXPECT_EQ(oracle::StochasticRound(F32(-std::ldexp(1.0f, -26)), 0, 13, m5), 0);
  EXPECT_EQ(oracle::StochasticRound(F32(-std::ldexp(1.0f, -26)), 8191, 13, m5), H(-std::ldexp(1.0, -24)));
}

// ---- N-3.3 requantization and the int -> fp16 store ----

int32_t RequantRef(int64_t acc, int shift) {
  int64_t q = acc >> shift;  // floor
  if (shift > 0) {
    const int64_t rem = acc - (q << shift), half = int64_t(1) << (shift - 1);
    if (rem > half || (rem == half && (q & 1))) ++q;
  }
  return int32_t(q > 127 ? 127 : (q < -128 ? -128 : q));
}

TEST(OraclePostproc, N3_3_RequantizeRoundsToNearestEvenAndClamps) {
  EXPECT_EQ(oracle::Requantize(3, 1), 2);
  EXPECT_EQ(oracle::Requantize(5, 1), 2);
  EXPECT_EQ(oracle::Requantize(-3, 1), -2);
  EXPECT_EQ(oracle::Requantize(-5, 1), -2);
  EXPECT_EQ(oracle::Requantize(7, 2), 2);
  EXPECT_EQ(oracle::Requantize(1000, 0), 127);
  EXPECT_EQ(oracle::Requantize(-1000, 0), -128);
  EXPECT_EQ(oracle::Requantize(INT32_MIN, 31), -1);
  EXPECT_EQ(oracle::Requantize(INT32_MAX, 31), 1);
  EXPECT_EQ(oracle::Requantize(INT32_MAX, 24), 127);
  const uint64_t seed = test::TestSeed(43);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int i = 0; i < 1000000; ++i) {
    const int32_t acc = int32_t(uint32_t(rng.Next()) >> rng.Below(32)) * (rng.Below(2) ? 1 : -1);
    const int shift = int(rng.Below(32));
    ASSERT_EQ(oracle::Requantize(acc, shift), RequantRef(acc, shift)) << acc << " >> " << shift;
  }
}

TEST(OraclePostproc, N3_3_IntToFp16MatchesTheHost) {
  const uint64_t seed = test::TestSeed(44);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int i = 0; i < 1000000; ++i) {
    const int32_t acc = int32_t(uint32_t(rng.Next()) >> rng.Below(32)) * (rng.Below(2) ? 1 : -1);
    const int shift = int(rng.Below(32));
    uint16_t want = HostBits(static_cast<_Float16>(std::ldexp(double(acc), -shift)));
    if (want == 0x8000) want = 0;
    ASSERT_EQ(oracle::IntToFp16(acc, shift), want) << acc << " >> " << shift;
  }
}

// ---- N-3.1, N-3.2 the fp16 chain ----

uint16_t HostChain(uint16_t r, uint16_t s, uint32_t b32, bool relu) {
  auto boundary = [](uint16_t h) -> uint16_t {
    if (((h >> 10) & 0x1F) == 0x1F && (h & 0x3FF)) return 0x7C00;
    return h == 0x8000 ? 0 : h;
  };
  r = boundary(r), s = boundary(s);
  const double rd = D(r), sd = D(s);
  uint16_t p = ((std::isinf(rd) && sd == 0) || (rd == 0 && std::isinf(sd))) ? uint16_t(0)
                                                                            : HostBits(static_cast<_Float16>(rd * sd));
  float bf;
  std::memcpy(&bf, &b32, 4);
  uint16_t b16 = std::isnan(bf) ? uint16_t(0x7C00) : HostBits(static_cast<_Float16>(bf));
  p = boundary(p), b16 = boundary(b16);
  const double sum = D(p) + D(b16);
  uint16_t y = std::isnan(sum) ? uint16_t(0) : HostBits(static_cast<_Float16>(sum));
  if (relu) {
    y = boundary(y);
    if (D(y) < 0) y = 0;
  }
  return y;
}

TEST(OraclePostproc, N3_1_ScaleBiasReluChainMatchesTheHost) {
  const uint64_t seed = test::TestSeed(45);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  PostConfig cfg;
  cfg.gen = Generation::kM5;
  cfg.scale_en = cfg.bias_en = true;
  for (bool relu : {false, true}) {
    cfg.act = relu ? PostAct::kRelu : PostAct::kNone;
    PostProcessor pp(cfg);
    for (int i = 0; i < 200000; ++i) {
      const uint16_t r = rng.Code();
      const uint32_t acc = oracle::Fp16ToFp32(r);  // exact; the port returns r (m5, no NaN)
      ChannelParams ch;
      ch.scale = rng.Code();
      ch.bias = uint32_t(rng.Next());
      const std::vector<uint16_t> got = pp.Process({acc}, ch);
      const uint16_t port = oracle::OutputPort(acc, Generation::kM5);
      ASSERT_EQ(got[0], HostChain(port, ch.scale, ch.bias, relu))
          << std::hex << "r " << r << " s " << ch.scale << " b " << ch.bias;
    }
  }
}

TEST(OraclePostproc, N3_2_ReluDirectedCases) {
  PostConfig cfg;
  cfg.act = PostAct::kRelu;
  PostProcessor pp(cfg);
  const ChannelParams ch;
  EXPECT_EQ(pp.Process({0x7F800000u}, ch)[0], 0x7C00) << "relu(+inf) = +inf";
  EXPECT_EQ(pp.Process({0x7FC00000u}, ch)[0], 0x7C00) << "relu(NaN) = +inf (N-1.1)";
  EXPECT_EQ(pp.Process({F32(-5.0f)}, ch)[0], 0);
  EXPECT_EQ(pp.Process({0x80000000u}, ch)[0], 0);
  EXPECT_EQ(pp.Process({F32(2.5f)}, ch)[0], H(2.5));
  // int8 store with ReLU.
  PostConfig icfg;
  icfg.int_acc = true;
  icfg.store = PostStore::kInt8;
  icfg.shift = 2;
  icfg.act = PostAct::kRelu;
  PostProcessor ip(icfg);
  EXPECT_EQ(ip.Process({uint32_t(-100)}, ch)[0], 0);
  EXPECT_EQ(ip.Process({uint32_t(10)}, ch)[0], 2);  // 2.5 -> 2 (even)
  EXPECT_EQ(ip.Process({uint32_t(1000)}, ch)[0], 127);
  icfg.act = PostAct::kNone;
  PostProcessor ip2(icfg);
  EXPECT_EQ(ip2.Process({uint32_t(-1000)}, ch)[0], 0xFF80) << "-128 sign-extended";
}

// Stochastic rounding in the post-processor draws once per lane, in lane order.
TEST(OraclePostproc, N3_4_DrawsGoInLaneOrder) {
  PostConfig cfg;
  cfg.sr = true;
  cfg.sr_width = 13;
  cfg.sr_seed = 0x1234567u;
  PostProcessor pp(cfg);
  oracle::SrLfsr lfsr(cfg.sr_seed);
  std::vector<uint32_t> acc;
  for (int i = 0; i < 16; ++i) acc.push_back(F32(1.0f + float(i) * 0.00037f));
  for (int vec = 0; vec < 3; ++vec) {
    const std::vector<uint16_t> got = pp.Process(acc, {});
    for (size_t i = 0; i < acc.size(); ++i) {
      EXPECT_EQ(got[i], oracle::StochasticRound(acc[i], lfsr.Draw(13), 13, Generation::kM1));
    }
  }
  EXPECT_EQ(pp.lfsr_state(), lfsr.state());
}

TEST(OraclePostproc, N3_ConfigurationErrorsAreNamed) {
  PostConfig c;
  c.sr = true;
  c.sr_seed = 0;
  EXPECT_NE(oracle::ValidatePostConfig(c).find("sr_seed"), std::string::npos);
  c = PostConfig();
  c.sr = true;
  c.sr_width = 14;
  EXPECT_NE(oracle::ValidatePostConfig(c).find("sr_width"), std::string::npos);
  c = PostConfig();
  c.store = PostStore::kInt8;
  EXPECT_NE(oracle::ValidatePostConfig(c).find("int8"), std::string::npos);
  c = PostConfig();
  c.int_acc = true;
  c.shift = 32;
  EXPECT_NE(oracle::ValidatePostConfig(c).find("shift"), std::string::npos);
  EXPECT_THROW(PostProcessor{c}, std::invalid_argument);
  EXPECT_EQ(oracle::ValidatePostConfig(PostConfig()), "");
}

}  // namespace
}  // namespace ane
