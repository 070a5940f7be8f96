// Programs from their TD bytes through the RTL (rtl/ane_td_ctrl.sv + rtl/ane_core.sv at 8
// lanes, docs/td_fetch.md "Layer set-up"): the encoder's programs (tb/td/encode.h) are placed
// in a memory model with their weights and buffers, the front end walks the chain, plans each
// layer, converts its kernels and table and runs the core; every output tensor is compared
// bit for bit with oracle::Conv2d of the layer the C++ interpretation (tb/td/program.cc
// Interpret) reads from the same TD, run TD after TD on a copy of memory. The configuration
// writes the set-up block makes are compared with the C++ driver's planner (core_plan.cc
// PlanCoreLayer, the same registers BuildCoreImage writes, with the TD's own addresses and
// strides): the RTL planner is an independent implementation of the same plan.
//
// Random tests print their seed on failure; rerun one with ANE_TEST_SEED=<seed>
// build/rtl_td_system_test --gtest_filter=...
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "Vane_core8_m1.h"
#include "Vane_td_ctrl8.h"
#include "tb/harness/core_plan.h"
#include "tb/harness/postproc_driver.h"
#include "tb/harness/sim.h"
#include "tb/harness/td_system.h"
#include "tb/oracle/conv.h"
#include "tb/oracle/formats.h"
#include "tb/regs/ane_regs.h"
#include "tb/td/encode.h"
#include "tb/td/program.h"
#include "tb/td/td.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::CoreParams;
using harness::Sim;
using harness::TdSystem;
using harness::TdSystemJob;
using harness::TdSystemResult;
using test::Rng;
using Ctrl = Vane_td_ctrl8;
using Core = Vane_core8_m1;

constexpr CoreParams kCp{8, 512, 8, 64};  // Vane_core8_m1 and Vane_td_ctrl8 (rtl/CMakeLists.txt)
constexpr int kWeightsBar = 1;
constexpr uint64_t kStageBytes = 1 << 18;

// ane_td_setup's error codes
enum SetupErr : int { kErrField = 1, kErrShape = 2, kErrCore = 3, kErrTable = 4 };

// ---------------------------------------------------------------- programs

uint16_t SmallFp16(Rng& rng) {
  // about [-2, 2] with 4 fraction bits: short sums stay exact enough to keep values finite
  return oracle::DoubleToFp16((int(rng.Below(64)) - 32) / 16.0);
}

