// SPDX-License-Identifier: Apache-2.0
// The MAC lane's datapath units, each against its oracle stage function, exact bits:
//   ane_mac_mul        MacProduct / Int8 / Int4 products, compare data   N-2.1, N-2.2, N-2.3, N-2.8
//   ane_mac_add12      Add12 (m1, narrow form)                           N-2.4
//   ane_mac_acc_add    AccumulateQuad (m1, narrow form), CompareStep     N-2.5, N-2.6, N-2.9
//   ane_mac_acc_exact  AccumulateQuad on exact m5 quads                  N-2.4 (m5), N-2.5, N-2.6
//   ane_mac_out        OutputPort                                        N-2.6, N-2.3, N-2.7
// The narrow units get directed cases for what the narrow form adds (docs/mac_lane.md): alignment
// shifts up to and beyond the window, ties and sticky bits on the 12-bit grid, exponent
// extremes, infinities, the ceiling threshold, and seeded random streams of real quads.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "Vane_mac_acc_add.h"
#include "Vane_mac_acc_exact.h"
#include "Vane_mac_add12.h"
#include "Vane_mac_mul_m1.h"
#include "Vane_mac_mul_m5.h"
#include "Vane_mac_out_m1.h"
#include "Vane_mac_out_m5.h"
#include "Vane_mac_ref.h"
#include "tb/harness/sim.h"
#include "tb/oracle/mac.h"
#include "tb/tests/mac_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::Exact;
using oracle::Generation;
using oracle::MacMode;
using test::RandomOperand;
using test::Rng;

std::string Bits(const Exact& x) { return x.DebugString(); }

// ---- mac_fv_t <-> Exact: {inf, zero, sign, e[6:0], sig[21:0]}, value sig * 2^(e - 64 - 21) ----

constexpr int kFvBias = 64;

Exact FromFv(uint32_t v) {
  const bool inf = (v >> 31) & 1, zero = (v >> 30) & 1, sign = (v >> 29) & 1;
  const int e = int((v >> 22) & 0x7F);
  const uint32_t sig = v & 0x3FFFFF;
  if (inf) return Exact::Infinity(sign);
  if (zero) return Exact();
  return Exact::FromInt(sign, sig, e - kFvBias - 21);
}

// The canonical form the RTL must produce: zero and inf carry nothing else, a finite value is
// normalized.
::testing::AssertionResult Canonical(uint32_t v) {
  const bool inf = (v >> 31) & 1, zero = (v >> 30) & 1, sign = (v >> 29) & 1;
  if (zero && v != (1u << 30)) return ::testing::AssertionFailure() << "non-canonical zero " << std::hex << v;
  if (inf && (v & 0x1FFFFFFF) != 0) return ::testing::AssertionFailure() << "non-canonical inf " << std::hex << v;
  if (!inf && !zero && !((v >> 21) & 1)) return ::testing::AssertionFailure() << "unnormalized " << std::hex << v;
  (void)sign;
  return ::testing::AssertionSuccess();
}

// A value with at most 22 significant bits as mac_fv_t.
uint32_t ToFv(const Exact& x) {
  if (x.is_inf()) return (1u << 31) | (x.negative() ? 1u << 29 : 0);
  if (x.is_zero()) return 1u << 30;
  const int e = x.Exponent();
  EXPECT_TRUE(x.IsMultipleOf(e - 21)) << Bits(x) << " needs more than 22 bits";
  EXPECT_GE(e + kFvBias, 0);
  EXPECT_LT(e + kFvBias, 128);
  const uint32_t sig = uint32_t(x.ScaledMagnitude(e - 21));
  return (x.negative() ? 1u << 29 : 0) | (uint32_t(e + kFvBias) << 22) | sig;
}

// ---- mac_exact_t <-> Exact: {inf, sign, mag[82:0]} with value mag * 2^-48 (m5 quads) ----

void ToRtl(const Exact& x, VlWide<3>& w) {
  if (x.is_inf()) {
    w[0] = 0;
    w[1] = 0;
    w[2] = (1u << 20) | (x.negative() ? 1u << 19 : 0);
    return;
  }
  const unsigned __int128 m = x.ScaledMagnitude128(-48);
  w[0] = uint32_t(m);
  w[1] = uint32_t(m >> 32);
  w[2] = uint32_t(m >> 64) & 0x7FFFF;
  if (x.negative()) w[2] |= 1u << 19;
}

Exact M1Product(Rng& rng, uint16_t anchor) {
  return oracle::MacProduct(oracle::DecodeMacFp16(RandomOperand(rng, anchor), Generation::kM1),
                            oracle::DecodeMacFp16(RandomOperand(rng, 0x3C00), Generation::kM1));
}

// ---- ane_mac_mul ----

