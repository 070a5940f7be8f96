// SPDX-License-Identifier: Apache-2.0
// The operation-stream drivers of the MAC lane and the MAC array (NUMERICS N-2, N-7.1), shared
// by their own tests (rtl_mac_lane_test.cc, rtl_mac_array_test.cc) and the mid-job reset test
// (rtl_reset_test.cc). Each drives an already reset model: operations from a source with random
// input gaps, random back-pressure on the results and random reads on the read port; every
// result is checked against oracle MacLanes when it leaves the block, then the slots are read
// back. A failure is a gtest failure (the driver returns at the first one).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "tb/harness/sim.h"
#include "tb/oracle/mac.h"
#include "tb/tests/mac_stream.h"
#include "tb/tests/wide_port.h"

namespace ane::test {

// How a driven stream went. Cycles count from the driver's first cycle.
struct MacRun {
  uint64_t cycles = 0;
  uint64_t accepted = 0;
  uint64_t products = 0;
  uint64_t results = 0;
  uint64_t stall_cycles = 0;                         // an operation was offered and not accepted
  uint64_t timing_checks = 0;                        // cycles whose in_ready_o / out_valid_o the timing model predicted
  uint64_t two_kernel_ops = 0, four_kernel_ops = 0;  // the array's kernel mappings
  uint64_t last_cycle = 0;                           // Sim::cycles() of the last result or accepted operation
  std::vector<uint32_t> raw;                         // every result's raw slot value, in order (the lane)
  int min_latency = 1 << 30;
  int max_latency = 0;
  int max_k = 0;         // the longest reduction in the stream
  bool started[8] = {};  // slots the stream cleared, loaded or began
};

// The traffic around the operations: gaps, back-pressure, and which slots are read back.
struct MacTraffic {
  int in_valid_pct = 100;   // an operation is offered in this share of the cycles
  int out_ready_pct = 100;  // the result port is ready in this share of the cycles
  bool read_all = true;     // read back all 8 slots (false: only the started ones; a slot the
                            // stream never touched holds whatever an interrupted job left)
};

// The oracle side of one accepted operation on one lane; marks the slots it starts.
inline void MacOracleStep(oracle::MacLane& lane, const Op& op, uint16_t data, uint16_t kernel, uint16_t aux) {
  if (op.cmd == kCmdLoad) {
    lane.Load(op.slot, uint32_t(data) | (uint32_t(aux) << 16));
  } else if (op.cmd == kCmdClear) {
    lane.Clear(op.slot);
  } else {
    if (op.first) {
      for (int i = 0; i < SlotWidth(op.mode); ++i) lane.Clear(op.slot + i);
    }
    lane.Step(op.mode, data, kernel, op.slot, op.last);
  }
}

// An operation's control fields on the operation port (lane and array share their names).
template <class M>
void PutOpControl(M& dut, const Op& op) {
  dut.in_cmd_i = op.cmd;
  dut.in_mode_i = uint8_t(op.mode);
  dut.in_slot_i = uint8_t(op.slot);
  dut.in_first_i = op.first;
  dut.in_last_i = op.last;
}

// Slot `s` through the read port: asked for one cycle, its answer shown after the edge.
template <class Model>
void ReadSlot(harness::Sim<Model>& sim, int s) {
  auto& dut = sim.dut();
  dut.in_valid_i = 0;
  dut.rd_en_i = 1;
  dut.rd_slot_i = uint8_t(s);
  sim.Eval();
  sim.Tick();
  dut.rd_en_i = 0;
  sim.Eval();
}

// The slots of a drained lane through its read port (all 8, or the started ones) against the
// oracle lane.
template <class Model>
void ExpectLaneSlots(harness::Sim<Model>& sim, const oracle::MacLane& model, oracle::Generation gen, const MacRun& run,
                     bool all) {
  auto& dut = sim.dut();
  for (int s = 0; s < 8; ++s) {
    if (!all && !run.started[s]) continue;
    ReadSlot(sim, s);
    EXPECT_TRUE(dut.rd_valid_o);
    EXPECT_EQ(dut.rd_acc_o, model.ReadRaw(s)) << "read port, slot " << s;
    EXPECT_EQ(bool(dut.rd_sat_o), model.Saturated(s)) << "read port, slot " << s;
    EXPECT_EQ(dut.rd_fp16_o, oracle::OutputPort(model.ReadRaw(s), gen)) << "read port, slot " << s;
  }
  sim.Tick();  // the last read's answer leaves the read port
}

// The same for every lane of a drained array.
template <class Model>
void ExpectArraySlots(harness::Sim<Model>& sim, const std::vector<oracle::MacLane>& lanes, const MacRun& run,
                      bool all) {
  auto& dut = sim.dut();
  for (int s = 0; s < 8; ++s) {
    if (!all && !run.started[s]) continue;
    ReadSlot(sim, s);
    for (size_t i = 0; i < lanes.size() && !::testing::Test::HasFailure(); ++i) {
      EXPECT_EQ(Get(dut.rd_acc_o, 32, int(i)), lanes[i].ReadRaw(s)) << "read, lane " << i << " slot " << s;
      EXPECT_EQ(bool(Get(dut.rd_sat_o, 1, int(i))), lanes[i].Saturated(s)) << "read, lane " << i << " slot " << s;
    }
  }
  sim.Tick();  // the last read's answer leaves the read port
}

// The cycle's result-port readiness and a random read (reads during traffic must not disturb
// anything).
template <class M>
void PutPortTraffic(M& dut, Rng& rng, const MacTraffic& traffic) {
  dut.out_ready_i = int(rng.Below(100)) < traffic.out_ready_pct;
  dut.rd_en_i = rng.Below(2);
  dut.rd_slot_i = uint8_t(rng.Below(8));
}

inline void MarkStarted(MacRun& run, const Op& op) {
  if (op.cmd != kCmdMac) {
    run.started[op.slot] = true;
  } else if (op.first) {
    for (int i = 0; i < SlotWidth(op.mode); ++i) run.started[op.slot + i] = true;
  }
}

// ane_mac_lane: `n_ops` operations from `ops` (StreamGen or a list with Next() and max_k()),
// traffic draws from `rng`. With the result port always ready, every cycle's in_ready_o and
// every result's cycle are checked against the documented timing (TimingModel).
template <class Model, class Source>
MacRun DriveLane(harness::Sim<Model>& sim, oracle::Generation gen, Source& ops, Rng& rng, uint64_t n_ops,
                 const MacTraffic& traffic) {
  constexpr int kLatency = int(TimingModel::kLatency);
  struct Expected {
    int slot;
    uint32_t acc;
    uint16_t fp16;
    bool sat, check_fp16;
    uint64_t accept_cycle;
    int64_t result_cycle;  // from the timing model (checked when the result port is always ready)
  };
  auto& dut = sim.dut();
  oracle::MacLane model(gen);
  TimingModel timing;
  const bool exact_timing = traffic.out_ready_pct == 100;  // nothing ever stops the pipeline
  std::deque<Expected> expected;
  MacRun run;
  bool have_op = false;
  Op op;
  uint64_t issued = 0, idle = 0;
  while (issued < n_ops || !expected.empty() || idle < 2 * kLatency) {
    // Inputs for this cycle; valid holds its operation until accepted.
    if (!have_op && issued < n_ops && int(rng.Below(100)) < traffic.in_valid_pct) {
      op = ops.Next();
      have_op = true;
    }
    dut.in_valid_i = have_op;
    PutOpControl(dut, op);
    dut.in_data_i = op.data;
    dut.in_kernel_i = op.kernel;
    PutPortTraffic(dut, rng, traffic);
    sim.Eval();

    if (dut.out_valid_o && dut.out_ready_i) {
      if (expected.empty()) {
        ADD_FAILURE() << "a result that no operation finished, cycle " << run.cycles;
        return run;
      }
      const Expected e = expected.front();
      expected.pop_front();
      EXPECT_EQ(int(dut.out_slot_o), e.slot) << "cycle " << run.cycles;
      EXPECT_EQ(dut.out_acc_o, e.acc) << std::hex << "slot " << e.slot << " raw result, cycle " << std::dec
                                      << run.cycles;
      if (e.check_fp16) {
        EXPECT_EQ(dut.out_fp16_o, e.fp16) << std::hex << "slot " << e.slot;
      }
      EXPECT_EQ(bool(dut.out_sat_o), e.sat) << "slot " << e.slot;
      if (exact_timing) {
        EXPECT_EQ(int64_t(run.cycles), e.result_cycle) << "slot " << e.slot << ": result cycle";
      }
      ++run.results;
      run.raw.push_back(dut.out_acc_o);
      run.last_cycle = sim.cycles();
      const int latency = int(run.cycles - e.accept_cycle);  // first cycle shown, if ready
      run.min_latency = std::min(run.min_latency, latency);
      run.max_latency = std::max(run.max_latency, latency);
      if (::testing::Test::HasFailure()) return run;
    }
    if (have_op && !dut.in_ready_o) ++run.stall_cycles;
    if (have_op && exact_timing) {
      // the documented rule: ready from the cycle the previous operation leaves register 0
      EXPECT_EQ(bool(dut.in_ready_o), int64_t(run.cycles) >= timing.ReadyFrom()) << "cycle " << run.cycles;
      ++run.timing_checks;
      if (::testing::Test::HasFailure()) return run;
    }
    // Operation handshake: the oracle executes it at once, in order.
    if (have_op && dut.in_ready_o) {
      have_op = false;
      ++issued;
      ++run.accepted;
      idle = 0;
      run.last_cycle = std::max(run.last_cycle, sim.cycles());
      const int64_t leave = timing.Accept(op, int64_t(run.cycles));
      MacOracleStep(model, op, op.data, op.kernel, op.kernel);
      MarkStarted(run, op);
      if (op.cmd == kCmdMac) {
        run.products += SlotWidth(op.mode);
        if (op.last) {
          // an int4 reduction's end: slots base .. base + 3 leave, one a position (mac_lane.md)
          const bool fp = !oracle::IsIntegerMode(op.mode);
          for (int i = 0; i < SlotWidth(op.mode); ++i) {
            const int s = op.slot + i;
            expected.push_back({s, model.ReadRaw(s), fp ? model.ReadFp16(s) : uint16_t(0), model.Saturated(s), fp,
                                run.cycles, leave + kLatency - 1 + i});
          }
        }
      }
    } else if (issued >= n_ops) {
      ++idle;
    }
    sim.Tick();
    ++run.cycles;
  }
  run.max_k = ops.max_k();

  // Drained: the slots, through the read port.
  ExpectLaneSlots(sim, model, gen, run, traffic.read_all);
  return run;
}

// One operation of the array: the stream's next, with one data value per lane drawn around a
// common anchor and, for fp16 operations at random, the two- or four-kernel mapping.
struct ArrayOp {
  Op op;        // control, and kernel A in op.kernel
  int per = 1;  // kernels per data value: 1, 2 (two-kernel) or 4 (four-kernel)
  uint16_t kernel_b = 0, kernel_c = 0, kernel_d = 0;
  std::vector<uint16_t> data;  // per data value
  std::vector<uint16_t> aux;   // per lane, CmdLoad upper halves
};

inline ArrayOp NextArrayOp(StreamGen& stream, Rng& rng, int lanes) {
  ArrayOp a;
  a.op = stream.Next();
  if (a.op.cmd == kCmdMac && a.op.mode == oracle::MacMode::kFp16) a.per = int(1u << rng.Below(3));
  a.data.resize(size_t(lanes));
  a.aux.resize(size_t(lanes));
  const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
  for (int i = 0; i < lanes; ++i) {
    Op lane_op;
    stream.Operands(a.op.mode, anchor, &lane_op);
    // a load's accumulator value per lane: zeros, infinities, NaN, the thresholds (RandomAcc)
    const uint32_t acc = test::RandomAcc(rng);
    a.data[size_t(i)] = a.op.cmd == kCmdMac ? lane_op.data : uint16_t(acc);
    a.aux[size_t(i)] = uint16_t(acc >> 16);
  }
  Op kb, kc, kd;
  stream.Operands(oracle::MacMode::kFp16, anchor, &kb);
  stream.Operands(oracle::MacMode::kFp16, anchor, &kc);
  stream.Operands(oracle::MacMode::kFp16, anchor, &kd);
  a.kernel_b = kb.kernel;
  a.kernel_c = kc.kernel;
  a.kernel_d = kd.kernel;
  return a;
}

// ane_mac_array: `n_ops` operations of the stream, each with one data value per lane (operands
// drawn around a common anchor), kernel broadcast or, for fp16 operations at random, the two-
// and four-kernel mappings (data value i / per to lane i, kernel i % per of A, B, C, D);
// every lane of every result checked.
template <class Model, int kLanes>
MacRun DriveArray(harness::Sim<Model>& sim, oracle::Generation gen, StreamGen& stream, Rng& rng, uint64_t n_ops,
                  const MacTraffic& traffic) {
  struct Expected {
    int slot;
    std::vector<uint32_t> acc;
    std::vector<uint16_t> fp16;
    std::vector<bool> sat;
    bool fp;
  };
  auto& dut = sim.dut();
  std::vector<oracle::MacLane> lanes(kLanes, oracle::MacLane(gen));
  std::deque<Expected> expected;
  MacRun run;
  bool have = false;
  ArrayOp a;
  uint64_t issued = 0, idle = 0;
  while (issued < n_ops || !expected.empty() || idle < 32) {  // drained: longer than the pipeline
    if (!have && issued < n_ops && int(rng.Below(100)) < traffic.in_valid_pct) {
      a = NextArrayOp(stream, rng, kLanes);
      have = true;
    }
    dut.in_valid_i = have;
    PutOpControl(dut, a.op);
    dut.in_two_kernel_i = a.per == 2;
    dut.in_four_kernel_i = a.per == 4;
    dut.in_kernel_a_i = a.op.kernel;
    dut.in_kernel_b_i = a.kernel_b;
    dut.in_kernel_c_i = a.kernel_c;
    dut.in_kernel_d_i = a.kernel_d;
    for (int i = 0; i < kLanes && have; ++i) {
      Set(dut.in_data_i, 16, i, a.data[size_t(i)]);
      Set(dut.in_aux_i, 16, i, a.aux[size_t(i)]);
    }
    PutPortTraffic(dut, rng, traffic);
    sim.Eval();

    if (dut.out_valid_o && dut.out_ready_i) {
      if (expected.empty()) {
        ADD_FAILURE() << "a result that no operation finished, cycle " << run.cycles;
        return run;
      }
      const Expected e = expected.front();
      expected.pop_front();
      EXPECT_EQ(int(dut.out_slot_o), e.slot) << "result " << run.results;
      for (int i = 0; i < kLanes && !::testing::Test::HasFailure(); ++i) {
        EXPECT_EQ(Get(dut.out_acc_o, 32, i), e.acc[size_t(i)]) << "lane " << i << " slot " << e.slot;
        if (e.fp) {
          EXPECT_EQ(Get(dut.out_fp16_o, 16, i), e.fp16[size_t(i)]) << "lane " << i;
        }
        EXPECT_EQ(bool(Get(dut.out_sat_o, 1, i)), e.sat[size_t(i)]) << "lane " << i;
      }
      if (::testing::Test::HasFailure()) return run;
      ++run.results;
      run.last_cycle = sim.cycles();
    }
    if (have && dut.in_ready_o) {
      have = false;
      ++issued;
      ++run.accepted;
      idle = 0;
      run.last_cycle = std::max(run.last_cycle, sim.cycles());
      run.two_kernel_ops += a.per == 2;
      run.four_kernel_ops += a.per == 4;
      const Op& op = a.op;
      // an int4 reduction's end: slots base .. base + 3 leave, one a position (mac_lane.md)
      const int width = op.cmd == kCmdMac ? SlotWidth(op.mode) : 1;
      std::vector<Expected> e;
      for (int j = 0; j < width; ++j) e.push_back({op.slot + j, {}, {}, {}, !oracle::IsIntegerMode(op.mode)});
      const uint16_t ks[4] = {op.kernel, a.kernel_b, a.kernel_c, a.kernel_d};
      for (int i = 0; i < kLanes; ++i) {
        oracle::MacLane& lane = lanes[size_t(i)];
        MacOracleStep(lane, op, a.data[size_t(i / a.per)], ks[i % a.per], a.aux[size_t(i)]);  // per = 1 unless fp16 MAC
        for (int j = 0; j < width && op.cmd == kCmdMac && op.last; ++j) {
          Expected& ej = e[size_t(j)];
          ej.acc.push_back(lane.ReadRaw(ej.slot));
          ej.fp16.push_back(ej.fp ? lane.ReadFp16(ej.slot) : uint16_t(0));
          ej.sat.push_back(lane.Saturated(ej.slot));
        }
      }
      MarkStarted(run, op);
      if (op.cmd == kCmdMac && op.last) expected.insert(expected.end(), e.begin(), e.end());
    } else if (issued >= n_ops) {
      ++idle;
    }
    sim.Tick();
    ++run.cycles;
  }

  ExpectArraySlots(sim, lanes, run, traffic.read_all);
  return run;
}

}  // namespace ane::test
