// SPDX-License-Identifier: Apache-2.0
// ane_mac_lane against the oracle's MacLane, exact bits (NUMERICS N-2, N-7.1).
// A seeded random stream of interleaved reductions over all 8 slots in every mode (fp16,
// int8, int8 x fp16, fp16 x int8, int4 packed, compare max/min), with loads, clears, first
// and last, random input gaps and random back-pressure on the result stream. Every result is
// compared when it leaves the lane; at the end every slot is read back through the read port.
#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "Vane_mac_lane_m1.h"
#include "Vane_mac_lane_m5.h"
#include "tb/harness/mac_stream_start.h"
#include "tb/harness/sim.h"
#include "tb/oracle/mac.h"
#include "tb/tests/mac_drive.h"
#include "tb/tests/mac_stimulus.h"
#include "tb/tests/mac_stream.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::Generation;
using oracle::MacMode;
using test::kCmdClear;
using test::kCmdLoad;
using test::kCmdMac;
using test::Op;
using test::Rng;
using test::StreamGen;

constexpr int kLatency = int(test::TimingModel::kLatency);  // accepted -> result (docs/mac_lane.md)

using LaneRun = test::MacRun;

// A fixed list of operations, in the interface of StreamGen (Next, max_k).
class OpList {
 public:
  explicit OpList(std::vector<Op> ops) : ops_(std::move(ops)) {}
  Op Next() { return ops_.at(next_++); }
  int max_k() const { return 0; }
  uint64_t size() const { return ops_.size(); }

 private:
  std::vector<Op> ops_;
  size_t next_ = 0;
};

// Drives `n_ops` operations from `gen_ops` on a freshly reset lane (test::DriveLane);
// in_valid_pct / out_ready_pct set the gaps and back-pressure (their random draws come from
// `seed`).
template <class Model, class Source>
LaneRun RunLaneOn(Generation gen, Source& gen_ops, uint64_t seed, uint64_t n_ops, int in_valid_pct, int out_ready_pct,
                  uint32_t x_seed) {
  harness::Sim<Model> sim("ane_mac_lane", harness::CurrentTestStem(), x_seed);
  harness::StartMacStream(sim);
  Rng rng(seed ^ 0x5EED);
  return test::DriveLane(sim, gen, gen_ops, rng, n_ops, {in_valid_pct, out_ready_pct, true});
}

// Drives `n_ops` operations of the random stream `seed`.
template <class Model>
LaneRun RunLane(Generation gen, uint64_t seed, uint64_t n_ops, int in_valid_pct, int out_ready_pct, uint32_t x_seed) {
  StreamGen gen_ops(seed);
  return RunLaneOn<Model>(gen, gen_ops, seed, n_ops, in_valid_pct, out_ready_pct, x_seed);
}

struct LaneCase {
  const char* name;
  int in_valid_pct;
  int out_ready_pct;
  uint32_t x_seed;
};

class MacLaneStream : public ::testing::TestWithParam<LaneCase> {};

template <class Model>
void CheckStream(Generation gen, const LaneCase& c, uint64_t default_seed) {
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  const uint64_t n = 1'200'000 * test::SoakFactor();
  const LaneRun run = RunLane<Model>(gen, seed, n, c.in_valid_pct, c.out_ready_pct, c.x_seed);
  EXPECT_EQ(run.accepted, n);
  EXPECT_GT(run.results, n / 100);
  EXPECT_GT(run.products, n);  // int4 operations count four products
  EXPECT_GT(run.max_k, 3500);  // K up to 4096 reached (N-2.4 quads, N-2.5 long accumulation)
  ::testing::Test::RecordProperty("products", std::to_string(run.products));
  if (c.out_ready_pct == 100) {
    // Every acceptance and every result in the cycle the timing rule gives, and latency
    // kLatency for an operation that did not wait in register 0. (The random stream puts
    // dependent operations on one slot next to each other, so some do wait.)
    EXPECT_EQ(run.timing_checks, run.accepted + run.stall_cycles);
    EXPECT_EQ(run.min_latency, kLatency);
    ::testing::Test::RecordProperty("stall_cycles", std::to_string(run.stall_cycles));
  } else {
    EXPECT_GT(run.stall_cycles, 0u);  // the back-pressure really reached the input
    EXPECT_GE(run.min_latency, kLatency);
  }
}

