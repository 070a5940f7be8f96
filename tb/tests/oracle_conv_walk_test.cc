// SPDX-License-Identifier: Apache-2.0
// The oracle's convolution walk (tb/oracle/conv_walk.h) checked on its own before it judges the
// shifter RTL: the N-2 step order, output sizes against hand-worked cases, ConvInputAt against
// an independent direct convolution over an explicitly zero-padded copy of the tensor, and the
// lane mapping of broadcast and two-kernel tiles.
#include <gtest/gtest.h>

#include <vector>

#include "tb/oracle/conv_walk.h"
#include "tb/tests/conv_shapes.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::ConvGeometry;
using oracle::ConvStep;
using oracle::Tensor3;
using oracle::TileMap;

TEST(OracleConvWalk, N2_StepOrderIsChannelOuterKernelColumnInner) {
  const ConvGeometry g = test::ConvShape(2, 5, 5, 2, 3, 1, 1, 1, 1, 0, 0, 0, 0);
  const int want[][3] = {{0, 0, 0}, {0, 0, 1}, {0, 0, 2}, {0, 1, 0}, {0, 1, 1}, {0, 1, 2},
                         {1, 0, 0}, {1, 0, 1}, {1, 0, 2}, {1, 1, 0}, {1, 1, 1}, {1, 1, 2}};
  ASSERT_EQ(g.Steps(), 12);
  for (int s = 0; s < g.Steps(); ++s) {
    const ConvStep st = oracle::StepAt(g, s);
    EXPECT_EQ(st.c, want[s][0]) << s;
    EXPECT_EQ(st.ky, want[s][1]) << s;
    EXPECT_EQ(st.kx, want[s][2]) << s;
    EXPECT_EQ(oracle::StepIndex(g, st), s);
  }
}

TEST(OracleConvWalk, OutputSizesOfWorkedCases) {
  // 56x56, 3x3, pad 1, stride 1 -> 56x56 ("same" convolution).
  EXPECT_EQ(test::ConvShape(1, 56, 56, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1).OutHeight(), 56);
  // 7x7, 3x3, stride 2, no padding -> 3x3.
  EXPECT_EQ(test::ConvShape(1, 7, 7, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0).OutWidth(), 3);
  // 10 wide, 3 taps at dilation 4 span 9 columns -> 2 outputs.
  EXPECT_EQ(test::ConvShape(1, 10, 10, 3, 3, 1, 1, 4, 4, 0, 0, 0, 0).OutWidth(), 2);
  // 224, 7x7, stride 2, pad 3 -> 112 (a classic stem).
  EXPECT_EQ(test::ConvShape(3, 224, 224, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3).OutHeight(), 112);
  // 5 high, 1 tap, stride 4 -> rows 0 and 4.
  EXPECT_EQ(test::ConvShape(1, 5, 5, 1, 1, 4, 4, 1, 1, 0, 0, 0, 0).OutHeight(), 2);
}

TEST(OracleConvWalk, RejectsUnsupportedGeometryWithAReason) {
  EXPECT_NE(oracle::CheckConvGeometry(test::ConvShape(1, 8, 8, 8, 3, 1, 1, 1, 1, 0, 0, 0, 0)), "");
  EXPECT_NE(oracle::CheckConvGeometry(test::ConvShape(1, 8, 8, 3, 3, 5, 1, 1, 1, 0, 0, 0, 0)), "");
  EXPECT_NE(oracle::CheckConvGeometry(test::ConvShape(1, 8, 8, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0)), "");
  EXPECT_NE(oracle::CheckConvGeometry(test::ConvShape(1, 8, 8, 3, 3, 1, 1, 1, 1, 3, 0, 0, 0)), "");
  EXPECT_NE(oracle::CheckConvGeometry(test::ConvShape(1, 2, 2, 5, 5, 1, 1, 1, 1, 0, 0, 0, 0)), "");
  EXPECT_EQ(oracle::CheckConvGeometry(test::ConvShape(1, 8, 8, 7, 7, 4, 4, 1, 1, 6, 6, 6, 6)), "");
}

