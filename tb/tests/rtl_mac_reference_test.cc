// SPDX-License-Identifier: Apache-2.0
// Every reference row of NUMERICS N-2 (the chapter's Table 3.1 and worked sums) through the RTL:
// the lane for the single rows, the 16-lane array for the sweep over every fp16 magnitude.
// Expected values are the contract's figures, never the oracle's.
#include <gtest/gtest.h>

#include <vector>

#include "Vane_mac_array16_m1.h"
#include "Vane_mac_lane_m1.h"
#include "Vane_mac_lane_m5.h"
#include "tb/harness/mac_stream_start.h"
#include "tb/harness/rtl_codes.h"
#include "tb/harness/sim.h"
#include "tb/oracle/formats.h"
#include "tb/oracle/mac.h"
#include "tb/tests/fp16_values.h"

namespace ane {
namespace {

using test::H;
using test::Repeat;

constexpr auto kModeFp16 = uint8_t(oracle::MacMode::kFp16);
constexpr auto kCmdMac = uint8_t(harness::MacCmd::kMac);

// One reduction of `data` against `kernel` through a lane at full rate; returns the fp16 result.
template <class Model>
uint16_t LaneDot(const std::vector<uint16_t>& data, const std::vector<uint16_t>& kernel, int slot = 3) {
  harness::Sim<Model> sim("ane_mac_lane", harness::CurrentTestStem());
  auto& dut = sim.dut();
  harness::StartMacStream(sim);
  int results = 0;
  uint16_t out = 0;
  size_t i = 0;
  const int drain = 4 * int(data.size()) + 32;  // one slot: up to 4 cycles per product, latency 11
  for (int cycle = 0; i < data.size() || cycle < drain; ++cycle) {
    dut.in_valid_i = i < data.size();
    dut.in_cmd_i = kCmdMac;
    dut.in_mode_i = kModeFp16;
    dut.in_slot_i = uint8_t(slot);
    dut.in_first_i = i == 0;
    dut.in_last_i = i + 1 == data.size();
    dut.in_data_i = i < data.size() ? data[i] : 0;
    dut.in_kernel_i = i < data.size() ? kernel[i] : 0;
    sim.Eval();
    if (dut.out_valid_o) {
      ++results;
      out = dut.out_fp16_o;
      EXPECT_EQ(int(dut.out_slot_o), slot);
    }
    if (dut.in_valid_i && dut.in_ready_o) ++i;  // one slot: a product may wait for its quad
    sim.Tick();
  }
  EXPECT_EQ(results, 1);
  return out;
}

template <class Model = Vane_mac_lane_m1>
uint16_t SumViaMatmul(const std::vector<uint16_t>& data) {
  return LaneDot<Model>(data, std::vector<uint16_t>(data.size(), H(1.0)));
}

TEST(RtlMacReference, N2_5_SixteenThousandOnesAreExact) {
  EXPECT_EQ(SumViaMatmul(std::vector<uint16_t>(16000, H(1.0))), H(16000.0));
  EXPECT_EQ(SumViaMatmul<Vane_mac_lane_m5>(std::vector<uint16_t>(16000, H(1.0))), H(16000.0));
}

TEST(RtlMacReference, N2_4_WorkedSum4096Then1024OnesIs5116) {
  std::vector<uint16_t> v = {H(4096.0)};
  v.insert(v.end(), 1024, H(1.0));
  EXPECT_EQ(SumViaMatmul(v), H(5116.0));
}

TEST(RtlMacReference, N2_4_Table31SurvivorsBothLayouts) {
  for (double b : {1024.0, 3000.0, 4090.0, 4096.0, 8000.0, 16000.0, 30000.0}) {
    const uint16_t want = b < 4096.0 ? H(16.0) : H(4.0);
    EXPECT_EQ(SumViaMatmul(Repeat({b, -b, 1.0}, 16)), want) << "[b, -b, 1] b = " << b;
    EXPECT_EQ(SumViaMatmul(Repeat({b, 1.0, -b}, 16)), want) << "[b, 1, -b] b = " << b;
  }
}

TEST(RtlMacReference, N2_6_LinearOutput32752PassesAnd32768IsInf) {
  EXPECT_EQ(SumViaMatmul({H(16376.0), H(16376.0)}), H(32752.0));
  EXPECT_EQ(SumViaMatmul({H(16384.0), H(16384.0)}), oracle::kFp16PosInf);
  EXPECT_EQ(SumViaMatmul({H(-16384.0), H(-16384.0)}), oracle::kFp16NegInf);
  // A real multiply landing on 32752, and on 32768, as in a linear layer.
  EXPECT_EQ(LaneDot<Vane_mac_lane_m1>({H(2047.0), H(0.0)}, {H(16.0), H(3.0)}), H(32752.0));
  EXPECT_EQ(LaneDot<Vane_mac_lane_m1>({H(2048.0), H(0.0)}, {H(16.0), H(3.0)}), oracle::kFp16PosInf);
  EXPECT_EQ(LaneDot<Vane_mac_lane_m5>({H(2048.0), H(0.0)}, {H(16.0), H(3.0)}), oracle::kFp16PosInf);
  // K = 1 is not held to the ceiling.
  EXPECT_EQ(LaneDot<Vane_mac_lane_m1>({H(60000.0)}, {H(1.0)}), H(60000.0));
}

// The sweep behind Table 3.1 on the 16-lane array: for every positive fp16 magnitude b up to
// 32000, [b, -b, 1] x 16 and [b, 1, -b] x 16 keep 16 ones when b < 4096 and 4 from 4096 on.
// Each lane runs its own b; the kernel 1.0 is broadcast.
TEST(RtlMacReference, N2_4_SurvivorSweepOverEveryFp16MagnitudeOnTheArray) {
  constexpr int kLanes = 16;
  harness::Sim<Vane_mac_array16_m1> sim("ane_mac_array", harness::CurrentTestStem());
  auto& dut = sim.dut();
  harness::StartMacStream(sim);
  const uint16_t last_b = H(32000.0);
  int checked = 0;
  for (int layout = 0; layout < 2; ++layout) {
    for (uint32_t base = 1; base <= last_b; base += kLanes) {
      // 48 products per lane on one slot (each quad's products wait for one another), then the
      // result 11 cycles after the last (the lane latency).
      std::vector<uint16_t> b(kLanes);
      for (int l = 0; l < kLanes; ++l) b[size_t(l)] = uint16_t(std::min<uint32_t>(base + l, last_b));
      bool seen = false;
      int step = 0;
      for (int cycle = 0; cycle < 48 * 4 + 32 && !seen; ++cycle) {
        const bool valid = step < 48;
        dut.in_valid_i = valid;
        dut.in_cmd_i = kCmdMac;
        dut.in_mode_i = kModeFp16;
        dut.in_slot_i = uint8_t(base % 8);
        dut.in_first_i = step == 0;
        dut.in_last_i = step == 47;
        dut.in_two_kernel_i = 0;
        dut.in_four_kernel_i = 0;
        dut.in_kernel_a_i = H(1.0);
        dut.in_kernel_b_i = 0;
        dut.in_kernel_c_i = 0;
        dut.in_kernel_d_i = 0;
        const int pos = step % 3;
        for (int l = 0; l < kLanes; ++l) {
          const uint16_t bl = b[size_t(l)];
          const uint16_t x = pos == 0 ? bl : ((pos == 1) == (layout == 0) ? uint16_t(bl | 0x8000) : H(1.0));
          const int word = l / 2, shift = (l % 2) * 16;
          dut.in_data_i[word] = (dut.in_data_i[word] & ~(0xFFFFu << shift)) | (uint32_t(x) << shift);
        }
        sim.Eval();
        if (valid && dut.in_ready_o) ++step;
        if (dut.out_valid_o) {
          seen = true;
          for (int l = 0; l < kLanes; ++l) {
            const uint16_t got = uint16_t(dut.out_fp16_o[size_t(l / 2)] >> ((l % 2) * 16));
            const uint16_t want = oracle::Fp16ToDouble(b[size_t(l)]) < 4096.0 ? H(16.0) : H(4.0);
            ASSERT_EQ(got, want) << "b = " << oracle::Fp16ToDouble(b[size_t(l)]) << " layout " << layout;
            ++checked;
          }
        }
        sim.Tick();
      }
      ASSERT_TRUE(seen) << "no result for b from " << base;
    }
  }
  EXPECT_GE(checked, 2 * int(last_b));
}

}  // namespace
}  // namespace ane
