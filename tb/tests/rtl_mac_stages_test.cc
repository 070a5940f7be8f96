// The MAC lane's datapath stages, each against its oracle stage function, exact bits:
//   ane_mac_mul      MacProduct / Int8 / Int4 products     N-2.1, N-2.2, N-2.3, N-2.8
//   ane_mac_add12    Add12 (m1) / exact sum (m5)            N-2.4
//   ane_mac_acc_add  AccumulateQuad                         N-2.5, N-2.6 (ceiling)
//   ane_mac_out      OutputPort                             N-2.6, N-2.3, N-2.7
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "Vane_mac_acc_add.h"
#include "Vane_mac_add12_m1.h"
#include "Vane_mac_add12_m5.h"
#include "Vane_mac_mul_m1.h"
#include "Vane_mac_mul_m5.h"
#include "Vane_mac_out_m1.h"
#include "Vane_mac_out_m5.h"
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

// ---- mac_exact_t <-> Exact: {inf, sign, mag[82:0]} with value mag * 2^-48 ----

Exact FromRtl(const VlWide<3>& w) {
  const bool inf = (w[2] >> 20) & 1;
  const bool sign = (w[2] >> 19) & 1;
  if (inf) return Exact::Infinity(sign);
  const uint64_t lo = uint64_t(w[0]) | (uint64_t(w[1]) << 32);
  const uint64_t hi = w[2] & 0x7FFFF;
  return Exact::FromInt(sign, hi, 64 - 48) + Exact::FromInt(sign, lo, -48);
}

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

std::string Bits(const Exact& x) { return x.DebugString(); }

// ---- ane_mac_mul ----

