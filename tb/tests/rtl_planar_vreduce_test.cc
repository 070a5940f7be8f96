// SPDX-License-Identifier: Apache-2.0
// ane_pe_vreduce (the line buffer ane_pe_linebuf in front of the reduction tree ane_pe_reduce)
// against the oracle (NUMERICS N-4.4 with N-1), bit for bit: reductions across lines, i.e.
// over the columns of a plane and across channels, through the harness drivers RtlLineReduce
// (jobs of n lines of len elements, 4 lanes, lines up to 16) and RtlReduceAcross (tensors).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tb/harness/planar_run.h"
#include "tb/oracle/planar.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/planar_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::LineJob;
using harness::LineRunOptions;
using harness::LineStats;

using test::DescribeLineJob;

void ExpectOracle(const std::vector<LineJob>& jobs, const std::vector<harness::TreeResult>& got,
                  const std::string& what) {
  test::ExpectLineOracle(jobs, got, what);
}

// N-4.4: random jobs, 1 to 4 back to back, every line count around the 64-line blocks, every
// line length, under random input gaps, job gaps and output back-pressure; every result's fp16
// store and fp32 value compared.
TEST(RtlPeVreduce, N4_4_RandomJobsUnderGapsAndBackPressure) {
  const uint64_t seed = test::TestSeed(0x7e11);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  std::set<int> lens, ops, blocks;
  int multiples = 0;
  const int runs = int(250 * test::SoakFactor());
  for (int i = 0; i < runs; ++i) {
    std::vector<LineJob> jobs;
    const int k = 1 + int(rng.Below(4));
    for (int q = 0; q < k; ++q) jobs.push_back(test::RandomLineJob(rng));
    LineRunOptions opt = test::RandomLineTraffic(rng);
    opt.seed = rng.Next();
    ExpectOracle(jobs, harness::RtlLineReduce(jobs, opt), "run " + std::to_string(i));
    if (HasFailure()) return;
    for (const LineJob& j : jobs) {
      lens.insert(j.len);
      ops.insert(j.op);
      blocks.insert((j.n + 63) / 64);
      multiples += j.n % 64 == 0;
    }
  }
  // What the random runs covered (a seed that misses something fails here).
  EXPECT_EQ(lens.size(), size_t(harness::kLineMaxW));
  EXPECT_EQ(ops.size(), 3u);
  EXPECT_EQ(blocks.size(), 5u);  // 1 .. 5 blocks of 64 lines
  EXPECT_GE(multiples, 10);
}

// N-4.4: whole tensors over columns and across channels, against oracle::ReduceTensor: planes
// wider than the line buffer (strips of 16 columns), channel counts and plane sizes that are
// not multiples of 64 or 16.
TEST(RtlPeVreduce, N4_4_TensorColumnsAndChannelsMatchReduceTensor) {
  const uint64_t seed = test::TestSeed(0x7e12);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const int runs = int(24 * test::SoakFactor());
  for (int i = 0; i < runs; ++i) {
    oracle::Tensor3 x{
        1 + int(rng.Below(i % 2 ? 140 : 6)), 1 + int(rng.Below(i % 2 ? 9 : 150)), 1 + int(rng.Below(40)), {}};
    for (int e = 0; e < x.c * x.h * x.w; ++e) x.codes.push_back(test::TreeValue(rng));
    const oracle::ReduceOp op = harness::ReduceOfTreeOp(int(rng.Below(3)));
    for (oracle::ReduceAxis axis : {oracle::ReduceAxis::kColumns, oracle::ReduceAxis::kChannels}) {
      LineRunOptions opt;
      opt.gap_pct = 10;
      opt.stall_pct = 10;
      opt.seed = rng.Next();
      const std::vector<uint16_t> got = harness::RtlReduceAcross(op, axis, x, opt);
      const oracle::Tensor3 want = oracle::ReduceTensor(op, axis, x);
      const std::string what = std::string(oracle::ReduceOpName(op)) + " over " + oracle::ReduceAxisName(axis) +
                               " of [" + std::to_string(x.c) + ", " + std::to_string(x.h) + ", " + std::to_string(x.w) +
                               "]";
      ASSERT_EQ(got.size(), want.codes.size()) << what;
      for (size_t e = 0; e < got.size(); ++e) ASSERT_EQ(got[e], want.codes[e]) << what << ": output " << e;
    }
  }
}

