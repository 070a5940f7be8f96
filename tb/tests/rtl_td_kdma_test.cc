// SPDX-License-Identifier: Apache-2.0
// The kernel DMA of compiled programs (rtl/ane_td_kdma.sv) against the kernel encoder: raw
// kernels laid out as Apple's programs store them (docs/td.md A8: output channel co's kernel is
// block co div K of kernel DMA channel co mod K, 64-byte blocks) become, in the staging region,
// the pass directory and one N-6 kernel group per pass. The expected image is built here from
// oracle::EncodeKernelGroup (tb/oracle/kernel_codec.cc) and this file's own placement (the
// directory, then the groups back to back), as tb/plan/core_plan.cc BuildCoreImage places
// them; nothing of it comes from the RTL.
//
// Order: one small layer (its reference also checked against a layout written out by hand),
// directed shapes (every nk, K against Cout, steps across beat and block boundaries), the
// per-element pass (no read, unit weights), random layers under memory latency and
// back-pressure, X seeds, a reset in the middle of a job, the cycle figures of the RTL's header
// comment. Random tests print their seed on failure; rerun one with
// ANE_TEST_SEED=<seed> build/rtl_td_kdma_test --gtest_filter=...
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "Vane_td_kdma.h"
#include "tb/harness/sim.h"
#include "tb/oracle/formats.h"
#include "tb/oracle/kernel_codec.h"
#include "tb/tests/td_bench.h"
#include "tb/tests/test_seed.h"
#include "tb/tests/xseed_trace.h"

