// SPDX-License-Identifier: Apache-2.0
// The oracle's compressed-kernel codec and schedule (tb/oracle/kernel_codec.h, NUMERICS N-6)
// checked on its own before it judges the kernel-extract RTL:
//   - N-6.1 quantization against exact rationals (GMP) and dequantization against host _Float16;
//   - streams written by hand from docs/kernel_extract.md decode to the stated coefficients;
//   - encode -> decode round trips for every format, sparse or dense, one or two kernels;
//   - the schedule's order and skip rule, and (N-6.3) that skipping changes no MAC result,
//     while dropping single zero products would.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "tb/oracle/kernel_codec.h"
#include "tb/oracle/mac.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::DecodedGroup;
using oracle::KernelFormat;
using oracle::KernelGroup;
using oracle::KernelOp;
using oracle::KernelSpec;
using test::H;
using test::HostBits;
using test::HostHalf;

mpq_class Exact16(uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const long f = h & 0x3FF;
  mpq_class v = e == 0 ? mpq_class(f) : mpq_class(f | 0x400);
  const int exp = e == 0 ? -24 : e - 25;
  if (exp >= 0) {
    v *= mpq_class(mpz_class(1) << exp);
  } else {
    v /= mpq_class(mpz_class(1) << -exp);
  }
  return (h & 0x8000) ? mpq_class(-v) : v;
}

// RNE of a rational to an integer, then clamp to [-127, 127], all in exact arithmetic.
int ExactQuantize(uint16_t w, uint16_t scale) {
  const mpq_class t = Exact16(w) / Exact16(scale);
  const mpq_class a = abs(t);
  mpz_class fl = a.get_num() / a.get_den();
  const mpq_class frac = a - mpq_class(fl);
  if (frac > mpq_class(1, 2) || (frac == mpq_class(1, 2) && mpz_class(fl % 2) != 0)) fl += 1;
  long q = fl > 127 ? 127 : fl.get_si();
  return t < 0 ? int(-q) : int(q);
}

bool Finite(uint16_t h) { return ((h >> 10) & 0x1F) != 0x1F; }

TEST(OracleKernelCodec, N6_1_QuantizationIsExactRneAndClamps) {
  const uint64_t seed = test::TestSeed(0x6101);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  // Every finite w against a few scales, then random pairs.
  for (uint16_t scale : {H(1.0), H(0.0078125), uint16_t(0x34CD) /* 0.3 */, H(-2.5), uint16_t(0x0001), H(65504.0)}) {
    for (uint32_t w = 0; w < 0x10000; ++w) {
      if (!Finite(uint16_t(w))) continue;
      ASSERT_EQ(oracle::QuantizeInt8(uint16_t(w), scale), ExactQuantize(uint16_t(w), scale))
          << std::hex << "w 0x" << w << " scale 0x" << scale;
    }
  }
  for (int i = 0; i < 200000; ++i) {
    const uint16_t w = rng.Code(), s = rng.Code();
    if (!Finite(w) || !Finite(s) || (s & 0x7FFF) == 0) continue;
    ASSERT_EQ(oracle::QuantizeInt8(w, s), ExactQuantize(w, s)) << std::hex << w << " " << s;
  }
  // Worked ties: 2.5 / 1 -> 2, 3.5 / 1 -> 4, 127.5 -> 127 (clamp), -1000 -> -127.
  EXPECT_EQ(oracle::QuantizeInt8(H(2.5), H(1.0)), 2);
  EXPECT_EQ(oracle::QuantizeInt8(H(3.5), H(1.0)), 4);
  EXPECT_EQ(oracle::QuantizeInt8(H(127.5), H(1.0)), 127);
  EXPECT_EQ(oracle::QuantizeInt8(H(-1000.0), H(1.0)), -127);
}

