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

#include "tb/oracle/mac.h"
#include "tb/tests/mac_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

using oracle::MacMode;

enum Cmd : uint8_t { kCmdMac = 0, kCmdLoad = 1, kCmdClear = 2 };

struct Op {
  Cmd cmd = kCmdMac;
  MacMode mode = MacMode::kFp16;
  int slot = 0;
  bool first = false;
  bool last = false;
  uint16_t data = 0;
  uint16_t kernel = 0;
};

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

  static int Width(MacMode m) { return m == MacMode::kInt4 ? 4 : 1; }

  void Start() {
    static constexpr MacMode kModes[] = {MacMode::kFp16, MacMode::kFp16, MacMode::kFp16,
                                         MacMode::kInt8, MacMode::kInt8xFp16, MacMode::kFp16xInt8,
                                         MacMode::kInt4, MacMode::kCmpMax, MacMode::kCmpMin};
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
        uint32_t v = oracle::IsIntegerMode(mode)
                         ? uint32_t(int32_t(rng_.Next() % 4000000001ull) - 2000000000)
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
      case MacMode::kInt4:
        op->data = rng_.Code();
        op->kernel = rng_.Code();
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

}  // namespace ane::test

#endif  // TB_TESTS_MAC_STREAM_H_
