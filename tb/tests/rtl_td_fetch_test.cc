// SPDX-License-Identifier: Apache-2.0
// The TD fetch (rtl/ane_td_fetch.sv, docs/td_fetch.md) against the C++ TD library: a chain of
// task descriptors placed in a memory model becomes, on the write port, every header word and
// every stream data word of each TD, once, in TD order, with its register address (docs/td.md:
// the H13 layout, A1; a stream's count / 4 + 1 words to register address + 4 i, A2; the chain
// by EON and NextPointer, A14). The reference is tb/td (WalkChain, ReadTd, Td) and
// tb/regs/ane_regs.h kStreams, which share no code with the RTL.
//
// Order: the three real programs, directed chains, random chains under memory latency, random
// request-ready, write back-pressure and task_done delays, malformed chains (a bad stream
// header, a loop, a TD past the buffer, an unaligned NextPointer), X seeds and a reset in the
// middle of a walk, and the cycle figures of docs/td_fetch.md. Random tests print their seed
// on failure; rerun one with ANE_TEST_SEED=<seed> build/rtl_td_fetch_test --gtest_filter=...
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "Vane_td_fetch.h"
#include "Vane_td_fetch_max8.h"
#include "tb/harness/sim.h"
#include "tb/regs/ane_regs.h"
#include "tb/td/encode.h"
#include "tb/td/hwx.h"
#include "tb/td/td.h"
#include "tb/tests/td_bench.h"
#include "tb/tests/test_seed.h"
#include "tb/tests/xseed_trace.h"

