// SPDX-License-Identifier: Apache-2.0
// The TD front end's table conversion (rtl/ane_td_table.sv) against the C++ front end: a table
// blob in a memory model (docs/td.md, assumption A11: words 2 / 3 the values outside the domain,
// words 4..36 the 33 knots) becomes, on the write port, exactly the post-processor register
// writes harness::TableWrites makes of td::TableFromBlob's table (NUMERICS N-5.1: per segment
// m = RNE16(2 (y[s+1] - y[s])), c = RNE16(ybar - m xbar), computed there in doubles through
// oracle::ActSegmentsFromKnots and DoubleToFp16). The reference shares no code with the RTL.
//
// Order: the sigmoid program's own table, directed corners, random blobs across every exponent
// under random memory latency, request and write back-pressure and start gaps, every non-finite
// word position, X seeds, a reset in the middle of a conversion, and the cycle figures of the
// RTL's header comment. Random tests print their seed on failure; rerun one with
// ANE_TEST_SEED=<seed> build/rtl_td_table_test --gtest_filter=...
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "Vane_td_table.h"
#include "tb/harness/postproc_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/formats.h"
#include "tb/td/hwx.h"
#include "tb/td/program.h"
#include "tb/td/td.h"
#include "tb/tests/td_bench.h"
#include "tb/tests/test_seed.h"
#include "tb/tests/xseed_trace.h"

