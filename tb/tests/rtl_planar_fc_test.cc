// SPDX-License-Identifier: Apache-2.0
// The planar engine's format converter and patch transpose against the oracle
// (tb/oracle/planar.h FormatConvert, TransposePatch; NUMERICS N-1, N-4.1, N-4.2, N-4.6):
//   - ane_pe_fc (16 lanes, 16 channels): every fp16 code and every int8 code through each
//     unary operation, the gain and both output formats; 10^6 random lane values with random
//     per-beat controls, per-channel and scalar broadcast, table writes while beats flow, input
//     gaps and back-pressure; X seeds; one vector per cycle, latency 9;
//   - ane_pe_transpose (8 x 8): random patch streams with gaps and back-pressure, X seeds, one
//     beat per cycle in and out.
#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <memory>
#include <vector>

#include "Vane_pe_fc16.h"
#include "Vane_pe_transpose8.h"
#include "tb/harness/sim.h"
#include "tb/oracle/planar.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/pe_units.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::FcConfig;
using oracle::FcUnary;

using test::FcBeat;
using test::FcWrite;
using test::kFcChannels;
using test::kFcLanes;
using test::kTn;

// ane_pe_fc after its reset, driven by test::FcDriver.
class FcBench {
 public:
  explicit FcBench(uint32_t x_seed = 1) : sim_("ane_pe_fc", harness::CurrentTestStem(), x_seed), drv_(sim_) {
    sim_.dut().cfg_we_i = 0;
    test::StartStreamUnit(sim_);
  }
  harness::Sim<Vane_pe_fc16>& sim() { return sim_; }
  void Load(const std::vector<FcWrite>& writes) { drv_.Load(writes); }
  // Returns the lane results compared.
  uint64_t Run(const std::vector<FcBeat>& in, test::Rng& rng, int gap_pct, int stall_pct, int write_pct) {
    return drv_.Run(in, rng, gap_pct, stall_pct, write_pct).compared;
  }

 private:
  harness::Sim<Vane_pe_fc16> sim_;
  test::FcDriver drv_;
};

// Every fp16 code (and every int8 code) through every unary operation, with and without the
// gain, to fp16 and to int8, under the identity table entry and three others.
TEST(RtlPeFc, N4_1_N4_6_EveryCodeThroughEveryPath) {
  FcBench bench;
  test::Rng rng(0xFC01);
  const std::vector<FcWrite> entries = {
      {0, 0x3C00, 0x0000}, {1, 0xB800, 0x3555}, {2, 0x4C00, 0xC000}, {3, 0x0001, 0x8001}};
  bench.Load(entries);
  uint64_t compared = 0;
  for (int ch = 0; ch < 4; ++ch) {
    for (int in_int8 = 0; in_int8 < 2; ++in_int8) {
      std::vector<FcBeat> in;
      for (int u = 0; u < 4; ++u) {
        for (int gain = 0; gain < 2; ++gain) {
          for (int out_int8 = 0; out_int8 < 2; ++out_int8) {
            const uint32_t codes = in_int8 ? 256 : 0x10000;
            FcBeat b;
            b.in_int8 = in_int8;
            b.perch = ch != 0;
            b.ch = ch;
            b.unary = FcUnary(u);
            b.gain = gain;
            b.out_int8 = out_int8;
            for (uint32_t c = 0; c < codes; c += kFcLanes) {
              for (int l = 0; l < kFcLanes; ++l) b.data[size_t(l)] = uint16_t(c + uint32_t(l));
              in.push_back(b);
            }
          }
        }
      }
      compared += bench.Run(in, rng, 0, 0, 0);
      if (HasFailure()) return;
    }
  }
  EXPECT_EQ(compared, 4ull * 16 * (0x10000 + 256));
}

using test::RandomFcBeats;

// Broadcast of a per-channel vector (per-channel entries) and of a scalar (entry 0), random
// controls per beat, table writes in random cycles, gaps and back-pressure.
TEST(RtlPeFc, N4_1_RandomBeatsBroadcastAndTableWrites) {
  const uint64_t seed = test::TestSeed(0xFC02);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  FcBench bench;
  std::vector<FcWrite> entries;
  for (int c = 0; c < kFcChannels; ++c) entries.push_back({c, test::FcOperand(rng), test::FcOperand(rng)});
  bench.Load(entries);
  const size_t beats = size_t(1'000'000 * test::SoakFactor() / kFcLanes);
  const auto in = RandomFcBeats(rng, beats);
  EXPECT_EQ(bench.Run(in, rng, 25, 25, 5), beats * kFcLanes);
}

TEST(RtlPeFc, N4_1_XSeedsAndFullRate) {
  for (uint32_t x_seed : {5u, 555u}) {
    test::Rng rng(0xFC03);
    FcBench bench(x_seed);
    const auto in = RandomFcBeats(rng, 3000);
    const uint64_t start = bench.sim().cycles();
    EXPECT_EQ(bench.Run(in, rng, 0, 0, 0), in.size() * kFcLanes);
    EXPECT_EQ(bench.sim().cycles() - start, in.size() + 9) << "one vector per cycle, latency 9";
  }
}

// ---- the patch transpose ----

// Streams patches as rows; checks every column beat against TransposePatch. Returns cycles.
uint64_t RunTranspose(harness::Sim<Vane_pe_transpose8>& sim, const std::vector<std::vector<uint16_t>>& patches,
                      test::Rng& rng, int gap_pct, int stall_pct) {
  const test::StreamRun run = test::DriveTranspose(sim, patches, rng, gap_pct, stall_pct);
  return ::testing::Test::HasFailure() ? 0 : run.cycles;
}

using test::RandomTransposePatches;

TEST(RtlPeTranspose, N4_1_RandomPatchesWithGapsAndBackPressure) {
  const uint64_t seed = test::TestSeed(0x7A05);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  harness::Sim<Vane_pe_transpose8> sim("ane_pe_transpose", harness::CurrentTestStem());
  sim.dut().in_valid_i = 0;
  sim.dut().out_ready_i = 1;
  sim.Reset();
  for (int gap : {0, 30, 70}) {
    for (int stall : {0, 30, 70}) {
      const auto patches = RandomTransposePatches(rng, 300);
      EXPECT_GT(RunTranspose(sim, patches, rng, gap, stall), 0u) << "gaps " << gap << "% stalls " << stall << "%";
      if (HasFailure()) return;
    }
  }
}

TEST(RtlPeTranspose, N4_1_XSeedsAndFullRate) {
  for (uint32_t x_seed : {7u, 777u}) {
    test::Rng rng(0x7A06);
    harness::Sim<Vane_pe_transpose8> sim("ane_pe_transpose", harness::CurrentTestStem(), x_seed);
    sim.dut().in_valid_i = 0;
    sim.dut().out_ready_i = 1;
    sim.Reset();
    const auto patches = RandomTransposePatches(rng, 500);
    // One row in and one column out per cycle: P patches take 8 P + 8 cycles (the last
    // patch's columns leave after its rows).
    EXPECT_EQ(RunTranspose(sim, patches, rng, 0, 0), 8u * patches.size() + 8u);
  }
}

}  // namespace
}  // namespace ane