std::vector<td::LayerSpec> RandomProgram(Rng& rng, int max_len) {
  std::vector<td::LayerSpec> layers;
  const int n = 1 + int(rng.Below(uint32_t(max_len)));
  bool int8 = rng.Below(4) == 0;
  int c = 1 + int(rng.Below(5)), h = 1 + int(rng.Below(12)), w = 1 + int(rng.Below(20));
  for (int i = 0; i < n; ++i) {
    td::LayerSpec s;
    s.in = int8 ? td::ElemFormat::kInt8 : td::ElemFormat::kFp16;
    s.cin = c;
    s.h = h;
    s.w = w;
    s.pass = rng.Below(5) == 0;
    if (s.pass) {
      s.cout = c;
      s.oh = h;
      s.ow = w;
    } else {
      s.groups = (c % 2 == 0 && rng.Below(3) == 0) ? 2 : (rng.Below(5) == 0 ? c : 1);
      s.cout = s.groups * (1 + int(rng.Below(s.groups == c ? 3 : 12)));
      s.kh = 1 + int(rng.Below(uint32_t(std::min(h + 1, 7))));
      s.kw = 1 + int(rng.Below(uint32_t(std::min(w + 1, 7))));
      s.sy = 1 + int(rng.Below(3));
      s.sx = 1 + int(rng.Below(3));
      s.py = int(rng.Below(uint32_t(s.kh)));
      s.px = int(rng.Below(uint32_t(s.kw)));
      int pb = int(rng.Below(uint32_t(s.kh))), pr = int(rng.Below(uint32_t(s.kw)));
      if (h + s.py + pb < s.kh) pb = s.kh - h - s.py;
      if (w + s.px + pr < s.kw) pr = s.kw - w - s.px;
      if (pb >= s.kh || pr >= s.kw || pb < 0 || pr < 0) {
        s.kh = s.kw = 1;
        s.py = s.px = pb = pr = 0;
      }
      s.oh = (h + s.py + pb - s.kh) / s.sy + 1;
      s.ow = (w + s.px + pr - s.kw) / s.sx + 1;
      s.kernel_channels = 1 + int(rng.Below(uint32_t(std::min(s.cout, 15))));  // and a table channel
      const int steps = c / s.groups * s.kh * s.kw;
      for (int co = 0; co < s.cout; ++co) {
        std::vector<uint16_t> k;
        for (int j = 0; j < steps; ++j) k.push_back(int8 ? uint16_t((int(rng.Below(9)) - 4) & 0xFF) : SmallFp16(rng));
        s.weights.push_back(k);
      }
    }
    if (int8) {
      s.shift = int(rng.Below(4));
      s.out = rng.Below(3) == 0 ? td::ElemFormat::kFp16 : td::ElemFormat::kInt8;
      if (s.pass) s.out = td::ElemFormat::kInt8;
      s.nonlinear = int(rng.Below(2));
    } else {
      s.out = td::ElemFormat::kFp16;
      s.nonlinear = int(rng.Below(3));
      if (rng.Below(2)) s.scale = SmallFp16(rng) | 0x0400;
      s.bias = rng.Below(2);
      s.bias_value = rng.Below(4) == 0 ? uint16_t(rng.Below(0x400)) : SmallFp16(rng);  // subnormals too
      if (s.nonlinear == 2) {
        for (int k = 0; k <= 32; ++k) s.knots.push_back(SmallFp16(rng));
        s.below = SmallFp16(rng);
        s.above = SmallFp16(rng);
      }
    }
    c = s.cout;
    h = s.oh;
    w = s.ow;
    int8 = s.out == td::ElemFormat::kInt8;
    layers.push_back(s);
  }
  // Buffers: 5 the input, 4 the output, 6.. the intermediates, with random row and plane
  // padding (a layer reads its input as the layer before wrote it).
  for (size_t i = 0; i < layers.size(); ++i) {
    td::LayerSpec& s = layers[i];
    s.src_bar = i == 0 ? 5 : int(5 + i);
    s.dst_bar = i + 1 == layers.size() ? 4 : int(6 + i);
    s.dst_base = 64 * rng.Below(3);
    s.dst_row = td::PackedRow(s.ow, s.out) + 64 * rng.Below(2);
    s.dst_plane = s.dst_row * uint64_t(s.oh) + 64 * rng.Below(2);
    if (i == 0) {
      s.src_base = 64 * rng.Below(3);
      s.src_row = td::PackedRow(s.w, s.in) + 64 * rng.Below(2);
      s.src_plane = s.src_row * uint64_t(s.h) + 64 * rng.Below(2);
    } else {
      s.src_base = layers[i - 1].dst_base;
      s.src_row = layers[i - 1].dst_row;
      s.src_plane = layers[i - 1].dst_plane;
    }
  }
  return layers;
}

// A program placed in memory: chain, weights, buffers, staging region, junk around them.
struct Placed {
  std::vector<uint8_t> mem;
  TdSystemJob job;
  std::vector<td::TdLayer> layers;
  std::vector<std::pair<uint64_t, uint64_t>> writable;  // [begin, end)
  bool Writable(uint64_t a) const {
    for (const auto& [b, e] : writable) {
      if (a >= b && a < e) return true;
    }
    return false;
  }
};

uint64_t Align64(uint64_t a) { return (a + 63) / 64 * 64; }

