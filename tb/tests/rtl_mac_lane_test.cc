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
#include "tb/harness/sim.h"
#include "tb/oracle/mac.h"
#include "tb/tests/mac_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::Generation;
using oracle::MacMode;
using test::Rng;

enum Cmd : uint8_t { kCmdMac = 0, kCmdLoad = 1, kCmdClear = 2 };

constexpr int kLatency = 4;  // accepted operation -> result valid (documented in the RTL header)

struct Op {
  Cmd cmd = kCmdMac;
  MacMode mode = MacMode::kFp16;
  int slot = 0;
  bool first = false;
  bool last = false;
  uint16_t data = 0;
  uint16_t kernel = 0;
};

struct Expected {
  int slot;
  uint32_t acc;
  uint16_t fp16;
  bool sat;
  bool check_fp16;
  uint64_t accept_cycle;
};

// Random reductions interleaved over the slots.
class StreamGen {
 public:
  explicit StreamGen(uint64_t seed) : rng_(seed) {}

  Op Next() {
    // Start new reductions on idle slots now and then, else continue an active one.
    if (active_.empty() || (active_.size() < 4 && rng_.Below(4) == 0)) Start();
    const size_t pick = rng_.Below(uint32_t(active_.size()));
    Reduction& r = active_[pick];
    Op op;
    if (!r.prefix.empty()) {
      op = r.prefix.front();
      r.prefix.pop_front();
      return op;
    }
    op.cmd = kCmdMac;
    op.mode = r.mode;
    op.slot = r.slot;
    op.first = r.first_pending;
    r.first_pending = false;
    op.last = --r.remaining == 0;
    Operands(r, &op);
    if (op.last) {
      for (int s = r.slot; s < r.slot + Width(r.mode); ++s) busy_[size_t(s)] = false;
      active_.erase(active_.begin() + long(pick));
    }
    return op;
  }

 private:
  struct Reduction {
    MacMode mode;
    int slot;
    int remaining;
    bool first_pending;
    uint16_t anchor;
    std::deque<Op> prefix;  // a load or clear before the first product
  };

  static int Width(MacMode m) { return m == MacMode::kInt4 ? 4 : 1; }

  void Start() {
    static constexpr MacMode kModes[] = {MacMode::kFp16, MacMode::kFp16, MacMode::kFp16,
                                         MacMode::kInt8, MacMode::kInt8xFp16, MacMode::kFp16xInt8,
                                         MacMode::kInt4, MacMode::kCmpMax, MacMode::kCmpMin};
    const MacMode mode = kModes[rng_.Below(9)];
    const int width = Width(mode);
    std::vector<int> free_bases;
    for (int s = 0; s + width <= 8; ++s) {
      bool ok = true;
      for (int i = 0; i < width; ++i) ok = ok && !busy_[size_t(s + i)];
      if (ok) free_bases.push_back(s);
    }
    if (free_bases.empty()) return;
    Reduction r;
    r.mode = mode;
    r.slot = free_bases[rng_.Below(uint32_t(free_bases.size()))];
    const uint32_t len_kind = rng_.Below(8);
    r.remaining = 1 + int(len_kind == 0 ? rng_.Below(400) : rng_.Below(12));
    r.anchor = uint16_t(rng_.Code() & 0xFBFF);
    // How the reduction starts: first on its first product, or a preceding load or clear.
    const uint32_t start = rng_.Below(6);
    r.first_pending = start >= 2;
    if (start < 2 && mode != MacMode::kInt4) {
      Op pre;
      pre.cmd = start == 0 ? kCmdLoad : kCmdClear;
      pre.slot = r.slot;
      if (start == 0) {
        uint32_t v = oracle::IsIntegerMode(mode)
                         ? uint32_t(int32_t(rng_.Next() % 4000000001ull) - 2000000000)
                         : test::RandomAcc(rng_);
        pre.data = uint16_t(v);
        pre.kernel = uint16_t(v >> 16);
      }
      r.prefix.push_back(pre);
    } else if (start < 2) {
      r.first_pending = true;
    }
    for (int i = 0; i < width; ++i) busy_[size_t(r.slot + i)] = true;
    active_.push_back(r);
  }

