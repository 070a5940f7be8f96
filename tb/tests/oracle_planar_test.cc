// SPDX-License-Identifier: Apache-2.0
// The planar engine's oracle (tb/oracle/planar.h, NUMERICS N-4) checked on its own:
//   - N-4.4 tree nodes against host IEEE float (an fp32 RNE add), whole patches against a host
//     pairwise tree, the fp16 store at the top of the range, tensor reductions against a host
//     re-implementation;
//   - N-4.5 pooling: max / min against a host scan, the edge-correct mean against exact
//     rationals (GMP);
//   - N-4.1 / N-4.3 compare, ternary, int8 conversion and the format converter against the host;
//   - N-4.6 the width-slice figures (4094 -> 65504, 4095 -> inf) and the zero-offset control;
//   - N-4.7 the three softmax facts.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "tb/oracle/formats.h"
#include "tb/oracle/planar.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/planar_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::ReduceOp;
using oracle::Tensor3;
using test::H;
using test::HostBits;
using test::HostHalf;

uint32_t F32Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float F32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// N-1 on an fp16 code, as a host float.
float In(uint16_t h) {
  const uint16_t b = oracle::InputBoundary(h);
  return float(HostHalf(b));
}
// A host reference node: IEEE float, with inf + (-inf) = +0 (N-4.2).
float HostNode(ReduceOp op, float a, float b) {
  if (op == ReduceOp::kSum) {
    if (std::isinf(a) && std::isinf(b) && (a > 0) != (b > 0)) return 0.0f;
    const float s = a + b;
    return s == 0.0f ? 0.0f : s;  // an exact zero sum of opposite values is +0 (RNE)
  }
  return op == ReduceOp::kMax ? std::max(a, b) : std::min(a, b);
}
float HostIdentity(ReduceOp op) { return op == ReduceOp::kSum ? 0.0f : op == ReduceOp::kMax ? -INFINITY : INFINITY; }
float HostTree(ReduceOp op, const std::array<uint16_t, 64>& v, uint64_t valid) {
  std::vector<float> level;
  for (int i = 0; i < 64; ++i) level.push_back(((valid >> i) & 1) ? In(v[size_t(i)]) : HostIdentity(op));
  while (level.size() > 1) {
    std::vector<float> next;
    for (size_t i = 0; i < level.size(); i += 2) next.push_back(HostNode(op, level[i], level[i + 1]));
    level = next;
  }
  return level[0];
}
uint16_t HostStore(float f) { return oracle::InputBoundary(HostBits(static_cast<_Float16>(f))); }

const ReduceOp kOps[] = {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin};

// A random fp16 code with a mix of magnitudes, zeros, infinities and NaNs.
uint16_t RandomCode(test::Rng& rng) {
  const uint32_t kind = rng.Below(40);
  if (kind == 0) return 0x7C00 | uint16_t(rng.Below(2) << 15);
  if (kind == 1) return uint16_t(0x7C01 + rng.Below(0x3FF));
  if (kind == 2) return uint16_t(rng.Below(2) << 15);
  return uint16_t(rng.Code() & 0xFBFF) | uint16_t(rng.Below(2) ? 0 : 0x0400);
}

TEST(OraclePlanar, N4_4_NodeIsAnFp32RneAddOrAnExactMaxMin) {
  const uint64_t seed = test::TestSeed(0x44);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int i = 0; i < 300000; ++i) {
    // Operands: fp32 values that fp16 sums produce (wide spread of exponents), and infinities.
    auto pick = [&rng]() -> uint32_t {
      if (rng.Below(30) == 0) return rng.Below(2) ? 0x7F800000u : 0xFF800000u;
      const uint32_t e = 90 + rng.Below(60);
      return uint32_t(rng.Below(2) << 31) | (e << 23) | uint32_t(rng.Next() & 0x7FFFFF);
    };
    const uint32_t a = pick(), b = pick();
    for (ReduceOp op : kOps) {
      ASSERT_EQ(oracle::ReduceNode(op, a, b), F32Bits(HostNode(op, F32(a), F32(b))))
          << oracle::ReduceOpName(op) << std::hex << " 0x" << a << " 0x" << b;
    }
  }
}

