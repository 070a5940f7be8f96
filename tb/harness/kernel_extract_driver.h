// SPDX-License-Identifier: Apache-2.0
// Drives an ane_kernel_extract model: configures the reduction (C, KH, KW), streams compressed
// kernel groups (32-bit words, two per 64-bit beat) with random input gaps, and collects the
// operations and post-processing parameters with random back-pressure on both. ResetMidJob
// resets it in the middle of a stream.
#ifndef TB_HARNESS_KERNEL_EXTRACT_DRIVER_H_
#define TB_HARNESS_KERNEL_EXTRACT_DRIVER_H_

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/harness/sim.h"
#include "tb/oracle/kernel_codec.h"
#include "tb/regs/ane_regs.h"

namespace ane::harness {

struct ExtractOp {
  uint16_t coef_a = 0, coef_b = 0, coef_c = 0, coef_d = 0;
  int c = 0, ky = 0, kx = 0, slot = 0;
  bool first = false, last = false, end = false;
};
struct ExtractParam {
  int kernel = 0;
  oracle::KernelParams p;
};
struct ExtractStats {
  uint64_t cycles = 0;          // from the first offered beat to the last operation taken
  uint64_t op_cycles = 0;       // cycles with an operation taken
  uint64_t first_op_cycle = 0;  // cycle (from the start) of the first operation
};

template <class Model>
class KernelExtractDriver {
 public:
  explicit KernelExtractDriver(Sim<Model>& sim) : sim_(sim) {}

  void Reset() {
    Idle();
    sim_.Reset();
  }

  // Reset in the middle of a stream (Sim::InterruptAt): rst_ni low for `hold` cycles while beats
  // keep being offered and results taken (`below` set: kin_valid_i, op_ready_i and pp_ready_i
  // at random), the configuration port quiet; then idle. The configuration is to be written
  // again.
  void ResetMidJob(int hold, const typename Sim<Model>::Below& below = {}) {
    Model& d = sim_.dut();
    sim_.ResetWithTraffic(
        hold, below, [&] { Idle(); },
        [&](const auto& r) {
          d.kin_valid_i = r(2);
          d.op_ready_i = r(2);
          d.pp_ready_i = r(2);
        });
  }

  void Configure(int channels, int kh, int kw) {
    Model& d = sim_.dut();
    d.cfg_we_i = 1;
    namespace rc = regs::core;  // the core's KEXT register (rtl/regs/ane_regs.yaml)
    d.cfg_wdata_i = rc::Pack(rc::kKextAddr, {{rc::kKextC, channels}, {rc::kKextKh, kh}, {rc::kKextKw, kw}});
    sim_.Tick();
    d.cfg_we_i = 0;
  }

  // Streams `words` and runs until `ops` operations and `params` records came out and the
  // extract is idle again.
  void Run(const std::vector<uint32_t>& words, size_t ops, size_t params, const std::function<bool()>& gap,
           const std::function<bool()>& op_stall, const std::function<bool()>& pp_stall,
           std::vector<ExtractOp>* out_ops, std::vector<ExtractParam>* out_params, ExtractStats* stats = nullptr) {
    Model& d = sim_.dut();
    size_t beat = 0;
    const size_t beats = words.size() / 2;
    bool pending = false;
    const uint64_t start = sim_.cycles();
    ExtractStats st;
    uint64_t idle_after = 0;
    while (out_ops->size() < ops || out_params->size() < params || beat < beats || idle_after < 4) {
      const bool offer = beat < beats && (pending || !gap());
      d.kin_valid_i = offer;
      if (offer) d.kin_data_i = uint64_t(words[2 * beat]) | uint64_t(words[2 * beat + 1]) << 32;
      d.op_ready_i = !op_stall();
      d.pp_ready_i = !pp_stall();
      d.eval();
      const bool take = offer && d.kin_ready_o;
      pending = offer && !take;
      if (beat == 0 && ((d.op_valid_o && d.op_ready_i) || (d.pp_valid_o && d.pp_ready_i))) {
        // nothing of this stream has gone in: the result is left over from an earlier one
        throw std::runtime_error("kernel extract: a result before the stream's first beat (cycle " +
                                 std::to_string(sim_.cycles()) + ")");
      }
      if (d.op_valid_o && d.op_ready_i) {
        ExtractOp o;
        o.coef_a = d.op_coef_a_o;
        o.coef_b = d.op_coef_b_o;
        o.coef_c = d.op_coef_c_o;
        o.coef_d = d.op_coef_d_o;
        o.c = d.op_c_o;
        o.ky = d.op_ky_o;
        o.kx = d.op_kx_o;
        o.slot = d.op_slot_o;
        o.first = d.op_first_o;
        o.last = d.op_last_o;
        o.end = d.op_end_o;
        if (st.op_cycles == 0) st.first_op_cycle = sim_.cycles() - start;
        ++st.op_cycles;
        out_ops->push_back(o);
        st.cycles = sim_.cycles() - start + 1;
      }
      if (d.pp_valid_o && d.pp_ready_i) {
        ExtractParam p;
        p.kernel = d.pp_kernel_o;
        p.p.scale = d.pp_scale_o;
        p.p.bias = d.pp_bias_o;
        out_params->push_back(p);
      }
      if (take) ++beat;
      idle_after =
          (out_ops->size() >= ops && out_params->size() >= params && beat >= beats && !d.busy_o) ? idle_after + 1 : 0;
      sim_.Tick();
      if (sim_.cycles() - start > 50 * (words.size() + ops + 100)) {
        throw std::runtime_error("kernel extract: no progress (ops " + std::to_string(out_ops->size()) + " of " +
                                 std::to_string(ops) + ")");
      }
    }
    Idle();
    if (stats) *stats = st;
  }

 private:
  void Idle() {
    Model& d = sim_.dut();
    d.cfg_we_i = 0;
    d.kin_valid_i = 0;
    d.op_ready_i = 1;
    d.pp_ready_i = 1;
  }

  Sim<Model>& sim_;
};

}  // namespace ane::harness

#endif  // TB_HARNESS_KERNEL_EXTRACT_DRIVER_H_
