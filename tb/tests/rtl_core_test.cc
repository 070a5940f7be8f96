// SPDX-License-Identifier: Apache-2.0
// The neural-engine core (rtl/ane_core.sv, docs/core.md) runs whole layers: every output it
// writes to memory must equal oracle::Conv2d (NUMERICS N-2 reduction order per output, N-3 post-
// processing per channel), whatever the memory latency and back-pressure (N-7.1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "Vane_core256_m1.h"
#include "Vane_core8_m1.h"
#include "Vane_core8_m5.h"
#include "tb/harness/core_driver.h"
#include "tb/harness/core_run.h"
#include "tb/harness/sim.h"
#include "tb/oracle/conv.h"
#include "tb/plan/core_plan.h"
#include "tb/tests/conv_shapes.h"
#include "tb/tests/core_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::CoreLayerPlan;
using harness::CoreParams;
using test::LayerCase;
using test::RandomLayer;
using test::SmallFp16;

constexpr CoreParams kCore8{8, 512, 8, 64};
constexpr CoreParams kCore256{256, 512, 8, 64};

// One run of a planned layer's image on a fresh core model.
template <class Model>
harness::CoreResult RunOnCore(const CoreLayerPlan& p, const harness::CoreImage& im, const harness::CoreRunOptions& opt,
                              uint32_t x_seed, const CoreParams& cp) {
  harness::Sim<Model> sim("ane_core", harness::CurrentTestStem(), x_seed);
  sim.set_timeout(50'000'000);
  harness::CoreDriver<Model> drv(sim, cp);
  drv.Reset();
  return drv.Run(p, im, opt);
}

// Every output the core wrote against the oracle's, bit for bit (the first five that differ,
// each with its place in y).
void ExpectSameOutputs(const oracle::Tensor3& got, const oracle::Tensor3& want, const CoreLayerPlan& p,
                       const std::string& what) {
  if (got.codes.size() != want.codes.size()) {
    ADD_FAILURE() << what << ": " << got.codes.size() << " outputs, the oracle " << want.codes.size();
    return;
  }
  int bad_count = 0;
  for (size_t i = 0; i < want.codes.size() && bad_count < 5; ++i) {
    if (got.codes[i] != want.codes[i]) {
      const int plane = p.oh * p.ow;
      ADD_FAILURE() << what << ": y[" << i / size_t(plane) << "][" << (i % size_t(plane)) / size_t(p.ow) << "]["
                    << i % size_t(p.ow) << "] rtl 0x" << std::hex << got.codes[i] << " oracle 0x" << want.codes[i];
      ++bad_count;
    }
  }
}

// Runs the layer on a core model (default: the 8-lane core) and compares every output with the oracle.
template <class Model = Vane_core8_m1>
void RunAndCompare(const LayerCase& lc, const harness::CoreRunOptions& opt, const std::string& what,
                   harness::CoreResult* out = nullptr, uint32_t x_seed = 1, CoreLayerPlan* plan = nullptr,
                   const CoreParams& cp = kCore8) {
  CoreLayerPlan p = lc.plan;
  const std::string bad = harness::PlanCoreLayer(&p, cp);
  ASSERT_EQ(bad, "") << what;
  const harness::CoreImage im = harness::BuildCoreImage(p, cp, lc.x, lc.w, 7);
  // with stochastic rounding the draws follow the core's vectors (N-3.4): the oracle takes their order
  const oracle::Tensor3 want =
      p.layer.post.sr
          ? oracle::Conv2dInVectors(p.layer, lc.x, harness::CoreCoefficients(p, lc.w), harness::CorePostVectors(p, cp))
          : oracle::Conv2d(p.layer, lc.x, harness::CoreCoefficients(p, lc.w));
  const harness::CoreResult r = RunOnCore<Model>(p, im, opt, x_seed, cp);
  ExpectSameOutputs(r.y, want, p, what);
  EXPECT_EQ(r.counters.mac, im.mac_ops) << what << ": MAC operations";
  if (out) *out = r;
  if (plan) *plan = p;
}

TEST(RtlCore, N2_N3_Fp16Conv3x3Padding1) {
  test::Rng rng(test::TestSeed(0xC0DE));
  LayerCase lc;
  oracle::ConvLayer& l = lc.plan.layer;
  l.geom.channels = 3;
  l.geom.height = 7;
  l.geom.width = 9;
  l.geom.kernel_h = l.geom.kernel_w = 3;
  l.geom.pad_top = l.geom.pad_bottom = l.geom.pad_left = l.geom.pad_right = 1;
  l.cout = 5;
  lc.x = oracle::Tensor3{3, 7, 9, {}};
  for (int i = 0; i < 3 * 7 * 9; ++i) lc.x.codes.push_back(SmallFp16(rng));
  lc.w.assign(5, {});
  for (auto& k : lc.w) {
    for (int s = 0; s < 27; ++s) k.push_back(SmallFp16(rng));
  }
  RunAndCompare(lc, {}, "3x3 pad 1, 3 -> 5 channels, 7x9");
}

std::string Describe(const LayerCase& lc) {
  const oracle::ConvLayer& l = lc.plan.layer;
  const oracle::ConvGeometry& g = l.geom;
  return std::string(l.gen == oracle::Generation::kM5 ? "m5 " : "") + oracle::MacModeName(l.mode) + " " +
         oracle::KernelFormatName(lc.plan.kspec.format) + (lc.plan.kspec.sparse ? " sparse" : "") +
         (lc.plan.kspec.two_kernel ? " two-kernel" : "") + ", x [" + std::to_string(l.Cin()) + ", " +
         std::to_string(g.height) + ", " + std::to_string(g.width) + "], " + std::to_string(g.kernel_h) + "x" +
         std::to_string(g.kernel_w) + " stride " + std::to_string(g.stride_y) + "," + std::to_string(g.stride_x) +
         " dilation " + std::to_string(g.dilation_y) + "," + std::to_string(g.dilation_x) + " pad " +
         std::to_string(g.pad_top) + "," + std::to_string(g.pad_bottom) + "," + std::to_string(g.pad_left) + "," +
         std::to_string(g.pad_right) + ", groups " + std::to_string(l.groups) + ", cout " + std::to_string(l.cout) +
         (l.post.scale_en ? " scale" : "") + (l.post.bias_en ? " bias" : "") +
         (l.post.act == oracle::PostAct::kRelu ? " relu" : "") +
         (l.post.store == oracle::PostStore::kInt8 ? " int8-out" : "") + ", channels/wu " +
         std::to_string(lc.plan.channels_per_wu);
}

// A memory 1 to 12 cycles away with up to 34 % of its ready cycles low (random layers' runs).
harness::CoreRunOptions RandomMemory(test::Rng& rng) {
  harness::CoreRunOptions opt;
  opt.max_latency = 1 + int(rng.Below(12));
  opt.stall_pct = int(rng.Below(35));
  opt.below = [&rng](uint32_t m) { return rng.Below(m); };
  return opt;
}

TEST(RtlCore, N2_N3_N6_RandomLayersUnderMemoryLatencyAndBackPressure) {
  const uint64_t seed = test::TestSeed(0xC0A5);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const int n = int(40 * test::SoakFactor());
  int ran = 0;
  std::map<std::string, int> seen;
  for (int i = 0; i < n && !HasFailure(); ++i) {
    LayerCase lc = RandomLayer(rng, true);
    if (rng.Below(3) == 0) lc.plan.channels_per_wu = 1 + int(rng.Below(uint32_t(lc.plan.layer.geom.channels)));
    CoreLayerPlan probe = lc.plan;
    if (!harness::PlanCoreLayer(&probe, kCore8).empty()) {
      lc.plan.channels_per_wu = 1;
      probe = lc.plan;
      if (!harness::PlanCoreLayer(&probe, kCore8).empty()) continue;  // a window wider than the bank
    }
    const harness::CoreRunOptions opt = RandomMemory(rng);
    CoreLayerPlan p;
    RunAndCompare(lc, opt, "layer " + std::to_string(i) + ": " + Describe(lc), nullptr, 1, &p);
    ++ran;
    seen["two-kernel"] += p.kspec.two_kernel;
    seen["sparse"] += p.kspec.sparse;
    seen["int8"] += p.layer.mode == oracle::MacMode::kInt8;
    seen["groups"] += p.layer.groups > 1;
    seen["passes per group > 1"] += p.ppg > 1;
    seen["slices > 1"] += p.nsl > 1;
    seen["channels per work unit > 1"] += p.channels_per_wu > 1;
    seen["tiles > 1"] += p.nty * p.ntx > 1;
    seen["padding kernel"] += p.kspec.two_kernel && p.nk_last % 2 == 1;
    seen["four-kernel"] += p.kspec.four_kernel;
    seen["four-kernel padding kernels"] += p.kspec.four_kernel && p.nk_last % 4 != 0;
    seen["kernel > 3"] += std::max(p.layer.geom.kernel_h, p.layer.geom.kernel_w) > 3;
  }
  if (HasFailure()) return;
  EXPECT_GE(ran, n * 3 / 4) << "too many random layers did not fit the bank";
  for (const auto& [what, count] : seen) EXPECT_GT(count, 0) << "no random layer had " << what;
}