TEST(OraclePlanar, N4_4_TreePairsNeighboursAtEveryLevel) {
  // 1 + 2^-24 ties to 1 in fp32, but 2^-24 + 2^-24 = 2^-23 survives: pairing (0,1), (2,3)
  // gives 1 + 2^-23; pairing (0,2), (1,3) would give 1 + 2^-23 too, but a left-to-right sum gives 1.
  std::array<uint16_t, 64> v{};
  v[0] = H(1.0);
  v[1] = v[2] = v[3] = 0x0001;  // 2^-24
  EXPECT_EQ(oracle::ReduceTree(ReduceOp::kSum, v, 0xF), 0x3F800001u);
  // Pairs (2i, 2i+1): put the tie-breaking pair across a level-1 boundary instead.
  v[1] = 0;
  v[2] = 0x0001;
  v[3] = 0;
  v[4] = 0x0001;  // level 1: (1, 0), (2^-24, 0), (2^-24, 0) -> level 2: 1 + 2^-24 -> ties to 1
  EXPECT_EQ(oracle::ReduceTree(ReduceOp::kSum, v, 0x1F), F32Bits(HostTree(ReduceOp::kSum, v, 0x1F)));
}

TEST(OraclePlanar, N4_4_RandomPatchesMatchAHostPairwiseTree) {
  const uint64_t seed = test::TestSeed(0x4404);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int i = 0; i < 20000; ++i) {
    std::array<uint16_t, 64> v{};
    for (auto& c : v) c = RandomCode(rng);
    const uint64_t valid = rng.Below(4) == 0 ? ~uint64_t(0) : rng.Next();
    for (ReduceOp op : kOps) {
      const uint32_t got = oracle::ReduceTree(op, v, valid);
      ASSERT_EQ(got, F32Bits(HostTree(op, v, valid))) << oracle::ReduceOpName(op) << " patch " << i;
    }
  }
}

TEST(OraclePlanar, N4_4_StoreKeepsThePlainFp16Range) {
  EXPECT_EQ(oracle::ReduceFinish(F32Bits(65504.0f)), 0x7BFF);
  EXPECT_EQ(oracle::ReduceFinish(F32Bits(65519.0f)), 0x7BFF);  // just above 65504 -> 65504
  EXPECT_EQ(oracle::ReduceFinish(F32Bits(65520.0f)), 0x7C00);  // from 65520: inf
  // A list: 4 x 16376 = 65504 exactly; one more 8 gives 65512 -> 65504; 16 more -> 65520 -> inf.
  std::vector<uint16_t> l(4, H(16376.0));
  EXPECT_EQ(oracle::ReduceList(ReduceOp::kSum, l), 0x7BFF);
  l.push_back(H(8.0));
  EXPECT_EQ(oracle::ReduceList(ReduceOp::kSum, l), 0x7BFF);
  l.push_back(H(8.0));
  EXPECT_EQ(oracle::ReduceList(ReduceOp::kSum, l), 0x7C00);
  // NaN enters as +inf (N-1.1); inf + (-inf) = +0 (N-4.2).
  EXPECT_EQ(oracle::ReduceList(ReduceOp::kMax, {H(1.0), 0x7E00, H(-3.0)}), 0x7C00);
  EXPECT_EQ(oracle::ReduceList(ReduceOp::kSum, {0x7C00, 0xFC00}), 0x0000);
}

// Tensor reductions against a host implementation of the same definition.
uint16_t HostList(ReduceOp op, const std::vector<uint16_t>& v) {
  float acc = HostIdentity(op);
  for (size_t p = 0; p < v.size(); p += 64) {
    std::array<uint16_t, 64> patch{};
    uint64_t valid = 0;
    for (size_t i = 0; i < 64 && p + i < v.size(); ++i) {
      patch[i] = v[p + i];
      valid |= uint64_t(1) << i;
    }
    acc = HostNode(op, acc, HostTree(op, patch, valid));
  }
  return HostStore(acc);
}