TEST_P(MacLaneStream, N2_M1LaneMatchesOracle) {
  CheckStream<Vane_mac_lane_m1>(Generation::kM1, GetParam(), 7001 + GetParam().x_seed);
}
TEST_P(MacLaneStream, N2_M5LaneMatchesOracle) {
  CheckStream<Vane_mac_lane_m5>(Generation::kM5, GetParam(), 7101 + GetParam().x_seed);
}

INSTANTIATE_TEST_SUITE_P(Traffic, MacLaneStream,
                         ::testing::Values(LaneCase{"FullRate", 100, 100, 1}, LaneCase{"InputGaps", 60, 100, 2},
                                           LaneCase{"BackPressure", 100, 40, 3},
                                           LaneCase{"GapsAndBackPressure", 70, 60, 1}),
                         [](const auto& info) { return std::string(info.param.name); });

// N-7.1: the same stream under different input gaps, back-pressure and X seeds gives the same
// result sequence, bit for bit.
TEST(MacLaneDeterminism, N7_1_ResultsDoNotDependOnStallsOrXSeeds) {
  std::vector<uint32_t> first;
  for (uint32_t x_seed : {11u, 12u, 13u}) {
    const int gaps = 50 + 20 * int(x_seed % 3), ready = 40 + 25 * int(x_seed % 3);
    const LaneRun run = RunLane<Vane_mac_lane_m1>(Generation::kM1, 99, 20000, gaps, ready, x_seed);
    ASSERT_GT(run.raw.size(), 100u);
    if (first.empty()) {
      first = run.raw;
    } else {
      EXPECT_EQ(run.raw, first) << "x seed " << x_seed << " changed the results";
    }
  }
}

