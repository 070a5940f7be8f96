// SPDX-License-Identifier: Apache-2.0
// The input buffer and shifter RTL (rtl/ane_shifter.sv) against the oracle's convolution walk
// (tb/oracle/conv_walk.h, NUMERICS N-2 order): every lane of every delivered vector must be the
// input element that the lane's output multiplies at that step, or 0 in the padding. Layers
// are cut into work units by tb/plan/work_unit.cc and streamed with random gaps on the load
// and request ports and random back-pressure on the output. 16-lane model for the sweeps, the
// full 256-lane model for whole-array tiles.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "Vane_shifter16.h"
#include "Vane_shifter256.h"
#include "tb/harness/shifter_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/conv_walk.h"
#include "tb/plan/work_unit.h"
#include "tb/tests/conv_shapes.h"
#include "tb/tests/shifter_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::Layout;
using harness::ShifterLayer;
using harness::ShifterOutput;
using harness::ShifterRequest;
using harness::ShifterStats;
using harness::WorkUnit;
using oracle::ConvGeometry;
using oracle::Tensor3;

constexpr int kBankBytes = 512;
constexpr int kBanks16 = 4;  // Vane_shifter16's ring (rtl/CMakeLists.txt)
constexpr int kBeatBytes = 16;

using test::CheckShifterOutputs;
using test::RandomShifterTensor;

template <class Model>
struct Bench {
  explicit Bench(int lanes, uint32_t x_seed = 1)
      : sim("ane_shifter", harness::CurrentTestStem(), x_seed), drv(sim, lanes, kBeatBytes), lanes(lanes) {
    drv.Reset();
  }
  harness::Sim<Model> sim;
  harness::ShifterDriver<Model> drv;
  int lanes;

  // Runs one layer; returns the outputs.
  std::vector<ShifterOutput> Run(const ShifterLayer& l, const Tensor3& x, int reps, test::Rng* rng, int gap_pct,
                                 int stall_pct, ShifterStats* stats, std::vector<WorkUnit>* wus_out = nullptr,
                                 std::vector<ShifterRequest>* reqs_out = nullptr) {
    drv.Configure(l);
    const auto wus = harness::PlanWorkUnits(l, x, kBeatBytes);
    const auto reqs = harness::DenseRequests(l, wus, reps);
    auto chance = [rng](int pct) { return [rng, pct] { return pct > 0 && int(rng->Below(100)) < pct; }; };
    auto out = drv.Run(wus, reqs, chance(gap_pct), chance(gap_pct), chance(stall_pct), stats);
    if (wus_out) *wus_out = wus;
    if (reqs_out) *reqs_out = reqs;
    return out;
  }

  // Runs one layer and checks every vector; returns the lane values compared.
  uint64_t RunChecked(const ShifterLayer& l, const Tensor3& x, int reps, test::Rng* rng, int gap_pct, int stall_pct,
                      const std::string& what, ShifterStats* stats = nullptr,
                      std::vector<WorkUnit>* wus_out = nullptr) {
    std::vector<WorkUnit> wus;
    std::vector<ShifterRequest> reqs;
    ShifterStats st;
    const auto out = Run(l, x, reps, rng, gap_pct, stall_pct, &st, &wus, &reqs);
    if (stats) *stats = st;
    if (wus_out) *wus_out = wus;
    return CheckShifterOutputs(l, x, wus, reqs, out, lanes, what);
  }
};

// ---- directed ----

TEST(RtlShifter, N2_SamePadded3x3PlanarFp16WalksEveryStep) {
  test::Rng rng(1);
  ShifterLayer l;
  l.geom = test::SquareConvShape(3, 7, 9, 3, 3, 1, 1, 1);
  l.tile_h = 2;
  l.tile_w = 8;
  l.channels_per_wu = 2;
  ASSERT_EQ(harness::PlanShifterLayer(&l, 16, kBankBytes), "");
  const Tensor3 x = RandomShifterTensor(rng, l.geom, true);
  Bench<Vane_shifter16> b(16);
  std::vector<WorkUnit> wus;
  EXPECT_GT(b.RunChecked(l, x, 1, &rng, 0, 0, "3x3", nullptr, &wus), 0u);
  EXPECT_EQ(wus.size(), size_t(4 * 2 * 2));  // 4 tile rows x 2 tile columns x 2 channel slices
}