TEST(OraclePlanar, N4_4_TensorReductionsOverEveryAxis) {
  test::Rng rng(0x4444);
  for (int iter = 0; iter < 40; ++iter) {
    Tensor3 x{1 + int(rng.Below(5)), 1 + int(rng.Below(90)), 1 + int(rng.Below(90)), {}};
    for (int i = 0; i < x.c * x.h * x.w; ++i) x.codes.push_back(RandomCode(rng));
    for (ReduceOp op : kOps) {
      for (oracle::ReduceAxis axis : {oracle::ReduceAxis::kRows, oracle::ReduceAxis::kColumns,
                                      oracle::ReduceAxis::kPlanes, oracle::ReduceAxis::kChannels}) {
        const Tensor3 y = oracle::ReduceTensor(op, axis, x);
        size_t k = 0;
        const int outer = axis == oracle::ReduceAxis::kChannels ? 1 : x.c;
        for (int c = 0; c < outer; ++c) {
          const int n1 = axis == oracle::ReduceAxis::kRows      ? x.h
                         : axis == oracle::ReduceAxis::kColumns ? x.w
                         : axis == oracle::ReduceAxis::kPlanes  ? 1
                                                                : x.h * x.w;
          for (int o = 0; o < n1; ++o) {
            std::vector<uint16_t> l;
            if (axis == oracle::ReduceAxis::kRows) {
              for (int q = 0; q < x.w; ++q) l.push_back(x.at(c, o, q));
            } else if (axis == oracle::ReduceAxis::kColumns) {
              for (int r = 0; r < x.h; ++r) l.push_back(x.at(c, r, o));
            } else if (axis == oracle::ReduceAxis::kPlanes) {
              for (int r = 0; r < x.h; ++r)
                for (int q = 0; q < x.w; ++q) l.push_back(x.at(c, r, q));
            } else {
              for (int cc = 0; cc < x.c; ++cc) l.push_back(x.at(cc, o / x.w, o % x.w));
            }
            ASSERT_EQ(y.codes[k++], HostList(op, l)) << oracle::ReduceAxisName(axis) << " " << oracle::ReduceOpName(op);
          }
        }
        EXPECT_EQ(k, y.codes.size());
      }
    }
  }
}

// ---- N-4.5 pooling ----

// The exact mean rounded to fp16 (RNE, overflow to inf), from GMP rationals.
mpq_class Exact16(uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const long f = h & 0x3FF;
  mpq_class v = e == 0 ? mpq_class(f) : mpq_class(f | 0x400);
  const int exp = e == 0 ? -24 : e - 25;
  if (exp >= 0)
    v *= mpq_class(mpz_class(1) << exp);
  else
    v /= mpq_class(mpz_class(1) << -exp);
  return (h & 0x8000) ? mpq_class(-v) : v;
}
uint16_t RoundToFp16Exact(const mpq_class& q) {
  if (q >= mpq_class(65520)) return 0x7C00;
  if (q <= mpq_class(-65520)) return 0xFC00;
  // Candidates around the host's nearest guess; pick the nearest exactly, even on a tie.
  const uint16_t guess = HostBits(static_cast<_Float16>(q.get_d()));
  uint16_t best = guess;
  mpq_class best_d = abs(q - Exact16(guess));
  for (int d : {-2, -1, 1, 2}) {
    const int code = int(guess & 0x7FFF) + d;
    if (code < 0 || code > 0x7BFF) continue;
    const uint16_t c = uint16_t(code | (guess & 0x8000));
    const mpq_class dist = abs(q - Exact16(c));
    if (dist < best_d || (dist == best_d && (c & 1) == 0)) {
      best = c;
      best_d = dist;
    }
  }
  return (best & 0x7FFF) == 0 ? uint16_t(0) : best;
}

