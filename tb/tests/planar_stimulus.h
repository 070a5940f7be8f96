// SPDX-License-Identifier: Apache-2.0
// Random stimulus shared by the planar tests: pooling windows (NUMERICS N-4.5) and values for
// the reduction tree (N-4.4), and the elementwise unit's results (N-4.1, N-4.3).
#ifndef TB_TESTS_PLANAR_STIMULUS_H_
#define TB_TESTS_PLANAR_STIMULUS_H_

#include <array>
#include <cstdint>
#include <vector>

#include "tb/harness/rtl_codes.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/elementwise.h"
#include "tb/oracle/planar.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

// A window of 1..8 x 1..8, stride 1..8 on each axis, each padding smaller than the window.
inline void RandomPoolWindow(Rng& rng, oracle::ConvGeometry* g) {
  g->kernel_h = 1 + int(rng.Below(8));
  g->kernel_w = 1 + int(rng.Below(8));
  g->stride_y = 1 + int(rng.Below(8));
  g->stride_x = 1 + int(rng.Below(8));
  g->pad_top = int(rng.Below(uint32_t(g->kernel_h)));
  g->pad_bottom = int(rng.Below(uint32_t(g->kernel_h)));
  g->pad_left = int(rng.Below(uint32_t(g->kernel_w)));
  g->pad_right = int(rng.Below(uint32_t(g->kernel_w)));
}

// Values that exercise the tree: mostly finite values of a few nearby exponents (so sums
// round and cancel), some of any code (NaN, inf, -0, subnormals included).
inline uint16_t TreeValue(Rng& rng) {
  const uint32_t r = rng.Below(100);
  if (r < 70) return uint16_t((rng.Below(2) << 15) | ((12 + rng.Below(8)) << 10) | rng.Below(1024));
  if (r < 80) return uint16_t(rng.Below(2) << 15 | rng.Below(1024));  // subnormals and zeros
  if (r < 83) return rng.Below(2) ? 0x7C00 : 0xFC00;
  if (r < 85) return uint16_t(0x7C01 + rng.Below(0x3FF)) | uint16_t(rng.Below(2) << 15);  // NaN
  return rng.Code();
}

// The oracle's fp32 running value of a list (N-4.4: patches of 64, the tree, the running
// register from the identity), to check a unit's fp32 result as well as its fp16 store.
inline uint32_t OracleListFp32(oracle::ReduceOp op, const std::vector<uint16_t>& list) {
  uint32_t acc = oracle::ReduceIdentity(op);
  for (size_t p = 0; p < list.size(); p += oracle::kPatch) {
    std::array<uint16_t, oracle::kPatch> patch{};
    uint64_t valid = 0;
    for (size_t i = 0; i < size_t(oracle::kPatch) && p + i < list.size(); ++i) {
      patch[i] = list[p + i];
      valid |= uint64_t(1) << i;
    }
    acc = oracle::ReduceAccumulate(op, acc, oracle::ReduceTree(op, patch, valid));
  }
  return acc;
}

// One patch of a reduction stream into ane_pe_reduce (N-4.4): 64 values, the valid mask, the
// reduction, and whether the patch starts and ends it.
struct Patch {
  std::array<uint16_t, 64> v{};
  uint64_t mask = 0;
  oracle::ReduceOp op = oracle::ReduceOp::kSum;
  bool first = false, last = false;
};

// Random reductions of 1..5 patches, values of mixed magnitude with some zeros, infinities and
// NaNs.
inline std::vector<Patch> RandomPatches(Rng& rng, int reductions) {
  std::vector<Patch> out;
  for (int r = 0; r < reductions; ++r) {
    const oracle::ReduceOp op = oracle::ReduceOp(rng.Below(3));
    const int n = 1 + int(rng.Below(5));
    const uint32_t scale = rng.Below(3);
    for (int p = 0; p < n; ++p) {
      Patch q;
      q.op = op;
      q.first = p == 0;
      q.last = p == n - 1;
      q.mask = rng.Below(3) ? ~uint64_t(0) : rng.Next();
      for (auto& c : q.v) {
        const uint32_t k = rng.Below(64);
        if (k == 0)
          c = uint16_t(0x7C00 | (rng.Below(2) << 15));
        else if (k == 1)
          c = 0x7E01;
        else if (k == 2)
          c = 0x8000;
        else
          c = uint16_t((rng.Code() & 0x83FF) | ((4 + rng.Below(8) + 8 * scale) << 10));
      }
      out.push_back(q);
    }
  }
  return out;
}

// The contract's result of ane_pe_ew's operation code `op` (its in_op_i: 0 add .. 11 (a+b)*c,
// 12 pass; N-4.1 / N-4.3) on one lane's operands.
inline uint16_t EwOracle(int op, uint16_t a, uint16_t b, uint16_t c) {
  return harness::EwOracle(harness::PeEwOp(op), a, b, c);
}

}  // namespace ane::test

#endif  // TB_TESTS_PLANAR_STIMULUS_H_