namespace ane {
namespace {

using harness::Sim;
using test::Describe;
using test::RandomTraffic;
using test::Rng;
using test::Traffic;

constexpr const char* kTop = "ane_td_kdma";
constexpr int kDepth = 8;  // the RTL's default answer buffer

// ---------------------------------------------------------------- the layer and the reference

struct Layer {
  int nchan = 1;  // K; 0: per-element pass
  int steps = 1;
  bool fp16 = true;
  int per = 1, groups = 1;
  bool params = false;
  uint16_t scale = 0x3C00;
  uint32_t bias = 0;
  bool bias_in = false;          // each block starts with its kernel's fp16 bias (BiasMode 1, A19)
  std::vector<uint16_t> biases;  // [Cout] (bias_in)
  // derived (Derive)
  int nk_full = 0, ppg = 0, nk_last = 0, passes = 0;
  int Cout() const { return per * groups; }
  int Eb() const { return fp16 ? 2 : 1; }
  int Lead() const { return bias_in ? 1 : 0; }  // values before the kernel's in its block
  uint32_t KBytes() const { return uint32_t(((steps + Lead()) * Eb() + 63) / 64 * 64); }
};

void Derive(Layer* l) {
  l->nk_full = std::min(8, l->per);
  l->ppg = (l->per + l->nk_full - 1) / l->nk_full;
  l->nk_last = l->per - (l->ppg - 1) * l->nk_full;
  l->passes = l->groups * l->ppg;
}

std::string Describe(const Layer& l) {
  return std::string(l.fp16 ? "fp16" : "int8") + ", K " + std::to_string(l.nchan) + ", steps " +
         std::to_string(l.steps) + ", per " + std::to_string(l.per) + ", groups " + std::to_string(l.groups) + " (" +
         std::to_string(l.passes) + " passes)" + (l.params ? ", params" : "") +
         (l.bias_in ? ", biases in the blocks" : "");
}

// The raw kernels [Cout][steps] as Interpret reads them: fp16 codes, or int8 sign-extended to
// 16 bits; a per-element pass: the unit.
std::vector<std::vector<uint16_t>> RandomKernels(const Layer& l, Rng& rng) {
  std::vector<std::vector<uint16_t>> w(size_t(l.Cout()), std::vector<uint16_t>(size_t(l.steps)));
  for (auto& k : w) {
    for (uint16_t& v : k) {
      if (l.nchan == 0)
        v = l.fp16 ? 0x3C00 : 1;
      else
        v = l.fp16 ? rng.Code() : uint16_t(int16_t(int8_t(rng.Next())));
    }
  }
  return w;
}

// The staging region's bytes: directory entry p at 8 p = group address | beats << 32; the groups
// from 8 passes on (rounded up to 8), back to back, each EncodeKernelGroup's words.
std::vector<uint8_t> ExpectedStage(const Layer& l, uint32_t stage, const std::vector<std::vector<uint16_t>>& w) {
  std::vector<std::vector<uint32_t>> groups;
  for (int p = 0; p < l.passes; ++p) {
    const int gi = p / l.ppg, pg = p % l.ppg;
    const int nk = pg == l.ppg - 1 ? l.nk_last : l.nk_full;
    oracle::KernelGroup g;
    g.spec.format = l.fp16 ? oracle::KernelFormat::kFp16 : oracle::KernelFormat::kRaw8;
    g.spec.params = l.params;
    g.steps = l.steps;
    for (int k = 0; k < nk; ++k) {
      const int co = gi * l.per + pg * l.nk_full + k;
      g.weights.push_back(w[size_t(co)]);
      if (l.params) g.params.push_back({l.scale, l.bias_in ? oracle::Fp16ToFp32(l.biases[size_t(co)]) : l.bias});
    }
    groups.push_back(oracle::EncodeKernelGroup(&g));
  }
  std::vector<uint8_t> out(size_t(8 * l.passes), 0);
  for (int p = 0; p < l.passes; ++p) {
    const std::vector<uint32_t>& g = groups[size_t(p)];
    while (out.size() % 8) out.push_back(0);
    const uint64_t entry = uint64_t(stage + uint32_t(out.size())) | uint64_t((g.size() + 1) / 2) << 32;
    for (int i = 0; i < 8; ++i) out[size_t(8 * p + i)] = uint8_t(entry >> (8 * i));
    for (size_t i = 0; i < g.size(); ++i) {
      for (int j = 0; j < 4; ++j) out.push_back(uint8_t(g[i] >> (8 * j)));
    }
    while (out.size() % 8) out.push_back(0);
  }
  return out;
}

// ---------------------------------------------------------------- the memory image

struct Scene {
  Layer layer;
  std::vector<std::vector<uint16_t>> w;
  uint32_t chan[16] = {};  // chan_base_i
  uint32_t stage = 0;
  uint32_t mem_base = 0;      // the image's first byte
  std::vector<uint8_t> mem;   // junk, the raw kernels, the staging region's old contents
  std::vector<uint8_t> want;  // the staging region after the job
  // read ranges [lo, hi): each kernel's bytes rounded to beats
  std::vector<std::pair<uint32_t, uint32_t>> kernels;
};

// Channel bases and the staging region at random 64-aligned places, in random order with random
// gaps, in an image of junk; channels that hold no kernel (K > Cout, or c >= K) get junk bases.
Scene MakeScene(const Layer& layer, Rng& rng) {
  Scene s;
  s.layer = layer;
  if (s.layer.nchan == 0) s.layer.bias_in = false;  // a per-element pass has no blocks
  Derive(&s.layer);
  const Layer& l = s.layer;
  s.w = RandomKernels(l, rng);
  const uint32_t kbytes = l.KBytes();
  struct Item {
    int chan;  // -1: the staging region
    uint32_t bytes;
  };
  std::vector<Item> items;
  for (int c = 0; c < l.nchan && c < l.Cout(); ++c) {
    const uint32_t blocks = uint32_t((l.Cout() - c + l.nchan - 1) / l.nchan);
    items.push_back({c, blocks * kbytes});
  }
  s.want = ExpectedStage(l, 0, s.w);  // its size (addresses fixed below)
  items.push_back({-1, uint32_t(s.want.size())});
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.Below(uint32_t(i))]);
  s.mem_base = 0x10000 + 64 * rng.Below(0x4000);
  uint32_t at = s.mem_base + 64 * rng.Below(4);
  for (const Item& it : items) {
    if (it.chan < 0)
      s.stage = at;
    else
      s.chan[it.chan] = at;
    at += (it.bytes + 63) / 64 * 64 + 64 * rng.Below(rng.Below(2) ? 1 : 5);
  }
  s.mem.resize(at + 64 * rng.Below(3) - s.mem_base);
  for (auto& b : s.mem) b = uint8_t(rng.Next());
  for (int c = 0; c < 16; ++c) {
    if (c >= l.nchan || c >= l.Cout()) s.chan[c] = uint32_t(rng.Next()) & (rng.Below(2) ? ~63u : ~0u);
  }
  if (l.nchan > 0) {
    const int eb = l.Eb();
    for (int co = 0; co < l.Cout(); ++co) {
      const uint32_t base = s.chan[co % l.nchan] + uint32_t(co / l.nchan) * kbytes;
      for (int st = -l.Lead(); st < l.steps; ++st) {
        const uint16_t v = st < 0 ? l.biases[size_t(co)] : s.w[size_t(co)][size_t(st)];
        const uint32_t at = base - s.mem_base + uint32_t(eb * (st + l.Lead()));
        s.mem[at] = uint8_t(v);
        if (eb == 2) s.mem[at + 1] = uint8_t(v >> 8);
      }
      s.kernels.push_back({base, base + uint32_t(((l.steps + l.Lead()) * eb + 7) / 8 * 8)});
    }
  }
  s.want = ExpectedStage(l, s.stage, s.w);
  return s;
}

// ---------------------------------------------------------------- the bench

// The kernel DMA's random traffic: latency up to 8.
constexpr test::TrafficLimits kLimits{8, 60, 60, true, false};

struct JobResult {
  uint64_t reads = 0, writes = 0;
  int dones = 0;
  uint64_t end_cycle = 0;    // done_o, from the start cycle
  uint64_t last_write = 0;   // the cycle the last write was taken
  std::vector<uint8_t> mem;  // the image after the job
};

