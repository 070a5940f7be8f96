// SPDX-License-Identifier: Apache-2.0
// Drivers and stimulus of the planar engine's stream units (NUMERICS N-4): the elementwise unit
// (ane_pe_ew, 16 lanes), the format converter (ane_pe_fc, 16 lanes, 16 channels), the patch
// transpose (ane_pe_transpose, 8 x 8) and the reduction tree (ane_pe_reduce). Shared by their own
// tests (rtl_planar_test, rtl_planar_fc_test) and the mid-job reset test: one valid/ready stream
// loop (DriveStream), each unit's payload, oracle and check around it.
#ifndef TB_TESTS_PE_UNITS_H_
#define TB_TESTS_PE_UNITS_H_

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "Vane_pe_ew16.h"
#include "Vane_pe_fc16.h"
#include "Vane_pe_reduce.h"
#include "Vane_pe_transpose8.h"
#include "tb/harness/planar_run.h"
#include "tb/harness/sim.h"
#include "tb/oracle/planar.h"
#include "tb/tests/planar_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

// How a stream went. Cycles count from the driver's first cycle.
struct StreamRun {
  uint64_t cycles = 0;
  uint64_t first_result = 0;  // the cycle of the first result
  uint64_t last_cycle = 0;    // Sim::cycles() of the last result
  uint64_t results = 0;
  uint64_t compared = 0;  // lane values compared (the units' checks count them)
};

// One valid/ready stream: `n_in` input beats offered in order (a beat stays offered until taken;
// a new one is offered with probability 1 - gap_pct %), the output ready with probability
// 1 - stall_pct %, until `n_out` results have left. put(i) drives input beat i; extra() drives
// anything else of the cycle (after put, before the ready draw); on_out(k, run) checks result k
// and returns false to stop (after a failure); on_take(i) follows input beat i's handshake.
template <class Model, class Put, class Extra, class Out, class Take>
StreamRun DriveStream(harness::Sim<Model>& sim, size_t n_in, size_t n_out, Rng& rng, int gap_pct, int stall_pct,
                      Put&& put, Extra&& extra, Out&& on_out, Take&& on_take) {
  auto& d = sim.dut();
  StreamRun run;
  size_t next = 0;
  bool pending = false;
  while (run.results < n_out) {
    const bool offer = next < n_in && (pending || int(rng.Below(100)) >= gap_pct);
    d.in_valid_i = offer;
    if (offer) put(next);
    extra();
    d.out_ready_i = int(rng.Below(100)) >= stall_pct;
    sim.Eval();
    if (d.out_valid_o && d.out_ready_i) {
      if (run.results == 0) run.first_result = run.cycles;
      if (!on_out(size_t(run.results), next, run)) return run;
      ++run.results;
      run.last_cycle = sim.cycles();
    }
    const bool take = offer && d.in_ready_o;
    pending = offer && !take;
    if (take) on_take(next++);
    sim.Tick();
    ++run.cycles;
  }
  d.in_valid_i = 0;
  return run;
}

// Lane l of a port that packs two 16-bit values per 32-bit word.
template <class Port>
uint16_t PackedLane(const Port& p, int l) {
  return uint16_t(p[size_t(l / 2)] >> (16 * (l % 2)));
}
template <class Port, class Values>
void PutPacked(Port& p, const Values& v, size_t at, int n) {
  for (int w = 0; w < n / 2; ++w)
    p[size_t(w)] = uint32_t(v[at + size_t(2 * w)]) | uint32_t(v[at + size_t(2 * w + 1)]) << 16;
}

template <class Model>
void StartStreamUnit(harness::Sim<Model>& sim) {
  sim.dut().in_valid_i = 0;
  sim.dut().out_ready_i = 1;
  sim.Reset();
}

// ---- ane_pe_ew ----

constexpr int kEwLanes = 16;
constexpr int kEwOps = 12;
inline const char* EwName(int op) {
  static const char* const kNames[kEwOps] = {"add", "sub", "mul",  "max",    "min",   "compare",
                                             "abs", "neg", "relu", "square", "a+b*c", "(a+b)*c"};
  return op >= 0 && op < kEwOps ? kNames[op] : "?";
}

struct EwVec {
  int op = 0;
  std::array<uint16_t, kEwLanes> a{}, b{}, c{};
};

