// SPDX-License-Identifier: Apache-2.0
#include "tb/harness/mac_array_matmul.h"

#include <chrono>
#include <deque>
#include <sstream>
#include <stdexcept>

#include "Vane_mac_array256_m1.h"
#include "Vane_mac_array256_m5.h"
#include "Vane_mac_lane_m1.h"
#include "Vane_mac_lane_m5.h"
#include "tb/harness/mac_stream_start.h"
#include "tb/harness/rtl_codes.h"
#include "tb/harness/sim.h"

namespace ane::harness {

namespace {

using oracle::MacMode;

constexpr auto kCmdMac = uint8_t(MacCmd::kMac);

std::string Hex(uint32_t v, int digits) {
  std::ostringstream s;
  s << "0x" << std::hex;
  s.width(digits);
  s.fill('0');
  s << v;
  return s.str();
}

// The data code fed for a[row, k], with the deliberate fault applied.
uint16_t DataCode(const oracle::Matrix& a, int64_t row, int64_t k, const DataFault& fault) {
  const uint16_t code = a.at(row, k);
  return fault.active() && fault.row == row && fault.k == k ? uint16_t(code ^ 1u) : code;
}

void CheckShapes(const oracle::Matrix& a, const oracle::Matrix& b) {
  if (a.cols != b.rows) throw std::invalid_argument("RtlMatmul: inner dimensions differ");
  if (a.rows <= 0 || a.cols <= 0 || b.cols <= 0) throw std::invalid_argument("RtlMatmul: empty matrix");
}

// The result of an [m, k] x [k, n] matmul before the run: zeros, int32 or fp16.
RtlMatmulResult EmptyResult(int64_t m, int64_t k, int64_t n, bool is_int) {
  RtlMatmulResult result;
  result.y.is_int = is_int;
  result.y.rows = m;
  result.y.cols = n;
  (is_int ? result.y.int32.resize(size_t(m * n)) : result.y.fp16.resize(size_t(m * n)));
  result.raw.assign(size_t(m * n), 0);
  result.stats.macs = uint64_t(m * n * k);
  return result;
}

// Resets the array with the result port always ready; its auxiliary (load) input is unused.
template <class Model>
Model& StartArray(Sim<Model>& sim) {
  auto& dut = sim.dut();
  for (size_t w = 0; w < kArrayLanes / 2; ++w) dut.in_aux_i[w] = 0;
  StartMacStream(sim);
  return dut;
}

// int4 (N-2.8): rows row0 .. row0 + 3 of column k in nibbles [3:0] .. [15:12] (rows past M: 0).
uint16_t Int4Word(const oracle::Matrix& a, int64_t row0, int64_t k, const DataFault& fault) {
  uint16_t word = 0;
  for (int j = 0; j < 4 && row0 + j < a.rows; ++j)
    word = uint16_t(word | ((DataCode(a, row0 + j, k, fault) & 0xFu) << (4 * j)));
  return word;
}

void CheckInt4(const oracle::Matrix& m, const char* name) {
  if (m.type != oracle::ElemType::kInt8) {
    throw std::invalid_argument(std::string("RtlMatmul: int4 takes int8 matrices (values -8..7); ") + name +
                                " is fp16");
  }
  for (int64_t r = 0; r < m.rows; ++r) {
    for (int64_t c = 0; c < m.cols; ++c) {
      const int v = int8_t(m.at(r, c));
      if (v < -8 || v > 7) {
        throw std::invalid_argument("RtlMatmul: int4 needs values -8..7; " + std::string(name) + "[" +
                                    std::to_string(r) + ", " + std::to_string(c) + "] = " + std::to_string(v));
      }
    }
  }
}

// The int4 packed mapping (the header): one column per pass, K operations on base slot 0 or 4.
template <class Model>
RtlMatmulResult RunInt4(const oracle::Matrix& a, const oracle::Matrix& b, const RtlMatmulOptions& options) {
  constexpr int64_t kRowsPerTile = 4 * kArrayLanes;
  const int64_t m = a.rows, k_len = a.cols, n = b.cols;
  RtlMatmulResult result = EmptyResult(m, k_len, n, true);
  result.stats.int4 = true;
  Sim<Model> sim("ane_mac_array", "matmul_int4");
  auto& dut = StartArray(sim);

  struct Pass {
    int64_t tile;
    int64_t col;
    int base;
  };
  std::deque<Pass> pending;  // passes whose last operation went in, in order
  int next_j = 0;            // the slot base + next_j of the front pass leaves next
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t cycle = 0;

  const auto store = [&](const Pass& p, int j, int lane, uint32_t acc, bool sat) {
    const int64_t row = p.tile * kRowsPerTile + 4 * lane + j;
    if (row >= m) return;
    const size_t idx = size_t(row * n + p.col);
    result.raw[idx] = acc;
    result.y.int32[idx] = int32_t(acc);
    result.y.saturated_count += sat ? 1 : 0;
  };
  // One clock cycle with the inputs as set: a result taken, the edge. A pass's four results
  // leave in order, slots base .. base + 3 (docs/mac_lane.md).
  const auto clock = [&]() {
    sim.Eval();
    if (dut.out_valid_o) {
      if (pending.empty()) throw std::runtime_error("RtlMatmul: unexpected result from the array");
      const Pass p = pending.front();
      if (dut.out_slot_o != p.base + next_j) {
        throw std::runtime_error("RtlMatmul: an int4 result left from slot " + std::to_string(dut.out_slot_o) +
                                 ", not " + std::to_string(p.base + next_j));
      }
      for (int lane = 0; lane < kArrayLanes; ++lane) {
        store(p, next_j, lane, dut.out_acc_o[size_t(lane)], (dut.out_sat_o[size_t(lane / 32)] >> (lane % 32)) & 1u);
      }
      if (++next_j == 4) {
        next_j = 0;
        pending.pop_front();
      }
    }
    sim.Tick();
    ++cycle;
  };

  int64_t pass = 0;
  for (int64_t tile = 0; tile * kRowsPerTile < m; ++tile) {
    for (int64_t col = 0; col < n; ++col, ++pass) {
      const int base = int(pass % 2) * 4;
      for (int64_t k = 0; k < k_len; ++k) {
        for (int i = 0; i < kArrayLanes; ++i) {
          const int64_t row0 = tile * kRowsPerTile + 4 * i;
          const uint32_t word = row0 < m ? Int4Word(a, row0, k, options.fault) : 0;
          uint32_t& w = dut.in_data_i[size_t(i / 2)];
          w = (w & ~(0xFFFFu << ((i % 2) * 16))) | (word << ((i % 2) * 16));
        }
        dut.in_valid_i = 1;
        dut.in_cmd_i = kCmdMac;
        dut.in_mode_i = uint8_t(MacMode::kInt4);
        dut.in_slot_i = uint8_t(base);
        dut.in_first_i = k == 0;
        dut.in_last_i = k == k_len - 1;
        dut.in_two_kernel_i = 0;
        dut.in_four_kernel_i = 0;
        dut.in_kernel_a_i = b.at(k, col) & 0xFu;
        dut.in_kernel_b_i = 0;
        dut.in_kernel_c_i = 0;
        dut.in_kernel_d_i = 0;
        sim.Eval();
        // the first operation of a reduction, and a last incomplete quad, wait for the back of
        // their position (docs/mac_lane.md, "Timing")
        while (!dut.in_ready_o) {
          clock();
          ++result.stats.stall_cycles;
          sim.Eval();
        }
        if (k == k_len - 1) pending.push_back({tile, col, base});
        ++result.stats.operations;
        clock();
      }
    }
  }
  dut.in_valid_i = 0;
  for (int drain = 0; !pending.empty(); ++drain) {
    if (drain > 128) throw std::runtime_error("RtlMatmul: results missing after the drain");
    clock();
  }
  result.stats.cycles = cycle;
  result.stats.utilization = double(result.stats.macs) / (4.0 * double(kArrayLanes) * double(cycle));
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

template <class Model>
RtlMatmulResult Run(const oracle::Matrix& a, const oracle::Matrix& b, const RtlMatmulOptions& options) {
  const MacMode mode = oracle::MatmulMode(a.type, b.type);
  const int64_t m = a.rows, k_len = a.cols, n = b.cols;
  const auto ceil_div = [](int64_t x, int64_t y) { return (x + y - 1) / y; };
  // Operations per mapping: row tiles x K x column slots.
  const int64_t broadcast_ops = ceil_div(m, kArrayLanes) * k_len * n;
  const int64_t two_kernel_ops = ceil_div(m, kArrayLanes / 2) * k_len * ceil_div(n, 2);
  const bool two_kernel = options.allow_two_kernel && mode == MacMode::kFp16 && two_kernel_ops < broadcast_ops;
  const int64_t rows_per_tile = two_kernel ? kArrayLanes / 2 : kArrayLanes;
  const int64_t cols_per_slot = two_kernel ? 2 : 1;
  const int64_t cols_per_pass = cols_per_slot * kArraySlots;

  RtlMatmulResult result = EmptyResult(m, k_len, n, mode == MacMode::kInt8);
  result.stats.two_kernel = two_kernel;
  Sim<Model> sim("ane_mac_array", "matmul");
  auto& dut = StartArray(sim);

  struct Pending {
    int64_t tile;
    int64_t col;  // first column of the slot
  };
  std::deque<Pending> pending;
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t cycles = 0;

  // Collects a result if one is shown this cycle (out_ready_i is always 1).
  const auto collect = [&]() {
    if (!dut.out_valid_o) return;
    if (pending.empty()) throw std::runtime_error("RtlMatmul: unexpected result from the array");
    const Pending p = pending.front();
    pending.pop_front();
    for (int lane = 0; lane < kArrayLanes; ++lane) {
      const int64_t row = p.tile * rows_per_tile + (two_kernel ? lane / 2 : lane);
      const int64_t col = p.col + (two_kernel ? lane % 2 : 0);
      if (row >= m || col >= n) continue;
      const size_t idx = size_t(row * n + col);
      const uint32_t acc = dut.out_acc_o[size_t(lane)];
      result.raw[idx] = acc;
      if (result.y.is_int) {
        result.y.int32[idx] = int32_t(acc);
        result.y.saturated_count += (dut.out_sat_o[size_t(lane / 32)] >> (lane % 32)) & 1u;
      } else {
        result.y.fp16[idx] = uint16_t(dut.out_fp16_o[size_t(lane / 2)] >> ((lane % 2) * 16));
      }
    }
  };

  for (int64_t tile = 0; tile * rows_per_tile < m; ++tile) {
    for (int64_t col0 = 0; col0 < n; col0 += cols_per_pass) {
      const int slots = int(std::min<int64_t>(kArraySlots, ceil_div(n - col0, cols_per_slot)));
      for (int64_t k = 0; k < k_len; ++k) {
        // The tile's data for this k: the same for every slot.
        for (int i = 0; i < (two_kernel ? kArrayLanes / 2 : kArrayLanes); ++i) {
          const int64_t row = tile * rows_per_tile + i;
          const uint32_t code = row < m ? DataCode(a, row, k, options.fault) : 0;
          uint32_t& word = dut.in_data_i[size_t(i / 2)];
          word = (word & ~(0xFFFFu << ((i % 2) * 16))) | (code << ((i % 2) * 16));
        }
        for (int j = 0; j < slots; ++j) {
          const int64_t col = col0 + j * cols_per_slot;
          dut.in_valid_i = 1;
          dut.in_cmd_i = kCmdMac;
          dut.in_mode_i = uint8_t(mode);
          dut.in_slot_i = uint8_t(j);
          dut.in_first_i = k == 0;
          dut.in_last_i = k == k_len - 1;
          dut.in_two_kernel_i = two_kernel;
          dut.in_four_kernel_i = 0;
          dut.in_kernel_a_i = b.at(k, col);
          dut.in_kernel_b_i = two_kernel && col + 1 < n ? b.at(k, col + 1) : 0;
          dut.in_kernel_c_i = 0;
          dut.in_kernel_d_i = 0;
          sim.Eval();
          collect();
          // fewer than 4 columns in a pass: a product that continues its quad waits for the
          // previous one on its slot (docs/mac_lane.md, "Timing")
          while (!dut.in_ready_o) {
            sim.Tick();
            ++cycles;
            ++result.stats.stall_cycles;
            sim.Eval();
            collect();
          }
          if (k == k_len - 1) pending.push_back({tile, col});
          ++result.stats.operations;
          sim.Tick();
          ++cycles;
        }
      }
    }
  }
  dut.in_valid_i = 0;
  for (int drain = 0; !pending.empty(); ++drain) {
    if (drain > 128) throw std::runtime_error("RtlMatmul: results missing after the drain");
    sim.Eval();
    collect();
    sim.Tick();
    ++cycles;
  }
  result.stats.cycles = cycles;
  result.stats.utilization = double(result.stats.macs) / (double(kArrayLanes) * double(cycles));
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

template <class Model>
StageReport Locate(const oracle::Matrix& a, const oracle::Matrix& b, oracle::Generation gen, int64_t row, int64_t col,
                   const DataFault& fault, bool int4) {
  const MacMode mode = int4 ? MacMode::kInt4 : oracle::MatmulMode(a.type, b.type);
  // int4: the element's group of four rows runs on slots 0..3; the element is slot row % 4
  const int slot = int4 ? int(row % 4) : 0;
  const int64_t row0 = row - slot;
  const int64_t k_len = a.cols;
  Sim<Model> sim("ane_mac_lane", "locate");
  auto& dut = sim.dut();
  StartMacStream(sim);
  oracle::MacLane lane(gen);

  // Reads the element's slot through the read port after the pipeline has drained.
  const auto read_slot = [&]() {
    dut.in_valid_i = 0;
    for (int i = 0; i < 20; ++i) {  // longer than the pipeline
      sim.Eval();
      sim.Tick();
    }
    dut.rd_en_i = 1;
    dut.rd_slot_i = uint8_t(slot);
    sim.Eval();
    sim.Tick();
    dut.rd_en_i = 0;
    sim.Eval();
    return std::make_pair(uint32_t(dut.rd_acc_o), uint16_t(dut.rd_fp16_o));
  };

  uint16_t out_fp16 = 0;
  for (int64_t k = 0; k < k_len; ++k) {
    const bool last = k == k_len - 1;
    dut.in_valid_i = 1;
    dut.in_cmd_i = kCmdMac;
    dut.in_mode_i = uint8_t(mode);
    dut.in_slot_i = 0;
    dut.in_first_i = k == 0;
    dut.in_last_i = last;
    const uint16_t data = int4 ? Int4Word(a, row0, k, fault) : DataCode(a, row, k, fault);
    const uint16_t kernel = int4 ? uint16_t(b.at(k, col) & 0xFu) : b.at(k, col);
    dut.in_data_i = data;
    dut.in_kernel_i = kernel;
    sim.Eval();
    while (!dut.in_ready_o) {  // one slot: a product that continues its quad waits
      sim.Tick();
      sim.Eval();
    }
    sim.Tick();
    // The oracle sees the true data: the fault stands for a defect of the RTL's datapath.
    if (k == 0) lane.Clear(0);
    lane.Step(mode, int4 ? Int4Word(a, row0, k, {}) : a.at(row, k), kernel, 0, last);
    if (last) {
      // The result leaves through the output port (latency 11).
      dut.in_valid_i = 0;
      for (int i = 0; i < 20; ++i) {
        sim.Eval();
        if (dut.out_valid_o) out_fp16 = dut.out_fp16_o;
        sim.Tick();
      }
    }
    if ((k + 1) % 4 == 0 || last) {
      const auto [rtl_acc, rtl_fp16] = read_slot();
      if (rtl_acc != lane.ReadRaw(slot)) {
        const int64_t q0 = (k / 4) * 4;
        return {"quad and accumulate (N-2.4, N-2.5)",
                "the accumulator first differs after the quad of products k = " + std::to_string(q0) + ".." +
                    std::to_string(k) + ": rtl " + Hex(rtl_acc, 8) + ", oracle " + Hex(lane.ReadRaw(slot), 8)};
      }
    }
  }
  const bool is_int = oracle::IsIntegerMode(mode);
  if (!is_int && out_fp16 != lane.ReadFp16(0)) {
    return {"output port (N-2.6)", "the accumulator " + Hex(lane.ReadRaw(0), 8) + " agrees; the port gives rtl " +
                                       Hex(out_fp16, 4) + ", oracle " + Hex(lane.ReadFp16(0), 4)};
  }
  return {"array",
          "a single RTL lane agrees with the oracle on this element; the difference "
          "comes from the array's data or kernel routing"};
}

}  // namespace

RtlMatmulResult RtlMatmul(const oracle::Matrix& a, const oracle::Matrix& b, oracle::Generation gen,
                          const RtlMatmulOptions& options) {
  CheckShapes(a, b);
  if (options.int4) {
    CheckInt4(a, "a");
    CheckInt4(b, "b");
    return gen == oracle::Generation::kM1 ? RunInt4<Vane_mac_array256_m1>(a, b, options)
                                          : RunInt4<Vane_mac_array256_m5>(a, b, options);
  }
  return gen == oracle::Generation::kM1 ? Run<Vane_mac_array256_m1>(a, b, options)
                                        : Run<Vane_mac_array256_m5>(a, b, options);
}

StageReport LocateMismatch(const oracle::Matrix& a, const oracle::Matrix& b, oracle::Generation gen, int64_t row,
                           int64_t col, const DataFault& fault, bool int4) {
  CheckShapes(a, b);
  return gen == oracle::Generation::kM1 ? Locate<Vane_mac_lane_m1>(a, b, gen, row, col, fault, int4)
                                        : Locate<Vane_mac_lane_m5>(a, b, gen, row, col, fault, int4);
}

}  // namespace ane::harness