TEST(OraclePlanar, N4_5_MeanDividesTheSumExactlyOnce) {
  const uint64_t seed = test::TestSeed(0x4545);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int i = 0; i < 200000; ++i) {
    const int n = 1 + int(rng.Below(64));
    const uint32_t sum = F32Bits(float(HostHalf(uint16_t(rng.Code() & 0x7BFF))) * float(1 + rng.Below(64)) *
                                     (rng.Below(2) ? 1.0f : -1.0f) +
                                 float(HostHalf(uint16_t(rng.Code() & 0x3FFF))));
    const mpq_class exact = mpq_class(F32(sum)) / n;
    ASSERT_EQ(oracle::MeanFinish(sum, n), RoundToFp16Exact(exact)) << std::hex << sum << std::dec << " / " << n;
  }
  EXPECT_EQ(oracle::MeanFinish(F32Bits(3.0f), 3), H(1.0));
  EXPECT_EQ(oracle::MeanFinish(0x7F800000u, 5), 0x7C00);
  // Tiny sums down to the fp32 denormals (the quotient's exponent would leave the exact
  // type's range): every one rounds as the exact quotient does, to 0 or the fp16 denormals.
  for (int i = 0; i < 20000; ++i) {
    const int n = 1 + int(rng.Below(64));
    const uint32_t sum = (uint32_t(rng.Below(2)) << 31) | (rng.Below(111) << 23) | (uint32_t(rng.Next()) & 0x7FFFFF);
    const mpq_class exact = mpq_class(F32(sum)) / n;
    ASSERT_EQ(oracle::MeanFinish(sum, n), RoundToFp16Exact(exact)) << std::hex << sum << std::dec << " / " << n;
  }
  EXPECT_EQ(oracle::MeanFinish(0x00000001u, 3), 0);  // 2^-149 / 3
  EXPECT_EQ(oracle::MeanFinish(0x80000007u, 1), 0);  // -7 * 2^-149: +0 (N-1.2 zero)
}

TEST(OraclePlanar, N4_5_PoolingIsEdgeCorrect) {
  // 3x3 mean with padding 1 over a 3x3 plane of ones and a 10 in the corner: the corner window
  // holds 4 real elements, so its mean is (10 + 1 + 1 + 1) / 4 = 3.25, not 13 / 9.
  Tensor3 x{1, 3, 3, std::vector<uint16_t>(9, H(1.0))};
  x.codes[0] = H(10.0);
  oracle::ConvGeometry g;
  g.height = g.width = 3;
  g.kernel_h = g.kernel_w = 3;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
  const Tensor3 mean = oracle::Pool(oracle::PoolOp::kMean, g, x);
  ASSERT_EQ(mean.codes.size(), 9u);
  EXPECT_EQ(mean.codes[0], H(3.25));
  EXPECT_EQ(mean.codes[1], H(2.5));  // 6 real elements: (10 + 5) / 6
  EXPECT_EQ(mean.codes[4], H(2.0));  // all 9: 18 / 9
  EXPECT_EQ(mean.codes[8], H(1.0));  // the far corner: 4 ones
  // Max pooling of negative values is not lifted to 0 by the padding.
  Tensor3 neg{1, 3, 3, std::vector<uint16_t>(9, H(-2.0))};
  for (uint16_t v : oracle::Pool(oracle::PoolOp::kMax, g, neg).codes) EXPECT_EQ(v, H(-2.0));
}

