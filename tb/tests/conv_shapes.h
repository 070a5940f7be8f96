// SPDX-License-Identifier: Apache-2.0
// Convolution geometries for the tests (NUMERICS N-2, N-6): one written out field by field, and
// the random padding and size of a drawn kernel window, shared by the oracle's walk and layer
// tests and the core, shifter and kernel-extract tests.
#ifndef TB_TESTS_CONV_SHAPES_H_
#define TB_TESTS_CONV_SHAPES_H_

#include <algorithm>
#include <cstdint>

#include "tb/oracle/conv_walk.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

// C x H x W input, KH x KW kernel, strides (sy, sx), dilations (dy, dx), pads top, bottom,
// left, right.
inline oracle::ConvGeometry ConvShape(int c, int h, int w, int kh, int kw, int sy, int sx, int dy, int dx, int pt,
                                      int pb, int pl, int pr) {
  oracle::ConvGeometry g;
  g.channels = c;
  g.height = h;
  g.width = w;
  g.kernel_h = kh;
  g.kernel_w = kw;
  g.stride_y = sy;
  g.stride_x = sx;
  g.dilation_y = dy;
  g.dilation_x = dx;
  g.pad_top = pt;
  g.pad_bottom = pb;
  g.pad_left = pl;
  g.pad_right = pr;
  return g;
}

// The same stride s, dilation d and pad on both axes.
inline oracle::ConvGeometry SquareConvShape(int c, int h, int w, int kh, int kw, int s, int d, int pad) {
  return ConvShape(c, h, w, kh, kw, s, s, d, d, pad, pad, pad, pad);
}

// One kernel window: a C x KH x KW input that the KH x KW kernel covers once.
inline oracle::ConvGeometry WindowShape(int c, int kh, int kw) {
  return ConvShape(c, kh, kw, kh, kw, 1, 1, 1, 1, 0, 0, 0, 0);
}

// For g's kernel, strides and dilations: each pad below the dilated window's extent on its
// axis, and a height and width that leave at least one output row and column plus up to
// extra_h - 1 and extra_w - 1 more input rows and columns.
inline void DrawPadsAndSize(oracle::ConvGeometry* g, Rng& rng, uint32_t extra_h, uint32_t extra_w) {
  const int ey = (g->kernel_h - 1) * g->dilation_y + 1, ex = (g->kernel_w - 1) * g->dilation_x + 1;
  g->pad_top = int(rng.Below(uint32_t(ey)));
  g->pad_bottom = int(rng.Below(uint32_t(ey)));
  g->pad_left = int(rng.Below(uint32_t(ex)));
  g->pad_right = int(rng.Below(uint32_t(ex)));
  g->height = std::max(1, ey - g->pad_top - g->pad_bottom) + int(rng.Below(extra_h));
  g->width = std::max(1, ex - g->pad_left - g->pad_right) + int(rng.Below(extra_w));
}

}  // namespace ane::test

#endif  // TB_TESTS_CONV_SHAPES_H_