Placed Place(const td::Encoded& e, Rng& rng, bool interpret = true) {
  Placed p;
  if (interpret) p.layers = td::Interpret(e.tds, e.weights, kWeightsBar);
  uint64_t next = 0x400 + 4 * rng.Below(16);
  p.job.base = uint32_t(next);
  p.job.limit = uint32_t(e.chain.size());
  next = Align64(next + e.chain.size()) + 64 * rng.Below(4);
  p.job.bars.assign(harness::kTdBars, 0);
  p.job.bars[kWeightsBar] = uint32_t(next);
  const uint64_t weights_at = next;
  next = Align64(next + e.weights.size()) + 64 * rng.Below(4);
  std::map<int, uint64_t> size;
  // the buffers the TDs name, as large as their accesses (not interpreted: 4 KiB each)
  for (const td::TdLayer& l : p.layers) {
    size[l.src.bar] = std::max(size[l.src.bar], l.src.End());
    size[l.dst.bar] = std::max(size[l.dst.bar], l.dst.End());
  }
  for (int b : {4, 5, 6, 7, 8}) size.emplace(b, 4096);
  for (const auto& [bar, bytes] : size) {
    p.job.bars[size_t(bar)] = uint32_t(next);
    bool dst = !interpret;
    for (const td::TdLayer& l : p.layers) dst = dst || l.dst.bar == bar;
    if (dst) p.writable.push_back({next, next + bytes});
    next = Align64(next + bytes) + 64 * rng.Below(4);
  }
  p.job.kstage = uint32_t(next);
  p.job.kstage_bytes = kStageBytes;
  p.writable.push_back({next, next + kStageBytes});
  next += kStageBytes + 256;
  p.mem.resize(size_t(next));
  for (auto& b : p.mem) b = uint8_t(rng.Next());
  std::copy(e.chain.begin(), e.chain.end(), p.mem.begin() + p.job.base);
  std::copy(e.weights.begin(), e.weights.end(), p.mem.begin() + long(weights_at));
  return p;
}

uint16_t Load(const std::vector<uint8_t>& m, uint64_t a, int bytes) {
  return bytes == 2 ? uint16_t(m[size_t(a)] | m[size_t(a) + 1] << 8) : uint16_t(int16_t(int8_t(m[size_t(a)])));
}
void Store(std::vector<uint8_t>* m, uint64_t a, int bytes, uint16_t v) {
  (*m)[size_t(a)] = uint8_t(v);
  if (bytes == 2) (*m)[size_t(a) + 1] = uint8_t(v >> 8);
}

// x into the first layer's source, in its layout.
void PutInput(Placed* p, Rng& rng) {
  const td::TdLayer& l = p->layers.front();
  const int eb = td::ElemBytes(l.src.format);
  for (int c = 0; c < l.src.c; ++c) {
    for (int y = 0; y < l.src.h; ++y) {
      for (int x = 0; x < l.src.w; ++x) {
        const uint16_t v = eb == 2 ? SmallFp16(rng) : uint16_t(rng.Below(256));
        Store(&p->mem, p->job.bars[size_t(l.src.bar)] + l.src.Offset(c, y, x), eb, v);
      }
    }
  }
}

// The reference: every TD on a copy of memory, oracle::Conv2d of its interpreted layer.
std::vector<uint8_t> Reference(const Placed& p) {
  std::vector<uint8_t> m = p.mem;
  for (const td::TdLayer& l : p.layers) {
    const int ib = td::ElemBytes(l.src.format), ob = td::ElemBytes(l.dst.format);
    oracle::Tensor3 x{l.src.c, l.src.h, l.src.w, {}};
    const uint64_t sb = p.job.bars[size_t(l.src.bar)], db = p.job.bars[size_t(l.dst.bar)];
    for (int c = 0; c < l.src.c; ++c) {
      for (int y = 0; y < l.src.h; ++y) {
        for (int xx = 0; xx < l.src.w; ++xx) x.codes.push_back(Load(m, sb + l.src.Offset(c, y, xx), ib));
      }
    }
    const oracle::Tensor3 y = oracle::Conv2d(l.layer, x, l.w);
    for (int c = 0; c < l.dst.c; ++c) {
      for (int yy = 0; yy < l.dst.h; ++yy) {
        for (int xx = 0; xx < l.dst.w; ++xx) Store(&m, db + l.dst.Offset(c, yy, xx), ob, y.at(c, yy, xx));
      }
    }
  }
  return m;
}

