// SPDX-License-Identifier: Apache-2.0
// The planar engine's format converter and patch transpose against the oracle
// (tb/oracle/planar.h FormatConvert, TransposePatch; NUMERICS N-1, N-4.1, N-4.2, N-4.6):
//   - ane_pe_fc (16 lanes, 16 channels): every fp16 code and every int8 code through each
//     unary operation, the gain and both output formats; 10^6 random lane values with random
//     per-beat controls, per-channel and scalar broadcast, table writes while beats flow, input
//     gaps and back-pressure; X seeds; one vector per cycle, latency 9;
//   - ane_pe_transpose (8 x 8): random patch streams with gaps and back-pressure, X seeds, one
//     beat per cycle in and out.
#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <memory>
#include <vector>

#include "Vane_pe_fc16.h"
#include "Vane_pe_transpose8.h"
#include "tb/harness/sim.h"
#include "tb/oracle/planar.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::FcConfig;
using oracle::FcUnary;

constexpr int kFcLanes = 16;
constexpr int kFcChannels = 16;

struct FcBeat {
  std::array<uint16_t, kFcLanes> data{};
  bool in_int8 = false, perch = false, gain = false, out_int8 = false;
  int ch = 0;
  FcUnary unary = FcUnary::kNone;
};
struct FcWrite {
  int addr = 0;
  uint16_t scale = 0x3C00, bias = 0;
};

class FcBench {
 public:
  explicit FcBench(uint32_t x_seed = 1) : sim_("ane_pe_fc", harness::CurrentTestStem(), x_seed) {
    auto& d = sim_.dut();
    d.in_valid_i = 0;
    d.cfg_we_i = 0;
    d.out_ready_i = 1;
    sim_.Reset();
    for (auto& e : table_) e = FcWrite{};
  }
  harness::Sim<Vane_pe_fc16>& sim() { return sim_; }

  // Writes table entries with the pipeline idle.
  void Load(const std::vector<FcWrite>& writes) {
    for (const FcWrite& w : writes) {
      Drive(w);
      sim_.Eval();
      table_[size_t(w.addr)] = w;
      sim_.Tick();
    }
    sim_.dut().cfg_we_i = 0;
  }

  // Streams beats with gaps, back-pressure and (write_pct) table writes in random cycles; every
  // lane of every result is checked in order. Returns the lane results compared.
  uint64_t Run(const std::vector<FcBeat>& in, test::Rng& rng, int gap_pct, int stall_pct, int write_pct) {
    auto& d = sim_.dut();
    size_t next = 0, done = 0;
    bool pending = false;
    uint64_t compared = 0;
    std::deque<std::pair<FcBeat, std::array<uint16_t, kFcLanes>>> expect;
    while (done < in.size()) {
      const bool offer = next < in.size() && (pending || int(rng.Below(100)) >= gap_pct);
      d.in_valid_i = offer;
      if (offer) Drive(in[next]);
      FcWrite w;
      const bool write = int(rng.Below(100)) < write_pct;
      if (write) {
        w.addr = int(rng.Below(kFcChannels));
        w.scale = RandomOperand(rng);
        w.bias = RandomOperand(rng);
        Drive(w);
      } else {
        d.cfg_we_i = 0;
      }
      d.out_ready_i = int(rng.Below(100)) >= stall_pct;
      sim_.Eval();
      if (d.out_valid_o && d.out_ready_i) {
        if (expect.empty()) {
          ADD_FAILURE() << "a result nobody sent, cycle " << sim_.cycles();
          return compared;
        }
        const auto& [beat, want] = expect.front();
        for (int l = 0; l < kFcLanes; ++l) {
          const uint16_t got = uint16_t(d.out_y_o[size_t(l / 2)] >> (16 * (l % 2)));
          if (got != want[size_t(l)]) {
            const FcWrite& e = table_[size_t(beat.perch ? beat.ch : 0)];
            ADD_FAILURE() << std::hex << "lane " << l << " in 0x" << beat.data[size_t(l)] << " int8 " << beat.in_int8
                          << " unary " << oracle::FcUnaryName(beat.unary) << " gain " << beat.gain << " out_int8 "
                          << beat.out_int8 << " (table now 0x" << e.scale << " 0x" << e.bias << "): rtl 0x" << got
                          << ", oracle 0x" << want[size_t(l)];
            return compared;
          }
          ++compared;
        }
        expect.pop_front();
        ++done;
      }
      const bool take = offer && d.in_ready_o;
      if (take) {
        // the beat reads the table as it is before this cycle's write
        const FcBeat& b = in[next];
        const FcWrite& e = table_[size_t(b.perch ? b.ch : 0)];
        FcConfig c;
        c.in_int8 = b.in_int8;
        c.scale = e.scale;
        c.bias = e.bias;
        c.unary = b.unary;
        c.gain = b.gain;
        c.out_int8 = b.out_int8;
        std::array<uint16_t, kFcLanes> want{};
        for (int l = 0; l < kFcLanes; ++l) want[size_t(l)] = oracle::FormatConvert(c, b.data[size_t(l)]);
        expect.emplace_back(b, want);
        ++next;
      }
      pending = offer && !take;
      if (write) table_[size_t(w.addr)] = w;
      sim_.Tick();
    }
    d.in_valid_i = 0;
    d.cfg_we_i = 0;
    return compared;
  }

