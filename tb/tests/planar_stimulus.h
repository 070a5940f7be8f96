// Random stimulus shared by the planar tests: pooling windows (NUMERICS N-4.5) and values for
// the reduction tree (N-4.4), and the elementwise unit's results (N-4.1, N-4.3).
#ifndef TB_TESTS_PLANAR_STIMULUS_H_
#define TB_TESTS_PLANAR_STIMULUS_H_

#include <cstdint>

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

// The contract's result of ane_pe_ew's operation code `op` (its in_op_i: 0 add .. 11 (a+b)*c,
// N-4.1 / N-4.3) on one lane's operands.
inline uint16_t EwOracle(int op, uint16_t a, uint16_t b, uint16_t c) {
  switch (op) {
    case 0: return oracle::Fp16Add(a, b);
    case 1: return oracle::Fp16Sub(a, b);
    case 2: return oracle::Fp16Mul(a, b);
    case 3: return oracle::Fp16Max(a, b);
    case 4: return oracle::Fp16Min(a, b);
    case 5: return oracle::Compare(a, b);
    case 6: return oracle::Fp16Abs(a);
    case 7: return oracle::Fp16Neg(a);
    case 8: return oracle::Fp16Max(a, 0x0000);
    case 9: return oracle::Fp16Square(a);
    case 10: return oracle::Ternary(oracle::TernaryOp::kAddMul, a, b, c);
    default: return oracle::Ternary(oracle::TernaryOp::kMulAfterAdd, a, b, c);
  }
}

}  // namespace ane::test

#endif  // TB_TESTS_PLANAR_STIMULUS_H_