template <class Model>
void CheckProducts(Generation gen, uint64_t default_seed) {
  harness::Sim<Model> sim("ane_mac_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  dut.ld_i = 0;  // Pipe = 0: combinational
  dut.en_i = 0;
  dut.raw_i = 0;
  auto check_fp = [&](MacMode mode, uint16_t d, uint16_t k) {
    dut.mode_i = uint8_t(mode);
    dut.data_i = d;
    dut.kernel_i = k;
    sim.Eval();
    const Exact a =
        mode == MacMode::kInt8xFp16 ? oracle::DecodeMacInt(oracle::Int8FromCode(d)) : oracle::DecodeMacFp16(d, gen);
    const Exact w =
        mode == MacMode::kFp16xInt8 ? oracle::DecodeMacInt(oracle::Int8FromCode(k)) : oracle::DecodeMacFp16(k, gen);
    const Exact want = oracle::MacProduct(a, w);
    const Exact got = FromFv(dut.prod_o);
    ASSERT_EQ(got, want) << oracle::MacModeName(mode) << " data 0x" << std::hex << d << " kernel 0x" << k << ": rtl "
                         << Bits(got) << " oracle " << Bits(want);
    ASSERT_TRUE(Canonical(dut.prod_o)) << "data 0x" << std::hex << d << " kernel 0x" << k;
  };
  // Every data code against special and ordinary kernels: zeros, denormals (flushed in m1, kept
  // in m5), the smallest and largest normals, infinities, NaN.
  const uint16_t kernels[] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF,
                              0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x3555, 0x5BFF, 0x1234, 0xC001};
  for (uint32_t d = 0; d < 0x10000; ++d) {
    for (uint16_t k : kernels) check_fp(MacMode::kFp16, uint16_t(d), k);
    if (::testing::Test::HasFatalFailure()) return;
  }
  const uint64_t n = 2'000'000 * test::SoakFactor();
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t kind = rng.Below(8);
    if (kind == 0) {
      check_fp(MacMode::kInt8xFp16, rng.Code() & 0xFF, RandomOperand(rng, 0x3C00));
    } else if (kind == 1) {
      check_fp(MacMode::kFp16xInt8, RandomOperand(rng, 0x3C00), rng.Code() & 0xFF);
    } else {
      check_fp(MacMode::kFp16, rng.Code(), rng.Code());
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(RtlMacMul, N2_2_M1ProductsMatchOracle) { CheckProducts<Vane_mac_mul_m1>(Generation::kM1, 301); }
TEST(RtlMacMul, N2_2_M5ProductsMatchOracle) { CheckProducts<Vane_mac_mul_m5>(Generation::kM5, 302); }

// m1 flushes denormal operands (N-2.3), m5 keeps them: every denormal times every denormal.
TEST(RtlMacMul, N2_3_DenormalTimesDenormalFlushedInM1KeptInM5) {
  harness::Sim<Vane_mac_mul_m1> m1("ane_mac_mul", harness::CurrentTestStem() + "_m1");
  harness::Sim<Vane_mac_mul_m5> m5("ane_mac_mul", harness::CurrentTestStem() + "_m5");
  m1.dut().raw_i = m5.dut().raw_i = 0;
  for (uint32_t d = 1; d < 0x400; d += 3) {
    for (uint32_t k = 1; k < 0x400; ++k) {
      const uint16_t dc = uint16_t(d | ((d & 1) << 15)), kc = uint16_t(k);
      m1.dut().mode_i = m5.dut().mode_i = uint8_t(MacMode::kFp16);
      m1.dut().data_i = m5.dut().data_i = dc;
      m1.dut().kernel_i = m5.dut().kernel_i = kc;
      m1.Eval();
      m5.Eval();
      ASSERT_EQ(m1.dut().prod_o, 1u << 30) << std::hex << dc << " " << kc;  // +0
      const Exact want =
          oracle::MacProduct(oracle::DecodeMacFp16(dc, Generation::kM5), oracle::DecodeMacFp16(kc, Generation::kM5));
      ASSERT_EQ(FromFv(m5.dut().prod_o), want) << std::hex << dc << " " << kc;
      ASSERT_TRUE(Canonical(m5.dut().prod_o));
    }
  }
}

TEST(RtlMacMul, N2_9_CompareModeGivesTheDataValue) {
  for (Generation gen : {Generation::kM1, Generation::kM5}) {
    for (uint32_t d = 0; d < 0x10000; ++d) {
      uint32_t got;
      if (gen == Generation::kM1) {
        static harness::Sim<Vane_mac_mul_m1> sim("ane_mac_mul", harness::CurrentTestStem() + "_m1");
        sim.dut().raw_i = 0;
        sim.dut().mode_i = uint8_t(MacMode::kCmpMax);
        sim.dut().data_i = uint16_t(d);
        sim.dut().kernel_i = uint16_t(d * 7);  // ignored
        sim.Eval();
        got = sim.dut().prod_o;
      } else {
        static harness::Sim<Vane_mac_mul_m5> sim("ane_mac_mul", harness::CurrentTestStem() + "_m5");
        sim.dut().raw_i = 0;
        sim.dut().mode_i = uint8_t(MacMode::kCmpMin);
        sim.dut().data_i = uint16_t(d);
        sim.dut().kernel_i = uint16_t(d * 7);
        sim.Eval();
        got = sim.dut().prod_o;
      }
      ASSERT_EQ(FromFv(got), oracle::DecodeMacFp16(uint16_t(d), gen)) << std::hex << d;
      ASSERT_TRUE(Canonical(got));
    }
  }
}

// A CmdLoad's value passes the decode as it is.
TEST(RtlMacMul, N2_5_LoadValuePassesTheDecodeUnchanged) {
  harness::Sim<Vane_mac_mul_m1> sim("ane_mac_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  Rng rng(test::TestSeed(303));
  dut.raw_i = 1;
  for (int i = 0; i < 100000; ++i) {
    const uint32_t v = uint32_t(rng.Next());
    dut.mode_i = uint8_t(rng.Below(7));
    dut.data_i = uint16_t(v);
    dut.kernel_i = uint16_t(v >> 16);
    sim.Eval();
    ASSERT_EQ(dut.raw_o, v) << std::hex << v;
  }
}

TEST(RtlMacMul, N2_8_Int8ProductsOnAllPairs) {
  harness::Sim<Vane_mac_mul_m1> sim("ane_mac_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  dut.raw_i = 0;
  dut.mode_i = uint8_t(MacMode::kInt8);
  for (uint32_t d = 0; d < 256; ++d) {
    for (uint32_t k = 0; k < 256; ++k) {
      dut.data_i = uint16_t(d | 0xAB00);  // upper byte ignored
      dut.kernel_i = uint16_t(k);
      sim.Eval();
      const int32_t want = oracle::Int8FromCode(uint16_t(d)) * oracle::Int8FromCode(uint16_t(k));
      ASSERT_EQ(int16_t(dut.int_prod_o), want) << d << " x " << k;
      ASSERT_EQ(int32_t(dut.int_o), want) << d << " x " << k;
    }
  }
}

TEST(RtlMacMul, N2_8_Int4PackedProductsOnAllDataWords) {
  harness::Sim<Vane_mac_mul_m1> sim("ane_mac_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  dut.raw_i = 0;
  dut.mode_i = uint8_t(MacMode::kInt4);
  for (uint32_t k = 0; k < 16; ++k) {
    for (uint32_t d = 0; d < 0x10000; ++d) {
      dut.data_i = uint16_t(d);
      dut.kernel_i = uint16_t(k | 0xFFF0);  // only bits [3:0] are the kernel value
      sim.Eval();
      for (int i = 0; i < 4; ++i) {
        const int8_t got = int8_t(uint8_t(dut.int4_prod_o >> (8 * i)));
        const int8_t got_int = int8_t(uint8_t(dut.int_o >> (8 * i)));
        const int want = oracle::Int4FromCode(uint16_t(d), i) * oracle::Int4FromCode(uint16_t(k), 0);
        ASSERT_EQ(got, want) << "data 0x" << std::hex << d << " kernel " << k << " product " << i;
        ASSERT_EQ(got_int, want) << "data 0x" << std::hex << d << " kernel " << k << " product " << i;
      }
    }
  }
}

// ---- ane_mac_add12 (m1, narrow) ----

class Add12Check {
 public:
  Add12Check() : sim_("ane_mac_add12", harness::CurrentTestStem()) {}
  // add12(x, y) through the RTL against the oracle, then (pad) add12(s, +0); returns the
  // oracle's result.
  Exact Step(const Exact& x, const Exact& y, bool pass = false, bool pad = false) {
    auto& dut = sim_.dut();
    dut.x_i = ToFv(x);
    dut.y_i = ToFv(y);
    dut.pass_i = pass;
    dut.pad_i = pad;
    dut.inj_i = 0;
    dut.injq_i = uint32_t(sim_.cycles() * 2654435761u) & 0x3FFFF;  // ignored
    sim_.Eval();
    Exact want = pass ? y : oracle::Add12(x, y);
    if (pad) want = oracle::Add12(want, Exact());
    const Exact got = FromFv(dut.s_o);
    EXPECT_EQ(got, want) << (pass ? "pass " : "add12(") << Bits(x) << ", " << Bits(y) << ")" << (pad ? " padded" : "")
                         << ": rtl " << Bits(got);
    EXPECT_TRUE(Canonical(dut.s_o)) << "add12(" << Bits(x) << ", " << Bits(y) << ")";
    ++steps_;
    return want;
  }
  // An integer quad injected in place of stage a (x, y, pass and pad ignored): it leaves as a
  // pass value, its 18-bit two's complement code sign-extended in sig, every other field 0.
  void Inject(int32_t q) {
    auto& dut = sim_.dut();
    dut.x_i = uint32_t(sim_.cycles() * 2654435761u);  // ignored
    dut.y_i = uint32_t(sim_.cycles() * 40503u + 7);
    dut.pass_i = sim_.cycles() & 1;
    dut.pad_i = (sim_.cycles() >> 1) & 1;
    dut.inj_i = 1;
    dut.injq_i = uint32_t(q) & 0x3FFFF;
    sim_.Eval();
    const uint32_t want = q == 0 ? (1u << 30) : (uint32_t(q) & 0x3FFFFF);  // zero flag, or sig
    EXPECT_EQ(uint32_t(dut.s_o), want) << "injected quad " << q;
    ++steps_;
  }
  uint64_t steps() const { return steps_; }

 private:
  harness::Sim<Vane_mac_add12> sim_;
  uint64_t steps_ = 0;
};

// The integer path (N-2.8): a completed integer quad (|quad| <= 4 x 2^14) crosses add12's
// last three stages unchanged, whatever stage a is given.
TEST(RtlMacAdd12, N2_8_IntegerQuadsPassUnchanged) {
  Add12Check c;
  for (int32_t q = -(1 << 17); q < (1 << 17); q += 7) c.Inject(q);
  for (int32_t q : {0, 1, -1, 65536, -65536, 131071, -131072, 255, -256}) c.Inject(q);
  EXPECT_GT(c.steps(), 37000u);
}

// Whole quads of real m1 products, every step compared; ~10^8 products per make soak.
TEST(RtlMacAdd12, N2_4_QuadChainsMatchOracle) {
  Add12Check c;
  const uint64_t seed = test::TestSeed(401);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const uint64_t quads = 1'500'000 * test::SoakFactor();
  for (uint64_t q = 0; q < quads && !::testing::Test::HasFailure(); ++q) {
    const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
    std::array<Exact, 4> p;
    for (auto& x : p) x = M1Product(rng, anchor);
    // quads of 1..4 products, padded with +0 (the lane pads once: add12(t, +0) after the last
    // product; the oracle's further add12(t, +0) change nothing)
    const int n = 1 + int(rng.Below(4));
    Exact t = c.Step(Exact(), p[0], /*pass=*/true, /*pad=*/n == 1);
    for (int i = 1; i < n; ++i) t = c.Step(t, p[size_t(i)], false, /*pad=*/i == n - 1 && n < 4);
    for (int i = n; i < 4; ++i) ASSERT_EQ(oracle::Add12(t, Exact()), t) << "padding is idempotent";
  }
  ::testing::Test::RecordProperty("products", std::to_string(quads * 4));
}

// A random 22-bit normalized significand.
uint64_t Sig22(Rng& rng) { return (1u << 21) | (rng.Next() & 0x1FFFFF); }

// Alignment: y lies d binades below x for every d from 0 to 60 (beyond the 24-bit window from
// d = 24 on, where all of y becomes the jam bit), both signs, 22-bit significands.
TEST(RtlMacAdd12, N2_4_AlignmentShiftsUpToAndBeyondTheWindow) {
  Add12Check c;
  const uint64_t seed = test::TestSeed(402);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  for (int d = 0; d <= 60; ++d) {
    for (int i = 0; i < 3000 && !::testing::Test::HasFailure(); ++i) {
      const int ex = int(rng.Below(40)) - 10;
      // mostly 22-bit products, now and then a 14-bit add12 result or a short significand
      const Exact x = Exact::FromInt(rng.Below(2), Sig22(rng) >> (rng.Below(4) == 0 ? 8 : 0), ex - 21);
      const Exact y = Exact::FromInt(rng.Below(2), Sig22(rng) >> (rng.Below(4) == 0 ? rng.Below(20) : 0), ex - 21 - d);
      if (x.Exponent() + kFvBias < 1 || y.Exponent() + kFvBias < 1) continue;
      c.Step(x, y);
      c.Step(y, x);
    }
  }
  EXPECT_GT(c.steps(), 300000u);
}

// Ties on the 12-bit grid: x + y exactly halfway between two grid points (rounds to even), and
// the same plus or minus the smallest bit of y (the sticky bit decides), both signs, for every
// position of y's lowest bit the window keeps and the ones it jams.
TEST(RtlMacAdd12, N2_4_TiesAndStickyOnTheTwelveBitGrid) {
  Add12Check c;
  const uint64_t seed = test::TestSeed(403);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  uint64_t ties = 0;
  for (int i = 0; i < 200000 && !::testing::Test::HasFailure(); ++i) {
    const int e = int(rng.Below(50)) - 25;      // x in [2^e, 2^(e+1))
    const uint64_t X = 2048 + rng.Below(2048);  // 12 bits: x = X * 2^(e - 11)
    const bool xs = rng.Below(2);
    const Exact x = Exact::FromInt(xs, X, e - 11);
    // y = (h + 1/2) grid steps (+- one unit of its lowest bit, or exactly): |y| < |x|
    const int lo = 1 + int(rng.Below(30));  // y's lowest bit: 2^(e - 11 - lo)
    const uint64_t h = rng.Below(64);
    uint64_t ym = ((2 * h + 1) << (lo - 1));  // (h + 1/2) grid steps in units 2^(e-11-lo)
    const int wiggle = int(rng.Below(3)) - 1;
    ym = uint64_t(int64_t(ym) + wiggle);
    if (ym == 0 || ym >= (uint64_t(1) << 22)) continue;
    const Exact y = Exact::FromInt(rng.Below(2), ym, e - 11 - lo);
    if (y.Exponent() >= x.Exponent() || y.Exponent() + kFvBias < 1) continue;
    c.Step(x, y);
    ties += wiggle == 0;
  }
  EXPECT_GT(ties, 30000u);
}

// Exponent extremes of m1 products: the smallest (2^-14 x 2^-14) and largest (65504^2), their
// sums and cancellations, and infinities and zeros in every combination.
TEST(RtlMacAdd12, N2_4_ExponentExtremesInfinitiesAndZeros) {
  Add12Check c;
  std::vector<Exact> v;
  const uint16_t codes[] = {0x0400, 0x0401, 0x07FF, 0x3C00, 0x3BFF, 0x3C01, 0x7BFF, 0x7BFE, 0x7800};
  for (uint16_t a : codes) {
    for (uint16_t b : codes) {
      for (int s = 0; s < 2; ++s) {
        v.push_back(oracle::MacProduct(oracle::DecodeMacFp16(uint16_t(a | (s << 15)), Generation::kM1),
                                       oracle::DecodeMacFp16(b, Generation::kM1)));
      }
    }
  }
  v.push_back(Exact());
  v.push_back(Exact::Infinity(false));
  v.push_back(Exact::Infinity(true));
  for (const Exact& x : v) {
    for (const Exact& y : v) {
      const Exact t = c.Step(x, y);
      if (!t.is_inf()) c.Step(t, y);  // an add12 result (up to 14 bits) as the next x
      c.Step(x, y, /*pass=*/true);
      c.Step(x, y, /*pass=*/false, /*pad=*/true);
      c.Step(x, y, /*pass=*/true, /*pad=*/true);
    }
  }
  EXPECT_GE(c.steps(), 4 * v.size() * v.size());
}

// ---- ane_mac_acc_add (m1, narrow) ----

class AccCheck {
 public:
  AccCheck() : sim_("ane_mac_acc_add", harness::CurrentTestStem()) {}
  uint32_t Accumulate(uint32_t acc, const Exact& t, bool ceiling) {
    auto& dut = sim_.dut();
    dut.acc_i = acc;
    dut.t_i = ToFv(t);
    dut.ceiling_i = ceiling;
    dut.cmp_i = 0;
    dut.max_i = 0;
    dut.hv_i = 0;
    dut.int_i = 0;
    sim_.Eval();
    const uint32_t want = oracle::AccumulateQuad(acc, t, ceiling);
    EXPECT_EQ(dut.acc_o, want) << std::hex << "acc 0x" << acc << " + t " << Bits(t) << " ceiling " << ceiling
                               << ": rtl 0x" << dut.acc_o;
    ++steps_;
    return want;
  }
  void Compare(uint32_t acc, bool hv, uint16_t data, bool is_max) {
    auto& dut = sim_.dut();
    dut.acc_i = acc;
    dut.t_i = ToFv(oracle::DecodeMacFp16(data, Generation::kM1));
    dut.ceiling_i = 1;  // ignored in compare mode
    dut.cmp_i = 1;
    dut.max_i = is_max;
    dut.hv_i = hv;
    dut.int_i = 0;
    sim_.Eval();
    const uint32_t want = oracle::CompareStep(acc, hv, data, is_max, Generation::kM1);
    EXPECT_EQ(dut.acc_o, want) << std::hex << (is_max ? "max" : "min") << "(acc 0x" << acc << " hv " << hv
                               << ", data 0x" << data << "): rtl 0x" << dut.acc_o;
    ++steps_;
  }
  // Integer mode (N-2.8): acc = sat32(acc + quad), the quad an 18-bit two's complement code in
  // t_i.sig; ovf_o when the sum saturates. The compare and ceiling inputs are ignored.
  void Int(uint32_t acc, int32_t q) {
    auto& dut = sim_.dut();
    dut.acc_i = acc;
    dut.t_i = (uint32_t(sim_.cycles() * 2654435761u) & 0xFFC00000u) | (uint32_t(q) & 0x3FFFF) |
              ((q < 0 ? 0xFu : 0u) << 18);  // sig = the quad sign-extended; other fields ignored
    dut.cmp_i = acc & 1;
    dut.max_i = (acc >> 1) & 1;
    dut.hv_i = (acc >> 2) & 1;
    dut.ceiling_i = 1;
    dut.int_i = 1;
    sim_.Eval();
    bool saturated = false;
    const int32_t want = oracle::IntAccumulate(int32_t(acc), q, &saturated);
    EXPECT_EQ(dut.acc_o, uint32_t(want)) << std::hex << "acc 0x" << acc << " + quad " << std::dec << q;
    EXPECT_EQ(bool(dut.ovf_o), saturated) << std::hex << "acc 0x" << acc << " + quad " << std::dec << q;
    ++steps_;
  }
  uint64_t steps() const { return steps_; }

 private:
  harness::Sim<Vane_mac_acc_add> sim_;
  uint64_t steps_ = 0;
};

TEST(RtlMacAccAdd, N2_5_N2_6_AccumulateStepMatchesOracle) {
  AccCheck c;
  const uint64_t seed = test::TestSeed(501);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const uint64_t n = 2'000'000 * test::SoakFactor();
  for (uint64_t i = 0; i < n && !::testing::Test::HasFailure(); ++i) {
    const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
    std::array<Exact, 4> p;
    for (auto& x : p) x = M1Product(rng, anchor);
    const Exact t = rng.Below(16) == 0 ? Exact() : oracle::QuadReduce(p, Generation::kM1);
    c.Accumulate(test::RandomAcc(rng), t, rng.Below(4) != 0);
  }
}

// Long m1 reductions: the accumulator carries its own value from quad to quad, so sums of every
// size meet quads of every size, cancellations included.
TEST(RtlMacAccAdd, N2_5_RunningSumsMatchOracle) {
  AccCheck c;
  const uint64_t seed = test::TestSeed(502);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  for (int r = 0; r < 4000 && !::testing::Test::HasFailure(); ++r) {
    uint32_t acc = rng.Below(4) == 0 ? test::RandomAcc(rng) : 0;
    const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
    for (int q = 0; q < 200 && !::testing::Test::HasFailure(); ++q) {
      std::array<Exact, 4> p;
      for (auto& x : p) x = M1Product(rng, anchor);
      acc = c.Accumulate(acc, oracle::QuadReduce(p, Generation::kM1), true);
    }
  }
}

// The larger operand's exponent minus the smaller's from 0 to 40 (the 28-bit window jams from
// 27 on), both orders, both signs, the 14-bit quads of m1 against full 24-bit accumulators.
TEST(RtlMacAccAdd, N2_5_AlignmentShiftsUpToAndBeyondTheWindow) {
  AccCheck c;
  const uint64_t seed = test::TestSeed(503);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  for (int d = -40; d <= 40; ++d) {
    for (int i = 0; i < 3000 && !::testing::Test::HasFailure(); ++i) {
      const int et = int(rng.Below(60)) - 30;
      const uint64_t tm = (1u << 13) | (rng.Next() & 0x1FFF);  // 14 significant bits
      const Exact t = Exact::FromInt(rng.Below(2), tm >> (rng.Below(3) == 0 ? rng.Below(4) : 0), et - 13);
      const uint32_t ea = uint32_t(et - d + 127);
      if (ea < 1 || ea > 254) continue;
      const uint32_t acc = (rng.Below(2) << 31) | (ea << 23) | uint32_t(rng.Next() & 0x7FFFFF);
      c.Accumulate(acc, t, rng.Below(2));
    }
  }
  EXPECT_GT(c.steps(), 200000u);
}

// Overflow to inf at the top of the fp32 range, denormal and zero accumulators, NaN and
// infinities, and t = +0 (the accumulator passes through, canonical).
TEST(RtlMacAccAdd, N2_5_RangeEndsInfinitiesAndZeros) {
  AccCheck c;
  const uint32_t accs[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF,
                           0xFF7FFFFF, 0x7F7FFFF0, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFF800001,
                           0x46FFEFFF, 0x46FFF000, 0xC6FFF000, 0x3F800000, 0xBF800000, 0x4B800000};
  std::vector<Exact> ts = {Exact(), Exact::Infinity(false), Exact::Infinity(true)};
  for (int e = -40; e <= 34; e += 2) {
    ts.push_back(Exact::FromInt(false, 0x3FFF, e - 13));
    ts.push_back(Exact::FromInt(true, 0x2001, e - 13));
  }
  for (uint32_t a : accs) {
    for (const Exact& t : ts) {
      for (bool ceiling : {false, true}) c.Accumulate(a, t, ceiling);
    }
  }
  EXPECT_EQ(c.steps(), 2 * std::size(accs) * ts.size());
}

TEST(RtlMacAccAdd, N2_6_CeilingThresholdIsExactly32760) {
  AccCheck c;
  for (uint32_t acc : {0x46FFEFFFu, 0x46FFF000u, 0xC6FFF000u, 0x46FFE000u, 0x47000000u}) {
    const uint32_t got = c.Accumulate(acc, Exact(), true);
    const bool over = (acc & 0x7FFFFFFFu) >= 0x46FFF000u;  // 32760.0f
    EXPECT_EQ(got, over ? ((acc & 0x80000000u) | 0x7F800000u) : acc) << std::hex << acc;
  }
  // 32752 + 8 = 32760 reaches the ceiling; 32752 + 7.5 stays below it.
  EXPECT_EQ(c.Accumulate(0x46FFE000u, Exact::FromInt(false, 8, 0), true), 0x7F800000u);
  EXPECT_EQ(c.Accumulate(0x46FFE000u, Exact::FromInt(false, 15, -1), true), 0x46FFEF00u);
}

TEST(RtlMacAccAdd, N2_9_CompareModeMatchesOracle) {
  AccCheck c;
  const uint64_t seed = test::TestSeed(504);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const uint32_t specials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                               0x00000001, 0x3F800000, 0xBF800000, 0x477FE000};
  for (uint32_t d = 0; d < 0x10000 && !::testing::Test::HasFailure(); ++d) {
    for (uint32_t a : specials) c.Compare(a, true, uint16_t(d), d & 1);
    c.Compare(test::RandomAcc(rng), rng.Below(4) != 0, uint16_t(d), rng.Below(2));
    // an fp16 value already in the slot, as compare mode keeps it
    c.Compare(oracle::Fp16ToFp32(uint16_t(rng.Code() & 0xFBFF)), true, uint16_t(d), rng.Below(2));
  }
}

// Every integer quad value against accumulators near both int32 ends, at every carry
// boundary, and at random; the exact sums and the saturation flag against the oracle.
TEST(RtlMacAccAdd, N2_8_IntegerSaturatingAccumulate) {
  AccCheck c;
  Rng rng(test::TestSeed(505));
  const uint32_t ends[] = {0x7FFFFFFFu, 0x80000000u, 0x7FFF0000u, 0x80010000u, 0u,
                           0xFFFFFFFFu, 0x0003FFFFu, 0xFFFC0000u, 0x7FFEFFFFu, 0x80010001u};
  for (int32_t q = -(1 << 17); q < (1 << 17) && !::testing::Test::HasFailure(); ++q) {
    for (uint32_t a : ends) c.Int(a - uint32_t(q & 3), q);
    c.Int(uint32_t(rng.Next()), q);
  }
  EXPECT_GT(c.steps(), 2800000u);
}

// ---- ane_mac_acc_exact (m5: exact quads) ----

// Drives acc + t (ceiling) through the combinational ane_mac_acc_exact and checks acc_o against
// oracle::AccumulateQuad; returns the oracle's value.
uint32_t CheckAccExact(harness::Sim<Vane_mac_acc_exact>& sim, uint32_t acc, const Exact& t, bool ceiling) {
  auto& dut = sim.dut();
  dut.acc_i = acc;
  ToRtl(t, dut.t_i);
  dut.ceiling_i = ceiling;
  sim.Eval();
  const uint32_t want = oracle::AccumulateQuad(acc, t, ceiling);
  EXPECT_EQ(dut.acc_o, want) << std::hex << "acc 0x" << acc << " + t " << Bits(t) << " ceiling " << ceiling
                             << ": rtl 0x" << dut.acc_o;
  return want;
}

TEST(RtlMacAccExact, N2_5_N2_6_ExactQuadAccumulateMatchesOracle) {
  harness::Sim<Vane_mac_acc_exact> sim("ane_mac_acc_exact", harness::CurrentTestStem());
  const uint64_t seed = test::TestSeed(506);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const uint64_t n = 1'000'000 * test::SoakFactor();
  for (uint64_t i = 0; i < n && !::testing::Test::HasFailure(); ++i) {
    const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
    std::array<Exact, 4> p;
    for (auto& x : p) {
      x = oracle::MacProduct(oracle::DecodeMacFp16(RandomOperand(rng, anchor), Generation::kM5),
                             oracle::DecodeMacFp16(RandomOperand(rng, anchor), Generation::kM5));
    }
    const Exact t = rng.Below(16) == 0 ? Exact() : oracle::QuadReduce(p, Generation::kM5);
    const uint32_t acc = test::RandomAcc(rng);
    const bool ceiling = rng.Below(4) != 0;
    CheckAccExact(sim, acc, t, ceiling);
  }
}

// The port ceiling decided at the rounding increment: sums whose kept significand is just
// below 32760 (0x46FF_F000) and rounds up onto it, or from 0x46FF_FFFF across the exponent, with
// and without the ceiling, both signs, adding and subtracting (stage f decides the ceiling from
// the unrounded significand and the increment, not from the packed result).
TEST(RtlMacAccExact, N2_6_PortCeilingReachedByTheRoundingIncrement) {
  harness::Sim<Vane_mac_acc_exact> sim("ane_mac_acc_exact", harness::CurrentTestStem());
  int rounded_onto_ceiling = 0, carried_into_142 = 0, cases = 0;
  for (uint32_t base : {0x46FFF000u, 0x47000000u}) {
    for (int delta = -9; delta <= 9; ++delta) {
      for (uint32_t acc_sign : {0u, 0x80000000u}) {
        for (bool t_neg : {false, true}) {
          for (uint32_t k = 1; k < 16; ++k) {  // t = k * 2^-12: eighths of acc's ulp (2^-9)
            for (bool ceiling : {false, true}) {
              const uint32_t acc = acc_sign | uint32_t(int64_t(base) + delta);
              const uint32_t want = CheckAccExact(sim, acc, Exact::FromInt(t_neg, k, -12), ceiling);
              if (::testing::Test::HasFailure()) return;
              ++cases;
              const uint32_t mag = acc & 0x7FFFFFFFu;
              if (ceiling && mag < 0x46FFF000u && (want & 0x7FFFFFFFu) == 0x7F800000u) ++rounded_onto_ceiling;
              if (mag == 0x46FFFFFFu && (want & 0x7F800000u) == 0x47000000u) ++carried_into_142;
            }
          }
        }
      }
    }
  }
  // the corners were reached (a sum below the ceiling that rounds onto it; a carry out of the
  // significand into exponent 142)
  EXPECT_GT(rounded_onto_ceiling, 0);
  EXPECT_GT(carried_into_142, 0);
  EXPECT_EQ(cases, 2 * 19 * 2 * 2 * 15 * 2);
}

// The near path (an effective subtraction, exponents at most 1 apart): t just below, equal to
// and just above |acc| with d = et - ea = -1, 0, 1, so that big - small is negative, zero and
// positive. Stage c finds which operand is larger by a compare (only d = 0 can be negative), not
// stage d's subtractor carry; N-2.5: the result is RNE_fp32 of the exact difference.
TEST(RtlMacAccExact, N2_5_NearPathDifferencesOfEitherSign) {
  harness::Sim<Vane_mac_acc_exact> sim("ane_mac_acc_exact", harness::CurrentTestStem());
  const uint64_t seed = test::TestSeed(508);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  int t_below = 0, t_equal = 0, t_above = 0;  // d = 0: |t| against |acc|
  for (int i = 0; i < 200000 && !::testing::Test::HasFailure(); ++i) {
    // acc = +-1.frac * 2^e; t = m * 2^(e + d - 39) with a 40-bit m, opposite sign: on t's 2^-48
    // grid (e + d >= -9) and below 2^34
    const int e = -8 + int(rng.Below(29));
    const uint32_t frac = rng.Below(4) == 0 ? (rng.Below(2) ? 0u : 0x7FFFFFu) : uint32_t(rng.Next()) & 0x7FFFFFu;
    const bool acc_neg = rng.Below(2) != 0;
    const uint32_t acc = (acc_neg ? 0x80000000u : 0u) | (uint32_t(e + 127) << 23) | frac;
    const int d = int(rng.Below(3)) - 1;
    const uint64_t acc_sig = uint64_t(0x800000u | frac) << 16;  // |acc| on t's 40-bit grid
    const uint64_t m =
        rng.Below(8) == 0 ? (uint64_t{1} << 39) | (rng.Next() & ((uint64_t{1} << 39) - 1)) : acc_sig + rng.Below(9) - 4;
    CheckAccExact(sim, acc, Exact::FromInt(!acc_neg, m, e + d - 39), rng.Below(2) != 0);
    if (d == 0) {
      t_below += m < acc_sig;
      t_equal += m == acc_sig;
      t_above += m > acc_sig;
    }
  }
  EXPECT_GT(t_below, 0);
  EXPECT_GT(t_equal, 0);
  EXPECT_GT(t_above, 0);
}

// ---- ane_mac_ref: the reference fp16 multiply + fp32 add, y = RNE_fp32(c + a x b) ----

TEST(RtlMacRef, N2_5_FusedMultiplyAddMatchesOracle) {
  harness::Sim<Vane_mac_ref> sim("ane_mac_ref", harness::CurrentTestStem());
  auto& dut = sim.dut();
  const uint64_t seed = test::TestSeed(507);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  constexpr int kLatency = 7;
  std::vector<uint32_t> want;
  for (int i = 0; i < 300000 && !::testing::Test::HasFailure(); ++i) {
    const uint16_t a = RandomOperand(rng, 0x3C00), b = RandomOperand(rng, 0x3C00);
    const uint32_t c = test::RandomAcc(rng);
    dut.a_i = a;
    dut.b_i = b;
    dut.c_i = c;
    const Exact p =
        oracle::MacProduct(oracle::DecodeMacFp16(a, Generation::kM1), oracle::DecodeMacFp16(b, Generation::kM1));
    want.push_back(oracle::AccumulateQuad(c, p, false));
    sim.Tick();
    if (i >= kLatency - 1) {
      sim.Eval();
      ASSERT_EQ(dut.y_o, want[size_t(i - (kLatency - 1))]) << "operation " << i - (kLatency - 1);
    }
  }
}

// ---- ane_mac_out ----

template <class Model>
void CheckOutputPort(Generation gen, uint64_t default_seed) {
  harness::Sim<Model> sim("ane_mac_out", harness::CurrentTestStem());
  auto& dut = sim.dut();
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  auto check = [&](uint32_t acc) {
    dut.acc_i = acc;
    sim.Eval();
    ASSERT_EQ(dut.fp16_o, oracle::OutputPort(acc, gen)) << "acc 0x" << std::hex << acc;
  };
  // Every fp32 exponent with the fraction patterns that decide fp16 rounding.
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t f : {0x000000u, 0x000001u, 0x000FFFu, 0x001000u, 0x001001u, 0x002000u, 0x003000u, 0x7FE000u,
                       0x7FF000u, 0x7FF001u, 0x7FFFFFu, 0x400000u}) {
      check((e << 23) | f);
      check(0x80000000u | (e << 23) | f);
    }
  }
  const uint64_t n = 4'000'000 * test::SoakFactor();
  for (uint64_t i = 0; i < n && !::testing::Test::HasFatalFailure(); ++i) check(test::RandomAcc(rng));
}

TEST(RtlMacOut, N2_6_M1OutputPortMatchesOracle) { CheckOutputPort<Vane_mac_out_m1>(Generation::kM1, 601); }
TEST(RtlMacOut, N2_6_M5OutputPortMatchesOracle) { CheckOutputPort<Vane_mac_out_m5>(Generation::kM5, 602); }

}  // namespace
}  // namespace ane
