// SPDX-License-Identifier: Apache-2.0
// The elementwise fp16 operators against the oracle, exact bits (NUMERICS N-1, N-4.1, N-4.2):
//   ane_fp16_mul  Fp16Mul
//   ane_fp16_add  Fp16Add (sub_i = 0) and Fp16Sub (sub_i = 1)
// Per operator: directed corners with hand-written expected codes, all pairs of a dense subset
// of codes (about 2100 codes, 4.4 M pairs), the same sweep under three X seeds giving identical
// outputs, and ten million seeded random pairs (half of them steered to the interesting
// exponent ranges: cancellation for add/sub, underflow and overflow for mul).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "Vane_fp16_add.h"
#include "Vane_fp16_mul.h"
#include "gtkwave/fstapi.h"
#include "tb/harness/sim.h"
#include "tb/oracle/elementwise.h"
#include "tb/tests/fp16_values.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using test::H;
using test::Rng;

constexpr uint16_t kPosInf = 0x7C00;
constexpr uint16_t kNegInf = 0xFC00;
constexpr uint16_t kNegZero = 0x8000;

enum class Op { kMul, kAdd, kSub };

const char* OpName(Op op) {
  switch (op) {
    case Op::kMul: return "mul";
    case Op::kAdd: return "add";
    case Op::kSub: return "sub";
  }
  return "?";
}

uint16_t Oracle(Op op, uint16_t a, uint16_t b) {
  switch (op) {
    case Op::kMul: return oracle::Fp16Mul(a, b);
    case Op::kAdd: return oracle::Fp16Add(a, b);
    case Op::kSub: return oracle::Fp16Sub(a, b);
  }
  return 0;
}

// One operator's RTL model behind one call: Run(a, b) returns y_o.
class OpSim {
 public:
  OpSim(Op op, const std::string& trace_name, uint32_t x_seed = 1) : op_(op) {
    if (op == Op::kMul) {
      mul_ = std::make_unique<harness::Sim<Vane_fp16_mul>>("ane_fp16_mul", trace_name, x_seed);
    } else {
      add_ = std::make_unique<harness::Sim<Vane_fp16_add>>("ane_fp16_add", trace_name, x_seed);
    }
  }
  uint16_t Run(uint16_t a, uint16_t b) {
    if (mul_) {
      mul_->dut().a_i = a;
      mul_->dut().b_i = b;
      mul_->Eval();
      return mul_->dut().y_o;
    }
    add_->dut().a_i = a;
    add_->dut().b_i = b;
    add_->dut().sub_i = op_ == Op::kSub;
    add_->Eval();
    return add_->dut().y_o;
  }

 private:
  Op op_;
  std::unique_ptr<harness::Sim<Vane_fp16_mul>> mul_;
  std::unique_ptr<harness::Sim<Vane_fp16_add>> add_;
};

std::string Hex(uint16_t h) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "0x%04X", h);
  return buf;
}

// ---- Stimulus ----

// A code with a random sign and fraction and the biased exponent `exp` (clamped to 0 .. 31).
uint16_t CodeWithExponent(Rng& rng, int exp) {
  exp = std::clamp(exp, 0, 31);
  return uint16_t((rng.Code() & 0x83FF) | (exp << 10));
}

// A random pair for `op`: half uniform over all codes, half steered to the hard ranges.
std::pair<uint16_t, uint16_t> RandomPair(Op op, Rng& rng) {
  const uint16_t a = rng.Code();
  const int ea = (a >> 10) & 0x1F;
  switch (rng.Below(4)) {
    case 0:
    case 1: return {a, rng.Code()};
    case 2:
      if (op == Op::kMul) {
        // Products from about 2^-28 to 2^-11: denormal results, rounding to zero or up to 2^-14.
        return {a, CodeWithExponent(rng, 2 - ea + int(rng.Below(18)))};
      }
      // Exponents within 2 of each other: cancellation and the carry-out binade.
      return {a, CodeWithExponent(rng, ea - 2 + int(rng.Below(5)))};
    default:
      if (op == Op::kMul) {
        // Products around 65504 .. 65520 .. 2^17: overflow and the largest finite values.
        return {a, CodeWithExponent(rng, 44 - ea + int(rng.Below(3)))};
      }
      // Magnitude within 4 ulps of a's: massive cancellation to tiny results.
      return {a, uint16_t((rng.Code() & 0x8000) | std::clamp(int(a & 0x7FFF) + int(rng.Below(9)) - 4, 0, 0x7FFF))};
  }
}