// The configuration writes the C++ driver makes for TD layer `l` (core_plan.cc, core_driver.h),
// with the TD's own addresses and strides.
std::vector<std::pair<uint32_t, uint32_t>> ExpectedWrites(const td::TdLayer& l, const TdSystemJob& job) {
  namespace rc = regs::core;
  harness::CoreLayerPlan p;
  p.layer = l.layer;
  p.kspec.format = l.layer.mode == oracle::MacMode::kInt8 ? oracle::KernelFormat::kRaw8 : oracle::KernelFormat::kFp16;
  const std::string bad = harness::PlanCoreLayer(&p, kCp);
  if (!bad.empty()) throw std::runtime_error("PlanCoreLayer: " + bad);
  std::vector<std::pair<uint32_t, uint32_t>> w = harness::CoreShifterWrites(p, kCp);
  for (const auto& [a, v] : harness::PostConfigWrites(l.layer.post)) w.push_back({rc::WindowAddr(rc::kPostproc, a), v});
  const harness::CoreAddresses ad{uint32_t(job.bars[size_t(l.src.bar)] + l.src.base), uint32_t(l.src.plane),
                                  uint32_t(l.src.row), job.kstage, uint32_t(job.bars[size_t(l.dst.bar)] + l.dst.base),
                                  uint32_t(l.dst.plane), uint32_t(l.dst.row)};
  for (const auto& cw : harness::CoreLayerWrites(p, ad)) w.push_back(cw);
  w.push_back({rc::kStartAddr, 1});
  return w;
}

std::string Hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

struct System {
  explicit System(uint32_t x_seed = 1)
      : ctrl("ane_td_ctrl", harness::CurrentTestStem() + ".ctrl", x_seed),
        core("ane_core", harness::CurrentTestStem() + ".core", x_seed + 1),
        sys(ctrl, core, kCp) {
    sys.Reset();
  }
  Sim<Ctrl> ctrl;
  Sim<Core> core;
  TdSystem<Ctrl, Core> sys;
};

harness::CoreRunOptions RandomTraffic(Rng& rng) {
  harness::CoreRunOptions o;
  if (rng.Below(3) != 0) {
    o.max_latency = 1 + int(rng.Below(8));
    o.stall_pct = int(rng.Below(30));
    o.below = [&rng](uint32_t n) { return rng.Below(n); };
  }
  return o;
}

// Runs a placed program; checks the outputs, the writes and the configuration. Returns the result.
TdSystemResult RunAndCheck(System& s, Placed& p, const harness::CoreRunOptions& opt, const std::string& what) {
  const std::vector<uint8_t> want = Reference(p);
  s.sys.mem() = p.mem;
  const TdSystemResult r = s.sys.Run(p.job, [&p](uint64_t a) { return p.Writable(a); }, opt);
  EXPECT_FALSE(r.error) << what << ": error code " << r.err_code << " at TD " << r.err_td
                        << (r.setup_error ? " (set-up)" : " (fetch)");
  EXPECT_EQ(r.layers, int(p.layers.size())) << what;
  // configuration: TD after TD, the driver's writes
  std::vector<std::pair<uint32_t, uint32_t>> cfg;
  for (const td::TdLayer& l : p.layers) {
    const auto w = ExpectedWrites(l, p.job);
    cfg.insert(cfg.end(), w.begin(), w.end());
  }
  EXPECT_EQ(r.cfg_writes.size(), cfg.size()) << what;
  for (size_t i = 0; i < std::min(cfg.size(), r.cfg_writes.size()); ++i) {
    if (r.cfg_writes[i] != cfg[i]) {
      ADD_FAILURE() << what << ": configuration write " << i << ": rtl " << Hex(r.cfg_writes[i].first) << " = "
                    << Hex(r.cfg_writes[i].second) << ", driver " << Hex(cfg[i].first) << " = " << Hex(cfg[i].second);
      break;
    }
  }
  // outputs: every element of every TD's destination
  const std::vector<uint8_t>& got = s.sys.mem();
  for (size_t i = 0; i < p.layers.size(); ++i) {
    const td::TdLayer& l = p.layers[i];
    const int ob = td::ElemBytes(l.dst.format);
    const uint64_t db = p.job.bars[size_t(l.dst.bar)];
    int bad = 0;
    for (int c = 0; c < l.dst.c; ++c) {
      for (int y = 0; y < l.dst.h; ++y) {
        for (int x = 0; x < l.dst.w; ++x) {
          const uint64_t a = db + l.dst.Offset(c, y, x);
          if (Load(got, a, ob) != Load(want, a, ob) && bad++ == 0) {
            ADD_FAILURE() << what << ": TD " << i << " (" << l.Describe() << ") y[" << c << "][" << y << "][" << x
                          << "]: rtl " << Hex(Load(got, a, ob)) << ", oracle " << Hex(Load(want, a, ob));
          }
        }
      }
    }
  }
  return r;
}

