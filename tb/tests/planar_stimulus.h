// SPDX-License-Identifier: Apache-2.0
// Random stimulus shared by the planar tests and the reset test: pooling windows and poolings
// (NUMERICS N-4.5), values for the reduction tree and line reductions (N-4.4), the elementwise
// unit's results (N-4.1, N-4.3), and the checks of pooling and line-reduction results.
#ifndef TB_TESTS_PLANAR_STIMULUS_H_
#define TB_TESTS_PLANAR_STIMULUS_H_

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/harness/planar_run.h"
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
      // full, random, or (one in 24) empty: a patch of identities
      q.mask = rng.Below(3) ? ~uint64_t(0) : (rng.Below(8) == 0 ? 0 : rng.Next());
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

// ---- pooling (ane_pe_pool, N-4.5) ----

struct PoolCase {
  oracle::PoolOp op = oracle::PoolOp::kMax;
  oracle::ConvGeometry g;
  oracle::Tensor3 x;
};

// A random pooling the unit takes: every operation, window, stride and padding, planes up to 70
// wide (wider than the line buffer), 1..9 channels; values for the tree (TreeValue).
inline PoolCase RandomPoolCase(Rng& rng) {
  PoolCase c;
  for (;;) {
    c.op = oracle::PoolOp(rng.Below(3));
    auto& g = c.g;
    g = oracle::ConvGeometry();
    g.channels = 1 + int(rng.Below(9));
    RandomPoolWindow(rng, &g);
    g.height = 1 + int(rng.Below(20));
    g.width = 1 + int(rng.Below(rng.Below(4) == 0 ? 70 : 24));
    if (oracle::CheckPoolGeometry(g).empty()) break;
  }
  c.x = {c.g.channels, c.g.height, c.g.width, {}};
  for (int i = 0; i < c.g.channels * c.g.height * c.g.width; ++i) c.x.codes.push_back(TreeValue(rng));
  return c;
}

// Random input gaps (0..45 %), back-pressure (0, 1, 2 or 3 x stall_step %) and configuration or
// job gaps (0 or cfg_gap %) of a planar unit's stream (the options' seed left to the caller).
inline harness::StreamRunOptions RandomStreamTraffic(Rng& rng, int stall_step, int cfg_gap) {
  harness::StreamRunOptions opt;
  opt.gap_pct = int(rng.Below(4)) * 15;
  opt.stall_pct = int(rng.Below(4)) * stall_step;
  opt.cfg_gap_pct = int(rng.Below(2)) * cfg_gap;
  return opt;
}
inline harness::PoolRunOptions RandomPoolTraffic(Rng& rng) { return RandomStreamTraffic(rng, 15, 30); }

// Every output against oracle::Pool; false at the first difference.
inline bool ExpectPoolOracle(const PoolCase& c, const std::vector<uint16_t>& got, const std::string& what) {
  const oracle::Tensor3 want = oracle::Pool(c.op, c.g, c.x);
  EXPECT_EQ(got.size(), want.codes.size()) << what;
  if (got.size() != want.codes.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], want.codes[i]) << std::hex << what << ": output " << std::dec << i << " (c "
                                     << i / size_t(want.h * want.w) << ", oy " << (i / size_t(want.w)) % size_t(want.h)
                                     << ", ox " << i % size_t(want.w) << ")";
    if (got[i] != want.codes[i]) return false;
  }
  return true;
}

// ---- line reductions (ane_pe_vreduce, N-4.4) ----

// Line counts around the block boundaries (64, 128, 192) more often than elsewhere.
inline int RandomLines(Rng& rng) {
  switch (rng.Below(4)) {
    case 0: return 1 + int(rng.Below(63));
    case 1: return 64 * (1 + int(rng.Below(3))) - 1 + int(rng.Below(3));
    default: return 1 + int(rng.Below(260));
  }
}

inline harness::LineJob RandomLineJob(Rng& rng) {
  harness::LineJob j;
  j.op = int(rng.Below(3));
  j.n = RandomLines(rng);
  j.len = 1 + int(rng.Below(harness::kLineMaxW));
  for (int i = 0; i < j.n * j.len; ++i) j.lines.push_back(TreeValue(rng));
  return j;
}

inline harness::LineRunOptions RandomLineTraffic(Rng& rng) { return RandomStreamTraffic(rng, 20, 40); }

// Column `col` of a job, in line order: the list the oracle reduces.
inline std::vector<uint16_t> LineColumn(const harness::LineJob& j, int col) {
  std::vector<uint16_t> list;
  for (int r = 0; r < j.n; ++r) list.push_back(j.lines[size_t(r) * size_t(j.len) + size_t(col)]);
  return list;
}

inline std::string DescribeLineJob(const harness::LineJob& j) {
  return std::string(oracle::ReduceOpName(harness::ReduceOfTreeOp(j.op))) + " n " + std::to_string(j.n) + " len " +
         std::to_string(j.len);
}

// Every column's fp16 store against oracle::ReduceList and its fp32 value against the
// oracle's running register (OracleListFp32); false at the first difference.
inline bool ExpectLineOracle(const std::vector<harness::LineJob>& jobs, const std::vector<harness::TreeResult>& got,
                             const std::string& what) {
  size_t at = 0;
  for (size_t k = 0; k < jobs.size(); ++k) {
    for (int col = 0; col < jobs[k].len; ++col, ++at) {
      EXPECT_LT(at, got.size()) << what;
      if (at >= got.size()) return false;
      const std::vector<uint16_t> list = LineColumn(jobs[k], col);
      const oracle::ReduceOp op = harness::ReduceOfTreeOp(jobs[k].op);
      const uint16_t fp16 = oracle::ReduceList(op, list);
      const uint32_t fp32 = OracleListFp32(op, list);
      EXPECT_EQ(got[at].fp16, fp16) << std::hex << what << ": job " << std::dec << k << " (" << DescribeLineJob(jobs[k])
                                    << ") column " << col;
      EXPECT_EQ(got[at].fp32, fp32) << std::hex << what << ": fp32, job " << std::dec << k << " ("
                                    << DescribeLineJob(jobs[k]) << ") column " << col;
      if (got[at].fp16 != fp16 || got[at].fp32 != fp32) return false;
    }
  }
  EXPECT_EQ(at, got.size()) << what;
  return at == got.size();
}

}  // namespace ane::test

#endif  // TB_TESTS_PLANAR_STIMULUS_H_