TEST(OracleKernelCodec, N6_1_DequantizationIsOneRoundedFp16Multiply) {
  for (uint16_t scale : {H(1.0), H(0.0078125), uint16_t(0x34CD) /* 0.3 */, H(-2.5), uint16_t(0x0001), uint16_t(0x03FF),
                         H(600.0), H(65504.0)}) {
    for (int q = -127; q <= 127; ++q) {
      const _Float16 want = static_cast<_Float16>(float(HostHalf(scale)) * float(q));
      ASSERT_EQ(oracle::DequantInt8(scale, q), HostBits(want)) << std::hex << scale << " q " << std::dec << q;
    }
  }
}

// A dense fp16 group of one kernel, K = 3, written by hand from the format page:
//   word 0 header = 0 (fp16, dense, one kernel), then the values LSB-first: 1.0, -2.0, 0.5.
TEST(OracleKernelCodec, N6_HandWrittenDenseStreamDecodes) {
  const std::vector<uint32_t> words = {0x00000000u, 0xC0003C00u, 0x00003800u, 0x00000000u};
  const DecodedGroup d = oracle::DecodeKernelGroup(words.data(), words.size(), 3);
  EXPECT_EQ(d.slots, 1);
  EXPECT_EQ(d.header_words, 1);
  EXPECT_EQ(d.words, 4u);
  ASSERT_EQ(d.coefs.size(), 1u);
  EXPECT_EQ(d.coefs[0], (std::vector<uint16_t>{H(1.0), H(-2.0), H(0.5)}));
  ASSERT_EQ(d.ops.size(), 3u);
  EXPECT_TRUE(d.ops[0].first);
  EXPECT_TRUE(d.ops[2].last);
}

// A sparse 2-bit palette group of two kernels, K = 4, by hand:
//   header: format 2 | sparse (bit 3) | palette bits 2 << 7 | (R - 1 = 1) << 11 = 0x0000090A
//   palette: 0, 1.0, -1.0, 0.25 -> words 0x3C000000, 0x3400BC00
//   quad 0 masks: kernel 0 = 0b0101, kernel 1 = 0b0010 -> byte 0x25
//   values in (step, kernel) order: s0 k0 idx 1, s1 k1 idx 3, s2 k0 idx 2 -> 2-bit fields
//   01, 11, 10 after the mask: bits = 0x25 | 1 << 8 | 3 << 10 | 2 << 12 = 0x2D25
TEST(OracleKernelCodec, N6_2_N6_3_HandWrittenSparsePaletteStreamDecodes) {
  const std::vector<uint32_t> words = {0x0000090Au, 0x3C000000u, 0x3400BC00u, 0x00002D25u};
  const DecodedGroup d = oracle::DecodeKernelGroup(words.data(), words.size(), 4);
  EXPECT_EQ(d.slots, 2);
  EXPECT_TRUE(d.spec.sparse);
  EXPECT_EQ(d.spec.palette_bits, 2);
  EXPECT_EQ(d.coefs[0], (std::vector<uint16_t>{H(1.0), 0, H(-1.0), 0}));
  EXPECT_EQ(d.coefs[1], (std::vector<uint16_t>{0, H(0.25), 0, 0}));
  EXPECT_EQ(d.ops.size(), 8u);  // a single quad is first and last: never skipped
}

// A sparse group's chosen palette holds no zero (its zeros are dropped by the masks), so a zero
// weight must be dropped by its own value, not by its nearest entry: 1 bit, weights
// (0, 2, 0, 4) -> palette {2, 4}, coefficients (0, 2, 0, 4), not (2, 2, 2, 4).
TEST(OracleKernelCodec, N6_2_N6_3_SparsePaletteKeepsZeroWeightsZero) {
  KernelGroup g;
  g.steps = 4;
  g.spec.format = KernelFormat::kPalette;
  g.spec.palette_bits = 1;
  g.spec.sparse = true;
  g.weights = {{0, H(2.0), 0x8000, H(4.0)}};
  const std::vector<uint32_t> words = oracle::EncodeKernelGroup(&g);
  EXPECT_EQ(g.palette, (std::vector<uint16_t>{H(2.0), H(4.0)}));
  const DecodedGroup d = oracle::DecodeKernelGroup(words.data(), words.size(), 4);
  EXPECT_EQ(d.coefs[0], (std::vector<uint16_t>{0, H(2.0), 0, H(4.0)}));
  EXPECT_EQ(d.stored[0], (std::vector<bool>{false, true, false, true}));
}