// N-2.8 at the ends of int32: integer reductions continued from loaded accumulators next to
// INT32_MAX and INT32_MIN and next to every carry boundary of the accumulate (the lane adds the
// low 9 bits apart from the rest, docs/mac_lane.md), with quads from the extremes of the int8
// and int4 products: saturation on either end, sums that stop one short of it, and a saturated
// slot that keeps accumulating (its flag stays set). The random streams load values in
// +-2e9 and never load before int4, so they almost never get there.
std::vector<Op> Int32EdgeOps(uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> accs = {0x7FFFFFFFu, 0x7FFFFFFEu, 0x7FFFFF00u, 0x7FFFFE01u, 0x7FFC0000u, 0x7FFBFFFFu,
                                0x7FFEFFFFu, 0x80000000u, 0x80000001u, 0x800001FFu, 0x80000200u, 0x8003FFFFu,
                                0x80040000u, 0x80010000u, 0xFFFFFFFFu, 0x00000000u, 0x000001FFu, 0x00000200u,
                                0x0003FFFFu, 0xFFFC0000u, 0xFFFFFE00u, 0x7FFF0000u, 0x8000FFFFu};
  for (int i = 0; i < 24; ++i) {  // random low bits under the ends
    accs.push_back(0x7FF00000u | (rng.Next() & 0xFFFFFu));
    accs.push_back(0x80000000u | (rng.Next() & 0xFFFFFu));
  }
  // int8 operand pairs: the extreme products (+16384, +16129, -16256, ...) and small ones.
  const uint8_t kI8[] = {0x80, 0x81, 0x7F, 0x7E, 0x01, 0xFF, 0x00, 0x40, 0xC0};
  std::vector<Op> ops;
  int slot = 0;
  for (uint32_t acc : accs) {
    for (int quad_kind = 0; quad_kind < 6; ++quad_kind) {
      const MacMode mode = quad_kind < 4 ? MacMode::kInt8 : MacMode::kInt4;
      const int width = mode == MacMode::kInt4 ? 4 : 1;
      if (slot + width > 8) slot = 0;
      for (int i = 0; i < width; ++i) {
        Op load;
        load.cmd = kCmdLoad;
        load.slot = slot + i;
        const uint32_t v = acc ^ (i == 0 ? 0u : rng.Next() & 0x1FFu);  // int4: four nearby values
        load.data = uint16_t(v);
        load.kernel = uint16_t(v >> 16);
        ops.push_back(load);
      }
      // Two quads (8 products), then a third that is cut short: the second continues a slot
      // that may already be saturated.
      const int k = 8 + 1 + int(rng.Below(4));
      for (int j = 0; j < k; ++j) {
        Op op;
        op.mode = mode;
        op.slot = slot;
        op.first = false;
        op.last = j == k - 1;
        if (mode == MacMode::kInt8) {
          // kinds: positive extremes (-128 x -128 = 16384, 127 x 127, ...), negative extremes
          // (-128 x 127 = -16256, ...), mixed extremes, small products
          const uint8_t neg = kI8[rng.Below(2)], pos = kI8[2 + rng.Below(2)];
          uint8_t d = 0, w = 0;
          if (quad_kind == 0) {
            d = rng.Below(2) ? neg : pos;
            w = (d & 0x80) ? kI8[rng.Below(2)] : kI8[2 + rng.Below(2)];
          } else if (quad_kind == 1) {
            d = rng.Below(2) ? neg : pos;
            w = (d & 0x80) ? kI8[2 + rng.Below(2)] : kI8[rng.Below(2)];
          } else if (quad_kind == 2) {
            d = kI8[rng.Below(4)];
            w = kI8[rng.Below(4)];
          } else {
            d = kI8[4 + rng.Below(5)];
            w = kI8[4 + rng.Below(5)];
          }
          op.data = uint16_t(rng.Code() & 0xFF00u) | d;  // the high byte is not part of an int8
          op.kernel = uint16_t(rng.Code() & 0xFF00u) | w;
        } else {
          // int4: -8 x -8 = +64 in every nibble, or -8 x 7 = -56, or random nibbles
          const uint32_t kind = rng.Below(3);
          op.data = kind == 0 ? 0x8888 : kind == 1 ? 0x7777 : rng.Code();
          op.kernel = uint16_t((rng.Code() & 0xFFF0u) | (kind == 2 ? rng.Below(16) : 0x8));
        }
        ops.push_back(op);
      }
      slot += width;
    }
  }
  return ops;
}

TEST(MacLaneIntEdges, N2_8_Int32EndsThroughTheCarrySelectAccumulate) {
  const uint64_t seed = test::TestSeed(8801);
  SCOPED_TRACE(test::SeedNote(seed));
  for (const int gaps : {100, 60}) {
    OpList m1_ops(Int32EdgeOps(seed));
    const uint64_t n = m1_ops.size();
    const LaneRun m1 = RunLaneOn<Vane_mac_lane_m1>(Generation::kM1, m1_ops, seed, n, gaps, gaps == 100 ? 100 : 50, 1);
    EXPECT_EQ(m1.accepted, n);
    OpList m5_ops(Int32EdgeOps(seed));
    const LaneRun m5 = RunLaneOn<Vane_mac_lane_m5>(Generation::kM5, m5_ops, seed, n, gaps, gaps == 100 ? 100 : 50, 2);
    EXPECT_EQ(m5.accepted, n);
    EXPECT_EQ(m1.raw, m5.raw);  // integer results do not depend on the generation
    // The stream reaches both ends: results at INT32_MAX and INT32_MIN, and results near them.
    int at_max = 0, at_min = 0, near = 0;
    for (uint32_t r : m1.raw) {
      at_max += r == 0x7FFFFFFFu;
      at_min += r == 0x80000000u;
      near += (r >= 0x7FF00000u && r < 0x7FFFFFFFu) || (r > 0x80000000u && r <= 0x800FFFFFu);
    }
    EXPECT_GT(at_max, 10);
    EXPECT_GT(at_min, 10);
    EXPECT_GT(near, 10);
  }
}