// N-7.1: a layer's outputs do not depend on the initial state of the flops.
TEST(RtlCore, N7_1_XSeedsDoNotChangeAnyOutput) {
  const uint64_t seed = test::TestSeed(0xC0A6);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int i = 0; i < 3 && !HasFailure(); ++i) {
    const LayerCase lc = RandomLayer(rng, true);
    for (uint32_t xs : {1u, 2u, 3u})
      RunAndCompare(lc, {}, "x seed " + std::to_string(xs) + ": " + Describe(lc), nullptr, xs);
  }
}

// N-6.3 through the whole core: kernels that are zero over whole channels let the extract skip
// interior quads; slices without any operation are released with no-data requests. The outputs
// equal the dense definition and the core runs fewer MAC operations.
TEST(RtlCore, N6_3_SparseKernelsSkipWholeWorkUnits) {
  test::Rng rng(test::TestSeed(0xC0A7));
  LayerCase lc;
  oracle::ConvLayer& l = lc.plan.layer;
  l.geom.channels = 10;
  l.geom.height = 6;
  l.geom.width = 7;
  l.geom.kernel_h = l.geom.kernel_w = 3;
  l.geom.pad_top = l.geom.pad_left = 1;
  l.cout = 8;
  lc.plan.kspec.sparse = true;
  lc.plan.channels_per_wu = 1;
  lc.x = oracle::Tensor3{10, 6, 7, {}};
  for (int i = 0; i < 10 * 6 * 7; ++i) lc.x.codes.push_back(SmallFp16(rng));
  lc.w.assign(8, {});
  for (auto& k : lc.w) {
    for (int s = 0; s < 90; ++s) {
      const int c = s / 9;
      k.push_back(c >= 2 && c <= 6 ? 0 : SmallFp16(rng));  // channels 2..6: zero in every kernel
    }
  }
  harness::CoreResult sparse, dense;
  harness::CoreRunOptions opt;
  opt.max_latency = 5;
  opt.stall_pct = 20;
  opt.below = [&rng](uint32_t m) { return rng.Below(m); };
  RunAndCompare(lc, opt, "sparse stream", &sparse);
  lc.plan.kspec.sparse = false;
  RunAndCompare(lc, opt, "dense stream", &dense);
  EXPECT_LT(sparse.counters.mac, dense.counters.mac);
  RecordProperty("mac_ops_sparse_dense",
                 std::to_string(sparse.counters.mac) + "/" + std::to_string(dense.counters.mac));
}

// A dense fp16 layer x [cin, h, w] -> cout channels, kxk with padding k / 2.
LayerCase DenseLayer(test::Rng& rng, int cin, int h, int w, int cout, int k) {
  LayerCase lc;
  oracle::ConvLayer& l = lc.plan.layer;
  l.geom.channels = cin;
  l.geom.height = h;
  l.geom.width = w;
  l.geom.kernel_h = l.geom.kernel_w = k;
  l.geom.pad_top = l.geom.pad_bottom = l.geom.pad_left = l.geom.pad_right = k / 2;
  l.cout = cout;
  lc.plan.kspec.two_kernel = true;
  lc.x = oracle::Tensor3{cin, h, w, {}};
  for (int i = 0; i < cin * h * w; ++i) lc.x.codes.push_back(SmallFp16(rng));
  lc.w.assign(size_t(cout), {});
  for (auto& kern : lc.w) {
    for (int s = 0; s < cin * k * k; ++s) kern.push_back(SmallFp16(rng));
  }
  return lc;
}

void ReportUtilization(const char* name, const harness::CoreResult& r, const CoreLayerPlan& p, uint64_t macs,
                       int lanes) {
  const auto& c = r.counters;
  const double util = double(macs) / (double(lanes) * double(c.cycles));
  const double lane_use = double(macs) / (double(lanes) * double(c.mac));
  std::printf(
      "%s: tile %dx%d, %d channel(s) per work unit, %d pass(es); %llu cycles, %llu MAC cycles (lanes with an "
      "output %.4f), stall_res %llu, wait_slot %llu, wait_load %llu, wait_kern %llu, tail %llu; utilization %.4f\n",
      name, p.tile_h, p.tile_w, p.channels_per_wu, p.passes, (unsigned long long)c.cycles, (unsigned long long)c.mac,
      lane_use, (unsigned long long)c.stall_res, (unsigned long long)c.wait_slot, (unsigned long long)c.wait_load,
      (unsigned long long)c.wait_kern, (unsigned long long)(c.cycles - c.last_mac), util);
  ::testing::Test::RecordProperty("cycles", std::to_string(c.cycles));
  ::testing::Test::RecordProperty("utilization", std::to_string(util));
}

// Runs a planned layer on the 8-lane core with read latency 1..latency and ready low stall_pct %
// of the cycles on each port.
harness::CoreResult RunOnCore8(const CoreLayerPlan& p, const oracle::Tensor3& x,
                               const std::vector<std::vector<uint16_t>>& w, test::Rng& rng, int latency,
                               int stall_pct) {
  harness::CoreRunOptions opt;
  opt.max_latency = latency;
  opt.stall_pct = stall_pct;
  opt.below = [&rng](uint32_t m) { return rng.Below(m); };
  return RunOnCore<Vane_core8_m1>(p, harness::BuildCoreImage(p, kCore8, x, w, 7), opt, 1, kCore8);
}

// A random layer with a kernel larger than the shifter's 7x7 (8x8 .. 15x15 in either
// dimension), small enough for the 8-lane core's bank once split.
LayerCase LargeKernelLayer(test::Rng& rng) {
  LayerCase lc;
  oracle::ConvLayer& l = lc.plan.layer;
  oracle::ConvGeometry& g = l.geom;
  do {
    g.kernel_h = 1 + int(rng.Below(15));
    g.kernel_w = 1 + int(rng.Below(15));
  } while (g.kernel_h <= 7 && g.kernel_w <= 7);
  g.stride_y = 1 + int(rng.Below(3));
  g.stride_x = 1 + int(rng.Below(3));
  g.dilation_y = 1 + int(rng.Below(2));
  g.dilation_x = 1 + int(rng.Below(2));
  test::DrawPadsAndSize(&g, rng, 6, 6);
  g.channels = 1 + int(rng.Below(2));
  l.groups = 1 + int(rng.Below(2));
  l.cout = l.groups * (1 + int(rng.Below(4)));
  lc.x = oracle::Tensor3{l.Cin(), g.height, g.width, {}};
  for (int i = 0; i < l.Cin() * g.height * g.width; ++i) lc.x.codes.push_back(SmallFp16(rng));
  lc.w.assign(size_t(l.cout), {});
  for (auto& k : lc.w) {
    for (int s = 0; s < g.Steps(); ++s) k.push_back(SmallFp16(rng));
  }
  return lc;
}