TEST(OracleKernelCodec, RejectsMalformedStreamsWithAReason) {
  const std::vector<uint32_t> bad_format = {0x00000007u, 0};
  EXPECT_THROW(oracle::DecodeKernelGroup(bad_format.data(), 2, 1), std::invalid_argument);
  const std::vector<uint32_t> reserved = {0x80000000u, 0};
  EXPECT_THROW(oracle::DecodeKernelGroup(reserved.data(), 2, 1), std::invalid_argument);
  const std::vector<uint32_t> truncated = {0x00000000u, 0x3C003C00u};
  EXPECT_THROW(oracle::DecodeKernelGroup(truncated.data(), 2, 3), std::invalid_argument);
  const std::vector<uint32_t> padding = {0x00000000u, 0xFFFF3C00u};
  EXPECT_THROW(oracle::DecodeKernelGroup(padding.data(), 2, 1), std::invalid_argument);
  KernelGroup g;
  g.steps = 2;
  g.spec.format = KernelFormat::kRaw8;
  g.spec.two_kernel = true;
  g.weights = {{1, 2}, {3, 4}};
  EXPECT_THROW(oracle::EncodeKernelGroup(&g), std::invalid_argument);
  g.spec.two_kernel = false;
  g.weights = {{1, 0x0180}};  // not a sign-extended int8
  EXPECT_THROW(oracle::EncodeKernelGroup(&g), std::invalid_argument);
  // Four-kernel groups: fp16 coefficients, dense, in fours, not also two-kernel.
  g.spec.four_kernel = true;
  g.weights = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  EXPECT_THROW(oracle::EncodeKernelGroup(&g), std::invalid_argument);  // raw8
  g.spec.format = KernelFormat::kFp16;
  EXPECT_NO_THROW(oracle::EncodeKernelGroup(&g));
  g.spec.sparse = true;
  EXPECT_THROW(oracle::EncodeKernelGroup(&g), std::invalid_argument);
  g.spec.sparse = false;
  g.spec.two_kernel = true;
  EXPECT_THROW(oracle::EncodeKernelGroup(&g), std::invalid_argument);
  g.spec.two_kernel = false;
  g.weights.pop_back();
  EXPECT_THROW(oracle::EncodeKernelGroup(&g), std::invalid_argument);  // 3 kernels
  const std::vector<uint32_t> sparse4 = {0x00004008u, 0};              // fp16 | sparse | four
  EXPECT_THROW(oracle::DecodeKernelGroup(sparse4.data(), 2, 1), std::invalid_argument);
  const std::vector<uint32_t> both = {0x00004010u, 0};  // two and four
  EXPECT_THROW(oracle::DecodeKernelGroup(both.data(), 2, 1), std::invalid_argument);
}

