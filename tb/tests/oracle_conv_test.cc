// SPDX-License-Identifier: Apache-2.0
// oracle::Conv2d (tb/oracle/conv.h) checked on its own before it judges the core RTL:
//   - against an im2col written here from the definition of a grouped convolution and the
//     oracle's Matmul (itself checked against the seed's N-2 figures in oracle_mac_test): every
//     output of a random layer (kernel, stride, dilation, padding, groups, fp16 or int8) must be
//     the Matmul of its zero-padded patch row with its kernel column, bit for bit (N-2: one
//     reduction per output in step order c, ky, kx);
//   - against exact integer arithmetic and the host's _Float16: small integer layers, whose every
//     partial sum is exact, give the exact result;
//   - the post-processor per output channel (N-3): scale and bias of channel co only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "tb/oracle/conv.h"
#include "tb/oracle/mac.h"
#include "tb/tests/conv_shapes.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::ConvLayer;
using oracle::Tensor3;

uint16_t HostFp16(double v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t b = 0;
  std::memcpy(&b, &h, sizeof b);
  return b;
}

struct RandomCase {
  ConvLayer l;
  Tensor3 x;
  std::vector<std::vector<uint16_t>> w;  // [Cout][Cg KH KW]; int8 sign-extended
};

RandomCase MakeCase(test::Rng& rng, bool int8) {
  RandomCase rc;
  ConvLayer& l = rc.l;
  oracle::ConvGeometry& g = l.geom;
  // kernels up to 7x7 mostly, and larger ones (the definition holds for any size; the core
  // splits them) one time in four
  g.kernel_h = 1 + int(rng.Below(rng.Below(4) == 0 ? oracle::kMaxLayerKernel : 7));
  g.kernel_w = 1 + int(rng.Below(rng.Below(4) == 0 ? oracle::kMaxLayerKernel : 7));
  g.stride_y = 1 + int(rng.Below(4));
  g.stride_x = 1 + int(rng.Below(4));
  g.dilation_y = 1 + int(rng.Below(3));
  g.dilation_x = 1 + int(rng.Below(3));
  test::DrawPadsAndSize(&g, rng, 9, 9);
  g.channels = 1 + int(rng.Below(4));
  l.groups = 1 + int(rng.Below(3));
  l.cout = l.groups * (1 + int(rng.Below(4)));
  if (int8) {
    l.mode = oracle::MacMode::kInt8;
    l.post.int_acc = true;
    l.post.store = oracle::PostStore::kInt8;  // shift 0: clamp(acc) to int8
  }
  rc.x = Tensor3{l.Cin(), g.height, g.width, {}};
  for (int i = 0; i < l.Cin() * g.height * g.width; ++i) {
    rc.x.codes.push_back(int8 ? uint16_t(rng.Below(256)) : rng.Code());  // every fp16 code, specials too
  }
  rc.w.assign(size_t(l.cout), {});
  for (auto& k : rc.w) {
    for (int s = 0; s < g.Steps(); ++s) {
      k.push_back(int8 ? uint16_t(int16_t(int8_t(rng.Below(256)))) : rng.Code());
    }
  }
  return rc;
}

// y[co][oy][ox] as the oracle's Matmul of one patch row (im2col, zeros outside x) and one kernel
// column.
uint16_t ByMatmul(const RandomCase& rc, int co, int oy, int ox) {
  const ConvLayer& l = rc.l;
  const oracle::ConvGeometry& g = l.geom;
  const bool int8 = l.mode == oracle::MacMode::kInt8;
  oracle::Matrix a, b;
  a.type = b.type = int8 ? oracle::ElemType::kInt8 : oracle::ElemType::kFp16;
  a.rows = 1;
  a.cols = b.rows = g.channels * g.kernel_h * g.kernel_w;
  b.cols = 1;
  const int c0 = co / (l.cout / l.groups) * g.channels;
  int s = 0;
  for (int c = 0; c < g.channels; ++c) {
    for (int ky = 0; ky < g.kernel_h; ++ky) {
      for (int kx = 0; kx < g.kernel_w; ++kx, ++s) {
        const int iy = oy * g.stride_y + ky * g.dilation_y - g.pad_top;
        const int ix = ox * g.stride_x + kx * g.dilation_x - g.pad_left;
        const bool inside = iy >= 0 && iy < g.height && ix >= 0 && ix < g.width;
        a.codes.push_back(inside ? rc.x.codes[size_t(((c0 + c) * g.height + iy) * g.width + ix)] : 0);
        b.codes.push_back(int8 ? uint16_t(rc.w[size_t(co)][size_t(s)] & 0xFF) : rc.w[size_t(co)][size_t(s)]);
      }
    }
  }
  const oracle::MatmulResult r = oracle::Matmul(a, b, l.gen);
  if (!int8) return r.fp16[0];
  const int32_t v = std::clamp(r.int32[0], -128, 127);
  return uint16_t(int16_t(v));
}

