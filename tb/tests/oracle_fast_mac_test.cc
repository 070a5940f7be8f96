// SPDX-License-Identifier: Apache-2.0
// The fast exact MAC path (tb/oracle/fast_mac.h) against the reference stages (mac.h): the
// contract's seed figures with their literal results, every operand code against the special
// values, 10^7 seeded random dot products of both generations, and whole convolutions and
// matrix multiplies. The reference stays the judge of the RTL; this path must equal it.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tb/oracle/conv.h"
#include "tb/oracle/fast_mac.h"
#include "tb/oracle/mac.h"
#include "tb/tests/test_seed.h"

namespace ane::oracle {
namespace {

using test::Rng;

uint16_t H(double v) {  // the host's fp16 code of an exactly representable value
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

uint16_t FastDot(Generation gen, const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
  return FastOutputPort(FastReduceFp16(gen, a.data(), b.data(), a.size()), gen);
}

// The reference results of NUMERICS N-2 (docs/numerics.md "The N-2 reference results"), each a
// dot product against ones, with the contract's numbers.
TEST(OracleFastMac, N2_4_N2_5_N2_6_SeedFiguresHold) {
  for (Generation gen : {Generation::kM1, Generation::kM5}) {
    std::vector<uint16_t> ones(16000, H(1));
    EXPECT_EQ(FastDot(gen, ones, ones), H(16000));
    std::vector<uint16_t> x(1025, H(1));
    x[0] = H(4096);
    EXPECT_EQ(FastDot(gen, x, std::vector<uint16_t>(1025, H(1))), gen == Generation::kM1 ? H(5116) : H(5120));
    EXPECT_EQ(FastDot(gen, {H(16376), H(16376)}, {H(1), H(1)}), H(32752));
    EXPECT_EQ(FastDot(gen, {H(16384), H(16384)}, {H(1), H(1)}), 0x7C00);
    EXPECT_EQ(FastDot(gen, {H(16376), H(16384)}, {H(1), H(1)}), 0x7C00);  // 32760 ties to 32768
    EXPECT_EQ(FastDot(gen, {H(60000)}, {H(1)}), H(60000));                // K = 1: no ceiling
    EXPECT_EQ(FastDot(gen, {H(60000), 0}, {H(1), H(1)}), 0x7C00);
    const std::vector<uint16_t> between = {H(16384), H(16384), 0, 0, H(-16384), H(-16384), 0, 0, H(1)};
    EXPECT_EQ(FastDot(gen, between, std::vector<uint16_t>(9, H(1))), 0x7C00);
    const std::vector<uint16_t> inside = {H(16384), H(16384), H(-16384), H(-16384), H(1)};
    EXPECT_EQ(FastDot(gen, inside, std::vector<uint16_t>(5, H(1))), H(1));
  }
  // Table 3.1: [b, -b, 1] x 16 against ones: 16 survive below 4096, 4 from 4096 on (m1)
  for (double b : {1024.0, 3000.0, 4090.0, 4096.0, 8000.0, 16000.0, 30000.0}) {
    std::vector<uint16_t> v;
    for (int i = 0; i < 16; ++i) v.insert(v.end(), {H(b), H(-b), H(1)});
    EXPECT_EQ(FastDot(Generation::kM1, v, std::vector<uint16_t>(48, H(1))), H(b < 4096 ? 16 : 4)) << b;
    std::vector<uint16_t> w;
    for (int i = 0; i < 16; ++i) w.insert(w.end(), {H(b), H(1), H(-b)});
    EXPECT_EQ(FastDot(Generation::kM1, w, std::vector<uint16_t>(48, H(1))), H(b < 4096 ? 16 : 4)) << b;
  }
  EXPECT_EQ(FastDot(Generation::kM1, {H(2048), H(1 + 1.0 / 1024)}, {H(1), H(1)}), H(2048));
  EXPECT_EQ(FastDot(Generation::kM5, {H(2048), H(1 + 1.0 / 1024)}, {H(1), H(1)}), H(2050));
}

// Every operand code (NaN, infinities, -0, denormals, the largest values) against a set of
// special kernel values, as a lone product and inside quads of every position.
TEST(OracleFastMac, N1_N2_2_N2_3_EveryCodeAgainstSpecialValues) {
  const uint16_t special[] = {0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x0001,
                              0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x5800, 0x1400, 0x3555};
  int checked = 0;
  for (Generation gen : {Generation::kM1, Generation::kM5}) {
    for (uint32_t c = 0; c < 65536; ++c) {
      for (uint16_t s : special) {
        for (size_t k : {1, 2, 3, 5}) {
          std::vector<uint16_t> a(k, s), b(k, H(1));
          a[k - 1] = uint16_t(c);
          b[0] = s;
          const MacResult ref = Reduce(MacMode::kFp16, gen, a.data(), b.data(), k);
          const uint32_t acc = FastReduceFp16(gen, a.data(), b.data(), k);
          ASSERT_EQ(acc, ref.acc) << "code 0x" << std::hex << c << " with 0x" << s << ", K " << k;
          ASSERT_EQ(FastOutputPort(acc, gen), ref.fp16) << "code 0x" << std::hex << c << " with 0x" << s;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 2 * 65536 * 15 * 4);
}

// Random dot products: K 1..24, operands drawn from every code (NaN, inf, denormals included),
// from small magnitudes, or as cancellations of a random anchor and values near the ceiling.
void RandomDots(Generation gen, uint64_t default_seed) {
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const int n = 5'000'000;
  std::vector<uint16_t> a, b;
  for (int it = 0; it < n; ++it) {
    const size_t k = 1 + rng.Below(24);
    a.resize(k);
    b.resize(k);
    const uint32_t style = rng.Below(4);
    const uint16_t anchor = uint16_t(rng.Code() & 0x7BFF);
    for (size_t i = 0; i < k; ++i) {
      switch (style) {
        case 0:  // any code
          a[i] = rng.Code();
          b[i] = rng.Code();
          break;
        case 1:  // finite, magnitudes below about 8
          a[i] = uint16_t(rng.Code() & 0xC7FF);
          b[i] = uint16_t(rng.Code() & 0xC7FF);
          break;
        case 2:  // cancellations of an anchor
          a[i] = rng.Below(2) ? anchor : uint16_t(anchor ^ 0x8000);
          if (rng.Below(3) == 0) a[i] = uint16_t(rng.Code() & 0xBFFF);
          b[i] = rng.Below(2) ? H(1) : uint16_t(rng.Code() & 0xBFFF);
          break;
        default:  // near the port ceiling and the fp16 limits
          a[i] = uint16_t(0x7400 + rng.Below(0x0800)) ^ (rng.Below(2) ? 0x8000 : 0);
          b[i] = rng.Below(2) ? H(1) : H(0.5);
          break;
      }
    }
    const MacResult ref = Reduce(MacMode::kFp16, gen, a.data(), b.data(), k);
    const uint32_t acc = FastReduceFp16(gen, a.data(), b.data(), k);
    if (acc != ref.acc || FastOutputPort(acc, gen) != ref.fp16) {
      std::string v;
      for (size_t i = 0; i < k; ++i) v += " " + std::to_string(a[i]) + "x" + std::to_string(b[i]);
      FAIL() << "dot product " << it << " (style " << style << ", K " << k << "):" << v << ": fast acc 0x" << std::hex
             << acc << ", reference 0x" << ref.acc;
    }
  }
}

TEST(OracleFastMac, N2_M1RandomDotProductsEqualTheReference) { RandomDots(Generation::kM1, 0xFA57); }
TEST(OracleFastMac, N2_M5RandomDotProductsEqualTheReference) { RandomDots(Generation::kM5, 0xFA58); }

// Whole layers and matrix multiplies (post-processing included) equal the reference's.
TEST(OracleFastMac, N2_N3_ConvolutionsAndMatmulsEqualTheReference) {
  const uint64_t seed = test::TestSeed(0xFA59);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  for (int it = 0; it < 40; ++it) {
    ConvLayer l;
    l.gen = rng.Below(2) ? Generation::kM5 : Generation::kM1;
    l.groups = 1 + int(rng.Below(2));
    l.geom.channels = 1 + int(rng.Below(6));
    l.geom.height = 3 + int(rng.Below(8));
    l.geom.width = 3 + int(rng.Below(8));
    l.geom.kernel_h = 1 + int(rng.Below(3));
    l.geom.kernel_w = 1 + int(rng.Below(3));
    l.geom.stride_y = 1 + int(rng.Below(2));
    l.geom.stride_x = 1 + int(rng.Below(2));
    l.geom.pad_top = l.geom.pad_bottom = int(rng.Below(uint32_t(l.geom.kernel_h)));
    l.geom.pad_left = l.geom.pad_right = int(rng.Below(uint32_t(l.geom.kernel_w)));
    l.cout = l.groups * (1 + int(rng.Below(4)));
    if (rng.Below(2)) l.post.act = PostAct::kRelu;
    Tensor3 x{l.Cin(), l.geom.height, l.geom.width, {}};
    for (int i = 0; i < x.c * x.h * x.w; ++i) x.codes.push_back(uint16_t(rng.Code() & 0xC7FF));
    std::vector<std::vector<uint16_t>> w(size_t(l.cout));
    for (auto& k : w) {
      for (int s = 0; s < l.geom.Steps(); ++s) k.push_back(uint16_t(rng.Code() & 0xC7FF));
    }
    EXPECT_EQ(FastConv2d(l, x, w).codes, Conv2d(l, x, w).codes) << "layer " << it;
    Matrix a{ElemType::kFp16, 1 + rng.Below(6), 1 + rng.Below(40), {}};
    Matrix b{ElemType::kFp16, a.cols, 1 + rng.Below(6), {}};
    for (int64_t i = 0; i < a.rows * a.cols; ++i) a.codes.push_back(rng.Code());
    for (int64_t i = 0; i < b.rows * b.cols; ++i) b.codes.push_back(rng.Code());
    EXPECT_EQ(FastMatmul(a, b, l.gen).fp16, Matmul(a, b, l.gen).fp16) << "matmul " << it;
  }
}

}  // namespace
}  // namespace ane::oracle
