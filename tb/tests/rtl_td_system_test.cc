// SPDX-License-Identifier: Apache-2.0
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
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "Vane_core8_m1.h"
#ifdef ANE_COVERAGE
#include "Vane_planar8_td.h"  // Vane_planar8 without toggle counters (rtl/CMakeLists.txt)
#include "Vane_planar8_td___024root.h"
#else
#include "Vane_planar8.h"
#include "Vane_planar8___024root.h"
#endif
#include "Vane_td_ctrl8.h"
#include "tb/harness/postproc_driver.h"
#include "tb/harness/sim.h"
#include "tb/harness/td_run.h"
#include "tb/harness/td_system.h"
#include "tb/oracle/conv.h"
#include "tb/oracle/formats.h"
#include "tb/plan/core_plan.h"
#include "tb/regs/ane_regs.h"
#include "tb/td/chain.h"
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
#ifdef ANE_COVERAGE
using Planar = Vane_planar8_td;
#else
using Planar = Vane_planar8;
#endif

constexpr CoreParams kCp{8, 512, 8, 64};  // Vane_core8_m1 and Vane_td_ctrl8 (rtl/CMakeLists.txt)
constexpr int kWeightsBar = 1;
constexpr uint64_t kStageBytes = 1 << 18;

// ane_td_setup's error codes
enum SetupErr : int { kErrField = 1, kErrShape = 2, kErrCore = 3, kErrTable = 4, kErrFixed = 5 };

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
    if (!int8 && rng.Below(4) == 0) {  // a planar task (A18): the chain's tensor and another input
      s.planar = true;
      s.out = td::ElemFormat::kFp16;
      s.pe.op = td::PlanarOp(rng.Below(4));
      s.pe.src0_scale = rng.Below(3) == 0 ? 0x3C00 : SmallFp16(rng);
      s.pe.scale = rng.Below(3) == 0 ? 0x3C00 : SmallFp16(rng);
      s.pe.bias = rng.Below(3) == 0 ? 0 : SmallFp16(rng);
      s.cout = c;
      s.oh = h;
      s.ow = w;
      layers.push_back(s);
      continue;
    }
    s.pass = rng.Below(5) == 0;
    if (s.pass) {
      s.cout = c;
      s.oh = h;
      s.ow = w;
    } else {
      s.groups = (c % 2 == 0 && rng.Below(3) == 0) ? 2 : (rng.Below(5) == 0 ? c : 1);
      s.cout = s.groups * (1 + int(rng.Below(s.groups == c ? 3 : 16)));
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
      // 1-16 kernel DMA channels (15 with a table: its channel is the 16th), one in four as many
      // as there are output channels
      s.kernel_channels = rng.Below(4) == 0 ? std::min(s.cout, 16) : 1 + int(rng.Below(uint32_t(std::min(s.cout, 16))));
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
      s.nonlinear = regs::td::Nonlinear(rng.Below(2));
    } else {
      s.out = td::ElemFormat::kFp16;
      s.nonlinear = regs::td::Nonlinear(rng.Below(3));
      if (rng.Below(2)) s.scale = SmallFp16(rng) | 0x0400;
      s.bias = !s.pass && rng.Below(2);  // each channel's, in its kernel block (A19)
      for (int co = 0; co < s.cout && s.bias; ++co) {
        s.biases.push_back(rng.Below(4) == 0 ? uint16_t(rng.Below(0x400)) : SmallFp16(rng));  // subnormals too
      }
      if (s.nonlinear == regs::td::Nonlinear::kTable) {
        for (int k = 0; k <= 32; ++k) s.knots.push_back(SmallFp16(rng));
        s.below = SmallFp16(rng);
        s.above = SmallFp16(rng);
      }
    }
    if (s.nonlinear == regs::td::Nonlinear::kTable) s.kernel_channels = std::min(s.kernel_channels, 15);
    c = s.cout;
    h = s.oh;
    w = s.ow;
    int8 = s.out == td::ElemFormat::kInt8;
    layers.push_back(s);
  }
  // Buffers: 5 the input, 4 the output, 6.. the intermediates, 16.. a planar task's second
  // input, with random row and plane padding (a layer reads its input as the layer before
  // wrote it).
  for (size_t i = 0; i < layers.size(); ++i) {
    td::LayerSpec& s = layers[i];
    if (s.planar) {
      s.src1_bar = int(16 + i);
      s.src1_base = 64 * rng.Below(3);
      s.src1_row = td::PackedRow(s.w, s.in) + 64 * rng.Below(2);
      s.src1_plane = s.src1_row * uint64_t(s.h) + 64 * rng.Below(2);
    }
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

// The chain at a random base, the buffers of `size` (by table entry) at random 64-aligned places
// after it, the staging region, junk everywhere else. A buffer some layer writes (every buffer
// but `readonly` when `layers` is empty) and the staging region are writable.
Placed Lay(const std::vector<uint8_t>& chain, const std::map<int, uint64_t>& size,
           const std::vector<td::TdLayer>& layers, Rng& rng, int readonly = -1) {
  Placed p;
  p.layers = layers;
  uint64_t next = 0x400 + 4 * rng.Below(16);
  p.job.base = uint32_t(next);
  p.job.limit = uint32_t(chain.size());
  next = Align64(next + chain.size()) + 64 * rng.Below(4);
  p.job.bars.assign(harness::kTdBars, 0);
  for (const auto& [bar, bytes] : size) {
    p.job.bars[size_t(bar)] = uint32_t(next);
    bool dst = layers.empty() && bar != readonly;
    for (const td::TdLayer& l : layers) dst = dst || l.dst.bar == bar;
    if (dst) p.writable.push_back({next, next + bytes});
    next = Align64(next + bytes) + 64 * rng.Below(4);
  }
  p.job.kstage = uint32_t(next);
  p.job.kstage_bytes = kStageBytes;
  p.writable.push_back({next, next + kStageBytes});
  next += kStageBytes + 256;
  p.mem.resize(size_t(next));
  for (auto& b : p.mem) b = uint8_t(rng.Next());
  std::copy(chain.begin(), chain.end(), p.mem.begin() + p.job.base);
  return p;
}

Placed Place(const td::Encoded& e, Rng& rng, bool interpret = true) {
  const std::vector<td::TdLayer> layers =
      interpret ? td::Interpret(e.tds, e.weights, kWeightsBar) : std::vector<td::TdLayer>{};
  std::map<int, uint64_t> size{{kWeightsBar, e.weights.size()}};
  // the buffers the TDs name, as large as their accesses (not interpreted: 4 KiB each)
  for (const td::TdLayer& l : layers) {
    size[l.src.bar] = std::max(size[l.src.bar], l.src.End());
    size[l.dst.bar] = std::max(size[l.dst.bar], l.dst.End());
    if (l.planar) size[l.src1.bar] = std::max(size[l.src1.bar], l.src1.End());
  }
  for (int b : {4, 5, 6, 7, 8}) size.emplace(b, 4096);
  Placed p = Lay(e.chain, size, layers, rng, kWeightsBar);
  std::copy(e.weights.begin(), e.weights.end(), p.mem.begin() + long(p.job.bars[kWeightsBar]));
  return p;
}

uint16_t Load(const std::vector<uint8_t>& m, uint64_t a, int bytes) {
  return bytes == 2 ? uint16_t(m[size_t(a)] | m[size_t(a) + 1] << 8) : uint16_t(int16_t(int8_t(m[size_t(a)])));
}
void Store(std::vector<uint8_t>* m, uint64_t a, int bytes, uint16_t v) {
  (*m)[size_t(a)] = uint8_t(v);
  if (bytes == 2) (*m)[size_t(a) + 1] = uint8_t(v >> 8);
}

// x into the first layer's source, in its layout, and each planar task's second input.
void PutInput(Placed* p, Rng& rng) {
  auto put = [&](const td::TensorAccess& a) {
    const int eb = td::ElemBytes(a.format);
    for (int c = 0; c < a.c; ++c) {
      for (int y = 0; y < a.h; ++y) {
        for (int x = 0; x < a.w; ++x) {
          const uint16_t v = eb == 2 ? SmallFp16(rng) : uint16_t(rng.Below(256));
          Store(&p->mem, p->job.bars[size_t(a.bar)] + a.Offset(c, y, x), eb, v);
        }
      }
    }
  };
  put(p->layers.front().src);
  for (const td::TdLayer& l : p->layers) {
    if (l.planar) put(l.src1);
  }
}

// The reference: every TD on a copy of memory, oracle::Conv2d of its interpreted layer.
// The memory after the program; `loaded`: its layers with their kernels and table read (those in
// a run-time buffer as the buffer is when the layer starts).
std::vector<uint8_t> Reference(const Placed& p, std::vector<td::TdLayer>* loaded = nullptr) {
  std::vector<uint8_t> m = p.mem;
  for (td::TdLayer l : p.layers) {
    if (!l.loaded) {  // kernels in a run-time buffer (matmul.hwx: input A), as they are now
      const uint64_t kb = p.job.bars[size_t(l.kernels.bar)];
      td::LoadKernels(&l, std::vector<uint8_t>(m.begin() + long(kb), m.end()));
    }
    if (loaded) loaded->push_back(l);
    if (l.planar) {  // A18: y = post(op(src0 x scale0, src1)), element by element
      td::TensorAccess a = l.src, b = l.src1, y = l.dst;
      a.base += p.job.bars[size_t(a.bar)];
      b.base += p.job.bars[size_t(b.bar)];
      y.base += p.job.bars[size_t(y.bar)];
      const std::vector<uint16_t> va = td::ReadAccess(a, m), vb = td::ReadAccess(b, m);
      std::vector<uint16_t> vy(va.size());
      for (size_t k = 0; k < va.size(); ++k) vy[k] = td::PlanarElement(l.pe, va[k], vb[k]);
      td::WriteAccess(y, vy, &m);
      continue;
    }
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
std::vector<std::pair<uint32_t, uint32_t>> ExpectedWrites(const td::TdLayer& l, const TdSystemJob& job,
                                                          const CoreParams& cp = kCp) {
  namespace rc = regs::core;
  harness::CoreLayerPlan p;
  p.layer = l.layer;
  p.kspec.format = l.layer.mode == oracle::MacMode::kInt8 ? oracle::KernelFormat::kRaw8 : oracle::KernelFormat::kFp16;
  const std::string bad = harness::PlanCoreLayer(&p, cp);
  if (!bad.empty()) throw std::runtime_error("PlanCoreLayer: " + bad);
  std::vector<std::pair<uint32_t, uint32_t>> w = harness::CoreShifterWrites(p, cp);
  for (const auto& [a, v] : harness::PostConfigWrites(l.layer.post)) w.push_back({rc::WindowAddr(rc::kPostproc, a), v});
  const harness::CoreAddresses ad{
      uint32_t(job.bars[size_t(l.src.bar)] + l.src.base), uint32_t(l.src.plane), uint32_t(l.src.row), job.kstage,
      uint32_t(job.bars[size_t(l.dst.bar)] + l.dst.base), uint32_t(l.dst.plane), uint32_t(l.dst.row)};
  for (const auto& cw : harness::CoreLayerWrites(p, ad)) w.push_back(cw);
  w.push_back({rc::kStartAddr, 1});
  return w;
}

// The planar engine's task for a planar TD, as a driver would write it (harness::PlanarWrites):
// y = FC_O(op(FC_A(src0), src1)), FC_A scaling by Src0Scale, FC_O by the post scale and bias.
harness::PlanarTask PlanarTaskOf(const td::TdLayer& l, const TdSystemJob& job) {
  harness::PlanarTask t;
  const harness::PeEwOp ops[4] = {harness::PeEwOp::kAdd, harness::PeEwOp::kMul, harness::PeEwOp::kMax,
                                  harness::PeEwOp::kMin};
  t.ew = ops[int(l.pe.op)];
  t.c = l.src.c;
  t.h = l.src.h;
  t.w = l.src.w;
  t.fca.scale = l.pe.src0_scale;
  t.fco.scale = l.pe.scale;
  t.fco.bias = l.pe.bias;
  auto operand = [&](const td::TensorAccess& a) {
    return harness::PlanarOperand{uint32_t(job.bars[size_t(a.bar)] + a.base), uint32_t(a.row), uint32_t(a.plane), false,
                                  false};
  };
  t.src[0] = operand(l.src);
  t.src[1] = operand(l.src1);
  t.dst = operand(l.dst);
  return t;
}

std::string Hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

// The planar engine's state: the bytes of its model with the inputs the system drives while it
// is quiet (random readies, the front end's configuration port) masked.
std::vector<uint8_t> PlanarState(Planar& d) {
  const auto saved =
      std::make_tuple(d.s0_rd_ready_i, d.s1_rd_ready_i, d.s2_rd_ready_i, d.wr_ready_i, d.cfg_addr_i, d.cfg_wdata_i);
  d.s0_rd_ready_i = d.s1_rd_ready_i = d.s2_rd_ready_i = d.wr_ready_i = 0;
  d.cfg_addr_i = 0;
  d.cfg_wdata_i = 0;
  const auto* b = reinterpret_cast<const uint8_t*>(d.rootp);
  std::vector<uint8_t> v(b, b + sizeof(*d.rootp));
  std::tie(d.s0_rd_ready_i, d.s1_rd_ready_i, d.s2_rd_ready_i, d.wr_ready_i, d.cfg_addr_i, d.cfg_wdata_i) = saved;
  return v;
}

// The system; with check_quiet, the planar engine is clocked in its quiet cycles and each is
// checked to leave its state as it was (TdSystem::CheckQuietPlanar), else they are skipped.
struct System {
  explicit System(uint32_t x_seed = 1, bool check_quiet = true)
      : ctrl("ane_td_ctrl", harness::CurrentTestStem() + ".ctrl", x_seed),
        core("ane_core", harness::CurrentTestStem() + ".core", x_seed + 1),
        planar("ane_planar", harness::CurrentTestStem() + ".planar", x_seed + 2),
        sys(ctrl, core, planar, kCp) {
    sys.Reset();
    CheckQuiet(check_quiet);
  }
  void CheckQuiet(bool on) {
    if (on) {
      sys.CheckQuietPlanar([this] { return PlanarState(planar.dut()); });
    } else {
      sys.CheckQuietPlanar(nullptr);
    }
  }
  Sim<Ctrl> ctrl;
  Sim<Core> core;
  Sim<Planar> planar;
  TdSystem<Ctrl, Core, Planar> sys;
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
  std::vector<td::TdLayer> layers;  // the table of a layer whose kernels are in a run-time buffer
  const std::vector<uint8_t> want = Reference(p, &layers);  // is read from it when the layer starts
  s.sys.mem() = p.mem;
  const TdSystemResult r = s.sys.Run(
      p.job, [&p](uint64_t a) { return p.Writable(a); }, opt);
  EXPECT_FALSE(r.error) << what << ": error code " << r.err_code << " at TD " << r.err_td
                        << (r.setup_error ? " (set-up)" : " (fetch)");
  int planar = 0;
  for (const td::TdLayer& l : p.layers) planar += l.planar;
  EXPECT_EQ(r.layers, int(p.layers.size()) - planar) << what;
  EXPECT_EQ(r.planar_tasks, planar) << what;
  // configuration: TD after TD, the driver's writes to the core and to the planar engine
  std::vector<std::pair<uint32_t, uint32_t>> cfg, pe_cfg;
  for (const td::TdLayer& l : layers) {
    if (l.planar) {
      const auto w = harness::PlanarWrites(PlanarTaskOf(l, p.job));
      pe_cfg.insert(pe_cfg.end(), w.begin(), w.end());
      continue;
    }
    const auto w = ExpectedWrites(l, p.job);
    cfg.insert(cfg.end(), w.begin(), w.end());
  }
  EXPECT_EQ(r.pe_cfg_writes, pe_cfg) << what << ": the planar engine's configuration";
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

// A small convolution: 2 -> 2 channels, 4 x 4, 1 x 1 kernels of 1.0, from buffer 5 to buffer 4.
td::LayerSpec TinyLayer() {
  td::LayerSpec l;
  l.cin = l.cout = 2;
  l.h = l.w = l.oh = l.ow = 4;
  l.weights.assign(2, std::vector<uint16_t>(2, 0x3C00));
  l.src_bar = 5;
  l.dst_bar = 4;
  return l;
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
  const int n = int(test::CoverageShare(300 * test::SoakFactor()));
  int tds = 0, tables = 0, passes = 0, planars = 0;
  uint64_t setup = 0, core = 0, mac = 0, quiet_checked = 0, quiet_skipped = 0;
  for (int it = 0; it < n && !testing::Test::HasFailure(); ++it) {
    const std::vector<td::LayerSpec> specs = RandomProgram(rng, 4);
    const td::Encoded e = td::EncodeLayers(specs, kWeightsBar);
    Placed p = Place(e, rng);
    PutInput(&p, rng);
    const harness::CoreRunOptions opt = RandomTraffic(rng);
    // every other program with the planar engine's quiet cycles skipped, as `ane run X.hwx` runs
    s.CheckQuiet(it % 2 == 0);
    const uint64_t q0 = s.sys.quiet_cycles();
    const TdSystemResult r = RunAndCheck(s, p, opt, "program " + std::to_string(it) + ": " + Describe(p.layers));
    (it % 2 == 0 ? quiet_checked : quiet_skipped) += s.sys.quiet_cycles() - q0;
    tds += int(p.layers.size());
    for (const td::TdLayer& l : p.layers) {
      tables += l.table.has_value();
      passes += l.pass;
      planars += l.planar;
    }
    setup += r.setup_cycles;
    core += r.core_busy_cycles;
    mac += r.mac_cycles;
  }
  std::printf(
      "seed %llu: %d programs, %d TDs (%d lookup tables, %d per-element passes, %d planar tasks); set-up "
      "%llu cycles, core busy %llu cycles; planar engine quiet: %llu cycles checked, %llu skipped\n",
      (unsigned long long)seed, n, tds, tables, passes, planars, (unsigned long long)setup, (unsigned long long)core,
      (unsigned long long)quiet_checked, (unsigned long long)quiet_skipped);
  EXPECT_GT(quiet_checked, 1000u);  // the assumption was tested, and the skipping used
  EXPECT_GT(quiet_skipped, 1000u);
  EXPECT_GT(tables, 0);
  EXPECT_GT(passes, 0);
  EXPECT_GT(planars, n / 6);  // a quarter of the layers are planar (50 of 300 programs)
}

// N-5 through the TD path at the kernel DMA's widest: 16 output channels spread over all 16
// kernel DMA channels, and a lookup table's layer over 15, 14 and 13 (the table takes the next
// channel), fp16, 3x3 with padding, bit-exact. The random programs above draw these seldom.
TEST(RtlTdSystem, N5_TD_SixteenKernelChannelsAndThirteenToFifteenBesideATable) {
  const uint64_t seed = test::TestSeed(0x7D5EA);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  for (const int channels : {16, 15, 14, 13}) {
    const bool table = channels < 16;
    td::LayerSpec l = TinyLayer();
    l.cout = 16;
    l.kh = l.kw = 3;
    l.py = l.px = 1;
    l.weights.assign(16, {});
    for (auto& k : l.weights) {
      for (int j = 0; j < l.cin * 9; ++j) k.push_back(SmallFp16(rng));
    }
    l.kernel_channels = channels;
    if (table) {
      l.nonlinear = regs::td::Nonlinear::kTable;
      for (int k = 0; k <= 32; ++k) l.knots.push_back(SmallFp16(rng));
      l.below = SmallFp16(rng);
      l.above = SmallFp16(rng);
    }
    const std::string what = std::to_string(channels) + " kernel channels" + (table ? " and the table" : "");
    Placed p = Place(td::EncodeLayers({l}, kWeightsBar), rng);
    ASSERT_EQ(p.layers.size(), 1u) << what;
    EXPECT_EQ(p.layers[0].kernel_channels.size(), size_t(channels)) << what;
    EXPECT_EQ(p.layers[0].table.has_value(), table) << what;
    PutInput(&p, rng);
    RunAndCheck(s, p, RandomTraffic(rng), what);
  }
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
  const Case cases[] = {{"a 9x9 kernel", kErrCore},
                        {"a planar operation in a neural-engine TD", kErrField},
                        {"a field no real program carries", kErrFixed},
                        {"an output size", kErrShape},
                        {"an infinite knot", kErrTable},
                        {"an infinite bias in a kernel block", kErrTable},
                        {"int8 kernels for fp16 data", kErrField},
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
        bad.nonlinear = regs::td::Nonlinear::kTable;
        bad.knots.assign(33, 0x3800);
        bad.knots[rng.Below(33)] = rng.Below(2) ? 0x7C00 : 0xFE00;
      } else if (name == "an infinite bias in a kernel block") {
        bad.bias = true;
        bad.biases.assign(2, 0x3800);
        bad.biases[rng.Below(2)] = rng.Below(2) ? 0xFC00 : 0x7E01;
      }
      td::Encoded e = td::EncodeLayers(specs, kWeightsBar);
      td::Td& t = e.tds[size_t(at)];
      if (name == "a planar operation in a neural-engine TD") {
        t.Set(r::kPlanar_Cfg_Op, 1 + rng.Below(3));
      } else if (name == "a field no real program carries") {
        t.Set(r::kCommon_GroupConvCfg_UnicastEn, 1);  // 0 in every real convolution
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
        td::Td one = e.tds[size_t(at)];
        one.Set(r::kHeader_0_EON, 1);
        one.Set(r::kHeader_8_TBE, 0);
        one.Set(r::kHeader_1_NextSize, 0);
        one.Set(r::kHeader_7_NextPointer, 0);
        plan.layer = td::Interpret({one}, e.weights, kWeightsBar).front().layer;
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
      const TdSystemResult res = s.sys.Run(
          p.job, [&p](uint64_t a) { return p.Writable(a); }, RandomTraffic(rng));
      const std::string what = name + " in TD " + std::to_string(at);
      EXPECT_TRUE(res.error) << what;
      EXPECT_TRUE(res.setup_error) << what;
      EXPECT_EQ(res.err_code, c.code) << what;
      EXPECT_EQ(res.err_td, at) << what;
      EXPECT_EQ(res.layers, at) << what;
      if (c.code == kErrFixed) {  // the word of Common.GroupConvCfg, by its register address
        EXPECT_FALSE(res.err_header) << what;
        EXPECT_EQ(res.err_addr, r::kStreams[1].reg_addr + 4 * r::kFields[r::kCommon_GroupConvCfg_UnicastEn].word)
            << what;
      }
      size_t expected_cfg = 0;
      for (const td::TdLayer& l : p.layers) expected_cfg += ExpectedWrites(l, p.job).size();
      if (name == "an infinite knot") {
        // the shifter and CTRL/SEED writes go out before the conversion fails; no core write
        expected_cfg += 6;
      } else if (c.code == kErrTable) {
        // the bias: the layer's configuration goes out, the kernel DMA's error stops it before START
        expected_cfg += ExpectedWrites(td::Interpret({[&] {
                                                       td::Td one = e.tds[size_t(at)];
                                                       one.Set(r::kHeader_0_EON, 1);
                                                       one.Set(r::kHeader_8_TBE, 0);
                                                       one.Set(r::kHeader_1_NextSize, 0);
                                                       one.Set(r::kHeader_7_NextPointer, 0);
                                                       return one;
                                                     }()},
                                                     std::vector<uint8_t>(e.weights.size(), 0), kWeightsBar)
                                           .front(),
                                       p.job)
                            .size() -
                        1;
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

// One TD as a chain of its own (EON), the C++ verdict on it: the interpretation's refusal, or
// the core planner's at the RTL's 8 lanes (PlanCoreLayer, what ane_td_setup's plan implements);
// empty when both accept it.
std::string CppVerdict(td::Td one, const std::vector<uint8_t>& weights) {
  namespace r = regs::td;
  one.Set(r::kHeader_0_EON, 1);
  one.Set(r::kHeader_8_TBE, 0);
  one.Set(r::kHeader_1_NextSize, 0);
  one.Set(r::kHeader_7_NextPointer, 0);
  try {
    for (const td::TdLayer& l : td::Interpret({one}, weights, kWeightsBar)) {
      if (l.planar) continue;
      harness::CoreLayerPlan plan;
      plan.layer = l.layer;
      plan.kspec.format =
          l.layer.mode == oracle::MacMode::kInt8 ? oracle::KernelFormat::kRaw8 : oracle::KernelFormat::kFp16;
      const std::string bad = harness::PlanCoreLayer(&plan, kCp);
      if (!bad.empty()) return "PlanCoreLayer: " + bad;
    }
  } catch (const td::TdError& x) {
    return x.what();
  }
  return "";
}

// Every limit and rule of the set-up (docs/td_fetch.md "Layer set-up") met by one TD edited to
// break it, with the code the set-up gives: the sizes the core cannot run (error 3: 4096-wide
// and -high inputs and outputs, more than 1023 channels per group, output channels per group,
// groups, passes or rows of tiles; planar tasks past 16 383), the shapes (error 2: Cout not a
// multiple of the groups), and the neural-engine fields (error 1: group strides with groups, a
// bias or a scaled int8 output for int8 data, kernel channels not 0..E-1, a table without a
// channel). The C++ (Interpret, then the core planner at 8 lanes) refuses each too, and the
// next program runs exact. The limits no TD reaches on this core are in docs/verification.md.
TEST(RtlTdSystem, TD_EveryLimitOfTheSetUpRefusedWithItsCode) {
  const uint64_t seed = test::TestSeed(0x7D5E7);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  struct Case {
    const char* what;
    int kind;  // 0 a convolution, 1 a per-element pass, 2 a planar task
    std::vector<std::pair<const char*, uint32_t>> edits;
    int code;
  };
  const std::vector<Case> cases = {
      {"a 4096-wide input", 0, {{"Common.InDim.Win", 4096}}, kErrCore},
      {"a 4096-high input", 0, {{"Common.InDim.Hin", 4096}}, kErrCore},
      {"a 4096-high output, one column wide (no later limit refuses it: 512 rows of 8-row tiles)",
       0,
       {{"Common.InDim.Hin", 4095},
        {"Common.OutDim.Hout", 4096},
        {"Common.ConvCfg.Kh", 3},
        {"Common.ConvCfg.Py", 2},
        {"Common.InDim.Win", 1},
        {"Common.OutDim.Wout", 1}},
       kErrCore},
      {"a 4096-wide output",
       0,
       {{"Common.InDim.Win", 4095}, {"Common.OutDim.Wout", 4096}, {"Common.ConvCfg.Kw", 3}, {"Common.ConvCfg.Px", 2}},
       kErrCore},
      {"2048 input channels in a group", 0, {{"Common.Cin.Cin", 2048}}, kErrCore},
      {"2048 output channels in a group", 0, {{"Common.Cout.Cout", 2048}}, kErrCore},
      {"1024 groups",
       0,
       {{"Common.Cin.Cin", 1024}, {"Common.Cout.Cout", 1024}, {"Common.GroupConvCfg.NumGroups", 1024}},
       kErrCore},
      {"1536 passes",
       0,
       {{"Common.Cin.Cin", 512}, {"Common.Cout.Cout", 512 * 24}, {"Common.GroupConvCfg.NumGroups", 512}},
       kErrCore},
      {"1050 rows of tiles", 0, {{"Common.InDim.Hin", 2100}, {"Common.OutDim.Hout", 2100}}, kErrCore},
      {"Cout not a multiple of the groups",
       0,
       {{"Common.GroupConvCfg.NumGroups", 2}, {"Common.Cout.Cout", 3}},
       kErrShape},
      {"a source group stride with groups",
       0,
       {{"Common.GroupConvCfg.NumGroups", 2}, {"TileDMASrc.GroupStride.Stride", 1}},
       kErrField},
      {"a destination group stride with groups",
       0,
       {{"Common.GroupConvCfg.NumGroups", 2}, {"TileDMADst.GroupStride.GroupStride", 1}},
       kErrField},
      {"a bias for int8 data",
       0,
       {{"Common.ChCfg.InFmt", 1},
        {"TileDMASrc.Fmt.MemFmt", 1},
        {"NE.KernelCfg.KernelFmt", 1},
        {"NE.MACCfg.BiasMode", 1}},
       kErrField},
      {"a scaled int8 output of int8 data",
       0,
       {{"Common.ChCfg.InFmt", 1},
        {"TileDMASrc.Fmt.MemFmt", 1},
        {"NE.KernelCfg.KernelFmt", 1},
        {"Common.ChCfg.OutFmt", 1},
        {"TileDMADst.Fmt.MemFmt", 1},
        {"NE.PostScale.PostScale", 0x4000}},
       kErrField},
      {"kernel channel 1 without channel 0",
       0,
       {{"KernelDMASrc.CoeffDMAConfig[0].En", 0}, {"KernelDMASrc.CoeffDMAConfig[1].En", 1}},
       kErrField},
      {"a table without a kernel channel", 1, {{"NE.MACCfg.NonlinearMode", 2}}, kErrField},
      {"a 16384-wide planar task", 2, {{"Common.InDim.Win", 16384}, {"Common.OutDim.Wout", 16384}}, kErrCore},
      {"a 16384-high planar task", 2, {{"Common.InDim.Hin", 16384}, {"Common.OutDim.Hout", 16384}}, kErrCore},
      {"16384 planar channels", 2, {{"Common.Cin.Cin", 16384}, {"Common.Cout.Cout", 16384}}, kErrCore},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    td::LayerSpec l = TinyLayer();
    if (c.kind != 0) l.weights.clear();
    l.pass = c.kind == 1;
    l.planar = c.kind == 2;
    td::Encoded e = td::EncodeLayers({l}, kWeightsBar);
    for (const auto& [name, value] : c.edits) e.tds[0].Set(td::FieldByName(name), value);
    e.chain = td::EncodeChain(e.tds, uint32_t(e.chain.size()));
    const std::string cpp = CppVerdict(e.tds[0], e.weights);
    EXPECT_FALSE(cpp.empty()) << "the C++ accepts it";
    Placed p = Place(e, rng, false);
    s.sys.mem() = p.mem;
    const TdSystemResult res = s.sys.Run(
        p.job, [&p](uint64_t a) { return p.Writable(a); }, RandomTraffic(rng));
    EXPECT_TRUE(res.error && res.setup_error) << "the RTL runs it (the C++: " << cpp << ")";
    EXPECT_EQ(res.err_code, c.code) << "the C++: " << cpp;
    EXPECT_EQ(res.err_td, 0);
    EXPECT_TRUE(res.cfg_writes.empty() && res.pe_cfg_writes.empty()) << "configured before the refusal";
    Placed q = Place(td::EncodeLayers({TinyLayer()}, kWeightsBar), rng);  // the next walk starts clean
    PutInput(&q, rng);
    RunAndCheck(s, q, {}, std::string(c.what) + ", then a good program");
  }
}

// The set-up's tile search at the full size (Vane_td_ctrl256 with the 256-lane core, what
// `ane run PROGRAM.hwx --engine rtl` runs; on the 8-lane core every first tile fits): a tile
// whose input patch does not fit the 512-byte bank loses rows until it does (16 x 16 outputs of
// a 3x3 convolution), or, at one row, columns (100-wide outputs) (docs/td_fetch.md "Layer
// set-up"). The configuration is the C++ planner's at 256 lanes (PlanCoreLayer searches the same
// way) and the output the oracle's.
TEST(RtlTdSystem, TD_FullSizeSetUpShrinksTheTileUntilItsPatchFitsTheBank) {
  const uint64_t seed = test::TestSeed(0x7D5EA);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  struct Shape {
    int c, h, w;
    const char* what;
  };
  for (const Shape& sh : {Shape{2, 16, 16, "16 x 16: fewer rows"}, Shape{1, 2, 100, "2 x 100: fewer columns"}}) {
    td::LayerSpec l;
    l.cin = l.cout = sh.c;
    l.h = l.oh = sh.h;
    l.w = l.ow = sh.w;
    l.kh = l.kw = 3;
    l.py = l.px = 1;
    for (int co = 0; co < l.cout; ++co) {
      std::vector<uint16_t> k;
      for (int j = 0; j < l.cin * 9; ++j) k.push_back(SmallFp16(rng));
      l.weights.push_back(k);
    }
    Placed p = Place(td::EncodeLayers({l}, kWeightsBar), rng);
    PutInput(&p, rng);
    const std::vector<uint8_t> want = Reference(p);
    std::vector<uint8_t> mem = p.mem;
    const TdSystemResult r = harness::RunTdProgram256(
        &mem, p.job, [&p](uint64_t a) { return p.Writable(a); }, RandomTraffic(rng));
    ASSERT_FALSE(r.error) << sh.what << ": error code " << r.err_code;
    EXPECT_EQ(r.cfg_writes, ExpectedWrites(p.layers[0], p.job, harness::kTdCtrl256Params)) << sh.what;
    const td::TdLayer& t = p.layers[0];
    const uint64_t db = p.job.bars[size_t(t.dst.bar)];
    for (int c = 0; c < t.dst.c; ++c) {
      for (int y = 0; y < t.dst.h; ++y) {
        for (int x = 0; x < t.dst.w; ++x) {
          const uint64_t a = db + t.dst.Offset(c, y, x);
          ASSERT_EQ(Load(mem, a, 2), Load(want, a, 2)) << sh.what << ": y[" << c << "][" << y << "][" << x << "]";
        }
      }
    }
    // the plan's tile is not the first guess (256 / OW rows of OW columns)
    harness::CoreLayerPlan plan;
    plan.layer = t.layer;
    ASSERT_EQ(harness::PlanCoreLayer(&plan, harness::kTdCtrl256Params), "");
    std::printf("%s: tile %d x %d\n", sh.what, plan.tile_h, plan.tile_w);
    EXPECT_LT(plan.tile_h * plan.tile_w, std::min(256, t.dst.w * t.dst.h)) << sh.what;
  }
}

// The fetch's errors through the whole front end (docs/td_fetch.md): a chain whose last TD runs
// past the TD buffer's limit stops there, after the TDs before it ran exact, with the fetch's
// error (not the set-up's) for that TD; a set-up refusal of TD 0 in the same chain is the error
// reported (its TD, the set-up's code) while the fetch's stands behind it.
TEST(RtlTdSystem, TD_FetchErrorsThroughTheFrontEnd) {
  const uint64_t seed = test::TestSeed(0x7D5E8);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  for (int it = 0; it < 6 && !testing::Test::HasFailure(); ++it) {
    const bool refuse_first = it % 2 == 1;
    std::vector<td::LayerSpec> specs;
    for (int i = 0; i < 2; ++i) {
      td::LayerSpec l = TinyLayer();
      l.src_bar = i == 0 ? 5 : 6;
      l.dst_bar = i == 0 ? 6 : 4;
      specs.push_back(l);
    }
    td::Encoded e = td::EncodeLayers(specs, kWeightsBar);
    if (refuse_first) e.tds[0].Set(td::FieldByName("Common.GroupConvCfg.NumGroups"), 0);
    e.chain = td::EncodeChain(e.tds, uint32_t(e.chain.size()));
    Placed p = Place(e, rng, false);
    if (!refuse_first) p.layers = td::Interpret({e.tds[0]}, e.weights, kWeightsBar);
    p.job.limit = uint32_t(e.chain.size()) - 4 * (1 + rng.Below(8));  // TD 1 ends past the limit
    std::vector<uint8_t> want;
    if (!refuse_first) {
      PutInput(&p, rng);
      want = Reference(p);
    }
    s.sys.mem() = p.mem;
    const TdSystemResult res = s.sys.Run(
        p.job, [&p](uint64_t a) { return p.Writable(a); }, RandomTraffic(rng));
    const std::string what = refuse_first ? "TD 0 refused, TD 1 past the limit" : "TD 1 past the limit";
    EXPECT_TRUE(res.error) << what;
    EXPECT_EQ(res.setup_error, refuse_first) << what;
    EXPECT_EQ(res.err_td, refuse_first ? 0 : 1) << what;
    if (refuse_first) {
      EXPECT_EQ(res.err_code, kErrShape) << what;
      EXPECT_EQ(res.layers, 0) << what;
    } else {
      EXPECT_EQ(res.layers, 1) << what;
      const td::TdLayer& l = p.layers[0];
      const uint64_t db = p.job.bars[size_t(l.dst.bar)];
      for (int ch = 0; ch < l.dst.c; ++ch) {
        for (int y = 0; y < l.dst.h; ++y) {
          for (int x = 0; x < l.dst.w; ++x) {
            const uint64_t a = db + l.dst.Offset(ch, y, x);
            ASSERT_EQ(Load(s.sys.mem(), a, 2), Load(want, a, 2)) << what;
          }
        }
      }
    }
    Placed q = Place(td::EncodeLayers({TinyLayer()}, kWeightsBar), rng);  // the next walk starts clean
    PutInput(&q, rng);
    RunAndCheck(s, q, {}, what + ", then a good program");
  }
}

// ---------------------------------------------------------------- the real programs

std::vector<uint8_t> ReadProgram(const std::string& name) {
  std::ifstream in(std::string(ANE_SOURCE_DIR) + "/sim/hwx/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// A real program placed in memory: its buffers (as td::PrepareProgram made them, inputs random)
// at random aligned places, `chain` (its TDs, maybe edited) at the base.
Placed PlaceProgram(const td::Program& prog, const std::vector<uint8_t>& chain, Rng& rng) {
  std::map<int, uint64_t> size;
  for (const auto& [bar, bytes] : prog.buffers) size[bar] = bytes.size();
  Placed p = Lay(chain, size, prog.layers, rng);
  std::map<int, uint64_t> at;
  for (const auto& [bar, bytes] : prog.buffers) {
    at[bar] = p.job.bars[size_t(bar)];
    std::copy(bytes.begin(), bytes.end(), p.mem.begin() + long(at[bar]));
  }
  for (const td::HwxTensor& t : prog.hwx.tensors) {  // the inputs: small fp16 values
    if (t.role != td::TensorRole::kInput) continue;
    for (uint32_t c = 0; c < t.dims[1]; ++c) {
      for (uint32_t y = 0; y < t.dims[2]; ++y) {
        for (uint32_t x = 0; x < t.dims[3]; ++x)
          Store(&p.mem, at[t.bar] + td::HostOffset(t, c, y, x), 2, SmallFp16(rng));
      }
    }
  }
  return p;
}

// Item 3 of the whole-TD issue: the C++ interpretation and the RTL front end accept and refuse
// the same programs. In every real program, every fixed field and every word's reserved bits
// are changed to a value the real programs do not carry, and modelled fields to values the model
// refuses; the C++ verdict (Interpret) and the RTL's (error_o of ane_td_ctrl) must agree, and a
// program both accept must give the oracle's results. The unchanged programs run bit-exact.
TEST(RtlTdSystem, TD_BothEnginesAcceptAndRefuseTheSameRealPrograms) {
  const uint64_t seed = test::TestSeed(0x7D5E5);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  namespace r = regs::td;
  int refused = 0, accepted = 0;
  for (const char* name :
       {"relu.hwx", "sigmoid.hwx", "conv_twos.hwx", "concat.hwx", "fc_bias.hwx", "matmul.hwx", "sum.hwx"}) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> file = ReadProgram(name);
    const td::Program prog = td::PrepareProgram(file);
    const std::vector<uint8_t> chain = prog.hwx.TdBytes();
    const std::vector<td::Td> tds = td::WalkChain(chain, prog.hwx.td_count);
    // the edits: (TD, word offset, mask, value)
    struct Edit {
      size_t td;
      uint32_t off, mask, value;
      std::string what;
    };
    std::vector<Edit> edits;
    for (size_t i = 0; i < tds.size(); ++i) {
      for (const r::FixedRule& rule : r::kFixedRules) {
        uint32_t v = 0;
        if (!td::UncarriedValue(rule, td::KindOf(tds[i]), &v)) continue;
        edits.push_back(
            {i, rule.td_offset, rule.mask, v, rule.field >= 0 ? r::kFields[rule.field].name : "reserved bits"});
      }
      auto field = [&](int f, uint32_t value) {
        const r::Field& fd = r::kFields[f];
        edits.push_back({i, fd.td_offset, ((fd.width >= 32 ? 0xFFFFFFFFu : (1u << fd.width) - 1) << fd.lsb),
                         value << fd.lsb, std::string(fd.name) + " = " + std::to_string(value)});
      };
      field(r::kHeader_8_RBE1, 1);
      field(r::kHeader_8_TBase, 3);
      field(r::kHeader_8_TBE, tds[i].Get(r::kHeader_8_TBE) ^ 1);
      field(r::kHeader_8_ENE, tds[i].Get(r::kHeader_8_ENE) ? 0 : 1);  // the other engine
      field(r::kHeader_8_ENE, tds[i].Get(r::kHeader_8_ENE) % 7 + 1);
      field(r::kPlanar_Cfg_Binary, 0);
      field(r::kCommon_Cin_Cin, 5);
      field(r::kCommon_ChCfg_Src1Fmt, 2);
      field(r::kTileDMASrc_Src1RowStride_Stride, 1);
      field(r::kPlanar_Cfg_Op, 2);
      field(r::kPlanar_Post_Scale, 0x3C00);
      field(r::kNE_MACCfg_NonlinearMode, 3);
      field(r::kNE_MACCfg_OpMode, 2);
      field(r::kNE_KernelCfg_KernelFmt, 1);
      field(r::kTileDMASrc_DMAConfig_En, 0);
      field(r::kTileDMADst_DMAConfig_En, 0);
      field(r::kCommon_ChCfg_InFmt, 3);
      field(r::kKernelDMASrc_CoeffBfrSize_15_MemBfrSize, 2);
      field(r::kKernelDMASrc_CoeffBaseAddr_15_Addr, 5);
      // one edit per set-up check the edits above leave unreached (the coverage bins TD_setup_bad_*)
      auto named = [&](const char* name, uint32_t value) {
        const int f = td::FieldByName(name);
        const r::Field& fd = r::kFields[f];
        field(f, value & (fd.width >= 32 ? 0xFFFFFFFFu : (1u << fd.width) - 1));
      };
      for (const char* zero : {"Common.Cin.Cin", "Common.Cout.Cout", "Common.InDim.Hin", "Common.InDim.Win",
                               "Common.OutDim.Hout", "Common.OutDim.Wout", "Common.ConvCfg.Kh", "Common.ConvCfg.Kw",
                               "Common.ConvCfg.Sx", "Common.ConvCfg.Sy", "Common.GroupConvCfg.NumGroups"}) {
        named(zero, 0);
      }
      named("Common.ConvCfg.Px", 0xFFFFFFFFu);
      named("Common.ConvCfg.Py", 0xFFFFFFFFu);
      named("Common.OutDim.Wout", tds[i].Get(td::FieldByName("Common.OutDim.Wout")) + 1);
      named("Common.ChCfg.OutFmt", 3);
      named("Common.ChCfg.OutFmt", tds[i].Get(td::FieldByName("Common.ChCfg.OutFmt")) ^ 1);
      named("TileDMADst.Fmt.MemFmt", tds[i].Get(td::FieldByName("TileDMADst.Fmt.MemFmt")) ^ 1);
      field(r::kHeader_8_RBE0, 0);
      field(r::kHeader_8_WBE, 0);
      field(r::kHeader_1_NextSize, tds[i].Get(r::kHeader_1_NextSize) + 1);
      field(r::kHeader_9_KBE0, 1);
      field(r::kHeader_9_KBase0, 3);
      named("NE.PostScale.PostScale", 0x7C00);
      named("NE.PostScale.PostRightShift", 3);
      named("NE.MACCfg.BiasMode", 1);
      named("Planar.Post.Scale", 0x7C00);
      named("Planar.Post.Bias", 0xFE00);
      named("Planar.Src0Scale.Scale", 0xFC00);
    }
    edits.push_back({0, 0, 0, 0, "unchanged"});
    for (const Edit& e : edits) {
      std::vector<td::Td> t = tds;
      uint32_t& w = t[e.td].words[e.off / 4];
      w = (w & ~e.mask) | e.value;
      const std::vector<uint8_t> edited = td::EncodeChain(t, uint32_t(chain.size()));
      std::string cpp;
      try {
        td::Interpret(t, prog.hwx.WeightBytes(), prog.hwx.weights_bar);
      } catch (const td::TdError& x) {
        cpp = x.what();
      }
      const std::string what = "TD " + std::to_string(e.td) + ": " + e.what;
      Placed p = PlaceProgram(prog, edited, rng);
      if (cpp.empty()) {  // the edited program's own tasks
        p.layers = td::Interpret(t, prog.hwx.WeightBytes(), prog.hwx.weights_bar);
        RunAndCheck(s, p, RandomTraffic(rng), what);
        ++accepted;
        continue;
      }
      s.sys.mem() = p.mem;
      const TdSystemResult res = s.sys.Run(
          p.job, [&p](uint64_t a) { return p.Writable(a); }, RandomTraffic(rng));
      EXPECT_TRUE(res.error) << what << ": the C++ refuses it (" << cpp << "), the RTL ran it";
      if (res.error) {
        EXPECT_EQ(res.err_td, int(e.td)) << what;
        // a fixed field is code 5 in the RTL and "not modelled" in the C++, each naming the word
        const bool fixed = cpp.find("not modelled, and the real programs") != std::string::npos;
        EXPECT_EQ(res.err_code == kErrFixed, fixed) << what << ": code " << res.err_code << " / " << cpp;
      }
      ++refused;
    }
  }
  std::printf("%d edited programs refused by both engines, %d accepted by both\n", refused, accepted);
  EXPECT_GT(refused, 1000);
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
      s.sys.Run(
          p.job, [](uint64_t) { return true; }, {}, stop);
    } catch (const std::runtime_error&) {
      ++interrupted;
    }
    s.sys.Reset();
    Placed q = Place(td::EncodeLayers(RandomProgram(rng, 2), kWeightsBar), rng);
    PutInput(&q, rng);
    RunAndCheck(s, q, RandomTraffic(rng),
                "after a reset at cycle " + std::to_string(stop) + " of program " + std::to_string(it));
  }
  EXPECT_EQ(interrupted, 12) << "every program is cut short";
}

// N-7.1: a reset in every cycle of a program's fetch and set-up (every state of ane_td_setup's
// walk the program passes through: the checks, the plan, the register writes, the table
// conversion, the kernel wait), then a fresh program, exact. One-layer programs of each kind
// (convolution with a table, pass-through, planar); the window is the program's cycles before
// its core or planar run.
TEST(RtlTdSystem, N7_1_ResetInEverySetUpCycleThenAFreshProgramIsExact) {
  const uint64_t seed = test::TestSeed(0x7D5E6);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  const td::LayerSpec tiny = TinyLayer();  // the fresh program
  Placed q = Place(td::EncodeLayers({tiny}, kWeightsBar), rng);
  PutInput(&q, rng);
  int resets = 0, kinds = 0;
  bool table = false, pass = false, planar = false;
  for (int it = 0; it < 200 && kinds < 3 && !testing::Test::HasFailure(); ++it) {
    std::vector<td::LayerSpec> specs = RandomProgram(rng, 1);
    td::LayerSpec& l = specs[0];
    const bool is_table = l.nonlinear == regs::td::Nonlinear::kTable && !l.planar;
    if ((is_table && table) || (l.pass && pass) || (l.planar && planar) || (!is_table && !l.pass && !l.planar))
      continue;
    table |= is_table;
    pass |= l.pass;
    planar |= l.planar;
    ++kinds;
    l.src_bar = 5;
    l.dst_bar = 4;
    Placed p = Place(td::EncodeLayers(specs, kWeightsBar), rng);
    PutInput(&p, rng);
    const TdSystemResult full = RunAndCheck(s, p, {}, "program " + std::to_string(it));
    const uint64_t window = full.cycles - full.core_busy_cycles - full.planar_busy_cycles;
    ASSERT_GT(window, 20u);
    for (uint64_t stop = 1; stop < window && !testing::Test::HasFailure(); ++stop) {
      s.sys.mem() = p.mem;
      try {
        s.sys.Run(
            p.job, [](uint64_t) { return true; }, {}, stop);
      } catch (const std::runtime_error&) {}
      s.sys.Reset();
      ++resets;
      RunAndCheck(s, q, {}, "after a reset at cycle " + std::to_string(stop) + " of program " + std::to_string(it));
    }
  }
  EXPECT_TRUE(table && pass && planar) << "a kind of program is missing";
  std::printf("%d resets\n", resets);
}

// N-7.1: a reset in the cycles the previous test leaves out, then a fresh program, exact: around
// the start of a convolution whose kernels come slowly (the set-up waiting for the kernel DMA,
// the START write, the first cycles of the run), in the last cycles of a program and after its
// end (the front end idle), and in every cycle of a refused program, its error, its walk's
// reads still in flight, and after it (the error standing). After each reset the error outputs
// (error_o, err_setup_o, err_code_o, err_td_o, err_addr_o, err_header_o) are all 0.
TEST(RtlTdSystem, N7_1_ResetAroundTheRunAfterTheEndAndThroughARefusal) {
  const uint64_t seed = test::TestSeed(0x7D5E9);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  System s;
  const td::LayerSpec tiny = TinyLayer();  // the fresh program
  Placed q = Place(td::EncodeLayers({tiny}, kWeightsBar), rng);
  PutInput(&q, rng);
  harness::CoreRunOptions slow;  // every memory answer late, a third of the cycles stalled
  slow.max_latency = 8;
  slow.stall_pct = 30;
  slow.below = [&rng](uint32_t n) { return rng.Below(n); };
  int resets = 0;
  auto cut = [&](const Placed& p, uint64_t stop, const std::string& what) {
    s.sys.mem() = p.mem;
    try {
      s.sys.Run(
          p.job, [](uint64_t) { return true; }, slow, stop);
    } catch (const std::runtime_error&) {}  // cut short; else it ended (done or refused) first
    s.sys.Reset();
    ++resets;
    Ctrl& c = s.ctrl.dut();  // no error and nothing of where one came from survives the reset
    c.eval();
    EXPECT_EQ(uint32_t(c.error_o) | c.err_setup_o | c.err_code_o | c.err_td_o | c.err_addr_o | c.err_header_o, 0u)
        << "an error output after a reset at cycle " << stop << " of " << what;
    RunAndCheck(s, q, {}, "after a reset at cycle " + std::to_string(stop) + " of " + what);
  };
  // a 16 -> 16 3x3 convolution over four kernel DMA channels
  td::LayerSpec conv;
  conv.cin = conv.cout = 16;
  conv.h = conv.w = conv.oh = conv.ow = 4;
  conv.kh = conv.kw = 3;
  conv.py = conv.px = 1;
  conv.kernel_channels = 4;
  for (int co = 0; co < 16; ++co) {
    std::vector<uint16_t> k;
    for (int j = 0; j < 16 * 9; ++j) k.push_back(SmallFp16(rng));
    conv.weights.push_back(k);
  }
  Placed p = Place(td::EncodeLayers({conv}, kWeightsBar), rng);
  PutInput(&p, rng);
  const TdSystemResult full = RunAndCheck(s, p, slow, "the convolution");
  const uint64_t start = full.cycles - full.core_busy_cycles;  // about where the run starts
  ASSERT_GT(start, 64u);
  for (uint64_t stop = start - 64; stop < start + 16 && !testing::Test::HasFailure(); ++stop)
    cut(p, stop, "the convolution");
  for (uint64_t stop = full.cycles - 32; stop < full.cycles + 16 && !testing::Test::HasFailure(); ++stop) {
    cut(p, stop, "the convolution's end");
  }
  // TD 0 refused (no groups), TD 1 behind it
  td::Encoded e = td::EncodeLayers({tiny, tiny}, kWeightsBar);
  e.tds[0].Set(td::FieldByName("Common.GroupConvCfg.NumGroups"), 0);
  e.chain = td::EncodeChain(e.tds, uint32_t(e.chain.size()));
  Placed r = Place(e, rng, false);
  s.sys.mem() = r.mem;
  const TdSystemResult refused = s.sys.Run(
      r.job, [](uint64_t) { return true; }, slow);
  ASSERT_TRUE(refused.error && refused.setup_error);
  for (uint64_t stop = 1; stop < refused.cycles + 16 && !testing::Test::HasFailure(); ++stop) {
    cut(r, stop, "a refused program");
  }
  std::printf("%d resets\n", resets);
  EXPECT_GT(resets, 150);
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