  void Operands(const Reduction& r, Op* op) {
    switch (r.mode) {
      case MacMode::kFp16:
        op->data = test::RandomOperand(rng_, r.anchor);
        op->kernel = rng_.Below(3) == 0 ? 0x3C00 : test::RandomOperand(rng_, 0x3C00);
        break;
      case MacMode::kInt8:
        op->data = rng_.Below(4) == 0 ? uint16_t(0x7F | (rng_.Below(2) << 7)) : rng_.Code();
        op->kernel = rng_.Below(4) == 0 ? uint16_t(0x80 | rng_.Below(2)) : rng_.Code();
        break;
      case MacMode::kInt8xFp16:
        op->data = rng_.Code();
        op->kernel = test::RandomOperand(rng_, r.anchor);
        break;
      case MacMode::kFp16xInt8:
        op->data = test::RandomOperand(rng_, r.anchor);
        op->kernel = rng_.Code();
        break;
      case MacMode::kInt4:
        op->data = rng_.Code();
        op->kernel = rng_.Code();
        break;
      case MacMode::kCmpMax:
      case MacMode::kCmpMin:
        op->data = test::RandomOperand(rng_, r.anchor);
        op->kernel = rng_.Code();  // ignored
        break;
    }
  }

  Rng rng_;
  std::vector<Reduction> active_;
  bool busy_[8] = {};
};

struct LaneRun {
  uint64_t cycles = 0;
  uint64_t accepted = 0;
  uint64_t products = 0;
  uint64_t results = 0;
  uint64_t stall_cycles = 0;  // an operation was offered and not accepted
  std::vector<uint32_t> raw;  // every result's raw slot value, in order
  int min_latency = 1 << 30;
  int max_latency = 0;
};

