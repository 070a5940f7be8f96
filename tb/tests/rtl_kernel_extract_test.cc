// SPDX-License-Identifier: Apache-2.0
// The kernel extract RTL (rtl/ane_kernel_extract.sv) against the oracle's decoder and schedule
// (tb/oracle/kernel_codec.h, NUMERICS N-6 with the N-2.4 skip rule): every operation (both
// coefficients, the step's coordinates, the slot, first/last/end) and every post-processing
// parameter record, for every format, dense and sparse (all-zero, 50 %, 90 %, all-nonzero),
// one kernel per slot or two, with random input gaps and back-pressure on both outputs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "Vane_kernel_extract.h"
#include "tb/harness/kernel_extract_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/kernel_codec.h"
#include "tb/tests/conv_shapes.h"
#include "tb/tests/kernel_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::ExtractOp;
using harness::ExtractParam;
using harness::ExtractStats;
using oracle::DecodedGroup;
using oracle::KernelFormat;
using oracle::KernelGroup;

struct Bench {
  explicit Bench(uint32_t x_seed = 1) : sim("ane_kernel_extract", harness::CurrentTestStem(), x_seed), drv(sim) {
    drv.Reset();
  }
  harness::Sim<Vane_kernel_extract> sim;
  harness::KernelExtractDriver<Vane_kernel_extract> drv;
};

using test::RandomGroup;

using test::AddGroup;
using test::AddWords;
using Expect = test::ExtractExpect;

void Compare(const Expect& e, const std::vector<ExtractOp>& ops, const std::vector<ExtractParam>& params,
             const std::string& what) {
  test::CompareExtract(e, ops, params, what);
}

TEST(RtlKernelExtract, N6_HandWrittenDenseStream) {
  Bench b;
  b.drv.Configure(1, 1, 3);
  const std::vector<uint32_t> words = {0x00000000u, 0xC0003C00u, 0x00003800u, 0x00000000u};
  std::vector<ExtractOp> ops;
  std::vector<ExtractParam> params;
  b.drv.Run(
      words, 3, 0, [] { return false; }, [] { return false; }, [] { return false; }, &ops, &params);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].coef_a, 0x3C00);
  EXPECT_EQ(ops[1].coef_a, 0xC000);
  EXPECT_EQ(ops[2].coef_a, 0x3800);
  EXPECT_TRUE(ops[0].first && !ops[0].last);
  EXPECT_TRUE(ops[2].last && ops[2].end);
  EXPECT_EQ(ops[2].kx, 2);
}

// Every format, dense and sparse at every density, one, two or four kernels per slot (four:
// fp16 coefficients, dense), many groups in one stream, random gaps and back-pressure.
TEST(RtlKernelExtract, N6_RandomGroupsEveryFormatAndDensity) {
  const uint64_t seed = test::TestSeed(0xE47);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  Bench b;
  const int zero_pcts[] = {0, 50, 90, 100};
  uint64_t total_ops = 0, skipped = 0, four_groups = 0;
  const int streams = int(400 * test::SoakFactor());
  for (int it = 0; it < streams; ++it) {
    const oracle::ConvGeometry geom =
        test::WindowShape(1 + int(rng.Below(6)), 1 + int(rng.Below(7)), 1 + int(rng.Below(7)));
    b.drv.Configure(geom.channels, geom.kernel_h, geom.kernel_w);
    Expect e;
    const int groups = 1 + int(rng.Below(4));
    for (int gi = 0; gi < groups; ++gi) {
      const KernelFormat f = KernelFormat(rng.Below(5));
      const int per = int(f) <= 2 ? int(1u << rng.Below(3)) : 1;
      const bool sparse = per != 4 && rng.Below(3) != 0;
      AddGroup(&e,
               RandomGroup(rng, geom.Steps(), f, sparse, per, 1 + int(rng.Below(8)),
                           per == 4 ? int(rng.Below(2)) * 50 : zero_pcts[rng.Below(4)]),
               geom);
      four_groups += per == 4;
    }
    std::vector<ExtractOp> ops;
    std::vector<ExtractParam> params;
    const int gap = int(rng.Below(50)), stall = int(rng.Below(50));
    auto chance = [&rng](int pct) { return [&rng, pct] { return int(rng.Below(100)) < pct; }; };
    b.drv.Run(e.words, e.ops.size(), e.params.size(), chance(gap), chance(stall), chance(stall), &ops, &params);
    Compare(e, ops, params, "stream " + std::to_string(it));
    if (HasFailure()) return;
    total_ops += ops.size();
    skipped += e.skipped_blocks;
  }
  EXPECT_GT(total_ops, 100000u);
  EXPECT_GT(skipped, 100u);  // the skip path ran
  EXPECT_GT(four_groups, 50u);
}

