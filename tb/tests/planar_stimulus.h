// Random pooling windows shared by the oracle and RTL pooling tests (NUMERICS N-4.5).
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

}  // namespace ane::test

#endif  // TB_TESTS_PLANAR_STIMULUS_H_