// One cycle's outputs, with don't-care payloads masked: what the X seed may not change.
std::string Outputs(const Vane_td_kdma& d) {
  char b[128];
  std::snprintf(b, sizeof b, "%d %d | %d %08x | %d %08x %016llx", d.busy_o, d.done_o, d.rd_valid_o,
                d.rd_valid_o ? d.rd_addr_o : 0, d.wr_valid_o, d.wr_valid_o ? d.wr_addr_o : 0,
                (unsigned long long)(d.wr_valid_o ? d.wr_data_o : 0));
  return b;
}

// The configuration inputs of the layer (start_i aside); `junk`: random values instead (the
// block must have sampled them at start_i).
void DriveConfig(Vane_td_kdma& d, const Scene& s, bool junk, Rng& rng) {
  const Layer& l = s.layer;
  d.stage_i = junk ? uint32_t(rng.Next()) : s.stage;
  for (int c = 0; c < 16; ++c) d.chan_base_i[c] = junk ? uint32_t(rng.Next()) : s.chan[c];
  d.nchan_i = junk ? rng.Below(32) : uint32_t(l.nchan);
  d.steps_i = junk ? rng.Below(65536) : uint32_t(l.steps + l.Lead());
  d.bias_in_i = junk ? rng.Below(2) : l.bias_in;
  d.fp16_i = junk ? rng.Below(2) : l.fp16;
  d.per_i = junk ? rng.Below(1024) : uint32_t(l.per);
  d.nk_full_i = junk ? rng.Below(16) : uint32_t(l.nk_full);
  d.ppg_i = junk ? rng.Below(1024) : uint32_t(l.ppg);
  d.nk_last_i = junk ? rng.Below(16) : uint32_t(l.nk_last);
  d.passes_i = junk ? rng.Below(2048) : uint32_t(l.passes);
  d.params_i = junk ? rng.Below(2) : l.params;
  d.scale_i = junk ? rng.Below(65536) : l.scale;
  d.bias_i = junk ? uint32_t(rng.Next()) : l.bias;
}

void Idle(Vane_td_kdma& d) {
  d.start_i = 0;
  d.rs_valid_i = 0;
  d.rd_ready_i = 1;
  d.wr_ready_i = 1;
}

void PowerUp(Sim<Vane_td_kdma>& sim) {
  Idle(sim.dut());
  sim.Reset();
  sim.Eval();
  EXPECT_FALSE(sim.dut().busy_o || sim.dut().done_o || sim.dut().rd_valid_o || sim.dut().wr_valid_o) << "after reset";
}

// One job from start_i to done_o and the drain after it (kTail quiet cycles). Checks the port
// protocols: a request or a write offered and not taken is offered again unchanged; reads only
// inside the raw kernels (none for a per-element pass); writes only inside the staging region,
// each beat once; done_o once, the cycle after the last write was taken. Returns false when
// `cut` cycles of the job have run (the job is left where it is).
constexpr int kTail = 24;

bool RunJob(Sim<Vane_td_kdma>& sim, const Scene& s, const Traffic& tr, Rng& rng, JobResult* res,
            uint64_t cut = ~uint64_t(0), std::vector<std::string>* trace = nullptr) {
  Vane_td_kdma& d = sim.dut();
  const Layer& l = s.layer;
  res->mem = s.mem;
  Idle(d);
  DriveConfig(d, s, true, rng);
  test::StartDelay(sim, tr, rng, [] {});
  const uint64_t c0 = sim.cycles();
  test::ReadPort port;
  test::WritePort wport;
  std::vector<int> written(s.want.size() / 8, 0);
  uint64_t ended_at = ~uint64_t(0), last_write = ~uint64_t(0);
  const uint64_t limit = 200000 + 64 * uint64_t(l.Cout()) * uint64_t(l.steps);
  for (;;) {
    const uint64_t now = sim.cycles() - c0;
    if (now >= cut) return false;
    d.start_i = now == 0;
    DriveConfig(d, s, now != 0, rng);
    d.rd_ready_i = int(rng.Below(100)) >= tr.rd_stall_pct;
    d.wr_ready_i = int(rng.Below(100)) >= tr.wr_stall_pct;
    const bool answer = port.Due(now);
    d.rs_valid_i = answer;
    if (answer) {
      uint64_t v = 0;
      const uint32_t a = port.DueAddr();
      for (int b = 0; b < 8; ++b) v |= uint64_t(res->mem[a - s.mem_base + uint32_t(b)]) << (8 * b);
      d.rs_data_i = v;
    } else {
      d.rs_data_i = rng.Next();
    }
    sim.Eval();
    if (trace) trace->push_back(Outputs(d));
    if (d.rd_valid_o) {
      const uint32_t a = d.rd_addr_o;
      bool inside = false;
      for (const auto& [lo, hi] : s.kernels) inside |= a >= lo && a < hi;
      EXPECT_EQ(a % 8, 0u) << "cycle " << now << ": unaligned read 0x" << std::hex << a;
      if (!inside) {
        ADD_FAILURE() << "cycle " << now << ": read 0x" << std::hex << a << " outside the raw kernels";
        return false;
      }
    }
    if (port.Observe(now, d.rd_valid_o, d.rd_addr_o, d.rd_ready_i, tr, rng)) ++res->reads;
    if (answer) port.Answered();
    wport.Observe(now, d.wr_valid_o, d.wr_ready_i,
                  d.wr_valid_o
                      ? "address " + std::to_string(d.wr_addr_o) + " data " + std::to_string(uint64_t(d.wr_data_o))
                      : std::string());
    if (d.wr_valid_o) {
      const uint32_t a = d.wr_addr_o;
      const uint64_t v = d.wr_data_o;
      EXPECT_EQ(ended_at, ~uint64_t(0)) << "a write after done_o";
      if (a % 8 != 0 || a < s.stage || a - s.stage >= s.want.size()) {
        ADD_FAILURE() << "cycle " << now << ": write 0x" << std::hex << a << " outside the staging region [0x"
                      << s.stage << ", 0x" << s.stage + s.want.size() << ")";
        return false;
      }
      if (d.wr_ready_i) {
        for (int b = 0; b < 8; ++b) res->mem[a - s.mem_base + uint32_t(b)] = uint8_t(v >> (8 * b));
        EXPECT_EQ(written[(a - s.stage) / 8]++, 0)
            << "cycle " << now << ": beat 0x" << std::hex << a << " written twice";
        ++res->writes;
        last_write = now;
      }
    }
    if (d.done_o) {
      ++res->dones;
      EXPECT_EQ(now, last_write + 1) << "done_o is not the cycle after the last write was taken";
      if (ended_at == ~uint64_t(0)) ended_at = now, res->end_cycle = now, res->last_write = last_write;
    }
    if (ended_at != ~uint64_t(0) && !d.busy_o) break;
    if (now > limit) {
      ADD_FAILURE() << "the job did not end in " << limit << " cycles (" << res->writes << " writes, " << res->reads
                    << " reads)";
      return false;
    }
    sim.Tick();
  }
  EXPECT_TRUE(port.Idle()) << "done_o with reads in flight";
  for (int q = 0; q < kTail; ++q) {
    sim.Tick();
    Idle(d);
    DriveConfig(d, s, true, rng);
    d.rd_ready_i = rng.Below(2);
    d.wr_ready_i = rng.Below(2);
    sim.Eval();
    if (trace) trace->push_back(Outputs(d));
    EXPECT_FALSE(d.busy_o || d.rd_valid_o || d.wr_valid_o || d.done_o) << q << " cycles after the job ended";
  }
  sim.Tick();
  return true;
}

