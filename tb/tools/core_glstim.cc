// SPDX-License-Identifier: Apache-2.0
// core_glstim: the stimulus of the 8-lane core's gate-level check (docs/flow.md, "Recorded
// stimulus"). Random stimulus on the core's ports never configures a layer that finishes, so
// it leaves the datapath idle (at 20,000 cycles, 92 of the 901 output bits toggled). This runs
// random layers of the core's own tests (tb/tests/core_stimulus.h: fp16 and int8, groups,
// sparse, two-kernel and four-kernel kernels, post-processing) on the 8-lane RTL model under random memory
// latency and back-pressure, checks every output against oracle::Conv2d, and writes the inputs
// the core saw before every rising clock edge.
//
//   core_glstim OUT.stim [--seed S] [--max-cycles N]
//
// Layers are added while the run is shorter than --max-cycles (default 5000). Exit 0 when
// every layer equals the oracle, 1 when one does not (nothing is written then), 2 on bad
// arguments. The file (constraints/glstim/ane_core__NumLanes_8.stim) is replayed by
// scripts/synth/glcheck.sh before its random cycles; its format is in glcheck.py.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Vane_core8_m1.h"
#include "tb/harness/core_driver.h"
#include "tb/harness/core_run.h"
#include "tb/harness/sim.h"
#include "tb/oracle/conv.h"
#include "tb/plan/core_plan.h"
#include "tb/tests/core_stimulus.h"
#include "tb/tests/test_seed.h"