// N-6.1 and N-2.8 at the ends of their ranges, which the encoder never writes (it clamps q to
// -127 and chooses scales that keep the weights finite): q = -128, a dequantized weight that
// overflows to -inf, subnormal and -0 weights (N-6.1's multiply keeps denormals and signs), and
// raw int4 -8. The int8 words are the encoder's for the integers below at scale 1.0, then the
// byte of q = -127 becomes -128 and the scale word is rewritten; the oracle's decoder reads the
// edited words, and the expected operations must hold each corner.
TEST(RtlKernelExtract, N6_1_N2_8_RangeEndsTheEncoderNeverWrites) {
  const uint64_t seed = test::TestSeed(0xE48);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const oracle::ConvGeometry geom = test::WindowShape(1, 2, 4);  // 8 steps
  Expect e;
  oracle::KernelGroup g;
  g.spec.format = KernelFormat::kInt8Sym;
  g.steps = geom.Steps();
  // -127, 127, 0, 1, -1, 2, 64, -64
  g.weights = {{0xD7F0, 0x57F0, 0x0000, 0x3C00, 0xBC00, 0x4000, 0x5400, 0xD400}};
  g.scales = {0x3C00};
  std::vector<uint32_t> w = oracle::EncodeKernelGroup(&g);
  ASSERT_EQ(w.size(), 4u);
  ASSERT_EQ(w[1] & 0xFFFFu, 0x3C00u);
  ASSERT_EQ(w[2] & 0xFFu, 0x81u);  // q = -127, the first step
  w[2] = (w[2] & ~0xFFu) | 0x80u;  // q = -128
  // 512: -128 x 512 = -65536 overflows, 127 x 512 = 65024 does not; 2^-24 and -2^-24: every
  // product a subnormal, 0 x -2^-24 = -0; -1.0: 0 x -1 = -0
  for (const uint32_t scale : {0x6000u, 0x0001u, 0x8001u, 0xBC00u}) {
    std::vector<uint32_t> v = w;
    v[1] = (v[1] & 0xFFFF0000u) | scale;
    AddWords(&e, v, geom);
  }
  oracle::KernelGroup r;  // raw int4 at both ends: -8 .. 7
  r.spec.format = KernelFormat::kRaw4;
  r.steps = geom.Steps();
  r.weights = {{0xFFF8, 0x0007, 0xFFF8, 0x0001, 0xFFFF, 0x0000, 0xFFF9, 0x0006}};
  AddGroup(&e, r, geom);
  bool neg_inf = false, subnormal = false, neg_zero = false, max_finite = false;
  for (const ExtractOp& op : e.ops) {
    neg_inf |= op.coef_a == 0xFC00;
    subnormal |= (op.coef_a & 0x7C00) == 0 && (op.coef_a & 0x03FF) != 0;
    neg_zero |= op.coef_a == 0x8000;
    max_finite |= op.coef_a == 0x7BF0;  // 127 x 512 = 65024
  }
  EXPECT_TRUE(neg_inf && subnormal && neg_zero && max_finite) << "the stimulus misses a corner";
  for (int run = 0; run < 8 && !HasFailure(); ++run) {
    Bench b(uint32_t(rng.Next()));
    b.drv.Configure(geom.channels, geom.kernel_h, geom.kernel_w);
    std::vector<ExtractOp> ops;
    std::vector<ExtractParam> params;
    const int gap = run == 0 ? 0 : int(rng.Below(50)), stall = run == 0 ? 0 : int(rng.Below(50));
    auto chance = [&rng](int pct) { return [&rng, pct] { return int(rng.Below(100)) < pct; }; };
    b.drv.Run(e.words, e.ops.size(), e.params.size(), chance(gap), chance(stall), chance(stall), &ops, &params);
    Compare(e, ops, params, "run " + std::to_string(run));
  }
}

