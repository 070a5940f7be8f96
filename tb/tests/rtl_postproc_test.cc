// SPDX-License-Identifier: Apache-2.0
// The post-processor RTL (rtl/ane_postproc.sv, 8 lanes) against the oracle, exact bits:
//   - every activation table on all 2^16 fp16 inputs                        (N-5.1, N-5.4)
//   - random lane vectors through rounding, stochastic rounding, requantization, scale, bias,
//     ReLU and tables, random configurations, random input gaps and output back-pressure
//                                                                            (N-3, N-7.1)
//   - three --x-initial unique seeds give identical results                  (N-7.1)
//   - cycle figures: initiation interval 1, latency 31
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "Vane_postproc8_m1.h"
#include "Vane_postproc8_m5.h"
#include "tb/harness/postproc_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/formats.h"
#include "tb/oracle/postproc.h"
#include "tb/regs/ane_regs.h"
#include "tb/tests/postproc_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::PostVector;
using oracle::ActFn;
using oracle::Generation;
using oracle::PostAct;
using oracle::PostConfig;
using oracle::PostStore;

constexpr int kLanes = 8;

template <class Model>
std::vector<std::vector<uint16_t>> RunRtl(const PostConfig& cfg, const std::vector<PostVector>& in, test::Rng* rng,
                                          int gap_pct, int stall_pct, uint32_t x_seed = 1,
                                          harness::PostRunStats* stats = nullptr) {
  harness::Sim<Model> sim("ane_postproc", harness::CurrentTestStem() + ".x" + std::to_string(x_seed), x_seed);
  sim.set_timeout(100000000);
  harness::PostprocDriver<Model> drv(sim, kLanes);
  drv.Reset();
  drv.Configure(cfg);
  auto gap = [&] { return gap_pct > 0 && int(rng->Below(100)) < gap_pct; };
  auto stall = [&] { return stall_pct > 0 && int(rng->Below(100)) < stall_pct; };
  return drv.Run(in, gap, stall, stats);
}

using test::ExpectSamePost;
using test::PostOracle;
using test::RandomPostAcc;

// N-5.1 / N-5.4: every table, every fp16 input (as an exact fp32 accumulator value, m5 so that
// denormals reach the table), with random input gaps and back-pressure.
TEST(RtlPostproc, N5_EveryTableOnAllFp16Inputs) {
  const uint64_t seed = test::TestSeed(51);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  std::vector<PostVector> in;
  for (uint32_t c = 0; c < 0x10000; c += kLanes) {
    PostVector v;
    for (int l = 0; l < kLanes; ++l) v.acc.push_back(oracle::Fp16ToFp32(uint16_t(c + uint32_t(l))));
    in.push_back(v);
  }
  for (ActFn fn : oracle::kAllActFns) {
    PostConfig cfg;
    cfg.gen = Generation::kM5;
    cfg.act = PostAct::kTable;
    cfg.table = oracle::DefaultActTable(fn);
    const auto got = RunRtl<Vane_postproc8_m5>(cfg, in, &rng, 10, 10);
    ExpectSamePost(got, PostOracle(cfg, in), in, oracle::ActFnName(fn));
  }
}

template <class Model>
void RandomVectors(Generation gen, uint64_t default_seed, int configs, int vectors_per_config) {
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  uint64_t values = 0;
  for (int k = 0; k < configs * int(test::SoakFactor()); ++k) {
    const PostConfig cfg = test::RandomPostConfig(rng, gen);
    std::vector<PostVector> in;
    for (int v = 0; v < vectors_per_config; ++v) {
      in.push_back(test::RandomPostVector(rng, cfg, kLanes));
      values += kLanes;
    }
    const auto got = RunRtl<Model>(cfg, in, &rng, int(rng.Below(40)), int(rng.Below(40)));
    ExpectSamePost(got, PostOracle(cfg, in), in,
                   "config " + std::to_string(k) + " ctrl 0x" + std::to_string(harness::PostCtrlWord(cfg)));
  }
  std::printf("%llu lane values (%llu vectors) compared\n", static_cast<unsigned long long>(values),
              static_cast<unsigned long long>(values / kLanes));
}

