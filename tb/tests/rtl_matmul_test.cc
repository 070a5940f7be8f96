// SPDX-License-Identifier: Apache-2.0
// Matrix multiply through the 256-lane RTL array (harness::RtlMatmul, used by `ane --engine
// rtl|both`) against the oracle's Matmul, exact bits (NUMERICS N-2, N-7.2): every input mix,
// shapes that do and do not fill the lanes and slots, both mappings, both generations; the
// cycle count of a full-rate pass; and the stage report of a deliberate fault. The int4 packed
// mapping (N-2.8) against the oracle's MatmulInt4 (MacLane's kInt4 steps), the same way.
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

// ---- int4 packed (N-2.8) ----

// An int8 matrix of int4 values, the ends -8 and 7 one draw in four.
Matrix RandomInt4(test::Rng& rng, int64_t rows, int64_t cols) {
  Matrix m{ElemType::kInt8, rows, cols, {}};
  for (int64_t i = 0; i < rows * cols; ++i) {
    const uint32_t d = rng.Below(8);
    const int v = d == 0 ? -8 : d == 1 ? 7 : int(rng.Below(16)) - 8;
    m.codes.push_back(uint16_t(v & 0xFF));
  }
  return m;
}

harness::RtlMatmulResult RunInt4(const Matrix& a, const Matrix& b, Generation gen, harness::DataFault fault = {}) {
  harness::RtlMatmulOptions options;
  options.int4 = true;
  options.fault = fault;
  return harness::RtlMatmul(a, b, gen, options);
}

// Shapes that fill one tile of 1024 rows, spill into a second, leave groups of four part empty,
// and K = 1 with many columns (a pass's reads right behind the next passes' writes).
TEST(RtlMatmul, N2_8_Int4PackedMatmulOnTheArrayMatchesTheOracle) {
  const uint64_t seed = test::TestSeed(9201);
  SCOPED_TRACE(test::SeedNote(seed));
  test::Rng rng(seed);
  const int64_t shapes[][3] = {{1024, 64, 2}, {1030, 37, 3}, {5, 1, 1}, {2048, 5, 4}, {7, 1, 9}, {255, 2, 5}};
  for (const auto& [m, k, n] : shapes) {
    for (const Generation gen : {Generation::kM1, Generation::kM5}) {
      SCOPED_TRACE("shape " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n));
      const Matrix a = RandomInt4(rng, m, k);
      const Matrix b = RandomInt4(rng, k, n);
      const oracle::MatmulResult want = oracle::MatmulInt4(a, b, gen);
      const harness::RtlMatmulResult got = RunInt4(a, b, gen);
      ASSERT_TRUE(got.y.is_int);
      EXPECT_TRUE(got.stats.int4);
      EXPECT_EQ(got.y.int32, want.int32);
      EXPECT_EQ(got.y.saturated_count, want.saturated_count);
      for (size_t i = 0; i < got.raw.size(); ++i) ASSERT_EQ(got.raw[i], uint32_t(want.int32[i])) << "element " << i;
      EXPECT_EQ(got.stats.macs, uint64_t(m * k * n));
    }
  }
}

// Each of a lane's four rows has its own result: row r of a is the constant (r % 16) - 8 and
// b = [1, -1] over K = 3, so y[r] = [3 v, -3 v] with v = (r % 16) - 8, worked by hand.
TEST(RtlMatmul, N2_8_Int4EverySlotOfAGroupCarriesItsOwnRow) {
  Matrix a{ElemType::kInt8, 1024, 3, {}};
  for (int64_t r = 0; r < a.rows; ++r) {
    for (int k = 0; k < 3; ++k) a.codes.push_back(uint16_t(((r % 16) - 8) & 0xFF));
  }
  const Matrix b{ElemType::kInt8, 3, 2, {1, 0xFF, 1, 0xFF, 1, 0xFF}};
  const harness::RtlMatmulResult got = RunInt4(a, b, Generation::kM1);
  for (int64_t r = 0; r < a.rows; ++r) {
    const int32_t v = int32_t(r % 16) - 8;
    ASSERT_EQ(got.y.int32[size_t(2 * r)], 3 * v) << "row " << r;
    ASSERT_EQ(got.y.int32[size_t(2 * r + 1)], -3 * v) << "row " << r;
  }
}

