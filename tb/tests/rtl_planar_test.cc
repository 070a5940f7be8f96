// SPDX-License-Identifier: Apache-2.0
// The planar engine's RTL against the oracle (tb/oracle/planar.h, NUMERICS N-4):
//   - ane_pe_ew (the elementwise unit, N-4.1..N-4.3): every binary operation on all pairs of a
//     dense subset, and 10^7 random (a, b, c) through every operation, with gaps and
//     back-pressure;
//   - ane_fp32_add (a sum node of the reduction tree) on corner sets and 10^7 random pairs;
//   - ane_pe_reduce (the 32-16-8-4-2-1 tree and its running register, N-4.4): random patches,
//     masks, operators and reduction lengths with random gaps and back-pressure, every result
//     (fp32 register and fp16 store) exact; X seeds; one patch per cycle and the latency.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "Vane_fp16_recip.h"
#include "Vane_fp16_rsqrt.h"
#include "Vane_fp16_sqrt.h"
#include "Vane_fp32_add.h"
#include "Vane_pe_ew16.h"
#include "Vane_pe_mean.h"
#include "Vane_pe_reduce.h"
#include "tb/harness/planar_run.h"
#include "tb/harness/shifter_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/elementwise.h"
#include "tb/oracle/planar.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/pe_units.h"
#include "tb/tests/planar_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::ReduceOp;

// ---- the planar post-processor's exact units (N-4.1, N-4.2) ----

template <class Model>
void CheckEveryInput(const char* top, uint16_t (*oracle_fn)(uint16_t)) {
  harness::Sim<Model> sim(top, harness::CurrentTestStem());
  auto& d = sim.dut();
  for (uint32_t x = 0; x < 0x10000; ++x) {
    d.x_i = uint16_t(x);
    sim.Eval();
    ASSERT_EQ(d.y_o, oracle_fn(uint16_t(x))) << top << std::hex << " x 0x" << x;
  }
}

TEST(RtlPlanarUnits, N4_1_SqrtOnEveryFp16Input) { CheckEveryInput<Vane_fp16_sqrt>("ane_fp16_sqrt", oracle::Fp16Sqrt); }
TEST(RtlPlanarUnits, N4_1_RecipOnEveryFp16Input) {
  CheckEveryInput<Vane_fp16_recip>("ane_fp16_recip", oracle::Fp16Recip);
}
TEST(RtlPlanarUnits, N4_1_RsqrtOnEveryFp16Input) {
  CheckEveryInput<Vane_fp16_rsqrt>("ane_fp16_rsqrt", oracle::Fp16Rsqrt);
}

// ane_pe_post, the pipelined post-processor: every fp16 input through each operation (and
// the pass-through) with random input gaps and back-pressure, against the oracle's exact units.
std::vector<uint16_t> EveryCode() {
  std::vector<uint16_t> x(0x10000);
  for (uint32_t i = 0; i < 0x10000; ++i) x[i] = uint16_t(i);
  return x;
}

uint16_t Pass(uint16_t x) { return x; }

TEST(RtlPePost, N4_1_N4_2_EveryInputThroughEveryOperationUnderGapsAndBackPressure) {
  const uint64_t seed = test::TestSeed(0x9057);
  SCOPED_TRACE(test::SeedNote(seed));
  const std::vector<uint16_t> x = EveryCode();
  struct Case {
    harness::PePostOp op;
    uint16_t (*fn)(uint16_t);
    const char* name;
  } cases[] = {{harness::PePostOp::kPass, Pass, "pass"},
               {harness::PePostOp::kSqrt, oracle::Fp16Sqrt, "sqrt"},
               {harness::PePostOp::kRecip, oracle::Fp16Recip, "recip"},
               {harness::PePostOp::kRsqrt, oracle::Fp16Rsqrt, "rsqrt"}};
  for (const Case& c : cases) {
    harness::PostRunOptions opt;
    opt.gap_pct = 25;
    opt.stall_pct = 25;
    opt.seed = seed;
    const auto y = harness::RtlPost(c.op, x, opt);
    ASSERT_EQ(y.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], c.fn(x[i])) << c.name << std::hex << " x 0x" << x[i];
  }
}