// Work units with fewer requests than the pipeline is deep (1x1 and 1x2 kernels, one channel
// each), back to back: a bank's release is still in the pipeline when the request of the work
// unit after next (the same bank) arrives; it must wait for the new contents (the core's random
// layers found a shifter that let it read the old ones).
TEST(RtlShifter, N2_WorkUnitsShorterThanThePipelineWaitForTheirBank) {
  test::Rng rng(9);
  for (int kw : {1, 2}) {
    ShifterLayer l;
    l.geom = test::SquareConvShape(6, 5, 8, 1, kw, 1, 1, 0);
    l.tile_h = 2;
    l.tile_w = 4;
    l.channels_per_wu = 1;
    ASSERT_EQ(harness::PlanShifterLayer(&l, 16, kBankBytes), "");
    const Tensor3 x = RandomShifterTensor(rng, l.geom, true);
    Bench<Vane_shifter16> b(16);
    EXPECT_GT(b.RunChecked(l, x, 1, &rng, 0, 0, "1x" + std::to_string(kw) + " kernel, one channel per work unit"), 0u);
  }
}

TEST(RtlShifter, N2_InterleavedInt8Stride2Dilation2) {
  test::Rng rng(2);
  ShifterLayer l;
  l.geom = test::SquareConvShape(4, 11, 13, 3, 2, 2, 2, 2);
  l.tile_h = 4;
  l.tile_w = 4;
  l.channels_per_wu = 4;
  l.layout = Layout::kInterleaved;
  l.elem16 = false;
  ASSERT_EQ(harness::PlanShifterLayer(&l, 16, kBankBytes), "");
  const Tensor3 x = RandomShifterTensor(rng, l.geom, false);
  Bench<Vane_shifter16> b(16);
  EXPECT_GT(b.RunChecked(l, x, 1, &rng, 20, 20, "int8"), 0u);
}

TEST(RtlShifter, N2_1_TwoKernelModeFeedsLanePairs) {
  test::Rng rng(3);
  ShifterLayer l;
  l.geom = test::SquareConvShape(2, 6, 10, 3, 3, 1, 1, 1);
  l.tile_h = 2;
  l.tile_w = 4;
  l.two_kernel = true;
  ASSERT_EQ(harness::PlanShifterLayer(&l, 16, kBankBytes), "");
  const Tensor3 x = RandomShifterTensor(rng, l.geom, true);
  Bench<Vane_shifter16> b(16);
  EXPECT_GT(b.RunChecked(l, x, 2, &rng, 10, 10, "two-kernel"), 0u);
}

TEST(RtlShifter, N2_SevenBySevenDilationFourSplitsKernelRowsAcrossWorkUnits) {
  test::Rng rng(4);
  ShifterLayer l;
  l.geom = test::SquareConvShape(2, 30, 30, 7, 7, 1, 4, 6);
  l.tile_h = 1;
  l.tile_w = 16;
  l.kernel_rows_per_wu = 1;
  ASSERT_EQ(harness::PlanShifterLayer(&l, 16, kBankBytes), "");
  const Tensor3 x = RandomShifterTensor(rng, l.geom, true);
  Bench<Vane_shifter16> b(16);
  EXPECT_GT(b.RunChecked(l, x, 1, &rng, 0, 0, "7x7 d4"), 0u);
}

// A work unit whose every step was skipped (sparse kernels) is released by a request that
// delivers nothing; the next work unit then reads the other bank.
TEST(RtlShifter, NoDataRequestReleasesAWorkUnit) {
  test::Rng rng(5);
  ShifterLayer l;
  l.geom = test::SquareConvShape(3, 4, 4, 1, 1, 1, 1, 0);
  l.tile_h = 4;
  l.tile_w = 4;
  ASSERT_EQ(harness::PlanShifterLayer(&l, 16, kBankBytes), "");
  const Tensor3 x = RandomShifterTensor(rng, l.geom, true);
  Bench<Vane_shifter16> b(16);
  b.drv.Configure(l);
  const auto wus = harness::PlanWorkUnits(l, x, kBeatBytes);
  ASSERT_EQ(wus.size(), 3u);
  const std::vector<ShifterRequest> reqs = {
      {0, 0, 0, true, false, 1}, {0, 0, 0, true, true, 2}, {0, 0, 0, true, false, 3}};
  const auto out = b.drv.Run(
      wus, reqs, [] { return false; }, [] { return false; }, [] { return false; });
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(CheckShifterOutputs(l, x, wus, reqs, out, 16, "nodata"), 32u);
}

