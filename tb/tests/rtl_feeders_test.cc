// SPDX-License-Identifier: Apache-2.0
// The two feeders of the MAC array chained in RTL: the kernel extract's operations (with their
// sparse skips) become the shifter's requests, and each lane vector with its coefficient goes
// through the 16-lane MAC array. Every output of a whole convolution must equal the oracle's
// direct convolution with the dense kernels (NUMERICS N-2 order, N-6.3: skipping zero
// coefficients and the matching shifter steps changes no result), and the sparse run must use
// fewer shifter steps and MAC operations than the dense one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "Vane_kernel_extract.h"
#include "Vane_mac_array16_m1.h"
#include "Vane_shifter16.h"
#include "tb/harness/kernel_extract_driver.h"
#include "tb/harness/shifter_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/kernel_codec.h"
#include "tb/oracle/mac.h"
#include "tb/plan/work_unit.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::ExtractOp;
using harness::ShifterOutput;
using harness::ShifterRequest;
using harness::WorkUnit;

constexpr int kLanes = 16;

// One reduction per (kernel, output): the oracle's direct convolution in N-2 order.
std::vector<std::vector<uint16_t>> DirectConv(const oracle::Tensor3& x, const oracle::ConvGeometry& g,
                                              const std::vector<std::vector<uint16_t>>& w) {
  std::vector<std::vector<uint16_t>> y(w.size());
  for (size_t j = 0; j < w.size(); ++j) {
    for (int oy = 0; oy < g.OutHeight(); ++oy) {
      for (int ox = 0; ox < g.OutWidth(); ++ox) {
        std::vector<uint16_t> data;
        for (int s = 0; s < g.Steps(); ++s) data.push_back(oracle::ConvInputAt(x, g, oy, ox, oracle::StepAt(g, s)));
        y[j].push_back(
            oracle::Reduce(oracle::MacMode::kFp16, oracle::Generation::kM1, data.data(), w[j].data(), data.size())
                .fp16);
      }
    }
  }
  return y;
}

// The shifter requests for one tile's operations: the work unit of channel c serves the steps
// of channel c; release after its last operation, or a no-data request when it has none.
std::vector<ShifterRequest> RequestsFor(const std::vector<ExtractOp>& ops, int channels) {
  std::vector<ShifterRequest> r;
  int wu = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    while (wu < ops[i].c) r.push_back({0, 0, 0, true, true, 0xFFFF}), ++wu;  // skipped channel
    const bool release = i + 1 == ops.size() || ops[i + 1].c != ops[i].c;
    r.push_back({0, ops[i].ky, ops[i].kx, release, false, uint32_t(i)});
    if (release) ++wu;
  }
  while (wu < channels) r.push_back({0, 0, 0, true, true, 0xFFFF}), ++wu;
  return r;
}

// Runs (vector, operation) pairs through the MAC array; returns [slot][lane] fp16 results.
std::vector<std::vector<uint16_t>> RunArray(const std::vector<ExtractOp>& ops, const std::vector<ShifterOutput>& vecs,
                                            test::Rng& rng) {
  harness::Sim<Vane_mac_array16_m1> sim("ane_mac_array", harness::CurrentTestStem() + "_array");
  auto& d = sim.dut();
  d.in_valid_i = 0;
  d.out_ready_i = 1;
  d.rd_en_i = 0;
  sim.Reset();
  std::vector<std::vector<uint16_t>> res(8, std::vector<uint16_t>(kLanes, 0));
  size_t next = 0, results = 0, lasts = 0;
  for (const auto& op : ops) lasts += op.last;
  bool pending = false;
  while (results < lasts) {
    const bool offer = next < ops.size() && (pending || rng.Below(100) >= 20);
    d.in_valid_i = offer;
    if (offer) {
      const ExtractOp& op = ops[next];
      d.in_cmd_i = 0;   // CmdMac
      d.in_mode_i = 0;  // fp16
      d.in_slot_i = uint8_t(op.slot);
      d.in_first_i = op.first;
      d.in_last_i = op.last;
      d.in_two_kernel_i = 0;
      d.in_four_kernel_i = 0;
      d.in_kernel_a_i = op.coef_a;
      d.in_kernel_b_i = 0;
      d.in_kernel_c_i = 0;
      d.in_kernel_d_i = 0;
      for (int l = 0; l < kLanes; ++l) {
        harness::SetPortWord(d.in_data_i, l / 2,
                             (harness::PortWord(d.in_data_i, l / 2) & ~(0xFFFFu << (16 * (l % 2)))) |
                                 uint32_t(vecs[next].data[size_t(l)]) << (16 * (l % 2)));
      }
    }
    d.out_ready_i = rng.Below(100) >= 20;
    d.eval();
    if (d.out_valid_o && d.out_ready_i) {
      for (int l = 0; l < kLanes; ++l) {
        res[d.out_slot_o][size_t(l)] = uint16_t(harness::PortWord(d.out_fp16_o, l / 2) >> (16 * (l % 2)));
      }
      ++results;
    }
    const bool take = offer && d.in_ready_o;
    pending = offer && !take;
    if (take) ++next;
    sim.Tick();
  }
  return res;
}

struct RunCounts {
  uint64_t ops = 0;       // MAC operations (= shifter vectors)
  uint64_t requests = 0;  // shifter requests, no-data releases included
};