// Timing (docs/mac_lane.md, "Timing"): one operation per cycle within a pass. A pass's first
// operation waits 3 cycles for the previous pass's last one (both need the back of their
// position) plus one per empty place of that pass's last quad (a part quad completes at a whole
// quad's position): 3 + (4 - K % 4) % 4. The last result leaves 11 cycles after its quad's
// position and slots base + 1..3 leave in the 3 cycles after it, so P passes take
// P (4 ceil(K / 4) + 3) + 11 cycles: 2K + 17 for [1024, K] x [K, 2] when K % 4 = 0.
TEST(RtlMatmul, N2_8_Int4PassesRunAtOneOperationPerCycle) {
  test::Rng rng(77);
  for (const int64_t k : {int64_t{64}, int64_t{65}, int64_t{67}}) {
    for (const int64_t n : {int64_t{1}, int64_t{2}, int64_t{3}}) {
      SCOPED_TRACE("K = " + std::to_string(k) + ", N = " + std::to_string(n));
      const Matrix a = RandomInt4(rng, 1024, k);
      const Matrix b = RandomInt4(rng, k, n);
      const harness::RtlMatmulResult r = RunInt4(a, b, Generation::kM1);
      const uint64_t quads = uint64_t(k + 3) / 4;
      EXPECT_EQ(r.stats.operations, uint64_t(n * k));
      EXPECT_EQ(r.stats.stall_cycles, uint64_t(n - 1) * (3 + (4 - uint64_t(k % 4)) % 4));
      EXPECT_EQ(r.stats.cycles, uint64_t(n) * (4 * quads + 3) + 11);
      EXPECT_EQ(r.y.int32, oracle::MatmulInt4(a, b, Generation::kM1).int32);
    }
  }
}

TEST(RtlMatmul, N2_8_Int4RefusesFp16AndOutOfRangeValues) {
  const Matrix b{ElemType::kInt8, 2, 1, {1, 1}};
  const auto message = [&](const Matrix& a, const Matrix& bb) {
    try {
      RunInt4(a, bb, Generation::kM1);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(Matrix{ElemType::kInt8, 1, 2, {7, 0xF7}}, b), "RtlMatmul: int4 needs values -8..7; a[0, 1] = -9");
  EXPECT_EQ(message(Matrix{ElemType::kInt8, 1, 2, {7, 0xF8}}, Matrix{ElemType::kInt8, 2, 1, {1, 8}}),
            "RtlMatmul: int4 needs values -8..7; b[1, 0] = 8");
  EXPECT_EQ(message(Matrix{ElemType::kFp16, 1, 2, {0, 0}}, b),
            "RtlMatmul: int4 takes int8 matrices (values -8..7); a is fp16");
}

// A deliberate fault in an int4 value (its lowest bit flipped) is found in its own row only,
// and the replay of the row's group of four names the quad it entered.
TEST(RtlMatmul, N2_8_Int4FaultIsReportedWithItsStage) {
  Matrix a{ElemType::kInt8, 8, 12, std::vector<uint16_t>(8 * 12, 0)};
  a.codes[5 * 12 + 6] = 1;
  const Matrix b{ElemType::kInt8, 12, 3, std::vector<uint16_t>(12 * 3, 1)};
  const harness::DataFault fault{5, 6};
  const harness::RtlMatmulResult r = RunInt4(a, b, Generation::kM1, fault);
  for (size_t i = 0; i < r.y.int32.size(); ++i) EXPECT_EQ(r.y.int32[i], 0) << "element " << i;  // 1 became 0
  EXPECT_EQ(oracle::MatmulInt4(a, b, Generation::kM1).int32[5 * 3], 1);
  const harness::StageReport bad = harness::LocateMismatch(a, b, Generation::kM1, 5, 0, fault, /*int4=*/true);
  EXPECT_EQ(bad.stage, "quad and accumulate (N-2.4, N-2.5)");
  EXPECT_NE(bad.detail.find("k = 4..7"), std::string::npos) << bad.detail;
  EXPECT_EQ(harness::LocateMismatch(a, b, Generation::kM1, 4, 0, {}, true).stage, "array");
  EXPECT_EQ(harness::LocateMismatch(a, b, Generation::kM1, 5, 0, {}, true).stage, "array");
}

}  // namespace
}  // namespace ane