template <class Model>
void CheckProducts(Generation gen, uint64_t default_seed) {
  harness::Sim<Model> sim("ane_mac_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  auto check_fp = [&](MacMode mode, uint16_t d, uint16_t k) {
    dut.mode_i = uint8_t(mode);
    dut.data_i = d;
    dut.kernel_i = k;
    sim.Eval();
    const Exact a = mode == MacMode::kInt8xFp16 ? oracle::DecodeMacInt(oracle::Int8FromCode(d))
                                                 : oracle::DecodeMacFp16(d, gen);
    const Exact w = mode == MacMode::kFp16xInt8 ? oracle::DecodeMacInt(oracle::Int8FromCode(k))
                                                 : oracle::DecodeMacFp16(k, gen);
    const Exact want = oracle::MacProduct(a, w);
    const Exact got = FromRtl(dut.prod_o);
    ASSERT_EQ(got, want) << oracle::MacModeName(mode) << " data 0x" << std::hex << d
                         << " kernel 0x" << k << ": rtl " << Bits(got) << " oracle " << Bits(want);
    // The RTL zero is unsigned (N-2.7).
    if (want.is_zero()) {
      ASSERT_EQ(dut.prod_o[2], 0u) << std::hex << d << " " << k;
    }
  };
  // Every data code against special and ordinary kernels.
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

TEST(RtlMacMul, N2_8_Int8ProductsOnAllPairs) {
  harness::Sim<Vane_mac_mul_m1> sim("ane_mac_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  dut.mode_i = uint8_t(MacMode::kInt8);
  for (uint32_t d = 0; d < 256; ++d) {
    for (uint32_t k = 0; k < 256; ++k) {
      dut.data_i = uint16_t(d | 0xAB00);  // upper byte ignored
      dut.kernel_i = uint16_t(k);
      sim.Eval();
      ASSERT_EQ(int16_t(dut.int_prod_o), oracle::Int8FromCode(uint16_t(d)) * oracle::Int8FromCode(uint16_t(k)))
          << d << " x " << k;
    }
  }
}

TEST(RtlMacMul, N2_8_Int4PackedProductsOnAllDataWords) {
  harness::Sim<Vane_mac_mul_m1> sim("ane_mac_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  dut.mode_i = uint8_t(MacMode::kInt4);
  for (uint32_t k = 0; k < 16; ++k) {
    for (uint32_t d = 0; d < 0x10000; ++d) {
      dut.data_i = uint16_t(d);
      dut.kernel_i = uint16_t(k | 0xFFF0);  // only bits [3:0] are the kernel value
      sim.Eval();
      for (int i = 0; i < 4; ++i) {
        const int8_t got = int8_t(uint8_t(dut.int4_prod_o >> (8 * i)));
        ASSERT_EQ(got, oracle::Int4FromCode(uint16_t(d), i) * oracle::Int4FromCode(uint16_t(k), 0))
            << "data 0x" << std::hex << d << " kernel " << k << " product " << i;
      }
    }
  }
}

// ---- ane_mac_add12: whole quads, every step compared ----

template <class Model>
void CheckQuadChains(Generation gen, uint64_t default_seed) {
  harness::Sim<Model> sim("ane_mac_add12", harness::CurrentTestStem());
  auto& dut = sim.dut();
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  auto step = [&](const Exact& x, const Exact& y) {
    ToRtl(x, dut.x_i);
    ToRtl(y, dut.y_i);
    sim.Eval();
    const Exact want = gen == Generation::kM1 ? oracle::Add12(x, y) : x + y;
    const Exact got = FromRtl(dut.s_o);
    EXPECT_EQ(got, want) << "add12(" << Bits(x) << ", " << Bits(y) << "): rtl " << Bits(got);
    return want;
  };
  const uint64_t quads = 1'000'000 * test::SoakFactor();
  for (uint64_t q = 0; q < quads && !::testing::Test::HasFailure(); ++q) {
    const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
    std::array<Exact, 4> p;
    for (auto& x : p) {
      x = oracle::MacProduct(oracle::DecodeMacFp16(RandomOperand(rng, anchor), gen),
                             oracle::DecodeMacFp16(RandomOperand(rng, 0x3C00), gen));
    }
    const int n = 1 + int(rng.Below(4));  // quads of 1..4 products, padded with +0
    Exact t = p[0];
    for (int i = 1; i < 4; ++i) t = step(t, i < n ? p[size_t(i)] : Exact());
  }
}

TEST(RtlMacAdd12, N2_4_M1QuadChainsMatchOracle) { CheckQuadChains<Vane_mac_add12_m1>(Generation::kM1, 401); }
TEST(RtlMacAdd12, N2_4_M5QuadChainsAreExact) { CheckQuadChains<Vane_mac_add12_m5>(Generation::kM5, 402); }

// ---- ane_mac_acc_add ----

TEST(RtlMacAccAdd, N2_5_N2_6_AccumulateStepMatchesOracle) {
  harness::Sim<Vane_mac_acc_add> sim("ane_mac_acc_add", harness::CurrentTestStem());
  auto& dut = sim.dut();
  const uint64_t seed = test::TestSeed(501);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const uint64_t n = 2'000'000 * test::SoakFactor();
  for (uint64_t i = 0; i < n && !::testing::Test::HasFailure(); ++i) {
    const Generation gen = rng.Below(2) ? Generation::kM1 : Generation::kM5;
    const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
    std::array<Exact, 4> p;
    for (auto& x : p) {
      x = oracle::MacProduct(oracle::DecodeMacFp16(RandomOperand(rng, anchor), gen),
                             oracle::DecodeMacFp16(RandomOperand(rng, anchor), gen));
    }
    const Exact t = rng.Below(16) == 0 ? Exact() : oracle::QuadReduce(p, gen);
    const uint32_t acc = test::RandomAcc(rng);
    const bool ceiling = rng.Below(4) != 0;
    dut.acc_i = acc;
    ToRtl(t, dut.t_i);
    dut.ceiling_i = ceiling;
    sim.Eval();
    const uint32_t want = oracle::AccumulateQuad(acc, t, ceiling);
    ASSERT_EQ(dut.acc_o, want) << std::hex << "acc 0x" << acc << " + t " << Bits(t)
                               << " ceiling " << ceiling << ": rtl 0x" << dut.acc_o;
  }
}

TEST(RtlMacAccAdd, N2_6_CeilingThresholdIsExactly32760) {
  harness::Sim<Vane_mac_acc_add> sim("ane_mac_acc_add", harness::CurrentTestStem());
  auto& dut = sim.dut();
  ToRtl(Exact(), dut.t_i);
  dut.ceiling_i = 1;
  for (uint32_t acc : {0x46FFEFFFu, 0x46FFF000u, 0xC6FFF000u, 0x46FFE000u, 0x47000000u}) {
    dut.acc_i = acc;
    sim.Eval();
    const bool over = (acc & 0x7FFFFFFFu) >= 0x46FFF000u;  // 32760.0f
    EXPECT_EQ(dut.acc_o, over ? ((acc & 0x80000000u) | 0x7F800000u) : acc) << std::hex << acc;
    EXPECT_EQ(dut.acc_o, oracle::AccumulateQuad(acc, Exact(), true)) << std::hex << acc;
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
    for (uint32_t f : {0x000000u, 0x000001u, 0x000FFFu, 0x001000u, 0x001001u, 0x002000u,
                       0x003000u, 0x7FE000u, 0x7FF000u, 0x7FF001u, 0x7FFFFFu, 0x400000u}) {
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