// ARCHITECTURE: kernels larger than 7x7 run by splitting (harness::SplitGeometry/SplitInput):
// the split layer is the same reduction in the same N-2 order, so on the oracle it gives the
// original layer's bits exactly, for every random layer.
TEST(RtlCore, N2_SplitLargeKernelsAreTheSameReductionOnTheOracle) {
  const uint64_t seed = test::TestSeed(0x5917);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int n = 0; n < 60; ++n) {
    const LayerCase lc = LargeKernelLayer(rng);
    const oracle::ConvLayer& l = lc.plan.layer;
    ASSERT_EQ(oracle::CheckConvLayer(l), "") << n;
    const oracle::ConvLayer v = harness::SplitGeometry(l);
    ASSERT_LE(v.geom.kernel_h, 7);
    ASSERT_LE(v.geom.kernel_w, 7);
    ASSERT_EQ(v.geom.Steps(), l.geom.Steps());
    ASSERT_EQ(v.geom.OutHeight(), l.geom.OutHeight());
    ASSERT_EQ(v.geom.OutWidth(), l.geom.OutWidth());
    EXPECT_EQ(oracle::Conv2d(v, harness::SplitInput(l, lc.x), lc.w).codes, oracle::Conv2d(l, lc.x, lc.w).codes)
        << "layer " << n << ": " << l.geom.kernel_h << "x" << l.geom.kernel_w << " split into " << v.geom.kernel_h
        << "x" << v.geom.kernel_w;
  }
}

// The same on the 8-lane core: every output of the split layer the core computes equals
// oracle::Conv2d of the original layer, under memory latency and back-pressure.
TEST(RtlCore, N2_KernelsLargerThan7x7RunSplitOnTheCore) {
  const uint64_t seed = test::TestSeed(0x5918);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  int run = 0;
  for (int n = 0; n < 40 && run < 6; ++n) {
    const LayerCase lc = LargeKernelLayer(rng);
    const oracle::ConvLayer& l = lc.plan.layer;
    CoreLayerPlan p;
    p.layer = harness::SplitGeometry(l);
    if (!harness::PlanCoreLayer(&p, kCore8).empty()) continue;  // too wide for the 8-lane bank
    ++run;
    const harness::CoreResult r = RunOnCore8(p, harness::SplitInput(l, lc.x), lc.w, rng, 4, 15);
    EXPECT_EQ(r.y.codes, oracle::Conv2d(l, lc.x, lc.w).codes)
        << "layer " << n << ": " << l.geom.kernel_h << "x" << l.geom.kernel_w << " stride " << l.geom.stride_y << ","
        << l.geom.stride_x << " dilation " << l.geom.dilation_y << "," << l.geom.dilation_x;
  }
  EXPECT_EQ(run, 6);
}

// Matrix multiply and fully connected layers on the core: y = a [M, K] x b [K, N] is the 1x1
// convolution of x [K, 1, M] (channel k holds column k of a) with N kernels of K steps
// (kernel n = column n of b). Every output must equal the oracle's Matmul (N-2: one reduction
// over k in index order), not only Conv2d: M = 1 is a fully connected layer.
TEST(RtlCore, N2_MatmulAndFullyConnectedRunAsOneByOneConvolutions) {
  const uint64_t seed = test::TestSeed(0xFC01);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  struct Shape {
    int m, k, n;
  };
  for (const Shape& sh : {Shape{1, 300, 10}, Shape{13, 40, 9}, Shape{20, 7, 17}}) {
    oracle::Matrix a, b;
    a.rows = sh.m;
    a.cols = b.rows = sh.k;
    b.cols = sh.n;
    for (int i = 0; i < sh.m * sh.k; ++i) a.codes.push_back(SmallFp16(rng));
    for (int i = 0; i < sh.k * sh.n; ++i) b.codes.push_back(SmallFp16(rng));
    LayerCase lc;
    oracle::ConvLayer& l = lc.plan.layer;
    l.geom.channels = sh.k;
    l.geom.height = 1;
    l.geom.width = sh.m;
    l.cout = sh.n;
    lc.x = oracle::Tensor3{sh.k, 1, sh.m, {}};
    for (int k = 0; k < sh.k; ++k) {
      for (int m = 0; m < sh.m; ++m) lc.x.codes.push_back(a.at(m, k));
    }
    lc.w.assign(size_t(sh.n), {});
    for (int n = 0; n < sh.n; ++n) {
      for (int k = 0; k < sh.k; ++k) lc.w[size_t(n)].push_back(b.at(k, n));
    }
    CoreLayerPlan p = lc.plan;
    ASSERT_EQ(harness::PlanCoreLayer(&p, kCore8), "");
    const harness::CoreResult r = RunOnCore8(p, lc.x, lc.w, rng, 5, 20);
    const oracle::MatmulResult want = oracle::Matmul(a, b, oracle::Generation::kM1);
    for (int n = 0; n < sh.n; ++n) {
      for (int m = 0; m < sh.m; ++m) {
        ASSERT_EQ(r.y.codes[size_t(n * sh.m + m)], want.fp16[size_t(m * sh.n + n)])
            << sh.m << "x" << sh.k << "x" << sh.n << ": y[" << m << ", " << n << "]";
      }
    }
  }
}

// ARCHITECTURE (neural-engine core): on an aligned layer the MAC array takes an operation in
// almost every cycle. 8 lanes, fp16 two-kernel mode (4 positions x 2 kernels), x [32, 8, 8],
// 3x3 padding 1, 32 output channels: 2 passes x 16 tiles x 288 steps x 8 slots.
TEST(RtlCore, N2_UtilizationOnAnAlignedLayer) {
  test::Rng rng(test::TestSeed(0xC0A8));
  LayerCase lc;
  oracle::ConvLayer& l = lc.plan.layer;
  l.geom.channels = 32;
  l.geom.height = l.geom.width = 8;
  l.geom.kernel_h = l.geom.kernel_w = 3;
  l.geom.pad_top = l.geom.pad_bottom = l.geom.pad_left = l.geom.pad_right = 1;
  l.cout = 32;
  lc.plan.kspec.two_kernel = true;
  lc.x = oracle::Tensor3{32, 8, 8, {}};
  for (int i = 0; i < 32 * 64; ++i) lc.x.codes.push_back(SmallFp16(rng));
  lc.w.assign(32, {});
  for (auto& k : lc.w) {
    for (int s = 0; s < 288; ++s) k.push_back(SmallFp16(rng));
  }
  harness::CoreResult r;
  CoreLayerPlan p;
  harness::CoreRunOptions opt;
  opt.max_latency = 8;  // a memory 8 cycles away, always ready
  opt.below = [&rng](uint32_t m) { return rng.Below(m); };
  RunAndCompare(lc, opt, "aligned layer", &r, 1, &p);
  const uint64_t macs = uint64_t(32) * 64 * 288;
  ReportUtilization("aligned 8-lane layer", r, p, macs, 8);
  EXPECT_EQ(r.counters.mac, macs / 8);  // every lane of every operation is a useful MAC
  EXPECT_GE(double(macs) / (8.0 * double(r.counters.cycles)), 0.95);
  EXPECT_EQ(r.counters.wait_slot, 0u) << "8 slots rotate: no product waits for its quad";
}

// A depthwise 3x3 layer, padding 1: `groups` channels of hw x hw, one kernel each (fp16).
LayerCase DepthwiseCase(test::Rng& rng, int groups, int hw) {
  LayerCase lc;
  oracle::ConvLayer& l = lc.plan.layer;
  l.geom.channels = 1;
  l.groups = groups;
  l.cout = groups;
  l.geom.height = l.geom.width = hw;
  l.geom.kernel_h = l.geom.kernel_w = 3;
  l.geom.pad_top = l.geom.pad_bottom = l.geom.pad_left = l.geom.pad_right = 1;
  lc.x = oracle::Tensor3{groups, hw, hw, {}};
  for (int i = 0; i < groups * hw * hw; ++i) lc.x.codes.push_back(SmallFp16(rng));
  lc.w.assign(size_t(groups), {});
  for (auto& k : lc.w) {
    for (int s = 0; s < 9; ++s) k.push_back(SmallFp16(rng));
  }
  return lc;
}