// N-4.4 worked cases, values known by hand: 100 lines of 1.0 sum to 100 (two blocks: 64 + 36);
// max with a NaN (+inf after N-1) in line 70 is +inf; min of -0 and +0 is +0 (N-1 makes -0
// +0); the fp16 store of sums at the top of the range: 65504 + 15 = 65519 stores 65504,
// 65504 + 16 = 65520 stores +inf; 70 x 65504 is +inf in fp16 but exact in fp32.
TEST(RtlPeVreduce, N4_4_WorkedCases) {
  auto job = [](int op, int n, int len, auto value) {
    LineJob j;
    j.op = op;
    j.n = n;
    j.len = len;
    for (int r = 0; r < n; ++r)
      for (int q = 0; q < len; ++q) j.lines.push_back(value(r, q));
    return j;
  };
  const std::vector<LineJob> jobs = {
      job(0, 100, 3, [](int, int) { return test::H(1.0); }),
      job(1, 80, 2, [](int r, int q) { return r == 70 && q == 1 ? uint16_t(0x7E00) : test::H(-2.0); }),
      job(2, 2, 1, [](int r, int) { return r == 0 ? uint16_t(0x8000) : uint16_t(0x0000); }),
      job(0, 2, 2, [](int r, int q) { return r == 0 ? uint16_t(0x7BFF) : test::H(q == 0 ? 15.0 : 16.0); }),
      job(0, 70, 1, [](int, int) { return uint16_t(0x7BFF); }),
  };
  const auto got = harness::RtlLineReduce(jobs, {});
  ExpectOracle(jobs, got, "worked cases");
  ASSERT_EQ(got.size(), 9u);
  for (int q = 0; q < 3; ++q) EXPECT_EQ(got[size_t(q)].fp16, test::H(100.0));
  EXPECT_EQ(got[3].fp16, test::H(-2.0));
  EXPECT_EQ(got[4].fp16, 0x7C00);
  EXPECT_EQ(got[5].fp16, 0x0000);
  EXPECT_EQ(got[6].fp16, 0x7BFF);
  EXPECT_EQ(got[7].fp16, 0x7C00);
  EXPECT_EQ(got[8].fp16, 0x7C00);
  EXPECT_EQ(got[8].fp32, 0x4A8BEE80u);  // 70 * 65504 = 4585280
}

// X seeds decide every initial value (the line buffer and the running values start random;
// masked rows of a last block hold stale or random data): no result changes.
TEST(RtlPeVreduce, N4_4_XSeedsDoNotChangeAnyResult) {
  test::Rng rng(0x5EED);
  std::vector<LineJob> jobs;
  for (int i = 0; i < 12; ++i) jobs.push_back(test::RandomLineJob(rng));
  std::vector<harness::TreeResult> first;
  for (uint32_t x_seed : {1u, 7u, 0xBEEFu}) {
    LineRunOptions opt;
    opt.x_seed = x_seed;
    opt.gap_pct = 20;
    opt.stall_pct = 20;
    const auto got = harness::RtlLineReduce(jobs, opt);
    ExpectOracle(jobs, got, "x seed " + std::to_string(x_seed));
    if (x_seed == 1) {
      first = got;
    } else {
      ASSERT_EQ(got.size(), first.size());
      for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i].fp32, first[i].fp32) << "result " << i;
    }
  }
}

// Cycles: the line buffer takes one beat per cycle (the reader needs len cycles per block,
// the writer 64 beats or more), so a job of n lines of len elements takes 1 (configuration)
// + n ceil(len / 4) beats, then its last block's len patches, the tree's 22 stages, the
// retention node's 3 and the result register: cycles = 1 + beats + len + 26. Jobs back to back
// cost one configuration cycle each.
TEST(RtlPeVreduce, N4_4_CyclesOneBeatPerCycle) {
  test::Rng rng(11);
  struct Shape {
    int n, len;
  } shapes[] = {{256, 16}, {200, 5}, {64, 1}};
  for (const Shape& sh : shapes) {
    LineJob j;
    j.n = sh.n;
    j.len = sh.len;
    for (int i = 0; i < sh.n * sh.len; ++i) j.lines.push_back(test::TreeValue(rng));
    LineStats st;
    const auto got = harness::RtlLineReduce({j}, {}, &st);
    ExpectOracle({j}, got, DescribeLineJob(j));
    const int64_t beats = int64_t(sh.n) * ((sh.len + harness::kLineLanes - 1) / harness::kLineLanes);
    EXPECT_EQ(st.beats, beats);
    EXPECT_EQ(st.cycles, uint64_t(1 + beats + sh.len + 26)) << DescribeLineJob(j);
    RecordProperty(("cycles_n" + std::to_string(sh.n) + "_len" + std::to_string(sh.len)).c_str(), int(st.cycles));
  }
  // Three jobs of 128 lines of 16 back to back: the next job's lines are written while the
  // last block of the previous one is read.
  std::vector<LineJob> jobs(3);
  for (LineJob& j : jobs) {
    j.n = 128;
    j.len = 16;
    for (int i = 0; i < j.n * j.len; ++i) j.lines.push_back(test::TreeValue(rng));
  }
  LineStats st;
  ExpectOracle(jobs, harness::RtlLineReduce(jobs, {}, &st), "three jobs");
  EXPECT_EQ(st.cycles, uint64_t(3 + 3 * 128 * 4 + 16 + 26));
  RecordProperty("cycles_3x128x16", int(st.cycles));
}

}  // namespace
}  // namespace ane
