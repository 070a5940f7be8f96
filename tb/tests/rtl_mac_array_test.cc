// SPDX-License-Identifier: Apache-2.0
// ane_mac_array against NumLanes oracle MacLanes, exact bits (NUMERICS N-2, N-7.1):
// kernel broadcast and the fp16 two- and four-kernel modes (data value i to lanes 2i, 2i+1 or
// 4i..4i+3, kernels A, B (C, D) in turn), every mode, random gaps and back-pressure; every
// result of every lane compared, then every slot of every lane read back (tb/tests/mac_drive.h).
#include <gtest/gtest.h>

#include "Vane_mac_array16_m1.h"
#include "Vane_mac_array16_m5.h"
#include "Vane_mac_array256_m1.h"
#include "Vane_mac_array256_m5.h"
#include "tb/harness/mac_stream_start.h"
#include "tb/harness/sim.h"
#include "tb/oracle/mac.h"
#include "tb/tests/mac_drive.h"
#include "tb/tests/mac_stream.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::Generation;
using test::Rng;
using test::StreamGen;

// A freshly reset array driven by test::DriveArray; the kernel mappings all occur.
template <class Model, int kLanes>
void RunArray(Generation gen, uint64_t seed, uint64_t n_ops, int in_valid_pct, int out_ready_pct, uint32_t x_seed) {
  harness::Sim<Model> sim("ane_mac_array", harness::CurrentTestStem(), x_seed);
  harness::StartMacStream(sim);
  StreamGen stream(seed);
  Rng rng(seed ^ 0xA77A);
  const test::MacRun run =
      test::DriveArray<Model, kLanes>(sim, gen, stream, rng, n_ops, {in_valid_pct, out_ready_pct, true});
  EXPECT_EQ(run.accepted, n_ops);
  EXPECT_GT(run.results, n_ops / 100);
  EXPECT_GT(run.two_kernel_ops, n_ops / 20);
  EXPECT_GT(run.four_kernel_ops, n_ops / 20);
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