  static uint16_t RandomOperand(test::Rng& rng) {
    switch (rng.Below(6)) {
      case 0: return 0x3C00;                                                         // 1.0
      case 1: return 0x0000;                                                         // +0
      case 2: return uint16_t(0x4C00 ^ (rng.Below(2) << 15));                        // +-16
      case 3: return uint16_t((rng.Below(2) << 15) | (0x3000 + rng.Below(0x1800)));  // near 1
      default: return rng.Code();
    }
  }

 private:
  void Drive(const FcBeat& b) {
    auto& d = sim_.dut();
    for (int w = 0; w < kFcLanes / 2; ++w)
      d.in_data_i[size_t(w)] = uint32_t(b.data[size_t(2 * w)]) | uint32_t(b.data[size_t(2 * w + 1)]) << 16;
    d.in_int8_i = b.in_int8;
    d.in_perch_i = b.perch;
    d.in_ch_i = uint8_t(b.ch);
    d.in_unary_i = uint8_t(b.unary);
    d.in_gain_i = b.gain;
    d.in_out_int8_i = b.out_int8;
  }
  void Drive(const FcWrite& w) {
    auto& d = sim_.dut();
    d.cfg_we_i = 1;
    d.cfg_addr_i = uint8_t(w.addr);
    d.cfg_scale_i = w.scale;
    d.cfg_bias_i = w.bias;
  }

  harness::Sim<Vane_pe_fc16> sim_;
  std::array<FcWrite, kFcChannels> table_;
};

// Every fp16 code (and every int8 code) through every unary operation, with and without the
// gain, to fp16 and to int8, under the identity table entry and three others.
TEST(RtlPeFc, N4_1_N4_6_EveryCodeThroughEveryPath) {
  FcBench bench;
  test::Rng rng(0xFC01);
  const std::vector<FcWrite> entries = {
      {0, 0x3C00, 0x0000}, {1, 0xB800, 0x3555}, {2, 0x4C00, 0xC000}, {3, 0x0001, 0x8001}};
  bench.Load(entries);
  uint64_t compared = 0;
  for (int ch = 0; ch < 4; ++ch) {
    for (int in_int8 = 0; in_int8 < 2; ++in_int8) {
      std::vector<FcBeat> in;
      for (int u = 0; u < 4; ++u) {
        for (int gain = 0; gain < 2; ++gain) {
          for (int out_int8 = 0; out_int8 < 2; ++out_int8) {
            const uint32_t codes = in_int8 ? 256 : 0x10000;
            FcBeat b;
            b.in_int8 = in_int8;
            b.perch = ch != 0;
            b.ch = ch;
            b.unary = FcUnary(u);
            b.gain = gain;
            b.out_int8 = out_int8;
            for (uint32_t c = 0; c < codes; c += kFcLanes) {
              for (int l = 0; l < kFcLanes; ++l) b.data[size_t(l)] = uint16_t(c + uint32_t(l));
              in.push_back(b);
            }
          }
        }
      }
      compared += bench.Run(in, rng, 0, 0, 0);
      if (HasFailure()) return;
    }
  }
  EXPECT_EQ(compared, 4ull * 16 * (0x10000 + 256));
}

std::vector<FcBeat> RandomFcBeats(test::Rng& rng, size_t n) {
  std::vector<FcBeat> in(n);
  for (FcBeat& b : in) {
    b.in_int8 = rng.Below(4) == 0;
    b.perch = rng.Below(2) == 0;
    b.ch = int(rng.Below(kFcChannels));
    b.unary = FcUnary(rng.Below(4));
    b.gain = rng.Below(4) == 0;
    b.out_int8 = rng.Below(4) == 0;
    for (auto& v : b.data) {
      v = rng.Code();
      if (rng.Below(8) == 0)
        v = uint16_t((rng.Below(2) << 15) | (0x6B00 + rng.Below(0x1200)));  // near the gain's overflow
    }
  }
  return in;
}