// A vector of random operands for a random operation; with `cancel`, a quarter of the lanes
// have b = +-a (cancellations and ties).
inline EwVec RandomEwVec(Rng& rng, bool cancel) {
  EwVec v;
  v.op = int(rng.Below(kEwOps));
  for (int l = 0; l < kEwLanes; ++l) {
    v.a[size_t(l)] = rng.Code();
    v.b[size_t(l)] = rng.Code();
    v.c[size_t(l)] = rng.Code();
    if (cancel && rng.Below(4) == 0) v.b[size_t(l)] = v.a[size_t(l)] ^ uint16_t(rng.Below(2) << 15);
  }
  return v;
}

// Every lane of every result, in order, against EwOracle.
inline StreamRun DriveEw(harness::Sim<Vane_pe_ew16>& sim, const std::vector<EwVec>& in, Rng& rng, int gap_pct,
                         int stall_pct) {
  auto& d = sim.dut();
  return DriveStream(
      sim, in.size(), in.size(), rng, gap_pct, stall_pct,
      [&](size_t i) {
        d.in_op_i = uint8_t(in[i].op);
        PutPacked(d.in_a_i, in[i].a, 0, kEwLanes);
        PutPacked(d.in_b_i, in[i].b, 0, kEwLanes);
        PutPacked(d.in_c_i, in[i].c, 0, kEwLanes);
      },
      [] {},
      [&](size_t k, size_t taken, StreamRun& run) {
        if (k >= taken) {
          ADD_FAILURE() << "a result with no vector in flight, cycle " << sim.cycles();
          return false;
        }
        const EwVec& v = in[k];
        for (int l = 0; l < kEwLanes; ++l) {
          const uint16_t got = PackedLane(d.out_y_o, l);
          const uint16_t want = EwOracle(v.op, v.a[size_t(l)], v.b[size_t(l)], v.c[size_t(l)]);
          if (got != want) {
            ADD_FAILURE() << "vector " << k << " " << EwName(v.op) << " lane " << l << std::hex << " a 0x"
                          << v.a[size_t(l)] << " b 0x" << v.b[size_t(l)] << " c 0x" << v.c[size_t(l)] << ": rtl 0x"
                          << got << ", oracle 0x" << want;
            return false;
          }
          ++run.compared;
        }
        return true;
      },
      [](size_t) {});
}

// ---- ane_pe_fc ----

constexpr int kFcLanes = 16;
constexpr int kFcChannels = 16;

struct FcBeat {
  std::array<uint16_t, kFcLanes> data{};
  bool in_int8 = false, perch = false, gain = false, out_int8 = false;
  int ch = 0;
  oracle::FcUnary unary = oracle::FcUnary::kNone;
};
struct FcWrite {
  int addr = 0;
  uint16_t scale = 0x3C00, bias = 0;  // the reset value of every entry: scale 1.0, bias +0
};

// A table operand: 1.0, +0, +-16, near 1, or any code.
inline uint16_t FcOperand(Rng& rng) {
  switch (rng.Below(6)) {
    case 0: return 0x3C00;
    case 1: return 0x0000;
    case 2: return uint16_t(0x4C00 ^ (rng.Below(2) << 15));
    case 3: return uint16_t((rng.Below(2) << 15) | (0x3000 + rng.Below(0x1800)));
    default: return rng.Code();
  }
}

inline std::vector<FcBeat> RandomFcBeats(Rng& rng, size_t n) {
  std::vector<FcBeat> in(n);
  for (FcBeat& b : in) {
    b.in_int8 = rng.Below(4) == 0;
    b.perch = rng.Below(2) == 0;
    b.ch = int(rng.Below(kFcChannels));
    b.unary = oracle::FcUnary(rng.Below(4));
    b.gain = rng.Below(4) == 0;
    b.out_int8 = rng.Below(4) == 0;
    for (auto& v : b.data) {
      v = rng.Code();
      if (rng.Below(8) == 0) v = uint16_t((rng.Below(2) << 15) | (0x6B00 + rng.Below(0x1200)));  // near overflow
    }
  }
  return in;
}

// ane_pe_fc with a mirror of its table (every entry at its reset value when made: a driver made
// after a reset, mid-job or not, must see no earlier entry).
class FcDriver {
 public:
  explicit FcDriver(harness::Sim<Vane_pe_fc16>& sim) : sim_(sim) {}

