// SPDX-License-Identifier: Apache-2.0
// The TD front end and the engines run together (docs/td_fetch.md, "Running a program"): an
// ane_td_ctrl model (fetch, layer set-up, kernel DMA, table conversion) drives an ane_core
// model's and an ane_planar model's configuration ports, all clocked together, and one memory
// model answers every port of all three (the planar engine's through PlanarPorts): the TD, kernel and table reads and
// the staging writes of the front end, the input, kernel and output ports of the core. The memory model answers reads
// in order after a random latency and holds each port's ready low at random (CoreRunOptions), so tests show that
// neither changes a result. Nothing here plans a layer or writes a register: the driver gives the memory image, the
// buffer table and the first TD, and reads back memory.
#ifndef TB_HARNESS_TD_SYSTEM_H_
#define TB_HARNESS_TD_SYSTEM_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tb/harness/core_driver.h"
#include "tb/harness/planar_engine.h"
#include "tb/harness/sim.h"

namespace ane::harness {

inline constexpr int kTdBars = 32;  // buffer-table entries (5-bit indices in a TD)

struct TdSystemJob {
  uint32_t base = 0;           // the first TD's byte address
  uint32_t limit = 0;          // bytes of the TD buffer from base
  std::vector<uint32_t> bars;  // buffer-table byte addresses (up to kTdBars; missing: 0)
  uint32_t kstage = 0;         // the kernel staging region (64-aligned)
  uint64_t kstage_bytes = 0;   // its size: a staging write past it is an error
  // Called when the engine finishes a TD's task (its index among the tasks run, from 0), with
  // the memory as it is then: a later TD may overwrite what this one wrote.
  std::function<void(int task, const std::vector<uint8_t>& mem)> on_task_done;
};

struct TdLayerStat {
  uint64_t setup = 0;   // the set-up's cycles (capture excluded)
  uint64_t cycles = 0;  // START to done
  uint64_t mac = 0;     // the core's MAC cycles
};

struct TdSystemResult {
  bool error = false;        // the front end stopped the chain
  bool setup_error = false;  // ... in the set-up (else in the fetch)
  int err_code = 0, err_td = 0;
  uint32_t err_addr = 0;            // set-up code 5: the first refused word's address
  bool err_header = false;          // ... a header word (err_addr its TD offset)
  uint64_t cycles = 0;              // start to done (or to the end of an error)
  uint64_t core_busy_cycles = 0;    // cycles the core ran a layer (START to done)
  uint64_t planar_busy_cycles = 0;  // cycles the planar engine ran a task
  int planar_tasks = 0;             // planar engine runs (done_o pulses)
  uint64_t setup_cycles = 0;        // cycles the set-up took over every TD, capture excluded
  uint64_t mac_cycles = 0;          // the core's MAC cycles, summed over the TDs
  int layers = 0;                   // core runs (done_o pulses)
  uint64_t td_beats = 0, kernel_reads = 0, staging_writes = 0, table_reads = 0;
  std::vector<std::pair<uint32_t, uint32_t>> cfg_writes;     // the core's configuration writes, in order
  std::vector<std::pair<uint32_t, uint32_t>> pe_cfg_writes;  // the planar engine's
  std::vector<TdLayerStat> per_layer;                        // one per core run
};

template <class Ctrl, class Core, class Planar>
class TdSystem {
 public:
  TdSystem(Sim<Ctrl>& ctrl, Sim<Core>& core, Sim<Planar>& planar, const CoreParams& cp)
      : ctrl_(ctrl), core_(core), pe_(planar), out_bytes_(cp.out_bytes), port_bytes_(cp.PortBytes()) {}

  void Reset() {
    Idle();
    // both together, as one reset net
    for (int i = 0; i < 4; ++i) {
      ctrl_.dut().rst_ni = 0;
      core_.dut().rst_ni = 0;
      pe_.dut().rst_ni = 0;
      ctrl_.Tick();
      core_.Tick();
      pe_.Tick();
    }
    ctrl_.dut().rst_ni = 1;
    core_.dut().rst_ni = 1;
    pe_.dut().rst_ni = 1;
    for (auto* q : {&td_q_, &kd_q_, &tb_q_, &kq_}) q->clear();
    xq_.clear();
    pe_ports_.Clear();
    pe_idle_ = 0;
    pe_last_state_.clear();
  }

  std::vector<uint8_t>& mem() { return mem_; }