std::string Describe(const std::vector<td::TdLayer>& layers) {
  std::string s;
  for (const td::TdLayer& l : layers) s += (s.empty() ? "" : " | ") + l.Describe();
  return s;
}

// ---------------------------------------------------------------- tests

// N-2, N-3, N-5 through the TD path: random chains of 1-4 TDs (convolutions up to 7x7, strides
// 1-3, padding, groups, depthwise, 1-16 kernel DMA channels, per-element passes, fp16 and int8,
// scale, bias, ReLU, lookup tables from the weights, padded rows and planes) under random memory
// latency and back-pressure on every port, one model pair for all programs.
TEST(RtlTdSystem, N2_N3_N5_RandomProgramsFromTheirTdBytesBitExact) {
  const uint64_t seed = test::TestSeed(0x7D5E1);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  const int n = 300 * int(test::SoakFactor());
  int tds = 0, tables = 0, passes = 0;
  uint64_t setup = 0, core = 0, mac = 0;
  for (int it = 0; it < n && !testing::Test::HasFailure(); ++it) {
    const std::vector<td::LayerSpec> specs = RandomProgram(rng, 4);
    const td::Encoded e = td::EncodeLayers(specs, kWeightsBar);
    Placed p = Place(e, rng);
    PutInput(&p, rng);
    const harness::CoreRunOptions opt = RandomTraffic(rng);
    const TdSystemResult r = RunAndCheck(s, p, opt, "program " + std::to_string(it) + ": " + Describe(p.layers));
    tds += int(p.layers.size());
    for (const td::TdLayer& l : p.layers) {
      tables += l.table.has_value();
      passes += l.pass;
    }
    setup += r.setup_cycles;
    core += r.core_busy_cycles;
    mac += r.mac_cycles;
  }
  std::printf("seed %llu: %d programs, %d TDs (%d lookup tables, %d per-element passes); set-up %llu cycles, "
              "core busy %llu cycles\n",
              (unsigned long long)seed, n, tds, tables, passes, (unsigned long long)setup, (unsigned long long)core);
  EXPECT_GT(tables, 0);
  EXPECT_GT(passes, 0);
}

// The set-up's cost: per TD, the cycles from its last register write to START, on layers of
// the sizes the figures in docs/td_fetch.md name. The plan is sequential (one bit a cycle):
// at most 16 operations of <= 21 cycles, plus 24 cycles per tile row or column the bank
// forces off, plus the configuration writes (4 + 2 + 17, and 37 for a table).
TEST(RtlTdSystem, TD_SetupCyclesPerTd) {
  Rng rng(7);
  System s;
  struct Case {
    const char* name;
    int c, h, w, cout, k, stride;
  };
  for (const Case& k : {Case{"1x1 8->8 8x8", 8, 8, 8, 8, 1, 1}, Case{"3x3 4->16 12x12", 4, 12, 12, 16, 3, 1},
                        Case{"7x7 s2 3->8 20x20", 3, 20, 20, 8, 7, 2}}) {
    td::LayerSpec l;
    l.cin = k.c;
    l.h = k.h;
    l.w = k.w;
    l.cout = k.cout;
    l.kh = l.kw = k.k;
    l.sy = l.sx = k.stride;
    l.py = l.px = k.k / 2;
    l.oh = (k.h + 2 * (k.k / 2) - k.k) / k.stride + 1;
    l.ow = (k.w + 2 * (k.k / 2) - k.k) / k.stride + 1;
    l.weights.assign(size_t(k.cout), std::vector<uint16_t>(size_t(k.c * k.k * k.k), 0x3C00));
    l.src_bar = 5;
    l.dst_bar = 4;
    Placed p = Place(td::EncodeLayers({l}, kWeightsBar), rng);
    PutInput(&p, rng);
    const TdSystemResult r = RunAndCheck(s, p, {}, k.name);
    std::printf("%-20s set-up %llu cycles, core %llu cycles\n", k.name, (unsigned long long)r.setup_cycles,
                (unsigned long long)r.core_busy_cycles);
    EXPECT_LE(r.setup_cycles, 16u * 21u + 24u * 8u + 23u + 64u) << k.name;
    EXPECT_GE(r.setup_cycles, 23u) << k.name;
  }
}