// N-3: random vectors through every path: 512 000 vectors (4 096 000 lane values) per
// generation, over 10^6 vectors in all.
TEST(RtlPostproc, N3_RandomVectorsAllPathsM1) { RandomVectors<Vane_postproc8_m1>(Generation::kM1, 52, 64, 8000); }
TEST(RtlPostproc, N3_RandomVectorsAllPathsM5) { RandomVectors<Vane_postproc8_m5>(Generation::kM5, 53, 64, 8000); }

// N-3, N-5: the configuration words come from the generated register map (rtl/regs/ane_regs.yaml,
// the POSTPROC window), checked here against the layout docs/postproc.md gives by hand; a value
// that its field cannot hold, or a field of another register, is refused instead of masked.
TEST(RtlPostproc, N3_N5_ConfigurationWordsFollowTheRegisterMapAndRefuseWhatDoesNotFit) {
  namespace rc = regs::core;
  PostConfig c;
  c.int_acc = true;
  c.shift = 31;
  c.sr = true;
  c.sr_width = 13;
  c.act = PostAct::kTable;
  // [0] INT_ACC, [5:1] SHIFT, [7] SR, [11:8] SR_WIDTH, [15:14] ACT (table 2)
  EXPECT_EQ(harness::PostCtrlWord(c), 1u | 31u << 1 | 1u << 7 | 13u << 8 | 2u << 14);
  c.shift = 32;
  EXPECT_THROW(harness::PostCtrlWord(c), std::out_of_range) << "SHIFT is 5 bits";
  c.shift = 0;
  c.sr_width = 16;
  EXPECT_THROW(harness::PostCtrlWord(c), std::out_of_range) << "SR_WIDTH is 4 bits";
  oracle::ActTable t;
  t.step_log2 = -1;
  t.lo = 0xC800;
  t.m[31] = 0x1234;
  t.c[31] = 0xABCD;
  const auto w = harness::TableWrites(t);
  ASSERT_EQ(w.size(), 5u + 32u);
  EXPECT_EQ(w[0].first, 0x02u);
  EXPECT_EQ(w[0].second, 0xC800u << 16 | 15u << 12) << "TBL0: LO [31:16], STEP_LOG2 [15:12] -1";
  EXPECT_EQ(w.back().first, 0x3Fu);
  EXPECT_EQ(w.back().second, 0xABCD1234u) << "segment 31: C [31:16], M [15:0]";
  EXPECT_THROW(rc::PackWindow(rc::kPostproc, rc::kPostprocTbl0Addr, {{rc::kPostprocTbl1K, 1}}), std::out_of_range);
  EXPECT_THROW(rc::PackWindow(rc::kShifter, rc::kShifterGeomAddr, {{rc::kPostprocCtrlShift, 1}}), std::out_of_range);
}

// N-7.1: three X seeds (--x-initial unique) give identical results, equal to the oracle's.
// N-3.3 / N-1.2: an int32 accumulator stored as fp16 whose value rounds to zero gives +0, from
// below too (-1 >> 28 once came out as -0). Every shift, the accumulators around zero and the
// smallest values of each sign that round to zero, to the smallest denormal and past it; no
// scale, bias or activation, so the rounding alone decides the sign.
TEST(RtlPostproc, N3_3_IntegerAccumulatorRoundingToZeroIsPlusZero) {
  for (Generation gen : {Generation::kM1, Generation::kM5}) {
    for (int shift = 0; shift <= 31; ++shift) {
      PostConfig cfg;
      cfg.gen = gen;
      cfg.int_acc = true;
      cfg.shift = shift;
      cfg.store = PostStore::kFp16;
      std::vector<PostVector> in;
      PostVector pv;
      for (int32_t a : {-1, 1, -2, 2, -3, 3, 0, -(1 << 8)}) pv.acc.push_back(uint32_t(a));
      in.push_back(pv);
      pv.acc.clear();
      // |acc| / 2^shift at and around 2^-25 (half the smallest denormal) when shift >= 25.
      const int32_t half = shift >= 25 ? int32_t(1) << (shift - 25) : 1;
      for (int32_t a : {-half, half, -half - 1, half + 1, -2 * half, 2 * half, INT32_MIN, INT32_MAX}) {
        pv.acc.push_back(uint32_t(a));
      }
      in.push_back(pv);
      test::Rng rng(1);
      const auto got = gen == Generation::kM1 ? RunRtl<Vane_postproc8_m1>(cfg, in, &rng, 0, 0)
                                              : RunRtl<Vane_postproc8_m5>(cfg, in, &rng, 0, 0);
      const auto want = PostOracle(cfg, in);
      ExpectSamePost(got, want, in, "shift " + std::to_string(shift));
      for (const auto& v : want) {
        for (uint16_t h : v) EXPECT_NE(h, 0x8000) << "the oracle gave -0 at shift " << shift;
      }
    }
  }
}