// N-2.3 / N-2.6 at the fp16 port's boundaries, which random products seldom hit exactly: the
// largest finite result (a one-product reduction of 255.875 x 256 = 65504, no ceiling at K = 1)
// of each sign, 1023 x 2^-24 (the largest subnormal: kept on the m5, flushed on the m1) as one
// product and as a two-product sum of normal products, and 1023.5 x 2^-24 (a tie that rounds up
// to 2^-14, kept on both), and N-2.4's worked sum read at the port. Each result against the
// oracle's lane (test::DriveLane).
std::vector<Op> PortEdgeOps() {
  std::vector<Op> ops;
  auto one = [&ops](int slot, uint16_t a, uint16_t b) {
    Op op;
    op.slot = slot;
    op.first = op.last = true;
    op.data = a;
    op.kernel = b;
    ops.push_back(op);
  };
  for (int rep = 0; rep < 4; ++rep) {
    const int s = rep % 2;       // two slot layouts
    one(0 + s, 0x5BFF, 0x5C00);  // 65504
    one(2 + s, 0xDBFF, 0x5C00);  // -65504
    one(4 + s, 0x2000, 0x1FFE);  // 2^-7 x 2^-8 (1 + 1022/1024) = 1023 x 2^-24
    one(6 + s, 0x2000, 0x1FFF);  // 1023.5 x 2^-24
    Op a;                        // 2^-13 - 2^-14 (1 + 2^-10) = 1023 x 2^-24 from two normal products
    a.slot = 1 - s;
    a.first = true;
    a.data = 0x0800;
    a.kernel = 0x3C00;
    ops.push_back(a);
    a.first = false;
    a.last = true;
    a.data = 0x8401;
    ops.push_back(a);
  }
  // N-2.4's worked sum on one slot: 4096 then 1021 ones, 5117 in an exact (m5) accumulator,
  // which the port rounds to 5116 (the m1's quad stage drops ones on the way)
  for (int k = 0; k < 1022; ++k) {
    Op b;
    b.slot = 3;
    b.first = k == 0;
    b.last = k == 1021;
    b.data = k == 0 ? 0x6C00 : 0x3C00;
    b.kernel = 0x3C00;
    ops.push_back(b);
  }
  return ops;
}

TEST(MacLanePortEdges, N2_3_N2_6_LargestFiniteAndLargestSubnormalResults) {
  const uint64_t seed = test::TestSeed(8802);
  SCOPED_TRACE(test::SeedNote(seed));
  for (const int gaps : {100, 60}) {
    OpList m1_ops(PortEdgeOps());
    const uint64_t n = m1_ops.size();
    const LaneRun m1 = RunLaneOn<Vane_mac_lane_m1>(Generation::kM1, m1_ops, seed, n, gaps, gaps == 100 ? 100 : 50, 1);
    EXPECT_EQ(m1.accepted, n);
    OpList m5_ops(PortEdgeOps());
    const LaneRun m5 = RunLaneOn<Vane_mac_lane_m5>(Generation::kM5, m5_ops, seed, n, gaps, gaps == 100 ? 100 : 50, 2);
    EXPECT_EQ(m5.accepted, n);
    // the accumulators hold the exact values the port rounds (fp32 codes)
    int max_finite = 0, largest_sub = 0, tie = 0, worked = 0;
    for (uint32_t r : m5.raw) {
      max_finite += (r & 0x7FFFFFFFu) == 0x477FE000u;
      largest_sub += r == 0x387FC000u;
      tie += r == 0x387FE000u;
      worked += r == 0x459FE800u;  // 5117
    }
    EXPECT_EQ(max_finite, 8);
    EXPECT_EQ(largest_sub, 8);
    EXPECT_EQ(tie, 4);
    EXPECT_EQ(worked, 1);
  }
}