// Three X seeds give the same results; at full rate N vectors take N + 11 cycles (latency 11).
TEST(RtlPePost, N4_1_XSeedsAndFullRate) {
  std::vector<uint16_t> x;
  test::Rng rng(0x77);
  for (int i = 0; i < 4000; ++i) x.push_back(rng.Code());
  for (uint32_t x_seed : {1u, 9u, 0xACEu}) {
    harness::PostRunOptions opt;
    opt.x_seed = x_seed;
    harness::RtlPlanarStats st;
    const auto y = harness::RtlPost(harness::PePostOp::kRsqrt, x, opt, &st);
    for (size_t i = 0; i < x.size(); ++i)
      ASSERT_EQ(y[i], oracle::Fp16Rsqrt(x[i])) << "x seed " << x_seed << " input " << i;
    EXPECT_EQ(st.vectors, 1000);
    EXPECT_EQ(st.cycles, 1000u + 11u);
  }
}

// ---- the elementwise unit ----

using test::DriveEw;
using test::EwVec;
using test::kEwLanes;
using test::kEwOps;

harness::Sim<Vane_pe_ew16>* NewEwSim(uint32_t x_seed = 1) {
  auto* sim = new harness::Sim<Vane_pe_ew16>("ane_pe_ew", harness::CurrentTestStem(), x_seed);
  test::StartStreamUnit(*sim);
  return sim;
}

// Every binary operation (and the unary ones on a) over all pairs of the dense subset.
TEST(RtlPeEw, N4_1_EveryBinaryOperationOnAllPairsOfADenseSubset) {
  const std::vector<uint16_t> sub = test::DenseFp16Subset();
  std::unique_ptr<harness::Sim<Vane_pe_ew16>> sim(NewEwSim());
  test::Rng rng(0xDE5);
  uint64_t compared = 0;
  for (int op : {0, 1, 2, 3, 4, 5}) {
    std::vector<EwVec> in;
    EwVec v;
    v.op = op;
    int k = 0;
    for (uint16_t a : sub) {
      for (uint16_t b : sub) {
        v.a[size_t(k)] = a;
        v.b[size_t(k)] = b;
        if (++k == kEwLanes) {
          in.push_back(v);
          k = 0;
        }
      }
    }
    compared += DriveEw(*sim, in, rng, 0, 0).compared;
    if (HasFailure()) return;
  }
  EXPECT_GT(compared, 6 * 4000000ull);
}

TEST(RtlPeEw, N4_1_N4_3_RandomOperandsThroughEveryOperation) {
  const uint64_t seed = test::TestSeed(0xE3E3);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  std::unique_ptr<harness::Sim<Vane_pe_ew16>> sim(NewEwSim());
  std::vector<EwVec> in;
  const uint64_t values = 10'000'000ull * test::SoakFactor();
  for (uint64_t i = 0; i < values / kEwLanes; ++i) {
    in.push_back(test::RandomEwVec(rng, true));  // cancellations, ties
  }
  EXPECT_EQ(DriveEw(*sim, in, rng, 25, 25).compared, in.size() * kEwLanes);
}

TEST(RtlPeEw, N4_1_XSeedsAndFullRate) {
  for (uint32_t x_seed : {3u, 333u}) {
    test::Rng rng(0x42);
    std::unique_ptr<harness::Sim<Vane_pe_ew16>> sim(NewEwSim(x_seed));
    std::vector<EwVec> in;
    for (int i = 0; i < 2000; ++i) in.push_back(test::RandomEwVec(rng, false));
    const uint64_t start = sim->cycles();
    EXPECT_EQ(DriveEw(*sim, in, rng, 0, 0).compared, in.size() * kEwLanes);
    // One vector per cycle, latency 6.
    EXPECT_EQ(sim->cycles() - start, in.size() + 6);
  }
}