TEST(OraclePlanar, N4_5_RandomPoolingMatchesAHostScan) {
  const uint64_t seed = test::TestSeed(0x4546);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int iter = 0; iter < 300; ++iter) {
    oracle::ConvGeometry g;
    test::RandomPoolWindow(rng, &g);
    g.channels = 1 + int(rng.Below(3));
    g.height = g.kernel_h + int(rng.Below(12));
    g.width = g.kernel_w + int(rng.Below(12));
    ASSERT_EQ(oracle::CheckPoolGeometry(g), "");
    Tensor3 x{g.channels, g.height, g.width, {}};
    for (int i = 0; i < g.channels * g.height * g.width; ++i) x.codes.push_back(RandomCode(rng));
    for (oracle::PoolOp op : {oracle::PoolOp::kMax, oracle::PoolOp::kMin, oracle::PoolOp::kMean}) {
      const Tensor3 y = oracle::Pool(op, g, x);
      size_t k = 0;
      for (int c = 0; c < g.channels; ++c) {
        for (int oy = 0; oy < g.OutHeight(); ++oy) {
          for (int ox = 0; ox < g.OutWidth(); ++ox) {
            std::array<uint16_t, 64> patch{};
            uint64_t valid = 0;
            int n = 0;
            for (int ky = 0; ky < g.kernel_h; ++ky) {
              for (int kx = 0; kx < g.kernel_w; ++kx) {
                const int iy = oy * g.stride_y - g.pad_top + ky, ix = ox * g.stride_x - g.pad_left + kx;
                if (iy < 0 || iy >= g.height || ix < 0 || ix >= g.width) continue;
                patch[size_t(8 * ky + kx)] = x.at(c, iy, ix);
                valid |= uint64_t(1) << (8 * ky + kx);
                ++n;
              }
            }
            uint16_t want;
            if (op == oracle::PoolOp::kMean) {
              const float s = HostTree(ReduceOp::kSum, patch, valid);
              want = std::isinf(s) ? (s > 0 ? 0x7C00 : 0xFC00) : RoundToFp16Exact(mpq_class(s) / n);
            } else {
              want = HostStore(HostTree(op == oracle::PoolOp::kMax ? ReduceOp::kMax : ReduceOp::kMin, patch, valid));
            }
            ASSERT_EQ(y.codes[k++], want) << oracle::PoolOpName(op) << " iter " << iter;
          }
        }
      }
    }
  }
}

// ---- N-4.1 / N-4.3 ----

TEST(OraclePlanar, N4_1_CompareGivesPlusOneZeroMinusOne) {
  EXPECT_EQ(oracle::Compare(H(2.0), H(1.0)), H(1.0));
  EXPECT_EQ(oracle::Compare(H(1.0), H(2.0)), H(-1.0));
  EXPECT_EQ(oracle::Compare(0x8000, 0x0000), 0);  // -0 == +0
  EXPECT_EQ(oracle::Compare(0x7E00, 0x7C00), 0);  // NaN enters as +inf
  EXPECT_EQ(oracle::Compare(0x7E00, H(65504.0)), H(1.0));
  EXPECT_EQ(oracle::Compare(0x0001, 0x0000), H(1.0));  // denormals kept
}

TEST(OraclePlanar, N4_3_TernaryRoundsAfterEachOperation) {
  test::Rng rng(0x4343);
  for (int i = 0; i < 500000; ++i) {
    uint16_t a = rng.Code(), b = rng.Code(), c = rng.Code();
    if (((a >> 10) & 0x1F) == 0x1F || ((b >> 10) & 0x1F) == 0x1F || ((c >> 10) & 0x1F) == 0x1F) continue;
    // Two chained fp16 operations, each with the N-1 boundary on its operands (the
    // intermediate too: a -0 intermediate enters the second operation as +0).
    const _Float16 bc = static_cast<_Float16>(In(b) * In(c));
    const _Float16 want1 = static_cast<_Float16>(In(a) + In(HostBits(bc)));
    const _Float16 ab = static_cast<_Float16>(In(a) + In(b));
    const _Float16 want2 = static_cast<_Float16>(In(HostBits(ab)) * In(c));
    auto fix = [](_Float16 h) {  // indeterminate forms give +0 (N-4.2), never NaN
      const uint16_t bits = HostBits(h);
      return ((bits >> 10) & 0x1F) == 0x1F && (bits & 0x3FF) ? uint16_t(0) : bits;
    };
    ASSERT_EQ(oracle::Ternary(oracle::TernaryOp::kAddMul, a, b, c), fix(want1))
        << std::hex << a << " " << b << " " << c;
    ASSERT_EQ(oracle::Ternary(oracle::TernaryOp::kMulAfterAdd, a, b, c), fix(want2))
        << std::hex << a << " " << b << " " << c;
  }
}