TEST(OracleKernelCodec, N6_HandWrittenFourKernelStreamDecodes) {
  // One slot of four fp16 kernels over K = 2 steps: header 0x00004000 (fp16, four-kernel,
  // R - 1 = 0), then for each step the four kernels' values, two per word.
  const std::vector<uint32_t> words = {0x00004000u, 0x40003C00u, 0x44004200u, 0xC000BC00u, 0xC400C200u, 0x00000000u};
  const DecodedGroup d = oracle::DecodeKernelGroup(words.data(), words.size(), 2);
  EXPECT_EQ(d.slots, 1);
  EXPECT_EQ(d.words, 6u);
  ASSERT_EQ(d.ops.size(), 2u);
  // step 0: 1.0, 2.0, 3.0, 4.0 for kernels 0..3; step 1: their negatives
  EXPECT_EQ(d.ops[0].coef_a, 0x3C00);
  EXPECT_EQ(d.ops[0].coef_b, 0x4000);
  EXPECT_EQ(d.ops[0].coef_c, 0x4200);
  EXPECT_EQ(d.ops[0].coef_d, 0x4400);
  EXPECT_TRUE(d.ops[0].first);
  EXPECT_EQ(d.ops[1].coef_a, 0xBC00);
  EXPECT_EQ(d.ops[1].coef_d, 0xC400);
  EXPECT_TRUE(d.ops[1].last);
  KernelGroup g;
  g.steps = 2;
  g.spec.four_kernel = true;
  g.weights = {{0x3C00, 0xBC00}, {0x4000, 0xC000}, {0x4200, 0xC200}, {0x4400, 0xC400}};
  EXPECT_EQ(oracle::EncodeKernelGroup(&g), words);
}

// Random kernels for one format: fp16 values (with zeros at the given density), or ints.
std::vector<std::vector<uint16_t>> RandomWeights(test::Rng& rng, KernelFormat f, int nk, int k, int zero_percent) {
  std::vector<std::vector<uint16_t>> w(size_t(nk), std::vector<uint16_t>(size_t(k), 0));
  for (auto& row : w) {
    for (auto& c : row) {
      if (int(rng.Below(100)) < zero_percent) {
        c = rng.Below(4) == 0 && (f == KernelFormat::kFp16) ? 0x8000 : 0;  // -0 also counts as zero
        continue;
      }
      switch (f) {
        case KernelFormat::kRaw8: c = uint16_t(int16_t(int8_t(uint8_t(1 + rng.Below(255))))); break;
        case KernelFormat::kRaw4: c = uint16_t(int16_t(int(1 + rng.Below(15)) - 8)); break;
        default: {
          // Finite nonzero fp16 of moderate range.
          const uint16_t e = uint16_t(5 + rng.Below(20));
          c = uint16_t((rng.Below(2) << 15) | (e << 10) | rng.Below(1024));
        }
      }
      if ((f == KernelFormat::kRaw4 || f == KernelFormat::kRaw8) && c == 0) c = 1;
    }
  }
  return w;
}

// The coefficient the test expects for a weight, from the format definitions (host arithmetic).
uint16_t ExpectedCoef(const KernelGroup& g, int n, uint16_t w) {
  switch (g.spec.format) {
    case KernelFormat::kFp16: return (w & 0x7FFF) == 0 && g.spec.sparse ? 0 : w;
    case KernelFormat::kInt8Sym: {
      const uint16_t sc = g.scales[g.spec.per_channel_scale ? size_t(n) : 0];
      const int q = ExactQuantize(w, sc);
      if (q == 0 && g.spec.sparse) return 0;
      return HostBits(static_cast<_Float16>(float(HostHalf(sc)) * float(q)));
    }
    case KernelFormat::kPalette: return w;  // lossless palettes in this test
    default: return w;
  }
}

