// SPDX-License-Identifier: Apache-2.0
// Drives an ane_postproc model (any NumLanes, any generation): loads an oracle PostConfig through
// the configuration port (the register map of rtl/ane_postproc.sv and docs/postproc.md) and
// streams lane vectors through it with optional random input gaps and output back-pressure.
// ResetMidJob resets it in the middle of a job.
#ifndef TB_HARNESS_POSTPROC_DRIVER_H_
#define TB_HARNESS_POSTPROC_DRIVER_H_

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/harness/sim.h"
#include "tb/oracle/postproc.h"
#include "tb/regs/ane_regs.h"

namespace ane::harness {

// The registers are the POSTPROC window's (rtl/regs/ane_regs.yaml, docs/postproc.md), packed with
// tb/regs/ane_regs.h; a value that does not fit its field throws std::out_of_range.

// The CTRL register.
inline uint32_t PostCtrlWord(const oracle::PostConfig& c) {
  namespace rc = regs::core;
  return rc::PackWindow(rc::kPostproc, rc::kPostprocCtrlAddr,
                        {{rc::kPostprocCtrlIntAcc, c.int_acc},
                         {rc::kPostprocCtrlShift, c.shift},
                         {rc::kPostprocCtrlStoreInt8, c.store == oracle::PostStore::kInt8},
                         {rc::kPostprocCtrlSr, c.sr},
                         {rc::kPostprocCtrlSrWidth, c.sr_width},
                         {rc::kPostprocCtrlScaleEn, c.scale_en},
                         {rc::kPostprocCtrlBiasEn, c.bias_en},
                         {rc::kPostprocCtrlAct, int64_t(c.act)}});  // the RTL's code (rtl_codes.h)
}

// The table registers TBL0..TBL4 and the segments (SEG + i).
inline std::vector<std::pair<uint32_t, uint32_t>> TableWrites(const oracle::ActTable& t) {
  namespace rc = regs::core;
  const auto pack = [](uint32_t a, std::initializer_list<rc::FieldValue> v) {
    return std::pair<uint32_t, uint32_t>{a, rc::PackWindow(rc::kPostproc, a, v)};
  };
  std::vector<std::pair<uint32_t, uint32_t>> w;
  w.push_back(pack(rc::kPostprocTbl0Addr, {{rc::kPostprocTbl0Mode, int64_t(t.mode)},
                                           {rc::kPostprocTbl0Sym, int64_t(t.sym)},
                                           {rc::kPostprocTbl0CosPhase, t.cos_phase},
                                           {rc::kPostprocTbl0PowSplit, t.pow_split},
                                           {rc::kPostprocTbl0PowNegate, t.pow_negate},
                                           {rc::kPostprocTbl0RightIdentity, t.right_identity},
                                           {rc::kPostprocTbl0ZeroEn, t.zero_en},
                                           {rc::kPostprocTbl0NegEn, t.neg_en},
                                           {rc::kPostprocTbl0StepLog2, t.step_log2 & 15},  // two's complement, -8 .. 7
                                           {rc::kPostprocTbl0Lo, t.lo}}));
  w.push_back(pack(rc::kPostprocTbl1Addr, {{rc::kPostprocTbl1K, t.k}, {rc::kPostprocTbl1Left, t.left}}));
  w.push_back(pack(rc::kPostprocTbl2Addr, {{rc::kPostprocTbl2Right, t.right}, {rc::kPostprocTbl2AtPinf, t.at_pinf}}));
  w.push_back(
      pack(rc::kPostprocTbl3Addr, {{rc::kPostprocTbl3AtNinf, t.at_ninf}, {rc::kPostprocTbl3AtZero, t.at_zero}}));
  w.push_back(pack(rc::kPostprocTbl4Addr, {{rc::kPostprocTbl4AtNeg, t.at_neg}}));
  static_assert(uint32_t(oracle::kActSegments) == rc::kPostprocSegCount);
  for (uint32_t i = 0; i < rc::kPostprocSegCount; ++i) {
    w.push_back({rc::kPostprocSegAddr + i, rc::PackWindow(rc::kPostproc, rc::kPostprocSegAddr,
                                                          {{rc::kPostprocSegM, t.m[i]}, {rc::kPostprocSegC, t.c[i]}})});
  }
  return w;
}

// Every configuration write of `c`, in order: CTRL, SEED, and with a table its registers.
inline std::vector<std::pair<uint32_t, uint32_t>> PostConfigWrites(const oracle::PostConfig& c) {
  namespace rc = regs::core;
  std::vector<std::pair<uint32_t, uint32_t>> w{
      {rc::kPostprocCtrlAddr, PostCtrlWord(c)},
      {rc::kPostprocSeedAddr,
       rc::PackWindow(rc::kPostproc, rc::kPostprocSeedAddr, {{rc::kPostprocSeedState, c.sr_seed}})}};
  if (c.act == oracle::PostAct::kTable) {
    for (const auto& tw : TableWrites(c.table)) w.push_back(tw);
  }
  return w;
}

struct PostVector {
  std::vector<uint32_t> acc;  // one per lane
  oracle::ChannelParams ch;
};

struct PostRunStats {
  uint64_t cycles = 0;         // from the first offered vector to the last result
  uint64_t first_latency = 0;  // cycles from the first accept to the first result
};

template <class Model>
class PostprocDriver {
 public:
  PostprocDriver(Sim<Model>& sim, int lanes) : sim_(sim), lanes_(lanes) {}

