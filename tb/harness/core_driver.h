// SPDX-License-Identifier: Apache-2.0
// Drives an ane_core model (any instance): loads a CoreImage into a memory model, writes the
// configuration, runs the layer and returns what the core wrote to the output region with its
// counters. The memory model answers reads in order after a random latency and holds the read
// and write ports' ready low at random (RunOptions), so tests show that neither changes a result.
// Run counts every output byte written (a layer writes each exactly once, and done_o follows
// the last) and throws when the core touches memory or reports done while it is being
// configured. ResetMidJob resets the core in the middle of a layer (Sim::InterruptAt) together
// with the memory model's answers still in flight.
#ifndef TB_HARNESS_CORE_DRIVER_H_
#define TB_HARNESS_CORE_DRIVER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/harness/postproc_driver.h"
#include "tb/harness/shifter_driver.h"
#include "tb/harness/sim.h"
#include "tb/plan/core_plan.h"
#include "tb/regs/ane_regs.h"

namespace ane::harness {

struct CoreRunOptions {
  int max_latency = 1;                      // read answers come 1 .. max_latency cycles after the request
  int stall_pct = 0;                        // percent of cycles each port's ready is low
  std::function<uint32_t(uint32_t)> below;  // random source: [0, n); empty: no randomness
};

struct CoreCounters {
  uint64_t cycles = 0, mac = 0, stall_res = 0, wait_slot = 0, wait_load = 0, wait_kern = 0, last_mac = 0;
};

struct CoreResult {
  oracle::Tensor3 y;  // [Cout][OH][OW] as written (int8 outputs sign-extended; int4: [4 Cout])
  CoreCounters counters;
  uint64_t cycles = 0;           // from START to done
  uint64_t write_beats = 0;      // output port beats taken
  uint64_t bytes_written = 0;    // distinct output bytes written by done (a layer: all of y)
  uint64_t bytes_rewritten = 0;  // byte writes to an output byte this run had written already
};

template <class Model>
class CoreDriver {
 public:
  CoreDriver(Sim<Model>& sim, const CoreParams& cp) : sim_(sim), cp_(cp) {}

  void Reset() {
    Idle();
    sim_.Reset();
  }

  // Reset in the middle of a layer: rst_ni low for `hold` cycles, with random traffic on the
  // memory ports (`below` set: ready and answer valid at random, random answer data) that the
  // core must ignore; the configuration port stays quiet. The memory model is reset with the
  // core: the answers to reads of the interrupted layer that were still in flight are dropped.
  // The inputs are idle afterwards.
  void ResetMidJob(int hold, const typename Sim<Model>::Below& below = {}) {
    Model& d = sim_.dut();
    xq_.clear();
    kq_.clear();
    sim_.ResetWithTraffic(
        hold, below, [&] { Idle(); },
        [&](const auto& r) {
          d.xr_ready_i = r(2);
          d.kr_ready_i = r(2);
          d.yw_ready_i = r(2);
          d.xs_valid_i = r(2);
          d.ks_valid_i = r(2);
          for (int w = 0; w < cp_.PortBytes() / 4; ++w) SetPortWord(d.xs_data_i, w, r(1u << 16) | r(1u << 16) << 16);
          d.ks_data_i = Junk64(r);
        });
  }

  void Write(uint32_t addr, uint32_t data) {
    ExpectQuiet("being configured");
    WriteConfig(sim_, addr, data);
  }

  void WaitIdle() {
    Model& d = sim_.dut();
    d.eval();
    for (int i = 0; d.busy_o; ++i) {
      if (i > 100000) throw std::runtime_error("ane_core: busy does not fall");
      ExpectQuiet("being configured");
      sim_.Tick();
      d.eval();
    }
  }