// fp32 operands that exercise the adder: zeros, denormals, the extremes, infinities, NaNs, and
// values near each other (cancellation) or far apart (alignment past the guard bits).
std::vector<uint32_t> CornerFp32() {
  std::vector<uint32_t> v = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00800000u,
                             0x3F800000u, 0xBF800000u, 0x3F800001u, 0xBF7FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu,
                             0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x4B800000u, 0x33800000u, 0x34000000u,
                             0x477FE000u, 0x477FF000u, 0xC77FE000u, 0x3F800002u, 0x3F7FFFFEu};
  for (int e = 100; e < 160; e += 7) {
    for (uint32_t m : {0u, 1u, 0x400000u, 0x7FFFFFu}) v.push_back((uint32_t(e) << 23) | m);
  }
  return v;
}

TEST(RtlFp32Add, N4_4_CornerPairsAndRandomPairs) {
  harness::Sim<Vane_fp32_add> sim("ane_fp32_add", harness::CurrentTestStem());
  auto& d = sim.dut();
  const auto corners = CornerFp32();
  uint64_t n = 0;
  auto check = [&](uint32_t a, uint32_t b) {
    d.a_i = a;
    d.b_i = b;
    d.eval();
    // The engine never forms an fp32 NaN; the node counts one as +inf (N-1.1).
    auto boundary = [](uint32_t f) { return oracle::Fp32IsNan(f) ? 0x7F800000u : f; };
    const uint32_t want = oracle::ReduceNode(ReduceOp::kSum, boundary(a), boundary(b));
    ++n;
    return d.y_o == want ? testing::AssertionSuccess()
                         : testing::AssertionFailure()
                               << std::hex << "0x" << a << " + 0x" << b << ": rtl 0x" << d.y_o << ", oracle 0x" << want;
  };
  for (uint32_t a : corners) {
    for (uint32_t b : corners) ASSERT_TRUE(check(a, b));
  }
  const uint64_t seed = test::TestSeed(0xF32);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const uint64_t pairs = 10'000'000ull * test::SoakFactor();
  for (uint64_t i = 0; i < pairs; ++i) {
    uint32_t a = uint32_t(rng.Next()), b;
    switch (rng.Below(4)) {
      case 0: b = uint32_t(rng.Next()); break;                                      // anything
      case 1: b = (a ^ 0x80000000u) + uint32_t(rng.Below(64)) - 32u; break;         // cancellation
      case 2: b = (a & 0xFF800000u) ^ (uint32_t(rng.Next()) & 0x807FFFFFu); break;  // same exponent
      default: b = a + (uint32_t(rng.Below(60)) << 23); break;                      // far apart
    }
    ASSERT_TRUE(check(a, b)) << "pair " << i;
  }
  EXPECT_GE(n, pairs);
}

// ---- the mean of a pooling window (N-4.5) ----

// Sums as the tree makes them (sums of fp16 values: zero, inf, or normal fp32 of at least
// 2^-24) and normal fp32 values of any significand, every count 1..64.
TEST(RtlPeMean, N4_5_EveryCountOnTreeSums) {
  harness::Sim<Vane_pe_mean> sim("ane_pe_mean", harness::CurrentTestStem());
  auto& d = sim.dut();
  const uint64_t seed = test::TestSeed(0x3EA);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  std::vector<uint32_t> sums = {0x00000000u, 0x7F800000u, 0xFF800000u, 0x33800000u, 0xB3800000u,
                                0x477FE000u, 0x4B7FE000u, 0x3F800000u, 0x40400000u};
  for (int i = 0; i < 30000; ++i) {
    // A tree sum: a fp16 value times up to 64, plus a small fp16 value, in fp32.
    std::array<uint16_t, 64> v{};
    const int k = 1 + int(rng.Below(64));
    const uint32_t scale = rng.Below(30);
    for (int j = 0; j < k; ++j) v[size_t(j)] = uint16_t((rng.Code() & 0x83FF) | ((1 + scale) << 10));
    sums.push_back(oracle::ReduceTree(ReduceOp::kSum, v, k == 64 ? ~uint64_t(0) : (uint64_t(1) << k) - 1));
  }
  // Any fp32 significand (every low bit pattern, which only the sticky bit sees) at exponents
  // from below the fp16 subnormals to above the fp16 range.
  for (int i = 0; i < 20000; ++i) {
    const uint32_t exp = 127 - 30 + rng.Below(54);
    sums.push_back(uint32_t(rng.Below(2)) << 31 | exp << 23 | uint32_t(rng.Next() & 0x7FFFFF));
  }
  for (uint32_t s : sums) {
    for (int n = 1; n <= 64; ++n) {
      d.sum_i = s;
      d.n_i = uint8_t(n);
      sim.Eval();
      ASSERT_EQ(d.y_o, oracle::MeanFinish(s, n)) << std::hex << "sum 0x" << s << std::dec << " / " << n;
    }
  }
}