namespace ane {
namespace {

namespace r = regs::td;
using harness::Sim;
using td::Td;
using test::Describe;
using test::Memory;
using test::RandomTraffic;
using test::ReadProgram;
using test::Rng;
using test::Traffic;

constexpr const char* kTop = "ane_td_fetch";
constexpr uint32_t kWritesPerTd = 150;  // 10 header words + the streams' data words

// err_code_o
enum ErrCode : uint32_t { kErrNone = 0, kErrStream = 1, kErrLimit = 2, kErrAlign = 3, kErrMaxTds = 4 };

// ---------------------------------------------------------------- the reference

struct Write {
  uint32_t addr = 0, data = 0;
  bool header = false;
  uint32_t td = 0;
  bool last = false;
  bool operator==(const Write& o) const {
    return std::tie(addr, data, header, td, last) == std::tie(o.addr, o.data, o.header, o.td, o.last);
  }
};

std::string Show(const Write& w) {
  char b[96];
  std::snprintf(b, sizeof b, "TD %u %s 0x%05x = 0x%08x%s", w.td, w.header ? "header" : "reg", w.addr, w.data,
                w.last ? " (last)" : "");
  return b;
}

// TD `index`'s writes: its header words (addresses 0 .. 0x24), then each stream's data words.
std::vector<Write> TdWrites(const Td& t, uint32_t index) {
  std::vector<Write> w;
  for (uint32_t i = 0; i < r::kHeaderWords; ++i) w.push_back({4 * i, t.words[i], true, index, false});
  for (const r::Stream& s : r::kStreams) {
    for (uint32_t i = 0; i < s.words; ++i) {
      w.push_back({s.reg_addr + 4 * i, t.words[s.td_offset / 4 + 1 + i], false, index, false});
    }
  }
  w.back().last = true;
  return w;
}

std::vector<Write> ChainWrites(const std::vector<Td>& tds) {
  std::vector<Write> w;
  for (size_t i = 0; i < tds.size(); ++i) {
    const std::vector<Write> t = TdWrites(tds[i], uint32_t(i));
    w.insert(w.end(), t.begin(), t.end());
  }
  return w;
}

uint32_t FieldMask(int field) {
  const uint32_t width = r::kFields[field].width;
  return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1;
}

// A TD with random contents and the seven stream headers in place: every named field at random
// (Td::Set), or every word outside the stream headers at random (unnamed bits too). EON 0.
Td RandomTd(Rng& rng) {
  Td t = Td::Blank();
  if (rng.Below(2)) {
    for (int f = 0; f < r::kNumFields; ++f) t.Set(f, rng.Next() & FieldMask(f));
  } else {
    bool is_header = false;
    for (uint32_t w = 0; w < td::kTdWords; ++w) {
      td::StreamOfWord(w, &is_header);
      if (!is_header) t.words[w] = uint32_t(rng.Next());
    }
  }
  t.Set(r::kHeader_0_EON, 0);
  return t;
}

// A chain of n TDs: TD 0 at offset 0, the others at distinct multiples of 0x300 or at random
// 4-aligned offsets that overlap no other TD, in random order in the buffer; the last has EON 1
// (and a random NextPointer, which must not be followed). `slack`: bytes after the last TD's end.
struct Chain {
  std::vector<Td> tds;       // in chain order, .at = offset from the base
  std::vector<uint8_t> buf;  // the buffer (limit_i = its size)
};

Chain RandomChain(Rng& rng, int n, bool stride_0x300, uint32_t slack) {
  Chain c;
  std::vector<uint32_t> at{0};
  const uint32_t span = uint32_t(n + 2) * r::kChainStride;
  while (int(at.size()) < n) {
    const uint32_t o = stride_0x300 ? (1 + rng.Below(uint32_t(n + 1))) * r::kChainStride : 4 * rng.Below(span / 4);
    bool clash = false;
    for (uint32_t a : at) clash |= o < a + r::kTdBytes && a < o + r::kTdBytes;
    if (!clash) at.push_back(o);
  }
  uint32_t end = 0;
  for (int i = 0; i < n; ++i) {
    Td t = RandomTd(rng);
    t.at = at[size_t(i)];
    if (i + 1 < n) {
      t.Set(r::kHeader_7_NextPointer, at[size_t(i) + 1]);
    } else {
      t.Set(r::kHeader_0_EON, 1);
      t.Set(r::kHeader_7_NextPointer, rng.Below(2) ? 0 : uint32_t(rng.Next()));
    }
    end = std::max(end, t.at + r::kTdBytes);
    c.tds.push_back(t);
  }
  c.buf = td::EncodeChain(c.tds, end + slack);
  return c;
}

// Writes the chain's TDs (after an edit of c.tds) back into its buffer.
void Reencode(Chain& c) { c.buf = td::EncodeChain(c.tds, uint32_t(c.buf.size())); }

// ---------------------------------------------------------------- the bench

// The fetch's random traffic: latency up to 12, task_done_i up to 200 cycles late.
constexpr test::TrafficLimits kLimits{12, 60, 60, false, true};

struct WalkResult {
  std::vector<Write> writes;
  std::vector<uint64_t> write_cycles;  // from the start cycle
  int dones = 0;
  bool error = false;
  uint32_t err_code = 0, err_stream = 0, err_td = 0, err_off = 0;
  uint64_t end_cycle = 0;  // done_o or error_o, from the start cycle
  uint64_t reads = 0;
};

// One cycle's outputs, with don't-care payloads masked (an address without a request, a write
// without valid): what the X seed may not change.
template <class M>
std::string Outputs(const M& d) {
  char b[160];
  std::snprintf(b, sizeof b, "%d %d %d %d/%u/%u/%u | %d %08x | %d %05x %08x %d %u %d", d.busy_o, d.done_o, d.error_o,
                d.err_code_o, d.err_stream_o, d.err_td_o, d.err_off_o, d.rd_valid_o, d.rd_valid_o ? d.rd_addr_o : 0,
                d.wr_valid_o, d.wr_valid_o ? d.wr_addr_o : 0, d.wr_valid_o ? d.wr_data_o : 0,
                d.wr_valid_o && d.wr_header_o, d.wr_valid_o ? d.wr_td_o : 0, d.wr_valid_o && d.wr_last_o);
  return b;
}

// The inputs of an idle cycle (no start, no answer, no task_done).
template <class M>
void Idle(M& d) {
  d.start_i = 0;
  d.rs_valid_i = 0;
  d.task_done_i = 0;
  d.rd_ready_i = 1;
  d.wr_ready_i = 1;
}

// One walk from start_i to done_o or error_o and the drain after it (busy_o low, then kTail quiet
// cycles: no request, no write, no done). Checks the port protocols on the way: a request or a
// write offered and not taken is offered again unchanged; answers only for accepted reads;
// reads inside the buffer. Stops early (returns false) when `cut` cycles of the walk have run.
constexpr int kTail = 24;

template <class M>
bool Walk(Sim<M>& sim, const Memory& mem, uint32_t limit, const Traffic& tr, Rng& rng, WalkResult* res,
          uint64_t cut = ~uint64_t(0), std::vector<std::string>* trace = nullptr) {
  M& d = sim.dut();
  Idle(d);
  test::StartDelay(sim, tr, rng, [] {});
  const uint64_t c0 = sim.cycles();
  test::ReadPort port;
  test::WritePort wport;
  uint64_t task_at = ~uint64_t(0), ended_at = ~uint64_t(0);
  bool task_owed = false;  // a TD's last write went out, its task_done_i has not been given yet
  const uint32_t lo = mem.base & ~7u, hi = mem.base + limit + 4;
  for (;;) {
    const uint64_t now = sim.cycles() - c0;
    if (now >= cut) return false;
    d.start_i = now == 0;
    d.base_i = mem.base;
    d.limit_i = limit;
    d.rd_ready_i = int(rng.Below(100)) >= tr.rd_stall_pct;
    d.wr_ready_i = int(rng.Below(100)) >= tr.wr_stall_pct;
    const bool answer = port.Due(now);
    d.rs_valid_i = answer;
    d.rs_data_i = answer ? mem.Beat(port.DueAddr()) : rng.Next();
    d.task_done_i = now == task_at;
    sim.Eval();
    if (trace) trace->push_back(Outputs(d));
    if (d.rd_valid_o) {
      EXPECT_EQ(d.rd_addr_o % 8, 0u) << "unaligned read";
      EXPECT_TRUE(d.rd_addr_o >= lo && d.rd_addr_o < hi) << "cycle " << now << ": read 0x" << std::hex << d.rd_addr_o
                                                         << " outside the TD buffer [0x" << lo << ", 0x" << hi << ")";
    }
    if (port.Observe(now, d.rd_valid_o, d.rd_addr_o, d.rd_ready_i, tr, rng)) ++res->reads;
    if (answer) port.Answered();
    const Write w{d.wr_addr_o, d.wr_data_o, bool(d.wr_header_o), d.wr_td_o, bool(d.wr_last_o)};
    wport.Observe(now, d.wr_valid_o, d.wr_ready_i, d.wr_valid_o ? Show(w) : std::string());
    if (d.wr_valid_o) {
      EXPECT_EQ(ended_at, ~uint64_t(0)) << "a write after the walk ended: " << Show(w);
      EXPECT_FALSE(task_owed) << "cycle " << now << ": " << Show(w) << " before the last TD's task_done_i";
      if (d.wr_ready_i) {
        res->writes.push_back(w);
        res->write_cycles.push_back(now);
        if (w.last) {
          task_at = now + 1 + (tr.task_delay_max ? rng.Below(uint32_t(tr.task_delay_max) + 1) : 0);
          task_owed = true;
        }
      }
    }
    if (d.done_o) {
      EXPECT_EQ(now, task_at + 1) << "done_o is not the cycle after the last TD's task_done_i";
      ++res->dones;
      if (ended_at == ~uint64_t(0)) ended_at = now, res->end_cycle = now;
    }
    if (d.error_o && !res->error && now > 0) {  // (in cycle 0: the last walk's, cleared by start_i)
      EXPECT_FALSE(task_owed) << "error_o before the previous TD's task_done_i";
      res->error = true;
      res->err_code = d.err_code_o;
      res->err_stream = d.err_stream_o;
      res->err_td = d.err_td_o;
      res->err_off = d.err_off_o;
      if (ended_at == ~uint64_t(0)) ended_at = now, res->end_cycle = now;
    }
    if (now == task_at) task_owed = false;
    if (ended_at != ~uint64_t(0) && !d.busy_o && port.Idle()) break;
    if (now > 200000) {
      ADD_FAILURE() << "the walk did not end in 200000 cycles (" << res->writes.size() << " writes)";
      return false;
    }
    sim.Tick();
  }
  // Quiet after the walk: nothing more comes out, busy_o stays low, error_o stays as it is.
  const bool error = d.error_o;
  for (int q = 0; q < kTail; ++q) {
    sim.Tick();
    Idle(d);
    d.task_done_i = rng.Below(4) == 0;  // a stray task_done_i is ignored
    sim.Eval();
    if (trace) trace->push_back(Outputs(d));
    EXPECT_FALSE(d.busy_o || d.rd_valid_o || d.wr_valid_o || d.done_o) << q << " cycles after the walk ended";
    EXPECT_EQ(bool(d.error_o), error) << "error_o changed after the walk";
  }
  sim.Tick();
  return true;
}

template <class M>
void PowerUp(Sim<M>& sim) {
  Idle(sim.dut());
  sim.dut().base_i = 0;
  sim.dut().limit_i = 0;
  sim.Reset();
  sim.Eval();
  EXPECT_FALSE(sim.dut().busy_o || sim.dut().error_o || sim.dut().done_o) << "after reset";
}

// A random base for the buffer: 4-aligned (either half of a beat).
uint32_t RandomBase(Rng& rng) { return 0x1000 + 4 * rng.Below(0x10000); }

// Compares a walk's writes with the expected ones; at most a few mismatches reported.
void ExpectWrites(const std::vector<Write>& got, const std::vector<Write>& want, const std::string& what) {
  EXPECT_EQ(got.size(), want.size()) << what << ": writes";
  int bad = 0;
  for (size_t i = 0; i < got.size() && i < want.size() && bad < 5; ++i) {
    if (!(got[i] == want[i])) {
      ADD_FAILURE() << what << ": write " << i << " is " << Show(got[i]) << ", expected " << Show(want[i]);
      ++bad;
    }
  }
}

// A whole walk of a good chain: exact writes, done_o once, no error.
template <class M>
void RunGoodChain(Sim<M>& sim, const Chain& c, uint32_t base, const Traffic& tr, Rng& rng, const std::string& what,
                  WalkResult* out = nullptr) {
  const std::vector<Td> ref = td::WalkChain(c.buf);  // the C++ reader's walk
  ASSERT_EQ(ref.size(), c.tds.size()) << what;
  WalkResult res;
  Memory mem{base, c.buf};
  ASSERT_TRUE(Walk(sim, mem, uint32_t(c.buf.size()), tr, rng, &res)) << what;
  ExpectWrites(res.writes, ChainWrites(ref), what);
  EXPECT_EQ(res.dones, 1) << what << ": done_o pulses";
  EXPECT_FALSE(res.error) << what << ": error code " << res.err_code << " at TD " << res.err_td;
  if (out) *out = res;
}

// ---------------------------------------------------------------- the real programs

// A1, A2: the three programs compiled by Apple's compiler, at random 4-aligned bases (both
// halves of a beat), under random traffic: every header word and data word, in order.
TEST(RtlTdFetch, TD_A1_A2_RealProgramsWriteEveryWordInOrder) {
  const uint64_t seed = test::TestSeed(0x7DF01);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  for (const char* name : {"relu.hwx", "sigmoid.hwx", "conv_twos.hwx"}) {
    const td::Hwx hwx = td::ParseHwx(ReadProgram(name));
    Chain c;
    c.buf = hwx.TdBytes();
    c.tds = td::WalkChain(c.buf);
    for (int i = 0; i < 4; ++i) {
      const uint32_t base = RandomBase(rng) | (i % 2 ? 4u : 0u);
      const Traffic tr = i == 0 ? Traffic{} : RandomTraffic(rng, kLimits);
      RunGoodChain(sim, c, base, tr, rng, std::string(name) + " at 0x" + std::to_string(base) + ", " + Describe(tr));
    }
  }
}

// A1: the real programs' streams go where the register description says: one write per word,
// the header words at 0 .. 0x24 flagged, the first data word of each stream at its register
// address, the 150th write flagged last.
TEST(RtlTdFetch, TD_A1_StreamsStartAtTheirRegisterAddresses) {
  const uint64_t seed = test::TestSeed(0x7DF09);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  const td::Hwx hwx = td::ParseHwx(ReadProgram("conv_twos.hwx"));
  const std::vector<uint8_t> buf = hwx.TdBytes();
  WalkResult res;
  ASSERT_TRUE(Walk(sim, Memory{0x8000, buf}, uint32_t(buf.size()), Traffic{}, rng, &res));
  ASSERT_EQ(res.writes.size(), kWritesPerTd);
  size_t i = 0;
  for (uint32_t h = 0; h < r::kHeaderWords; ++h, ++i) {
    EXPECT_TRUE(res.writes[i].header);
    EXPECT_EQ(res.writes[i].addr, 4 * h);
  }
  for (const r::Stream& s : r::kStreams) {
    EXPECT_EQ(res.writes[i].addr, s.reg_addr) << s.name;
    EXPECT_FALSE(res.writes[i].header) << s.name;
    i += s.words;
  }
  EXPECT_EQ(i, kWritesPerTd);
  for (size_t k = 0; k < res.writes.size(); ++k) EXPECT_EQ(res.writes[k].last, k + 1 == kWritesPerTd) << k;
  // conv_twos patches CoeffBaseAddr[0..2] (TD+0x74..0x7c): KernelDMASrc data words 18..20, the
  // writes after the 10 header words, at registers 0x1f848..0x1f850 (docs/td.md)
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(res.writes[10 + 18 + i].addr, 0x1f848u + 4 * i);
    EXPECT_EQ(res.writes[10 + 18 + i].data, td::WalkChain(buf)[0].words[0x74 / 4 + i]);
  }
}

// ---------------------------------------------------------------- chains

// A14: a chain of TDs padded to 0x300 in order, as Apple's files chain them, the last with
// EON 1 and a NextPointer that must be ignored.
TEST(RtlTdFetch, TD_A14_ChainInOrderAt0x300Steps) {
  const uint64_t seed = test::TestSeed(0x7DF0A);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  Chain c;
  for (int i = 0; i < 3; ++i) {
    Td t = RandomTd(rng);
    t.at = uint32_t(i) * r::kChainStride;
    t.Set(r::kHeader_7_NextPointer, i < 2 ? t.at + r::kChainStride : 0x12345678);
    t.Set(r::kHeader_0_EON, i == 2);
    c.tds.push_back(t);
  }
  c.buf = td::EncodeChain(c.tds, 2 * r::kChainStride + r::kTdBytes);
  RunGoodChain(sim, c, 0x4000, Traffic{}, rng, "3 TDs at 0x300 steps");
  RunGoodChain(sim, c, 0x4004, Traffic{}, rng, "3 TDs at 0x300 steps, base in the upper half of a beat");
}

// A14: the encoder's programs (tb/td/encode.h EncodeLayers): per-element passes and small
// convolutions chained as the front end chains them.
TEST(RtlTdFetch, TD_A14_EncodedProgramsWriteEveryWordInOrder) {
  const uint64_t seed = test::TestSeed(0x7DF02);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  for (int it = 0; it < 40; ++it) {
    std::vector<td::LayerSpec> layers;
    const int n = 1 + int(rng.Below(4));
    for (int l = 0; l < n; ++l) {
      td::LayerSpec s;
      s.cin = s.cout = 1 + int(rng.Below(4));
      s.h = s.oh = 1 + int(rng.Below(4));
      s.w = s.ow = 1 + int(rng.Below(16));
      s.pass = rng.Below(2);
      s.nonlinear = regs::td::Nonlinear(rng.Below(2));
      if (!s.pass) {
        s.weights.assign(size_t(s.cout), std::vector<uint16_t>(size_t(s.cin), 0x4000));
        s.kernel_channels = 1 + int(rng.Below(uint32_t(s.cout)));
      } else {
        s.cout = s.cin;
      }
      layers.push_back(s);
    }
    const td::Encoded e = td::EncodeLayers(layers);
    Chain c;
    c.tds = e.tds;
    c.buf = e.chain;
    const Traffic tr = RandomTraffic(rng, kLimits);
    RunGoodChain(sim, c, RandomBase(rng), tr, rng, std::to_string(n) + " encoded layers, " + Describe(tr));
  }
}

// A14 under traffic: random chains of 1-4 TDs (random fields or random words), at 0x300 steps or
// at random 4-aligned offsets in random order, random bases; memory latency 1-12 cycles per
// read (answers in order), request-ready and write-ready low at random, task_done_i 1-200
// cycles after a TD's last write. Every write exact, done_o once per chain, one model for all
// chains (each walk starts from the state the last one left).
TEST(RtlTdFetch, TD_A14_RandomChainsUnderLatencyAndBackPressure) {
  const uint64_t seed = test::TestSeed(0x7DF03);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  const int n = 400 * int(test::SoakFactor());
  int tds = 0, phase1 = 0;
  for (int it = 0; it < n && !HasFailure(); ++it) {
    const int len = 1 + int(rng.Below(4));
    const bool stride = rng.Below(2);
    const Chain c = RandomChain(rng, len, stride, rng.Below(3) == 0 ? 0 : rng.Below(64));
    const uint32_t base = RandomBase(rng);
    const Traffic tr = RandomTraffic(rng, kLimits);
    tds += len;
    phase1 += (base & 4) != 0;
    RunGoodChain(sim, c, base, tr, rng,
                 "iteration " + std::to_string(it) + ": " + std::to_string(len) + " TDs" +
                     (stride ? " at 0x300 steps" : " at random offsets") + ", base 0x" + std::to_string(base) + ", " +
                     Describe(tr));
  }
  std::printf("seed %llu: %d chains, %d TDs, %d bases in the upper half of a beat\n", (unsigned long long)seed, n, tds,
              phase1);
}

// ---------------------------------------------------------------- malformed chains

// A1: a TD whose stream header is not the H13 layout's (another count, another register address,
// a random word) stops the walk before any write of that TD: the TDs before it are written
// whole, error_o names the stream, the TD and its offset, done_o never rises. The C++ reader
// refuses the same TD.
TEST(RtlTdFetch, TD_A1_BadStreamHeaderStopsBeforeTheTdsFirstWrite) {
  const uint64_t seed = test::TestSeed(0x7DF04);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  std::vector<int> streams_seen(r::kNumStreams, 0);
  for (int it = 0; it < 300 && !HasFailure(); ++it) {
    const int len = 1 + int(rng.Below(4));
    Chain c = RandomChain(rng, len, rng.Below(2), rng.Below(32));
    const int k = int(rng.Below(uint32_t(len)));
    const int s = int(rng.Below(r::kNumStreams));
    // a second bad stream after the first: the first is reported
    const int s2 = s + 1 + int(rng.Below(uint32_t(r::kNumStreams - s)));
    uint32_t& h = c.tds[size_t(k)].words[r::kStreams[s].td_offset / 4];
    switch (rng.Below(4)) {
      case 0: h ^= 1u << (24 + rng.Below(8)); break;  // another count
      case 1: h ^= 1u << rng.Below(24); break;        // another register address
      case 2: h = uint32_t(rng.Next()) | 1u; break;   // anything (never the header: bit 0)
      default: h = 0; break;                          // zero
    }
    if (s2 < r::kNumStreams && rng.Below(2)) c.tds[size_t(k)].words[r::kStreams[s2].td_offset / 4] ^= 0x100;
    Reencode(c);
    EXPECT_THROW(td::ReadTd(c.buf, c.tds[size_t(k)].at, k), td::TdError);
    const Traffic tr = RandomTraffic(rng, kLimits);
    const std::string what = "iteration " + std::to_string(it) + ": stream " + r::kStreams[s].name + " of TD " +
                             std::to_string(k) + " of " + std::to_string(len) + ", " + Describe(tr);
    WalkResult res;
    ASSERT_TRUE(Walk(sim, Memory{RandomBase(rng), c.buf}, uint32_t(c.buf.size()), tr, rng, &res)) << what;
    const std::vector<Td> good(c.tds.begin(), c.tds.begin() + k);
    ExpectWrites(res.writes, ChainWrites(good), what);
    EXPECT_TRUE(res.error) << what;
    EXPECT_EQ(res.err_code, kErrStream) << what;
    EXPECT_EQ(res.err_stream, uint32_t(s)) << what;
    EXPECT_EQ(res.err_td, uint32_t(k)) << what;
    EXPECT_EQ(res.err_off, c.tds[size_t(k)].at) << what;
    EXPECT_EQ(res.dones, 0) << what;
    ++streams_seen[size_t(s)];
  }
  for (int s = 0; s < r::kNumStreams; ++s) EXPECT_GT(streams_seen[size_t(s)], 0) << r::kStreams[s].name;
}

// A14: a chain that loops (TD 1 leads back to TD 0, or TD 0 to itself) runs into the loop guard:
// with MaxTds = 8, TDs 0..7 are written (the loop's TDs again and again), then error_o says
// "more than MaxTds TDs" at TD 8 and the offset its NextPointer gave. The C++ reader sees the
// loop directly.
TEST(RtlTdFetch, TD_A14_LoopingChainStopsAtMaxTds) {
  const uint64_t seed = test::TestSeed(0x7DF0B);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch_max8> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  for (int len : {1, 2, 3}) {
    Chain c = RandomChain(rng, len, true, 0);
    c.tds.back().Set(r::kHeader_0_EON, 0);
    const uint32_t back = len == 3 ? c.tds[1].at : 0;  // 3: TD 2 leads back to TD 1
    c.tds.back().Set(r::kHeader_7_NextPointer, back);
    Reencode(c);
    EXPECT_THROW(td::WalkChain(c.buf), td::TdError);
    std::vector<Td> want;
    for (int i = 0; i < 8; ++i) {
      const int j = i < len ? i : (len == 3 ? 1 + (i - 1) % 2 : i % len);
      want.push_back(c.tds[size_t(j)]);
    }
    const int last = len == 3 ? 1 + (8 - 1) % 2 : 8 % len;  // TD 8 would be this one
    for (const Traffic& tr : {Traffic{}, RandomTraffic(rng, kLimits)}) {
      const std::string what = std::to_string(len) + "-TD loop, " + Describe(tr);
      WalkResult res;
      ASSERT_TRUE(Walk(sim, Memory{RandomBase(rng), c.buf}, uint32_t(c.buf.size()), tr, rng, &res)) << what;
      ExpectWrites(res.writes, ChainWrites(want), what);
      EXPECT_TRUE(res.error) << what;
      EXPECT_EQ(res.err_code, kErrMaxTds) << what;
      EXPECT_EQ(res.err_td, 8u) << what;
      EXPECT_EQ(res.err_off, c.tds[size_t(last)].at) << what;
      EXPECT_EQ(res.dones, 0) << what;
    }
  }
  // Exactly MaxTds TDs is a chain, not a loop.
  Chain c = RandomChain(rng, 8, true, 0);
  RunGoodChain(sim, c, RandomBase(rng), RandomTraffic(rng, kLimits), rng, "8 TDs with MaxTds 8");
}

// A14: a TD that does not lie inside [base, base + limit) is not read: the first TD of a buffer
// shorter than a TD, or TD k whose NextPointer leads to where the TD would end past the limit
// (by 1 .. 0x274 bytes, or far). The TDs before it are written whole.
TEST(RtlTdFetch, TD_A14_TdPastTheLimitIsRefused) {
  const uint64_t seed = test::TestSeed(0x7DF05);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  for (int it = 0; it < 100 && !HasFailure(); ++it) {
    const int len = 1 + int(rng.Below(3));
    Chain c = RandomChain(rng, len, true, 0);
    const uint32_t size = uint32_t(c.buf.size());
    uint32_t limit = size, bad_at = 0;
    int k = 0;
    if (it < 8) {
      // the first TD is cut: no buffer, 1 or 4 bytes short, or anything shorter
      const uint32_t cut[4] = {r::kTdBytes, 1, 4, 1 + rng.Below(r::kTdBytes)};
      limit = r::kTdBytes - cut[it % 4];
    } else {
      // TD len - 1 leads to a TD that ends past the limit: by 4 bytes (the least), by up to a
      // TD, far past, or at 0xfffffffc (offset + 0x274 wraps 32 bits)
      c.tds.back().Set(r::kHeader_0_EON, 0);
      const uint32_t over[3] = {4, 4 * (1 + rng.Below(0x9c)), 0x10000000u + 4 * rng.Below(1 << 20)};
      bad_at = it % 4 == 3 ? 0xFFFFFFFCu : size - r::kTdBytes + over[it % 4];
      c.tds.back().Set(r::kHeader_7_NextPointer, bad_at);
      Reencode(c);
      k = len;
    }
    const Traffic tr = RandomTraffic(rng, kLimits);
    const std::string what = "iteration " + std::to_string(it) + ", limit 0x" + std::to_string(limit) + ", TD " +
                             std::to_string(k) + " at " + std::to_string(bad_at) + ", " + Describe(tr);
    WalkResult res;
    ASSERT_TRUE(Walk(sim, Memory{RandomBase(rng), c.buf}, limit, tr, rng, &res)) << what;
    const std::vector<Td> good(c.tds.begin(), c.tds.begin() + k);
    ExpectWrites(res.writes, ChainWrites(good), what);
    EXPECT_TRUE(res.error) << what;
    EXPECT_EQ(res.err_code, kErrLimit) << what;
    EXPECT_EQ(res.err_td, uint32_t(k)) << what;
    EXPECT_EQ(res.err_off, bad_at) << what;
    EXPECT_EQ(res.dones, 0) << what;
    if (k == 0) {
      EXPECT_EQ(res.reads, 0u) << what << ": a TD outside the buffer was read";
    }
  }
  // A TD that ends exactly at the limit is inside.
  Chain c = RandomChain(rng, 2, false, 0);
  RunGoodChain(sim, c, RandomBase(rng), Traffic{}, rng, "last TD ending at the limit");
}

// A14: a NextPointer that is not a multiple of 4 (by 1, 2 or 3) is refused at the TD it leads
// to, before any read of it.
TEST(RtlTdFetch, TD_A14_UnalignedNextPointerIsRefused) {
  const uint64_t seed = test::TestSeed(0x7DF06);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  for (int it = 0; it < 100 && !HasFailure(); ++it) {
    const int len = 2 + int(rng.Below(3));
    Chain c = RandomChain(rng, len, rng.Below(2), 8);
    const int k = 1 + int(rng.Below(uint32_t(len - 1)));  // the TD the bad pointer leads to
    const uint32_t bad = c.tds[size_t(k)].at + 1 + rng.Below(3);
    c.tds[size_t(k) - 1].Set(r::kHeader_7_NextPointer, bad);
    Reencode(c);
    EXPECT_THROW(td::WalkChain(c.buf), td::TdError);
    const Traffic tr = RandomTraffic(rng, kLimits);
    const std::string what = "iteration " + std::to_string(it) + ": TD " + std::to_string(k) + " at " +
                             std::to_string(bad) + ", " + Describe(tr);
    WalkResult res;
    ASSERT_TRUE(Walk(sim, Memory{RandomBase(rng), c.buf}, uint32_t(c.buf.size()), tr, rng, &res)) << what;
    const std::vector<Td> good(c.tds.begin(), c.tds.begin() + k);
    ExpectWrites(res.writes, ChainWrites(good), what);
    EXPECT_TRUE(res.error) << what;
    EXPECT_EQ(res.err_code, kErrAlign) << what;
    EXPECT_EQ(res.err_td, uint32_t(k)) << what;
    EXPECT_EQ(res.err_off, bad) << what;
    EXPECT_EQ(res.dones, 0) << what;
  }
}

// After an error the next start walks a good chain exactly (error_o cleared by start_i).
TEST(RtlTdFetch, TD_A14_GoodChainAfterAnError) {
  const uint64_t seed = test::TestSeed(0x7DF0C);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  Chain bad = RandomChain(rng, 3, true, 0);
  bad.tds[1].words[r::kStreams[6].td_offset / 4] = 0;
  Reencode(bad);
  const Traffic slow{1, 12, 30, 30, 5, 0};  // the error lands while reads are in flight
  WalkResult res;
  ASSERT_TRUE(Walk(sim, Memory{0x2000, bad.buf}, uint32_t(bad.buf.size()), slow, rng, &res));
  EXPECT_TRUE(res.error);
  sim.Eval();
  EXPECT_TRUE(sim.dut().error_o) << "error_o is sticky";
  const Chain c = RandomChain(rng, 3, false, 0);
  RunGoodChain(sim, c, 0x2004, slow, rng, "good chain after an error");
}

// ---------------------------------------------------------------- X seeds and reset

// N-7.1: the power-up state of the flops (--x-initial unique, seeds 1..4) changes no output of
// a walk, cycle for cycle, under the same traffic.
TEST(RtlTdFetch, N7_1_XSeedsDoNotChangeAnyOutput) {
  const uint64_t seed = test::TestSeed(0x7DF07);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng pick(seed);
  for (int it = 0; it < 20 && !HasFailure(); ++it) {
    const Chain c = RandomChain(pick, 1 + int(pick.Below(4)), pick.Below(2), 0);
    const uint32_t base = RandomBase(pick);
    const Traffic tr = RandomTraffic(pick, kLimits);
    const uint64_t traffic = pick.Next();
    std::vector<std::string> first;
    for (uint32_t xs : {1u, 2u, 3u, 4u}) {
      Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem() + ".x" + std::to_string(xs), xs);
      PowerUp(sim);
      Rng rng(traffic);
      std::vector<std::string> trace;
      WalkResult res;
      ASSERT_TRUE(Walk(sim, Memory{base, c.buf}, uint32_t(c.buf.size()), tr, rng, &res, ~uint64_t(0), &trace));
      ExpectWrites(res.writes, ChainWrites(c.tds), "x seed " + std::to_string(xs));
      test::ExpectSameAsXSeed1(xs, trace, &first, "walk");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// A walk to its end on a fresh model of X seed `xs` under the traffic drawn from `traffic` (a
// failure is reported): a walk cut later on a model of the same X seed under the same traffic
// is the same walk up to the cut.
WalkResult ProbeWalk(uint32_t xs, const Memory& mem, const Traffic& tr, uint64_t traffic) {
  Sim<Vane_td_fetch> probe(kTop, harness::CurrentTestStem() + ".probe", xs);
  PowerUp(probe);
  Rng t(traffic);
  WalkResult res;
  EXPECT_TRUE(Walk(probe, mem, uint32_t(mem.bytes.size()), tr, t, &res)) << "the probe walk";
  return res;
}

// rst_ni low for `hold` cycles with junk on every input, then `quiet` + 1 idle cycles in which
// nothing may come out (busy_o, a read, a write, done_o, error_o all low).
template <class M>
void ResetWithJunkThenQuiet(Sim<M>& sim, Rng& rng, int hold, int quiet) {
  auto& d = sim.dut();
  sim.Reset(hold, [&] {
    d.start_i = rng.Below(2);
    d.base_i = uint32_t(rng.Next());
    d.limit_i = uint32_t(rng.Next());
    d.rs_valid_i = rng.Below(2);
    d.rs_data_i = rng.Next();
    d.task_done_i = rng.Below(2);
    d.rd_ready_i = rng.Below(2);
    d.wr_ready_i = rng.Below(2);
  });
  for (int q = 0; q <= quiet; ++q) {
    Idle(d);
    d.rd_ready_i = rng.Below(2);
    d.wr_ready_i = rng.Below(2);
    d.task_done_i = rng.Below(4) == 0;
    sim.Eval();
    ASSERT_FALSE(d.busy_o || d.rd_valid_o || d.wr_valid_o || d.done_o || d.error_o)
        << q << " cycles after the reset: " << Outputs(d);
    sim.Tick();
  }
}

// N-7.1: rst_ni in the middle of a walk (early: the first 64 cycles; late: the last 64 before
// done_o; or anywhere), held 1-16 cycles while the inputs toggle at random (start, answers,
// task_done), then 0-24 quiet cycles in which the block is idle and offers nothing, then a fresh
// walk of another chain: every write exact, done_o once. The memory model drops the answers of
// the interrupted walk (it is reset with the block).
TEST(RtlTdFetch, N7_1_ResetMidWalkThenAFreshWalkIsExact) {
  const uint64_t seed = test::TestSeed(0x7DF08);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const int n = 300 * int(test::SoakFactor());
  int early = 0, late = 0;
  for (int it = 0; it < n && !HasFailure(); ++it) {
    const uint32_t xs = 1 + rng.Below(1000);
    const Chain a = RandomChain(rng, 1 + int(rng.Below(4)), rng.Below(2), 0);
    const Chain b = RandomChain(rng, 1 + int(rng.Below(4)), rng.Below(2), 0);
    const uint32_t base_a = RandomBase(rng), base_b = RandomBase(rng);
    Traffic tr = RandomTraffic(rng, kLimits);
    tr.start_delay_max = 0;
    const uint64_t traffic = rng.Next();
    // the probe: walk A to its end on a model of the same X seed, to know its length
    const uint64_t len = ProbeWalk(xs, Memory{base_a, a.buf}, tr, traffic).end_cycle;
    if (HasFailure()) return;
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
                 std::to_string(cut) + " of " + std::to_string(len) + ", hold " + std::to_string(hold));
    Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem(), xs);
    PowerUp(sim);
    {
      Rng t(traffic);
      WalkResult res;
      ASSERT_FALSE(Walk(sim, Memory{base_a, a.buf}, uint32_t(a.buf.size()), tr, t, &res, cut)) << "walk A ended";
      EXPECT_EQ(res.dones, 0);
    }
    ResetWithJunkThenQuiet(sim, rng, hold, quiet);
    if (HasFailure()) return;
    RunGoodChain(sim, b, base_b, tr, rng, "walk B after the reset");
  }
  std::printf("seed %llu: %d resets (%d early, %d late)\n", (unsigned long long)seed, n, early, late);
}

// N-7.1: a reset while a walk stopped by an error still offers its port the read it had put
// out (the request holds until it is accepted, the IFlush state): one- and two-TD chains whose
// TD has a bad stream header, reads back-pressured at random half the cycles or more, a reset at
// every cycle from 6 before the error to the walk's end; then a fresh walk is exact. The test
// counts the cuts that fell with error_o up and the read still offered.
TEST(RtlTdFetch, N7_1_ResetWhileAStoppedWalkStillOffersItsReadThenAFreshWalkIsExact) {
  const uint64_t seed = test::TestSeed(0x7DF0C);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  int resets = 0, offering = 0;
  for (int it = 0; it < 40 && !HasFailure(); ++it) {
    const uint32_t xs = 1 + rng.Below(1000);
    const int len = 1 + int(rng.Below(2));
    Chain a = RandomChain(rng, len, rng.Below(2), 0);
    const int k = int(rng.Below(uint32_t(len)));
    a.tds[size_t(k)].words[r::kStreams[rng.Below(r::kNumStreams)].td_offset / 4] = 0;  // a bad stream header
    Reencode(a);
    const Chain b = RandomChain(rng, 1 + int(rng.Below(2)), rng.Below(2), 0);
    const uint32_t base_a = RandomBase(rng), base_b = RandomBase(rng);
    Traffic tr = RandomTraffic(rng, kLimits);
    tr.rd_stall_pct = 50 + int(rng.Below(40));
    tr.start_delay_max = 0;
    const uint64_t traffic = rng.Next();
    const WalkResult probe = ProbeWalk(xs, Memory{base_a, a.buf}, tr, traffic);
    if (HasFailure()) return;
    ASSERT_TRUE(probe.error) << "iteration " << it;
    const uint64_t err_at = probe.end_cycle;
    for (uint64_t cut = err_at > 7 ? err_at - 6 : 1; !HasFailure(); ++cut) {
      SCOPED_TRACE("iteration " + std::to_string(it) + ", x seed " + std::to_string(xs) + ", cut at cycle " +
                   std::to_string(cut) + ", the error at " + std::to_string(err_at) + ", " + Describe(tr));
      Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem(), xs);
      PowerUp(sim);
      Rng t(traffic);
      WalkResult res;
      if (Walk(sim, Memory{base_a, a.buf}, uint32_t(a.buf.size()), tr, t, &res, cut)) break;  // ended before
      sim.Eval();
      offering += sim.dut().error_o && sim.dut().rd_valid_o;
      ResetWithJunkThenQuiet(sim, rng, 1 + int(rng.Below(16)), int(rng.Below(25)));
      if (HasFailure()) return;
      RunGoodChain(sim, b, base_b, tr, rng, "walk B after the reset");
      ++resets;
    }
  }
  std::printf("seed %llu: %d resets, %d of them with the stopped walk's read still offered\n", (unsigned long long)seed,
              resets, offering);
  EXPECT_GT(offering, 0);
}