// The image after the job: the staging region equals the reference, every other byte is as it
// was; at most a few mismatches reported.
void ExpectImage(const Scene& s, const JobResult& r, const std::string& what) {
  ASSERT_EQ(r.mem.size(), s.mem.size());
  int bad = 0;
  const uint32_t lo = s.stage - s.mem_base, hi = lo + uint32_t(s.want.size());
  for (uint32_t i = 0; i < r.mem.size() && bad < 5; ++i) {
    const uint8_t want = i >= lo && i < hi ? s.want[i - lo] : s.mem[i];
    if (r.mem[i] != want) {
      const uint32_t a = s.mem_base + i;
      char b[160];
      if (i >= lo && i < hi) {
        const uint32_t off = i - lo;
        std::snprintf(b, sizeof b, "byte 0x%x (%s +0x%x of the staging region) is 0x%02x, expected 0x%02x", a,
                      off < uint32_t(8 * s.layer.passes) ? "directory" : "groups", off, r.mem[i], want);
      } else {
        std::snprintf(b, sizeof b, "byte 0x%x outside the staging region changed to 0x%02x", a, r.mem[i]);
      }
      ADD_FAILURE() << what << ": " << b;
      ++bad;
    }
  }
}

void RunExact(Sim<Vane_td_kdma>& sim, const Scene& s, const Traffic& tr, Rng& rng, const std::string& what,
              JobResult* out = nullptr) {
  JobResult r;
  ASSERT_TRUE(RunJob(sim, s, tr, rng, &r)) << what;
  ExpectImage(s, r, what);
  EXPECT_EQ(r.dones, 1) << what << ": done_o pulses";
  EXPECT_EQ(r.writes, s.want.size() / 8) << what << ": writes (one per beat of the staging region)";
  if (s.layer.nchan == 0) {
    EXPECT_EQ(r.reads, 0u) << what << ": a per-element pass reads nothing";
  }
  if (out) *out = std::move(r);
}

Layer RandomLayer(Rng& rng, bool long_kernels) {
  Layer l;
  l.nchan = 1 + int(rng.Below(16));
  l.steps = long_kernels ? 300 + int(rng.Below(3700)) : 1 + int(rng.Below(rng.Below(4) ? 300 : 12));
  l.fp16 = rng.Below(2);
  l.per = 1 + int(rng.Below(rng.Below(3) ? 40 : 9));
  l.groups = 1 + int(rng.Below(4));
  if (long_kernels) l.per = 1 + int(rng.Below(12)), l.groups = 1 + int(rng.Below(2));
  l.params = rng.Below(2);
  l.scale = rng.Code();
  l.bias = uint32_t(rng.Next());
  if (l.fp16 && l.params && rng.Below(3) == 0) {  // the biases in the blocks, finite
    l.bias_in = true;
    for (int co = 0; co < l.per * l.groups; ++co) {
      uint16_t b = rng.Code();
      if ((b & 0x7C00) == 0x7C00) b &= 0xBBFF;
      l.biases.push_back(b);
    }
  }
  return l;
}

