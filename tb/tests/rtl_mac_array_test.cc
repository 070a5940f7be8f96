// SPDX-License-Identifier: Apache-2.0
// ane_mac_array against NumLanes oracle MacLanes, exact bits (NUMERICS N-2, N-7.1):
// kernel broadcast and the fp16 two-kernel mode (data value i to lanes 2i and 2i+1, kernel A
// to even lanes, kernel B to odd lanes), every mode, random gaps and back-pressure; every
// result of every lane compared, then every slot of every lane read back.
#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "Vane_mac_array16_m1.h"
#include "Vane_mac_array16_m5.h"
#include "Vane_mac_array256_m1.h"
#include "Vane_mac_array256_m5.h"
#include "tb/harness/sim.h"
#include "tb/oracle/mac.h"
#include "tb/tests/mac_stream.h"
#include "tb/tests/test_seed.h"
#include "tb/tests/wide_port.h"

namespace ane {
namespace {

using oracle::Generation;
using oracle::MacMode;
using test::Op;
using test::Rng;
using test::StreamGen;

using test::Get;
using test::Set;

struct ArrayOp {
  Op op;        // control, and kernel A in op.kernel
  int per = 1;  // kernels per data value: 1, 2 (two-kernel) or 4 (four-kernel)
  uint16_t kernel_b = 0, kernel_c = 0, kernel_d = 0;
  std::vector<uint16_t> data;  // per data value
  std::vector<uint16_t> aux;   // per lane, CmdLoad upper halves
};

template <class Model, int kLanes>
void RunArray(Generation gen, uint64_t seed, uint64_t n_ops, int in_valid_pct, int out_ready_pct, uint32_t x_seed) {
  harness::Sim<Model> sim("ane_mac_array", harness::CurrentTestStem(), x_seed);
  auto& dut = sim.dut();
  std::vector<oracle::MacLane> lanes(kLanes, oracle::MacLane(gen));
  StreamGen stream(seed);
  Rng rng(seed ^ 0xA77A);
  struct Expected {
    int slot;
    std::vector<uint32_t> acc;
    std::vector<uint16_t> fp16;
    std::vector<bool> sat;
    bool fp;
  };
  std::deque<Expected> expected;

  dut.clk_i = 0;
  dut.in_valid_i = 0;
  dut.out_ready_i = 0;
  dut.rd_en_i = 0;
  sim.Reset();

  bool have = false;
  ArrayOp a;
  uint64_t issued = 0, idle = 0, results = 0, two_kernel_ops = 0, four_kernel_ops = 0;
  while (issued < n_ops || !expected.empty() || idle < 32) {  // drained: longer than the pipeline
    if (!have && issued < n_ops && int(rng.Below(100)) < in_valid_pct) {
      a = ArrayOp();
      a.op = stream.Next();
      if (a.op.cmd == test::kCmdMac && a.op.mode == MacMode::kFp16) a.per = int(1u << rng.Below(3));
      two_kernel_ops += a.per == 2;
      four_kernel_ops += a.per == 4;
      a.data.resize(kLanes);
      a.aux.resize(kLanes);
      const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
      for (int i = 0; i < kLanes; ++i) {
        Op lane_op;
        stream.Operands(a.op.mode, anchor, &lane_op);
        a.data[size_t(i)] = a.op.cmd == test::kCmdMac ? lane_op.data : rng.Code();
        a.aux[size_t(i)] = rng.Code();
      }
      Op kb, kc, kd;
      stream.Operands(MacMode::kFp16, anchor, &kb);
      stream.Operands(MacMode::kFp16, anchor, &kc);
      stream.Operands(MacMode::kFp16, anchor, &kd);
      a.kernel_b = kb.kernel;
      a.kernel_c = kc.kernel;
      a.kernel_d = kd.kernel;
      have = true;
    }
    dut.in_valid_i = have;
    dut.in_cmd_i = a.op.cmd;
    dut.in_mode_i = uint8_t(a.op.mode);
    dut.in_slot_i = uint8_t(a.op.slot);
    dut.in_first_i = a.op.first;
    dut.in_last_i = a.op.last;
    dut.in_two_kernel_i = a.per == 2;
    dut.in_four_kernel_i = a.per == 4;
    dut.in_kernel_a_i = a.op.kernel;
    dut.in_kernel_b_i = a.kernel_b;
    dut.in_kernel_c_i = a.kernel_c;
    dut.in_kernel_d_i = a.kernel_d;
    for (int i = 0; i < kLanes && have; ++i) {
      Set(dut.in_data_i, 16, i, a.data[size_t(i)]);
      Set(dut.in_aux_i, 16, i, a.aux[size_t(i)]);
    }
    dut.out_ready_i = int(rng.Below(100)) < out_ready_pct;
    dut.rd_en_i = rng.Below(2);
    dut.rd_slot_i = uint8_t(rng.Below(8));
    sim.Eval();

    if (dut.out_valid_o && dut.out_ready_i) {
      ASSERT_FALSE(expected.empty()) << "unexpected result";
      const Expected e = expected.front();
      expected.pop_front();
      ASSERT_EQ(int(dut.out_slot_o), e.slot);
      for (int i = 0; i < kLanes; ++i) {
        ASSERT_EQ(Get(dut.out_acc_o, 32, i), e.acc[size_t(i)]) << "lane " << i << " slot " << e.slot;
        if (e.fp) {
          ASSERT_EQ(Get(dut.out_fp16_o, 16, i), e.fp16[size_t(i)]) << "lane " << i;
        }
        ASSERT_EQ(bool(Get(dut.out_sat_o, 1, i)), e.sat[size_t(i)]) << "lane " << i;
      }
      ++results;
    }
    if (have && dut.in_ready_o) {
      have = false;
      ++issued;
      idle = 0;
      const Op& op = a.op;
      Expected e{op.slot, {}, {}, {}, !oracle::IsIntegerMode(op.mode)};
      for (int i = 0; i < kLanes; ++i) {
        oracle::MacLane& lane = lanes[size_t(i)];
        if (op.cmd == test::kCmdLoad) {
          lane.Load(op.slot, uint32_t(a.data[size_t(i)]) | (uint32_t(a.aux[size_t(i)]) << 16));
        } else if (op.cmd == test::kCmdClear) {
          lane.Clear(op.slot);
        } else {
          // data value i / per; kernel i % per of A, B, C, D
          const uint16_t d = a.data[size_t(i / a.per)];
          const uint16_t ks[4] = {op.kernel, a.kernel_b, a.kernel_c, a.kernel_d};
          const uint16_t k = ks[i % a.per];
          if (op.first) {
            for (int j = 0; j < (op.mode == MacMode::kInt4 ? 4 : 1); ++j) lane.Clear(op.slot + j);
          }
          lane.Step(op.mode, d, k, op.slot, op.last);
          if (op.last) {
            e.acc.push_back(lane.ReadRaw(op.slot));
            e.fp16.push_back(e.fp ? lane.ReadFp16(op.slot) : uint16_t(0));
            e.sat.push_back(lane.Saturated(op.slot));
          }
        }
      }
      if (op.cmd == test::kCmdMac && op.last) expected.push_back(e);
    } else if (issued >= n_ops) {
      ++idle;
    }
    sim.Tick();
  }
  EXPECT_GT(results, n_ops / 100);
  EXPECT_GT(two_kernel_ops, n_ops / 20);
  EXPECT_GT(four_kernel_ops, n_ops / 20);

  dut.in_valid_i = 0;
  for (int s = 0; s < 8; ++s) {
    dut.rd_en_i = 1;
    dut.rd_slot_i = uint8_t(s);
    sim.Eval();
    sim.Tick();
    dut.rd_en_i = 0;
    sim.Eval();
    for (int i = 0; i < kLanes; ++i) {
      ASSERT_EQ(Get(dut.rd_acc_o, 32, i), lanes[size_t(i)].ReadRaw(s)) << "read, lane " << i << " slot " << s;
      ASSERT_EQ(bool(Get(dut.rd_sat_o, 1, i)), lanes[size_t(i)].Saturated(s)) << "read, lane " << i;
    }
  }
}

struct ArrayCase {
  const char* name;
  int in_valid_pct;
  int out_ready_pct;
  uint32_t x_seed;
};

class MacArray16 : public ::testing::TestWithParam<ArrayCase> {};

TEST_P(MacArray16, N2_M1BroadcastTwoAndFourKernelMatchOracle) {
  const uint64_t seed = test::TestSeed(8001 + GetParam().x_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  RunArray<Vane_mac_array16_m1, 16>(Generation::kM1, seed, 40'000 * test::SoakFactor(), GetParam().in_valid_pct,
                                    GetParam().out_ready_pct, GetParam().x_seed);
}

TEST_P(MacArray16, N2_M5BroadcastTwoAndFourKernelMatchOracle) {
  const uint64_t seed = test::TestSeed(8101 + GetParam().x_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  RunArray<Vane_mac_array16_m5, 16>(Generation::kM5, seed, 40'000 * test::SoakFactor(), GetParam().in_valid_pct,
                                    GetParam().out_ready_pct, GetParam().x_seed);
}

INSTANTIATE_TEST_SUITE_P(Traffic, MacArray16,
                         ::testing::Values(ArrayCase{"FullRate", 100, 100, 1},
                                           ArrayCase{"GapsAndBackPressure", 70, 60, 2}),
                         [](const auto& info) { return std::string(info.param.name); });

// The full-width default configuration (NumLanes = 256).
TEST(MacArray256, N2_M1FullWidthBroadcastTwoAndFourKernelMatchOracle) {
  const uint64_t seed = test::TestSeed(8201);
  SCOPED_TRACE(test::SeedNote(seed));
  RunArray<Vane_mac_array256_m1, 256>(Generation::kM1, seed, 3'000 * test::SoakFactor(), 80, 70, 3);
}

TEST(MacArray256, N2_M5FullWidthBroadcastTwoAndFourKernelMatchOracle) {
  const uint64_t seed = test::TestSeed(8301);
  SCOPED_TRACE(test::SeedNote(seed));
  RunArray<Vane_mac_array256_m5, 256>(Generation::kM5, seed, 3'000 * test::SoakFactor(), 80, 70, 4);
}

}  // namespace
}  // namespace ane