// Means just below the smallest normal, 2^-14, that round up to it (the rounding carries out of
// the subnormal significand into exponent 1), and their neighbours, in both signs, every count.
// Random tree sums almost never land there: a whole coverage run reached the branch only in the
// model's random power-up state.
TEST(RtlPeMean, N4_5_SubnormalMeansRoundingUpToTheSmallestNormal) {
  harness::Sim<Vane_pe_mean> sim("ane_pe_mean", harness::CurrentTestStem());
  auto& d = sim.dut();
  int carried = 0, stayed = 0;
  for (int n = 1; n <= 64; ++n) {
    // n * 1023.5 * 2^-24 is the tie between the largest subnormal and 2^-14: fp32 values around it
    const float tie = float(double(n) * 1023.5 * 0x1p-24);
    uint32_t t;
    std::memcpy(&t, &tie, 4);
    for (int delta = -3; delta <= 3; ++delta) {
      for (uint32_t sign : {0u, 0x80000000u}) {
        const uint32_t s = sign | uint32_t(int64_t(t) + delta);
        float sf;
        std::memcpy(&sf, &s, 4);
        d.sum_i = s;
        d.n_i = uint8_t(n);
        sim.Eval();
        const uint16_t want = oracle::MeanFinish(s, n);
        ASSERT_EQ(d.y_o, want) << std::hex << "sum 0x" << s << std::dec << " / " << n;
        // reached: an exact quotient below 2^-14 whose result is 2^-14 (or the 0x03FF it stays at)
        if (std::fabs(double(sf)) >= double(n) * 0x1p-14) continue;
        if ((want & 0x7FFF) == 0x0400) {
          ++carried;
        } else {
          ++stayed;
        }
      }
    }
  }
  EXPECT_GT(carried, 64);
  EXPECT_GT(stayed, 64);
}

// ---- the reduction tree ----

using test::Patch;

using test::RandomPatches;

using test::ReduceResult;

// The results of a patch stream, each checked against the oracle (test::DriveReduce).
std::vector<ReduceResult> RunReduce(harness::Sim<Vane_pe_reduce>& sim, const std::vector<Patch>& in, test::Rng& rng,
                                    int gap_pct, int stall_pct, test::StreamRun* st) {
  std::vector<ReduceResult> got;
  const test::StreamRun run = test::DriveReduce(sim, in, rng, gap_pct, stall_pct, &got);
  EXPECT_EQ(run.results, test::ReduceOracle(in).size());
  if (st) *st = run;
  return got;
}

TEST(RtlPeReduce, N4_4_RandomReductionsUnderGapsAndBackPressure) {
  const uint64_t seed = test::TestSeed(0x7EE);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  harness::Sim<Vane_pe_reduce> sim("ane_pe_reduce", harness::CurrentTestStem());
  sim.dut().in_valid_i = 0;
  sim.dut().out_ready_i = 1;
  sim.Reset();
  const auto in = RandomPatches(rng, int(20000 * test::SoakFactor()));
  const auto got = RunReduce(sim, in, rng, 30, 30, nullptr);
  EXPECT_GT(in.size(), 50000u);
}