namespace {

using namespace ane;

constexpr harness::CoreParams kCore8{8, 512, 8, 64};

std::string Hex(const uint32_t* w, int width) {
  std::string s;
  char buf[16];
  const int digits = (width + 3) / 4;
  for (int d = digits - 1; d >= 0; --d) {
    const uint32_t nib = (w[d / 8] >> (4 * (d % 8))) & 0xFu;
    std::snprintf(buf, sizeof buf, "%x", nib);
    s += buf;
  }
  return s;
}

struct Recorder {
  explicit Recorder(Vane_core8_m1& d) : d_(d) {}
  // The core's inputs except clk_i, in this order (the file's `ports` line names them).
  std::string Ports() const {
    return "rst_ni:1 cfg_we_i:1 cfg_addr_i:8 cfg_wdata_i:32 xr_ready_i:1 xs_valid_i:1 xs_data_i:512 kr_ready_i:1 "
           "ks_valid_i:1 ks_data_i:64 yw_ready_i:1";
  }
  void Record() {
    uint32_t w[16];
    std::vector<std::string> v;
    auto one = [&](uint64_t x, int width) {
      w[0] = uint32_t(x);
      w[1] = uint32_t(x >> 32);
      v.push_back(Hex(w, width));
    };
    one(d_.rst_ni, 1);
    one(d_.cfg_we_i, 1);
    one(d_.cfg_addr_i, 8);
    one(d_.cfg_wdata_i, 32);
    one(d_.xr_ready_i, 1);
    one(d_.xs_valid_i, 1);
    for (int i = 0; i < 16; ++i) w[i] = d_.xs_data_i[i];
    v.push_back(Hex(w, 512));
    one(d_.kr_ready_i, 1);
    one(d_.ks_valid_i, 1);
    one(d_.ks_data_i, 64);
    one(d_.yw_ready_i, 1);
    // a value equal to the previous cycle's is written as "-"
    std::string line = "c";
    for (size_t i = 0; i < v.size(); ++i) {
      line += ' ';
      line += (i < prev_.size() && prev_[i] == v[i]) ? std::string("-") : v[i];
    }
    lines_ << line << '\n';
    prev_ = std::move(v);
    ++cycles_;
  }
  Vane_core8_m1& d_;
  std::vector<std::string> prev_;
  std::ostringstream lines_;
  long cycles_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: core_glstim OUT.stim [--seed S] [--max-cycles N]\n");
    return 2;
  }
  const std::string out = argv[1];
  uint64_t seed = 15;  // 7 layers in 5,293 cycles: 3 int8, 2 depthwise interleaves of 4, 2 sparse
  long max_cycles = 5000;
  for (int i = 2; i < argc; i += 2) {
    if (i + 1 >= argc) {
      std::fprintf(stderr, "core_glstim: %s needs a value\n", argv[i]);
      return 2;
    }
    char* end = nullptr;
    const unsigned long long v = std::strtoull(argv[i + 1], &end, 0);
    if (!end || *end) {
      std::fprintf(stderr, "core_glstim: %s wants a number, got '%s'\n", argv[i], argv[i + 1]);
      return 2;
    }
    if (!std::strcmp(argv[i], "--seed")) {
      seed = v;
    } else if (!std::strcmp(argv[i], "--max-cycles")) {
      max_cycles = long(v);
    } else {
      std::fprintf(stderr, "core_glstim: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  test::Rng rng(seed);
  harness::Sim<Vane_core8_m1> sim("ane_core", "core_glstim");
  sim.set_timeout(50'000'000);
  Recorder rec(sim.dut());
  sim.set_before_edge([&rec] { rec.Record(); });
  harness::CoreDriver<Vane_core8_m1> drv(sim, kCore8);
  drv.Reset();
  int layers = 0;
  std::string described;
  while (rec.cycles_ < max_cycles) {
    // every third layer a depthwise one through the interleave (a work unit over several banks)
    test::LayerCase lc = test::RandomLayer(rng, true, layers % 3 == 2);
    harness::CoreLayerPlan p = lc.plan;
    if (!harness::PlanCoreLayer(&p, kCore8).empty()) continue;  // a window wider than the bank
    const harness::CoreImage im = harness::BuildCoreImage(p, kCore8, lc.x, lc.w, 7);
    const oracle::Tensor3 want = oracle::Conv2d(p.layer, lc.x, harness::CoreCoefficients(p, lc.w));
    harness::CoreRunOptions opt;
    opt.max_latency = 1 + int(rng.Below(6));
    opt.stall_pct = int(rng.Below(25));
    opt.below = [&rng](uint32_t m) { return rng.Below(m); };
    const harness::CoreResult r = drv.Run(p, im, opt);
    if (r.y.codes != want.codes) {
      std::fprintf(stderr, "core_glstim: layer %d differs from oracle::Conv2d (seed %" PRIu64 "): no file written\n",
                   layers, seed);
      return 1;
    }
    ++layers;
    described += "#   layer " + std::to_string(layers) + ": " + oracle::MacModeName(p.layer.mode) + ", cin " +
                 std::to_string(p.layer.Cin()) + " " + std::to_string(p.layer.geom.height) + "x" +
                 std::to_string(p.layer.geom.width) + ", kernel " + std::to_string(p.layer.geom.kernel_h) + "x" +
                 std::to_string(p.layer.geom.kernel_w) + ", cout " + std::to_string(p.layer.cout) + ", groups " +
                 std::to_string(p.layer.groups) + (p.kspec.two_kernel ? ", two-kernel" : "") +
                 (p.kspec.four_kernel ? ", four-kernel" : "") +
                 (p.diag ? ", depthwise interleave of " + std::to_string(p.diag_g) : "") +
                 (p.kspec.sparse ? ", sparse" : "") + ", " + std::to_string(r.cycles) + " cycles\n";
  }
  std::ofstream f(out);
  f << "# ane_core NumLanes=8: its inputs before every rising clk_i edge, one line per cycle (\"-\": as the\n"
    << "# cycle before). Written by core_glstim (tb/tools/core_glstim.cc) with --seed " << seed << " --max-cycles "
    << max_cycles << ": " << layers << " random layers, each equal to oracle::Conv2d:\n"
    << described << "ports " << rec.Ports() << "\n"
    << rec.lines_.str();
  if (!f) {
    std::fprintf(stderr, "core_glstim: cannot write %s\n", out.c_str());
    return 2;
  }
  std::printf("core_glstim: %d layers, %ld cycles -> %s\n", layers, rec.cycles_, out.c_str());
  return 0;
}