// ---- Checks ----

// The subset sweep through one model: outputs in pair order (a outer, b inner).
std::vector<uint16_t> SweepSubset(Op op, const std::vector<uint16_t>& subset, uint32_t x_seed,
                                  const std::string& stem) {
  OpSim sim(op, stem, x_seed);
  const bool tracing = !harness::WaveDir().empty();
  std::vector<uint16_t> out;
  out.reserve(subset.size() * subset.size());
  for (uint16_t a : subset) {
    for (uint16_t b : subset) out.push_back(sim.Run(a, b));
    if (tracing && out.size() > 4 * subset.size()) break;  // a short waveform is enough
  }
  return out;
}

void CheckDenseSubset(Op op) {
  const std::vector<uint16_t> subset = test::DenseFp16Subset();
  ASSERT_GT(subset.size(), 2000u);
  const std::vector<uint16_t> out = SweepSubset(op, subset, 1, harness::CurrentTestStem());
  size_t i = 0;
  for (uint16_t a : subset) {
    for (uint16_t b : subset) {
      if (i == out.size()) return;  // tracing: shortened sweep
      ASSERT_EQ(Hex(out[i]), Hex(Oracle(op, a, b))) << OpName(op) << "(" << Hex(a) << ", " << Hex(b) << ")";
      ++i;
    }
  }
}

void CheckXSeeds(Op op) {
  const std::vector<uint16_t> subset = test::DenseFp16Subset();
  std::vector<uint16_t> first;
  for (uint32_t x_seed : {1u, 2u, 3u}) {
    const std::vector<uint16_t> out =
        SweepSubset(op, subset, x_seed, harness::CurrentTestStem() + ".seed" + std::to_string(x_seed));
    if (first.empty()) {
      first = out;
      continue;
    }
    ASSERT_EQ(out.size(), first.size());
    for (size_t i = 0; i < out.size(); ++i) {
      ASSERT_EQ(Hex(out[i]), Hex(first[i]))
          << OpName(op) << "(" << Hex(subset[i / subset.size()]) << ", " << Hex(subset[i % subset.size()])
          << "): X seed " << x_seed << " changed the result";
    }
  }
}

void CheckRandomPairs(Op op, uint64_t default_seed) {
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  OpSim sim(op, harness::CurrentTestStem());
  const uint64_t n = (harness::WaveDir().empty() ? 10'000'000 : 1000) * test::SoakFactor();
  for (uint64_t i = 0; i < n; ++i) {
    const auto [a, b] = RandomPair(op, rng);
    const uint16_t got = sim.Run(a, b);
    const uint16_t want = Oracle(op, a, b);
    if (got != want) {
      FAIL() << OpName(op) << "(" << Hex(a) << ", " << Hex(b) << "): rtl " << Hex(got) << " oracle " << Hex(want)
             << " (pair " << i << ")";
    }
  }
}

// A directed case: the RTL must give the hand-written code, and so must the oracle.
struct Case {
  uint16_t a, b, want;
  const char* why;
};

void CheckDirected(Op op, const std::vector<Case>& cases) {
  OpSim sim(op, harness::CurrentTestStem());
  for (const Case& c : cases) {
    EXPECT_EQ(Hex(sim.Run(c.a, c.b)), Hex(c.want))
        << "rtl " << OpName(op) << "(" << Hex(c.a) << ", " << Hex(c.b) << "): " << c.why;
    EXPECT_EQ(Hex(Oracle(op, c.a, c.b)), Hex(c.want))
        << "oracle " << OpName(op) << "(" << Hex(c.a) << ", " << Hex(c.b) << "): " << c.why;
  }
}

// ---- ane_fp16_mul ----