// The counters tell the lane's same-slot rule apart from a full result side (docs/core.md,
// Counters): a depthwise layer has one kernel per pass, so each quad's products wait for one
// another in their slot (13 cycles per quad, docs/mac_lane.md, Timing) and wait_slot counts
// those cycles; with the memory always ready they are not counted as stall_res.
TEST(RtlCore, N2_DepthwiseProductsWaitForTheirSlotAndAreCountedAsSlotWaits) {
  test::Rng rng(test::TestSeed(0xC0D7));
  LayerCase lc = DepthwiseCase(rng, 4, 8);
  harness::CoreResult r;
  CoreLayerPlan p;
  harness::CoreRunOptions opt;  // memory 1 cycle away, always ready
  RunAndCompare(lc, opt, "depthwise layer", &r, 1, &p);
  ReportUtilization("depthwise 8-lane layer", r, p, uint64_t(4) * 64 * 9, 8);
  // 9 products per output: quads of 4, 4 and 1; the 2nd to 4th product of a quad wait 3 cycles
  // each, so about 2 waiting cycles per MAC cycle
  EXPECT_GE(r.counters.wait_slot, r.counters.mac) << "slot waits";
  EXPECT_LE(r.counters.wait_slot, 3 * r.counters.mac) << "slot waits";
  EXPECT_EQ(r.counters.stall_res, 0u) << "the result side never held the array";
  EXPECT_LE(r.counters.mac + r.counters.wait_slot + r.counters.wait_load + r.counters.wait_kern, r.counters.cycles);
}

// The depthwise interleave (LAYER.DIAG, docs/core.md): the same kind of layer with 4 groups per
// pass, each kernel reading its own channel from its own bank, so the 4 slots rotate and no
// product waits for its slot.
TEST(RtlCore, N2_DepthwiseInterleaveRotatesFourGroupsWithoutSlotWaits) {
  test::Rng rng(test::TestSeed(0xC0D8));
  LayerCase lc = DepthwiseCase(rng, 8, 6);
  lc.plan.diag = true;
  lc.plan.diag_g = 4;
  harness::CoreResult r;
  CoreLayerPlan p;
  harness::CoreRunOptions opt;  // memory 1 cycle away, always ready
  RunAndCompare(lc, opt, "depthwise interleave", &r, 1, &p);
  ReportUtilization("depthwise interleave 8-lane layer", r, p, uint64_t(8) * 36 * 9, 8);
  EXPECT_EQ(p.passes, 2);
  EXPECT_EQ(p.channels_per_wu, 4);
  EXPECT_EQ(r.counters.wait_slot, 0u) << "4 rotating slots: no product waits for its slot";
  EXPECT_EQ(r.counters.stall_res, 0u) << "the result side never held the array";
  EXPECT_LE(r.counters.mac + r.counters.wait_slot + r.counters.wait_load + r.counters.wait_kern, r.counters.cycles);
}

// The interleave's bank rows are a power of two of words, at most the 63 that PATCH.BPR holds:
// a wide depthwise layer with a kernel one row high (and a 1x1 one, flattened to one row)
// plans narrower tiles, and its registers pack (CoreLayerWrites throws when a field overflows).
TEST(RtlCore, N2_DepthwiseInterleavePlansWideOneRowLayers) {
  for (const auto& [kw, h, w] : {std::tuple{3, 4, 200}, std::tuple{1, 16, 16}}) {
    oracle::ConvLayer l;
    l.geom.channels = 1;
    l.groups = l.cout = 8;
    l.geom.height = h;
    l.geom.width = w;
    l.geom.kernel_h = 1;
    l.geom.kernel_w = kw;
    for (const harness::ConvMapping m : {harness::ConvMapping::kAuto, harness::ConvMapping::kDepthwise}) {
      harness::RtlConvOptions o;
      o.mapping = m;
      CoreLayerPlan p;
      ASSERT_EQ(harness::PlanRtlConv(l, o, &p), "") << "1x" << kw << " over " << h << "x" << w;
      EXPECT_LE(p.bpr, 63);
      EXPECT_NO_THROW(harness::CoreLayerWrites(p, harness::CoreAddresses{}));
      if (m == harness::ConvMapping::kDepthwise) {
        EXPECT_TRUE(p.diag);
      }
    }
  }
}

// Random depthwise layers through the interleave: 2, 3 or 4 groups per pass (2 and 3 still wait
// for their slots), every kernel size, stride, dilation, padding, fp16 and int8, sparse kernels,
// post-processing, memory latency and back-pressure; every output against the oracle.
TEST(RtlCore, N2_N3_N6_RandomDepthwiseInterleaveLayers) {
  const uint64_t seed = test::TestSeed(0xC0D9);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const int n = int(40 * test::SoakFactor());
  int ran = 0;
  std::map<std::string, int> seen;
  for (int i = 0; i < n && !HasFailure(); ++i) {
    LayerCase lc = RandomLayer(rng, true, true);
    CoreLayerPlan probe = lc.plan;
    if (!harness::PlanCoreLayer(&probe, kCore8).empty()) continue;  // a window wider than the bank
    const harness::CoreRunOptions opt = RandomMemory(rng);
    CoreLayerPlan p;
    RunAndCompare(lc, opt,
                  "layer " + std::to_string(i) + ": " + Describe(lc) + ", interleave " + std::to_string(lc.plan.diag_g),
                  nullptr, 1, &p);
    ++ran;
    seen["int8"] += p.layer.mode == oracle::MacMode::kInt8;
    seen["sparse"] += p.kspec.sparse;
    seen["4 groups per pass"] += p.diag_g == 4;
    seen["fewer groups per pass"] += p.diag_g < 4;
    seen["passes > 1"] += p.passes > 1;
    seen["tiles > 1"] += p.nty * p.ntx > 1;
  }
  if (HasFailure()) return;
  EXPECT_GE(ran, n * 3 / 4) << "too many random layers did not fit the bank";
  for (const auto& [what, count] : seen) EXPECT_GT(count, 0) << "no random layer had " << what;
}

// Runs n layers drawn by draw(rng) (a layer whose window does not fit the bank is skipped; with
// one channel per work unit first) under random memory, each against the oracle; tally(plan,
// &seen) counts what each planned layer had, and every count must end above 0.
template <class Model = Vane_core8_m1, class Draw, class Tally>
void RunRandomLayers(test::Rng& rng, int n, Draw draw, Tally tally) {
  int ran = 0;
  std::map<std::string, int> seen;
  for (int i = 0; i < n && !::testing::Test::HasFailure(); ++i) {
    LayerCase lc = draw(rng);
    CoreLayerPlan probe = lc.plan;
    if (!harness::PlanCoreLayer(&probe, kCore8).empty()) {
      lc.plan.channels_per_wu = 1;
      probe = lc.plan;
      if (!harness::PlanCoreLayer(&probe, kCore8).empty()) continue;
    }
    CoreLayerPlan p;
    RunAndCompare<Model>(lc, RandomMemory(rng), "layer " + std::to_string(i) + ": " + Describe(lc), nullptr, 1, &p);
    ++ran;
    tally(p, &seen);
  }
  if (::testing::Test::HasFailure()) return;
  EXPECT_GE(ran, n * 3 / 4) << "too many random layers did not fit the bank";
  for (const auto& [what, count] : seen) EXPECT_GT(count, 0) << "no random layer had " << what;
}

// N-2.1 through the whole core: random fp16 layers turned into mixed ones. int8 x fp16 takes int8
// data and keeps the fp16 kernels (and their format: fp16, int8sym or palette); fp16 x int8 takes
// raw8 int8 kernels. Both accumulate in fp and store fp16; the two- and four-kernel mappings take
// fp16 x fp16 only.
TEST(RtlCore, N2_1_N3_MixedInt8AndFp16LayersEitherWay) {
  const uint64_t seed = test::TestSeed(0xC0DA);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const auto draw = [](test::Rng& r) {
    LayerCase lc = RandomLayer(r, false, r.Below(4) == 0);
    CoreLayerPlan& p = lc.plan;
    const bool int8_data = r.Below(2) == 0;
    p.layer.mode = int8_data ? oracle::MacMode::kInt8xFp16 : oracle::MacMode::kFp16xInt8;
    p.kspec.two_kernel = p.kspec.four_kernel = false;
    if (int8_data) {
      for (uint16_t& c : lc.x.codes) c = uint16_t(uint8_t(r.Next()));
    } else {
      p.kspec.format = oracle::KernelFormat::kRaw8;
      for (auto& kern : lc.w) {
        for (uint16_t& v : kern) v = v == 0 ? 0 : uint16_t(int16_t(int8_t(uint8_t(r.Next()))));
      }
    }
    return lc;
  };
  RunRandomLayers(rng, int(30 * test::SoakFactor()), draw, [](const CoreLayerPlan& p, std::map<std::string, int>* s) {
    (*s)["int8 x fp16"] += p.layer.mode == oracle::MacMode::kInt8xFp16;
    (*s)["fp16 x int8"] += p.layer.mode == oracle::MacMode::kFp16xInt8;
    (*s)["int8 x fp16 with compressed kernels"] +=
        p.layer.mode == oracle::MacMode::kInt8xFp16 && p.kspec.format != oracle::KernelFormat::kFp16;
    (*s)["depthwise interleave"] += p.diag;
    (*s)["sparse"] += p.kspec.sparse;
    (*s)["slices > 1"] += p.nsl > 1;
  });
}