// Drives `n_ops` operations; in_valid_pct / out_ready_pct set the gaps and back-pressure.
template <class Model>
LaneRun RunLane(Generation gen, uint64_t seed, uint64_t n_ops, int in_valid_pct,
                int out_ready_pct, uint32_t x_seed) {
  harness::Sim<Model> sim("ane_mac_lane", harness::CurrentTestStem(), x_seed);
  auto& dut = sim.dut();
  oracle::MacLane model(gen);
  StreamGen gen_ops(seed);
  Rng rng(seed ^ 0x5EED);
  std::deque<Expected> expected;
  LaneRun run;

  dut.clk_i = 0;
  dut.in_valid_i = 0;
  dut.out_ready_i = 0;
  dut.rd_en_i = 0;
  sim.Reset();

  bool have_op = false;
  Op op;
  uint64_t issued = 0;
  uint64_t idle = 0;
  while (issued < n_ops || !expected.empty() || idle < 8) {
    // Inputs for this cycle; valid holds its operation until accepted.
    if (!have_op && issued < n_ops && int(rng.Below(100)) < in_valid_pct) {
      op = gen_ops.Next();
      have_op = true;
    }
    dut.in_valid_i = have_op;
    dut.in_cmd_i = op.cmd;
    dut.in_mode_i = uint8_t(op.mode);
    dut.in_slot_i = uint8_t(op.slot);
    dut.in_first_i = op.first;
    dut.in_last_i = op.last;
    dut.in_data_i = op.data;
    dut.in_kernel_i = op.kernel;
    dut.out_ready_i = int(rng.Below(100)) < out_ready_pct;
    dut.rd_en_i = rng.Below(2);  // reads during traffic must not disturb anything
    dut.rd_slot_i = uint8_t(rng.Below(8));
    sim.Eval();

    // Result handshake.
    if (dut.out_valid_o && dut.out_ready_i) {
      if (expected.empty()) {
        ADD_FAILURE() << "unexpected result at cycle " << run.cycles;
        return run;
      }
      const Expected e = expected.front();
      expected.pop_front();
      EXPECT_EQ(int(dut.out_slot_o), e.slot) << "cycle " << run.cycles;
      EXPECT_EQ(dut.out_acc_o, e.acc) << std::hex << "slot " << e.slot << " raw result, cycle "
                                      << std::dec << run.cycles;
      if (e.check_fp16) {
        EXPECT_EQ(dut.out_fp16_o, e.fp16) << std::hex << "slot " << e.slot;
      }
      EXPECT_EQ(bool(dut.out_sat_o), e.sat) << "slot " << e.slot;
      ++run.results;
      run.raw.push_back(dut.out_acc_o);
      const int latency = int(run.cycles - e.accept_cycle);  // first cycle shown, if ready
      run.min_latency = std::min(run.min_latency, latency);
      run.max_latency = std::max(run.max_latency, latency);
      if (::testing::Test::HasFailure()) return run;
    }
    if (have_op && !dut.in_ready_o) ++run.stall_cycles;
    // Operation handshake: the oracle executes it at once, in order.
    if (have_op && dut.in_ready_o) {
      have_op = false;
      ++issued;
      ++run.accepted;
      idle = 0;
      if (op.cmd == kCmdLoad) {
        model.Load(op.slot, uint32_t(op.data) | (uint32_t(op.kernel) << 16));
      } else if (op.cmd == kCmdClear) {
        model.Clear(op.slot);
      } else {
        if (op.first) {
          for (int i = 0; i < (op.mode == MacMode::kInt4 ? 4 : 1); ++i) model.Clear(op.slot + i);
        }
        model.Step(op.mode, op.data, op.kernel, op.slot, op.last);
        run.products += op.mode == MacMode::kInt4 ? 4 : 1;
        if (op.last) {
          const bool fp = !oracle::IsIntegerMode(op.mode);
          expected.push_back({op.slot, model.ReadRaw(op.slot), fp ? model.ReadFp16(op.slot) : uint16_t(0),
                              model.Saturated(op.slot), fp, run.cycles});
        }
      }
    } else if (issued >= n_ops) {
      ++idle;
    }
    sim.Tick();
    ++run.cycles;
  }

  // Drained: read every slot through the read port.
  dut.in_valid_i = 0;
  for (int s = 0; s < 8; ++s) {
    dut.rd_en_i = 1;
    dut.rd_slot_i = uint8_t(s);
    sim.Eval();
    sim.Tick();
    dut.rd_en_i = 0;
    sim.Eval();
    EXPECT_TRUE(dut.rd_valid_o);
    EXPECT_EQ(dut.rd_acc_o, model.ReadRaw(s)) << "read port, slot " << s;
    EXPECT_EQ(bool(dut.rd_sat_o), model.Saturated(s)) << "read port, slot " << s;
    EXPECT_EQ(dut.rd_fp16_o, oracle::OutputPort(model.ReadRaw(s), gen)) << "read port, slot " << s;
  }
  return run;
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
  ::testing::Test::RecordProperty("products", std::to_string(run.products));
  if (c.out_ready_pct == 100) {
    // Initiation interval 1 (never a stall) and a fixed latency when the output never blocks.
    EXPECT_EQ(run.stall_cycles, 0u);
    EXPECT_EQ(run.min_latency, kLatency);
    EXPECT_EQ(run.max_latency, kLatency);
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

INSTANTIATE_TEST_SUITE_P(
    Traffic, MacLaneStream,
    ::testing::Values(LaneCase{"FullRate", 100, 100, 1}, LaneCase{"InputGaps", 60, 100, 2},
                      LaneCase{"BackPressure", 100, 40, 3}, LaneCase{"GapsAndBackPressure", 70, 60, 1}),
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

}  // namespace
}  // namespace ane