  // Writes table entries with the pipeline idle.
  void Load(const std::vector<FcWrite>& writes) {
    for (const FcWrite& w : writes) {
      Put(w);
      sim_.Eval();
      table_[size_t(w.addr)] = w;
      sim_.Tick();
    }
    sim_.dut().cfg_we_i = 0;
  }

  // Streams beats with gaps, back-pressure and (write_pct) table writes in random cycles; every
  // lane of every result is checked in order.
  StreamRun Run(const std::vector<FcBeat>& in, Rng& rng, int gap_pct, int stall_pct, int write_pct) {
    auto& d = sim_.dut();
    std::deque<std::pair<FcBeat, std::array<uint16_t, kFcLanes>>> expect;
    FcWrite w;
    bool write = false;
    const StreamRun run = DriveStream(
        sim_, in.size(), in.size(), rng, gap_pct, stall_pct, [&](size_t i) { Put(in[i]); },
        [&] {
          if (write) table_[size_t(w.addr)] = w;  // last cycle's write, done at its edge
          write = int(rng.Below(100)) < write_pct;
          if (write) {
            w.addr = int(rng.Below(kFcChannels));
            w.scale = FcOperand(rng);
            w.bias = FcOperand(rng);
            Put(w);
          } else {
            d.cfg_we_i = 0;
          }
        },
        [&](size_t k, size_t, StreamRun& r) {
          if (expect.empty()) {
            ADD_FAILURE() << "a result with no beat in flight, cycle " << sim_.cycles();
            return false;
          }
          const auto& [beat, want] = expect.front();
          for (int l = 0; l < kFcLanes; ++l) {
            const uint16_t got = PackedLane(d.out_y_o, l);
            if (got != want[size_t(l)]) {
              ADD_FAILURE() << std::hex << "beat " << k << " lane " << l << " in 0x" << beat.data[size_t(l)] << " int8 "
                            << beat.in_int8 << " unary " << oracle::FcUnaryName(beat.unary) << " gain " << beat.gain
                            << " out_int8 " << beat.out_int8 << ": rtl 0x" << got << ", oracle 0x" << want[size_t(l)];
              return false;
            }
            ++r.compared;
          }
          expect.pop_front();
          return true;
        },
        [&](size_t i) {
          // the beat reads the table as it is before this cycle's write
          expect.emplace_back(in[i], Expected(in[i]));
        });
    // the last cycle's write, if any, happened at its edge; the table after it
    if (write) table_[size_t(w.addr)] = w;
    d.in_valid_i = 0;
    d.cfg_we_i = 0;
    return run;
  }

 private:
  std::array<uint16_t, kFcLanes> Expected(const FcBeat& b) const {
    const FcWrite& e = table_[size_t(b.perch ? b.ch : 0)];
    oracle::FcConfig c;
    c.in_int8 = b.in_int8;
    c.scale = e.scale;
    c.bias = e.bias;
    c.unary = b.unary;
    c.gain = b.gain;
    c.out_int8 = b.out_int8;
    std::array<uint16_t, kFcLanes> y{};
    for (int l = 0; l < kFcLanes; ++l) y[size_t(l)] = oracle::FormatConvert(c, b.data[size_t(l)]);
    return y;
  }
  void Put(const FcBeat& b) {
    auto& d = sim_.dut();
    PutPacked(d.in_data_i, b.data, 0, kFcLanes);
    d.in_int8_i = b.in_int8;
    d.in_perch_i = b.perch;
    d.in_ch_i = uint8_t(b.ch);
    d.in_unary_i = uint8_t(b.unary);
    d.in_gain_i = b.gain;
    d.in_out_int8_i = b.out_int8;
  }
  void Put(const FcWrite& w) {
    auto& d = sim_.dut();
    d.cfg_we_i = 1;
    d.cfg_addr_i = uint8_t(w.addr);
    d.cfg_scale_i = w.scale;
    d.cfg_bias_i = w.bias;
  }

  harness::Sim<Vane_pe_fc16>& sim_;
  std::array<FcWrite, kFcChannels> table_{};
};

// ---- ane_pe_transpose ----

constexpr int kTn = 8;