// ---------------------------------------------------------------- smoke and directed

// N-6: a layer of 3 kernels of 5 steps in one pass, K = 2, ready memory, both formats, with
// and without parameter records. For fp16 without records the reference itself is checked
// against the layout written out by hand: directory entry = stage + 8 | 5 beats << 32, then the
// header word 0x1000 (fp16, nk - 1 = 2 at bit 11), w[0][0] w[1][0] w[2][0] w[0][1] ... w[2][4],
// 16 bits each, zeros to 5 beats.
TEST(RtlTdKdma, N6_SmallLayerOnePass) {
  const uint64_t seed = test::TestSeed(0x7DA01);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_kdma> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  for (bool fp16 : {true, false}) {
    for (bool params : {false, true}) {
      Layer l;
      l.nchan = 2;
      l.steps = 5;
      l.fp16 = fp16;
      l.per = 3;
      l.params = params;
      l.scale = 0x4000;
      l.bias = 0x3F800000;
      const Scene s = MakeScene(l, rng);
      if (fp16 && !params) {
        std::vector<uint8_t> hand;
        const uint64_t entry = uint64_t(s.stage + 8) | uint64_t(5) << 32;
        for (int i = 0; i < 8; ++i) hand.push_back(uint8_t(entry >> (8 * i)));
        for (uint8_t b : {0x00, 0x10, 0x00, 0x00}) hand.push_back(b);
        for (int st = 0; st < 5; ++st) {
          for (int k = 0; k < 3; ++k) {
            hand.push_back(uint8_t(s.w[size_t(k)][size_t(st)]));
            hand.push_back(uint8_t(s.w[size_t(k)][size_t(st)] >> 8));
          }
        }
        hand.resize(8 + 5 * 8, 0);
        EXPECT_EQ(s.want, hand) << "the reference layout";
      }
      RunExact(sim, s, Traffic{}, rng, Describe(s.layer));
    }
  }
}

// N-6 / A8: every nk (1 .. 8, the last pass of a group short or not), every K against Cout
// (K = 1, K = Cout, K > Cout), steps across the block and beat boundaries (1 .. 9, 31 .. 33,
// 63 .. 65), both formats, with and without parameter records.
TEST(RtlTdKdma, N6_A8_DirectedShapes) {
  const uint64_t seed = test::TestSeed(0x7DA02);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_kdma> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  int jobs = 0;
  for (int per : {1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17}) {
    for (int steps : {1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 63, 64, 65}) {
      Layer l;
      l.per = per;
      l.groups = 1 + int(rng.Below(3));
      l.steps = steps;
      l.fp16 = rng.Below(2);
      l.params = rng.Below(2);
      l.scale = rng.Code();
      l.bias = uint32_t(rng.Next());
      const int kc[4] = {1, per * l.groups, 16, 1 + int(rng.Below(16))};
      l.nchan = std::min(16, kc[rng.Below(4)]);
      const Scene s = MakeScene(l, rng);
      RunExact(sim, s, rng.Below(2) ? Traffic{} : RandomTraffic(rng, kLimits), rng, Describe(s.layer));
      ++jobs;
      if (HasFailure()) return;
    }
  }
  std::printf("seed %llu: %d directed layers\n", (unsigned long long)seed, jobs);
}

// N-3.1 / A19 (NE.MACCfg.BiasMode 1): each kernel's block starts with its fp16 bias; the bias
// column goes into the kernel's parameter record as fp32 (exact) and the values start after it.
// Blocks of every length around a beat (3 .. 9 steps with the bias: the bias and the first values
// in one beat, a kernel ending on a beat boundary), 1..16 channels, any traffic; an inf or NaN
// bias anywhere raises err_o (sticky until the next start), a finite one never.
TEST(RtlTdKdma, N3_1_BiasesInTheBlocksGoIntoTheRecordsAndANonFiniteOneIsReported) {
  const uint64_t seed = test::TestSeed(0x7DA09);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_kdma> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  int bad_jobs = 0;
  for (int it = 0; it < 120 && !HasFailure(); ++it) {
    Layer l;
    l.fp16 = true;
    l.params = true;
    l.bias_in = true;
    l.steps = it < 40 ? 1 + it % 9 : 1 + int(rng.Below(70));
    l.per = 1 + int(rng.Below(20));
    l.groups = 1 + int(rng.Below(3));
    l.nchan = 1 + int(rng.Below(16));
    l.scale = rng.Code();
    for (int co = 0; co < l.per * l.groups; ++co) {
      uint16_t b = rng.Code();
      if ((b & 0x7C00) == 0x7C00) b &= 0xBBFF;
      l.biases.push_back(b);
    }
    const bool bad = it % 4 == 3;
    if (bad)
      l.biases[rng.Below(uint32_t(l.biases.size()))] = rng.Below(2) ? 0x7C00 : uint16_t(0xFC01 + rng.Below(0x3FF));
    bad_jobs += bad;
    const Scene s = MakeScene(l, rng);
    const Traffic tr = rng.Below(2) ? Traffic{} : RandomTraffic(rng, kLimits);
    if (bad) {  // the records' contents do not matter: the set-up refuses the layer (code 4)
      JobResult r;
      ASSERT_TRUE(RunJob(sim, s, tr, rng, &r)) << Describe(s.layer);
    } else {
      RunExact(sim, s, tr, rng, Describe(s.layer));
    }
    sim.Eval();
    EXPECT_EQ(bool(sim.dut().err_o), bad) << Describe(s.layer) << ": err_o after the job";
  }
  EXPECT_EQ(bad_jobs, 30);
}