// N-2.9 through the whole core: layers in the lanes' compare mode take each window's maximum or
// minimum (the kernels' values ignored; padding is zeros, as in every layer), over several slices
// of channels (a continued compare), with the depthwise interleave too; dense kernels only.
TEST(RtlCore, N2_9_CompareModeLayersTakeEachWindowsMaxOrMin) {
  const uint64_t seed = test::TestSeed(0xC0DB);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const auto draw = [](test::Rng& r) {
    LayerCase lc = RandomLayer(r, false, r.Below(4) == 0);
    CoreLayerPlan& p = lc.plan;
    p.layer.mode = r.Below(2) ? oracle::MacMode::kCmpMax : oracle::MacMode::kCmpMin;
    p.kspec.two_kernel = p.kspec.four_kernel = p.kspec.sparse = false;
    if (r.Below(4) == 0) p.channels_per_wu = 1;  // a slice per channel: compares continued
    return lc;
  };
  RunRandomLayers(rng, int(24 * test::SoakFactor()), draw, [](const CoreLayerPlan& p, std::map<std::string, int>* s) {
    (*s)["max"] += p.layer.mode == oracle::MacMode::kCmpMax;
    (*s)["min"] += p.layer.mode == oracle::MacMode::kCmpMin;
    (*s)["slices > 1"] += p.nsl > 1;
    (*s)["padding"] += p.layer.geom.pad_top + p.layer.geom.pad_left > 0;
    (*s)["depthwise interleave"] += p.diag;
  });
  // with sparse kernels the layer is refused: a zero quad would drop data steps
  LayerCase lc = RandomLayer(rng, false);
  lc.plan.layer.mode = oracle::MacMode::kCmpMax;
  lc.plan.kspec.two_kernel = lc.plan.kspec.four_kernel = false;
  lc.plan.kspec.sparse = true;
  EXPECT_EQ(harness::PlanCoreLayer(&lc.plan, kCore8), "compare mode takes dense kernels");
}

// N-3.4 through the whole core: stochastic rounding of each accumulator, its LFSR stepped once per
// lane of every post-processor vector in the core's order (harness::CorePostVectors: passes,
// tiles, the pass's kernels; two- and four-kernel vectors whole, padding kernels too), bit-exact
// with the oracle over that order, for random fp16 and mixed layers under memory latency and
// back-pressure, seeds and widths; the rounding is seen to act (outputs differ from RNE), to be
// the same run to run, and to change with the seed.
TEST(RtlCore, N3_4_StochasticRoundingDrawsInTheCoresVectorOrder) {
  const uint64_t seed = test::TestSeed(0xC0DC);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  int differ_from_rne = 0;
  const auto draw = [&](test::Rng& r) {
    LayerCase lc = RandomLayer(r, false, r.Below(5) == 0);
    CoreLayerPlan& p = lc.plan;
    p.kspec.sparse = false;
    if (r.Below(4) == 0) {  // int8 x fp16
      p.layer.mode = oracle::MacMode::kInt8xFp16;
      p.kspec.two_kernel = p.kspec.four_kernel = false;
      for (uint16_t& c : lc.x.codes) c = uint16_t(uint8_t(r.Next()));
    }
    p.layer.post.sr = true;
    p.layer.post.sr_seed = 1 + r.Below(0xFFFFFFFEu);
    p.layer.post.sr_width = 1 + int(r.Below(13));
    CoreLayerPlan probe = p;
    if (harness::PlanCoreLayer(&probe, kCore8).empty()) {
      oracle::ConvLayer rne = probe.layer;
      rne.post.sr = false;
      const oracle::Tensor3 a = oracle::Conv2d(rne, lc.x, harness::CoreCoefficients(probe, lc.w));
      const oracle::Tensor3 b = oracle::Conv2dInVectors(probe.layer, lc.x, harness::CoreCoefficients(probe, lc.w),
                                                        harness::CorePostVectors(probe, kCore8));
      differ_from_rne += a.codes != b.codes;
    }
    return lc;
  };
  RunRandomLayers(rng, int(24 * test::SoakFactor()), draw, [](const CoreLayerPlan& p, std::map<std::string, int>* s) {
    (*s)["two-kernel"] += p.kspec.two_kernel;
    (*s)["four-kernel"] += p.kspec.four_kernel;
    (*s)["four-kernel padding kernels"] += p.kspec.four_kernel && p.nk_last % 4 != 0;
    (*s)["depthwise interleave"] += p.diag;
    (*s)["tiles > 1"] += p.nty * p.ntx > 1;
    (*s)["passes > 1"] += p.passes > 1;
    (*s)["int8 x fp16"] += p.layer.mode == oracle::MacMode::kInt8xFp16;
  });
  EXPECT_GT(differ_from_rne, 0) << "stochastic rounding never changed an output";
  if (HasFailure()) return;
  // the same layer and seed twice: the same outputs; another seed: others
  LayerCase lc = RandomLayer(rng, false);
  lc.plan.kspec.sparse = false;
  lc.plan.layer.post.sr = true;
  lc.plan.layer.post.sr_seed = 12345;
  harness::CoreResult r1, r2, r3;
  RunAndCompare(lc, {}, "seed 12345: " + Describe(lc), &r1);
  RunAndCompare(lc, {}, "seed 12345 again", &r2);
  lc.plan.layer.post.sr_seed = 54321;
  RunAndCompare(lc, {}, "seed 54321", &r3);
  EXPECT_EQ(r1.y.codes, r2.y.codes);
  EXPECT_NE(r1.y.codes, r3.y.codes);
  // sparse kernels would reorder the results: refused
  lc.plan.kspec.sparse = true;
  lc.plan.kspec.four_kernel = false;
  EXPECT_EQ(harness::PlanCoreLayer(&lc.plan, kCore8), "stochastic rounding takes dense kernels");
}

// N-2.3, N-2.4, N-3 at generation m5 through the whole core (Vane_core8_m5, ane_core's Gen): the
// m5 MAC keeps its quads exact and its denormals, the m5 post-processor rounds its way; random
// fp16 and int8 layers of every mapping, with denormal operands now and then, against the oracle
// at m5, and the same layers differ from m1 somewhere.
TEST(RtlCore, N2_3_N2_4_M5LayersOnTheM5Core) {
  const uint64_t seed = test::TestSeed(0xC0DD);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  int differ_from_m1 = 0;
  const auto draw = [&](test::Rng& r) {
    LayerCase lc = RandomLayer(r, true, r.Below(5) == 0);
    lc.plan.layer.gen = oracle::Generation::kM5;
    lc.plan.layer.post.gen = oracle::Generation::kM5;
    if (lc.plan.layer.mode == oracle::MacMode::kFp16 && r.Below(2)) {
      for (uint16_t& c : lc.x.codes) {
        if (r.Below(8) == 0) c = uint16_t((c & 0x8000) | (1 + r.Below(0x3FF)));  // a denormal
      }
    }
    CoreLayerPlan probe = lc.plan;
    if (harness::PlanCoreLayer(&probe, kCore8).empty()) {
      oracle::ConvLayer m1 = probe.layer;
      m1.gen = m1.post.gen = oracle::Generation::kM1;
      const auto k = harness::CoreCoefficients(probe, lc.w);
      differ_from_m1 += oracle::Conv2d(m1, lc.x, k).codes != oracle::Conv2d(probe.layer, lc.x, k).codes;
    }
    return lc;
  };
  RunRandomLayers<Vane_core8_m5>(rng, int(30 * test::SoakFactor()), draw,
                                 [](const CoreLayerPlan& p, std::map<std::string, int>* s) {
                                   (*s)["int8"] += p.layer.mode == oracle::MacMode::kInt8;
                                   (*s)["two-kernel"] += p.kspec.two_kernel;
                                   (*s)["four-kernel"] += p.kspec.four_kernel;
                                   (*s)["depthwise interleave"] += p.diag;
                                   (*s)["sparse"] += p.kspec.sparse;
                                 });
  EXPECT_GT(differ_from_m1, 0) << "no layer told the generations apart";
}