// N-3.3: requantization to int8 at every shift 0 .. 31, both generations: accumulators at each
// rounding case of acc / 2^shift (exact, below, at and above the half, ties to even both ways,
// negative ties) and at both saturation ends; no scale, bias or activation.
TEST(RtlPostproc, N3_3_Int8RequantizationAtEveryShift) {
  bool sat_hi = false, sat_lo = false;
  for (Generation gen : {Generation::kM1, Generation::kM5}) {
    for (int shift = 0; shift <= 31; ++shift) {
      PostConfig cfg;
      cfg.gen = gen;
      cfg.int_acc = true;
      cfg.shift = shift;
      cfg.store = PostStore::kInt8;
      const int64_t unit = int64_t(1) << shift, half = unit / 2;
      std::vector<int64_t> values = {0, 1, -1, INT32_MIN, INT32_MAX, 127 * unit, -128 * unit, 128 * unit, -129 * unit};
      for (int64_t k : {int64_t(0), int64_t(1), int64_t(2), int64_t(-1), int64_t(-2), int64_t(126), int64_t(-127)}) {
        for (int64_t d : {int64_t(0), half - 1, half, half + 1}) values.push_back(k * unit + d);
      }
      std::vector<PostVector> in;
      PostVector pv;
      for (int64_t v : values) {
        if (v < INT32_MIN || v > INT32_MAX) continue;
        pv.acc.push_back(uint32_t(int32_t(v)));
        if (pv.acc.size() == size_t(kLanes)) {
          in.push_back(pv);
          pv.acc.clear();
        }
      }
      while (!pv.acc.empty() && pv.acc.size() < size_t(kLanes)) pv.acc.push_back(0);
      if (!pv.acc.empty()) in.push_back(pv);
      test::Rng rng(uint64_t(shift) + 1);
      const auto got = gen == Generation::kM1 ? RunRtl<Vane_postproc8_m1>(cfg, in, &rng, 20, 20)
                                              : RunRtl<Vane_postproc8_m5>(cfg, in, &rng, 20, 20);
      const auto want = PostOracle(cfg, in);
      if (!ExpectSamePost(got, want, in, "shift " + std::to_string(shift))) return;
      for (const auto& v : want) {
        for (uint16_t h : v) {
          sat_hi |= h == 0x007F;  // int8 values sign-extended to 16 bits
          sat_lo |= h == 0xFF80;
        }
      }
    }
  }
  EXPECT_TRUE(sat_hi && sat_lo) << "the stimulus reached no saturation end";
}