TEST(OracleKernelCodec, N6_EveryFormatRoundTrips) {
  const uint64_t seed = test::TestSeed(0x6E6C);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int iter = 0; iter < 600; ++iter) {
    KernelGroup g;
    g.spec.format = KernelFormat(rng.Below(5));
    g.spec.sparse = rng.Below(2);
    const bool fp = int(g.spec.format) <= 2;
    const uint32_t mode = fp ? rng.Below(3) : 0;  // broadcast, two-kernel, four-kernel
    g.spec.two_kernel = mode == 1;
    g.spec.four_kernel = mode == 2;
    if (g.spec.four_kernel) g.spec.sparse = false;  // four-kernel groups are dense
    g.spec.per_channel_scale = g.spec.format == KernelFormat::kInt8Sym && rng.Below(2);
    const int bits_choice[] = {1, 2, 4, 6, 8};
    g.spec.palette_bits = bits_choice[rng.Below(5)];
    g.spec.params = rng.Below(2);
    const int r = 1 + int(rng.Below(8));
    const int nk = oracle::KernelsPerSlot(g.spec) * r;
    g.steps = 1 + int(rng.Below(60));
    const int zero_percent = int(rng.Below(3)) * 45;  // 0, 45 or 90 %
    g.weights = RandomWeights(rng, g.spec.format, nk, g.steps, zero_percent);
    if (g.spec.format == KernelFormat::kPalette) {
      // Lossless: draw every weight from a table of 2^b values (zero among them when sparse).
      std::vector<uint16_t> table;
      // Entry 0 is the zero, so that a dense group's zeros fit the table too.
      table.push_back(0);
      for (int i = 1; i < (1 << g.spec.palette_bits); ++i) table.push_back(uint16_t(0x3000 + 7 * i));
      for (auto& row : g.weights) {
        for (auto& c : row) {
          c = (c & 0x7FFF) == 0 ? uint16_t(0) : table[1 + rng.Below(uint32_t(table.size() - 1))];
        }
      }
    }
    for (int n = 0; n < (g.spec.params ? nk : 0); ++n) {
      g.params.push_back({rng.Code(), uint32_t(rng.Next())});
    }
    SCOPED_TRACE("iter " + std::to_string(iter) + " format " + oracle::KernelFormatName(g.spec.format));
    const std::vector<uint32_t> words = oracle::EncodeKernelGroup(&g);
    ASSERT_EQ(words.size() % 2, 0u);
    const DecodedGroup d = oracle::DecodeKernelGroup(words.data(), words.size(), g.steps);
    EXPECT_EQ(d.words, words.size());
    EXPECT_EQ(d.slots, r);
    EXPECT_EQ(d.params, g.params);
    for (int n = 0; n < nk; ++n) {
      for (int s = 0; s < g.steps; ++s) {
        const uint16_t w = g.weights[size_t(n)][size_t(s)];
        ASSERT_EQ(d.coefs[size_t(n)][size_t(s)], ExpectedCoef(g, n, w))
            << "kernel " << n << " step " << s << std::hex << " w 0x" << w;
      }
    }
    // Dense groups schedule every (step, slot); sparse ones at most that many.
    const size_t dense_ops = size_t(r) * size_t(g.steps);
    if (!g.spec.sparse) {
      EXPECT_EQ(d.ops.size(), dense_ops);
    }
    EXPECT_LE(d.ops.size(), dense_ops);
    // Each operation carries kernel per * slot + k of its step as coefficient k.
    const int per = oracle::KernelsPerSlot(g.spec);
    for (const auto& op : d.ops) {
      const uint16_t c[4] = {op.coef_a, op.coef_b, op.coef_c, op.coef_d};
      for (int k = 0; k < 4; ++k) {
        const uint16_t want = k < per ? d.coefs[size_t(per * op.slot + k)][size_t(op.step)] : 0;
        ASSERT_EQ(c[k], want) << "step " << op.step << " slot " << op.slot << " coefficient " << k;
      }
    }
  }
}

TEST(OracleKernelCodec, LossyPaletteMapsEachWeightToItsNearestEntry) {
  test::Rng rng(0x9A1);
  KernelGroup g;
  g.spec.format = KernelFormat::kPalette;
  g.spec.palette_bits = 2;
  g.steps = 200;
  g.weights = RandomWeights(rng, KernelFormat::kFp16, 1, g.steps, 0);
  const auto words = oracle::EncodeKernelGroup(&g);
  const DecodedGroup d = oracle::DecodeKernelGroup(words.data(), words.size(), g.steps);
  ASSERT_EQ(d.palette.size(), 4u);
  for (int s = 0; s < g.steps; ++s) {
    const double w = double(HostHalf(g.weights[0][size_t(s)]));
    double best = 1e300;
    for (uint16_t e : d.palette) best = std::min(best, std::fabs(w - double(HostHalf(e))));
    ASSERT_EQ(std::fabs(w - double(HostHalf(d.coefs[0][size_t(s)]))), best) << s;
  }
}

