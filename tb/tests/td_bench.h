// SPDX-License-Identifier: Apache-2.0
// The bench the TD front end's block tests share (rtl_td_fetch_test, rtl_td_kdma_test,
// rtl_td_table_test): the memory traffic they draw (read latency, ready low, start gaps), the
// byte memory a read port answers from, and the read port's model and protocol checks. Each
// block's own stimulus and result checks stay in its test.
#ifndef TB_TESTS_TD_BENCH_H_
#define TB_TESTS_TD_BENCH_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tb/harness/sim.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

// The traffic of one run.
struct Traffic {
  int min_latency = 1, max_latency = 1;  // cycles from a read's acceptance to its answer
  int rd_stall_pct = 0;                  // rd_ready_i low
  int wr_stall_pct = 0;                  // wr_ready_i low
  int task_delay_max = 0;                // task_done_i 1 + [0, max] cycles after a TD's last write (the fetch)
  int start_delay_max = 0;               // idle cycles before start_i
  int restart_pct = 0;                   // start_i high while busy_o (to be ignored), per cycle
};

// How wild a block's random traffic gets.
struct TrafficLimits {
  uint32_t max_latency = 8;  // latency 1 .. max
  uint32_t rd_stall_pct = 60, wr_stall_pct = 60;
  bool sometimes_no_stall = true;  // a third of the runs keep each ready high
  bool task_delay = false;         // draw a task_done_i delay (the fetch)
};

inline Traffic RandomTraffic(Rng& rng, const TrafficLimits& lim) {
  Traffic t;
  t.max_latency = 1 + int(rng.Below(lim.max_latency));
  t.min_latency = 1 + int(rng.Below(uint32_t(t.max_latency)));
  t.rd_stall_pct = lim.sometimes_no_stall && rng.Below(3) == 0 ? 0 : int(rng.Below(lim.rd_stall_pct));
  t.wr_stall_pct = lim.sometimes_no_stall && rng.Below(3) == 0 ? 0 : int(rng.Below(lim.wr_stall_pct));
  if (lim.task_delay) t.task_delay_max = int(rng.Below(3)) == 0 ? 0 : int(rng.Below(200));
  t.start_delay_max = int(rng.Below(8));
  return t;
}

inline std::string Describe(const Traffic& t) {
  return "latency " + std::to_string(t.min_latency) + ".." + std::to_string(t.max_latency) + ", rd_ready low " +
         std::to_string(t.rd_stall_pct) + "%, wr_ready low " + std::to_string(t.wr_stall_pct) +
         "%, task_done delay 0.." + std::to_string(t.task_delay_max) + ", start gap 0.." +
         std::to_string(t.start_delay_max) +
         (t.restart_pct ? ", start_i while busy " + std::to_string(t.restart_pct) + "%" : "");
}

// `bytes` at `base` in an address space of zeros, read in 8-byte beats.
struct Memory {
  uint32_t base = 0;
  std::vector<uint8_t> bytes;
  uint64_t Beat(uint32_t addr) const {
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b) {
      const int64_t i = int64_t(addr) + b - int64_t(base);
      const uint64_t byte = i >= 0 && i < int64_t(bytes.size()) ? bytes[size_t(i)] : 0;
      v |= byte << (8 * b);
    }
    return v;
  }
};

// A block's read port seen from memory: requests (rd_valid_o, rd_addr_o, rd_ready_i) answered in
// order, at most one a cycle, each min..max latency cycles after it was taken (rs_valid_i,
// rs_data_i). Checks that a request offered and not taken is offered again unchanged.
class ReadPort {
 public:
  // Before the cycle's Eval: whether an answer is due, and the address it answers.
  bool Due(uint64_t now) const { return !answers_.empty() && answers_.front().due <= now; }
  uint32_t DueAddr() const { return answers_.front().addr; }
  bool Idle() const { return answers_.empty(); }

  // After the Eval: checks a waiting request; takes a request offered with ready (its answer
  // time drawn from `tr`). Returns whether one was taken.
  bool Observe(uint64_t now, bool valid, uint32_t addr, bool ready, const Traffic& tr, Rng& rng) {
    if (held_) {
      EXPECT_TRUE(valid) << "cycle " << now << ": a read request was withdrawn";
      EXPECT_EQ(addr, held_addr_) << "cycle " << now << ": a waiting read request changed its address";
    }
    bool taken = false;
    if (valid && ready) {
      const int lat = tr.min_latency + int(rng.Below(uint32_t(tr.max_latency - tr.min_latency + 1)));
      last_due_ = std::max(now + uint64_t(lat), last_due_ + 1);  // in order, at most one per cycle
      answers_.push_back({addr, last_due_});
      taken = true;
    }
    held_ = valid && !ready;
    held_addr_ = addr;
    return taken;
  }

  // At the end of the cycle: the answer given this cycle (Due) is gone.
  void Answered() { answers_.pop_front(); }

 private:
  struct Pending {
    uint32_t addr;
    uint64_t due;
  };
  std::deque<Pending> answers_;
  uint64_t last_due_ = 0;
  bool held_ = false;
  uint32_t held_addr_ = 0;
};

// A block's write port seen from memory: a write offered and not taken must be offered again
// unchanged (compared by its text) and not withdrawn.
class WritePort {
 public:
  // After the cycle's Eval, with the offered write's text (`shown`, read only when valid).
  // Returns whether a write was taken.
  bool Observe(uint64_t now, bool valid, bool ready, const std::string& shown) {
    if (valid) {
      if (held_) {
        EXPECT_EQ(shown, held_text_) << "cycle " << now << ": a waiting write changed";
      }
      held_text_ = shown;
    } else if (held_) {
      ADD_FAILURE() << "cycle " << now << ": a write was withdrawn";
    }
    held_ = valid && !ready;
    return valid && ready;
  }

 private:
  bool held_ = false;
  std::string held_text_;
};

// The random delay before start_i (0 .. tr.start_delay_max cycles), in which the block must
// be idle and offer nothing; `each` drives the cycle's other inputs.
template <class M, class Each>
void StartDelay(harness::Sim<M>& sim, const Traffic& tr, Rng& rng, Each&& each) {
  M& d = sim.dut();
  const int start_delay = tr.start_delay_max ? int(rng.Below(uint32_t(tr.start_delay_max) + 1)) : 0;
  for (int i = 0; i < start_delay; ++i) {
    each();
    sim.Eval();
    EXPECT_FALSE(d.busy_o || d.rd_valid_o || d.wr_valid_o || d.done_o) << "activity before start";
    sim.Tick();
  }
}

#ifdef ANE_SOURCE_DIR
// A program compiled by Apple's compiler, from sim/hwx (tests built with ANE_SOURCE_DIR).
inline std::vector<uint8_t> ReadProgram(const std::string& name) {
  std::ifstream in(std::string(ANE_SOURCE_DIR) + "/sim/hwx/" + name, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}
#endif

}  // namespace ane::test

#endif  // TB_TESTS_TD_BENCH_H_