// N-5.1 / N-5.4: tables no function of the default set has: the segment width at both ends of
// its range (2^-8 and 2^7), odd symmetry and none, random finite slopes and intercepts (a -0
// among them) and -0 as the left constant, on every fp16 input (m5: denormals reach the table).
TEST(RtlPostproc, N5_1_TablesAtBothStepEndsOnAllFp16Inputs) {
  const uint64_t seed = test::TestSeed(0x5151);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  std::vector<PostVector> in;
  for (uint32_t c = 0; c < 0x10000; c += kLanes) {
    PostVector v;
    for (int l = 0; l < kLanes; ++l) v.acc.push_back(oracle::Fp16ToFp32(uint16_t(c + uint32_t(l))));
    in.push_back(v);
  }
  auto finite = [&rng] {
    const uint16_t h = rng.Code();
    return uint16_t((h & 0x7C00) == 0x7C00 ? h & 0xBFFF : h);
  };
  for (int step : {-8, 7}) {
    for (oracle::ActSym sym : {oracle::ActSym::kNone, oracle::ActSym::kOdd}) {
      PostConfig cfg;
      cfg.gen = Generation::kM5;
      cfg.act = PostAct::kTable;
      oracle::ActTable& t = cfg.table;
      t.mode = oracle::ActMode::kDirect;
      t.sym = sym;
      t.step_log2 = step;
      t.lo =
          step < 0 ? (sym == oracle::ActSym::kOdd ? 0x0000 : 0xAC00) : (sym == oracle::ActSym::kOdd ? 0x0000 : 0xE800);
      t.left = 0x8000;
      t.right = finite();
      t.at_pinf = finite();
      t.at_ninf = finite();
      for (int i = 0; i < oracle::kActSegments; ++i) {
        t.m[size_t(i)] = (i % 7 == 3) ? 0x0000 : uint16_t(finite() & 0x8FFF);  // |m| < 2^-11: no overflow
        t.c[size_t(i)] = (i % 7 == 3) ? 0x8000 : finite();
      }
      const auto got = RunRtl<Vane_postproc8_m5>(cfg, in, &rng, 10, 10);
      const auto want = PostOracle(cfg, in);
      if (!ExpectSamePost(got, want, in, "step " + std::to_string(step) + " sym " + std::to_string(int(sym)))) return;
    }
  }
}

TEST(RtlPostproc, N7_1_XSeedsGiveIdenticalResults) {
  test::Rng rng(test::TestSeed(54));
  PostConfig cfg;
  cfg.sr = true;
  cfg.sr_width = 9;
  cfg.sr_seed = 0xBEEF;
  cfg.scale_en = cfg.bias_en = true;
  cfg.act = PostAct::kTable;
  cfg.table = oracle::DefaultActTable(ActFn::kGelu);
  std::vector<PostVector> in;
  for (int v = 0; v < 3000; ++v) {
    PostVector pv;
    for (int l = 0; l < kLanes; ++l) pv.acc.push_back(RandomPostAcc(rng, false));
    pv.ch.scale = uint16_t(0x3800 + rng.Below(0x800));
    pv.ch.bias = oracle::Fp16ToFp32(uint16_t(rng.Below(0x3C00)));
    in.push_back(pv);
  }
  const auto want = PostOracle(cfg, in);
  for (uint32_t x_seed : {1u, 2u, 3u}) {
    test::Rng stall_rng(x_seed);
    ExpectSamePost(RunRtl<Vane_postproc8_m1>(cfg, in, &stall_rng, 20, 20, x_seed), want, in,
                   "x_seed " + std::to_string(x_seed));
  }
}

// Cycle figures: with no gaps and no back-pressure, N vectors take N + 31 cycles (initiation
// interval 1) and the first result appears 31 cycles after its vector was accepted.
TEST(RtlPostproc, CyclesInitiationIntervalOneLatencyThirtyOne) {
  test::Rng rng(1);
  PostConfig cfg;
  cfg.act = PostAct::kTable;
  cfg.table = oracle::DefaultActTable(ActFn::kSigmoid);
  std::vector<PostVector> in(1000);
  for (auto& v : in) {
    for (int l = 0; l < kLanes; ++l) v.acc.push_back(RandomPostAcc(rng, false));
  }
  harness::PostRunStats stats;
  const auto got = RunRtl<Vane_postproc8_m1>(cfg, in, &rng, 0, 0, 1, &stats);
  ExpectSamePost(got, PostOracle(cfg, in), in, "sigmoid");
  std::printf("1000 vectors: %llu cycles, latency %llu\n", static_cast<unsigned long long>(stats.cycles),
              static_cast<unsigned long long>(stats.first_latency));
  EXPECT_EQ(stats.first_latency, 31u);
  EXPECT_EQ(stats.cycles, 1000u + 31u);
}

}  // namespace
}  // namespace ane
