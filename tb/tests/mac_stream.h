// SPDX-License-Identifier: Apache-2.0
// A seeded random stream of MAC-lane operations shared by the lane and array tests:
// interleaved reductions over the 8 slots in every mode (fp16, int8, int8 x fp16, fp16 x int8,
// int4 packed, compare max/min), K from 1 to 4096 (mostly short, so that many reductions
// finish), started by first, a load or a clear.
#ifndef TB_TESTS_MAC_STREAM_H_
#define TB_TESTS_MAC_STREAM_H_

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "tb/harness/rtl_codes.h"
#include "tb/oracle/mac.h"
#include "tb/tests/mac_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

using oracle::MacMode;

enum Cmd : uint8_t {  // the RTL's codes (harness::MacCmd)
  kCmdMac = uint8_t(harness::MacCmd::kMac),
  kCmdLoad = uint8_t(harness::MacCmd::kLoad),
  kCmdClear = uint8_t(harness::MacCmd::kClear),
};

struct Op {
  Cmd cmd = kCmdMac;
  MacMode mode = MacMode::kFp16;
  int slot = 0;
  bool first = false;
  bool last = false;
  uint16_t data = 0;
  uint16_t kernel = 0;
};

// The slots a MAC operation of the mode writes from its slot on (int4: base .. base + 3, N-2.8),
// and the results its `last` gives.
inline int SlotWidth(MacMode m) { return m == MacMode::kInt4 ? 4 : 1; }

// Random reductions interleaved over the slots.
class StreamGen {
 public:
  explicit StreamGen(uint64_t seed) : rng_(seed) {}

  // The longest reduction finished so far (products per slot).
  int max_k() const { return max_k_; }

  Op Next() {
    // Start new reductions on idle slots now and then, else continue an active one.
    if (active_.empty() || (active_.size() < 4 && rng_.Below(4) == 0)) Start();
    const size_t pick = rng_.Below(uint32_t(active_.size()));
    Reduction& r = active_[pick];
    Op op;
    if (!r.prefix.empty()) {
      op = r.prefix.front();
      r.prefix.pop_front();
      return op;
    }
    op.cmd = kCmdMac;
    op.mode = r.mode;
    op.slot = r.slot;
    op.first = r.first_pending;
    r.first_pending = false;
    op.last = --r.remaining == 0;
    Operands(r, &op);
    if (op.last) {
      max_k_ = std::max(max_k_, r.k);
      for (int s = r.slot; s < r.slot + Width(r.mode); ++s) busy_[size_t(s)] = false;
      active_.erase(active_.begin() + long(pick));
    }
    return op;
  }

 private:
  struct Reduction {
    MacMode mode;
    int slot;
    int remaining;
    int k;
    bool first_pending;
    uint16_t anchor;
    std::deque<Op> prefix;  // a load or clear before the first product
  };

  static int Width(MacMode m) { return SlotWidth(m); }

  void Start() {
    static constexpr MacMode kModes[] = {MacMode::kFp16, MacMode::kFp16,      MacMode::kFp16,
                                         MacMode::kInt8, MacMode::kInt8xFp16, MacMode::kFp16xInt8,
                                         MacMode::kInt4, MacMode::kCmpMax,    MacMode::kCmpMin};
    const MacMode mode = kModes[rng_.Below(9)];
    const int width = Width(mode);
    std::vector<int> free_bases;
    for (int s = 0; s + width <= 8; ++s) {
      bool ok = true;
      for (int i = 0; i < width; ++i) ok = ok && !busy_[size_t(s + i)];
      if (ok) free_bases.push_back(s);
    }
    if (free_bases.empty()) return;
    Reduction r;
    r.mode = mode;
    r.slot = free_bases[rng_.Below(uint32_t(free_bases.size()))];
    // K: 1 in 64 up to 4096, 7 in 64 up to 400, the rest up to 12 (quad boundaries crossed).
    const uint32_t len_kind = rng_.Below(64);
    r.remaining = 1 + int(len_kind == 0 ? rng_.Below(4096) : len_kind < 8 ? rng_.Below(400) : rng_.Below(12));
    r.k = r.remaining;
    r.anchor = uint16_t(rng_.Code() & 0xFBFF);
    // How the reduction starts: first on its first product, or a preceding load or clear.
    const uint32_t start = rng_.Below(6);
    r.first_pending = start >= 2;
    if (start < 2 && mode != MacMode::kInt4) {
      Op pre;
      pre.cmd = start == 0 ? kCmdLoad : kCmdClear;
      pre.slot = r.slot;
      if (start == 0) {
        uint32_t v = oracle::IsIntegerMode(mode) ? uint32_t(int32_t(rng_.Next() % 4000000001ull) - 2000000000)
                                                 : test::RandomAcc(rng_);
        pre.data = uint16_t(v);
        pre.kernel = uint16_t(v >> 16);
      }
      r.prefix.push_back(pre);
    } else if (start < 2) {
      r.first_pending = true;
    }
    for (int i = 0; i < width; ++i) busy_[size_t(r.slot + i)] = true;
    active_.push_back(r);
  }