// Every refusal stops the layer before the core is configured: error_o with the set-up's code
// and the TD, no configuration write of that TD, the TDs before it run and the ones after it
// dropped (the walk still ends).
TEST(RtlTdSystem, TD_RefusedTdsStopBeforeTheCoreIsConfigured) {
  const uint64_t seed = test::TestSeed(0x7D5E2);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  namespace r = regs::td;
  struct Case {
    const char* name;
    int code;
  };
  const Case cases[] = {{"a 9x9 kernel", kErrCore},     {"a planar register", kErrField}, {"an output size", kErrShape},
                        {"an infinite knot", kErrTable}, {"int8 kernels for fp16 data", kErrField},
                        {"Cin not a multiple of the groups", kErrShape},
                        {"fp16 kernels past a directory entry's count", kErrCore}};
  for (const Case& c : cases) {
    for (int at = 0; at < 3 && !testing::Test::HasFailure(); ++at) {
      // three layers 2 -> 2, 6x6; the refused one at `at`
      std::vector<td::LayerSpec> specs;
      for (int i = 0; i < 3; ++i) {
        td::LayerSpec l;
        l.cin = l.cout = 2;
        l.h = l.w = l.oh = l.ow = 6;
        l.weights.assign(2, std::vector<uint16_t>(2, 0x3C00));
        l.src_bar = i == 0 ? 5 : 5 + i;
        l.dst_bar = i == 2 ? 4 : 6 + i;
        specs.push_back(l);
      }
      td::LayerSpec& bad = specs[size_t(at)];
      const std::string name = c.name;
      if (name == "a 9x9 kernel") {
        bad.kh = bad.kw = 9;
        bad.py = bad.px = 4;
        bad.weights.assign(2, std::vector<uint16_t>(2 * 81, 0x3C00));
      } else if (name == "fp16 kernels past a directory entry's count") {
        bad.cin = 700;  // 700 x 7 x 7 = 34 300 steps (core_plan.cc refuses the same)
        bad.kh = bad.kw = 7;
        bad.py = bad.px = 3;
        bad.weights.assign(2, std::vector<uint16_t>(700 * 49, 0x3C00));
      } else if (name == "an infinite knot") {
        bad.nonlinear = 2;
        bad.knots.assign(33, 0x3800);
        bad.knots[rng.Below(33)] = rng.Below(2) ? 0x7C00 : 0xFE00;
      }
      td::Encoded e = td::EncodeLayers(specs, kWeightsBar);
      td::Td& t = e.tds[size_t(at)];
      if (name == "a planar register") {
        t.words[r::kStreams[4].td_offset / 4 + 1 + rng.Below(r::kStreams[4].words)] = 1u << rng.Below(32);
      } else if (name == "an output size") {
        t.Set(r::kCommon_OutDim_Hout, 7);
      } else if (name == "int8 kernels for fp16 data") {
        t.Set(td::FieldByName("NE.KernelCfg.KernelFmt"), 1);
      } else if (name == "Cin not a multiple of the groups") {
        t.Set(td::FieldByName("Common.GroupConvCfg.NumGroups"), 3);
        t.Set(td::FieldByName("Common.Cin.Cin"), 2);
      }
      e.chain = td::EncodeChain(e.tds, uint32_t(e.chain.size()));
      if (name == "fp16 kernels past a directory entry's count") {  // the C++ planner agrees
        harness::CoreLayerPlan plan;
        plan.layer = td::Interpret({e.tds[size_t(at)]}, e.weights, kWeightsBar).front().layer;
        EXPECT_NE(harness::PlanCoreLayer(&plan, kCp).find("32 760"), std::string::npos);
      }
      Placed p = Place(e, rng, false);
      // the TDs before the refused one, as the C++ interpretation reads them
      p.layers = td::Interpret(std::vector<td::Td>(e.tds.begin(), e.tds.begin() + at), e.weights, kWeightsBar);
      if (at == 0) p.layers.clear();
      std::vector<uint8_t> want;
      if (!p.layers.empty()) {
        PutInput(&p, rng);
        want = Reference(p);
      }
      s.sys.mem() = p.mem;
      const TdSystemResult res = s.sys.Run(p.job, [&p](uint64_t a) { return p.Writable(a); }, RandomTraffic(rng));
      const std::string what = name + " in TD " + std::to_string(at);
      EXPECT_TRUE(res.error) << what;
      EXPECT_TRUE(res.setup_error) << what;
      EXPECT_EQ(res.err_code, c.code) << what;
      EXPECT_EQ(res.err_td, at) << what;
      EXPECT_EQ(res.layers, at) << what;
      size_t expected_cfg = 0;
      for (const td::TdLayer& l : p.layers) expected_cfg += ExpectedWrites(l, p.job).size();
      if (c.code == kErrTable) {
        // the shifter and CTRL/SEED writes go out before the conversion fails; no core write
        expected_cfg += 6;
      }
      EXPECT_EQ(res.cfg_writes.size(), expected_cfg) << what;
      for (size_t i = 0; i < p.layers.size(); ++i) {
        const td::TdLayer& l = p.layers[i];
        const int ob = td::ElemBytes(l.dst.format);
        const uint64_t db = p.job.bars[size_t(l.dst.bar)];
        for (int ch = 0; ch < l.dst.c; ++ch) {
          for (int y = 0; y < l.dst.h; ++y) {
            for (int x = 0; x < l.dst.w; ++x) {
              const uint64_t a = db + l.dst.Offset(ch, y, x);
              ASSERT_EQ(Load(s.sys.mem(), a, ob), Load(want, a, ob)) << what << ": TD " << i;
            }
          }
        }
      }
      // the next walk starts clean
      td::LayerSpec ok = specs[at == 0 ? 1 : 0];
      ok.src_bar = 5;
      ok.dst_bar = 4;
      Placed q = Place(td::EncodeLayers({ok}, kWeightsBar), rng);
      PutInput(&q, rng);
      RunAndCheck(s, q, {}, what + ", then a good program");
    }
  }
}