// ---- seeded random sweep ----

struct Coverage {
  std::set<int> kh, kw, sy, sx, dy, dx;
  std::set<std::string> modes;
  bool pad_each_side[4] = {false, false, false, false};
  bool row_split = false;
  bool multi_bank = false;  // a work unit over several banks of the ring
  bool whole_ring = false;  // a work unit over every bank of the ring
};

// A random layer that fits 16 lanes and the bank.
ShifterLayer RandomLayer(test::Rng& rng) { return test::RandomShifterLayer(rng, 16, kBankBytes, kBanks16); }

TEST(RtlShifter, N2_RandomLayersEveryKernelStrideDilationPaddingAndLayout) {
  const uint64_t seed = test::TestSeed(0x5F1F7);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  Bench<Vane_shifter16> b(16);
  Coverage cov;
  uint64_t compared = 0;
  const int layers = int(600 * test::SoakFactor());
  for (int i = 0; i < layers; ++i) {
    const ShifterLayer l = RandomLayer(rng);
    const ConvGeometry& g = l.geom;
    cov.kh.insert(g.kernel_h);
    cov.kw.insert(g.kernel_w);
    cov.sy.insert(g.stride_y);
    cov.sx.insert(g.stride_x);
    cov.dy.insert(g.dilation_y);
    cov.dx.insert(g.dilation_x);
    cov.modes.insert(std::string(harness::LayoutName(l.layout)) + (l.elem16 ? "16" : "8") +
                     (l.two_kernel ? "two" : ""));
    cov.pad_each_side[0] |= g.pad_top > 0;
    cov.pad_each_side[1] |= g.pad_bottom > 0;
    cov.pad_each_side[2] |= g.pad_left > 0;
    cov.pad_each_side[3] |= g.pad_right > 0;
    cov.row_split |= l.kernel_rows_per_wu != 0;
    cov.multi_bank |= l.bank_per_channel && std::min(l.channels_per_wu, g.channels) > 1;
    cov.whole_ring |= l.bank_per_channel && l.channels_per_wu == kBanks16;
    const Tensor3 x = RandomShifterTensor(rng, g, l.elem16);
    std::vector<WorkUnit> wus;
    std::vector<ShifterRequest> reqs;
    ShifterStats st;
    const int reps = 1 + int(rng.Below(3));
    const auto out = b.Run(l, x, reps, &rng, int(rng.Below(40)), int(rng.Below(40)), &st, &wus, &reqs);
    const std::string what =
        "layer " + std::to_string(i) + ": " + std::to_string(g.channels) + "x" + std::to_string(g.height) + "x" +
        std::to_string(g.width) + " k" + std::to_string(g.kernel_h) + "x" + std::to_string(g.kernel_w) + " s" +
        std::to_string(g.stride_y) + "," + std::to_string(g.stride_x) + " d" + std::to_string(g.dilation_y) + "," +
        std::to_string(g.dilation_x) + " tile " + std::to_string(l.tile_h) + "x" + std::to_string(l.tile_w);
    compared += CheckShifterOutputs(l, x, wus, reqs, out, 16, what);
    if (HasFailure()) return;
  }
  EXPECT_EQ(cov.kh.size(), 7u);
  EXPECT_EQ(cov.kw.size(), 7u);
  EXPECT_EQ(cov.sy.size(), 4u);
  EXPECT_EQ(cov.sx.size(), 4u);
  EXPECT_EQ(cov.dy.size(), 4u);
  EXPECT_EQ(cov.dx.size(), 4u);
  EXPECT_EQ(cov.modes.size(), 6u);  // planar/interleaved x 8/16-bit, two-kernel in both layouts
  for (bool p : cov.pad_each_side) EXPECT_TRUE(p);
  EXPECT_TRUE(cov.row_split);
  EXPECT_TRUE(cov.multi_bank);
  EXPECT_TRUE(cov.whole_ring);
  EXPECT_GT(compared, 100000u);
}