// N-6 / A9: the per-element pass (nchan_i = 0) makes no read; every weight is the unit (fp16
// 0x3C00, int8 1). Its real shape (per 1, steps 1, one pass per channel, up to 1023) and other
// shapes, with and without parameter records.
TEST(RtlTdKdma, N6_PerElementPassReadsNothingAndWritesUnitWeights) {
  const uint64_t seed = test::TestSeed(0x7DA03);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_kdma> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  for (int it = 0; it < 40 && !HasFailure(); ++it) {
    Layer l;
    l.nchan = 0;
    l.fp16 = rng.Below(2);
    l.params = rng.Below(2);
    l.scale = rng.Code();
    l.bias = uint32_t(rng.Next());
    if (it < 20) {
      l.per = 1;
      l.steps = 1;
      l.groups = it == 0 ? 1023 : 1 + int(rng.Below(it < 10 ? 8 : 300));
    } else {
      l.per = 1 + int(rng.Below(20));
      l.groups = 1 + int(rng.Below(3));
      l.steps = 1 + int(rng.Below(100));
    }
    const Scene s = MakeScene(l, rng);
    RunExact(sim, s, RandomTraffic(rng, kLimits), rng, "per-element pass, " + Describe(s.layer));
  }
}

// ---------------------------------------------------------------- random layers

// N-6 / A8 under traffic: 300 random layers (K 1-16, steps 1-300 and a few of 300-4000, fp16
// or int8, per 1-40, groups 1-4, parameter records on or off with random scale and bias), the
// channels and the staging region scattered in an image of junk; read latency 1-8 (answers in
// order), rd_ready_i and wr_ready_i low at random, random gaps before start_i, the configuration
// inputs random after start_i. One model for all the layers.
TEST(RtlTdKdma, N6_A8_RandomLayersUnderLatencyAndBackPressure) {
  const uint64_t seed = test::TestSeed(0x7DA04);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_kdma> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  const int n = 300 * int(test::SoakFactor());
  uint64_t values = 0, passes = 0, reads = 0;
  int longs = 0;
  for (int it = 0; it < n && !HasFailure(); ++it) {
    const bool long_kernels = it % 30 == 29;
    const Scene s = MakeScene(RandomLayer(rng, long_kernels), rng);
    const Traffic tr = RandomTraffic(rng, kLimits);
    JobResult r;
    RunExact(sim, s, tr, rng, "iteration " + std::to_string(it) + ": " + Describe(s.layer) + ", " + Describe(tr), &r);
    values += uint64_t(s.layer.Cout()) * uint64_t(s.layer.steps);
    passes += uint64_t(s.layer.passes);
    reads += r.reads;
    longs += long_kernels;
  }
  std::printf("seed %llu: %d layers (%d long), %llu passes, %llu values, %llu reads\n", (unsigned long long)seed, n,
              longs, (unsigned long long)passes, (unsigned long long)values, (unsigned long long)reads);
}

// ---------------------------------------------------------------- X seeds and reset