  void Operands(const Reduction& r, Op* op) { Operands(r.mode, r.anchor, op); }

 public:
  // Random data and kernel codes for one product in `mode` (anchor: cancellation partner).
  void Operands(MacMode mode, uint16_t anchor, Op* op) {
    switch (mode) {
      case MacMode::kFp16:
        op->data = RandomOperand(rng_, anchor);
        op->kernel = rng_.Below(3) == 0 ? 0x3C00 : RandomOperand(rng_, 0x3C00);
        break;
      case MacMode::kInt8:
        op->data = rng_.Below(4) == 0 ? uint16_t(0x7F | (rng_.Below(2) << 7)) : rng_.Code();
        op->kernel = rng_.Below(4) == 0 ? uint16_t(0x80 | rng_.Below(2)) : rng_.Code();
        break;
      case MacMode::kInt8xFp16:
        op->data = rng_.Code();
        op->kernel = RandomOperand(rng_, anchor);
        break;
      case MacMode::kFp16xInt8:
        op->data = RandomOperand(rng_, anchor);
        op->kernel = rng_.Code();
        break;
      case MacMode::kInt4:  // now and then every data nibble -8 against a kernel of -8
        op->data = rng_.Below(8) == 0 ? 0x8888 : rng_.Code();
        op->kernel = rng_.Below(8) == 0 ? uint16_t((rng_.Code() & 0xFFF8) | 0x8) : rng_.Code();
        break;
      case MacMode::kCmpMax:
      case MacMode::kCmpMin:
        op->data = RandomOperand(rng_, anchor);
        op->kernel = rng_.Code();  // ignored
        break;
    }
  }

 private:
  Rng rng_;
  std::vector<Reduction> active_;
  bool busy_[8] = {};
  int max_k_ = 0;
};