// The m5 core runs the m1 core's schedule: the generation changes only the lanes' and the
// post-processor's arithmetic, so a layer takes the same cycles, counter for counter, on both
// (its utilization on the layer table is m1's, BM_CoreConv/i/1 in results.md). Random layers of
// every mapping, each exact against the oracle at its generation.
TEST(RtlCore, N7_M5CoreTakesTheM1CoresCycles) {
  const uint64_t seed = test::TestSeed(0xC0DE);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  int ran = 0;
  for (int i = 0; i < int(test::CoverageShare(12)) && !HasFailure(); ++i) {
    LayerCase m1 = RandomLayer(rng, true, rng.Below(4) == 0);
    CoreLayerPlan probe = m1.plan;
    if (!harness::PlanCoreLayer(&probe, kCore8).empty()) continue;
    LayerCase m5 = m1;
    m5.plan.layer.gen = m5.plan.layer.post.gen = oracle::Generation::kM5;
    harness::CoreResult r1, r5;
    const std::string what = "layer " + std::to_string(i) + ": " + Describe(m1);
    RunAndCompare<Vane_core8_m1>(m1, {}, what + " (m1)", &r1);
    RunAndCompare<Vane_core8_m5>(m5, {}, what + " (m5)", &r5);
    EXPECT_EQ(r5.cycles, r1.cycles) << what;
    EXPECT_EQ(r5.counters.mac, r1.counters.mac) << what;
    EXPECT_EQ(r5.counters.stall_res, r1.counters.stall_res) << what;
    EXPECT_EQ(r5.counters.wait_slot, r1.counters.wait_slot) << what;
    EXPECT_EQ(r5.counters.wait_load, r1.counters.wait_load) << what;
    EXPECT_EQ(r5.counters.wait_kern, r1.counters.wait_kern) << what;
    ++ran;
  }
  EXPECT_GE(ran, int(test::CoverageShare(12)) / 2);
}

// int4 packed layers (N-2.8, LAYER.MODE 4): one to four images at once, image n in nibble n of
// each 16-bit input element, a pass of at most two kernels on slot bases 0 and 4, four results
// per kernel written as output channels 4 co + n. Each image must equal oracle::Conv2d of that
// image alone as an int8 x int8 layer (int4 products are int8 products; each slot keeps its own
// quads and saturation).
struct Int4Case {
  LayerCase lc;  // the layer (int8 x int8, values -8..7), lc.x unused
  std::vector<oracle::Tensor3> images;
};

int8_t Int4Value(test::Rng& rng) {
  const uint32_t r = rng.Below(8);
  return r == 0 ? int8_t(-8) : r == 1 ? int8_t(7) : int8_t(int(rng.Below(16)) - 8);
}

Int4Case RandomInt4Layer(test::Rng& rng) {
  Int4Case c;
  c.lc = RandomLayer(rng, false);
  CoreLayerPlan& p = c.lc.plan;
  oracle::ConvLayer& l = p.layer;
  p.int4 = true;
  p.kspec = oracle::KernelSpec{};
  p.kspec.format = oracle::KernelFormat::kRaw8;
  p.kspec.sparse = rng.Below(4) == 0;
  l.mode = oracle::MacMode::kInt8;
  l.post = oracle::PostConfig{};
  l.post.int_acc = true;
  l.post.shift = int(rng.Below(6));
  l.post.store = rng.Below(2) ? oracle::PostStore::kInt8 : oracle::PostStore::kFp16;
  if (rng.Below(2)) l.post.act = oracle::PostAct::kRelu;
  l.channel.clear();
  if (l.post.store == oracle::PostStore::kFp16 && rng.Below(2)) {  // a parameter record per kernel
    l.post.scale_en = true;
    l.post.bias_en = rng.Below(2) == 0;
    for (int co = 0; co < l.cout; ++co) {
      oracle::ChannelParams ch;
      ch.scale = SmallFp16(rng);
      ch.bias = l.post.bias_en ? uint32_t(0x3E000000u + rng.Below(0x01000000u)) | (rng.Below(2) ? 0x80000000u : 0) : 0;
      l.channel.push_back(ch);
    }
  }
  for (auto& kern : c.lc.w) {
    for (uint16_t& v : kern) v = p.kspec.sparse && rng.Below(2) ? 0 : uint16_t(int16_t(Int4Value(rng)));
  }
  const int n = 1 + int(rng.Below(4));
  for (int i = 0; i < n; ++i) {
    oracle::Tensor3 x{c.lc.x.c, c.lc.x.h, c.lc.x.w, {}};
    for (size_t k = 0; k < c.lc.x.codes.size(); ++k) x.codes.push_back(uint16_t(uint8_t(Int4Value(rng))));
    c.images.push_back(std::move(x));
  }
  return c;
}

std::string DescribeInt4(const Int4Case& c) {
  return std::to_string(c.images.size()) + " image(s), " + Describe(c.lc) + ", shift " +
         std::to_string(c.lc.plan.layer.post.shift);
}

template <class Model = Vane_core8_m1>
void RunInt4AndCompare(const Int4Case& c, const harness::CoreRunOptions& opt, const std::string& what,
                       harness::CoreResult* out = nullptr, CoreLayerPlan* plan = nullptr, uint32_t x_seed = 1) {
  CoreLayerPlan p = c.lc.plan;
  ASSERT_EQ(harness::PlanCoreLayer(&p, kCore8), "") << what;
  const harness::CoreImage im = harness::BuildCoreImage(p, kCore8, harness::PackInt4Images(c.images), c.lc.w, 7);
  const harness::CoreResult r = RunOnCore<Model>(p, im, opt, x_seed, kCore8);
  const std::vector<oracle::Tensor3> got = harness::UnpackInt4Outputs(r.y, int(c.images.size()));
  const auto coefs = harness::CoreCoefficients(p, c.lc.w);
  for (size_t n = 0; n < c.images.size(); ++n) {
    ExpectSameOutputs(got[n], oracle::Conv2d(p.layer, c.images[n], coefs), p, what + ", image " + std::to_string(n));
  }
  EXPECT_EQ(r.counters.mac, im.mac_ops) << what << ": MAC operations";
  EXPECT_EQ(r.bytes_rewritten, 0u) << what;
  EXPECT_EQ(r.bytes_written, uint64_t(im.y_bytes)) << what << ": every output byte of the four images";
  if (out) *out = r;
  if (plan) *plan = p;
}

template <class Model>
void RunRandomInt4Layers(uint64_t seed, int n) {
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  int ran = 0;
  std::map<std::string, int> seen;
  for (int i = 0; i < n && !::testing::Test::HasFailure(); ++i) {
    Int4Case c = RandomInt4Layer(rng);
    CoreLayerPlan probe = c.lc.plan;
    if (!harness::PlanCoreLayer(&probe, kCore8).empty()) {
      c.lc.plan.channels_per_wu = 1;
      probe = c.lc.plan;
      if (!harness::PlanCoreLayer(&probe, kCore8).empty()) continue;
    }
    CoreLayerPlan p;
    // each layer under its own --x-initial seed (N-7.1: no output may depend on it)
    const uint32_t x_seed = 1 + uint32_t(i);
    RunInt4AndCompare<Model>(
        c, RandomMemory(rng),
        "layer " + std::to_string(i) + " (x seed " + std::to_string(x_seed) + "): " + DescribeInt4(c), nullptr, &p,
        x_seed);
    ++ran;
    seen["four images"] += c.images.size() == 4;
    seen["fewer than four images"] += c.images.size() < 4;
    seen["a pass of two kernels"] += p.nk_full == 2;
    seen["a pass of one kernel"] += p.nk_last == 1;
    seen["groups > 1"] += p.layer.groups > 1;
    seen["slices > 1"] += p.nsl > 1;
    seen["tiles > 1"] += p.nty * p.ntx > 1;
    seen["int8 out"] += p.out8;
    seen["scale and bias"] += p.layer.post.scale_en;
    seen["sparse"] += p.kspec.sparse;
  }
  if (::testing::Test::HasFailure()) return;
  EXPECT_GE(ran, n * 3 / 4) << "too many random layers did not fit the bank";
  for (const auto& [what, count] : seen) EXPECT_GT(count, 0) << "no random layer had " << what;
}