// ---- the schedule ----

TEST(OracleKernelCodec, ScheduleIsQuadThenStepThenSlot) {
  const std::vector<std::vector<uint16_t>> coefs = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
  const auto ops = oracle::BuildSchedule(coefs, {}, 1, false, 6);
  ASSERT_EQ(ops.size(), 12u);
  const int want[][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1},
                         {3, 0}, {3, 1}, {4, 0}, {4, 1}, {5, 0}, {5, 1}};
  for (size_t i = 0; i < ops.size(); ++i) {
    EXPECT_EQ(ops[i].step, want[i][0]) << i;
    EXPECT_EQ(ops[i].slot, want[i][1]) << i;
    EXPECT_EQ(ops[i].coef_a, coefs[size_t(want[i][1])][size_t(want[i][0])]);
    EXPECT_EQ(ops[i].first, want[i][0] == 0);
    EXPECT_EQ(ops[i].last, want[i][0] == 5);
  }
}

TEST(OracleKernelCodec, N6_3_SkipsOnlyInteriorAllZeroQuads) {
  // K = 16: quads 0..3. Kernel 0 is zero everywhere; kernel 1 is zero in quads 0, 2 and 3 only.
  std::vector<std::vector<uint16_t>> coefs(2, std::vector<uint16_t>(16, 0));
  std::vector<std::vector<bool>> stored(2, std::vector<bool>(16, false));
  coefs[1][5] = 0x3C00;
  stored[1][5] = true;
  int skipped = 0, idle = 0;
  const auto ops = oracle::BuildSchedule(coefs, stored, 1, true, 16, &skipped, &idle);
  // Kept: quad 0 (both, first), quad 1 (kernel 1), quad 3 (both, last). Quad 2 is idle.
  EXPECT_EQ(skipped, 3);
  EXPECT_EQ(idle, 1);
  EXPECT_EQ(ops.size(), size_t(8 + 4 + 8));
  for (const KernelOp& op : ops) EXPECT_FALSE(op.step >= 8 && op.step < 12) << op.step;
}

// Runs ops through an oracle MAC lane (slot j of the schedule on lane slot j) and returns the
// raw slot registers and flags.
struct LaneOut {
  std::vector<uint32_t> raw;
  std::vector<bool> sat;
  bool operator==(const LaneOut& o) const { return raw == o.raw && sat == o.sat; }
};
LaneOut RunLane(oracle::MacMode mode, oracle::Generation gen, const std::vector<uint16_t>& data,
                const std::vector<KernelOp>& ops, int slots, int slot_stride) {
  oracle::MacLane lane(gen);
  for (int j = 0; j < 8; ++j) lane.Clear(j);
  for (const KernelOp& op : ops) {
    lane.Step(mode, data[size_t(op.step)], op.coef_a, op.slot * slot_stride, op.last);
  }
  LaneOut o;
  for (int j = 0; j < slots * slot_stride; ++j) {
    o.raw.push_back(lane.ReadRaw(j));
    o.sat.push_back(lane.Saturated(j));
  }
  return o;
}