inline std::vector<std::vector<uint16_t>> RandomTransposePatches(Rng& rng, size_t n) {
  std::vector<std::vector<uint16_t>> patches(n, std::vector<uint16_t>(kTn * kTn));
  for (auto& p : patches)
    for (auto& v : p) v = rng.Code();
  return patches;
}

// Patches in as rows; every column beat against oracle::TransposePatch. A patch's columns leave
// only once its last row is in.
inline StreamRun DriveTranspose(harness::Sim<Vane_pe_transpose8>& sim,
                                const std::vector<std::vector<uint16_t>>& patches, Rng& rng, int gap_pct,
                                int stall_pct) {
  auto& d = sim.dut();
  const size_t beats = patches.size() * kTn;
  return DriveStream(
      sim, beats, beats, rng, gap_pct, stall_pct,
      [&](size_t i) { PutPacked(d.in_row_i, patches[i / kTn], (i % kTn) * kTn, kTn); }, [] {},
      [&](size_t k, size_t taken, StreamRun& run) {
        if (k / kTn >= taken / kTn) {
          ADD_FAILURE() << "a column of a patch not yet received, cycle " << sim.cycles();
          return false;
        }
        const auto t = oracle::TransposePatch(patches[k / kTn], kTn);
        const size_t col = k % kTn;
        for (int i = 0; i < kTn; ++i) {
          const uint16_t got = PackedLane(d.out_col_o, i);
          if (got != t[col * kTn + size_t(i)]) {
            ADD_FAILURE() << "patch " << k / kTn << " column " << col << " element " << i << std::hex << ": rtl 0x"
                          << got << ", oracle 0x" << t[col * kTn + size_t(i)];
            return false;
          }
          ++run.compared;
        }
        return true;
      },
      [](size_t) {});
}

// ---- ane_pe_reduce ----

struct ReduceResult {
  uint32_t fp32;
  uint16_t fp16;
};

// The oracle's results of a patch stream: the tree, the running register, the fp16 store.
inline std::vector<ReduceResult> ReduceOracle(const std::vector<Patch>& in) {
  std::vector<ReduceResult> r;
  uint32_t acc = 0;
  for (const Patch& p : in) {
    const uint32_t t = oracle::ReduceTree(p.op, p.v, p.mask);
    acc = p.first ? t : oracle::ReduceAccumulate(p.op, acc, t);
    if (p.last) r.push_back({acc, oracle::ReduceFinish(acc)});
  }
  return r;
}

// Every result (fp32 register and fp16 store), in order, against ReduceOracle; a result before
// its reduction's last patch is in fails. `got` (if given) receives the results.
inline StreamRun DriveReduce(harness::Sim<Vane_pe_reduce>& sim, const std::vector<Patch>& in, Rng& rng, int gap_pct,
                             int stall_pct, std::vector<ReduceResult>* got = nullptr) {
  auto& d = sim.dut();
  const std::vector<ReduceResult> want = ReduceOracle(in);
  size_t complete = 0;  // reductions whose last patch is in
  return DriveStream(
      sim, in.size(), want.size(), rng, gap_pct, stall_pct,
      [&](size_t i) {
        const Patch& p = in[i];
        d.in_op_i = uint8_t(harness::TreeOp(p.op));
        d.in_first_i = p.first;
        d.in_last_i = p.last;
        d.in_mask_i = p.mask;
        PutPacked(d.in_data_i, p.v, 0, 64);
      },
      [] {},
      [&](size_t k, size_t, StreamRun& run) {
        if (got) got->push_back({d.out_fp32_o, d.out_fp16_o});
        if (k >= complete) {
          ADD_FAILURE() << "a result with no reduction complete, cycle " << sim.cycles();
          return false;
        }
        if (d.out_fp32_o != want[k].fp32 || d.out_fp16_o != want[k].fp16) {
          ADD_FAILURE() << "result " << k << std::hex << ": rtl 0x" << d.out_fp32_o << " / 0x" << d.out_fp16_o
                        << ", oracle 0x" << want[k].fp32 << " / 0x" << want[k].fp16;
          return false;
        }
        ++run.compared;
        return true;
      },
      [&](size_t i) { complete += in[i].last; });
}

}  // namespace ane::test

#endif  // TB_TESTS_PE_UNITS_H_