TEST(RtlCore, N2_8_Int4PackedLayersRunFourImagesAtOnce) {
  RunRandomInt4Layers<Vane_core8_m1>(test::TestSeed(0xC0E4), int(30 * test::SoakFactor()));
}

TEST(RtlCore, N2_8_Int4PackedLayersOnTheM5Core) {
  RunRandomInt4Layers<Vane_core8_m5>(test::TestSeed(0xC0E5), int(16 * test::SoakFactor()));
}

// What the int4 plan refuses, and the packing's own checks.
TEST(RtlCore, N2_8_Int4PlansAndPackingRefuseWhatTheModeCannotTake) {
  test::Rng rng(test::TestSeed(0xC0E6));
  Int4Case c = RandomInt4Layer(rng);
  CoreLayerPlan p = c.lc.plan;
  p.layer.mode = oracle::MacMode::kFp16;
  p.layer.post = oracle::PostConfig{};
  p.layer.channel.clear();
  EXPECT_EQ(harness::PlanCoreLayer(&p, kCore8), "int4 packed layers are int8 x int8 layers of values -8..7");
  p = c.lc.plan;
  p.kspec.format = oracle::KernelFormat::kPalette;
  EXPECT_EQ(harness::PlanCoreLayer(&p, kCore8), "int4 kernels: format raw8");
  p = c.lc.plan;
  p.kspec.two_kernel = true;
  EXPECT_EQ(harness::PlanCoreLayer(&p, kCore8), "int4 packed layers run in broadcast mode");
  oracle::Tensor3 x = c.images[0];
  x.codes[0] = uint16_t(uint8_t(int8_t(8)));
  EXPECT_THROW(harness::PackInt4Images({x}), std::invalid_argument);
  x.codes[0] = uint16_t(uint8_t(int8_t(-9)));
  EXPECT_THROW(harness::PackInt4Images({x}), std::invalid_argument);
  EXPECT_THROW(harness::PackInt4Images(std::vector<oracle::Tensor3>(5, c.images[0])), std::invalid_argument);
  // the packing itself: image n's value in nibble n
  const oracle::Tensor3 one{1, 1, 1, {uint16_t(uint8_t(int8_t(-8)))}}, two{1, 1, 1, {7}}, three{1, 1, 1, {0xFFFF}};
  EXPECT_EQ(harness::PackInt4Images({one, two, three}).codes, std::vector<uint16_t>{0x0F78});
  p = c.lc.plan;
  ASSERT_EQ(harness::PlanCoreLayer(&p, kCore8), "");
  std::vector<std::vector<uint16_t>> w = c.lc.w;
  w[0][0] = 8;
  EXPECT_THROW(harness::BuildCoreImage(p, kCore8, harness::PackInt4Images(c.images), w, 7), std::invalid_argument);
}

// The int4 mode's rate: four images' products per operation. A 3x3 layer of 16 channels to 2
// output channels (one pass of two kernels, the slot bases 0 and 4 alternating) on 8 x 8 tiles:
// the MAC array takes an operation in most cycles, so the core does more than twice the
// multiply-accumulates per cycle of the same layer in int8 (one image, 2 of 8 slots).
TEST(RtlCore, N2_8_Int4LayersDoFourImagesProductsPerOperation) {
  test::Rng rng(test::TestSeed(0xC0E7));
  Int4Case c = RandomInt4Layer(rng);
  CoreLayerPlan& p = c.lc.plan;
  oracle::ConvLayer& l = p.layer;
  l.geom = oracle::ConvGeometry{};
  l.geom.channels = 16;
  l.geom.height = l.geom.width = 10;
  l.geom.kernel_h = l.geom.kernel_w = 3;
  l.groups = 1;
  l.cout = 2;
  l.post = oracle::PostConfig{};
  l.post.int_acc = true;
  l.post.store = oracle::PostStore::kInt8;
  l.post.shift = 4;
  l.channel.clear();
  p.kspec.sparse = false;
  p.channels_per_wu = 0;
  c.lc.w.assign(2, {});
  for (auto& k : c.lc.w) {
    for (int s = 0; s < l.geom.Steps(); ++s) k.push_back(uint16_t(int16_t(Int4Value(rng))));
  }
  c.images.clear();
  for (int n = 0; n < 4; ++n) {
    oracle::Tensor3 x{16, 10, 10, {}};
    for (int i = 0; i < 1600; ++i) x.codes.push_back(uint16_t(uint8_t(Int4Value(rng))));
    c.images.push_back(std::move(x));
  }
  harness::CoreResult r;
  CoreLayerPlan planned;
  RunInt4AndCompare(c, {}, "int4 3x3 16 -> 2, 4 images", &r, &planned);
  if (HasFailure()) return;
  const double macs = 4.0 * 2 * 64 * 144;  // images x Cout x OH OW x steps
  const double per_cycle = macs / double(r.cycles);
  std::printf(
      "int4 3x3 16 -> 2 channels, 4 images, 8 lanes: %llu cycles, %llu MAC operations, %llu slot waits, "
      "%.2f multiply-accumulates per cycle (%.1f per lane)\n",
      static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.counters.mac),
      static_cast<unsigned long long>(r.counters.wait_slot), per_cycle, per_cycle / 8);
  // the same layer, one image, int8
  LayerCase i8 = c.lc;
  i8.plan.int4 = false;
  i8.x = c.images[0];
  harness::CoreResult r8;
  RunAndCompare(i8, {}, "int8 3x3 16 -> 2, 1 image", &r8);
  const double per_cycle8 = 2.0 * 64 * 144 / double(r8.cycles);
  std::printf("the same layer in int8, 1 image: %llu cycles, %.2f multiply-accumulates per cycle\n",
              static_cast<unsigned long long>(r8.cycles), per_cycle8);
  EXPECT_GT(per_cycle, 2.0 * per_cycle8);
  EXPECT_GT(double(r.counters.mac) / double(r.cycles), 0.5) << "the MAC array idles in most cycles";
}

// The full 256-lane core on an aligned layer: x [16, 32, 32] -> 32 channels, 3x3 padding 1
// (fp16 two-kernel mode: 128 positions x 2 kernels; 4x32 tiles cover 32x32 exactly).
TEST(RtlCore256, N2_UtilizationOnAnAlignedLayer) {
  test::Rng rng(test::TestSeed(0xC256));
  const LayerCase lc = DenseLayer(rng, 16, 32, 32, 32, 3);
  harness::CoreResult r;
  CoreLayerPlan p;
  harness::CoreRunOptions opt;
  opt.max_latency = 8;
  opt.below = [&rng](uint32_t m) { return rng.Below(m); };
  RunAndCompare<Vane_core256_m1>(lc, opt, "16x32x32 -> 32, 3x3", &r, 1, &p, kCore256);
  const uint64_t macs = uint64_t(16) * 32 * 32 * 32 * 9;
  ReportUtilization("aligned 256-lane layer", r, p, macs, 256);
  EXPECT_EQ(r.counters.mac, macs / 256);
  EXPECT_GE(double(macs) / (256.0 * double(r.counters.cycles)), 0.95);
}