// ---------------------------------------------------------------- cycle figures

// ARCHITECTURE (TD fetch): with the write port always ready and the memory always ready at a
// fixed latency L, a TD's 150 writes leave one per cycle; the first write comes L + a fixed
// number of cycles after start_i; a 4-TD chain with task_done_i one cycle after each TD's last
// write keeps the write port busy most of the time. Printed and recorded (docs/td_fetch.md).
TEST(RtlTdFetch, TD_CyclesInitiationIntervalLatencyUtilization) {
  const uint64_t seed = test::TestSeed(0x7DF0D);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const Chain c = RandomChain(rng, 4, true, 0);
  std::printf("latency  first write  cycles/write in a TD (worst)  4-TD chain: cycles  writes/cycle\n");
  for (int lat : {1, 2, 4, 8, 12, 16, 20, 24, 26, 28, 32}) {
    for (uint32_t base : {0x10000u, 0x10004u}) {
      Sim<Vane_td_fetch> sim(kTop, harness::CurrentTestStem() + ".L" + std::to_string(lat));
      PowerUp(sim);
      Traffic tr;
      tr.min_latency = tr.max_latency = lat;
      WalkResult res;
      RunGoodChain(sim, c, base, tr, rng, "latency " + std::to_string(lat), &res);
      ASSERT_EQ(res.writes.size(), 4 * kWritesPerTd);
      double worst = 0;
      for (int t = 0; t < 4; ++t) {
        const uint64_t span =
            res.write_cycles[size_t(t + 1) * kWritesPerTd - 1] - res.write_cycles[size_t(t) * kWritesPerTd] + 1;
        worst = std::max(worst, double(span) / kWritesPerTd);
      }
      const uint64_t cycles = res.end_cycle + 1;
      const double util = double(res.writes.size()) / double(cycles);
      std::printf("%7d  %11llu  %28.3f  %18llu  %12.3f%s\n", lat, (unsigned long long)res.write_cycles[0], worst,
                  (unsigned long long)cycles, util, base & 4 ? "  (base in the upper half of a beat)" : "");
      const std::string key = "L" + std::to_string(lat) + (base & 4 ? "_odd" : "");
      RecordProperty(key + "_first_write", std::to_string(res.write_cycles[0]));
      RecordProperty(key + "_cycles_per_write", std::to_string(worst));
      RecordProperty(key + "_utilization", std::to_string(util));
      EXPECT_EQ(res.write_cycles[0], uint64_t(lat) + 13) << "latency " << lat;
      if (lat <= 24) {  // Depth 32: the word buffer covers the read latency up to 24 cycles
        EXPECT_EQ(worst, 1.0) << "latency " << lat << ": a TD's writes are not one per cycle";
      }
    }
  }
}

}  // namespace
}  // namespace ane
