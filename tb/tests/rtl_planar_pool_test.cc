// SPDX-License-Identifier: Apache-2.0
// ane_pe_pool (the first filter, the line buffer, the second filter) against the oracle's
// Pool (NUMERICS N-4.5 with N-4.4 and N-1), bit for bit, through the harness driver RtlPool
// (4 channels in parallel, output rows of 16, wider planes in strips).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "tb/harness/planar_run.h"
#include "tb/oracle/planar.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/planar_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::PoolRunOptions;
using harness::PoolStats;

using test::PoolCase;

std::vector<uint16_t> RunPool(const PoolCase& c, const PoolRunOptions& opt, PoolStats* st = nullptr) {
  return harness::RtlPool(harness::ToPoolGeometry(c.op, c.g), c.x.codes, opt, st);
}

void ExpectOracle(const PoolCase& c, const std::vector<uint16_t>& got, const std::string& what) {
  test::ExpectPoolOracle(c, got, what);
}

std::string Describe(const PoolCase& c) {
  const auto& g = c.g;
  return std::string(oracle::PoolOpName(c.op)) + " C" + std::to_string(g.channels) + " " + std::to_string(g.height) +
         "x" + std::to_string(g.width) + " window " + std::to_string(g.kernel_h) + "x" + std::to_string(g.kernel_w) +
         " stride " + std::to_string(g.stride_y) + "," + std::to_string(g.stride_x) + " pad t" +
         std::to_string(g.pad_top) + " b" + std::to_string(g.pad_bottom) + " l" + std::to_string(g.pad_left) + " r" +
         std::to_string(g.pad_right);
}

// N-4.5: random geometries of every window size, stride and padding, planes wider than the
// line buffer (strips), channel counts that do and do not fill the lanes, random input gaps,
// configuration gaps and output back-pressure. Every output compared.
TEST(RtlPePool, N4_5_RandomPoolingsUnderGapsAndBackPressure) {
  const uint64_t seed = test::TestSeed(0x9001);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  std::set<int> kh, kw, sy, sx, pads;
  std::set<oracle::PoolOp> ops;
  int strips = 0, partial_groups = 0;
  const int n = int(test::CoverageShare(1500 * test::SoakFactor()));
  for (int i = 0; i < n; ++i) {
    const PoolCase c = test::RandomPoolCase(rng);
    PoolRunOptions opt = test::RandomPoolTraffic(rng);
    opt.seed = rng.Next();
    ExpectOracle(c, RunPool(c, opt), "case " + std::to_string(i) + ": " + Describe(c));
    if (HasFailure()) return;
    kh.insert(c.g.kernel_h);
    kw.insert(c.g.kernel_w);
    sy.insert(c.g.stride_y);
    sx.insert(c.g.stride_x);
    pads.insert(c.g.pad_top);
    pads.insert(c.g.pad_right);
    ops.insert(c.op);
    strips += c.g.OutWidth() > harness::kPoolMaxOutW;
    partial_groups += c.g.channels % harness::kPoolLanes != 0;
  }
  // What the random cases covered (a seed that misses something fails here).
  EXPECT_EQ(kh.size(), 8u);
  EXPECT_EQ(kw.size(), 8u);
  EXPECT_EQ(sy.size(), 8u);
  EXPECT_EQ(sx.size(), 8u);
  EXPECT_EQ(pads.size(), 8u);
  EXPECT_EQ(ops.size(), 3u);
  EXPECT_GE(strips, n / 300);         // 5 of 1500
  EXPECT_GE(partial_groups, n / 30);  // 50 of 1500
}