  void Reset() {
    Idle();
    sim_.Reset();
  }

  // Reset in the middle of a job (Sim::InterruptAt): rst_ni low for `hold` cycles while vectors
  // keep being offered and taken (`below` set: in_valid_i and out_ready_i at random), the
  // configuration port quiet; then idle. The configuration is to be written again.
  void ResetMidJob(int hold, const typename Sim<Model>::Below& below = {}) {
    Model& d = sim_.dut();
    sim_.ResetWithTraffic(
        hold, below, [&] { Idle(); },
        [&](const auto& r) {
          d.in_valid_i = r(2);
          d.out_ready_i = r(2);
        });
  }

  void Write(uint32_t addr, uint32_t data) { WriteConfig(sim_, addr, data); }

  void Configure(const oracle::PostConfig& c) {
    for (const auto& [a, v] : PostConfigWrites(c)) Write(a, v);
  }

  // Streams the vectors; `gap()` true holds the input idle for a cycle, `stall()` true holds
  // out_ready low for a cycle. Returns one output vector (lanes codes) per input vector.
  std::vector<std::vector<uint16_t>> Run(const std::vector<PostVector>& in, const std::function<bool()>& gap,
                                         const std::function<bool()>& stall, PostRunStats* stats = nullptr) {
    Model& d = sim_.dut();
    std::vector<std::vector<uint16_t>> out;
    size_t next = 0;
    const uint64_t start = sim_.cycles();
    uint64_t first_accept = 0;
    bool accepted_any = false;
    bool pending = false;  // an offered vector stays offered until taken (valid/ready)
    while (out.size() < in.size()) {
      const bool offer = next < in.size() && (pending || !gap());
      d.in_valid_i = offer;
      if (offer) {
        for (int l = 0; l < lanes_; ++l) d.in_acc_i[size_t(l)] = in[next].acc[size_t(l)];
        d.in_scale_i = in[next].ch.scale;
        d.in_bias_i = in[next].ch.bias;
      }
      d.out_ready_i = !stall();
      d.eval();
      const bool take_in = offer && d.in_ready_o;
      pending = offer && !take_in;
      const bool take_out = d.out_valid_o && d.out_ready_i;
      if (take_out && out.size() >= next) {
        // every result answers a vector of this run taken in an earlier cycle
        throw std::runtime_error("ane_postproc: a result with no vector in flight (cycle " +
                                 std::to_string(sim_.cycles()) + ")");
      }
      if (take_out) {
        std::vector<uint16_t> v(size_t(lanes_), 0);
        for (int l = 0; l < lanes_; ++l) {
          v[size_t(l)] = uint16_t(d.out_data_o[size_t(l / 2)] >> (16 * (l % 2)));
        }
        if (out.empty() && stats) stats->first_latency = sim_.cycles() - first_accept;
        out.push_back(std::move(v));
      }
      if (take_in) {
        if (!accepted_any) first_accept = sim_.cycles();
        accepted_any = true;
        ++next;
      }
      sim_.Tick();
    }
    Idle();
    if (stats) stats->cycles = sim_.cycles() - start;
    return out;
  }

 private:
  void Idle() {
    Model& d = sim_.dut();
    d.cfg_we_i = 0;
    d.in_valid_i = 0;
    d.out_ready_i = 1;
  }

  Sim<Model>& sim_;
  int lanes_;
};

}  // namespace ane::harness

#endif  // TB_HARNESS_POSTPROC_DRIVER_H_