// The whole convolution through extract -> shifter -> array, tile by tile.
void ConvThroughFeeders(const oracle::Tensor3& x, const harness::ShifterLayer& layer, oracle::KernelGroup group,
                        const std::vector<std::vector<uint16_t>>& want, test::Rng& rng, RunCounts* counts,
                        const std::string& what) {
  const oracle::ConvGeometry& g = layer.geom;
  const std::vector<uint32_t> words = oracle::EncodeKernelGroup(&group);
  const oracle::DecodedGroup dec = oracle::DecodeKernelGroup(words.data(), words.size(), g.Steps());
  // Kernel extract (the same group serves every tile).
  harness::Sim<Vane_kernel_extract> ke_sim("ane_kernel_extract", harness::CurrentTestStem() + "_extract");
  harness::KernelExtractDriver<Vane_kernel_extract> ke(ke_sim);
  ke.Reset();
  ke.Configure(g.channels, g.kernel_h, g.kernel_w);
  std::vector<ExtractOp> ops;
  std::vector<harness::ExtractParam> params;
  auto chance = [&rng](int pct) { return [&rng, pct] { return int(rng.Below(100)) < pct; }; };
  ke.Run(words, dec.ops.size(), dec.params.size(), chance(20), chance(20), chance(20), &ops, &params);
  ASSERT_EQ(ops.size(), dec.ops.size()) << what;
  // Shifter: every tile's work units (one channel each) and the requests of the operations.
  harness::Sim<Vane_shifter16> sh_sim("ane_shifter", harness::CurrentTestStem() + "_shifter");
  harness::ShifterDriver<Vane_shifter16> sh(sh_sim, kLanes, 16);
  sh.Reset();
  sh.Configure(layer);
  const std::vector<WorkUnit> all = harness::PlanWorkUnits(layer, x, 16);
  const size_t per_tile = size_t(g.channels);
  for (size_t t = 0; t * per_tile < all.size(); ++t) {
    const std::vector<WorkUnit> wus(all.begin() + long(t * per_tile), all.begin() + long((t + 1) * per_tile));
    const std::vector<ShifterRequest> reqs = RequestsFor(ops, g.channels);
    const std::vector<ShifterOutput> vecs = sh.Run(wus, reqs, chance(15), chance(15), chance(15));
    ASSERT_EQ(vecs.size(), ops.size()) << what;
    counts->ops += ops.size();
    counts->requests += reqs.size();
    const auto res = RunArray(ops, vecs, rng);
    for (int l = 0; l < kLanes; ++l) {
      const oracle::LaneView lv = oracle::LaneAt(g, wus[0].tile, kLanes, l);
      if (!lv.active) continue;
      for (int j = 0; j < int(want.size()); ++j) {
        const uint16_t w = want[size_t(j)][size_t(lv.oy * g.OutWidth() + lv.ox)];
        ASSERT_EQ(res[size_t(j)][size_t(l)], w)
            << what << ": kernel " << j << " output (" << lv.oy << ", " << lv.ox << ")" << std::hex << " rtl 0x"
            << res[size_t(j)][size_t(l)] << " oracle 0x" << w;
      }
    }
  }
}

TEST(RtlFeeders, N6_3_SparseSkipsThroughExtractShifterAndArrayChangeNoResult) {
  const uint64_t seed = test::TestSeed(0xFEED);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  harness::ShifterLayer layer;
  oracle::ConvGeometry& g = layer.geom;
  g.channels = 12;
  g.height = 7;
  g.width = 8;
  g.kernel_h = g.kernel_w = 3;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
  layer.tile_h = 4;
  layer.tile_w = 4;
  layer.channels_per_wu = 1;
  ASSERT_EQ(harness::PlanShifterLayer(&layer, kLanes, 512), "");
  oracle::Tensor3 x{g.channels, g.height, g.width, {}};
  for (int i = 0; i < g.channels * g.height * g.width; ++i) {
    x.codes.push_back(uint16_t((rng.Code() & 0xBFFF) | 0x0400));  // finite, normal
  }
  const int k = g.Steps();
  for (int zero_pct : {0, 50, 90}) {
    // Eight kernels; zeros scattered, or (second pass) in runs of whole quads.
    for (bool quads : {false, true}) {
      oracle::KernelGroup grp;
      grp.steps = k;
      grp.weights.assign(8, std::vector<uint16_t>(size_t(k), 0));
      for (int j = 0; j < 8; ++j) {
        uint32_t roll = 0;
        for (int s = 0; s < k; ++s) {
          if (!quads || s % 4 == 0) roll = rng.Below(100);
          if (int(roll) >= zero_pct) grp.weights[size_t(j)][size_t(s)] = uint16_t((rng.Code() & 0xBFFF) | 0x0400);
        }
      }
      const auto want = DirectConv(x, g, grp.weights);
      const std::string what = std::to_string(zero_pct) + "% zeros" + (quads ? " in quads" : "");
      RunCounts dense, sparse;
      grp.spec.sparse = false;
      ConvThroughFeeders(x, layer, grp, want, rng, &dense, what + ", dense stream");
      grp.spec.sparse = true;
      ConvThroughFeeders(x, layer, grp, want, rng, &sparse, what + ", sparse stream");
      if (HasFailure()) return;
      if (zero_pct == 90 || (zero_pct == 50 && quads)) {
        EXPECT_LT(sparse.ops, dense.ops) << what;
      }
      RecordProperty("ops_" + std::to_string(zero_pct) + (quads ? "q" : "s"),
                     std::to_string(sparse.ops) + "/" + std::to_string(dense.ops));
    }
  }
}

}  // namespace
}  // namespace ane