// N-2.1, N-2.6: two corners the random stream reaches only late (coverage bins
// N2_1_fp_modes_mixed_in_one_quad and N2_6_continuation_of_earlier_reduction): a quad whose
// second product is int8 x fp16 after an fp16 x fp16 first one (both fp16 values by then), and a
// reduction continued without `first` after an earlier one on its slot ended (no load between),
// the continuation under the port ceiling; each in a few orders, on both generations, with and
// without gaps, every result against the oracle.
std::vector<Op> ModeEdgeOps() {
  std::vector<Op> ops;
  auto op = [&](MacMode mode, int slot, bool first, bool last, uint16_t data, uint16_t kernel) {
    Op o;
    o.mode = mode;
    o.slot = slot;
    o.first = first;
    o.last = last;
    o.data = data;
    o.kernel = kernel;
    ops.push_back(o);
  };
  for (int rep = 0; rep < 2; ++rep) {
    op(MacMode::kFp16, 0, true, false, 0x3E00, 0x4000);        // 1.5 x 2
    op(MacMode::kInt8xFp16, 0, false, false, 0x0003, 0x3C00);  // int8 3 x 1: the same quad
    op(MacMode::kFp16xInt8, 0, false, true, 0x3800, 0x00FE);   // 0.5 x int8 -2
    op(MacMode::kFp16, 1, true, true, 0x4000, 0x3C00);         // 2: a reduction of one product
    op(MacMode::kFp16, 1, false, true, 0x7BFF, 0x3C00);        // continued: 2 + 65504, at the ceiling
    op(MacMode::kFp16, 2, true, true, 0x3C00, 0x3C00);
    op(MacMode::kInt8xFp16, 2, false, false, 0x0005, 0x3800);  // continued in another mode
    op(MacMode::kFp16, 2, false, true, 0x3C00, 0xBC00);
  }
  return ops;
}

TEST(MacLaneModeEdges, N2_1_N2_6_MixedModesInAQuadAndAContinuedReductionMatchTheOracle) {
  const uint64_t seed = test::TestSeed(8803);
  SCOPED_TRACE(test::SeedNote(seed));
  for (const int gaps : {100, 60}) {
    OpList m1_ops(ModeEdgeOps());
    const uint64_t n = m1_ops.size();
    const LaneRun m1 = RunLaneOn<Vane_mac_lane_m1>(Generation::kM1, m1_ops, seed, n, gaps, gaps == 100 ? 100 : 50, 1);
    EXPECT_EQ(m1.accepted, n);
    EXPECT_EQ(m1.results, 10u);  // every `last`
    OpList m5_ops(ModeEdgeOps());
    const LaneRun m5 = RunLaneOn<Vane_mac_lane_m5>(Generation::kM5, m5_ops, seed, n, gaps, gaps == 100 ? 100 : 50, 2);
    EXPECT_EQ(m5.accepted, n);
    EXPECT_EQ(m5.results, 10u);
  }
}