// An independent reference: copy the tensor into an explicitly zero-padded array, then read
// the dilated window at the strided origin. ConvInputAt must agree for every output and step.
TEST(OracleConvWalk, N2_InputAtMatchesAZeroPaddedCopyOfTheTensor) {
  const uint64_t seed = test::TestSeed(0xC0417);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int iter = 0; iter < 300; ++iter) {
    ConvGeometry g;
    do {
      g = test::ConvShape(1 + int(rng.Below(3)), 1 + int(rng.Below(12)), 1 + int(rng.Below(12)), 1 + int(rng.Below(7)),
                          1 + int(rng.Below(7)), 1 + int(rng.Below(4)), 1 + int(rng.Below(4)), 1 + int(rng.Below(4)),
                          1 + int(rng.Below(4)), 0, 0, 0, 0);
      const int ey = g.dilation_y * (g.kernel_h - 1) + 1, ex = g.dilation_x * (g.kernel_w - 1) + 1;
      g.pad_top = int(rng.Below(uint32_t(ey)));
      g.pad_bottom = int(rng.Below(uint32_t(ey)));
      g.pad_left = int(rng.Below(uint32_t(ex)));
      g.pad_right = int(rng.Below(uint32_t(ex)));
    } while (!oracle::CheckConvGeometry(g).empty());
    Tensor3 x{g.channels, g.height, g.width, {}};
    for (int i = 0; i < g.channels * g.height * g.width; ++i) x.codes.push_back(uint16_t(1 + i));
    const int ph = g.height + g.pad_top + g.pad_bottom, pw = g.width + g.pad_left + g.pad_right;
    std::vector<uint16_t> padded(size_t(g.channels * ph * pw), 0);
    for (int c = 0; c < g.channels; ++c) {
      for (int y = 0; y < g.height; ++y) {
        for (int xx = 0; xx < g.width; ++xx) {
          padded[size_t((c * ph + y + g.pad_top) * pw + xx + g.pad_left)] = x.at(c, y, xx);
        }
      }
    }
    for (int oy = 0; oy < g.OutHeight(); ++oy) {
      for (int ox = 0; ox < g.OutWidth(); ++ox) {
        for (int s = 0; s < g.Steps(); ++s) {
          const ConvStep st = oracle::StepAt(g, s);
          const int py = oy * g.stride_y + st.ky * g.dilation_y;
          const int px = ox * g.stride_x + st.kx * g.dilation_x;
          ASSERT_LT(py, ph);
          ASSERT_LT(px, pw);
          ASSERT_EQ(oracle::ConvInputAt(x, g, oy, ox, st), padded[size_t((st.c * ph + py) * pw + px)])
              << "iter " << iter << " output (" << oy << ", " << ox << ") step " << s;
        }
      }
    }
  }
}

TEST(OracleConvWalk, LanesMapRowMajorOntoTheTileAndPairUpInTwoKernelMode) {
  const ConvGeometry g = test::ConvShape(1, 10, 10, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0);  // 10x10 outputs
  const TileMap t{8, 6, 2, 5, false};  // rows 8..9, columns 6..10 (column 10 is off the map)
  auto lv = oracle::LaneAt(g, t, 16, 0);
  EXPECT_TRUE(lv.active);
  EXPECT_EQ(lv.oy, 8);
  EXPECT_EQ(lv.ox, 6);
  lv = oracle::LaneAt(g, t, 16, 3);
  EXPECT_EQ(lv.ox, 9);
  EXPECT_TRUE(lv.active);
  lv = oracle::LaneAt(g, t, 16, 4);  // column 10
  EXPECT_FALSE(lv.active);
  lv = oracle::LaneAt(g, t, 16, 5);  // second tile row
  EXPECT_EQ(lv.oy, 9);
  EXPECT_EQ(lv.ox, 6);
  EXPECT_TRUE(lv.active);
  EXPECT_FALSE(oracle::LaneAt(g, t, 16, 10).active);  // past the 2x5 tile
  const TileMap t2{0, 0, 2, 4, true};
  for (int l = 0; l < 16; ++l) {
    const auto a = oracle::LaneAt(g, t2, 16, l);
    EXPECT_TRUE(a.active) << l;
    EXPECT_EQ(a.oy, (l / 2) / 4) << l;
    EXPECT_EQ(a.ox, (l / 2) % 4) << l;
  }
  const Tensor3 x{1, 10, 10, std::vector<uint16_t>(100, 7)};
  const auto v = oracle::ShifterVector(x, g, t, 16, oracle::ConvStep{});
  EXPECT_EQ(v[0], 7);
  EXPECT_EQ(v[4], 0);
  EXPECT_EQ(v[15], 0);
}

}  // namespace
}  // namespace ane