  CoreResult Run(const CoreLayerPlan& p, const CoreImage& im, const CoreRunOptions& opt) {
    Model& d = sim_.dut();
    mem_ = im.mem;
    WaitIdle();
    for (const auto& [a, v] : im.shifter_writes) Write(a, v);
    WaitIdle();  // PREP builds the lane table
    oracle::PostConfig pc = p.layer.post;
    pc.gen = p.layer.gen;
    namespace rc = regs::core;
    for (const auto& [a, v] : PostConfigWrites(pc)) Write(rc::WindowAddr(rc::kPostproc, a), v);
    for (const auto& [a, v] : im.writes) Write(a, v);
    Write(rc::kStartAddr, 1);
    const uint64_t t0 = sim_.cycles();
    std::vector<uint8_t> written(im.y_bytes, 0);  // per output byte: written in this run
    CoreResult r;
    auto roll = [&](int pct) { return opt.below && int(opt.below(100)) < pct; };
    auto lat = [&]() {
      return uint64_t(opt.below && opt.max_latency > 1 ? 1 + opt.below(uint32_t(opt.max_latency)) : 1);
    };
    bool done = false;
    while (!done) {
      const uint64_t now = sim_.cycles();
      d.xr_ready_i = !roll(opt.stall_pct);
      d.kr_ready_i = !roll(opt.stall_pct);
      d.yw_ready_i = !roll(opt.stall_pct);
      const bool xs = !xq_.empty() && xq_.front().first <= now;
      const bool ks = !kq_.empty() && kq_.front().first <= now;
      d.xs_valid_i = xs;
      d.ks_valid_i = ks;
      if (xs) {
        for (int w = 0; w < cp_.PortBytes() / 4; ++w) SetPortWord(d.xs_data_i, w, xq_.front().second[size_t(w)]);
      }
      if (ks) d.ks_data_i = kq_.front().second;
      d.eval();
      if (d.xr_valid_o && d.xr_ready_i) AnswerWide(&xq_, d.xr_addr_o, now + lat());
      if (d.kr_valid_o && d.kr_ready_i) Answer(&kq_, d.kr_addr_o, now + lat());
      if (d.yw_valid_o && d.yw_ready_i) {
        ++r.write_beats;
        for (int i = 0; i < cp_.out_bytes; ++i) {
          if (!((PortWord(d.yw_strb_o, i / 32) >> (i % 32)) & 1)) continue;
          const uint64_t a = uint64_t(d.yw_addr_o) + uint64_t(i);
          if (a < im.y_base || a >= uint64_t(im.y_base) + im.y_bytes) {
            throw std::runtime_error("ane_core wrote outside the output tensor at " + std::to_string(a));
          }
          mem_[size_t(a)] = uint8_t(PortWord(d.yw_data_o, i / 4) >> (8 * (i % 4)));
          uint8_t& w = written[size_t(a - im.y_base)];
          if (w) {
            ++r.bytes_rewritten;
          } else {
            w = 1;
            ++r.bytes_written;
          }
        }
      }
      done = d.done_o;
      if (xs) xq_.pop_front();
      if (ks) kq_.pop_front();
      sim_.Tick();
    }
    r.cycles = sim_.cycles() - t0;
    d.eval();
    r.counters = {d.st_cycles_o,    d.st_mac_o,       d.st_stall_res_o, d.st_wait_slot_o,
                  d.st_wait_load_o, d.st_wait_kern_o, d.st_last_mac_o};
    const int oesz = p.out8 ? 1 : 2;
    r.y = oracle::Tensor3{p.OutChannels(), p.oh, p.ow, {}};  // int4: [4 Cout][OH][OW]
    for (size_t i = 0; i < size_t(p.OutChannels() * p.oh * p.ow); ++i) {
      const size_t a = im.y_base + i * size_t(oesz);
      r.y.codes.push_back(p.out8 ? uint16_t(int16_t(int8_t(mem_[a]))) : uint16_t(mem_[a] | mem_[a + 1] << 8));
    }
    return r;
  }

 private:
  // Eight bytes from any address (past the memory: a fixed junk pattern).
  uint64_t Read8(uint64_t a) const {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
      const uint64_t b = a + uint64_t(i) < mem_.size() ? mem_[size_t(a) + size_t(i)] : 0xA5;
      v |= b << (8 * i);
    }
    return v;
  }
  void Answer(std::deque<std::pair<uint64_t, uint64_t>>* q, uint64_t addr, uint64_t due) {
    if (!q->empty() && q->back().first >= due) due = q->back().first + 1;  // in order, one a cycle
    q->push_back({due, Read8(addr)});
  }
  // The input port: PortBytes from any address, as 32-bit words.
  void AnswerWide(std::deque<std::pair<uint64_t, std::vector<uint32_t>>>* q, uint64_t addr, uint64_t due) {
    if (!q->empty() && q->back().first >= due) due = q->back().first + 1;
    std::vector<uint32_t> v(size_t(cp_.PortBytes() / 4));
    for (size_t w = 0; w < v.size(); ++w) v[w] = uint32_t(Read8(addr + 4 * w));
    q->push_back({due, std::move(v)});
  }
  void Idle() {
    Model& d = sim_.dut();
    d.cfg_we_i = 0;
    d.xr_ready_i = 0;
    d.xs_valid_i = 0;
    d.kr_ready_i = 0;
    d.ks_valid_i = 0;
    d.yw_ready_i = 0;
  }
  // Before START the core has nothing to read or write and nothing to report: a request or
  // done_o then is left over from an earlier (interrupted) layer.
  void ExpectQuiet(const char* phase) {
    Model& d = sim_.dut();
    d.eval();
    if (d.xr_valid_o || d.kr_valid_o || d.yw_valid_o || d.done_o) {
      throw std::runtime_error(std::string("ane_core: ") + (d.done_o ? "done" : "a memory request") + " while " +
                               phase + " (cycle " + std::to_string(sim_.cycles()) + ")");
    }
  }
  static uint64_t Junk64(const std::function<uint32_t(uint32_t)>& below) {
    return uint64_t(below(1u << 16)) | uint64_t(below(1u << 16)) << 16 | uint64_t(below(1u << 16)) << 32 |
           uint64_t(below(1u << 16)) << 48;
  }

  Sim<Model>& sim_;
  CoreParams cp_;
  std::vector<uint8_t> mem_;
  std::deque<std::pair<uint64_t, std::vector<uint32_t>>> xq_;  // read answers in flight: (due cycle, data)
  std::deque<std::pair<uint64_t, uint64_t>> kq_;
};

}  // namespace ane::harness

#endif  // TB_HARNESS_CORE_DRIVER_H_