// Timing (docs/mac_lane.md): products that rotate over the 8 slots stream at one per cycle, the
// way the array and the core feed the lanes, and every result comes kLatency cycles after its
// last product; a single slot takes 4 cycles per product that continues a quad.
int64_t RunPattern(const std::vector<int>& slots, int k, MacMode mode, int64_t* stalls,
                   std::vector<int64_t>* result_cycles) {
  harness::Sim<Vane_mac_lane_m1> sim("ane_mac_lane", harness::CurrentTestStem());
  auto& dut = sim.dut();
  harness::StartMacStream(sim);
  StreamGen operands(77);
  test::TimingModel timing;
  std::vector<Op> ops;
  for (int i = 0; i < k; ++i) {
    for (int s : slots) {
      Op op;
      op.mode = mode;
      op.slot = s;
      op.first = i == 0;
      op.last = i == k - 1;
      operands.Operands(mode, 0x3C00, &op);
      ops.push_back(op);
    }
  }
  size_t next = 0;
  int64_t cycle = 0, last_accept = 0;
  *stalls = 0;
  while (next < ops.size() || cycle < last_accept + 2 * kLatency) {
    const bool valid = next < ops.size();
    const Op& op = ops[std::min(next, ops.size() - 1)];
    dut.in_valid_i = valid;
    test::PutOpControl(dut, op);  // kCmdMac, as every op of the pattern
    dut.in_data_i = op.data;
    dut.in_kernel_i = op.kernel;
    sim.Eval();
    if (dut.out_valid_o) result_cycles->push_back(cycle);
    if (valid) {
      EXPECT_EQ(bool(dut.in_ready_o), cycle >= timing.ReadyFrom()) << "cycle " << cycle;
      if (dut.in_ready_o) {
        timing.Accept(op, cycle);
        last_accept = cycle;
        ++next;
      } else {
        ++*stalls;
      }
    }
    sim.Tick();
    ++cycle;
  }
  return last_accept + 1;  // cycles to accept every operation
}

TEST(MacLaneTiming, N7_OneProductPerCycleWhenTheSlotsRotate) {
  for (MacMode mode : {MacMode::kFp16, MacMode::kInt8xFp16, MacMode::kInt8, MacMode::kCmpMax}) {
    int64_t stalls = 0;
    std::vector<int64_t> results;
    const int k = 64;
    const int64_t cycles = RunPattern({0, 1, 2, 3, 4, 5, 6, 7}, k, mode, &stalls, &results);
    EXPECT_EQ(stalls, 0) << oracle::MacModeName(mode);
    EXPECT_EQ(cycles, 8 * k) << oracle::MacModeName(mode);  // initiation interval 1
    ASSERT_EQ(results.size(), 8u);
    for (int s = 0; s < 8; ++s) {  // the last product of slot s is accepted in cycle 8(k-1) + s
      EXPECT_EQ(results[size_t(s)], 8 * (k - 1) + s + kLatency) << oracle::MacModeName(mode);
    }
  }
  // Four slots are enough to hide every dependency; two-slot and one-slot fp reductions wait.
  int64_t stalls = 0;
  std::vector<int64_t> results;
  EXPECT_EQ(RunPattern({0, 1, 2, 3}, 64, MacMode::kFp16, &stalls, &results), 4 * 64);
  EXPECT_EQ(stalls, 0);
}

TEST(MacLaneTiming, N7_OneSlotWaitsForItsOwnQuad) {
  int64_t stalls = 0;
  std::vector<int64_t> results;
  const int k = 64;
  // fp: a product that continues a quad waits 4 cycles for the previous one; the first product
  // of each quad does not wait: 1 + 3 x 4 = 13 cycles per quad (the timing model's figure).
  const int64_t fp = RunPattern({5}, k, MacMode::kFp16, &stalls, &results);
  EXPECT_EQ(fp, 13 * (k / 4) - 3) << "stalls " << stalls;
  ::testing::Test::RecordProperty("single_slot_fp_cycles", std::to_string(fp));
  // integer quads and accumulators are read and written within one stage: no wait.
  results.clear();
  EXPECT_EQ(RunPattern({5}, k, MacMode::kInt8, &stalls, &results), k);
  EXPECT_EQ(stalls, 0);
  results.clear();
  EXPECT_EQ(RunPattern({2}, k, MacMode::kInt4, &stalls, &results), k);
  EXPECT_EQ(stalls, 0);
}

}  // namespace
}  // namespace ane
