// SPDX-License-Identifier: Apache-2.0
// The planar engine as one engine (rtl/ane_planar.sv, docs/planar.md "The engine"): a task as
// its configuration registers describe it, the register writes that run it (packed with
// ane::regs::planar), the contract's result of a task (the oracle's functions composed in the
// order of the engine's units: the reference the tests and `ane --engine both` compare with),
// and a memory model for the engine's three read ports and its write port (PlanarPorts: answers
// in order after a random latency, ready held low at random) that the stand-alone driver and the
// TD system share.
#ifndef TB_HARNESS_PLANAR_ENGINE_H_
#define TB_HARNESS_PLANAR_ENGINE_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tb/harness/core_driver.h"
#include "tb/harness/rtl_codes.h"
#include "tb/harness/shifter_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/planar.h"

namespace ane::harness {

// ane_planar's MODE.KIND.
enum class PlanarKind : uint8_t { kElementwise = 0, kReduce = 1, kLineReduce = 2, kPool = 3 };

// One source (or the result) of a task: element [c, y, x] at base + c plane + y row + x eb
// (eb 1 for int8, 2 for fp16); bw: the element at x = 0 serves the whole row.
struct PlanarOperand {
  uint32_t base = 0, row = 0, plane = 0;
  bool int8 = false;
  bool bw = false;
};

// A pooling's window (MODE.KIND 3): the bottom and right padding follow from the output size.
struct PlanarPool {
  int kh = 1, kw = 1, sy = 1, sx = 1, pt = 0, pl = 0;
  int oh = 1, ow = 1;
  // POOL.FLAT: the sources' planes are dense, read as one run of h w positions (at most 16383)
  bool flat = false;
};

// The engine's limits that are parameters of ane_planar (the models built here use these).
inline constexpr int kPlanarPoolW = 64;  // PoolW: the widest pooling output row
inline constexpr int kPlanarLineW = 64;  // LineW: the line buffer's strip

struct PlanarTask {
  PlanarKind kind = PlanarKind::kElementwise;
  PeEwOp ew = PeEwOp::kPass;
  PePostOp post = PePostOp::kPass;
  // kReduce: false rows, true planes; kLineReduce: false columns, true channels; kPool: true
  // channels last (no pooling: the source through the patch transpose, result [c, y, x] at
  // dst.base + c eb + y dst.row + x dst.plane; the window and output size are not read)
  bool axis = false;
  // a reduction's operator; a pooling's (kSum: the mean)
  oracle::ReduceOp tree = oracle::ReduceOp::kSum;
  PlanarPool pool;
  int c = 1, h = 1, w = 1;
  PlanarOperand src[3];
  PlanarOperand dst;
  // source 0's converter (scale, bias, unary) and the result's (scale, bias, unary, gain; its
  // int8 store is dst.int8); their other fields are not the engine's. A bypassed converter
  // passes its values unchanged (FCCTL.A_BYPASS, O_BYPASS; not with an int8 result or the gain).
  oracle::FcConfig fca, fco;
  bool fca_bypass = false, fco_bypass = false;
};

// The sources operator `op` reads: 1 (a), 2 (a, b) or 3 (a, b, c).
int EwArity(PeEwOp op);

// The result's shape [C][H][W] of `t`: elementwise [c, h, w]; rows [c, h, 1]; planes [c, 1, 1];
// columns [c, 1, w]; channels [1, h, w]; pooling [c, oh, ow]; channels last [c, h, w]. Result
// [c, y, x] is written at PlanarDstAddr: dst.base + c dst.plane + y dst.row + x eb (channels
// last: dst.base + c eb + y dst.row + x dst.plane).
struct PlanarShape {
  int c = 1, h = 1, w = 1;
};
PlanarShape PlanarOutShape(const PlanarTask& t);
bool PlanarChannelsLast(const PlanarTask& t);
uint64_t PlanarDstAddr(const PlanarTask& t, int c, int y, int x);
// The oracle's pooling geometry of `t` (the bottom and right padding from its output size).
oracle::ConvGeometry PlanarPoolGeometry(const PlanarTask& t);

// "" or why ane_planar cannot run `t` (a size past its registers, a zero size).
std::string CheckPlanarTask(const PlanarTask& t);
// The configuration writes of `t` and START.
std::vector<std::pair<uint32_t, uint32_t>> PlanarWrites(const PlanarTask& t);
// The contract's result of `t` on the memory `mem`, written into it: per element,
// v = post(op(FC_A(a), b, c)) with the oracle's FormatConvert, the operator and the post
// operation (each step one fp16 operation of N-4.1; N-1 at each); then by kind v itself, the
// oracle's ReduceTensor of v (N-4.4) or its Pool (N-4.5); each result through FC_O.
void PlanarReference(const PlanarTask& t, std::vector<uint8_t>* mem);
// The bytes `t` writes: [begin, end) ranges, one per row of the result (channels last: one per
// position, its c channels).
// (A reduction or a pooling must not write over what it reads: CheckPlanarTask.)
std::vector<std::pair<uint64_t, uint64_t>> PlanarWriteRanges(const PlanarTask& t);

// The engine's memory ports on a memory image: Drive() sets the inputs before a clock's
// evaluation, Handle() takes what the engine offered after it. Reads are answered in order
// 1 .. max_latency cycles after they are taken; every ready is low stall_pct percent of the time.
template <class Model>
class PlanarPorts {
 public:
  static constexpr int kWords = int(sizeof(Model::s0_rs_data_i) / 4) > 0 ? int(sizeof(Model::s0_rs_data_i) / 4) : 1;