TEST(OraclePlanar, N4_1_Int8ConversionsOverEveryCode) {
  for (int q = -128; q <= 127; ++q) {
    EXPECT_EQ(oracle::Int8ToFp16(int8_t(q)), H(double(q)));
  }
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint16_t b = oracle::InputBoundary(uint16_t(h));
    const double v = double(HostHalf(b));
    const double r = std::nearbyint(v);  // RNE, the host's default rounding mode
    const int want = std::isinf(v) ? (v > 0 ? 127 : -128) : int(std::clamp(r, -128.0, 127.0));
    ASSERT_EQ(int(oracle::Fp16ToInt8(uint16_t(h))), want) << std::hex << h;
  }
}

// ---- N-4.1 / N-4.6 the format converter ----

TEST(OraclePlanar, N4_1_FormatConverterHandWorkedValues) {
  using oracle::FcConfig;
  using oracle::FcUnary;
  FcConfig c;
  c.in_int8 = true;
  c.scale = H(0.5);
  c.bias = H(0.25);
  EXPECT_EQ(oracle::FormatConvert(c, 0xFD), H(-1.25));  // int8 -3: -3 * 0.5 + 0.25
  c.unary = FcUnary::kRelu;
  EXPECT_EQ(oracle::FormatConvert(c, 0xFD), 0);
  c.unary = FcUnary::kAbs;
  EXPECT_EQ(oracle::FormatConvert(c, 0xFD), H(1.25));
  c.out_int8 = true;
  EXPECT_EQ(oracle::FormatConvert(c, 0xFD), 1);  // 1.25 -> 1
  c.unary = FcUnary::kNeg;
  c.bias = H(-1.0);
  EXPECT_EQ(oracle::FormatConvert(c, 0x03), 0x0000);  // -(3 * 0.5 - 1) = -0.5 -> RNE: 0
  c = FcConfig{};
  c.out_int8 = true;
  EXPECT_EQ(oracle::FormatConvert(c, H(-2.5)), 0xFFFE);   // RNE: -2
  EXPECT_EQ(oracle::FormatConvert(c, H(200.0)), 0x007F);  // clamped
  EXPECT_EQ(oracle::FormatConvert(c, 0x7E00), 0x007F);    // NaN -> +inf -> 127
  // N-4.6 through the converter: 4094 -> 65504, 4095 (enters as 4096) -> inf; no gain: as is.
  c = FcConfig{};
  c.gain = true;
  EXPECT_EQ(oracle::FormatConvert(c, H(4094.0)), H(65504.0));
  EXPECT_EQ(oracle::FormatConvert(c, H(4096.0)), 0x7C00);
  c.gain = false;
  EXPECT_EQ(oracle::FormatConvert(c, H(4094.0)), H(4094.0));
  // The identity configuration applies N-1 only.
  EXPECT_EQ(oracle::FormatConvert(FcConfig{}, 0x8000), 0);
  EXPECT_EQ(oracle::FormatConvert(FcConfig{}, 0xFE01), 0x7C00);
  EXPECT_EQ(oracle::FormatConvert(FcConfig{}, 0x0001), 0x0001);
}