  // The planar engine is not clocked while it is quiet: kQuietAfter cycles after it was last
  // busy, written or moving data, with no answer of its read ports pending, until the front end
  // writes its configuration again. Its state then stands still (the core runs most of a
  // program's cycles, and clocking an idle ane_planar was 63% of a 224 x 224 program's
  // simulation time). `state`, when set, gives the model's state bytes with its inputs masked:
  // quiet cycles are then clocked and every one is checked to leave them unchanged (the test of
  // the assumption, RtlTdSystem.*). A waveform clocks every cycle.
  static constexpr int kQuietAfter = 64;
  void CheckQuietPlanar(std::function<std::vector<uint8_t>()> state) { pe_state_ = std::move(state); }
  uint64_t quiet_cycles() const { return quiet_cycles_; }

  // Runs the chain from job.base; `writable` says which bytes the core and the staging may write.
  TdSystemResult Run(const TdSystemJob& job, const std::function<bool(uint64_t)>& writable, const CoreRunOptions& opt,
                     uint64_t max_cycles = 200000000) {
    Ctrl& c = ctrl_.dut();
    Core& k = core_.dut();
    TdSystemResult r;
    c.base_i = job.base;
    c.limit_i = job.limit;
    for (int i = 0; i < kTdBars; ++i) c.bar_i[size_t(i)] = i < int(job.bars.size()) ? job.bars[size_t(i)] : 0u;
    c.kstage_i = job.kstage;
    c.start_i = 1;
    Step(opt, job, writable, &r);
    c.start_i = 0;
    const uint64_t t0 = ctrl_.cycles();
    for (;;) {
      c.eval();
      if (c.done_o) break;
      if (c.error_o && !c.busy_o && !k.busy_o && !pe_.dut().busy_o) break;
      if (ctrl_.cycles() - t0 > max_cycles)
        throw std::runtime_error("TD system: no end after " + std::to_string(max_cycles) + " cycles");
      Step(opt, job, writable, &r);
    }
    r.cycles = ctrl_.cycles() - t0;
    c.eval();
    r.error = c.error_o;
    r.setup_error = c.err_setup_o;
    r.err_code = int(c.err_code_o);
    r.err_td = int(c.err_td_o);
    r.err_addr = uint32_t(c.err_addr_o);
    r.err_header = c.err_header_o;
    return r;
  }

 private:
  using Queue = std::deque<std::pair<uint64_t, uint64_t>>;  // (due cycle, data)