TEST(RtlKernelExtract, XSeedsDoNotChangeAnyOperation) {
  for (uint32_t x_seed : {1u, 99u, 0xC0FFEEu}) {
    test::Rng rng(0x77);
    const oracle::ConvGeometry geom = test::WindowShape(3, 3, 3);
    Expect e;
    for (KernelFormat f : {KernelFormat::kFp16, KernelFormat::kInt8Sym, KernelFormat::kPalette, KernelFormat::kRaw8,
                           KernelFormat::kRaw4}) {
      AddGroup(&e, RandomGroup(rng, geom.Steps(), f, true, 1, 4, 90), geom);
    }
    Bench b(x_seed);
    b.drv.Configure(3, 3, 3);
    std::vector<ExtractOp> ops;
    std::vector<ExtractParam> params;
    auto chance = [&rng](int pct) { return [&rng, pct] { return int(rng.Below(100)) < pct; }; };
    b.drv.Run(e.words, e.ops.size(), e.params.size(), chance(20), chance(20), chance(20), &ops, &params);
    Compare(e, ops, params, "x seed " + std::to_string(x_seed));
  }
}

// ---- cycle figures ----

// Full rate (no gaps, no stalls): the header takes one cycle per word (a parameter record of two
// words one cycle), then one operation per
// cycle, a quad whose every block is skipped one cycle; the first operation appears two cycles
// after its bits are in the buffer.
uint64_t RunCycles(const Expect& e, ExtractStats* st, const oracle::ConvGeometry& geom) {
  Bench b;
  b.drv.Configure(geom.channels, geom.kernel_h, geom.kernel_w);
  std::vector<ExtractOp> ops;
  std::vector<ExtractParam> params;
  auto never = [] { return false; };
  b.drv.Run(e.words, e.ops.size(), e.params.size(), never, never, never, &ops, &params, st);
  Compare(e, ops, params, "cycles");
  return st->cycles;
}

TEST(RtlKernelExtract, CyclesOneOperationPerCycleAndSparseSkipsSaveCycles) {
  test::Rng rng(0xC1C);
  const oracle::ConvGeometry geom = test::WindowShape(16, 3, 3);  // K = 144, 36 quads
  for (int r : {1, 8}) {
    // Dense fp16, `per` kernels per slot: operations back to back after the one header word
    // (four-kernel: one operation of four values, 64 bits, the whole stream beat, per cycle).
    // First beat accepted at cycle 0, header parsed at 1, first operation issued at 2, out at 6.
    auto dense_cycles = [&](int per) {
      Expect e;
      AddGroup(&e, RandomGroup(rng, geom.Steps(), KernelFormat::kFp16, false, per, r, 0), geom);
      ExtractStats st;
      RunCycles(e, &st, geom);
      EXPECT_EQ(st.op_cycles, e.ops.size()) << per << " kernel(s) per slot, R " << r;
      EXPECT_EQ(st.cycles, e.header_cycles + e.ops.size() + 5) << per << " kernel(s) per slot, R " << r;
      return st;
    };
    const ExtractStats sd = dense_cycles(1);
    // Sparse (90 % zero, zero runs in whole quads): fewer cycles by the skipped operations.
    Expect sparse;
    KernelGroup g;
    do {
      sparse = Expect();
      g = RandomGroup(rng, geom.Steps(), KernelFormat::kFp16, true, 1, r, 90);
      AddGroup(&sparse, g, geom);
    } while (sparse.skipped_blocks == 0);
    ExtractStats ss;
    RunCycles(sparse, &ss, geom);
    EXPECT_EQ(ss.cycles, sparse.header_cycles + sparse.ops.size() + sparse.idle_quads + 5) << "R " << r;
    EXPECT_LT(ss.cycles, sd.cycles);
    RecordProperty("dense_cycles_r" + std::to_string(r), int(sd.cycles));
    RecordProperty("sparse_cycles_r" + std::to_string(r), int(ss.cycles));
    const ExtractStats sf = dense_cycles(4);
    RecordProperty("four_kernel_cycles_r" + std::to_string(r), int(sf.cycles));
  }
}

}  // namespace
}  // namespace ane