// A depthwise 3x3 layer of a MobileNet, [64, 28, 28], padding 1, on the full 256-lane core
// through PlanRtlConv: the planner picks the depthwise interleave of 4 groups per pass (6 x 28
// tiles, one channel per 512-byte bank), which must reach half the lanes' MACs.
TEST(RtlCore256, N2_DepthwiseLayerRunsInterleavedAtHalfTheLanesOrMore) {
  test::Rng rng(test::TestSeed(0xC2D3));
  const LayerCase lc = DepthwiseCase(rng, 64, 28);
  const harness::RtlConvResult r = harness::RtlConv2d(lc.plan.layer, lc.x, lc.w, harness::RtlConvOptions{});
  EXPECT_TRUE(r.plan.diag);
  EXPECT_EQ(r.plan.diag_g, 4);
  const oracle::Tensor3 want = oracle::Conv2d(lc.plan.layer, lc.x, lc.w);
  ASSERT_EQ(r.y.codes.size(), want.codes.size());
  for (size_t i = 0; i < want.codes.size(); ++i) ASSERT_EQ(r.y.codes[i], want.codes[i]) << "output " << i;
  std::printf(
      "depthwise [64, 28, 28] 3x3 on 256 lanes: %llu cycles, utilization %.1f %%, slot waits %llu, load waits %llu\n",
      (unsigned long long)r.stats.cycles, 100.0 * r.stats.utilization, (unsigned long long)r.stats.counters.wait_slot,
      (unsigned long long)r.stats.counters.wait_load);
  EXPECT_GE(r.stats.utilization, 0.5);
}

// A real-sized layer on the full 256-lane core: a 3x3 convolution, padding 1, 64 input and 64
// output channels on a 56x56 input (a ResNet stage-1 layer), fp16 two-kernel mode. make test
// runs the first half of the output channels (32 channels from all 64 input channels, 46 s);
// the whole layer is in the nightly suite (sim/regress/nightly.yaml, resnet_3x3_64_to_64_56x56,
// make nightly), and RealLayerHalf(1) is the other half. 56x56
// outputs do not fill 128-position tiles (2x56 tiles: 112 of 128 positions), so the lanes are
// 87.5 % used; the cycles beyond the operations are reported.
void RealLayerHalf(int half) {
  test::Rng rng(test::TestSeed(0xC56));  // the same layer for both halves
  LayerCase lc = DenseLayer(rng, 64, 56, 56, 64, 3);
  lc.w.erase(half == 0 ? lc.w.begin() + 32 : lc.w.begin(), half == 0 ? lc.w.end() : lc.w.begin() + 32);
  lc.plan.layer.cout = 32;
  harness::CoreResult r;
  CoreLayerPlan p;
  harness::CoreRunOptions opt;
  opt.max_latency = 8;
  opt.stall_pct = 5;
  opt.below = [&rng](uint32_t m) { return rng.Below(m); };
  RunAndCompare<Vane_core256_m1>(lc, opt, "64x56x56 -> 64, 3x3, half " + std::to_string(half), &r, 1, &p, kCore256);
  const uint64_t macs = uint64_t(64) * 56 * 56 * 32 * 9;
  ReportUtilization(half == 0 ? "56x56x64 -> 64, channels 0..31" : "56x56x64 -> 64, channels 32..63", r, p, macs, 256);
  EXPECT_GE(double(macs) / (256.0 * double(r.counters.cycles)), 0.85);
}
// A 1x1 layer at stride 1 without padding runs as the same layer on [C, 1, H W] (PlanRtlConv):
// tiles of whole 128-position runs that wrap the rows. Its outputs, put back as [Cout][OH][OW],
// equal oracle::Conv2d of the layer as given; a 1x1 layer at stride 2 is not flattened.
TEST(RtlCore256, N2_OneByOneLayersRunOnRowWrappingTiles) {
  test::Rng rng(test::TestSeed(0x1F1A7));
  for (int stride = 1; stride <= 2; ++stride) {
    oracle::ConvLayer l;
    l.geom.channels = 12;
    l.geom.height = 9;
    l.geom.width = 31;
    l.geom.stride_y = l.geom.stride_x = stride;
    l.cout = 20;
    oracle::Tensor3 x{12, 9, 31, {}};
    for (int i = 0; i < 12 * 9 * 31; ++i)
      x.codes.push_back(uint16_t(0x3000 + rng.Below(0x1800)) | uint16_t(rng.Below(2) << 15));
    std::vector<std::vector<uint16_t>> w(20);
    for (auto& k : w) {
      for (int c = 0; c < 12; ++c) k.push_back(uint16_t(0x2C00 + rng.Below(0x1000)) | uint16_t(rng.Below(2) << 15));
    }
    harness::RtlConvOptions two;
    two.mapping = harness::ConvMapping::kTwoKernel;
    const harness::RtlConvResult r = harness::RtlConv2d(l, x, w, two);
    const oracle::Tensor3 want = oracle::Conv2d(l, x, w);
    EXPECT_EQ(r.y.c, want.c);
    EXPECT_EQ(r.y.h, want.h);
    EXPECT_EQ(r.y.w, want.w);
    EXPECT_EQ(r.y.codes, want.codes) << "stride " << stride;
    if (stride == 1) {
      EXPECT_EQ(r.plan.flat_w, 31);
      EXPECT_EQ(r.stats.tile_h, 1);
      EXPECT_EQ(r.stats.tiles, 3);  // 279 positions: 128 + 128 + 23
      // The planner's own choice: four-kernel tiles of 64 wrapping positions (5 tiles, one
      // pass of 20 kernels), fewer estimated cycles than 3 two-kernel tiles of 2 passes.
      const harness::RtlConvResult a = harness::RtlConv2d(l, x, w);
      EXPECT_EQ(a.y.codes, want.codes);
      EXPECT_TRUE(a.plan.kspec.four_kernel);
      EXPECT_EQ(a.stats.tiles, 5);
      EXPECT_EQ(a.stats.passes, 1);
    } else {
      EXPECT_EQ(r.plan.flat_w, 0);
    }
  }
}

// The four-kernel mode on the layer it is for: a 1x1 projection [64, 28, 28] -> 128
// (a ResNet / MobileNet shape) on the 256-lane core through PlanRtlConv. Its 784 positions make
// 6.1 two-kernel tiles of 128 (87.5 % of the lanes at most); as 13 four-kernel tiles of 64
// positions x 4 kernels the lanes are 94.2 % used, and the kernel port (one fp16 operation of 4
// coefficients = one 64-bit beat per cycle) keeps up: the layer must reach 90 %.
TEST(RtlCore256, N2_FourKernelModeFillsTheLanesOnOneByOne28x28) {
  test::Rng rng(test::TestSeed(0xF4C));
  const LayerCase lc = DenseLayer(rng, 64, 28, 28, 128, 1);
  const harness::RtlConvResult r = harness::RtlConv2d(lc.plan.layer, lc.x, lc.w);
  EXPECT_TRUE(r.plan.kspec.four_kernel);
  EXPECT_EQ(r.stats.tiles, 13);
  EXPECT_EQ(r.stats.passes, 4);
  const oracle::Tensor3 want = oracle::Conv2d(lc.plan.layer, lc.x, lc.w);
  ASSERT_EQ(r.y.codes.size(), want.codes.size());
  for (size_t i = 0; i < want.codes.size(); ++i) {
    ASSERT_EQ(r.y.codes[i], want.codes[i])
        << "output " << i << ": "
        << harness::ConvOutputPlace(r.plan, int(i) / (28 * 28), int(i) / 28 % 28, int(i) % 28);
  }
  std::printf(
      "1x1 [64, 28, 28] -> 128 on 256 lanes, four-kernel: %llu cycles, %llu MAC cycles, utilization %.1f %%, "
      "stall_res %llu, wait_kern %llu, wait_load %llu\n",
      (unsigned long long)r.stats.cycles, (unsigned long long)r.stats.counters.mac, 100.0 * r.stats.utilization,
      (unsigned long long)r.stats.counters.stall_res, (unsigned long long)r.stats.counters.wait_kern,
      (unsigned long long)r.stats.counters.wait_load);
  EXPECT_GE(r.stats.utilization, 0.90);
}

TEST(RtlCore256, N2_RealLayer56x56x64To64_OutputChannels0To31) { RealLayerHalf(0); }

}  // namespace
}  // namespace ane