TEST(RtlShifter, XSeedsDoNotChangeAnyVector) {
  std::vector<std::vector<ShifterOutput>> runs;
  for (uint32_t x_seed : {1u, 77u, 0xBEEFu}) {
    test::Rng rng(0xA5);  // same layer, same stalls in every run
    const ShifterLayer l = RandomLayer(rng);
    const Tensor3 x = RandomShifterTensor(rng, l.geom, l.elem16);
    Bench<Vane_shifter16> b(16, x_seed);
    std::vector<WorkUnit> wus;
    std::vector<ShifterRequest> reqs;
    ShifterStats st;
    runs.push_back(b.Run(l, x, 2, &rng, 25, 25, &st, &wus, &reqs));
    CheckShifterOutputs(l, x, wus, reqs, runs.back(), 16, "x seed " + std::to_string(x_seed));
  }
  for (size_t r = 1; r < runs.size(); ++r) {
    ASSERT_EQ(runs[r].size(), runs[0].size());
    for (size_t i = 0; i < runs[r].size(); ++i) ASSERT_EQ(runs[r][i].data, runs[0][i].data) << i;
  }
}

// ---- cycle figures ----

// With loads no longer than the requests that use a work unit (8 kernels per data vector, as
// the core runs them), double buffering hides every load: one vector per cycle from the first
// to the last, across work-unit boundaries; latency 4 from request to vector.
TEST(RtlShifter, CyclesOneVectorPerCycleAcrossWorkUnits) {
  test::Rng rng(6);
  ShifterLayer l;
  l.geom = test::SquareConvShape(8, 16, 16, 3, 3, 1, 1, 1);
  l.tile_h = 4;
  l.tile_w = 4;
  l.channels_per_wu = 1;
  ASSERT_EQ(harness::PlanShifterLayer(&l, 16, kBankBytes), "");
  const Tensor3 x = RandomShifterTensor(rng, l.geom, true);
  Bench<Vane_shifter16> b(16);
  std::vector<WorkUnit> wus;
  std::vector<ShifterRequest> reqs;
  ShifterStats st;
  const auto out = b.Run(l, x, 8, &rng, 0, 0, &st, &wus, &reqs);
  CheckShifterOutputs(l, x, wus, reqs, out, 16, "full rate");
  const uint64_t first_load_beats = wus[0].bytes.size() / kBeatBytes;
  // Cycles: the first work unit's load, then one request per cycle, then the latency.
  EXPECT_EQ(st.out_cycles, reqs.size());
  EXPECT_EQ(st.cycles, first_load_beats + reqs.size() + 4);
  EXPECT_EQ(st.req_stalls, first_load_beats);
  RecordProperty("vectors", int(reqs.size()));
  RecordProperty("cycles", int(st.cycles));
}

// ---- the full 256-lane configuration ----

TEST(RtlShifter256, N2_WholeArrayTilesInt8AndTwoKernelFp16) {
  test::Rng rng(7);
  Bench<Vane_shifter256> b(256);
  {
    ShifterLayer l;  // int8: a 16x16 tile, 3x3 same padding, patch 18x18 = 324 bytes
    l.geom = test::SquareConvShape(2, 20, 20, 3, 3, 1, 1, 1);
    l.tile_h = 16;
    l.tile_w = 16;
    l.elem16 = false;
    ASSERT_EQ(harness::PlanShifterLayer(&l, 256, kBankBytes), "");
    const Tensor3 x = RandomShifterTensor(rng, l.geom, false);
    EXPECT_GT(b.RunChecked(l, x, 2, &rng, 10, 10, "256 int8"), 0u);
  }
  {
    ShifterLayer l;  // fp16 two-kernel: 128 positions, an 8x16 tile, patch 10x18x2 = 360 bytes
    l.geom = test::SquareConvShape(2, 12, 20, 3, 3, 1, 1, 1);
    l.tile_h = 8;
    l.tile_w = 16;
    l.two_kernel = true;
    l.layout = Layout::kInterleaved;
    ASSERT_EQ(harness::PlanShifterLayer(&l, 256, kBankBytes), "");
    const Tensor3 x = RandomShifterTensor(rng, l.geom, true);
    EXPECT_GT(b.RunChecked(l, x, 2, &rng, 10, 10, "256 two-kernel"), 0u);
  }
}

}  // namespace
}  // namespace ane