TEST(RtlFp16Mul, N4_1_N4_2_DirectedCorners) {
  CheckDirected(Op::kMul, {
                              {H(1.5), H(1.5), H(2.25), "exact product"},
                              {H(-3.0), H(0.5), H(-1.5), "sign"},
                              {H(65504.0), H(2.0), kPosInf, "65504 * 2 overflows"},
                              {H(-65504.0), H(2.0), kNegInf, "overflow keeps the sign"},
                              {H(63.0), H(1040.0), kPosInf, "exactly 65520: the overflow tie rounds up to inf"},
                              {H(65504.0), H(1.0009765625), kPosInf, "65567.96 >= 65520"},
                              {H(65504.0), H(0.99951171875), H(65472.0), "65472.03 rounds down"},
                              {H(255.875), H(255.875), H(65472.0), "largest square below the limit"},
                              {H(256.0), H(256.0), kPosInf, "256^2 = 65536"},
                              {0x0000, kPosInf, 0x0000, "N-4.2: 0 * inf = +0"},
                              {kNegInf, 0x0000, 0x0000, "N-4.2: -inf * 0 = +0"},
                              {kNegZero, kNegInf, 0x0000, "N-4.2: -0 * -inf = +0"},
                              {0x7E00, 0x0000, 0x0000, "NaN is +inf: NaN * 0 = +0"},
                              {0x7E00, H(1.0), kPosInf, "N-1.1: NaN * 1 = +inf"},
                              {0xFE01, H(1.0), kPosInf, "N-1.1: a negative NaN is +inf too"},
                              {0x7FFF, H(-1.0), kNegInf, "NaN * -1 = -inf"},
                              {kPosInf, H(-2.0), kNegInf, "inf * finite keeps the product's sign"},
                              {kPosInf, 0x0001, kPosInf, "inf * smallest denormal"},
                              {H(-1.0), 0x0000, kNegZero, "IEEE sign: -1 * +0 = -0"},
                              {kNegZero, H(1.0), 0x0000, "N-1.2: -0 is +0, so -0 * 1 = +0"},
                              {kNegZero, H(-1.0), kNegZero, "N-1.2: -0 is +0, so -0 * -1 = -0"},
                              {0x0001, H(0.5), 0x0000, "2^-25: tie to even rounds to +0"},
                              {0x8001, H(0.5), kNegZero, "-2^-25: tie to even rounds to -0"},
                              {0x0001, H(0.75), 0x0001, "0.75 of the smallest denormal rounds up"},
                              {0x0003, H(0.5), 0x0002, "1.5 ulp: tie to even, up"},
                              {0x0005, H(0.5), 0x0002, "2.5 ulp: tie to even, down"},
                              {0x0001, H(32768.0), H(0.001953125), "denormal * 2^15 = 2^-9, a normal"},
                              {0x0200, H(2.0), 0x0400, "2^-15 * 2 = smallest normal"},
                              {0x03FF, 0x3C01, 0x0400, "largest denormal * (1 + 2^-10) rounds up to 2^-14"},
                              {0x0400, H(0.5), 0x0200, "smallest normal / 2: gradual underflow"},
                              {0x0401, H(0.5), 0x0200, "(2^-14 + 2^-24) / 2: tie to even, down"},
                              {0x0403, H(0.5), 0x0202, "(2^-14 + 3 * 2^-24) / 2: tie to even, up"},
                              {H(1.0009765625), H(1.0009765625), H(1.001953125), "1 + 2^-9 + 2^-20 rounds down"},
                              {0x3BFF, 0x3BFF, 0x3BFE, "(1 - 2^-11)^2 = 1 - 2^-10 + 2^-22 rounds down"},
                          });
}

TEST(RtlFp16Mul, N4_1_AllPairsOfDenseSubset) { CheckDenseSubset(Op::kMul); }
TEST(RtlFp16Mul, N4_1_DenseSubsetIdenticalUnderThreeXSeeds) { CheckXSeeds(Op::kMul); }
TEST(RtlFp16Mul, N4_1_TenMillionRandomPairs) { CheckRandomPairs(Op::kMul, 0xF16A01); }

// ---- ane_fp16_add, sub_i = 0 ----