// Random finite operands against the host: _Float16 values, each step rounded once from an
// exact double.
TEST(OraclePlanar, N4_1_FormatConverterMatchesTheHost) {
  using oracle::FcConfig;
  using oracle::FcUnary;
  const uint64_t seed = test::TestSeed(0x41FC);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  auto finite = [&] {
    for (;;) {
      const uint16_t h = rng.Code();
      if ((h & 0x7C00) != 0x7C00 && h != 0x8000) return h;
    }
  };
  for (int i = 0; i < 200000; ++i) {
    FcConfig c;
    c.in_int8 = rng.Below(4) == 0;
    c.scale = rng.Below(4) == 0 ? uint16_t(0x3C00) : finite();
    c.bias = rng.Below(4) == 0 ? uint16_t(0) : finite();
    c.unary = FcUnary(rng.Below(4));
    c.gain = rng.Below(4) == 0;
    c.out_int8 = rng.Below(3) == 0;
    const uint16_t lane = c.in_int8 ? uint16_t(rng.Below(256)) : finite();
    const double x = c.in_int8 ? double(int8_t(lane)) : double(HostHalf(lane));
    _Float16 p = _Float16(x * double(HostHalf(c.scale)));
    if (HostBits(p) == 0x8000) p = _Float16(0.0);  // a -0 product enters the adder as +0
    _Float16 s = _Float16(double(p) + double(HostHalf(c.bias)));
    if (HostBits(s) == 0x8000) s = _Float16(0.0);  // the elementwise add gives +0 for zero
    const double sd = double(s);
    double u = sd;
    if (c.unary == FcUnary::kAbs) u = std::fabs(u);
    if (c.unary == FcUnary::kNeg) u = -u;
    if (c.unary == FcUnary::kRelu) u = u > 0 ? u : 0.0;
    _Float16 g = _Float16(u);
    if (c.gain) g = _Float16(std::signbit(u) && u == 0 ? 0.0 : u * 16.0);
    uint16_t want = HostBits(g);
    if (c.out_int8) {
      const double v = double(g);
      const double r = std::isinf(v) ? v : std::nearbyint(v);
      want = uint16_t(int16_t(int(std::clamp(r, -128.0, 127.0))));
    }
    ASSERT_EQ(oracle::FormatConvert(c, lane), want)
        << std::hex << "lane " << lane << " scale " << c.scale << " bias " << c.bias << " unary " << int(c.unary)
        << " gain " << c.gain << " out_int8 " << c.out_int8;
  }
}

// ---- N-4.6 ----

TEST(OraclePlanar, N4_6_WidthSliceGainAndItsControls) {
  using oracle::Generation;
  EXPECT_EQ(oracle::WidthSliceStore(H(4094.0), true, 1, Generation::kM1), H(65504.0));
  // 4095 is not an fp16 value: it enters as 4096 and the gain overflows.
  EXPECT_EQ(H(4096.0), oracle::RoundToFp16(oracle::Exact::FromSigned(4095)));
  EXPECT_EQ(oracle::WidthSliceStore(oracle::RoundToFp16(oracle::Exact::FromSigned(4095)), true, 3, Generation::kM1),
            0x7C00);
  EXPECT_EQ(oracle::WidthSliceStore(H(4094.0), true, 0, Generation::kM1), H(4094.0));   // zero offset
  EXPECT_EQ(oracle::WidthSliceStore(H(4094.0), false, 2, Generation::kM1), H(4094.0));  // other axis
  EXPECT_EQ(oracle::WidthSliceStore(H(4094.0), true, 2, Generation::kM5), H(4094.0));   // m5
}

// ---- N-4.7 ----

TEST(OraclePlanar, N4_7_SoftmaxFacts) {
  // Four equal values: four quarters.
  for (double v : {0.0, 1.5, -7.0, 30000.0}) {
    const auto y = oracle::Softmax({H(v), H(v), H(v), H(v)});
    for (uint16_t q : y) EXPECT_EQ(q, H(0.25)) << v;
  }
  // A huge input does not overflow: it takes (almost) all the mass, the others get 0.
  const auto big = oracle::Softmax({H(60000.0), H(1.0), H(-3.0)});
  EXPECT_EQ(big[0], H(1.0));
  EXPECT_EQ(big[1], 0);
  EXPECT_EQ(big[2], 0);
  // A NaN lane enters as +inf: inf - inf = +0, exp(0) = 1, every other lane exp(-inf) = 0.
  const auto nan = oracle::Softmax({H(2.0), 0x7E00, H(5.0), H(-1.0)});
  EXPECT_EQ(nan[1], H(1.0));
  EXPECT_EQ(nan[0], 0);
  EXPECT_EQ(nan[2], 0);
  EXPECT_EQ(nan[3], 0);
}

}  // namespace
}  // namespace ane
