// SPDX-License-Identifier: Apache-2.0
// Random kernel groups (NUMERICS N-6) and the kernel extract's expected output, for its tests:
// rtl_kernel_extract_test and the reset test's kernel-extract bench draw and check them the
// same way.
#ifndef TB_TESTS_KERNEL_STIMULUS_H_
#define TB_TESTS_KERNEL_STIMULUS_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tb/harness/kernel_extract_driver.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/kernel_codec.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

// A random group of the given shape; zero_pct of the weights are zero (100: all zero).
// per: kernels per slot (1, 2 or 4: broadcast, two-kernel, four-kernel).
inline oracle::KernelGroup RandomGroup(Rng& rng, int steps, oracle::KernelFormat f, bool sparse, int per, int r,
                                       int zero_pct) {
  oracle::KernelGroup g;
  g.spec.format = f;
  g.spec.sparse = sparse;
  g.spec.two_kernel = per == 2;
  g.spec.four_kernel = per == 4;
  g.spec.per_channel_scale = f == oracle::KernelFormat::kInt8Sym && rng.Below(2);
  const int bits[] = {1, 2, 4, 6, 8};
  g.spec.palette_bits = bits[rng.Below(5)];
  g.spec.params = rng.Below(2);
  g.steps = steps;
  const int nk = per * r;
  // Zero runs come in whole quads half of the time, so that blocks are skipped at 50 % too.
  const bool quads = rng.Below(2);
  g.weights.assign(size_t(nk), std::vector<uint16_t>(size_t(steps), 0));
  for (int n = 0; n < nk; ++n) {
    for (int s = 0; s < steps; ++s) {
      const uint32_t roll = quads ? uint32_t((s / 4 * 2654435761u + uint32_t(n) * 40503u) >> 7) % 100 : rng.Below(100);
      if (int(roll) < zero_pct) continue;
      uint16_t c = rng.Code();
      switch (f) {
        case oracle::KernelFormat::kRaw8: c = uint16_t(int16_t(int8_t(uint8_t(c | 1)))); break;
        case oracle::KernelFormat::kRaw4: {
          const int v = int(c % 15) - 7;  // -7 .. 7
          c = uint16_t(int16_t(v == 0 ? 1 : v));
          break;
        }
        default: c = uint16_t((c & 0xBFFF) | 0x0400); break;  // finite, nonzero
      }
      if (c == 0) c = 1;
      g.weights[size_t(n)][size_t(s)] = c;
    }
  }
  for (int n = 0; n < (g.spec.params ? nk : 0); ++n) g.params.push_back({rng.Code(), uint32_t(rng.Next())});
  return g;
}

// The kernel extract's expected output for a stream of groups: the operations and parameter
// records from the oracle's decoder and schedule, and the cycle figures the decoder reports.
struct ExtractExpect {
  std::vector<uint32_t> words;
  std::vector<harness::ExtractOp> ops;
  std::vector<harness::ExtractParam> params;
  uint64_t header_words = 0, header_cycles = 0, idle_quads = 0, skipped_blocks = 0, dense_ops = 0;
};

// A group's words as the oracle's decoder reads them (words the encoder wrote, or edited ones).
inline void AddWords(ExtractExpect* e, const std::vector<uint32_t>& w, const oracle::ConvGeometry& geom) {
  const oracle::DecodedGroup d = oracle::DecodeKernelGroup(w.data(), w.size(), geom.Steps());
  e->words.insert(e->words.end(), w.begin(), w.end());
  for (size_t i = 0; i < d.params.size(); ++i) e->params.push_back({int(i), d.params[i]});
  for (size_t i = 0; i < d.ops.size(); ++i) {
    const auto& op = d.ops[i];
    const oracle::ConvStep st = oracle::StepAt(geom, op.step);
    harness::ExtractOp o;
    o.coef_a = op.coef_a;
    o.coef_b = op.coef_b;
    o.coef_c = op.coef_c;
    o.coef_d = op.coef_d;
    o.c = st.c;
    o.ky = st.ky;
    o.kx = st.kx;
    o.slot = op.slot;
    o.first = op.first;
    o.last = op.last;
    o.end = i + 1 == d.ops.size();
    e->ops.push_back(o);
  }
  e->header_words += uint64_t(d.header_words);
  // Header cycles: one per word, a parameter record (two words) in one.
  e->header_cycles += uint64_t(d.header_words) - uint64_t(d.params.size());
  e->idle_quads += uint64_t(d.idle_quads);
  e->skipped_blocks += uint64_t(d.skipped_blocks);
  e->dense_ops += uint64_t(d.slots) * uint64_t(geom.Steps());
}

inline void AddGroup(ExtractExpect* e, oracle::KernelGroup g, const oracle::ConvGeometry& geom) {
  AddWords(e, oracle::EncodeKernelGroup(&g), geom);
}

// Every operation and parameter record against the expectation; false at the first difference.
inline bool CompareExtract(const ExtractExpect& e, const std::vector<harness::ExtractOp>& ops,
                           const std::vector<harness::ExtractParam>& params, const std::string& what) {
  EXPECT_EQ(ops.size(), e.ops.size()) << what;
  if (ops.size() != e.ops.size()) return false;
  for (size_t i = 0; i < ops.size(); ++i) {
    const harness::ExtractOp& a = ops[i];
    const harness::ExtractOp& b = e.ops[i];
    const bool same = a.coef_a == b.coef_a && a.coef_b == b.coef_b && a.coef_c == b.coef_c && a.coef_d == b.coef_d &&
                      a.c == b.c && a.ky == b.ky && a.kx == b.kx && a.slot == b.slot && a.first == b.first &&
                      a.last == b.last && a.end == b.end;
    EXPECT_TRUE(same) << what << ": operation " << i << std::hex << "\n  rtl    a 0x" << a.coef_a << " b 0x" << a.coef_b
                      << " c 0x" << a.coef_c << " d 0x" << a.coef_d << std::dec << " c " << a.c << " ky " << a.ky
                      << " kx " << a.kx << " slot " << a.slot << " first " << a.first << " last " << a.last << " end "
                      << a.end << std::hex << "\n  oracle a 0x" << b.coef_a << " b 0x" << b.coef_b << " c 0x"
                      << b.coef_c << " d 0x" << b.coef_d << std::dec << " c " << b.c << " ky " << b.ky << " kx " << b.kx
                      << " slot " << b.slot << " first " << b.first << " last " << b.last << " end " << b.end;
    if (!same) return false;
  }
  EXPECT_EQ(params.size(), e.params.size()) << what;
  if (params.size() != e.params.size()) return false;
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ(params[i].kernel, e.params[i].kernel) << what << " parameter " << i;
    EXPECT_TRUE(params[i].p == e.params[i].p) << what << " parameter " << i;
    if (params[i].kernel != e.params[i].kernel || !(params[i].p == e.params[i].p)) return false;
  }
  return true;
}

}  // namespace ane::test

#endif  // TB_TESTS_KERNEL_STIMULUS_H_