TEST(OracleKernelCodec, N6_3_SkippingChangesNoMacResult) {
  const uint64_t seed = test::TestSeed(0x5B1B);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  int compared = 0, with_skips = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const int pick = int(rng.Below(4));
    const oracle::MacMode mode = pick == 2   ? oracle::MacMode::kInt8
                                 : pick == 3 ? oracle::MacMode::kInt4
                                             : oracle::MacMode::kFp16;
    const oracle::Generation gen = pick == 1 ? oracle::Generation::kM5 : oracle::Generation::kM1;
    const int r = mode == oracle::MacMode::kInt4 ? 1 + int(rng.Below(2)) : 1 + int(rng.Below(8));
    const int k = 1 + int(rng.Below(40));
    const int zero_percent = int(rng.Below(3)) == 0 ? 50 : 90;
    const bool structured = rng.Below(2);  // whole quads zero
    std::vector<uint16_t> data(static_cast<size_t>(k), 0);
    for (auto& d : data) {
      d = mode == oracle::MacMode::kFp16 ? uint16_t(rng.Code() & 0xBFFF) : uint16_t(rng.Code());
    }
    std::vector<std::vector<uint16_t>> coefs(size_t(r), std::vector<uint16_t>(size_t(k), 0));
    std::vector<std::vector<bool>> stored(size_t(r), std::vector<bool>(size_t(k), false));
    for (int j = 0; j < r; ++j) {
      for (int s = 0; s < k; ++s) {
        const bool zero = structured ? (((s / 4) * 7 + j * 3 + iter) % 3 != 0) : int(rng.Below(100)) < zero_percent;
        if (zero) continue;
        uint16_t c = rng.Code();
        if (mode == oracle::MacMode::kInt8) c = uint16_t(int16_t(int8_t(uint8_t(c | 1))));
        if (mode == oracle::MacMode::kInt4) c = uint16_t(int16_t(int((c % 15) + 1) - 8));
        if (mode == oracle::MacMode::kFp16) c = uint16_t((c & 0xBFFF) | 0x0400);
        if (c == 0) c = 1;
        coefs[size_t(j)][size_t(s)] = c;
        stored[size_t(j)][size_t(s)] = true;
      }
    }
    int skipped = 0;
    const auto dense = oracle::BuildSchedule(coefs, {}, 1, false, k);
    const auto sparse = oracle::BuildSchedule(coefs, stored, 1, true, k, &skipped);
    const int stride = mode == oracle::MacMode::kInt4 ? 4 : 1;
    const LaneOut a = RunLane(mode, gen, data, dense, r, stride);
    const LaneOut b = RunLane(mode, gen, data, sparse, r, stride);
    ASSERT_TRUE(a == b) << "iter " << iter << " mode " << oracle::MacModeName(mode) << " K " << k;
    ++compared;
    with_skips += skipped > 0;
  }
  EXPECT_EQ(compared, 3000);
  EXPECT_GT(with_skips, 1000);  // the comparison exercised real skips
}

// The contrast that fixes the skip granularity: dropping a single zero product from the
// reduction moves the quad lattice and changes add12 roundings (N-2.4) for some inputs.
TEST(OracleKernelCodec, N6_3_DroppingSingleZeroProductsWouldChangeResults) {
  test::Rng rng(0xD0E5);
  int differing = 0;
  for (int iter = 0; iter < 20000 && differing == 0; ++iter) {
    std::vector<uint16_t> data(5), kernel(5);
    for (auto& d : data) d = uint16_t((rng.Code() & 0x3FFF) | 0x3800);
    for (auto& w : kernel) w = uint16_t((rng.Code() & 0x3FFF) | 0x3800);
    kernel[1] = 0;  // p1 = +0
    const auto full = oracle::Reduce(oracle::MacMode::kFp16, oracle::Generation::kM1, data.data(), kernel.data(), 5);
    std::vector<uint16_t> d2 = {data[0], data[2], data[3], data[4]};
    std::vector<uint16_t> k2 = {kernel[0], kernel[2], kernel[3], kernel[4]};
    const auto dropped = oracle::Reduce(oracle::MacMode::kFp16, oracle::Generation::kM1, d2.data(), k2.data(), 4);
    differing += full.acc != dropped.acc;
  }
  EXPECT_GT(differing, 0);
}

}  // namespace
}  // namespace ane