// Broadcast of a per-channel vector (per-channel entries) and of a scalar (entry 0), random
// controls per beat, table writes in random cycles, gaps and back-pressure.
TEST(RtlPeFc, N4_1_RandomBeatsBroadcastAndTableWrites) {
  const uint64_t seed = test::TestSeed(0xFC02);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  FcBench bench;
  std::vector<FcWrite> entries;
  for (int c = 0; c < kFcChannels; ++c)
    entries.push_back({c, FcBench::RandomOperand(rng), FcBench::RandomOperand(rng)});
  bench.Load(entries);
  const size_t beats = size_t(1'000'000 * test::SoakFactor() / kFcLanes);
  const auto in = RandomFcBeats(rng, beats);
  EXPECT_EQ(bench.Run(in, rng, 25, 25, 5), beats * kFcLanes);
}

TEST(RtlPeFc, N4_1_XSeedsAndFullRate) {
  for (uint32_t x_seed : {5u, 555u}) {
    test::Rng rng(0xFC03);
    FcBench bench(x_seed);
    const auto in = RandomFcBeats(rng, 3000);
    const uint64_t start = bench.sim().cycles();
    EXPECT_EQ(bench.Run(in, rng, 0, 0, 0), in.size() * kFcLanes);
    EXPECT_EQ(bench.sim().cycles() - start, in.size() + 9) << "one vector per cycle, latency 9";
  }
}

// ---- the patch transpose ----

constexpr int kTn = 8;

// Streams patches as rows; checks every column beat against TransposePatch. Returns cycles.
uint64_t RunTranspose(harness::Sim<Vane_pe_transpose8>& sim, const std::vector<std::vector<uint16_t>>& patches,
                      test::Rng& rng, int gap_pct, int stall_pct) {
  auto& d = sim.dut();
  const size_t beats = patches.size() * kTn;
  size_t next = 0, done = 0;
  bool pending = false;
  const uint64_t start = sim.cycles();
  while (done < beats) {
    const bool offer = next < beats && (pending || int(rng.Below(100)) >= gap_pct);
    d.in_valid_i = offer;
    if (offer) {
      const auto& p = patches[next / kTn];
      const size_t row = next % kTn;
      for (int w = 0; w < kTn / 2; ++w)
        d.in_row_i[size_t(w)] = uint32_t(p[row * kTn + size_t(2 * w)]) | uint32_t(p[row * kTn + size_t(2 * w + 1)])
                                                                             << 16;
    }
    d.out_ready_i = int(rng.Below(100)) >= stall_pct;
    sim.Eval();
    if (d.out_valid_o && d.out_ready_i) {
      const auto t = oracle::TransposePatch(patches[done / kTn], kTn);
      const size_t col = done % kTn;
      for (int i = 0; i < kTn; ++i) {
        const uint16_t got = uint16_t(d.out_col_o[size_t(i / 2)] >> (16 * (i % 2)));
        if (got != t[col * kTn + size_t(i)]) {
          ADD_FAILURE() << "patch " << done / kTn << " column " << col << " element " << i << ": rtl 0x" << std::hex
                        << got << ", expected 0x" << t[col * kTn + size_t(i)];
          return 0;
        }
      }
      ++done;
    }
    const bool take = offer && d.in_ready_o;
    pending = offer && !take;
    if (take) ++next;
    sim.Tick();
  }
  d.in_valid_i = 0;
  return sim.cycles() - start;
}

std::vector<std::vector<uint16_t>> RandomPatches(test::Rng& rng, size_t n) {
  std::vector<std::vector<uint16_t>> patches(n, std::vector<uint16_t>(kTn * kTn));
  for (auto& p : patches)
    for (auto& v : p) v = rng.Code();
  return patches;
}

TEST(RtlPeTranspose, N4_1_RandomPatchesWithGapsAndBackPressure) {
  const uint64_t seed = test::TestSeed(0x7A05);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  harness::Sim<Vane_pe_transpose8> sim("ane_pe_transpose", harness::CurrentTestStem());
  sim.dut().in_valid_i = 0;
  sim.dut().out_ready_i = 1;
  sim.Reset();
  for (int gap : {0, 30, 70}) {
    for (int stall : {0, 30, 70}) {
      const auto patches = RandomPatches(rng, 300);
      EXPECT_GT(RunTranspose(sim, patches, rng, gap, stall), 0u) << "gaps " << gap << "% stalls " << stall << "%";
      if (HasFailure()) return;
    }
  }
}

TEST(RtlPeTranspose, N4_1_XSeedsAndFullRate) {
  for (uint32_t x_seed : {7u, 777u}) {
    test::Rng rng(0x7A06);
    harness::Sim<Vane_pe_transpose8> sim("ane_pe_transpose", harness::CurrentTestStem(), x_seed);
    sim.dut().in_valid_i = 0;
    sim.dut().out_ready_i = 1;
    sim.Reset();
    const auto patches = RandomPatches(rng, 500);
    // One row in and one column out per cycle: P patches take 8 P + 8 cycles (the last
    // patch's columns leave after its rows).
    EXPECT_EQ(RunTranspose(sim, patches, rng, 0, 0), 8u * patches.size() + 8u);
  }
}

}  // namespace
}  // namespace ane