  void Clear() {
    for (auto& q : q_) q.clear();
  }
  bool Empty() const { return q_[0].empty() && q_[1].empty() && q_[2].empty(); }
  // `writable(a)`: whether the engine may write byte a (else Handle throws).
  void Drive(Model& d, const std::vector<uint8_t>& mem, uint64_t now, const CoreRunOptions& opt) {
    (void)mem;
    auto roll = [&](int pct) { return opt.below && int(opt.below(100)) < pct; };
    d.s0_rd_ready_i = !roll(opt.stall_pct);
    d.s1_rd_ready_i = !roll(opt.stall_pct);
    d.s2_rd_ready_i = !roll(opt.stall_pct);
    d.wr_ready_i = !roll(opt.stall_pct);
    Offer(q_[0], now, d.s0_rs_valid_i, d.s0_rs_data_i);
    Offer(q_[1], now, d.s1_rs_valid_i, d.s1_rs_data_i);
    Offer(q_[2], now, d.s2_rs_valid_i, d.s2_rs_data_i);
  }
  void Handle(Model& d, std::vector<uint8_t>* mem, uint64_t now, const CoreRunOptions& opt,
              const std::function<bool(uint64_t)>& writable) {
    auto lat = [&]() {
      return uint64_t(opt.below && opt.max_latency > 1 ? 1 + opt.below(uint32_t(opt.max_latency)) : 1);
    };
    if (d.s0_rs_valid_i) q_[0].pop_front();
    if (d.s1_rs_valid_i) q_[1].pop_front();
    if (d.s2_rs_valid_i) q_[2].pop_front();
    if (d.s0_rd_valid_o && d.s0_rd_ready_i) Answer(q_[0], *mem, d.s0_rd_addr_o, now + lat());
    if (d.s1_rd_valid_o && d.s1_rd_ready_i) Answer(q_[1], *mem, d.s1_rd_addr_o, now + lat());
    if (d.s2_rd_valid_o && d.s2_rd_ready_i) Answer(q_[2], *mem, d.s2_rd_addr_o, now + lat());
    if (d.wr_valid_o && d.wr_ready_i) {
      ++writes;
      for (int i = 0; i < 4 * kWords; ++i) {
        if (!((PortWord(d.wr_strb_o, i / 32) >> (i % 32)) & 1)) continue;
        const uint64_t a = uint64_t(d.wr_addr_o) + uint64_t(i);
        if (a >= mem->size() || !writable(a)) {
          throw std::runtime_error("ane_planar wrote byte 0x" + Hex(a) + ", outside what it may write");
        }
        (*mem)[size_t(a)] = uint8_t(PortWord(d.wr_data_o, i / 4) >> (8 * (i % 4)));
      }
    }
  }
  uint64_t writes = 0, reads = 0;