  uint64_t Read8(uint64_t a) const {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      const uint64_t b = a + uint64_t(i) < mem_.size() ? mem_[size_t(a) + size_t(i)] : 0xA5;
      v |= b << (8 * i);
    }
    return v;
  }
  void Answer(Queue* q, uint64_t addr, uint64_t due) {
    if (!q->empty() && q->back().first >= due) due = q->back().first + 1;
    q->push_back({due, Read8(addr)});
  }
  void Write(uint64_t a, uint8_t v, const std::function<bool(uint64_t)>& writable, const char* who) {
    if (a >= mem_.size() || !writable(a)) {
      throw std::runtime_error(std::string(who) + " wrote byte 0x" + Hex(a) + ", outside what it may write");
    }
    mem_[size_t(a)] = v;
  }
  static std::string Hex(uint64_t a) {
    char b[32];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(a));
    return b;
  }

  void Idle() {
    Ctrl& c = ctrl_.dut();
    Core& k = core_.dut();
    c.start_i = 0;
    c.td_rd_ready_i = 0;
    c.td_rs_valid_i = 0;
    c.kd_rd_ready_i = 0;
    c.kd_rs_valid_i = 0;
    c.kd_wr_ready_i = 0;
    c.tb_rd_ready_i = 0;
    c.tb_rs_valid_i = 0;
    c.core_busy_i = 0;
    c.core_done_i = 0;
    k.cfg_we_i = 0;
    k.xr_ready_i = 0;
    k.xs_valid_i = 0;
    k.kr_ready_i = 0;
    k.ks_valid_i = 0;
    k.yw_ready_i = 0;
    Planar& p = pe_.dut();
    p.cfg_we_i = 0;
    p.s0_rd_ready_i = 0;
    p.s1_rd_ready_i = 0;
    p.s2_rd_ready_i = 0;
    p.s0_rs_valid_i = 0;
    p.s1_rs_valid_i = 0;
    p.s2_rs_valid_i = 0;
    p.wr_ready_i = 0;
    c.pe_busy_i = 0;
    c.pe_done_i = 0;
  }

  // One clock of both models.
  void Step(const CoreRunOptions& opt, const TdSystemJob& job, const std::function<bool(uint64_t)>& writable,
            TdSystemResult* r) {
    Ctrl& c = ctrl_.dut();
    Core& k = core_.dut();
    const uint64_t now = ctrl_.cycles();
    auto roll = [&](int pct) { return opt.below && int(opt.below(100)) < pct; };
    auto lat = [&]() {
      return uint64_t(opt.below && opt.max_latency > 1 ? 1 + opt.below(uint32_t(opt.max_latency)) : 1);
    };
    c.td_rd_ready_i = !roll(opt.stall_pct);
    c.kd_rd_ready_i = !roll(opt.stall_pct);
    c.kd_wr_ready_i = !roll(opt.stall_pct);
    c.tb_rd_ready_i = !roll(opt.stall_pct);
    k.xr_ready_i = !roll(opt.stall_pct);
    k.kr_ready_i = !roll(opt.stall_pct);
    k.yw_ready_i = !roll(opt.stall_pct);
    auto offer = [&](Queue& q, auto& valid, auto& data) {
      const bool v = !q.empty() && q.front().first <= now;
      valid = v;
      if (v) data = q.front().second;
      return v;
    };
    const bool td_a = offer(td_q_, c.td_rs_valid_i, c.td_rs_data_i);
    const bool kd_a = offer(kd_q_, c.kd_rs_valid_i, c.kd_rs_data_i);
    const bool tb_a = offer(tb_q_, c.tb_rs_valid_i, c.tb_rs_data_i);
    const bool xs = !xq_.empty() && xq_.front().first <= now;
    k.xs_valid_i = xs;
    if (xs) {
      for (int w = 0; w < port_bytes_ / 4; ++w) SetPortWord(k.xs_data_i, w, xq_.front().second[size_t(w)]);
    }
    const bool ks = offer(kq_, k.ks_valid_i, k.ks_data_i);
    // One evaluation of each model a cycle: the front end's configuration outputs are flops
    // (settled at the last edge), so the engines settle first and their busy/done go to the
    // front end.
    Planar& pe = pe_.dut();
    k.cfg_we_i = c.cfg_we_o;
    k.cfg_addr_i = c.cfg_addr_o;
    k.cfg_wdata_i = c.cfg_wdata_o;
    pe.cfg_we_i = c.pe_cfg_we_o;
    pe.cfg_addr_i = c.pe_cfg_addr_o;
    pe.cfg_wdata_i = c.pe_cfg_wdata_o;
    pe_ports_.Drive(pe, mem_, now, opt);
    const bool pe_quiet = pe_idle_ >= kQuietAfter && !pe.cfg_we_i && pe_ports_.Empty();
    const bool pe_clocked = !pe_quiet || pe_state_ || pe_.tracing();
    if (pe_quiet) {
      ++quiet_cycles_;
      if (pe_state_) {
        const std::vector<uint8_t> now_state = pe_state_();
        if (!pe_last_state_.empty() && now_state != pe_last_state_) {
          size_t at = 0;
          while (at < now_state.size() && now_state[at] == pe_last_state_[at]) ++at;
          throw std::runtime_error("TD system: the planar engine's state changed in a quiet cycle (cycle " +
                                   std::to_string(now) + ", model byte " + std::to_string(at) + " of " +
                                   std::to_string(now_state.size()) + ")");
        }
        pe_last_state_ = now_state;
      }
    } else {
      pe_last_state_.clear();
    }
    core_.Eval();
    if (pe_clocked) pe_.Eval();
    c.core_busy_i = k.busy_o;
    c.core_done_i = k.done_o;
    c.pe_busy_i = pe.busy_o;
    c.pe_done_i = pe.done_o;
    ctrl_.Eval();
    pe_ports_.Handle(pe, &mem_, now, opt, writable);
    if (pe.done_o) {
      if (job.on_task_done) job.on_task_done(r->layers + r->planar_tasks, mem_);
      ++r->planar_tasks;
      r->per_layer.push_back({c.st_setup_o, pe.st_cycles_o, 0});
    }
    if (pe.busy_o) ++r->planar_busy_cycles;
    const bool pe_moves = pe.busy_o || pe.cfg_we_i || pe.done_o || pe.s0_rd_valid_o || pe.s1_rd_valid_o ||
                          pe.s2_rd_valid_o || pe.wr_valid_o || !pe_ports_.Empty();
    pe_idle_ = pe_moves ? 0 : pe_idle_ + 1;
    if (pe.cfg_we_i) r->pe_cfg_writes.push_back({uint32_t(pe.cfg_addr_i), uint32_t(pe.cfg_wdata_i)});
    if (k.cfg_we_i) {
      r->cfg_writes.push_back({uint32_t(k.cfg_addr_i), uint32_t(k.cfg_wdata_i)});
      if (k.cfg_addr_i == regs::core::kStartAddr) start_cycle_ = now;
    }
    if (c.td_rd_valid_o && c.td_rd_ready_i) {
      Answer(&td_q_, c.td_rd_addr_o, now + lat());
      ++r->td_beats;
    }
    if (c.kd_rd_valid_o && c.kd_rd_ready_i) {
      Answer(&kd_q_, c.kd_rd_addr_o, now + lat());
      ++r->kernel_reads;
    }
    if (c.tb_rd_valid_o && c.tb_rd_ready_i) {
      Answer(&tb_q_, c.tb_rd_addr_o, now + lat());
      ++r->table_reads;
    }
    if (c.kd_wr_valid_o && c.kd_wr_ready_i) {
      const uint64_t a = c.kd_wr_addr_o;
      if (a < job.kstage || a + 8 > uint64_t(job.kstage) + job.kstage_bytes) {
        throw std::runtime_error("ane_td_kdma wrote 0x" + Hex(a) + ", outside the staging region");
      }
      for (int i = 0; i < 8; ++i) Write(a + uint64_t(i), uint8_t(c.kd_wr_data_o >> (8 * i)), writable, "ane_td_kdma");
      ++r->staging_writes;
    }
    if (k.xr_valid_o && k.xr_ready_i) {
      uint64_t due = now + lat();
      if (!xq_.empty() && xq_.back().first >= due) due = xq_.back().first + 1;
      std::vector<uint32_t> v(size_t(port_bytes_ / 4));
      for (size_t w = 0; w < v.size(); ++w) v[w] = uint32_t(Read8(k.xr_addr_o + 4 * w));
      xq_.push_back({due, std::move(v)});
    }
    if (k.kr_valid_o && k.kr_ready_i) Answer(&kq_, k.kr_addr_o, now + lat());
    if (k.yw_valid_o && k.yw_ready_i) {
      for (int i = 0; i < out_bytes_; ++i) {
        if (!((PortWord(k.yw_strb_o, i / 32) >> (i % 32)) & 1)) continue;
        Write(uint64_t(k.yw_addr_o) + uint64_t(i), uint8_t(PortWord(k.yw_data_o, i / 4) >> (8 * (i % 4))), writable,
              "ane_core");
      }
    }
    if (k.done_o) {
      if (job.on_task_done) job.on_task_done(r->layers + r->planar_tasks, mem_);
      ++r->layers;
      r->mac_cycles += k.st_mac_o;
      r->setup_cycles += c.st_setup_o;
      r->per_layer.push_back({c.st_setup_o, now - start_cycle_, k.st_mac_o});
    }
    if (k.busy_o) ++r->core_busy_cycles;
    if (td_a) td_q_.pop_front();
    if (kd_a) kd_q_.pop_front();
    if (tb_a) tb_q_.pop_front();
    if (xs) xq_.pop_front();
    if (ks) kq_.pop_front();
    ctrl_.Tick();
    core_.Tick();
    if (pe_clocked) pe_.Tick();
  }

  Sim<Ctrl>& ctrl_;
  Sim<Core>& core_;
  Sim<Planar>& pe_;
  PlanarPorts<Planar> pe_ports_;
  int out_bytes_;
  int port_bytes_;
  std::vector<uint8_t> mem_;
  Queue td_q_, kd_q_, tb_q_, kq_;
  std::deque<std::pair<uint64_t, std::vector<uint32_t>>> xq_;  // the core's input port: (due, words)
  uint64_t start_cycle_ = 0;
  int pe_idle_ = 0;  // cycles since the planar engine last moved
  uint64_t quiet_cycles_ = 0;
  std::function<std::vector<uint8_t>()> pe_state_;
  std::vector<uint8_t> pe_last_state_;
};

}  // namespace ane::harness

#endif  // TB_HARNESS_TD_SYSTEM_H_