// N-7.1: the power-up state of the flops (--x-initial unique, seeds 1..4) changes no output of
// a job, cycle for cycle, under the same traffic.
TEST(RtlTdKdma, N7_1_XSeedsDoNotChangeAnyOutput) {
  const uint64_t seed = test::TestSeed(0x7DA05);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng pick(seed);
  for (int it = 0; it < 20 && !HasFailure(); ++it) {
    Layer l = RandomLayer(pick, false);
    if (it % 5 == 4) l.nchan = 0;
    const Scene s = MakeScene(l, pick);
    const Traffic tr = RandomTraffic(pick, kLimits);
    const uint64_t traffic = pick.Next();
    std::vector<std::string> first;
    for (uint32_t xs : {1u, 2u, 3u, 4u}) {
      Sim<Vane_td_kdma> sim(kTop, harness::CurrentTestStem() + ".x" + std::to_string(xs), xs);
      PowerUp(sim);
      Rng rng(traffic);
      std::vector<std::string> trace;
      JobResult r;
      ASSERT_TRUE(RunJob(sim, s, tr, rng, &r, ~uint64_t(0), &trace));
      ExpectImage(s, r, "x seed " + std::to_string(xs) + ", " + Describe(s.layer));
      test::ExpectSameAsXSeed1(xs, trace, &first, "job");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// N-7.1: rst_ni in the middle of a job (early: the first 64 cycles; late: the last 64 before
// done_o; or anywhere), held 1-16 cycles while the inputs toggle at random (start, answers,
// ready), then 0-24 quiet cycles in which the block is idle and offers nothing, then a fresh job
// on another layer: the image exact, done_o once. The memory model drops the answers of the
// interrupted job (it is reset with the block).
TEST(RtlTdKdma, N7_1_ResetMidJobThenAFreshJobIsExact) {
  const uint64_t seed = test::TestSeed(0x7DA06);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const int n = 300 * int(test::SoakFactor());
  int early = 0, late = 0;
  for (int it = 0; it < n && !HasFailure(); ++it) {
    const uint32_t xs = 1 + rng.Below(1000);
    Layer la = RandomLayer(rng, false), lb = RandomLayer(rng, false);
    if (rng.Below(6) == 0) la.nchan = 0;
    if (rng.Below(6) == 0) lb.nchan = 0;
    const Scene a = MakeScene(la, rng), b = MakeScene(lb, rng);
    Traffic tr = RandomTraffic(rng, kLimits);
    tr.start_delay_max = 0;
    const uint64_t traffic = rng.Next();
    // the probe: job A to its end on a model of the same X seed, to know its length
    uint64_t len = 0;
    {
      Sim<Vane_td_kdma> probe(kTop, harness::CurrentTestStem() + ".probe", xs);
      PowerUp(probe);
      Rng t(traffic);
      JobResult r;
      ASSERT_TRUE(RunJob(probe, a, tr, t, &r));
      len = r.end_cycle;
    }
    ASSERT_GT(len, 4u);
    const uint32_t where = rng.Below(4);
    const uint64_t edge = std::min<uint64_t>(64, len - 1);
    const uint64_t cut = where == 0   ? 1 + rng.Below(uint32_t(edge))
                         : where == 1 ? len - rng.Below(uint32_t(edge))
                                      : 1 + rng.Below(uint32_t(len - 1));
    early += where == 0;
    late += where == 1;
    const int hold = 1 + int(rng.Below(16)), quiet = int(rng.Below(25));
    SCOPED_TRACE("iteration " + std::to_string(it) + ", x seed " + std::to_string(xs) + ", cut at cycle " +
                 std::to_string(cut) + " of " + std::to_string(len) + ", hold " + std::to_string(hold) +
                 ", A: " + Describe(a.layer) + ", B: " + Describe(b.layer));
    Sim<Vane_td_kdma> sim(kTop, harness::CurrentTestStem(), xs);
    PowerUp(sim);
    {
      Rng t(traffic);
      JobResult r;
      ASSERT_FALSE(RunJob(sim, a, tr, t, &r, cut)) << "job A ended";
      EXPECT_EQ(r.dones, 0);
    }
    auto& d = sim.dut();
    sim.Reset(hold, [&] {
      d.start_i = rng.Below(2);
      DriveConfig(d, a, true, rng);
      d.rs_valid_i = rng.Below(2);
      d.rs_data_i = rng.Next();
      d.rd_ready_i = rng.Below(2);
      d.wr_ready_i = rng.Below(2);
    });
    for (int q = 0; q <= quiet; ++q) {
      Idle(d);
      d.rd_ready_i = rng.Below(2);
      d.wr_ready_i = rng.Below(2);
      sim.Eval();
      ASSERT_FALSE(d.busy_o || d.rd_valid_o || d.wr_valid_o || d.done_o)
          << q << " cycles after the reset: " << Outputs(d);
      sim.Tick();
    }
    RunExact(sim, b, tr, rng, "job B after the reset");
  }
  std::printf("seed %llu: %d resets (%d early, %d late)\n", (unsigned long long)seed, n, early, late);
}

// ---------------------------------------------------------------- cycle figures

// The figures of the RTL's header comment, with the memory always ready at a fixed latency
// `lat` and the write port always ready. V: a pass's column cycles and last beats.
uint64_t PassValueCycles(const Layer& l, int nk) {
  const int lc = nk * l.Eb(), par = l.params ? 1 : 0;
  if (lc <= 8) return uint64_t(l.steps) + ((4 + (l.steps - 1) * lc) % 8 + lc > 8 ? 2 : 1);
  return uint64_t((4 + 8 * par + l.steps * lc + 7) / 8 + 1 - par);
}

int PassNk(const Layer& l, int p) { return p % l.ppg == l.ppg - 1 ? l.nk_last : l.nk_full; }

// E: the column side's job length, done_o included.
uint64_t ColumnCycles(const Layer& l, int lat) {
  uint64_t c = 3;
  for (int p = 0; p < l.passes; ++p) {
    const int nk = PassNk(l, p), par = l.params ? 1 : 0;
    const int lead = p > 0 ? 1 + nk * par : l.nchan == 0 ? 2 + nk * par : 5 + lat + nk;
    c += uint64_t(lead) + PassValueCycles(l, nk);
  }
  return c;
}

// R: the reads, one beat of every row per block.
uint64_t Reads(const Layer& l) {
  if (l.nchan == 0) return 0;
  const int w = l.fp16 ? 4 : 8;
  uint64_t r = 0;
  for (int p = 0; p < l.passes; ++p) r += uint64_t(PassNk(l, p)) * uint64_t((l.steps + w - 1) / w);
  return r;
}

JobResult ReadyRun(const Scene& s, int lat, Rng& rng) {
  Sim<Vane_td_kdma> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  Traffic tr;
  tr.min_latency = tr.max_latency = lat;
  JobResult r;
  RunExact(sim, s, tr, rng, Describe(s.layer) + ", latency " + std::to_string(lat), &r);
  return r;
}

// Rates: one pass of 4096 steps per nk and format. Up to latency Depth - 3 = 5 the job takes
// exactly E cycles, and the values go out at min(nk, 4) fp16 / min(nk, 8) int8 a cycle (the
// pass's steps nk values over its V cycles); latency 8 is printed for the record.
TEST(RtlTdKdma, N6_CyclesValuesPerCycleOnOneLongPass) {
  const uint64_t seed = test::TestSeed(0x7DA07);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  std::printf("format  nk  latency  cycles (E)     values/cycle (stated)\n");
  for (bool fp16 : {true, false}) {
    for (int nk = 1; nk <= 8; ++nk) {
      for (int lat : {1, 5, 8}) {
        Layer l;
        l.nchan = 1 + int(rng.Below(16));
        l.steps = 4096;
        l.fp16 = fp16;
        l.per = nk;
        const Scene s = MakeScene(l, rng);
        const JobResult r = ReadyRun(s, lat, rng);
        const uint64_t cycles = r.end_cycle + 1, e = ColumnCycles(s.layer, lat);
        const uint64_t other = e - PassValueCycles(s.layer, nk);
        const double rate = double(nk) * double(l.steps) / double(cycles - other);
        const int stated = std::min(nk, fp16 ? 4 : 8);
        std::printf("%-6s  %2d  %7d  %6llu (%6llu)  %6.3f (%d)\n", fp16 ? "fp16" : "int8", nk, lat,
                    (unsigned long long)cycles, (unsigned long long)e, rate, stated);
        const std::string key =
            std::string(fp16 ? "fp16" : "int8") + "_nk" + std::to_string(nk) + "_L" + std::to_string(lat);
        RecordProperty(key + "_cycles", std::to_string(cycles));
        RecordProperty(key + "_values_per_cycle", std::to_string(rate));
        if (lat <= kDepth - 3) {
          EXPECT_EQ(cycles, e) << key;
          EXPECT_GE(rate, stated * 0.999) << key;
        }
        EXPECT_LE(rate, stated * 1.0001) << key;
      }
    }
  }
}

// Job length: E exactly when every pass has the same nk and steps is a multiple of W (4 fp16, 8
// int8), per-element passes included; for any layer max(E, R + L + 8) <= cycles <=
// max(E, R + L + 8) + sum of nk / 2 (the reads bound short kernels; a block of few columns
// followed by one of many rows waits while the rows move in).
TEST(RtlTdKdma, N6_CyclesJobLength) {
  const uint64_t seed = test::TestSeed(0x7DA08);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  int exact = 0, bounded = 0;
  uint64_t worst = 0;
  for (int it = 0; it < 300 && !HasFailure(); ++it) {
    Layer l = RandomLayer(rng, it % 30 == 29);
    l.bias_in = false;  // E and R count blocks without a bias column (the N3_1 test runs those)
    if (it % 10 == 0) l.nchan = 0;
    const bool uniform = it % 2 == 0;
    if (uniform) {
      l.steps = (l.steps + 7) / 8 * (l.fp16 && rng.Below(2) ? 4 : 8);
      l.per = rng.Below(2) ? 1 + int(rng.Below(8)) : 8 * (1 + int(rng.Below(4)));
    }
    const Scene s = MakeScene(l, rng);
    const int lat = 1 + int(rng.Below(kDepth - 3));
    const JobResult r = ReadyRun(s, lat, rng);
    const uint64_t cycles = r.end_cycle + 1, e = ColumnCycles(s.layer, lat);
    uint64_t sum_nk = 0;
    for (int p = 0; p < s.layer.passes; ++p) sum_nk += uint64_t(PassNk(s.layer, p));
    const uint64_t lo = std::max(e, s.layer.nchan ? Reads(s.layer) + uint64_t(lat) + 8 : 0);
    const std::string what = Describe(s.layer) + ", latency " + std::to_string(lat);
    if (uniform) {
      EXPECT_EQ(cycles, e) << what;
      ++exact;
    } else {
      EXPECT_GE(cycles, lo) << what;
      EXPECT_LE(cycles, lo + sum_nk / 2) << what;
      worst = std::max(worst, cycles - lo);
      ++bounded;
    }
  }
  std::printf("seed %llu: %d layers exactly E, %d within the bounds (at most %llu cycles over the lower)\n",
              (unsigned long long)seed, exact, bounded, (unsigned long long)worst);
}

}  // namespace
}  // namespace ane