TEST(RtlFp16Add, N4_1_N4_2_DirectedCorners) {
  CheckDirected(Op::kAdd, {
                              {H(1.0), H(2.0), H(3.0), "exact sum"},
                              {0x7BFF, 0x7BFF, kPosInf, "65504 + 65504 overflows"},
                              {0xFBFF, 0xFBFF, kNegInf, "-65504 - 65504 overflows to -inf"},
                              {H(65504.0), H(16.0), kPosInf, "exactly 65520: the overflow tie rounds up to inf"},
                              {H(65504.0), H(15.875), H(65504.0), "65519.875 stays 65504"},
                              {H(65504.0), H(8.0), H(65504.0), "65512 rounds down"},
                              {kPosInf, kNegInf, 0x0000, "N-4.2: inf + (-inf) = +0"},
                              {kNegInf, kPosInf, 0x0000, "N-4.2: -inf + inf = +0"},
                              {kPosInf, kPosInf, kPosInf, "inf + inf"},
                              {kNegInf, H(65504.0), kNegInf, "-inf + finite"},
                              {0x7E00, H(1.0), kPosInf, "N-1.1: NaN + 1 = +inf"},
                              {0xFE00, H(-1.0), kPosInf, "N-1.1: -NaN + -1 = +inf"},
                              {0x7E00, kNegInf, 0x0000, "NaN + -inf = inf - inf = +0"},
                              {H(1.0), H(0.00048828125), H(1.0), "1 + 2^-11: tie to even, down"},
                              {H(1.0), H(0.00146484375), H(1.001953125), "1 + 3 * 2^-11: tie to even, up"},
                              {H(1.0), H(0.000488758087158203125), H(1.0009765625),
                               "1 + 2^-11 + 2^-21: above the tie (sticky), up"},
                              {H(2048.0), 0x0001, H(2048.0), "2048 + 2^-24"},
                              {H(1.0), H(-1.0), 0x0000, "exact cancellation is +0"},
                              {H(-1.0), H(1.0), 0x0000, "exact cancellation is +0"},
                              {0x8155, 0x0155, 0x0000, "denormal cancellation is +0"},
                              {kNegZero, kNegZero, 0x0000, "N-1.2: -0 + -0 = +0"},
                              {H(-2.0), kNegZero, H(-2.0), "x + -0 = x"},
                              {0x0001, 0x0001, 0x0002, "denormal sum"},
                              {0x03FF, 0x0001, 0x0400, "denormals sum to the smallest normal"},
                              {0x0400, 0x8001, 0x03FF, "smallest normal - smallest denormal: gradual underflow"},
                              {H(1.0), H(-0.99951171875), H(0.00048828125), "1 - (1 - 2^-11) = 2^-11, exact"},
                              {0x0401, 0x8400, 0x0001, "cancellation to the smallest denormal"},
                              {H(1.0), H(-0.0001220703125), H(1.0), "1 - 2^-13: a quarter ulp below 1, rounds to 1"},
                              {H(1.0), H(-0.000244140625), H(1.0), "1 - 2^-12: tie to even, up to 1"},
                              {H(1.0), 0x8001, H(1.0), "1 - 2^-24 rounds to 1"},
                              {H(1.5009765625), H(-0.00048828125), H(1.5), "1.5 + 2^-10 - 2^-11: tie to even, down"},
                          });
}

TEST(RtlFp16Add, N4_1_AllPairsOfDenseSubset) { CheckDenseSubset(Op::kAdd); }
TEST(RtlFp16Add, N4_1_DenseSubsetIdenticalUnderThreeXSeeds) { CheckXSeeds(Op::kAdd); }
TEST(RtlFp16Add, N4_1_TenMillionRandomPairs) { CheckRandomPairs(Op::kAdd, 0xF16A02); }

// ---- ane_fp16_add, sub_i = 1 ----

TEST(RtlFp16Sub, N4_1_N4_2_DirectedCorners) {
  CheckDirected(Op::kSub,
                {
                    {H(3.0), H(1.0), H(2.0), "exact difference"},
                    {kPosInf, kPosInf, 0x0000, "N-4.2: inf - inf = +0"},
                    {kNegInf, kNegInf, 0x0000, "N-4.2: -inf - (-inf) = +0"},
                    {kPosInf, kNegInf, kPosInf, "inf - (-inf) = inf"},
                    {H(1.0), kPosInf, kNegInf, "1 - inf = -inf"},
                    {0x7E00, 0xFE00, 0x0000, "N-1.1: NaN - NaN = inf - inf = +0"},
                    {0x7E00, H(1.0), kPosInf, "NaN - 1 = +inf"},
                    {H(1.0), 0xFE00, kNegInf, "1 - NaN = 1 - inf = -inf"},
                    {0x7BFF, 0xFBFF, kPosInf, "65504 - (-65504) overflows"},
                    {H(5.0), H(5.0), 0x0000, "x - x = +0"},
                    {H(-5.0), H(-5.0), 0x0000, "-x - (-x) = +0"},
                    {0x0000, 0x0000, 0x0000, "0 - 0 = +0"},
                    {kNegZero, 0x0000, 0x0000, "N-1.2: -0 - 0 = +0"},
                    {0x0000, H(2.0), H(-2.0), "0 - x = -x"},
                    {0x0000, 0x0001, 0x8001, "0 - smallest denormal"},
                    {0x0400, 0x0001, 0x03FF, "gradual underflow"},
                    {H(1.0), H(0.000244140625), H(1.0), "1 - 2^-12: tie to even, up to 1"},
                    {H(2048.0), 0x0001, H(2048.0), "2048 - 2^-24 rounds to 2048"},
                    {H(1024.0), H(0.25), H(1024.0), "1023.75: tie to even, up to 1024"},
                    {H(1024.0), H(0.2509765625), H(1023.5), "1024 - (0.25 + 2^-10): below the tie (sticky), down"},
                });
}