// The MAC pipeline's timing rule (docs/mac_lane.md, "Timing"), written from the document, not
// from the RTL: an operation accepted in cycle a sits in register 0 and leaves it at the end of
// cycle l >= a + 1; its result is valid from cycle l + 10 (latency 11 when l = a + 1); the
// next operation can be accepted from cycle l on. Every accumulator write happens in the
// position's L9; an int4 operation that completes quads on slots base + 1..3 writes them in the
// three positions after its own (l + 1 .. l + 3). An operation leaves register 0 only when it is
//   fp (fp16, mixed) reading its pending quad (not its quad's first product): 4 cycles after
//     every older fp operation on its slot;
//   integer (int8, int4): 4 cycles after every older fp operation on its slots;
//   reading an accumulator (fp or integer completing a quad that does not start its reduction
//     -- integer: on any of its slots -- or compare without first): 4 cycles after every older
//     result written to an accumulator of its slots (a completed quad or a compare; an int4
//     operation's slot base + i counts from l + i), less i for its own slot base + i when it is
//     int4 (it reads that slot in position l + i);
//   fp, compare, or integer completing a quad or starting a reduction with a quad pending: 4
//     cycles after every older int4 operation that completes quads on slots base + 1..3;
//   CmdLoad / CmdClear: 10 cycles after every older operation or accumulator write (on any slot).
// With the result port always ready the pipeline never stops, and the rule gives the exact cycle
// of every acceptance and result.
class TimingModel {
 public:
  // The operation is accepted in cycle `accept`; returns the cycle it leaves register 0.
  int64_t Accept(const Op& op, int64_t accept) {
    int64_t leave = std::max(accept + 1, last_leave_ + 1);
    const bool mac = op.cmd == kCmdMac;
    const bool fp =
        mac && (op.mode == MacMode::kFp16 || op.mode == MacMode::kInt8xFp16 || op.mode == MacMode::kFp16xInt8);
    const bool cmp = mac && oracle::IsCompareMode(op.mode);
    const bool integer = mac && oracle::IsIntegerMode(op.mode);
    const int width = op.mode == MacMode::kInt4 && mac ? 4 : 1;
    const int s = op.slot;
    // per slot of the operation: its quad completes, it starts the reduction, first with the
    // quad pending
    bool done[4] = {}, qclr[4] = {}, fh[4] = {};
    bool reads_quad = false, reads_acc = false, back = false;
    for (int i = 0; i < width; ++i) {
      const int j = s + i;
      const int bpos = op.first ? 0 : pos_[j];
      done[i] = op.last || bpos == 3;
      qclr[i] = op.first || (pos_[j] != 0 && clr_[j]);
      fh[i] = op.first && !done[i];
    }
    if (fp) {
      reads_quad = (op.first ? 0 : pos_[s]) != 0;
      reads_acc = done[0] && !qclr[0];
      back = true;
    } else if (cmp) {
      reads_acc = !op.first;
      back = true;
    } else if (integer) {
      for (int i = 0; i < width; ++i) {
        reads_acc = reads_acc || (done[i] && !qclr[i]);
        back = back || done[i] || fh[i];
      }
    }
    for (int j = s; j < s + width; ++j) {
      if (reads_quad) leave = std::max(leave, quad_writer_[j] + 4);
      if (integer) leave = std::max(leave, quad_writer_[j] + 4);
      if (reads_acc) leave = std::max(leave, acc_writer_[j] + 4 - (j - s));
    }
    if (back) leave = std::max(leave, extra_until_);
    if (!mac) leave = std::max(leave, any_ + 10);
    // the slots' bookkeeping, as the operation executes
    for (int j = s; j < s + width; ++j) {
      if (!mac || (cmp && op.first)) {
        pos_[j] = 0;
        clr_[j] = false;
      } else if (fp || integer) {
        const int i = j - s;
        const int bpos = op.first ? 0 : pos_[j];
        pos_[j] = done[i] ? 0 : bpos + 1;
        clr_[j] = done[i] ? false : qclr[i];
      }
    }
    // the writes it makes
    for (int i = 0; i < width && mac; ++i) {
      const int j = s + i;
      any_ = std::max(any_, leave);
      if (fp) quad_writer_[j] = leave;
      if (cmp || ((fp || integer) && done[i])) {
        const int64_t at = (integer && i > 0) ? leave + i : leave;  // int4 extra accumulate
        acc_writer_[j] = std::max(acc_writer_[j], at);
        any_ = std::max(any_, at);
      }
    }
    if (integer && width == 4 && (done[1] || done[2] || done[3])) extra_until_ = leave + 4;
    last_leave_ = leave;
    return leave;
  }
  // The first cycle a new operation can be accepted.
  int64_t ReadyFrom() const { return last_leave_; }

  static constexpr int64_t kLatency = 11;  // register 0 .. the output register (the queue's head)

 private:
  static constexpr int64_t kLongAgo = -1000;
  int pos_[8] = {};
  bool clr_[8] = {};
  // the cycle the last fp operation on the slot left register 0; the last accumulator write
  // (the position's leave cycle); the last operation or accumulator write on any slot
  int64_t quad_writer_[8] = {kLongAgo, kLongAgo, kLongAgo, kLongAgo, kLongAgo, kLongAgo, kLongAgo, kLongAgo};
  int64_t acc_writer_[8] = {kLongAgo, kLongAgo, kLongAgo, kLongAgo, kLongAgo, kLongAgo, kLongAgo, kLongAgo};
  int64_t any_ = kLongAgo;
  int64_t extra_until_ = kLongAgo;  // an int4 operation's extra accumulates occupy the backs
  int64_t last_leave_ = kLongAgo;
};

}  // namespace ane::test

#endif  // TB_TESTS_MAC_STREAM_H_
