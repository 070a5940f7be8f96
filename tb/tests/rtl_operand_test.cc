// SPDX-License-Identifier: Apache-2.0
// RTL operand front end against the oracle, exhaustively:
//   ane_fp16_unpack  all 2^16 codes, both generations, three X seeds  (N-1, N-2.1, N-2.3)
//   ane_sig_mul      all 2^22 input pairs                              (N-2.2)
#include <gtest/gtest.h>

#include <vector>

#include "Vane_fp16_unpack_m1.h"
#include "Vane_fp16_unpack_m5.h"
#include "Vane_sig_mul.h"
#include "tb/harness/sim.h"
#include "tb/oracle/mac.h"

namespace ane {
namespace {

using oracle::Exact;
using oracle::Generation;

// ane_pkg::fp16_unpacked_t, packed MSB first: sign, exp[4:0], sig[10:0], is_zero, is_inf.
struct Unpacked {
  bool sign, is_zero, is_inf;
  int exp, sig;
  explicit Unpacked(uint32_t v)
      : sign((v >> 18) & 1),
        is_zero((v >> 1) & 1),
        is_inf(v & 1),
        exp(int((v >> 13) & 0x1F)),
        sig(int((v >> 2) & 0x7FF)) {}
  Exact Value() const {
    if (is_inf) return Exact::Infinity(sign);
    return Exact::FromInt(sign, uint64_t(sig), exp - 25);
  }
};

// Runs all 2^16 codes through one model; returns the raw outputs.
template <class Model>
std::vector<uint32_t> SweepUnpack(uint32_t x_seed, const std::string& stem) {
  harness::Sim<Model> sim("ane_fp16_unpack", stem, x_seed);
  std::vector<uint32_t> out(0x10000);
  for (uint32_t c = 0; c < 0x10000; ++c) {
    sim.dut().fp16_i = uint16_t(c);
    sim.Eval();
    out[c] = sim.dut().op_o;
  }
  return out;
}

template <class Model>
void CheckUnpackAgainstOracle(Generation gen) {
  std::vector<uint32_t> first;
  for (uint32_t x_seed : {1u, 2u, 3u}) {
    const std::vector<uint32_t> out =
        SweepUnpack<Model>(x_seed, harness::CurrentTestStem() + ".seed" + std::to_string(x_seed));
    for (uint32_t c = 0; c < 0x10000; ++c) {
      const Unpacked u(out[c]);
      const Exact want = oracle::DecodeMacFp16(uint16_t(c), gen);
      ASSERT_EQ(u.Value(), want) << "code 0x" << std::hex << c << " gen " << oracle::GenerationName(gen) << " x_seed "
                                 << x_seed;
      // Field invariants: a zero is an unsigned zero; an infinity carries no significand.
      ASSERT_EQ(u.is_zero, want.is_zero()) << std::hex << c;
      if (u.is_zero || u.is_inf) {
        ASSERT_EQ(u.sig, 0) << std::hex << c;
      }
      if (u.is_zero) {
        ASSERT_FALSE(u.sign) << std::hex << c;
      }
    }
    if (first.empty()) {
      first = out;
    } else {
      ASSERT_EQ(out, first) << "X seed " << x_seed << " changed a result";
    }
  }
}

TEST(RtlFp16Unpack, N1_N2_3_M1DecodeMatchesOracleOnAllCodes) {
  CheckUnpackAgainstOracle<Vane_fp16_unpack_m1>(Generation::kM1);
}

TEST(RtlFp16Unpack, N1_N2_3_M5DecodeMatchesOracleOnAllCodes) {
  CheckUnpackAgainstOracle<Vane_fp16_unpack_m5>(Generation::kM5);
}

// The split multiplier: lo = a x b[5:0], hi = a x b[10:6], and lo + (hi << 6) = a x b exactly
// for every pair of 11-bit inputs; the int4 packing (two magnitudes up to 8, 7 bits apart, times a
// magnitude up to 8) keeps the two products apart in each half.
TEST(RtlSigMul, N2_2_ExactProductOnAll2To22Pairs) {
  harness::Sim<Vane_sig_mul> sim("ane_sig_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  const bool tracing = !harness::WaveDir().empty();
  uint64_t checked = 0;
  for (uint32_t a = 0; a < 2048; ++a) {
    for (uint32_t b = 0; b < 2048; ++b) {
      if (tracing && a > 4) break;  // a short waveform is enough to look at
      dut.a_lo_i = uint16_t(a);
      dut.a_hi_i = uint16_t(a);
      dut.b_lo_i = uint8_t(b & 0x3F);
      dut.b_hi_i = uint8_t(b >> 6);
      sim.Eval();
      ASSERT_EQ(uint32_t(dut.lo_o) + (uint32_t(dut.hi_o) << 6), a * b) << a << " x " << b;
      ++checked;
    }
  }
  if (!tracing) {
    EXPECT_EQ(checked, uint64_t(1) << 22);
  }
}

TEST(RtlSigMul, N2_8_Int4PairsStayApartInEachHalf) {
  harness::Sim<Vane_sig_mul> sim("ane_sig_mul", harness::CurrentTestStem());
  auto& dut = sim.dut();
  for (uint32_t d0 = 0; d0 <= 8; ++d0) {
    for (uint32_t d1 = 0; d1 <= 8; ++d1) {
      for (uint32_t k = 0; k <= 8; ++k) {
        dut.a_lo_i = uint16_t(d0 | (d1 << 7));
        dut.a_hi_i = uint16_t(d1 | (d0 << 7));
        dut.b_lo_i = uint8_t(k);
        dut.b_hi_i = uint8_t(k);
        sim.Eval();
        ASSERT_EQ(dut.lo_o & 0x7F, d0 * k) << d0 << " " << d1 << " " << k;
        ASSERT_EQ((dut.lo_o >> 7) & 0x7F, d1 * k) << d0 << " " << d1 << " " << k;
        ASSERT_EQ(dut.hi_o & 0x7F, d1 * k) << d0 << " " << d1 << " " << k;
        ASSERT_EQ((dut.hi_o >> 7) & 0x7F, d0 * k) << d0 << " " << d1 << " " << k;
      }
    }
  }
}

}  // namespace
}  // namespace ane
