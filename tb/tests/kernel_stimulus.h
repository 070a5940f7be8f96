// SPDX-License-Identifier: Apache-2.0
// Random kernel groups (NUMERICS N-6) for the kernel extract's tests: rtl_kernel_extract_test and
// the reset test's kernel-extract bench draw them the same way.
#ifndef TB_TESTS_KERNEL_STIMULUS_H_
#define TB_TESTS_KERNEL_STIMULUS_H_

#include <cstdint>
#include <vector>

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

}  // namespace ane::test

#endif  // TB_TESTS_KERNEL_STIMULUS_H_