TEST(RtlPeReduce, N4_4_DirectedSumsAtTheTopOfTheRange) {
  harness::Sim<Vane_pe_reduce> sim("ane_pe_reduce", harness::CurrentTestStem());
  sim.dut().in_valid_i = 0;
  sim.Reset();
  test::Rng rng(1);
  std::vector<Patch> in(3);
  // 4 x 16376 = 65504; + 8 = 65512 -> 65504; + 16 -> 65520 -> inf.
  for (int k = 0; k < 3; ++k) {
    in[size_t(k)].first = in[size_t(k)].last = true;
    in[size_t(k)].mask = 0x3F;
    for (int i = 0; i < 4; ++i) in[size_t(k)].v[size_t(i)] = 0x7BFF & 0x77FF;  // 16376
    in[size_t(k)].v[4] = k >= 1 ? 0x4800 : 0;                                  // 8
    in[size_t(k)].v[5] = k == 2 ? 0x4800 : 0;
  }
  const auto got = RunReduce(sim, in, rng, 0, 0, nullptr);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].fp16, 0x7BFF);
  EXPECT_EQ(got[1].fp16, 0x7BFF);
  EXPECT_EQ(got[2].fp16, 0x7C00);
}

TEST(RtlPeReduce, N4_4_XSeedsDoNotChangeAnyResult) {
  std::vector<std::vector<ReduceResult>> runs;
  for (uint32_t x_seed : {1u, 5u, 0xFACEu}) {
    test::Rng rng(0x55);
    harness::Sim<Vane_pe_reduce> sim("ane_pe_reduce", harness::CurrentTestStem(), x_seed);
    sim.dut().in_valid_i = 0;
    sim.Reset();
    const auto in = RandomPatches(rng, 500);
    runs.push_back(RunReduce(sim, in, rng, 20, 20, nullptr));
  }
  for (size_t r = 1; r < runs.size(); ++r) {
    ASSERT_EQ(runs[r].size(), runs[0].size());
    for (size_t i = 0; i < runs[r].size(); ++i) ASSERT_EQ(runs[r][i].fp32, runs[0][i].fp32);
  }
}

// One patch per cycle at full rate, latency 22: P single-patch reductions take P + 22 cycles.
TEST(RtlPeReduce, N4_4_CyclesOnePatchPerCycleLatency22) {
  test::Rng rng(9);
  harness::Sim<Vane_pe_reduce> sim("ane_pe_reduce", harness::CurrentTestStem());
  sim.dut().in_valid_i = 0;
  sim.Reset();
  std::vector<Patch> in = RandomPatches(rng, 1000);
  for (auto& p : in) p.first = p.last = true;
  test::StreamRun st;
  const auto got = RunReduce(sim, in, rng, 0, 0, &st);
  EXPECT_EQ(st.first_result, 22u);
  EXPECT_EQ(st.cycles, in.size() + 22);
  RecordProperty("patches", int(in.size()));
  RecordProperty("cycles", int(st.cycles));
}

// The running register is a recurrence through a three-stage node: a patch that accumulates
// (not first) waits in S18 until its predecessor's value is in the register, two cycles.
// R reductions of P patches at full rate take R P + 2 R (P - 1) + 22 cycles.
TEST(RtlPeReduce, N4_4_CyclesAccumulatingPatchesWaitTwoCycles) {
  test::Rng rng(10);
  harness::Sim<Vane_pe_reduce> sim("ane_pe_reduce", harness::CurrentTestStem());
  sim.dut().in_valid_i = 0;
  sim.Reset();
  std::vector<Patch> in = RandomPatches(rng, 1000);
  in.resize(1000);
  for (size_t i = 0; i < in.size(); ++i) {
    in[i].op = in[i - i % 4].op;
    in[i].first = i % 4 == 0;
    in[i].last = i % 4 == 3;
  }
  test::StreamRun st;
  const auto got = RunReduce(sim, in, rng, 0, 0, &st);
  EXPECT_EQ(st.first_result, 4u + 2u * 3u + 22u - 1u);
  EXPECT_EQ(st.cycles, in.size() + 2 * 250 * 3 + 22);
}

}  // namespace
}  // namespace ane