TEST(OracleConv, N2_EveryOutputIsTheMatmulOfItsZeroPaddedPatch) {
  const uint64_t seed = test::TestSeed(0xC04D);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  int outputs = 0;
  for (int n = 0; n < int(40 * test::SoakFactor()); ++n) {
    const RandomCase rc = MakeCase(rng, n % 3 == 2);
    ASSERT_EQ(oracle::CheckConvLayer(rc.l), "") << "case " << n;
    const Tensor3 y = oracle::Conv2d(rc.l, rc.x, rc.w);
    const int oh = rc.l.geom.OutHeight(), ow = rc.l.geom.OutWidth();
    ASSERT_EQ(y.c, rc.l.cout);
    ASSERT_EQ(y.h, oh);
    ASSERT_EQ(y.w, ow);
    for (int co = 0; co < rc.l.cout; ++co) {
      for (int oy = 0; oy < oh; ++oy) {
        for (int ox = 0; ox < ow; ++ox, ++outputs) {
          ASSERT_EQ(y.codes[size_t((co * oh + oy) * ow + ox)], ByMatmul(rc, co, oy, ox))
              << "case " << n << " y[" << co << "][" << oy << "][" << ox << "]";
        }
      }
    }
  }
  EXPECT_GT(outputs, 1000);
}

// Small integers: x, w in -3..3 and at most 72 steps, so every partial sum is an integer below
// 2048 and exact in fp16 and in the N-2 quads: y is the exact integer sum (host _Float16).
TEST(OracleConv, N2_SmallIntegerLayersAreExact) {
  const uint64_t seed = test::TestSeed(0xC04E);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  for (int n = 0; n < 20; ++n) {
    ConvLayer l;
    l.geom.channels = 1 + int(rng.Below(8));
    l.geom.kernel_h = l.geom.kernel_w = 3;
    l.geom.height = 3 + int(rng.Below(6));
    l.geom.width = 3 + int(rng.Below(6));
    l.geom.pad_top = l.geom.pad_bottom = l.geom.pad_left = l.geom.pad_right = 1;
    l.cout = 1 + int(rng.Below(4));
    const oracle::ConvGeometry& g = l.geom;
    std::vector<int> xi, wi;
    Tensor3 x{g.channels, g.height, g.width, {}};
    for (int i = 0; i < g.channels * g.height * g.width; ++i) {
      xi.push_back(int(rng.Below(7)) - 3);
      x.codes.push_back(HostFp16(xi.back()));
    }
    std::vector<std::vector<uint16_t>> w(size_t(l.cout));
    for (int co = 0; co < l.cout; ++co) {
      for (int s = 0; s < g.Steps(); ++s) {
        wi.push_back(int(rng.Below(7)) - 3);
        w[size_t(co)].push_back(HostFp16(wi.back()));
      }
    }
    const Tensor3 y = oracle::Conv2d(l, x, w);
    for (int co = 0; co < l.cout; ++co) {
      for (int oy = 0; oy < g.OutHeight(); ++oy) {
        for (int ox = 0; ox < g.OutWidth(); ++ox) {
          int sum = 0;
          for (int c = 0; c < g.channels; ++c) {
            for (int ky = 0; ky < 3; ++ky) {
              for (int kx = 0; kx < 3; ++kx) {
                const int iy = oy + ky - 1, ix = ox + kx - 1;
                if (iy < 0 || iy >= g.height || ix < 0 || ix >= g.width) continue;
                sum +=
                    xi[size_t((c * g.height + iy) * g.width + ix)] * wi[size_t(co * g.Steps() + (c * 3 + ky) * 3 + kx)];
              }
            }
          }
          // +0 for an exact zero sum of signed terms (RNE of an exact 0 is +0)
          ASSERT_EQ(y.codes[size_t((co * g.OutHeight() + oy) * g.OutWidth() + ox)], sum == 0 ? 0 : HostFp16(sum))
              << "case " << n << " y[" << co << "][" << oy << "][" << ox << "]";
        }
      }
    }
  }
}

// N-3.1: output channel co is post-processed with its own scale and bias: a 1x1 layer of ones
// with weight co + 1 and (scale, bias) = (co + 1, -2 co) gives (co + 1)^2 - 2 co.
TEST(OracleConv, N3_1_EachOutputChannelTakesItsOwnScaleAndBias) {
  ConvLayer l;
  l.geom.channels = 1;
  l.geom.height = 2;
  l.geom.width = 3;
  l.cout = 4;
  l.post.scale_en = l.post.bias_en = true;
  for (int co = 0; co < 4; ++co) {
    oracle::ChannelParams ch;
    ch.scale = HostFp16(co + 1);
    const float bias = float(-2 * co);
    std::memcpy(&ch.bias, &bias, sizeof bias);
    l.channel.push_back(ch);
  }
  const Tensor3 x{1, 2, 3, std::vector<uint16_t>(6, HostFp16(1))};
  const std::vector<std::vector<uint16_t>> w = {{HostFp16(1)}, {HostFp16(2)}, {HostFp16(3)}, {HostFp16(4)}};
  const Tensor3 y = oracle::Conv2d(l, x, w);
  for (int co = 0; co < 4; ++co) {
    for (int i = 0; i < 6; ++i) {
      // (w_co x 1) x scale_co + bias_co = (co + 1)^2 - 2 co
      EXPECT_EQ(y.codes[size_t(co * 6 + i)], HostFp16((co + 1) * (co + 1) - 2 * co)) << "channel " << co;
    }
  }
}

TEST(OracleConv, RejectsLayersOutsideTheDefinitionWithAReason) {
  ConvLayer l;
  l.cout = 3;
  l.groups = 2;
  EXPECT_NE(oracle::CheckConvLayer(l).find("not a multiple of groups"), std::string::npos);
  l.groups = 1;
  l.post.sr = true;
  EXPECT_NE(oracle::CheckConvLayer(l).find("stochastic rounding"), std::string::npos);
  l.post.sr = false;
  l.channel.resize(2);
  EXPECT_NE(oracle::CheckConvLayer(l).find("one per output channel"), std::string::npos);
}

}  // namespace
}  // namespace ane
