// SPDX-License-Identifier: Apache-2.0
// Matrix multiply through the 256-lane RTL array (harness::RtlMatmul, used by `ane --engine
// rtl|both`) against the oracle's Matmul, exact bits (NUMERICS N-2, N-7.2): every input mix,
// shapes that do and do not fill the lanes and slots, both mappings, both generations; the
// cycle count of a full-rate pass; and the stage report of a deliberate fault.
#include <gtest/gtest.h>

#include "tb/harness/mac_array_matmul.h"
#include "tb/oracle/mac.h"
#include "tb/tests/mac_stimulus.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using oracle::ElemType;
using oracle::Generation;
using oracle::Matrix;

Matrix RandomMatrix(test::Rng& rng, ElemType type, int64_t rows, int64_t cols) {
  Matrix m;
  m.type = type;
  m.rows = rows;
  m.cols = cols;
  const uint16_t anchor = uint16_t(rng.Code() & 0xFBFF);
  for (int64_t i = 0; i < rows * cols; ++i) {
    m.codes.push_back(type == ElemType::kInt8 ? uint16_t(rng.Code() & 0xFF) : test::RandomOperand(rng, anchor));
  }
  return m;
}

struct Shape {
  ElemType a, b;
  int64_t m, k, n;
};

void CheckMatmul(const Shape& s, Generation gen, uint64_t seed, bool allow_two_kernel = true) {
  SCOPED_TRACE(test::SeedNote(seed));
  SCOPED_TRACE("shape " + std::to_string(s.m) + "x" + std::to_string(s.k) + "x" + std::to_string(s.n));
  test::Rng rng(seed);
  const Matrix a = RandomMatrix(rng, s.a, s.m, s.k);
  const Matrix b = RandomMatrix(rng, s.b, s.k, s.n);
  const oracle::MatmulResult want = oracle::Matmul(a, b, gen);
  harness::RtlMatmulOptions options;
  options.allow_two_kernel = allow_two_kernel;
  const harness::RtlMatmulResult got = harness::RtlMatmul(a, b, gen, options);
  ASSERT_EQ(got.y.is_int, want.is_int);
  EXPECT_EQ(got.y.fp16, want.fp16);
  EXPECT_EQ(got.y.int32, want.int32);
  EXPECT_EQ(got.y.saturated_count, want.saturated_count);
  EXPECT_EQ(got.stats.macs, uint64_t(s.m * s.k * s.n));
}

TEST(RtlMatmul, N2_EveryInputMixMatchesTheOracle) {
  const uint64_t seed = test::TestSeed(9001);
  const ElemType f = ElemType::kFp16, i = ElemType::kInt8;
  for (const Shape& s : {Shape{f, f, 300, 37, 11}, Shape{i, i, 257, 64, 9}, Shape{i, f, 100, 23, 17},
                         Shape{f, i, 256, 5, 8}, Shape{f, f, 1, 1, 1}, Shape{f, f, 90, 130, 33}}) {
    CheckMatmul(s, Generation::kM1, seed + uint64_t(s.m + s.n));
    CheckMatmul(s, Generation::kM5, seed + uint64_t(s.m + s.n) + 1);
  }
}

TEST(RtlMatmul, N2_BroadcastAndTwoKernelMappingsAgree) {
  const uint64_t seed = test::TestSeed(9101);
  const Shape s{ElemType::kFp16, ElemType::kFp16, 128, 19, 16};
  CheckMatmul(s, Generation::kM1, seed, /*allow_two_kernel=*/true);
  CheckMatmul(s, Generation::kM1, seed, /*allow_two_kernel=*/false);
}

// One operation per cycle: an aligned pass (256 rows, 8 columns) takes K x 8 cycles plus the
// pipeline's latency of 11; the two-kernel mapping fills the lanes when M = 128.
TEST(RtlMatmul, N2_AlignedShapesRunAtOneOperationPerCycle) {
  test::Rng rng(5);
  const Matrix a = RandomMatrix(rng, ElemType::kFp16, 256, 64);
  const Matrix b = RandomMatrix(rng, ElemType::kFp16, 64, 8);
  const harness::RtlMatmulResult r = harness::RtlMatmul(a, b, Generation::kM1);
  EXPECT_FALSE(r.stats.two_kernel);
  EXPECT_EQ(r.stats.operations, 64u * 8u);
  EXPECT_EQ(r.stats.stall_cycles, 0u);
  EXPECT_EQ(r.stats.cycles, 64u * 8u + 11u);
  const Matrix a2 = RandomMatrix(rng, ElemType::kFp16, 128, 64);
  const Matrix b2 = RandomMatrix(rng, ElemType::kFp16, 64, 16);
  const harness::RtlMatmulResult r2 = harness::RtlMatmul(a2, b2, Generation::kM1);
  EXPECT_TRUE(r2.stats.two_kernel);
  EXPECT_EQ(r2.stats.stall_cycles, 0u);
  EXPECT_EQ(r2.stats.cycles, 64u * 8u + 11u);
  EXPECT_EQ(r2.y.fp16, oracle::Matmul(a2, b2, Generation::kM1).fp16);
}

// A deliberate fault is found, and the replay names the quad it entered.
TEST(RtlMatmul, N2_FaultIsReportedWithItsStage) {
  // a = 0 but a[5, 6] = 1.0, b = 1.0: the fault makes y[5, :] = 1 + 2^-10 instead of 1.
  Matrix a{ElemType::kFp16, 8, 12, std::vector<uint16_t>(8 * 12, 0)};
  a.codes[5 * 12 + 6] = 0x3C00;
  const Matrix b{ElemType::kFp16, 12, 3, std::vector<uint16_t>(12 * 3, 0x3C00)};
  harness::RtlMatmulOptions options;
  options.fault = {5, 6};
  const harness::RtlMatmulResult r = harness::RtlMatmul(a, b, Generation::kM1, options);
  const oracle::MatmulResult want = oracle::Matmul(a, b, Generation::kM1);
  for (size_t i = 0; i < want.fp16.size(); ++i) {
    EXPECT_EQ(r.y.fp16[i], i / 3 == 5 ? 0x3C01 : want.fp16[i]) << "element " << i;
  }
  const harness::StageReport bad = harness::LocateMismatch(a, b, Generation::kM1, 5, 0, options.fault);
  EXPECT_EQ(bad.stage, "quad and accumulate (N-2.4, N-2.5)");
  EXPECT_NE(bad.detail.find("k = 4..7"), std::string::npos) << bad.detail;
  const harness::StageReport good = harness::LocateMismatch(a, b, Generation::kM1, 4, 0);
  EXPECT_EQ(good.stage, "array");
}

}  // namespace
}  // namespace ane