// N-4.5 worked cases: the edge-correct mean (a corner of a 3x3 mean with padding 1 divides by
// 4), the whole 8x8 window, a NaN (+inf after N-1) inside a max window and next to a -inf in
// a mean window (inf + -inf = +0, N-4.2), and sums at the top of the fp16 range.
TEST(RtlPePool, N4_5_EdgeCorrectMeanAndSpecialValues) {
  PoolCase c;
  c.op = oracle::PoolOp::kMean;
  c.g.channels = 1;
  c.g.height = c.g.width = 4;
  c.g.kernel_h = c.g.kernel_w = 3;
  c.g.pad_top = c.g.pad_bottom = c.g.pad_left = c.g.pad_right = 1;
  c.x = {1, 4, 4, {}};
  for (int i = 0; i < 16; ++i) c.x.codes.push_back(test::H(double(i)));
  auto got = RunPool(c, {});
  ExpectOracle(c, got, "3x3 mean, padding 1");
  // Corner (0, 0): (0 + 1 + 4 + 5) / 4 = 2.5, not 10 / 9.
  EXPECT_EQ(got[0], test::H(2.5));

  // 8x8 max with a NaN, then a mean whose window holds +inf (the NaN) and -inf.
  c.g = {};
  c.g.height = c.g.width = 8;
  c.g.kernel_h = c.g.kernel_w = 8;
  c.x = {1, 8, 8, std::vector<uint16_t>(64, test::H(1.0))};
  c.x.codes[37] = 0x7E00;  // NaN
  c.op = oracle::PoolOp::kMin;
  got = RunPool(c, {});
  ExpectOracle(c, got, "8x8 min with a NaN");
  EXPECT_EQ(got[0], test::H(1.0));
  c.op = oracle::PoolOp::kMax;
  got = RunPool(c, {});
  ExpectOracle(c, got, "8x8 max with a NaN");
  EXPECT_EQ(got[0], 0x7C00);
  c.x.codes[3] = 0xFC00;
  c.op = oracle::PoolOp::kMean;
  got = RunPool(c, {});
  ExpectOracle(c, got, "8x8 mean with +inf and -inf");

  // 2x2 windows of 65504: max stores 65504; the mean of four is 65504 (the fp32 sum does not
  // overflow); 1x2 of 65504 and 16: the mean 32760.
  c.g = {};
  c.g.height = 2;
  c.g.width = 4;
  c.g.kernel_h = c.g.kernel_w = 2;
  c.g.stride_y = c.g.stride_x = 2;
  c.x = {1, 2, 4, {0x7BFF, 0x7BFF, 0x7BFF, 0x4C00, 0x7BFF, 0x7BFF, 0x7BFF, 0x4C00}};
  c.op = oracle::PoolOp::kMean;
  got = RunPool(c, {});
  ExpectOracle(c, got, "mean at the top of the range");
  EXPECT_EQ(got[0], 0x7BFF);
}

// X seeds decide every initial value (the line buffer starts random): no result changes.
TEST(RtlPePool, N4_5_XSeedsDoNotChangeAnyResult) {
  test::Rng rng(0x5EED);
  std::vector<PoolCase> cases;
  for (int i = 0; i < 30; ++i) cases.push_back(test::RandomPoolCase(rng));
  std::vector<std::vector<uint16_t>> first;
  for (uint32_t x_seed : {1u, 7u, 0xBEEFu}) {
    for (size_t i = 0; i < cases.size(); ++i) {
      PoolRunOptions opt;
      opt.x_seed = x_seed;
      opt.gap_pct = 20;
      opt.stall_pct = 20;
      const auto got = RunPool(cases[i], opt);
      ExpectOracle(cases[i], got, "x seed " + std::to_string(x_seed) + ", " + Describe(cases[i]));
      if (x_seed == 1)
        first.push_back(got);
      else
        ASSERT_EQ(got, first[i]);
    }
  }
}

// Cycles: the walker takes one position per cycle (a beat, or a padding position past the
// bottom or right edge), and a result leaves 27 cycles after its window's last position.
// 2x2 / 2 on 32 x 32 (no padding): 1024 positions, 1024 beats; 3x3 / 1 with padding 1 on
// 16 x 16: 17 x 17 = 289 positions for 256 beats. Cycles = 1 (configuration) + positions + 27.
TEST(RtlPePool, N4_5_CyclesOnePositionPerCycle) {
  struct Shape {
    int hw, k, s, p;
    int64_t positions;
  } shapes[] = {{32, 2, 2, 0, 1024}, {16, 3, 1, 1, 289}};
  for (const Shape& sh : shapes) {
    PoolCase c;
    c.op = oracle::PoolOp::kMean;
    c.g.channels = 4;
    c.g.height = c.g.width = sh.hw;
    c.g.kernel_h = c.g.kernel_w = sh.k;
    c.g.stride_y = c.g.stride_x = sh.s;
    c.g.pad_top = c.g.pad_bottom = c.g.pad_left = c.g.pad_right = sh.p;
    test::Rng rng(3);
    c.x = {4, sh.hw, sh.hw, {}};
    for (int i = 0; i < 4 * sh.hw * sh.hw; ++i) c.x.codes.push_back(test::TreeValue(rng));
    PoolStats st;
    const auto got = RunPool(c, {}, &st);
    ExpectOracle(c, got, Describe(c));
    EXPECT_EQ(st.beats, int64_t(sh.hw) * sh.hw);
    EXPECT_EQ(st.results, int64_t(c.g.OutHeight()) * c.g.OutWidth());
    EXPECT_EQ(st.cycles, uint64_t(1 + sh.positions + 27)) << Describe(c);
    RecordProperty(("cycles_" + std::to_string(sh.k) + "x" + std::to_string(sh.k)).c_str(), int(st.cycles));
  }
}

}  // namespace
}  // namespace ane