// N-7.1: a reset of both models in the middle of a program (walk, set-up, kernel DMA or layer,
// at a random cycle, with the memory's answers in flight dropped), then a fresh program: exact.
TEST(RtlTdSystem, N7_1_ResetMidProgramThenAFreshProgramIsExact) {
  const uint64_t seed = test::TestSeed(0x7D5E4);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  int interrupted = 0;
  for (int it = 0; it < 12 && !testing::Test::HasFailure(); ++it) {
    Placed p = Place(td::EncodeLayers(RandomProgram(rng, 3), kWeightsBar), rng);
    PutInput(&p, rng);
    // its length uninterrupted, then a reset at a random cycle of it
    const uint64_t length = RunAndCheck(s, p, {}, "program " + std::to_string(it)).cycles;
    s.sys.mem() = p.mem;
    const uint64_t stop = 1 + rng.Below(uint32_t(length - 1));
    try {
      s.sys.Run(p.job, [](uint64_t) { return true; }, {}, stop);
    } catch (const std::runtime_error&) {
      ++interrupted;
    }
    s.sys.Reset();
    Placed q = Place(td::EncodeLayers(RandomProgram(rng, 2), kWeightsBar), rng);
    PutInput(&q, rng);
    RunAndCheck(s, q, RandomTraffic(rng), "after a reset at cycle " + std::to_string(stop) + " of program " +
                                              std::to_string(it));
  }
  EXPECT_EQ(interrupted, 12) << "every program is cut short";
}

// N-7.1: the X seeds of both models (--x-initial unique) change no output.
TEST(RtlTdSystem, N7_1_XSeedsDoNotChangeAnyOutput) {
  const uint64_t seed = test::TestSeed(0x7D5E3);
  SCOPED_TRACE(test::SeedNote(seed));
  for (uint32_t xs : {1u, 77u, 4242u}) {
    Rng rng(seed);
    System s(xs);
    for (int it = 0; it < 4; ++it) {
      const td::Encoded e = td::EncodeLayers(RandomProgram(rng, 3), kWeightsBar);
      Placed p = Place(e, rng);
      PutInput(&p, rng);
      RunAndCheck(s, p, {}, "x seed " + std::to_string(xs) + ", program " + std::to_string(it));
    }
  }
}

}  // namespace
}  // namespace ane
