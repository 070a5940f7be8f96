// SPDX-License-Identifier: Apache-2.0
// Random neural-engine core layers: the stimulus of the core's own tests (rtl_core_test) and of
// its mid-job reset tests (rtl_reset_test), so that both draw the same layers.
#ifndef TB_TESTS_CORE_STIMULUS_H_
#define TB_TESTS_CORE_STIMULUS_H_

#include <cstdint>
#include <vector>

#include "tb/oracle/conv.h"
#include "tb/oracle/kernel_codec.h"
#include "tb/oracle/mac.h"
#include "tb/oracle/postproc.h"
#include "tb/plan/core_plan.h"
#include "tb/tests/conv_shapes.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

using harness::CoreLayerPlan;

// A random fp16 tensor of moderate values (products and sums stay finite mostly; specials are
// the MAC tests' business).
inline uint16_t SmallFp16(test::Rng& rng) {
  const uint16_t mag = uint16_t(0x2C00 + rng.Below(0x1800));  // ~2^-4 .. 2^2
  return uint16_t(mag | (rng.Below(2) ? 0x8000 : 0));
}

struct LayerCase {
  CoreLayerPlan plan;
  oracle::Tensor3 x;
  std::vector<std::vector<uint16_t>> w;
};

// A random layer: geometry, groups, formats, post-processing; tiling chosen by the planner or
// forced (channels per work unit). `depthwise`: a depthwise layer (one input and one output
// channel per group) planned for the depthwise interleave of 2, 3 or 4 groups per pass.
inline LayerCase RandomLayer(test::Rng& rng, bool allow_int8, bool depthwise = false) {
  LayerCase lc;
  CoreLayerPlan& p = lc.plan;
  oracle::ConvLayer& l = p.layer;
  oracle::ConvGeometry& g = l.geom;
  const bool int8 = allow_int8 && rng.Below(4) == 0;
  g.kernel_h = 1 + int(rng.Below(rng.Below(4) == 0 ? 7 : 3));
  g.kernel_w = 1 + int(rng.Below(rng.Below(4) == 0 ? 7 : 3));
  g.stride_y = 1 + int(rng.Below(2));
  g.stride_x = 1 + int(rng.Below(2));
  g.dilation_y = 1 + int(rng.Below(rng.Below(3) == 0 ? 2 : 1));
  g.dilation_x = 1 + int(rng.Below(rng.Below(3) == 0 ? 2 : 1));
  test::DrawPadsAndSize(&g, rng, 12, 14);
  g.channels = 1 + int(rng.Below(rng.Below(3) == 0 ? 12 : 5));
  l.groups = 1 + int(rng.Below(3));
  l.cout = l.groups * (1 + int(rng.Below(rng.Below(3) == 0 ? 20 : 6)));
  if (depthwise) {
    p.diag = true;
    p.diag_g = 2 + int(rng.Below(3));
    g.channels = 1;
    l.groups = p.diag_g * (1 + int(rng.Below(3)));
    l.cout = l.groups;
  }
  if (int8) {
    l.mode = oracle::MacMode::kInt8;
    p.kspec.format = oracle::KernelFormat::kRaw8;
    l.post.int_acc = true;
    l.post.shift = int(rng.Below(8));
    l.post.store = rng.Below(2) ? oracle::PostStore::kInt8 : oracle::PostStore::kFp16;
    if (l.post.store == oracle::PostStore::kInt8 && rng.Below(2)) l.post.act = oracle::PostAct::kRelu;
  } else {
    l.mode = oracle::MacMode::kFp16;
    const uint32_t f = rng.Below(4);
    p.kspec.format = f == 1 ? oracle::KernelFormat::kInt8Sym
                            : (f == 2 ? oracle::KernelFormat::kPalette : oracle::KernelFormat::kFp16);
    p.kspec.palette_bits = 4;
    const uint32_t per = rng.Below(3);  // two-kernel, four-kernel or broadcast
    p.kspec.two_kernel = per == 0;
    p.kspec.four_kernel = per == 1;
    l.post.scale_en = rng.Below(2) == 0;
    l.post.bias_en = rng.Below(2) == 0;
    if (rng.Below(3) == 0) l.post.act = oracle::PostAct::kRelu;
  }
  if (depthwise) p.kspec.two_kernel = p.kspec.four_kernel = false;
  p.kspec.sparse = rng.Below(3) == 0 && !p.kspec.four_kernel;  // four-kernel groups are dense
  if (l.post.scale_en || l.post.bias_en) {
    for (int co = 0; co < l.cout; ++co) {
      oracle::ChannelParams ch;
      ch.scale = l.post.scale_en ? SmallFp16(rng) : 0x3C00;
      ch.bias = l.post.bias_en ? uint32_t(0x3E000000u + rng.Below(0x01000000u)) | (rng.Below(2) ? 0x80000000u : 0) : 0;
      l.channel.push_back(ch);
    }
  }
  const int cin = l.Cin(), k = g.Steps();
  lc.x = oracle::Tensor3{cin, g.height, g.width, {}};
  for (int i = 0; i < cin * g.height * g.width; ++i) {
    lc.x.codes.push_back(int8 ? uint16_t(uint8_t(rng.Next())) : SmallFp16(rng));
  }
  const int zero_pct = p.kspec.sparse ? 60 : 10;
  lc.w.assign(size_t(l.cout), {});
  for (auto& kern : lc.w) {
    for (int s = 0; s < k; ++s) {
      const bool zero = int(rng.Below(100)) < zero_pct;
      kern.push_back(zero ? 0 : (int8 ? uint16_t(int8_t(rng.Next())) & 0xFF : SmallFp16(rng)));
    }
  }
  if (int8) {
    for (auto& kern : lc.w) {
      for (auto& v : kern) v = uint16_t(int16_t(int8_t(uint8_t(v))));
    }
  }
  return lc;
}

}  // namespace ane::test

#endif  // TB_TESTS_CORE_STIMULUS_H_