 private:
  using Answer_t = std::pair<uint64_t, std::vector<uint32_t>>;
  template <class V, class D>
  static void Offer(std::deque<Answer_t>& q, uint64_t now, V& valid, D& data) {
    const bool v = !q.empty() && q.front().first <= now;
    valid = v;
    if (v) {
      for (int w = 0; w < kWords; ++w) SetPortWord(data, w, q.front().second[size_t(w)]);
    }
  }
  void Answer(std::deque<Answer_t>& q, const std::vector<uint8_t>& mem, uint64_t addr, uint64_t due) {
    ++reads;
    if (!q.empty() && q.back().first >= due) due = q.back().first + 1;
    std::vector<uint32_t> v(size_t(kWords), 0);
    for (int i = 0; i < 4 * kWords; ++i) {
      const uint64_t a = addr + uint64_t(i);
      const uint32_t b = a < mem.size() ? mem[size_t(a)] : 0xA5;
      v[size_t(i / 4)] |= b << (8 * (i % 4));
    }
    q.push_back({due, std::move(v)});
  }
  static std::string Hex(uint64_t a) {
    char b[32];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(a));
    return b;
  }
  std::deque<Answer_t> q_[3];
};

struct PlanarRunResult {
  uint64_t cycles = 0;  // the engine's count, START to the last write
  uint64_t beats = 0;   // beats written (its count)
  uint64_t wall = 0;    // the driver's cycles from START to done_o
  uint64_t reads = 0, writes = 0;
};

// Runs tasks on a stand-alone ane_planar model.
template <class Model>
class PlanarDriver {
 public:
  explicit PlanarDriver(Sim<Model>& sim) : sim_(sim) {}
  void Reset() {
    Idle();
    ports_.Clear();
    sim_.Reset();
  }
  std::vector<uint8_t>& mem() { return mem_; }

  PlanarRunResult Run(const PlanarTask& t, const CoreRunOptions& opt, uint64_t max_cycles = 50000000) {
    Model& d = sim_.dut();
    Idle();
    d.eval();
    if (d.busy_o) throw std::runtime_error("ane_planar: busy before the task");
    const auto ranges = PlanarWriteRanges(t);
    const auto writable = [&ranges](uint64_t a) {
      for (const auto& [b, e] : ranges) {
        if (a >= b && a < e) return true;
      }
      return false;
    };
    const std::vector<std::pair<uint32_t, uint32_t>> writes = PlanarWrites(t);
    for (size_t i = 0; i + 1 < writes.size(); ++i) WriteConfig(sim_, writes[i].first, writes[i].second);
    PlanarRunResult r;
    const uint64_t r0 = ports_.reads, w0 = ports_.writes;
    d.cfg_we_i = 1;
    d.cfg_addr_i = writes.back().first;
    d.cfg_wdata_i = writes.back().second;
    const uint64_t t0 = sim_.cycles();
    for (;;) {
      const uint64_t now = sim_.cycles();
      ports_.Drive(d, mem_, now, opt);
      sim_.Eval();
      ports_.Handle(d, &mem_, now, opt, writable);
      const bool done = d.done_o;
      sim_.Tick();
      d.cfg_we_i = 0;
      if (done) break;
      if (now + 1 - t0 >= max_cycles) throw std::runtime_error("ane_planar: no done_o");  // after max_cycles edges
    }
    r.wall = sim_.cycles() - t0;
    d.eval();
    r.cycles = d.st_cycles_o;
    r.beats = d.st_beats_o;
    r.reads = ports_.reads - r0;
    r.writes = ports_.writes - w0;
    return r;
  }

 private:
  void Idle() {
    Model& d = sim_.dut();
    d.cfg_we_i = 0;
    d.s0_rd_ready_i = 0;
    d.s1_rd_ready_i = 0;
    d.s2_rd_ready_i = 0;
    d.s0_rs_valid_i = 0;
    d.s1_rs_valid_i = 0;
    d.s2_rs_valid_i = 0;
    d.wr_ready_i = 0;
  }
  Sim<Model>& sim_;
  PlanarPorts<Model> ports_;
  std::vector<uint8_t> mem_;
};

}  // namespace ane::harness

#endif  // TB_HARNESS_PLANAR_ENGINE_H_