TEST(RtlFp16Sub, N4_1_AllPairsOfDenseSubset) { CheckDenseSubset(Op::kSub); }
TEST(RtlFp16Sub, N4_1_DenseSubsetIdenticalUnderThreeXSeeds) { CheckXSeeds(Op::kSub); }
TEST(RtlFp16Sub, N4_1_TenMillionRandomPairs) { CheckRandomPairs(Op::kSub, 0xF16A03); }

// ---- the harness's waveform length (tb/harness/sim.h, ANE_WAVE_CYCLES) ----

// The last time step of a waveform, in half clock periods (a traced cycle is two steps, a traced
// evaluation one). The file counts in picoseconds, a clock period being the synthesis
// constraint's 5 ns, so that GTKWave shows a 200 MHz design's cycles 5 ns apart.
uint64_t FstEndTime(const std::string& file) {
  void* r = fstReaderOpen(file.c_str());
  if (!r) throw std::runtime_error("cannot read " + file);
  const uint64_t t = fstReaderGetEndTime(r);
  const int scale = fstReaderGetTimescale(r);
  fstReaderClose(r);
  EXPECT_EQ(scale, -12) << file << ": the time unit is not 1 ps";
  EXPECT_EQ(t % 2500, 0u) << file << ": a time that is not a whole half period of 2.5 ns";
  return t / 2500;
}

// ANE_WAVE_CYCLES=N: the waveform ends after N traced cycles or N evaluations, the run goes on;
// unset, the whole run is traced; a value that is not a whole number above 0 is refused by name.
TEST(HarnessWave, WaveCyclesKeepsTheFirstCyclesOnly) {
  const std::string dir = ::testing::TempDir() + "ane_wave_cycles";
  ::mkdir(dir.c_str(), 0755);
  ::setenv("ANE_WAVE_DIR", dir.c_str(), 1);
  auto end_time = [&](const char* cycles, int ticks, int evals) {
    if (cycles) {
      ::setenv("ANE_WAVE_CYCLES", cycles, 1);
    } else {
      ::unsetenv("ANE_WAVE_CYCLES");
    }
    {
      harness::Sim<Vane_fp16_mul> sim("ane_fp16_mul", "wave_cycles");
      for (int i = 0; i < ticks; ++i) sim.Tick();
      for (int i = 0; i < evals; ++i) sim.Eval();
      EXPECT_EQ(sim.cycles(), uint64_t(ticks));
    }
    return FstEndTime(dir + "/wave_cycles.fst");
  };
  EXPECT_EQ(end_time(nullptr, 50, 0), 99u);  // 50 cycles: steps 0 .. 99
  EXPECT_EQ(end_time("10", 50, 0), 19u);     // the first 10 cycles
  EXPECT_EQ(end_time(nullptr, 0, 50), 49u);  // 50 evaluations
  EXPECT_EQ(end_time("10", 0, 50), 9u);      // the first 10
  EXPECT_EQ(end_time("10", 5, 50), 19u);     // 5 cycles (steps 0 .. 9), then 10 evaluations
  for (const char* bad : {"ten", "0", "-3", "12x", ""}) {
    ::setenv("ANE_WAVE_CYCLES", bad, 1);
    try {
      harness::Sim<Vane_fp16_mul> sim("ane_fp16_mul", "wave_cycles");
      ADD_FAILURE() << "ANE_WAVE_CYCLES='" << bad << "' was taken";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()),
                "ANE_WAVE_CYCLES='" + std::string(bad) + "' is not a whole number of cycles above 0");
    }
  }
  ::unsetenv("ANE_WAVE_CYCLES");
  ::unsetenv("ANE_WAVE_DIR");
}

}  // namespace
}  // namespace ane