namespace ane {
namespace {

using harness::Sim;
using test::Describe;
using test::Memory;
using test::RandomTraffic;
using test::ReadProgram;
using test::Rng;
using test::Traffic;

constexpr const char* kTop = "ane_td_table";
constexpr uint32_t kBeats = 10;  // bytes 0 .. 79 of the blob
constexpr uint32_t kBlobBytes = 8 * kBeats;
constexpr uint32_t kFirstWord = 2, kLastWord = 36;  // left, right, the 33 knots
constexpr size_t kWrites = 5 + 32;                  // TBL0 .. TBL4, 32 segments

// The cycle figures of rtl/ane_td_table.sv's header comment (start_i in cycle 0, rd_ready_i
// and wr_ready_i always high, read latency L): the first write in cycle 12 + L, segment s in
// cycle 29 + L + 6 s, done_o in cycle 216 + L; with a non-finite word done_o in cycle 11 + L.
constexpr uint64_t kFirstWriteAtL1 = 13, kSegmentAtL1 = 30, kSegmentInterval = 6, kDoneAtL1 = 217, kErrorDoneAtL1 = 12;

// ---------------------------------------------------------------- the reference

struct Write {
  uint32_t addr = 0, data = 0;
  bool operator==(const Write& o) const { return addr == o.addr && data == o.data; }
};

std::string Show(const Write& w) {
  char b[48];
  std::snprintf(b, sizeof b, "0x%02x = 0x%08x", w.addr, w.data);
  return b;
}

uint16_t Word(const std::vector<uint8_t>& blob, uint32_t w) { return uint16_t(blob[2 * w] | blob[2 * w + 1] << 8); }

void PutWord(std::vector<uint8_t>& blob, uint32_t w, uint16_t v) {
  blob[2 * w] = uint8_t(v);
  blob[2 * w + 1] = uint8_t(v >> 8);
}

bool Finite(uint16_t h) { return (h & 0x7C00) != 0x7C00; }

std::string Hex16(uint16_t h) {
  char b[8];
  std::snprintf(b, sizeof b, "0x%04x", h);
  return b;
}

// What the front end makes of a blob: the writes, or TableFromBlob's refusal (the first
// non-finite word among 2 .. 36, found here independently).
struct Expected {
  bool error = false;
  uint32_t err_word = 0;
  oracle::ActTable table;
  std::vector<Write> writes;
};

Expected Reference(const std::vector<uint8_t>& blob) {
  Expected e;
  uint32_t first_bad = 0;
  for (uint32_t w = kFirstWord; w <= kLastWord && first_bad == 0; ++w) {
    if (!Finite(Word(blob, w))) first_bad = w;
  }
  try {
    e.table = td::TableFromBlob(blob.data(), blob.size());
    for (const auto& [a, v] : harness::TableWrites(e.table)) e.writes.push_back({a, v});
    EXPECT_EQ(first_bad, 0u) << "TableFromBlob took a blob with word " << first_bad << " not finite";
  } catch (const td::TdError& err) {
    EXPECT_NE(first_bad, 0u) << "TableFromBlob refused a finite blob: " << err.what();
    e.error = true;
    e.err_word = first_bad;
  }
  return e;
}

// ---------------------------------------------------------------- blobs

// fp16 codes across every exponent and the corners of N-5.1's arithmetic: signed zeros,
// subnormals, the largest finite values, neighbours equal or a few ulps apart (the slope's and
// intercept's cancellations), steps that put 2 (y1 - y0) next to 65504 (m the largest finite
// value or just infinite), and opposite-signed large neighbours (m and c infinite).
uint16_t RandomKnot(Rng& rng, uint16_t prev) {
  const uint16_t sign = rng.Below(2) ? 0x8000 : 0;
  switch (rng.Below(17)) {
    case 0: return sign;                                               // +-0
    case 1: return uint16_t(sign | 0x7BFF);                            // +-65504
    case 2: return uint16_t(sign | (1 + rng.Below(0x3FF)));            // subnormal
    case 3: return uint16_t(sign | (rng.Below(2) ? 0x0001 : 0x0400));  // smallest subnormal / normal
    case 4: return prev;                                               // equal neighbours
    case 5: {                                                          // a few ulps away
      const int step = int(rng.Below(7)) - 3;
      const int mag = std::clamp(int(prev & 0x7FFF) + step, 0, 0x7BFF);
      return uint16_t((prev & 0x8000) | mag);
    }
    case 6:  // large, opposite sign
      return uint16_t(((prev & 0x8000) ^ 0x8000) | (0x7000 + rng.Below(0xC00)));
    case 7: return uint16_t(sign | (rng.Below(0x400)));  // subnormal or zero
    case 8: {                                            // a step of about 32752:
      const double y = oracle::Fp16ToDouble(prev);       // 2 (y1 - y0) near 65504
      const double t = y + (sign ? -1.0 : 1.0) * (32744.0 + double(rng.Below(24)));
      return std::fabs(t) <= 65504.0 ? oracle::DoubleToFp16(t) : prev;
    }
    default: {  // any finite code
      const uint16_t e = uint16_t(rng.Below(31));
      return uint16_t(sign | e << 10 | rng.Below(0x400));
    }
  }
}

// A code whose exponent field is all ones: +-inf or a NaN.
uint16_t NonFinite(Rng& rng) {
  const uint16_t sign = rng.Below(2) ? 0x8000 : 0;
  return uint16_t(sign | 0x7C00 | (rng.Below(3) == 0 ? 0 : 1 + rng.Below(0x3FF)));
}

uint16_t RandomFinite(Rng& rng) {
  uint16_t h;
  do {
    h = rng.Code();
  } while (!Finite(h));
  return h;
}

// The 80 bytes the block reads: words 0, 1 and 37 .. 39 anything (non-finite too: they are not
// the table's), left and right finite, the knots by `mode`: 0 per knot from RandomKnot, 1 a
// smooth curve at a random scale (2^-24 .. 2^15, as compiled tables are), 2 tiny values only
// (the intercept's rounding at 2^-25).
std::vector<uint8_t> RandomBlob(Rng& rng, int mode) {
  std::vector<uint8_t> b(kBlobBytes);
  for (uint8_t& x : b) x = uint8_t(rng.Next());
  PutWord(b, 2, RandomFinite(rng));
  PutWord(b, 3, RandomFinite(rng));
  uint16_t prev = RandomFinite(rng);
  const double scale = std::ldexp(1.0, int(rng.Below(40)) - 24);
  const double a = 0.1 + 2.0 * double(rng.Below(1000)) / 1000, ph = double(rng.Below(1000)) / 100;
  for (uint32_t i = 0; i <= 32; ++i) {
    uint16_t k = 0;
    if (mode == 1) {
      const double x = -8.0 + 0.5 * i;
      k = oracle::DoubleToFp16(std::clamp(scale * std::sin(a * x + ph), -65504.0, 65504.0));
    } else if (mode == 2) {
      k = uint16_t((rng.Below(2) ? 0x8000 : 0) | rng.Below(rng.Below(2) ? 8 : 0x800));
    } else {
      k = RandomKnot(rng, prev);
    }
    PutWord(b, 4 + i, k);
    prev = k;
  }
  return b;
}

std::vector<uint8_t> KnotBlob(const std::vector<uint16_t>& knots, uint16_t left, uint16_t right) {
  std::vector<uint8_t> b = td::TableBlob(knots, left, right);
  b.resize(kBlobBytes);
  return b;
}

// ---------------------------------------------------------------- the bench

// The table's random traffic: latency up to 8, wr_ready_i low up to 80 % of the cycles.
constexpr test::TrafficLimits kLimits{8, 60, 80, true, false};

struct RunResult {
  std::vector<Write> writes;
  std::vector<uint64_t> write_cycles;  // from the start cycle
  std::vector<uint64_t> read_cycles;
  int dones = 0;
  bool error = false;
  uint32_t err_word = 0;
  uint64_t end_cycle = 0;  // done_o, from the start cycle
};

// One cycle's outputs with the don't-care payloads masked: what the X seed may not change.
template <class M>
std::string Outputs(const M& d) {
  char b[96];
  std::snprintf(b, sizeof b, "%d %d %d %u | %d %08x | %d %02x %08x", d.busy_o, d.done_o, d.error_o,
                d.error_o ? unsigned(d.err_word_o) : 0u, d.rd_valid_o, d.rd_valid_o ? d.rd_addr_o : 0, d.wr_valid_o,
                d.wr_valid_o ? d.wr_addr_o : 0, d.wr_valid_o ? d.wr_data_o : 0);
  return b;
}

template <class M>
void Idle(M& d) {
  d.start_i = 0;
  d.rs_valid_i = 0;
  d.rd_ready_i = 1;
  d.wr_ready_i = 1;
}

// One conversion from start_i (blob at byte address `at`) to done_o and the quiet after it
// (busy_o low, then kTail cycles: no request, no write, no done). Checks the port protocols on
// the way: a request or a write offered and not taken is offered again unchanged; reads are
// the ten beats at `at`, in order; no write before every word has been read (an error leaves
// no write behind); done_o once. Stops early (returns false) when `cut` cycles have run.
constexpr int kTail = 16;

template <class M>
bool Convert(Sim<M>& sim, const Memory& mem, uint32_t at, const Traffic& tr, Rng& rng, RunResult* res,
             uint64_t cut = ~uint64_t(0), std::vector<std::string>* trace = nullptr) {
  M& d = sim.dut();
  Idle(d);
  test::StartDelay(sim, tr, rng, [&] { d.wr_ready_i = rng.Below(2); });
  const uint64_t c0 = sim.cycles();
  test::ReadPort port;
  test::WritePort wport;
  uint64_t answered = 0, ended_at = ~uint64_t(0);
  for (;;) {
    const uint64_t now = sim.cycles() - c0;
    if (now >= cut) return false;
    // start_i again while busy (tr.restart_pct) is ignored: the reads below stay those of `at`
    d.start_i = now == 0 ||
                (tr.restart_pct > 0 && d.busy_o && ended_at == ~uint64_t(0) && int(rng.Below(100)) < tr.restart_pct);
    d.base_i = now == 0 ? at : uint32_t(rng.Next()) & ~63u;  // base_i matters only with start_i
    d.rd_ready_i = int(rng.Below(100)) >= tr.rd_stall_pct;
    d.wr_ready_i = int(rng.Below(100)) >= tr.wr_stall_pct;
    const bool answer = port.Due(now);
    d.rs_valid_i = answer;
    d.rs_data_i = answer ? mem.Beat(port.DueAddr()) : rng.Next();
    sim.Eval();
    if (trace) trace->push_back(Outputs(d));
    if (now > 0 && ended_at == ~uint64_t(0) && !d.done_o) {
      EXPECT_TRUE(d.busy_o) << "cycle " << now << ": busy_o low before done_o";
    }
    if (d.rd_valid_o) {
      const uint32_t want = at + 8 * uint32_t(res->read_cycles.size());
      EXPECT_LT(res->read_cycles.size(), kBeats) << "cycle " << now << ": more than " << kBeats << " reads";
      EXPECT_EQ(d.rd_addr_o, want) << "cycle " << now << ": read " << res->read_cycles.size();
    }
    if (port.Observe(now, d.rd_valid_o, d.rd_addr_o, d.rd_ready_i, tr, rng)) res->read_cycles.push_back(now);
    if (answer) {
      port.Answered();
      ++answered;
    }
    const Write w{d.wr_addr_o, d.wr_data_o};
    wport.Observe(now, d.wr_valid_o, d.wr_ready_i, d.wr_valid_o ? Show(w) : std::string());
    if (d.wr_valid_o) {
      EXPECT_EQ(answered, kBeats) << "cycle " << now << ": " << Show(w) << " before every word was read";
      EXPECT_EQ(ended_at, ~uint64_t(0)) << "a write after done_o: " << Show(w);
      if (d.wr_ready_i) {
        res->writes.push_back(w);
        res->write_cycles.push_back(now);
      }
    }
    if (d.done_o && now > 0) {
      ++res->dones;
      if (ended_at == ~uint64_t(0)) ended_at = now, res->end_cycle = now;
      EXPECT_FALSE(d.busy_o) << "busy_o with done_o";
      res->error = d.error_o;
      res->err_word = d.err_word_o;
    }
    if (d.error_o && now > 0) {
      EXPECT_TRUE(d.done_o || ended_at != ~uint64_t(0)) << "cycle " << now << ": error_o before done_o";
    }
    if (ended_at != ~uint64_t(0) && !d.busy_o && port.Idle()) break;
    if (now > 20000) {
      ADD_FAILURE() << "the conversion did not end in 20000 cycles (" << res->writes.size() << " writes)";
      return false;
    }
    sim.Tick();
  }
  // Quiet after the conversion: nothing more comes out, error_o and err_word_o stay.
  const bool error = d.error_o;
  const uint32_t err_word = d.err_word_o;
  for (int q = 0; q < kTail; ++q) {
    sim.Tick();
    Idle(d);
    d.wr_ready_i = rng.Below(2);
    d.base_i = uint32_t(rng.Next());
    sim.Eval();
    if (trace) trace->push_back(Outputs(d));
    EXPECT_FALSE(d.busy_o || d.rd_valid_o || d.wr_valid_o || d.done_o) << q << " cycles after done_o";
    EXPECT_EQ(bool(d.error_o), error) << "error_o changed after done_o";
    if (error) {
      EXPECT_EQ(d.err_word_o, err_word) << "err_word_o changed after done_o";
    }
  }
  sim.Tick();
  return true;
}

template <class M>
void PowerUp(Sim<M>& sim) {
  Idle(sim.dut());
  sim.dut().base_i = 0;
  sim.Reset();
  sim.Eval();
  EXPECT_FALSE(sim.dut().busy_o || sim.dut().error_o || sim.dut().done_o || sim.dut().rd_valid_o ||
               sim.dut().wr_valid_o)
      << "after reset";
}

// A 64-aligned address for a blob.
uint32_t RandomBase(Rng& rng) { return 0x40 * (1 + rng.Below(0x3FFFFFE)); }

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

// A whole conversion of a blob at `at` in `mem`, checked against the reference: the writes
// exactly, done_o once; or, for a refused blob, error_o with the word and no write.
template <class M>
void RunBlob(Sim<M>& sim, const Memory& mem, uint32_t at, const std::vector<uint8_t>& blob, const Traffic& tr, Rng& rng,
             const std::string& what, RunResult* out = nullptr) {
  const Expected e = Reference(blob);
  RunResult res;
  ASSERT_TRUE(Convert(sim, mem, at, tr, rng, &res)) << what;
  EXPECT_EQ(res.read_cycles.size(), kBeats) << what;
  EXPECT_EQ(res.dones, 1) << what << ": done_o pulses";
  EXPECT_EQ(res.error, e.error) << what << ": error_o";
  if (e.error) {
    EXPECT_EQ(res.err_word, e.err_word) << what << ": err_word_o";
    EXPECT_TRUE(res.writes.empty()) << what << ": " << res.writes.size() << " writes of a refused table";
  } else {
    ExpectWrites(res.writes, e.writes, what);
  }
  if (out) *out = res;
}

// The blob alone at a random 64-aligned address.
template <class M>
void RunBlob(Sim<M>& sim, const std::vector<uint8_t>& blob, const Traffic& tr, Rng& rng, const std::string& what,
             RunResult* out = nullptr) {
  const uint32_t at = RandomBase(rng);
  RunBlob(sim, Memory{at, blob}, at, blob, tr, rng, what, out);
}

// ---------------------------------------------------------------- the real program

// A11, N-5.1: sigmoid.hwx's table, read where its TD's table channel points (the last enabled
// kernel DMA channel, CoeffBaseAddr x 64 into the weights, as td::Interpret finds it), with the
// weights at their buffer-table address: the writes TableWrites makes of the table Interpret
// built, under no stalls and under random traffic.
TEST(RtlTdTable, TD_A11_N5_1_SigmoidProgramTableIsWrittenExactly) {
  const uint64_t seed = test::TestSeed(0x7AB01);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const td::Hwx hwx = td::ParseHwx(ReadProgram("sigmoid.hwx"));
  const std::vector<uint8_t> weights = hwx.WeightBytes();
  const std::vector<td::Td> tds = td::WalkChain(hwx.TdBytes(), hwx.td_count);
  const std::vector<td::TdLayer> layers = td::Interpret(tds, weights, hwx.weights_bar);
  ASSERT_EQ(layers.size(), 1u);
  ASSERT_TRUE(layers[0].table.has_value());
  const int ch = layers[0].table_channel;
  const int field = td::FieldByName("KernelDMASrc.CoeffBaseAddr[" + std::to_string(ch) + "].Addr");
  ASSERT_GE(field, 0);
  const uint32_t off = tds[0].Get(field) * 64;
  ASSERT_LE(off + kBlobBytes, weights.size());
  const std::vector<uint8_t> blob(weights.begin() + off, weights.begin() + off + kBlobBytes);
  const Expected e = Reference(blob);
  ASSERT_FALSE(e.error);
  std::vector<Write> interpreted;
  for (const auto& [a, v] : harness::TableWrites(*layers[0].table)) interpreted.push_back({a, v});
  ExpectWrites(e.writes, interpreted, "the blob's 80 bytes against Interpret's table");
  const uint32_t wbase = uint32_t(hwx.bar[hwx.weights_bar]);
  ASSERT_EQ(wbase % 64, 0u);
  Sim<Vane_td_table> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  const Memory mem{wbase, weights};
  for (int i = 0; i < 6 && !HasFailure(); ++i) {
    const Traffic tr = i == 0 ? Traffic{} : RandomTraffic(rng, kLimits);
    RunBlob(sim, mem, wbase + off, blob, tr, rng,
            "sigmoid.hwx, kernel DMA channel " + std::to_string(ch) + ", " + Describe(tr));
  }
}

// ---------------------------------------------------------------- directed corners

// N-5.1 corners, each a whole table: zeros of either sign (every zero result is +0, as
// DoubleToFp16 gives it), the largest values (m infinite: c infinite with the opposite sign of
// m xbar, on both halves of the domain), subnormal steps and intercepts at 2^-25 (ties to
// even), equal knots, a staircase of one ulp, and tables the front end meets (the sigmoid knots).
TEST(RtlTdTable, N5_1_DirectedCornersMatchTableFromBlob) {
  const uint64_t seed = test::TestSeed(0x7AB02);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_table> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  struct Case {
    std::string name;
    std::vector<uint16_t> knots;
    uint16_t left = 0, right = 0x3C00;
  };
  std::vector<Case> cases;
  auto fill = [](uint16_t v) { return std::vector<uint16_t>(33, v); };
  auto alt = [](uint16_t a, uint16_t b) {
    std::vector<uint16_t> k(33);
    for (size_t i = 0; i < k.size(); ++i) k[i] = i % 2 ? b : a;
    return k;
  };
  cases.push_back({"all +0", fill(0x0000)});
  cases.push_back({"all -0", fill(0x8000), 0x8000, 0x8000});
  cases.push_back({"-0, +0 alternating", alt(0x8000, 0x0000)});
  cases.push_back({"+0, -0 alternating", alt(0x0000, 0x8000)});
  cases.push_back({"all 65504", fill(0x7BFF), 0x7BFF, 0xFBFF});
  cases.push_back({"+-65504 alternating (m, c infinite)", alt(0x7BFF, 0xFBFF)});
  cases.push_back({"-65504, +65504 alternating", alt(0xFBFF, 0x7BFF)});
  cases.push_back({"32752, -32752 alternating (2 x 65504: m exactly 65504 or inf)", alt(0x77FF, 0xF7FF)});
  cases.push_back({"smallest subnormal, 0 alternating", alt(0x0001, 0x0000)});
  cases.push_back({"smallest subnormal, -0 alternating", alt(0x0001, 0x8000)});
  cases.push_back({"-smallest subnormal, +smallest", alt(0x8001, 0x0001)});
  cases.push_back({"largest subnormal, smallest normal", alt(0x03FF, 0x0400)});
  cases.push_back({"all 1.0", fill(0x3C00)});
  std::vector<uint16_t> stair(33), ramp(33), sig(33), big(33);
  for (uint16_t i = 0; i < 33; ++i) {
    stair[i] = uint16_t(0x3C00 + i);
    ramp[i] = oracle::DoubleToFp16(-8.0 + 0.5 * i);
    sig[i] = oracle::DoubleToFp16(1.0 / (1.0 + std::exp(8.0 - 0.5 * i)));
    big[i] = uint16_t(0x7800 + 31 * i);
  }
  cases.push_back({"one-ulp staircase at 1.0", stair});
  cases.push_back({"y = x (m = 1, c = 0)", ramp});
  cases.push_back({"sigmoid knots", sig});
  cases.push_back({"large rising knots", big, 0xFBFF, 0x7BFF});
  for (const Case& c : cases) {
    RunBlob(sim, KnotBlob(c.knots, c.left, c.right), Traffic{}, rng, c.name);
    RunBlob(sim, KnotBlob(c.knots, c.left, c.right), RandomTraffic(rng, kLimits), rng, c.name + ", random traffic");
  }
}

// ---------------------------------------------------------------- random blobs

// N-5.1: random blobs (knots across every exponent: signed zeros, subnormals, +-65504, equal
// neighbours, a few ulps apart, opposite-signed large pairs whose slope overflows; smooth
// curves at scales from 2^-24 to 2^15; tiny knots only), words 0, 1 and 37..39 random (NaN
// too: not the table's), at random 64-aligned addresses under random read latency (1..8),
// rd_ready / wr_ready low at random, random gaps before start_i, start_i again while busy (one
// conversion in four; ignored): every write equal to
// TableWrites(TableFromBlob(blob)). The outcomes are counted so that the corners are seen.
TEST(RtlTdTable, N5_1_RandomBlobsUnderRandomTraffic) {
  const uint64_t seed = test::TestSeed(0x7AB03);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_table> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  const int n = 2000 * int(test::SoakFactor());
  int m_inf = 0, c_inf = 0, m_sub = 0, c_sub = 0, m_zero = 0, c_zero = 0, m_max = 0, c_odd_tie = 0;
  for (int it = 0; it < n && !HasFailure(); ++it) {
    const int mode = rng.Below(4) == 0 ? 1 : rng.Below(8) == 0 ? 2 : 0;
    const std::vector<uint8_t> blob = RandomBlob(rng, mode);
    Traffic tr = RandomTraffic(rng, kLimits);
    if (it % 4 == 3) tr.restart_pct = 10;  // start_i pulses during the conversion, ignored
    RunBlob(sim, blob, tr, rng, "blob " + std::to_string(it) + " (mode " + std::to_string(mode) + "), " + Describe(tr));
    const oracle::ActTable t = td::TableFromBlob(blob.data(), blob.size());
    for (int s = 0; s < 32; ++s) {
      const uint16_t m = t.m[size_t(s)], c = t.c[size_t(s)];
      m_inf += (m & 0x7FFF) == 0x7C00;
      c_inf += (c & 0x7FFF) == 0x7C00;
      m_sub += (m & 0x7C00) == 0 && (m & 0x3FF) != 0;
      c_sub += (c & 0x7C00) == 0 && (c & 0x3FF) != 0;
      m_zero += m == 0;
      c_zero += c == 0;
      m_max += (m & 0x7FFF) == 0x7BFF;
      // c's exact value an odd multiple of 2^-25 below 2^-14: a tie of the subnormal rounding
      const double y0 = oracle::Fp16ToDouble(Word(blob, 4 + uint32_t(s)));
      const double y1 = oracle::Fp16ToDouble(Word(blob, 5 + uint32_t(s)));
      if ((m & 0x7C00) != 0x7C00) {
        const double cx = (y0 + y1) / 2 - oracle::Fp16ToDouble(m) * (-8.0 + (s + 0.5) * 0.5);
        const double q = std::ldexp(cx, 25);
        c_odd_tie += std::fabs(cx) < 0x1p-14 && std::fmod(std::fabs(q), 2.0) == 1.0;
      }
    }
  }
  std::printf(
      "%d blobs; segments with m inf %d, c inf %d, m subnormal %d, c subnormal %d, m +0 %d, c +0 %d, "
      "|m| 65504 %d, c a tie at 2^-25 %d\n",
      n, m_inf, c_inf, m_sub, c_sub, m_zero, c_zero, m_max, c_odd_tie);
  EXPECT_GT(m_inf, 0);
  EXPECT_GT(c_inf, 0);
  EXPECT_GT(m_sub, 0);
  EXPECT_GT(c_sub, 0);
  EXPECT_GT(m_zero, 0);
  EXPECT_GT(c_zero, 0);
  EXPECT_GT(m_max, 0);
  EXPECT_GT(c_odd_tie, 0);
}

// ---------------------------------------------------------------- refused blobs

// A11: a non-finite `left`, `right` or knot (+-inf or a NaN) in every word position 2 .. 36:
// error_o with err_word_o = that word, done_o once, no write at all (TableFromBlob refuses the
// blob). With several, the first is named. Each refused blob is followed by a good one, which
// is converted exactly (error_o cleared by start_i).
TEST(RtlTdTable, TD_A11_NonFiniteWordIsRefusedWithoutAWrite) {
  const uint64_t seed = test::TestSeed(0x7AB04);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_table> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  for (uint32_t w = kFirstWord; w <= kLastWord && !HasFailure(); ++w) {
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<uint8_t> blob = RandomBlob(rng, int(rng.Below(2)));
      const uint16_t v = kind == 0 ? 0x7C00 : kind == 1 ? 0xFC00 : NonFinite(rng);
      PutWord(blob, w, v);
      std::string what = "word " + std::to_string(w) + " = " + Hex16(v);
      if (kind == 3 && w < kLastWord) {  // a second one after it
        const uint32_t w2 = w + 1 + rng.Below(kLastWord - w);
        PutWord(blob, w2, NonFinite(rng));
        what += ", and word " + std::to_string(w2);
      }
      const Traffic tr = kind == 0 ? Traffic{} : RandomTraffic(rng, kLimits);
      RunResult res;
      RunBlob(sim, blob, tr, rng, what + ", " + Describe(tr), &res);
      EXPECT_TRUE(res.error) << what;
      EXPECT_EQ(res.err_word, w) << what;
      RunBlob(sim, RandomBlob(rng, 0), RandomTraffic(rng, kLimits), rng, "a good blob after " + what);
    }
  }
}

// ---------------------------------------------------------------- X seeds and reset

// N-7.1: the power-up state of the flops (--x-initial unique, seeds 1..4) changes no output of
// a conversion, cycle for cycle, under the same traffic.
TEST(RtlTdTable, N7_1_XSeedsDoNotChangeAnyOutput) {
  const uint64_t seed = test::TestSeed(0x7AB05);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng pick(seed);
  for (int it = 0; it < 20 && !HasFailure(); ++it) {
    std::vector<uint8_t> blob = RandomBlob(pick, int(pick.Below(3)));
    if (it % 4 == 3) PutWord(blob, kFirstWord + pick.Below(kLastWord - kFirstWord + 1), NonFinite(pick));
    const uint32_t at = RandomBase(pick);
    const Traffic tr = RandomTraffic(pick, kLimits);
    const uint64_t traffic = pick.Next();
    std::vector<std::string> first;
    for (uint32_t xs : {1u, 2u, 3u, 4u}) {
      Sim<Vane_td_table> sim(kTop, harness::CurrentTestStem() + ".x" + std::to_string(xs), xs);
      PowerUp(sim);
      Rng rng(traffic);
      std::vector<std::string> trace;
      RunResult res;
      ASSERT_TRUE(Convert(sim, Memory{at, blob}, at, tr, rng, &res, ~uint64_t(0), &trace));
      const Expected e = Reference(blob);
      EXPECT_EQ(res.error, e.error);
      if (!e.error) ExpectWrites(res.writes, e.writes, "x seed " + std::to_string(xs));
      test::ExpectSameAsXSeed1(xs, trace, &first, "conversion");
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// N-7.1: rst_ni in the middle of a conversion (anywhere from the first read to the last write,
// of a good or a refused blob), held 1-8 cycles while the inputs toggle at random (start_i,
// answers, readies), then 0-16 quiet cycles in which the block offers nothing (no request, no
// write, no done_o or error_o: nothing of the interrupted table is left), then a fresh
// conversion of another blob: exact. The memory model drops the interrupted reads' answers.
TEST(RtlTdTable, N7_1_ResetMidConversionThenAFreshConversionIsExact) {
  const uint64_t seed = test::TestSeed(0x7AB06);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const int n = 150 * int(test::SoakFactor());
  for (int it = 0; it < n && !HasFailure(); ++it) {
    const uint32_t xs = 1 + rng.Below(1000);
    std::vector<uint8_t> a = RandomBlob(rng, int(rng.Below(3)));
    if (it % 5 == 4) PutWord(a, kFirstWord + rng.Below(kLastWord - kFirstWord + 1), NonFinite(rng));
    const std::vector<uint8_t> b = RandomBlob(rng, int(rng.Below(3)));
    const uint32_t at = RandomBase(rng);
    Traffic tr = RandomTraffic(rng, kLimits);
    tr.start_delay_max = 0;
    const uint64_t traffic = rng.Next();
    uint64_t len = 0;  // the probe: conversion A to its end on a model of the same X seed
    {
      Sim<Vane_td_table> probe(kTop, harness::CurrentTestStem() + ".probe", xs);
      PowerUp(probe);
      Rng t(traffic);
      RunResult res;
      ASSERT_TRUE(Convert(probe, Memory{at, a}, at, tr, t, &res));
      len = res.end_cycle;
    }
    ASSERT_GT(len, 2u);
    const uint64_t cut = 1 + rng.Below(uint32_t(len - 1));  // cycles 1 .. len - 1: before done_o
    const int hold = 1 + int(rng.Below(8)), quiet = int(rng.Below(17));
    SCOPED_TRACE("iteration " + std::to_string(it) + ", x seed " + std::to_string(xs) + ", cut at cycle " +
                 std::to_string(cut) + " of " + std::to_string(len) + ", hold " + std::to_string(hold));
    Sim<Vane_td_table> sim(kTop, harness::CurrentTestStem(), xs);
    PowerUp(sim);
    {
      Rng t(traffic);
      RunResult res;
      ASSERT_FALSE(Convert(sim, Memory{at, a}, at, tr, t, &res, cut)) << "conversion A ended";
      EXPECT_EQ(res.dones, 0);
    }
    auto& d = sim.dut();
    sim.Reset(hold, [&] {
      d.start_i = rng.Below(2);
      d.base_i = uint32_t(rng.Next());
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
      ASSERT_FALSE(d.busy_o || d.rd_valid_o || d.wr_valid_o || d.done_o || d.error_o)
          << q << " cycles after the reset: " << Outputs(d);
      sim.Tick();
    }
    RunBlob(sim, b, tr, rng, "conversion B after the reset");
  }
}

// ---------------------------------------------------------------- cycle figures

// The figures of rtl/ane_td_table.sv's header comment, at fixed read latencies L = 1 .. 8 with
// both ports always ready: reads in cycles 1 .. 10, the first write in cycle 12 + L, the five
// header writes in consecutive cycles, segment s 6 cycles after segment s - 1, done_o in cycle
// 216 + L (217 at L = 1); a refused blob's done_o in cycle 11 + L. Printed and recorded.
TEST(RtlTdTable, TD_A11_CycleFigures) {
  const uint64_t seed = test::TestSeed(0x7AB07);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Vane_td_table> sim(kTop, harness::CurrentTestStem());
  PowerUp(sim);
  std::printf("latency  first write  segment 0  cycles/segment  done_o  refused: done_o\n");
  for (int lat = 1; lat <= 8; ++lat) {
    Traffic tr;
    tr.min_latency = tr.max_latency = lat;
    const std::string what = "latency " + std::to_string(lat);
    RunResult res;
    RunBlob(sim, RandomBlob(rng, 0), tr, rng, what, &res);
    ASSERT_EQ(res.writes.size(), kWrites) << what;
    ASSERT_EQ(res.read_cycles.size(), kBeats) << what;
    for (uint32_t r = 0; r < kBeats; ++r) EXPECT_EQ(res.read_cycles[r], 1u + r) << what << ": read " << r;
    const uint64_t extra = uint64_t(lat) - 1;
    EXPECT_EQ(res.write_cycles[0], kFirstWriteAtL1 + extra) << what;
    for (size_t h = 1; h < 5; ++h) EXPECT_EQ(res.write_cycles[h], res.write_cycles[0] + h) << what;
    for (size_t s = 0; s < 32; ++s) {
      EXPECT_EQ(res.write_cycles[5 + s], kSegmentAtL1 + extra + kSegmentInterval * s) << what << ": segment " << s;
    }
    EXPECT_EQ(res.end_cycle, kDoneAtL1 + extra) << what;
    std::vector<uint8_t> bad = RandomBlob(rng, 0);
    PutWord(bad, kLastWord, 0x7C00);
    RunResult refused;
    RunBlob(sim, bad, tr, rng, what + ", refused", &refused);
    EXPECT_EQ(refused.end_cycle, kErrorDoneAtL1 + extra) << what;
    std::printf("%7d  %11llu  %9llu  %14.1f  %6llu  %16llu\n", lat, (unsigned long long)res.write_cycles[0],
                (unsigned long long)res.write_cycles[5],
                double(res.write_cycles[kWrites - 1] - res.write_cycles[5]) / 31.0, (unsigned long long)res.end_cycle,
                (unsigned long long)refused.end_cycle);
    const std::string key = "L" + std::to_string(lat);
    RecordProperty(key + "_first_write", std::to_string(res.write_cycles[0]));
    RecordProperty(key + "_done", std::to_string(res.end_cycle));
  }
}

}  // namespace
}  // namespace ane
