// Random stimulus shared by the planar tests: pooling windows (NUMERICS N-4.5) and values for
// the reduction tree (N-4.4).
#ifndef TB_TESTS_PLANAR_STIMULUS_H_
#define TB_TESTS_PLANAR_STIMULUS_H_

#include "tb/oracle/conv_walk.h"
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

}  // namespace ane::test

#endif  // TB_TESTS_PLANAR_STIMULUS_H_
