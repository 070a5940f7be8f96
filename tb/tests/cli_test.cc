// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of build/ane: each test writes its files into a fresh temporary folder,
// runs the binary there and checks the exit code, stdout, stderr and the files left behind.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tb/cli/npy.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/elementwise.h"
#include "tb/tests/cli_fixture.h"
#include "tb/tests/test_seed.h"

namespace ane::cli {
namespace {

namespace fs = std::filesystem;
using test::CliTest;
using test::HostFp16;
using test::Lines;
using test::Quote;
using test::ReadText;
using test::Result;

TEST_F(CliTest, MinimalFormWritesTheExactProduct) {
  WriteFp16Inputs();
  Write("op.yaml", kMinimal);
  const Result r = Ane({"run", "op.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const Tensor y = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(y.dtype, DType::kFp16);
  EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(y.bits, (std::vector<uint32_t>{0x4CC0, 0x4D80, 0x5160, 0x5240}));  // 19 22 43 50
  EXPECT_EQ(ReadText(work_ / "y.npy").substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  EXPECT_NE(r.out.find("min 19  max 50  +inf 0  -inf 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max 0 ulp, 0 of 4 outputs differ"), std::string::npos) << r.out;
}

TEST_F(CliTest, Int8TimesInt8WritesInt32) {
  WriteNpy("a.npy", Tensor{DType::kInt8, {1, 2}, {0x80, 0x80}});  // -128, -128
  WriteNpy("b.npy", Tensor{DType::kInt8, {2, 1}, {0x80, 0x7F}});  // -128, 127
  Write("op.yaml", kMinimal);
  const Result r = Ane({"run", "op.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Tensor y = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(y.dtype, DType::kInt32);
  EXPECT_EQ(y.bits, std::vector<uint32_t>{128});  // 16384 - 16256
  EXPECT_NE(ReadText(work_ / "y.npy").find("'descr': '<i4'"), std::string::npos);
}

TEST_F(CliTest, SummaryCountsInfinitiesAndUlpsFromTheReference) {
  // [16384, 16384] . [1, 1] = 32768: fp16 holds it, but the port ceiling (N-2.6) gives +inf.
  Write("op.yaml", "{op: matmul, inputs: {a: {values: [16384, 16384]}, b: {values: [1, 1]}}}\n");
  const Result r = Ane({"run", "op.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("+inf 1  -inf 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max 1024 ulp, 1 of 1 outputs differ"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("differences are expected"), std::string::npos) << r.out;
}

TEST_F(CliTest, RelativePathsResolveAgainstTheYamlFile) {
  WriteNpy("ops/a.npy", Tensor{DType::kFp16, {1, 1}, {0x4000}});
  WriteNpy("ops/b.npy", Tensor{DType::kFp16, {1, 1}, {0x4200}});
  Write("ops/op.yaml", kMinimal);
  const fs::path elsewhere = MakeTempDir("ane_cli_cwd_");
  const Result r = Ane({"run", (work_ / "ops" / "op.yaml").string()}, elsewhere);
  const bool stray = fs::exists(elsewhere / "y.npy");
  fs::remove_all(elsewhere);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(stray);
  EXPECT_EQ(ReadNpy(work_ / "ops" / "y.npy").bits, std::vector<uint32_t>{0x4600});  // 2 x 3 = 6
}

TEST_F(CliTest, OutDirTakesRelativeOutputs) {
  WriteFp16Inputs();
  Write("op.yaml", kMinimal);
  fs::create_directory(work_ / "out");
  const Result r = Ane({"run", "op.yaml", "--out-dir", "out"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(work_ / "out" / "y.npy"));
  EXPECT_FALSE(fs::exists(work_ / "y.npy"));
  // A directory that does not exist yet is made, with its parents.
  const Result made = Ane({"run", "op.yaml", "--out-dir=new/deeper"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_TRUE(fs::exists(work_ / "new" / "deeper" / "y.npy"));
  const Result slash = Ane({"run", "op.yaml", "--out-dir=made/"});  // a trailing separator too
  ASSERT_EQ(slash.exit_code, 0) << slash.err;
  EXPECT_TRUE(fs::exists(work_ / "made" / "y.npy"));
  // A path through a file cannot be made: refused, one line, nothing written.
  Write("plain", "not a directory");
  for (const char* bad : {"--out-dir=plain", "--out-dir=plain/sub"}) {
    const Result refused = Ane({"run", "op.yaml", bad});
    EXPECT_EQ(refused.exit_code, 2) << bad;
    EXPECT_EQ(Lines(refused.err).size(), 1u) << refused.err;
    EXPECT_NE(refused.err.find("plain"), std::string::npos) << refused.err;
  }
  EXPECT_FALSE(fs::exists(work_ / "plain" / "sub"));
}

// ---- every class of bad input gives exit 2, one line naming file and field ----

TEST_F(CliTest, MalformedYamlIsRejected) {
  WriteFp16Inputs();
  Write("op.yaml", "{op: matmul, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "line 2, column 1", "malformed YAML");
}

// Input handling (the fuzzers' findings, end to end): each is one line and exit 2, where `ane`
// ran out of memory, overflowed its stack or wrote a corrupt file before.
TEST_F(CliTest, InputHandlingFuzzFindingsExitTwoWithOneLine) {
  WriteFp16Inputs();
  // A stray comma after the top-level map: yaml-cpp 0.7 reads empty documents without end.
  Write("op.yaml", "{op: matmul, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}},\n");
  const Result comma = Ane({"run", "op.yaml"});
  EXPECT_EQ(comma.exit_code, 2) << comma.err;
  ASSERT_EQ(Lines(comma.err).size(), 1u) << comma.err;
  EXPECT_EQ(comma.err.rfind("ane: error: op.yaml: line 1, column ", 0), 0u) << comma.err;
  EXPECT_NE(comma.err.find("malformed YAML: the parser cannot go on from here"), std::string::npos) << comma.err;
  EXPECT_FALSE(fs::exists(work_ / "y.npy"));
  // A list that holds itself through an alias.
  Write("op.yaml",
        "{op: elementwise, function: abs, inputs: {x: {values: &a [1, {repeat: *a, times: 2}]}}, "
        "outputs: {y: y.npy}}\n");
  const Result alias = Ane({"run", "op.yaml"});
  EXPECT_EQ(alias.exit_code, 2) << alias.err;
  EXPECT_EQ(Lines(alias.err).size(), 1u) << alias.err;
  EXPECT_NE(alias.err.find("nested more than 8 deep"), std::string::npos) << alias.err;
  EXPECT_FALSE(fs::exists(work_ / "y.npy"));
  // An output of 2^32 elements from two inputs of 2^16.
  Write("op.yaml",
        "{op: matmul, inputs: {a: {generate: {distribution: ones, shape: [65536, 1]}}, "
        "b: {generate: {distribution: ones, shape: [1, 65536]}}}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs", "more than 2^28 elements");
}

TEST_F(CliTest, UnknownFieldIsRejected) {
  WriteFp16Inputs();
  Write("op.yaml", "{op: matmul, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}, engine: rtl}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "engine", "unknown field");
  Write("op.yaml",
        "{op: matmul, inputs: {a: {generate: {distribution: ones, shape: [2, 2], mean: 1}}, "
        "b: b.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.a.generate.mean", "unknown field");
}

TEST_F(CliTest, MissingRequiredFieldIsRejected) {
  WriteFp16Inputs();
  Write("op.yaml", "{op: matmul, inputs: {a: a.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.b", "missing required field");
}

TEST_F(CliTest, MissingNpyIsRejected) {
  WriteFp16Inputs();
  Write("op.yaml", "{op: matmul, inputs: {a: a.npy, b: absent.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.b", "absent.npy: cannot read");
}

TEST_F(CliTest, MalformedNpyIsRejected) {
  WriteFp16Inputs();
  const std::string good = EncodeNpy(Tensor{DType::kFp16, {2, 2}, {1, 2, 3, 4}});
  Write("a.npy", good.substr(0, good.size() - 1));  // one byte short
  Write("op.yaml", kMinimal);
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.a", "data is 7 bytes");
  Write("a.npy", "not numpy at all");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.a", "bad magic");
}

TEST_F(CliTest, WrongDtypeIsRejected) {
  WriteFp16Inputs();
  WriteNpy("b.npy", Tensor{DType::kInt32, {2, 2}, {1, 2, 3, 4}});
  Write("op.yaml", kMinimal);
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.b", "wrong dtype: int32");
}

TEST_F(CliTest, ShapeMismatchIsRejected) {
  WriteFp16Inputs();
  WriteNpy("b.npy", Tensor{DType::kFp16, {3, 2}, {1, 2, 3, 4, 5, 6}});
  Write("op.yaml", kMinimal);
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.b", "shape mismatch");
}

TEST_F(CliTest, ValueNotRepresentableInFp16IsRejected) {
  Write("op.yaml", "{op: matmul, inputs: {a: {values: [0.1]}, b: {values: [1]}}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.a.values[0]", "nearest: 0.0999755859375");
}

TEST_F(CliTest, MissingOutputDirectoryIsRejectedBeforeAnythingIsWritten) {
  WriteFp16Inputs();
  Write("op.yaml", "{op: matmul, inputs: {a: a.npy, b: b.npy}, outputs: {y: sub/y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "outputs.y", "does not exist");
  EXPECT_FALSE(fs::exists(work_ / "sub"));
}

TEST_F(CliTest, MissingYamlFileIsRejected) {
  const Result r = Ane({"run", "absent.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ane: error: absent.yaml: cannot read: No such file or directory\n");
}

// ---- usage ----

// N-2 through the 256-lane MAC array RTL: the same exact product as the oracle.
TEST_F(CliTest, RtlEngineWritesTheExactProduct) {
  WriteFp16Inputs();
  Write("op.yaml", kMinimal);
  const Result r = Ane({"run", "op.yaml", "--engine", "rtl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x4CC0, 0x4D80, 0x5160, 0x5240}));
  // one column pair, K = 2: the second product waits 3 cycles for the first (same slot), and
  // the result leaves 11 cycles after it (docs/mac_lane.md, "Timing")
  EXPECT_NE(r.out.find("rtl         256 lanes, two-kernel mapping: 2 operations, 16 cycles"), std::string::npos)
      << r.out;
}

TEST_F(CliTest, BothEnginesAgreeBitForBit) {
  WriteNpy("a.npy", Tensor{DType::kInt8, {1, 2}, {0x80, 0x80}});  // -128, -128
  WriteNpy("b.npy", Tensor{DType::kInt8, {2, 1}, {0x80, 0x7F}});  // -128, 127
  Write("op.yaml", kMinimal);
  const Result r = Ane({"run", "op.yaml", "--engine", "both"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{uint32_t(16384 - 16256)}));
  EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (1 outputs)"), std::string::npos) << r.out;
}

// A deliberate fault (ANE_FAULT) makes `both` fail, naming the element and its stage.
TEST_F(CliTest, BothEnginesReportTheFirstMismatchAndItsStage) {
  // a = [[0, 0, 0, 0, 0, 1]] x b = ones: the fault flips a[0, 5] to 1 + 2^-10.
  WriteNpy("a.npy", Tensor{DType::kFp16, {1, 6}, {0, 0, 0, 0, 0, 0x3C00}});
  WriteNpy("b.npy", Tensor{DType::kFp16, {6, 2}, std::vector<uint32_t>(12, 0x3C00)});
  Write("op.yaml", kMinimal);
  const Result r = Ane({"run", "op.yaml", "--engine", "both"}, {}, "ANE_FAULT=0,5");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("rtl vs oracle: MISMATCH at y[0, 0]: rtl 1.0009765625 (0x3c01), oracle 1 (0x3c00) "
                       "(2 of 2 outputs differ)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("stage       quad and accumulate (N-2.4, N-2.5): the accumulator first "
                       "differs after the quad of products k = 4..5"),
            std::string::npos)
      << r.out;
  const Result bad = Ane({"run", "op.yaml", "--engine", "both"}, {}, "ANE_FAULT=1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "ane: error: ANE_FAULT=1: expected ROW,K (two non-negative integers)\n");
}

// N-5 through `ane run`: the minimal activation form on both engines. Expected values
// are the chapter's facts: sigmoid clamps to 0 / 1 past its domain and maps NaN (= +inf,
// N-1.1) to 1; sigmoid(0) = 0.5 is a knot with an exact sample.
TEST_F(CliTest, ActivationMinimalFormOnBothEngines) {
  // x = [-10, 0, 10, NaN, -inf]
  WriteNpy("x.npy", Tensor{DType::kFp16, {5}, {0xC900, 0x0000, 0x4900, 0x7E00, 0xFC00}});
  Write("act.yaml", "{op: activation, function: sigmoid, generation: m1, inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  for (const char* engine : {"oracle", "rtl", "both"}) {
    const Result r = Ane({"run", "act.yaml", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << engine << r.err;
    EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x0000, 0x3800, 0x3C00, 0x3C00, 0x0000})) << engine;
  }
  const Result r = Ane({"run", "act.yaml", "--engine", "both"});
  EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (5 outputs)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rtl         post-processor, 8 lanes: 1 vectors"), std::string::npos) << r.out;
}

// N-5.3 / N-5.4 facts through the CLI: exp first returns inf at 11.09375; log(+0) is the
// -65504 sentinel; swish is silu.
TEST_F(CliTest, ActivationFactsOnTheRtl) {
  WriteNpy("x.npy", Tensor{DType::kFp16, {2}, {0x498C, 0x498B}});  // 11.09375, 11.0859375
  Write("exp.yaml", "{op: activation, function: exp, inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  const Result e = Ane({"run", "exp.yaml", "--engine", "both"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  const Tensor y = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(y.bits[0], 0x7C00u);
  EXPECT_NE(y.bits[1], 0x7C00u);
  WriteNpy("z.npy", Tensor{DType::kFp16, {1}, {0x0000}});
  Write("log.yaml", "{op: activation, function: log, inputs: {x: z.npy}, outputs: {y: y.npy}}\n");
  ASSERT_EQ(Ane({"run", "log.yaml", "--engine", "rtl"}).exit_code, 0);
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, std::vector<uint32_t>{0xFBFF});
  Write("swish.yaml", "{op: activation, function: swish, inputs: {x: z.npy}, outputs: {y: y.npy}}\n");
  const Result s = Ane({"run", "swish.yaml", "--engine", "both"});
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("bit-identical"), std::string::npos) << s.out;
}

TEST_F(CliTest, ActivationBadInputsAreRejected) {
  WriteNpy("x.npy", Tensor{DType::kFp16, {1}, {0x3C00}});
  Write("op.yaml", "{op: activation, function: mish, inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "function", "unknown function 'mish'");
  Write("op.yaml", "{op: activation, inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "function", "");
  WriteNpy("i.npy", Tensor{DType::kInt8, {1}, {1}});
  Write("op.yaml", "{op: activation, function: tanh, inputs: {x: i.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.x", "wrong dtype: int8");
}

// N-4.1 / N-4.3 through `ane run`: the minimal elementwise form for every binary
// function on both engines, with expected values by hand (NaN enters as +inf, N-1.1; -0 as +0,
// N-1.2; inf - inf = +0, N-4.2).
TEST_F(CliTest, ElementwiseMinimalFormOnBothEngines) {
  // a = [1.5, -2, NaN, inf, -0], b = [2, 0.25, 1, inf, 0]
  WriteNpy("a.npy", Tensor{DType::kFp16, {5}, {0x3E00, 0xC000, 0x7E00, 0x7C00, 0x8000}});
  WriteNpy("b.npy", Tensor{DType::kFp16, {5}, {0x4000, 0x3400, 0x3C00, 0x7C00, 0x0000}});
  const std::map<std::string, std::vector<uint32_t>> want = {
      {"add", {0x4300, 0xBF00, 0x7C00, 0x7C00, 0x0000}},  // 3.5, -1.75, inf, inf, +0
      {"sub", {0xB800, 0xC080, 0x7C00, 0x0000, 0x0000}},  // -0.5, -2.25, inf, +0, +0
      {"mul", {0x4200, 0xB800, 0x7C00, 0x7C00, 0x0000}},  // 3, -0.5, inf, inf, +0
      {"max", {0x4000, 0x3400, 0x7C00, 0x7C00, 0x0000}},     {"min", {0x3E00, 0xC000, 0x3C00, 0x7C00, 0x0000}},
      {"compare", {0xBC00, 0xBC00, 0x3C00, 0x0000, 0x0000}},
  };
  for (const auto& [fn, y] : want) {
    Write("ew.yaml", "{op: elementwise, function: " + fn +
                         ", generation: m1, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}}\n");
    for (const char* engine : {"oracle", "rtl", "both"}) {
      const Result r = Ane({"run", "ew.yaml", "--engine", engine});
      ASSERT_EQ(r.exit_code, 0) << fn << " " << engine << r.err;
      EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, y) << fn << " " << engine;
    }
  }
  const Result r = Ane({"run", "ew.yaml", "--engine", "both"});
  EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (5 outputs)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("planar engine (ane_planar), 16 lanes: 1 task, 2 source beats read, 1 result beats written"),
            std::string::npos)
      << r.out;
}

// Unary and ternary functions: abs(-0) = +0, neg(+0) = -0 (IEEE), relu, square overflows at
// 256 (N-5.3's fact), and a + b*c rounds the product first (N-4.3).
TEST_F(CliTest, ElementwiseUnaryAndTernaryFunctions) {
  WriteNpy("x.npy", Tensor{DType::kFp16, {4}, {0x8000, 0x0000, 0xC000, 0x5C00}});  // -0, +0, -2, 256
  const std::map<std::string, std::vector<uint32_t>> want = {
      {"abs", {0x0000, 0x0000, 0x4000, 0x5C00}},
      {"neg", {0x8000, 0x8000, 0x4000, 0xDC00}},
      {"relu", {0x0000, 0x0000, 0x0000, 0x5C00}},
      {"square", {0x0000, 0x0000, 0x4400, 0x7C00}},
  };
  for (const auto& [fn, y] : want) {
    Write("u.yaml", "{op: elementwise, function: " + fn + ", inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
    const Result r = Ane({"run", "u.yaml", "--engine", "both"});
    ASSERT_EQ(r.exit_code, 0) << fn << r.err;
    EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, y) << fn;
  }
  // 1 + 683 * 3: the product 2049 is not an fp16 value and rounds to 2048 (a tie, to even)
  // before the add; 1 + 2048 = 2049 ties to 2048 again. Rounded once, 1 + 2049 = 2050.
  WriteNpy("a.npy", Tensor{DType::kFp16, {1}, {0x3C00}});
  WriteNpy("b.npy", Tensor{DType::kFp16, {1}, {0x6156}});  // 683
  WriteNpy("c.npy", Tensor{DType::kFp16, {1}, {0x4200}});  // 3
  Write("t.yaml",
        "{op: elementwise, function: multiply_add, inputs: {a: a.npy, b: b.npy, c: c.npy}, "
        "outputs: {y: y.npy}}\n");
  const Result t = Ane({"run", "t.yaml", "--engine", "both"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, std::vector<uint32_t>{0x6800});  // 2048
  EXPECT_NE(t.out.find("vs fp64     y: max 1 ulp"), std::string::npos) << t.out;
}

TEST_F(CliTest, ElementwiseBadInputsAreRejected) {
  WriteNpy("a.npy", Tensor{DType::kFp16, {2}, {0x3C00, 0x3C00}});
  WriteNpy("b3.npy", Tensor{DType::kFp16, {3}, {0x3C00, 0x3C00, 0x3C00}});
  WriteNpy("i.npy", Tensor{DType::kInt8, {2}, {1, 2}});
  Write("op.yaml", "{op: elementwise, function: div, inputs: {a: a.npy, b: a.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "function", "unknown function 'div'");
  Write("op.yaml", "{op: elementwise, function: add, inputs: {a: a.npy, b: b3.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.b", "shape mismatch");
  Write("op.yaml", "{op: elementwise, function: mul, inputs: {a: a.npy, b: i.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.b", "wrong dtype: int8");
  Write("op.yaml", "{op: elementwise, function: abs, inputs: {a: a.npy}}\n");  // unary: x
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.a", "unknown field (did you mean 'x'?)");
}

// N-4.4 / N-4.5 through `ane run` on both engines, expected values by hand.
TEST_F(CliTest, ReduceAndPoolOnBothEngines) {
  // x [2, 2, 3]: channel 0 = [[1, 2, 3], [4, 5, 6]], channel 1 = [[-1, 0.5, 8], [NaN, 0, 0]].
  WriteNpy("x.npy",
           Tensor{DType::kFp16,
                  {2, 2, 3},
                  {0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0xBC00, 0x3800, 0x4800, 0x7E00, 0x0000, 0x0000}});
  struct Case {
    std::string fn, axis;
    std::vector<uint32_t> y;
  };
  const std::vector<Case> cases = {
      {"sum", "rows", {0x4600, 0x4B80, 0x4780, 0x7C00}},                      // 6, 15, 7.5, inf (NaN = +inf)
      {"sum", "columns", {0x4500, 0x4700, 0x4880, 0x7C00, 0x3800, 0x4800}},   // 5, 7, 9, inf, 0.5, 8
      {"max", "planes", {0x4600, 0x7C00}},                                    // 6, inf
      {"min", "channels", {0xBC00, 0x3800, 0x4200, 0x4400, 0x0000, 0x0000}},  // -1, 0.5, 3, 4, 0, 0
  };
  for (const Case& c : cases) {
    Write("r.yaml",
          "{op: reduce, function: " + c.fn + ", axis: " + c.axis + ", inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
    for (const char* engine : {"oracle", "both"}) {
      const Result r = Ane({"run", "r.yaml", "--engine", engine});
      ASSERT_EQ(r.exit_code, 0) << c.fn << " " << c.axis << r.err;
      EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, c.y) << c.fn << " " << c.axis << " " << engine;
    }
  }
  // Edge-correct mean: 2x2 windows, stride 2, padding 1 over channel 0 ([[1, 2, 3], [4, 5, 6]]):
  // windows hold {1}, {2, 3}, {4}, {5, 6}: means 1, 2.5, 4, 5.5.
  WriteNpy("p.npy", Tensor{DType::kFp16, {2, 3}, {0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600}});
  Write("p.yaml",
        "{op: pool, function: mean, kernel: [2, 2], stride: [2, 2], padding: [1, 1], "
        "inputs: {x: p.npy}, outputs: {y: y.npy}}\n");
  const Result p = Ane({"run", "p.yaml", "--engine", "both"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x3C00, 0x4100, 0x4400, 0x4580}));
  EXPECT_NE(p.out.find("rtl vs oracle: bit-identical (4 outputs)"), std::string::npos) << p.out;
  // Bad geometry: a padding as large as the window.
  fs::remove(work_ / "y.npy");
  Write("p.yaml", "{op: pool, function: max, kernel: [2, 2], padding: [2, 0], inputs: {x: p.npy}}\n");
  ExpectInputError(Ane({"run", "p.yaml"}), "p.yaml", "inputs.x", "padding must be smaller than the window");
  Write("r.yaml", "{op: reduce, function: mean, axis: rows, inputs: {x: x.npy}}\n");
  ExpectInputError(Ane({"run", "r.yaml"}), "r.yaml", "function", "unknown function 'mean'");
}

// N-4.7 through `ane run`: the three softmax facts on both engines, expected values by hand,
// and bad inputs.
TEST_F(CliTest, SoftmaxFactsOnBothEngines) {
  // Row 0: four equal values -> four quarters; row 1: a NaN lane (+inf) takes all the mass;
  // row 2: a huge input does not overflow (exp(1 - 60000) and exp(-3 - 60000) are 0).
  WriteNpy("s.npy", Tensor{DType::kFp16,
                           {3, 4},
                           {0x4200, 0x4200, 0x4200, 0x4200,     // 3, 3, 3, 3
                            0x4000, 0x7E00, 0x4500, 0xBC00,     // 2, NaN, 5, -1
                            0x7B53, 0x3C00, 0xC200, 0x0000}});  // 60000, 1, -3, 0
  Write("s.yaml", "{op: softmax, inputs: {x: s.npy}, outputs: {y: y.npy}}\n");
  for (const char* engine : {"oracle", "both"}) {
    const Result r = Ane({"run", "s.yaml", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(ReadNpy(work_ / "y.npy").bits,
              (std::vector<uint32_t>{0x3400, 0x3400, 0x3400, 0x3400, 0, 0x3C00, 0, 0, 0x3C00, 0, 0, 0}))
        << engine;
  }
  // Over channels: each position's values across C.
  WriteNpy("c.npy", Tensor{DType::kFp16, {2, 1, 2}, {0x3C00, 0x4000, 0x3C00, 0x7C00}});  // [1, 2], [1, inf]
  Write("c.yaml", "{op: softmax, axis: channels, inputs: {x: c.npy}, outputs: {y: y.npy}}\n");
  const Result c = Ane({"run", "c.yaml", "--engine", "both"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x3800, 0, 0x3800, 0x3C00}));
  EXPECT_NE(c.out.find("rtl vs oracle: bit-identical (4 outputs)"), std::string::npos) << c.out;
  fs::remove(work_ / "y.npy");
  Write("c.yaml", "{op: softmax, axis: depth, inputs: {x: c.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "c.yaml"}), "c.yaml", "axis", "unknown axis 'depth'");
  WriteNpy("i.npy", Tensor{DType::kInt8, {4}, {1, 2, 3, 4}});
  Write("i.yaml", "{op: softmax, inputs: {x: i.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "i.yaml"}), "i.yaml", "inputs.x", "softmax inputs are fp16");
  EXPECT_FALSE(fs::exists(work_ / "y.npy"));
}

// N-4.1 through `ane run`: the planar engine's format converter, int8 -> fp16 with a scale and a
// bias per channel and fp16 -> int8 (RNE, clamped), on both engines; expected values by hand.
TEST_F(CliTest, N4_1_ConvertBetweenFp16AndInt8OnBothEngines) {
  // [[-128, -1, 127], [5, 0, 100]] x [0.5, 2] + [1, -1]: [-63, 0.5, 64.5], [9, -1, 199]
  WriteNpy("i.npy", Tensor{DType::kInt8, {2, 1, 3}, {0x80, 0xFF, 0x7F, 5, 0, 100}});
  Write("i.yaml", "{op: convert, scale: [0.5, 2], bias: [1, -1], inputs: {x: i.npy}, outputs: {y: y.npy}}\n");
  const Result i = Ane({"run", "i.yaml", "--engine", "both"});
  ASSERT_EQ(i.exit_code, 0) << i.err;
  EXPECT_EQ(ReadNpy(work_ / "y.npy").dtype, DType::kFp16);
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0xD3E0, 0x3800, 0x5408, 0x4880, 0xBC00, 0x5A38}));
  EXPECT_NE(i.out.find("rtl vs oracle: bit-identical (6 outputs)"), std::string::npos) << i.out;
  // [2.5, 3.5, -7, 300, -200] to int8: ties to even, 300 and -200 clamped
  WriteNpy("h.npy", Tensor{DType::kFp16, {5}, {0x4100, 0x4300, 0xC700, 0x5CB0, 0xDA40}});
  Write("h.yaml", "{op: convert, to: int8, inputs: {x: h.npy}, outputs: {y: y.npy}}\n");
  for (const char* engine : {"oracle", "both"}) {
    const Result h = Ane({"run", "h.yaml", "--engine", engine});
    ASSERT_EQ(h.exit_code, 0) << h.err;
    const Tensor y = ReadNpy(work_ / "y.npy");
    EXPECT_EQ(y.dtype, DType::kInt8);
    EXPECT_EQ(y.bits, (std::vector<uint32_t>{2, 4, 0xF9, 0x7F, 0x80})) << engine;
  }
  // relu after the bias, to int8: [2.5 - 3, 3.5 - 3, ...] = [-0.5 -> 0, 0.5 -> 0, -10 -> 0, 297 -> 127, 0]
  Write("r.yaml", "{op: convert, to: int8, bias: -3, unary: relu, inputs: {x: h.npy}, outputs: {y: y.npy}}\n");
  const Result r = Ane({"run", "r.yaml", "--engine", "both"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0, 0, 0, 0x7F, 0}));
  fs::remove(work_ / "y.npy");
  Write("b.yaml", "{op: convert, to: int4, inputs: {x: h.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", "to", "unknown format 'int4'");
  Write("b.yaml", "{op: convert, scale: inf, inputs: {x: h.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", "scale", "not a finite fp16 value");
  Write("b.yaml", "{op: convert, bias: [1, 2, 3], inputs: {x: i.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", "inputs.x", "2 channel(s) but scale has 1 value(s) and bias 3");
  Write("b.yaml", "{op: convert, unary: sqrt, inputs: {x: i.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", "unary", "unknown unary 'sqrt'");
}

// N-4.1 through `ane run`: every input may broadcast, a as well as b and c, to the shape of them
// all; shapes that do not broadcast are refused naming them.
TEST_F(CliTest, N4_1_ElementwiseBroadcastsEveryInput) {
  // a [2, 1, 1] = [1, 2], b [1, 3] = [10, 20, 30]: y [2, 1, 3] = [11, 21, 31, 12, 22, 32]
  Write("e.yaml",
        "{op: elementwise, function: add, inputs: {a: {shape: [2, 1, 1], values: [1, 2]}, "
        "b: {shape: [1, 3], values: [10, 20, 30]}}, outputs: {y: y.npy}}\n");
  const Result e = Ane({"run", "e.yaml", "--engine", "both"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  const Tensor y = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 1, 3}));
  EXPECT_EQ(y.bits, (std::vector<uint32_t>{0x4980, 0x4D40, 0x4FC0, 0x4A00, 0x4D80, 0x5000}));
  EXPECT_NE(e.out.find("rtl vs oracle: bit-identical (6 outputs)"), std::string::npos) << e.out;
  // a x (b + c) with a [3] broadcast over b [2, 3] and c [2, 1]
  Write("t.yaml",
        "{op: elementwise, function: add_multiply, inputs: {a: {shape: [3], values: [1, 2, 3]}, "
        "b: {shape: [2, 3], values: [1, 1, 1, 2, 2, 2]}, c: {shape: [2, 1], values: [2, -1]}}, "
        "outputs: {y: y.npy}}\n");
  const Result t = Ane({"run", "t.yaml", "--engine", "both"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  // (a + b) c: [4, 6, 8], [-3, -4, -5]
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x4400, 0x4600, 0x4800, 0xC200, 0xC400, 0xC500}));
  fs::remove(work_ / "y.npy");
  Write("m.yaml",
        "{op: elementwise, function: add, inputs: {a: {shape: [2, 3], values: [1, 2, 3, 4, 5, 6]}, "
        "b: {shape: [3, 3], values: [1, 2, 3, 4, 5, 6, 7, 8, 9]}}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "m.yaml"}), "m.yaml", "inputs.b", "a [2, 3], b [3, 3] do not broadcast");
}

// N-4.6 through `ane run`: a width slice with a nonzero begin multiplies by 16 on m1 (4094 ->
// 65504, 4096 -> inf), and copies on m5, at a zero begin and along another axis.
TEST_F(CliTest, N4_6_WidthSliceGainOnBothEngines) {
  // [[1, 2, 3, 4096], [5, 6, 7, 4094]]
  WriteNpy("x.npy", Tensor{DType::kFp16, {1, 2, 4}, {0x3C00, 0x4000, 0x4200, 0x6C00, 0x4500, 0x4600, 0x4700, 0x6BFF}});
  const std::pair<std::string, std::vector<uint32_t>> cases[] = {
      {"begin: 1", {0x5000, 0x5200, 0x7C00, 0x5600, 0x5700, 0x7BFF}},                  // x16 on m1
      {"begin: 1, generation: m5", {0x4000, 0x4200, 0x6C00, 0x4600, 0x4700, 0x6BFF}},  // no gain on m5
      {"end: 2", {0x3C00, 0x4000, 0x4500, 0x4600}},                                    // begin 0: no gain
      {"axis: -2, begin: 1", {0x4500, 0x4600, 0x4700, 0x6BFF}},                        // rows: no gain
  };
  for (const auto& [fields, want] : cases) {
    Write("s.yaml", "{op: slice, " + fields + ", inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
    const Result r = Ane({"run", "s.yaml", "--engine", "both"});
    ASSERT_EQ(r.exit_code, 0) << fields << ": " << r.err;
    EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, want) << fields;
    EXPECT_NE(r.out.find("rtl vs oracle: bit-identical"), std::string::npos) << r.out;
  }
  fs::remove(work_ / "y.npy");
  Write("s.yaml", "{op: slice, begin: 3, end: 3, inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "s.yaml"}), "s.yaml", "inputs.x", "begin 3 and end 3 are not a slice");
  Write("s.yaml", "{op: slice, axis: -3, inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  const Result c = Ane({"run", "s.yaml"});  // channels of [1, 2, 4]: the whole tensor, a copy
  EXPECT_EQ(c.exit_code, 0) << c.err;
  Write("s.yaml", "{op: slice, axis: 3, inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  fs::remove(work_ / "y.npy");
  ExpectInputError(Ane({"run", "s.yaml"}), "s.yaml", "axis", "");
}

// N-4.1's patch transpose through `ane run`: transpose on both engines. By hand, [[1, 2, 3],
// [4, 5, 6]] -> [[1, 4], [2, 5], [3, 6]] (the default perm, reversed). Then every perm of a
// [11, 5, 19] fp16 tensor holding NaN, -0, inf and denormals (11 channels: a group of 8 and a
// short one on the 16-lane engine's channels-last path when y's last axis is not x's W) and of
// an int8 tensor, each output checked element by element against the index formula
// y[i0, i1, i2] = x[i at perm]; bad perms refused.
TEST_F(CliTest, N4_1_TransposeOnBothEngines) {
  WriteNpy("x.npy", Tensor{DType::kFp16, {2, 3}, {0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600}});
  Write("t.yaml", "{op: transpose, inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  const Result h = Ane({"run", "t.yaml", "--engine", "both"});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const Tensor yh = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(yh.shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(yh.bits, (std::vector<uint32_t>{0x3C00, 0x4400, 0x4000, 0x4500, 0x4200, 0x4600}));
  EXPECT_NE(h.out.find("rtl vs oracle: bit-identical (6 outputs)"), std::string::npos) << h.out;
  const int64_t n[3] = {11, 5, 19};
  for (const bool int8 : {false, true}) {
    Tensor x{int8 ? DType::kInt8 : DType::kFp16, {n[0], n[1], n[2]}, {}};
    ane::test::Rng rng(int8 ? 8 : 16);
    for (int64_t i = 0; i < n[0] * n[1] * n[2]; ++i) {
      const uint32_t specials[] = {0x7E01, 0x8000, 0xFC00, 0x0001, 0x83FF};
      x.bits.push_back(int8 ? rng.Below(256) : i % 37 < 5 ? specials[i % 37] : rng.Below(0x7C00) | rng.Below(2) << 15);
    }
    WriteNpy("x.npy", x);
    const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (const auto& p : perms) {
      const std::string ps =
          "[" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) + "]";
      Write("t.yaml", "{op: transpose, perm: " + ps + ", inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
      const Result r = Ane({"run", "t.yaml", "--engine", "both"});
      ASSERT_EQ(r.exit_code, 0) << ps << ": " << r.err;
      EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (1045 outputs)"), std::string::npos) << ps << r.out;
      const Tensor y = ReadNpy(work_ / "y.npy");
      ASSERT_EQ(y.shape, (std::vector<int64_t>{n[p[0]], n[p[1]], n[p[2]]})) << ps;
      int64_t bad = 0;
      for (int64_t a = 0; a < n[p[0]]; ++a) {
        for (int64_t b = 0; b < n[p[1]]; ++b) {
          for (int64_t c = 0; c < n[p[2]]; ++c) {
            int64_t xi[3];
            xi[p[0]] = a;
            xi[p[1]] = b;
            xi[p[2]] = c;
            const uint32_t want = x.bits[size_t((xi[0] * n[1] + xi[1]) * n[2] + xi[2])];
            bad += y.bits[size_t((a * n[p[1]] + b) * n[p[2]] + c)] != want;
          }
        }
      }
      EXPECT_EQ(bad, 0) << (int8 ? "int8 " : "fp16 ") << ps;
    }
  }
  fs::remove(work_ / "y.npy");
  WriteNpy("x4.npy", Tensor{DType::kFp16, {1, 1, 1, 2}, {0x3C00, 0x4000}});
  const std::vector<std::array<std::string, 4>> bad = {
      {"perm: [0, 0, 1], ", "x.npy", "inputs.x", "perm [0, 0, 1] is not a permutation of the 3 axes"},
      {"perm: [1, 0], ", "x.npy", "inputs.x", "is not a permutation of the 3 axes"},
      {"perm: 1, ", "x.npy", "perm", "expected a list of axes"},
      {"", "x4.npy", "inputs.x", "transpose takes a non-empty [W], [H, W] or [C, H, W]"}};
  for (const auto& [fields, x, field, what] : bad) {
    Write("t.yaml", "{op: transpose, " + fields + "inputs: {x: " + x + "}, outputs: {y: y.npy}}\n");
    ExpectInputError(Ane({"run", "t.yaml"}), "t.yaml", field, what);
  }
}

// N-2.1 through `ane run`: conv2d of int8 x fp16 and fp16 x int8 on both engines (the core), and
// an int8 store asked of a mixed layer refused.
TEST_F(CliTest, N2_1_MixedInt8AndFp16Conv2dOnBothEngines) {
  WriteNpy("x8.npy", Tensor{DType::kInt8, {1, 1, 3}, {100, 0xCE, 7}});                        // 100, -50, 7
  WriteNpy("w16.npy", Tensor{DType::kFp16, {2, 1, 1, 2}, {0x3800, 0x3400, 0xBE00, 0x4000}});  // 0.5, 0.25, -1.5, 2
  Write("a.yaml", "{op: conv2d, inputs: {x: x8.npy, w: w16.npy}, outputs: {y: y.npy}}\n");
  const Result a = Ane({"run", "a.yaml", "--engine", "both"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  // 37.5, -23.25, -250, 89
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x50B0, 0xCDD0, 0xDBD0, 0x5590}));
  EXPECT_NE(a.out.find("rtl vs oracle: bit-identical (4 outputs)"), std::string::npos) << a.out;
  WriteNpy("x16.npy", Tensor{DType::kFp16, {1, 1, 3}, {0x3800, 0xBD00, 0x4200}});  // 0.5, -1.25, 3
  WriteNpy("w8.npy", Tensor{DType::kInt8, {2, 1, 1, 2}, {3, 0xFE, 64, 0x80}});     // 3, -2, 64, -128
  Write("b.yaml", "{op: conv2d, inputs: {x: x16.npy, w: w8.npy}, outputs: {y: y.npy}}\n");
  const Result b = Ane({"run", "b.yaml", "--engine", "both"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  // 4, -9.75, 192, -464
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x4400, 0xC8E0, 0x5A00, 0xDF40}));
  fs::remove(work_ / "y.npy");
  Write("c.yaml", "{op: conv2d, store: int8, inputs: {x: x16.npy, w: w8.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "c.yaml"}), "c.yaml", "store", "stores fp16");
}

// N-2.9 through `ane run`: conv2d in the lanes' compare mode on both engines (the core): each
// window's maximum or minimum, w's values ignored, the padding's zeros taking part.
TEST_F(CliTest, N2_9_Conv2dCompareModeOnBothEngines) {
  WriteNpy("x.npy", Tensor{DType::kFp16,
                           {1, 2, 3},
                           {0xBC00, 0xC500, 0x4000, 0xC200, 0xC400, 0xC600}});  // [[-1, -5, 2], [-3, -4, -6]]
  WriteNpy("w.npy", Tensor{DType::kFp16, {1, 1, 2, 2}, {0x3C00, 0x0000, 0xC000, 0x7E00}});  // ignored, a NaN too
  const std::pair<std::string, std::vector<uint32_t>> cases[] = {
      {"mac: max", {0xBC00, 0x4000}},                                 // -1, 2
      {"mac: min", {0xC500, 0xC600}},                                 // -5, -6
      {"mac: max, padding: [0, 0, 1, 0]", {0x0000, 0xBC00, 0x4000}},  // +0 (the padding), -1, 2
  };
  for (const auto& [fields, want] : cases) {
    Write("c.yaml", "{op: conv2d, " + fields + ", inputs: {x: x.npy, w: w.npy}, outputs: {y: y.npy}}\n");
    const Result r = Ane({"run", "c.yaml", "--engine", "both"});
    ASSERT_EQ(r.exit_code, 0) << fields << ": " << r.err;
    EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, want) << fields;
    EXPECT_NE(r.out.find("rtl vs oracle: bit-identical"), std::string::npos) << r.out;
  }
  fs::remove(work_ / "y.npy");
  Write("c.yaml", "{op: conv2d, mac: sum, inputs: {x: x.npy, w: w.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "c.yaml"}), "c.yaml", "mac", "unknown mac 'sum'");
  WriteNpy("x8.npy", Tensor{DType::kInt8, {1, 2, 3}, {1, 2, 3, 4, 5, 6}});
  Write("c.yaml", "{op: conv2d, mac: min, inputs: {x: x8.npy, w: w.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "c.yaml"}), "c.yaml", "inputs.x", "compare fp16 data");
  Write("c.yaml", "{op: conv2d, mac: max, sparse: true, inputs: {x: x.npy, w: w.npy}, outputs: {y: y.npy}}\n");
  const Result s = Ane({"run", "c.yaml", "--engine", "rtl"});
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_NE(s.err.find("compare mode takes dense kernels"), std::string::npos) << s.err;
}

// N-3.4 through `ane run`: conv2d with stochastic rounding on both engines (the oracle over the
// core's vectors): bit-identical, the same with the same seed, other outputs with another seed or
// with rounding to nearest; bad fields refused.
TEST_F(CliTest, N3_4_Conv2dStochasticRoundingOnBothEngines) {
  const std::string io =
      "inputs: {x: {generate: {distribution: uniform, seed: 5, shape: [4, 6, 6], low: 0, high: 1}}, "
      "w: {generate: {distribution: uniform, seed: 6, shape: [10, 4, 3, 3], low: -1, high: 1}}}, outputs: {y: y.npy}";
  auto run = [&](const std::string& fields, const char* engine) {
    Write("s.yaml", "{op: conv2d, padding: 1, " + fields + io + "}\n");
    const Result r = Ane({"run", "s.yaml", "--engine", engine});
    EXPECT_EQ(r.exit_code, 0) << fields << ": " << r.err;
    if (std::string(engine) == "both") {
      EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (360 outputs)"), std::string::npos) << r.out;
    }
    return ReadNpy(work_ / "y.npy").bits;
  };
  const std::vector<uint32_t> y7 = run("rounding: stochastic, rounding_seed: 7, ", "both");
  EXPECT_EQ(run("rounding: stochastic, rounding_seed: 7, ", "oracle"), y7);
  EXPECT_NE(run("rounding: stochastic, rounding_seed: 8, ", "oracle"), y7);
  EXPECT_NE(run("rounding: nearest, ", "oracle"), y7);
  EXPECT_EQ(run("rounding: stochastic, rounding_seed: 7, rounding_bits: 4, mapping: four_kernel, ", "both").size(),
            360u);
  fs::remove(work_ / "y.npy");
  Write("b.yaml", "{op: conv2d, rounding: up, " + io + "}\n");
  ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", "rounding", "unknown rounding 'up'");
  Write("b.yaml", "{op: conv2d, rounding_seed: 3, " + io + "}\n");
  ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", "rounding_seed", "takes `rounding: stochastic`");
  Write("b.yaml", "{op: conv2d, rounding: stochastic, rounding_bits: 14, " + io + "}\n");
  ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", "rounding_bits", "");
  WriteNpy("x8.npy", Tensor{DType::kInt8, {1, 1, 3}, {1, 2, 3}});
  WriteNpy("w8.npy", Tensor{DType::kInt8, {1, 1, 1, 2}, {1, 2}});
  Write("b.yaml",
        "{op: conv2d, shift: 1, rounding: stochastic, inputs: {x: x8.npy, w: w8.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", "rounding", "int8 x int8");
  Write("b.yaml", "{op: conv2d, sparse: true, rounding: stochastic, " + io + "}\n");
  const Result sp = Ane({"run", "b.yaml"});
  EXPECT_EQ(sp.exit_code, 2);
  EXPECT_NE(sp.err.find("stochastic rounding takes dense kernels"), std::string::npos) << sp.err;
  EXPECT_FALSE(fs::exists(work_ / "y.npy"));
}

// N-2.4 through `ane run`: conv2d at generation m5 runs on the m5 core model (Vane_core256_m5)
// and keeps its quads exact: the seed figure [4096, -4096, 1] x 16 over 48 channels gives 4 on m1
// (the quad stage drops the ones next to 4096) and 16 on m5, on both engines.
TEST_F(CliTest, N2_4_Conv2dOnTheM5CoreKeepsItsQuadsExact) {
  std::vector<uint32_t> x;
  for (int i = 0; i < 16; ++i) x.insert(x.end(), {0x6C00, 0xEC00, 0x3C00});  // 4096, -4096, 1
  WriteNpy("x.npy", Tensor{DType::kFp16, {48, 1, 1}, x});
  WriteNpy("w.npy", Tensor{DType::kFp16, {1, 48, 1, 1}, std::vector<uint32_t>(48, 0x3C00)});
  for (const auto& [gen, want] : {std::pair<std::string, uint32_t>{"m1", 0x4400}, {"m5", 0x4C00}}) {  // 4, 16
    Write("g.yaml", "{op: conv2d, generation: " + gen + ", inputs: {x: x.npy, w: w.npy}, outputs: {y: y.npy}}\n");
    const Result r = Ane({"run", "g.yaml", "--engine", "both"});
    ASSERT_EQ(r.exit_code, 0) << gen << ": " << r.err;
    EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, std::vector<uint32_t>{want}) << gen;
    EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (1 outputs)"), std::string::npos) << r.out;
  }
}

// N-3 through `ane run`: a matmul with per-column scale and bias and ReLU, and an int8 matmul
// requantized to int8, on both engines. Expected values by hand.
// N-6 through `ane run`: conv2d with compressed kernels (kernel_format int8sym / palette), worked
// by hand from the encoder's documented choices (docs/kernel_extract.md): every engine and the
// fp64 reference compute with the stored weights. Then every format with each mapping and sparse
// on generated tensors, bit-identical on both engines; bad fields refused.
TEST_F(CliTest, N6_Conv2dCompressedKernelsOnBothEngines) {
  const auto run = [&](const std::string& fields, const std::string& inputs) {
    Write("k.yaml", "{op: conv2d, " + fields + ", inputs: {" + inputs + "}, outputs: {y: y.npy}}\n");
    const Result r = Ane({"run", "k.yaml", "--engine", "both"});
    EXPECT_EQ(r.exit_code, 0) << fields << ": " << r.err << r.out;
    EXPECT_NE(r.out.find("rtl vs oracle: bit-identical"), std::string::npos) << fields << ": " << r.out;
    return std::make_pair(ReadNpy(work_ / "y.npy").bits, r.out);
  };
  // int8sym: w = [[254, 1.3], [127, 0.4]] (their fp16 values) (1x1 kernels over 2 channels), x = 1. One scale for the
  // tensor, RNE16(254 / 127) = 2: q = [127, 1], [64 (63.5 to even), 0] -> [254, 2], [128, 0].
  // Per channel: 2 and 1: kernel 1 q = [127, 0] -> [127, 0]. fp16 w: 255.25 and 127.375.
  const std::string xw =
      "x: {shape: [2, 1, 1], values: [1, 1]}, w: {shape: [2, 2, 1, 1], values: [254, 1.2998046875, 127, "
      "0.39990234375]}";
  EXPECT_EQ(run("kernel_format: int8sym", xw).first, (std::vector<uint32_t>{0x5C00, 0x5800}));  // 256, 128
  const auto [per_channel, note] = run("kernel_format: int8sym, kernel_scale: per_channel", xw);
  EXPECT_EQ(per_channel, (std::vector<uint32_t>{0x5C00, 0x57F0}));  // 256, 127
  EXPECT_NE(note.find("stored as int8sym per_channel (N-6)"), std::string::npos) << note;
  EXPECT_NE(note.find("2 of 4 differ from w"), std::string::npos) << note;                   // 254 and 127 stay
  EXPECT_EQ(run("kernel_format: fp16", xw).first, (std::vector<uint32_t>{0x5BFA, 0x57F6}));  // 255.25, 127.375
  // palette: w = [1, 2, 3, 4] (one 1x4 kernel), x = [1, 0, 0, 1]. 1 bit: the k-means from the
  // quantiles 2 and 4 keeps {2, 4} (3 is as near 2 as 4: the lower index) -> [2, 2, 2, 4], y = 6;
  // 2 bits hold the four values: y = 5.
  const std::string xp = "x: {shape: [1, 1, 4], values: [1, 0, 0, 1]}, w: {shape: [1, 1, 1, 4], values: [1, 2, 3, 4]}";
  EXPECT_EQ(run("kernel_format: palette, palette_bits: 1", xp).first, std::vector<uint32_t>{0x4600});
  const auto [lossless, lossless_note] = run("kernel_format: palette, palette_bits: 2", xp);
  EXPECT_EQ(lossless, std::vector<uint32_t>{0x4500});
  EXPECT_NE(lossless_note.find("0 of 4 differ from w."), std::string::npos) << lossless_note;
  // sparse: the palette holds no zero, so 1 bit keeps {2, 4} exactly: y = 4
  const std::string xs = "x: {shape: [1, 1, 4], values: [1, 0, 0, 1]}, w: {shape: [1, 1, 1, 4], values: [0, 2, 0, 4]}";
  EXPECT_EQ(run("kernel_format: palette, palette_bits: 1, sparse: true", xs).first, std::vector<uint32_t>{0x4400});
  // every format with every mapping that takes it, generated tensors, and int8 x fp16
  const std::string gen =
      "x: {generate: {distribution: uniform, seed: 5, shape: [4, 6, 6], low: -1, high: 1}}, "
      "w: {generate: {distribution: normal, seed: 6, shape: [20, 4, 3, 3], mean: 0, std: 0.5}}";
  const std::string gen8 =
      "x: {generate: {distribution: uniform, seed: 5, shape: [4, 6, 6], low: -100, high: 100, dtype: int8}}, "
      "w: {generate: {distribution: normal, seed: 6, shape: [20, 4, 3, 3], mean: 0, std: 0.5}}";
  const char* formats[] = {"kernel_format: palette, palette_bits: 1", "kernel_format: palette, palette_bits: 6",
                           "kernel_format: palette, palette_bits: 8, sparse: true", "kernel_format: int8sym",
                           "kernel_format: int8sym, kernel_scale: per_channel, sparse: true"};
  const char* mappings[] = {"mapping: broadcast", "mapping: two_kernel", "mapping: four_kernel"};
  for (size_t f = 0; f < std::size(formats); ++f) {
    const std::string fields = std::string(formats[f]) + ", padding: 1, " + mappings[f % 3];
    if (fields.find("sparse") != std::string::npos && fields.find("four_kernel") != std::string::npos) continue;
    run(fields, gen);
    run(std::string(formats[f]) + ", padding: 1", gen8);
  }
  fs::remove(work_ / "y.npy");
  const std::string one = "x: {shape: [1, 2, 2], values: [1, 2, 3, 4]}, w: {shape: [1, 1, 1, 1], values: [1]}";
  const auto bad = [&](const std::string& fields, const std::string& inputs, const char* field, const char* what) {
    Write("b.yaml", "{op: conv2d, " + fields + ", inputs: {" + inputs + "}, outputs: {y: y.npy}}\n");
    ExpectInputError(Ane({"run", "b.yaml", "--engine", "both"}), "b.yaml", field, what);
  };
  bad("kernel_format: raw8", one, "kernel_format", "unknown kernel_format 'raw8' (expected fp16, int8sym or palette)");
  bad("palette_bits: 4", one, "palette_bits", "takes `kernel_format: palette`");
  bad("kernel_format: palette, palette_bits: 3", one, "palette_bits", "1, 2, 4, 6 or 8, not 3");
  bad("kernel_format: palette, kernel_scale: per_channel", one, "kernel_scale", "takes `kernel_format: int8sym`");
  bad("kernel_format: int8sym, kernel_scale: per_row", one, "kernel_scale", "unknown kernel_scale 'per_row'");
  bad("kernel_format: int8sym",
      "x: {shape: [1, 2, 2], values: [1, 2, 3, 4]}, w: {dtype: int8, shape: [1, 1, 1, 1], values: [1]}", "inputs.w",
      "stores fp16 kernels; this w is int8");
  bad("kernel_format: int8sym", "x: {shape: [1, 1, 2], values: [1, 2]}, w: {shape: [1, 1, 1, 2], values: [1, inf]}",
      "inputs.w", "quantizes finite weights; w[1] (kernel 0, step 1) is inf");
  bad("kernel_format: palette, palette_bits: 1",
      "x: {shape: [1, 1, 3], values: [1, 2, 3]}, w: {shape: [1, 1, 1, 3], values: [1, 2, inf]}", "inputs.w",
      "which needs finite weights");
}

TEST_F(CliTest, MatmulPostProcessingOnBothEngines) {
  Write("fp.yaml",
        "op: matmul\nactivation: relu\n"
        "inputs:\n"
        "  a: {shape: [2, 2], values: [1, 2, 3, 4]}\n"
        "  b: {shape: [2, 2], values: [1, 0, 0, 1]}\n"
        "  scale: {values: [2, 0.5]}\n"
        "  bias: {values: [-3, -1]}\n"
        "outputs: {y: y.npy}\n");
  // y = [[1, 2], [3, 4]]; column 0: 2y - 3, column 1: y/2 - 1; ReLU.
  for (const char* engine : {"oracle", "both"}) {
    const Result r = Ane({"run", "fp.yaml", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x0000, 0x0000, 0x4200, 0x3C00})) << engine;
  }
  Write("int.yaml",
        "op: matmul\nshift: 2\nactivation: relu\n"
        "inputs:\n"
        "  a: {dtype: int8, shape: [2, 3], values: [100, 2, 3, -100, 5, 6]}\n"
        "  b: {dtype: int8, shape: [3, 2], values: [1, 0, 0, 1, 1, 1]}\n"
        "outputs: {y: y.npy}\n");
  // [[103, 5], [-94, 11]] / 4 = [[25.75, 1.25], [-23.5, 2.75]] -> RNE [[26, 1], [-24, 3]] -> ReLU.
  const Result r = Ane({"run", "int.yaml", "--engine", "both"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const Tensor y = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(y.dtype, DType::kInt8);
  EXPECT_EQ(y.bits, (std::vector<uint32_t>{26, 1, 0, 3}));
  EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (4 outputs)"), std::string::npos) << r.out;
}

// N-2.8 through `ane run`: `precision: int4` runs int8 tensors of -8..7 in the int4 packed mode,
// on the oracle (MatmulInt4) and the array's int4 mapping; values worked by hand, with and without
// requantization; what is not an int4 is refused.
TEST_F(CliTest, N2_8_Int4PrecisionMatmulOnBothEngines) {
  const std::string in =
      "inputs:\n"
      "  a: {dtype: int8, shape: [5, 3], values: [1, -2, 3, 7, -8, 0, -1, -1, -1, 4, 5, 6, -8, -8, -8]}\n"
      "  b: {dtype: int8, shape: [3, 2], values: [1, -1, 2, 3, -3, 7]}\n"
      "outputs: {y: y.npy}\n";
  Write("i4.yaml", "op: matmul\nprecision: int4\n" + in);
  const std::vector<int32_t> want = {-12, 14, -9, -31, 0, -9, -4, 53, 0, -72};
  for (const char* engine : {"oracle", "rtl", "both"}) {
    const Result r = Ane({"run", "i4.yaml", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << engine << ": " << r.err << r.out;
    const Tensor y = ReadNpy(work_ / "y.npy");
    EXPECT_EQ(y.dtype, DType::kInt32) << engine;
    ASSERT_EQ(y.bits.size(), want.size()) << engine;
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(int32_t(y.bits[i]), want[i]) << engine << " element " << i;
    if (std::string(engine) != "oracle") {
      EXPECT_NE(r.out.find("int4 packed mapping"), std::string::npos) << r.out;
    }
    if (std::string(engine) == "both") {
      EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (10 outputs)"), std::string::npos) << r.out;
    }
  }
  // shift 1 and ReLU: RNE(y / 2), ties to even (-4.5 -> -4, 26.5 -> 26), then ReLU
  Write("i4s.yaml", "op: matmul\nprecision: int4\nshift: 1\nactivation: relu\n" + in);
  const Result s = Ane({"run", "i4s.yaml", "--engine", "both"});
  ASSERT_EQ(s.exit_code, 0) << s.err << s.out;
  const Tensor ys = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(ys.dtype, DType::kInt8);
  EXPECT_EQ(ys.bits, (std::vector<uint32_t>{0, 7, 0, 0, 0, 0, 0, 26, 0, 0}));
  fs::remove(work_ / "y.npy");
  Write("bad.yaml", "op: matmul\nprecision: int2\n" + in);
  ExpectInputError(Ane({"run", "bad.yaml"}), "bad.yaml", "precision",
                   "unknown precision 'int2' (supported: int8, int4)");
  Write("bad.yaml",
        "op: matmul\nprecision: int4\ninputs:\n  a: {dtype: int8, shape: [1, 2], values: [7, 8]}\n"
        "  b: {dtype: int8, shape: [2], values: [1, 1]}\noutputs: {y: y.npy}\n");
  ExpectInputError(Ane({"run", "bad.yaml", "--engine", "both"}), "bad.yaml", "inputs.a",
                   "precision int4: a[0, 1] = 8 is outside -8 .. 7");
  Write("bad.yaml",
        "op: matmul\nprecision: int4\ninputs:\n  a: {dtype: int8, shape: [1, 2], values: [7, -8]}\n"
        "  b: {dtype: int8, shape: [2], values: [1, -9]}\noutputs: {y: y.npy}\n");
  ExpectInputError(Ane({"run", "bad.yaml"}), "bad.yaml", "inputs.b", "precision int4: b[1] = -9 is outside -8 .. 7");
  Write("bad.yaml",
        "op: matmul\nprecision: int4\ninputs:\n  a: {shape: [1, 2], values: [1, 2]}\n"
        "  b: {dtype: int8, shape: [2], values: [1, 1]}\noutputs: {y: y.npy}\n");
  ExpectInputError(Ane({"run", "bad.yaml"}), "bad.yaml", "inputs.a",
                   "precision int4 needs int8 a and b, got fp16 ('<f2')");
  EXPECT_FALSE(fs::exists(work_ / "y.npy"));
}

// N-2.8 through `ane run`: conv2d `precision: int4` (int8 x and w of -8..7) on both engines, the
// RTL the 256-lane core in its int4 packed mode (four images a run, one per nibble).
// A 3x3 image and two 2x2 kernels worked by hand (shift 0: the int32 sums as int8); a layer with
// stride, uneven padding, dilation, groups, a batch, scale, bias and ReLU on m5 bit-identical on
// both engines and to the same layer as int8 x int8 on the core; what is not an int4 layer is
// refused with the field named.
TEST_F(CliTest, N2_8_Int4PrecisionConv2dOnBothEngines) {
  const std::string in =
      "inputs:\n"
      "  x: {dtype: int8, shape: [1, 3, 3], values: [1, -2, 3, 4, 5, -6, -7, 7, -8]}\n"
      "  w: {dtype: int8, shape: [2, 1, 2, 2], values: [1, 2, 3, 4, -1, 0, 7, -8]}\n"
      "outputs: {y: y.npy}\n";
  Write("c4.yaml", "op: conv2d\nprecision: int4\nshift: 0\n" + in);
  // y0 = [1 - 4 + 12 + 20, -2 + 6 + 15 - 24; 4 + 10 - 21 + 28, 5 - 12 + 21 - 32],
  // y1 = [-1 + 28 - 40, 2 + 35 + 48; -4 - 49 - 56, -5 + 49 + 64]
  const std::vector<int> want = {29, -5, 21, -18, -13, 85, -109, 108};
  for (const char* engine : {"oracle", "rtl", "both"}) {
    const Result r = Ane({"run", "c4.yaml", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << engine << ": " << r.err << r.out;
    const Tensor y = ReadNpy(work_ / "y.npy");
    EXPECT_EQ(y.dtype, DType::kInt8) << engine;
    EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 2, 2})) << engine;
    ASSERT_EQ(y.bits.size(), want.size()) << engine;
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(int(int8_t(uint8_t(y.bits[i]))), want[i]) << engine << " " << i;
    if (std::string(engine) != "oracle") {
      EXPECT_NE(r.out.find("int4 packed broadcast mapping"), std::string::npos) << r.out;
    }
    if (std::string(engine) == "both") {
      EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (8 outputs)"), std::string::npos) << r.out;
    }
  }
  // a whole layer: every geometry option, a batch of 5 (two runs of the core, the second with
  // three zero images), two groups, post-processing, m5
  const std::string layer =
      "op: conv2d\ngeneration: m5\nshift: 3\nstore: fp16\nactivation: relu\nstride: [2, 1]\n"
      "padding: [1, 2, 0, 1]\ndilation: [1, 2]\ngroups: 2\ninputs:\n"
      "  x: {generate: {distribution: uniform, seed: 5, shape: [5, 4, 9, 11], dtype: int8, low: -8, high: 7}}\n"
      "  w: {generate: {distribution: uniform, seed: 6, shape: [6, 2, 3, 3], dtype: int8, low: -8, high: 7}}\n"
      "  scale: {generate: {distribution: uniform, seed: 7, shape: [6], dtype: fp16, low: -2, high: 2}}\n"
      "  bias: {generate: {distribution: uniform, seed: 8, shape: [6], dtype: fp16, low: -2, high: 2}}\n";
  Write("l4.yaml", "precision: int4\n" + layer + "outputs: {y: y4.npy}\n");
  Write("l8.yaml", layer + "outputs: {y: y8.npy}\n");
  const Result r4 = Ane({"run", "l4.yaml", "--engine", "both"});
  ASSERT_EQ(r4.exit_code, 0) << r4.err << r4.out;
  EXPECT_NE(r4.out.find("rtl vs oracle: bit-identical (1200 outputs)"), std::string::npos) << r4.out;
  EXPECT_NE(r4.out.find("per run, 2 runs for 5 images"), std::string::npos) << r4.out;
  const Result r8 = Ane({"run", "l8.yaml", "--engine", "rtl"});
  ASSERT_EQ(r8.exit_code, 0) << r8.err << r8.out;
  EXPECT_NE(r8.out.find("neural-engine core"), std::string::npos) << r8.out;
  const Tensor y4 = ReadNpy(work_ / "y4.npy"), y8 = ReadNpy(work_ / "y8.npy");
  EXPECT_EQ(y4.shape, (std::vector<int64_t>{5, 6, 5, 8}));
  EXPECT_EQ(y4.bits, y8.bits);
  size_t nonzero = 0;
  for (uint32_t b : y4.bits) nonzero += b != 0;
  EXPECT_GT(nonzero, y4.bits.size() / 4);  // ReLU leaves a good share: the comparison is not of zeros
  fs::remove(work_ / "y.npy");
  const auto refused = [&](const std::string& text, const char* field, const std::string& message) {
    Write("bad.yaml", text);
    ExpectInputError(Ane({"run", "bad.yaml", "--engine", "both"}), "bad.yaml", field, message);
  };
  refused("op: conv2d\nprecision: int2\nshift: 0\n" + in, "precision",
          "unknown precision 'int2' (supported: int8, int4)");
  refused(
      "op: conv2d\nprecision: int4\nshift: 0\ninputs:\n"
      "  x: {dtype: int8, shape: [1, 1, 2], values: [7, 8]}\n"
      "  w: {dtype: int8, shape: [1, 1, 1, 1], values: [1]}\noutputs: {y: y.npy}\n",
      "inputs.x", "precision int4: x[0, 0, 1] = 8 is outside -8 .. 7");
  refused(
      "op: conv2d\nprecision: int4\nshift: 0\ninputs:\n"
      "  x: {dtype: int8, shape: [1, 1, 2], values: [7, -8]}\n"
      "  w: {dtype: int8, shape: [1, 1, 1, 2], values: [1, -9]}\noutputs: {y: y.npy}\n",
      "inputs.w", "precision int4: w[0, 0, 0, 1] = -9 is outside -8 .. 7");
  refused(
      "op: conv2d\nprecision: int4\ninputs:\n"
      "  x: {shape: [1, 1, 2], values: [1, 2]}\n"
      "  w: {dtype: int8, shape: [1, 1, 1, 1], values: [1]}\noutputs: {y: y.npy}\n",
      "inputs.x", "precision int4 needs int8 x and w, got fp16 ('<f2')");
  refused("op: conv2d\nmapping: two_kernel\nprecision: int4\nshift: 0\n" + in, "precision",
          "precision int4 runs in the core's broadcast mapping (four images per 16-bit element)");
  EXPECT_FALSE(fs::exists(work_ / "y.npy"));
  // sparse kernels (N-6.3) and the broadcast mapping asked for by name: the same outputs
  Write("s4.yaml", "op: conv2d\nmapping: broadcast\nsparse: true\nprecision: int4\nshift: 0\n" + in);
  const Result rs = Ane({"run", "s4.yaml", "--engine", "both"});
  ASSERT_EQ(rs.exit_code, 0) << rs.err << rs.out;
  EXPECT_NE(rs.out.find("rtl vs oracle: bit-identical (8 outputs)"), std::string::npos) << rs.out;
  const Tensor ys = ReadNpy(work_ / "y.npy");
  ASSERT_EQ(ys.bits.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(int(int8_t(uint8_t(ys.bits[i]))), want[i]) << i;
}

// N-3.4 through `ane run`: matmul with stochastic rounding of its fp32 accumulators. By hand, on
// m5 (exact quads: m1's quad stage keeps 12 bits, N-2.4, and would drop the 2^-12 below):
// a = 400 rows of 1 + 2^-10, b = [1.5, 1.25] gives the accumulators 1.5 + 1.5 ulp and
// 1.25 + 1.25 ulp (ulp 2^-10), so every output is one of the two fp16 values around them and the
// fraction rounded up is near 1/2 and 1/4, with 13 rounding bits and with 2 (the 1/4 ulp still
// held; 1 bit would drop it). 800 draws of the LFSR per run: the counts for seed 7 are fixed by
// the seed, the bounds are four standard deviations. Both engines bit-identical (with an
// activation, a scale and m5 too); the same seed gives the same outputs, another seed others;
// what is not an fp accumulator, or not stochastic, is refused.
TEST_F(CliTest, N3_4_MatmulStochasticRoundingOnBothEngines) {
  WriteNpy("a.npy", Tensor{DType::kFp16, {400, 1}, std::vector<uint32_t>(400, 0x3C01)});
  WriteNpy("b.npy", Tensor{DType::kFp16, {1, 2}, {0x3E00, 0x3D00}});  // 1.5, 1.25
  const auto run = [&](const std::string& fields, const char* engine) {
    Write("s.yaml",
          "{op: matmul, generation: m5, " + fields + ", inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}}\n");
    const Result r = Ane({"run", "s.yaml", "--engine", engine});
    EXPECT_EQ(r.exit_code, 0) << fields << ": " << r.err;
    if (std::string(engine) == "both") {
      EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (800 outputs)"), std::string::npos) << r.out;
      EXPECT_EQ(r.out.find("rounds each accumulator stochastically") != std::string::npos,
                fields.find("stochastic") != std::string::npos)
          << r.out;
    }
    return ReadNpy(work_ / "y.npy").bits;
  };
  for (const char* bits : {"13", "2"}) {
    const std::vector<uint32_t> y =
        run(std::string("rounding: stochastic, rounding_seed: 7, rounding_bits: ") + bits, "both");
    ASSERT_EQ(y.size(), 800u);
    int up[2] = {0, 0};
    for (size_t i = 0; i < y.size(); ++i) {
      const uint32_t low = i % 2 == 0 ? 0x3E01 : 0x3D01;  // 1.5 + ulp, 1.25 + ulp
      ASSERT_TRUE(y[i] == low || y[i] == low + 1) << bits << " bits, element " << i << ": " << y[i];
      up[i % 2] += y[i] == low + 1;
    }
    EXPECT_GT(up[0], 200 - 40) << bits;  // p = 1/2: sd 10
    EXPECT_LT(up[0], 200 + 40) << bits;
    EXPECT_GT(up[1], 100 - 35) << bits;  // p = 1/4: sd 8.7
    EXPECT_LT(up[1], 100 + 35) << bits;
  }
  const std::vector<uint32_t> y7 = run("rounding: stochastic, rounding_seed: 7", "rtl");
  EXPECT_EQ(run("rounding: stochastic, rounding_seed: 7", "oracle"), y7);
  EXPECT_NE(run("rounding: stochastic, rounding_seed: 8", "oracle"), y7);
  std::vector<uint32_t> nearest;  // 1.5 + 1.5 ulp is a tie: to even, 1.5 + 2 ulp; 1.25 + 1.25 ulp: 1.25 + ulp
  for (int i = 0; i < 400; ++i) nearest.insert(nearest.end(), {0x3E02, 0x3D01});
  EXPECT_EQ(run("rounding: nearest", "both"), nearest);
  // generated fp16 inputs with scale, an activation, on m1 and m5
  WriteNpy("s.npy", Tensor{DType::kFp16, {3}, {0x3C00, 0xB800, 0x4000}});  // 1, -0.5, 2
  for (const char* gen : {"m1", "m5"}) {
    Write("g.yaml", std::string("{op: matmul, generation: ") + gen +
                        ", rounding: stochastic, rounding_seed: 99, rounding_bits: 5, activation: gelu, "
                        "inputs: {a: {generate: {distribution: normal, seed: 3, shape: [19, 40], mean: 0, std: 1}}, "
                        "b: {generate: {distribution: uniform, seed: 4, shape: [40, 3], low: -1, high: 1}}, "
                        "scale: s.npy}, outputs: {y: y.npy}}\n");
    const Result r = Ane({"run", "g.yaml", "--engine", "both"});
    EXPECT_EQ(r.exit_code, 0) << gen << ": " << r.err;
    EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (57 outputs)"), std::string::npos) << gen << ": " << r.out;
  }
  fs::remove(work_ / "y.npy");
  WriteNpy("a8.npy", Tensor{DType::kInt8, {1, 2}, {1, 2}});
  WriteNpy("b8.npy", Tensor{DType::kInt8, {2, 1}, {3, 4}});
  struct Bad {
    std::string fields, inputs, field, what;
  };
  const std::string fp = "a: a.npy, b: b.npy", i8 = "a: a8.npy, b: b8.npy";
  for (const Bad& b : std::vector<Bad>{
           {"rounding: down", fp, "rounding", "unknown rounding 'down'"},
           {"rounding_bits: 3", fp, "rounding_bits", "takes `rounding: stochastic`"},
           {"rounding: stochastic, rounding_seed: 0", fp, "rounding_seed", ""},
           {"shift: 1, rounding: stochastic", i8, "rounding", "this matmul is int8 x int8"},
           {"precision: int4, rounding: stochastic", i8, "rounding", "this matmul is int4"},
           {"rounding: nearest", i8, "rounding", "needs `shift`"},
       }) {
    Write("b.yaml", "{op: matmul, " + b.fields + ", inputs: {" + b.inputs + "}, outputs: {y: y.npy}}\n");
    ExpectInputError(Ane({"run", "b.yaml"}), "b.yaml", b.field, b.what);
  }
}

TEST_F(CliTest, MatmulPostProcessingBadOptionsAreRejected) {
  WriteFp16Inputs();
  Write("op.yaml", "{op: matmul, shift: 3, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "shift", "this matmul gives fp16");
  Write("op.yaml", "{op: matmul, activation: mish, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "activation", "unknown activation 'mish'");
  Write("op.yaml", "{op: matmul, inputs: {a: a.npy, b: b.npy, scale: {values: [1, 2, 3]}}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.scale", "shape [2]");
  WriteNpy("a.npy", Tensor{DType::kInt8, {1, 2}, {1, 2}});
  WriteNpy("b.npy", Tensor{DType::kInt8, {2, 1}, {3, 4}});
  Write("op.yaml", "{op: matmul, activation: relu, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "activation", "needs `shift`");
}

TEST_F(CliTest, RegressOnBothEnginesComparesEveryCase) {
  WriteFp16Inputs();
  Write("suite.yaml",
        "cases:\n"
        "  - {name: small, op: matmul, inputs: {a: a.npy, b: b.npy}, expect: {y: {reference: fp64, max_ulp: 0}}}\n");
  const Result r = Ane({"regress", "suite.yaml", "--engine", "both"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rtl = oracle"), std::string::npos) << r.out;
  const Result f =
      Ane({"regress", "suite.yaml", "--engine", "both"}, {}, "ANE_FAULT=1,1");  // a[1, 1] = 4 -> 4.00390625
  EXPECT_EQ(f.exit_code, 1) << f.out;
  EXPECT_NE(f.out.find("FAIL small"), std::string::npos) << f.out;
  EXPECT_NE(f.out.find("rtl vs oracle at y[1, 0]"), std::string::npos) << f.out;
}

TEST_F(CliTest, UnknownCommandsAndFlagsGiveOneLineAndExitTwo) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{},
                                               {"frobnicate"},
                                               {"run", "op.yaml", "--fast"},
                                               {"run", "a.yaml", "b.yaml"},
                                               {"run"},
                                               {"run", "op.yaml", "--engine"},
                                               {"run", "op.yaml", "--engine", "gpu"},
                                               {"regress", "s.yaml", "--out-dir", "x"},
                                               {"regress", "s.yaml", "--seed", "-1"}}) {
    const Result r = Ane(args);
    EXPECT_EQ(r.exit_code, 2) << testing::PrintToString(args);
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("ane: error: ", 0), 0u) << r.err;
  }
}

TEST_F(CliTest, HelpAndVersionExitZero) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, {"help"}, {"help", "run"}, {"run", "--help"}, {"regress", "-h"}}) {
    const Result r = Ane(args);
    EXPECT_EQ(r.exit_code, 0) << testing::PrintToString(args);
    EXPECT_NE(r.out.find("usage"), std::string::npos) << testing::PrintToString(args);
  }
  const Result v = Ane({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("ane ", 0), 0u);
}

// ---- regress ----

TEST_F(CliTest, RegressPassingSuiteExitsZeroWithSummaryLine) {
  WriteFp16Inputs();
  Write("op.yaml", kMinimal);
  Write("suite.yaml",
        "cases:\n"
        "  - {name: ones, dot: {data: [{repeat: 1, times: 16000}]}, expect: 16000}\n"
        "  - {name: from_file, file: op.yaml, expect: {y: {equals: [19, 22, 43, 50]}}}\n"
        "  - name: random\n"
        "    op: matmul\n"
        "    inputs:\n"
        "      a: {generate: {distribution: uniform, seed: 1, shape: [4, 32], low: 0, high: 1}}\n"
        "      b: {generate: {distribution: uniform, seed: 2, shape: [32, 4], low: 0, high: 1}}\n"
        "    expect: {y: {reference: fp64, max_ulp: 4}}\n"
        "    runs: 2\n");
  const Result r = Ane({"regress", "suite.yaml"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  // 3 result lines, a blank line, the table's header and 3 rows, the time line, the summary
  ASSERT_EQ(lines.size(), 10u) << r.out;
  EXPECT_EQ(lines[0].rfind("PASS ones  (", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(")  [1/3, "), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind("PASS from_file  (", 0), 0u) << lines[1];
  EXPECT_NE(lines[2].find("bit-identical over 2 runs"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[4].rfind("case ", 0), 0u) << lines[4];
  EXPECT_NE(lines[4].find("engine    rtl cycles  utilization      time  result"), std::string::npos) << lines[4];
  EXPECT_EQ(lines[5].rfind("ones ", 0), 0u) << lines[5];
  EXPECT_NE(lines[5].find(" oracle "), std::string::npos) << lines[5];
  EXPECT_EQ(lines[5].substr(lines[5].size() - 4), "pass") << lines[5];
  EXPECT_EQ(lines[9], "3 passed, 0 failed");
  EXPECT_FALSE(fs::exists(work_ / "y.npy"));  // regress never writes outputs
}

TEST_F(CliTest, RegressWrongExpectationExitsOne) {
  Write("suite.yaml",
        "cases:\n  - {name: wrong, dot: {data: [{repeat: [4096, -4096, 1], times: 16}]}, expect: "
        "16}\n");
  const Result r = Ane({"regress", "suite.yaml"});
  EXPECT_EQ(r.exit_code, 1);
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 2u) << r.out;
  EXPECT_EQ(lines[0].rfind("FAIL wrong  (dot K=48 m1: y: expected 16 (0x4c00) got 4 (0x4400))  [1/1, ", 0), 0u)
      << lines[0];
  EXPECT_NE(r.out.find("rerun wrong:  ane regress suite.yaml --filter wrong --engine oracle\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("waveform"), std::string::npos) << r.out;  // the oracle has none
  EXPECT_EQ(lines.back(), "0 passed, 1 failed");
}

TEST_F(CliTest, RegressBadSuiteExitsTwoAndRunsNothing) {
  Write("suite.yaml",
        "cases:\n"
        "  - {name: fine, dot: {data: [1]}, expect: 1}\n"
        "  - {name: typo, dot: {data: [1]}, expected: 1}\n");
  const Result r = Ane({"regress", "suite.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("ane: error: suite.yaml: cases[1].expected: unknown field", 0), 0u) << r.err;
}

TEST_F(CliTest, RegressChecksGoldenNpyFilesAndFilters) {
  WriteFp16Inputs();
  WriteNpy("golden.npy", Tensor{DType::kFp16, {2, 2}, {0x4CC0, 0x4D80, 0x5160, 0x5241}});  // last one off
  Write("suite.yaml",
        "cases:\n"
        "  - {name: golden_a, op: matmul, inputs: {a: a.npy, b: b.npy}, expect: {y: {npy: "
        "golden.npy}}}\n"
        "  - {name: other, dot: {data: [1]}, expect: 1}\n");
  const Result r = Ane({"regress", "suite.yaml", "--filter", "golden"});
  EXPECT_EQ(r.exit_code, 1);
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 7u) << r.out;  // result, blank, header, row, time, rerun, summary
  EXPECT_NE(lines[0].find("y[1, 1]: expected 50.03125 (0x5241) in golden.npy got 50 (0x5240)"), std::string::npos)
      << lines[0];
  EXPECT_EQ(lines[6], "0 passed, 1 failed");
}

TEST_F(CliTest, RegressSeedFlagShiftsSeedsAndPrintsThem) {
  Write("suite.yaml",
        "cases:\n"
        "  - name: r\n"
        "    op: matmul\n"
        "    inputs:\n"
        "      a: {generate: {distribution: normal, seed: 1, shape: [2, 8]}}\n"
        "      b: {generate: {distribution: normal, seed: 2, shape: [8, 2]}}\n"
        "    runs: 2\n");
  const Result r = Ane({"regress", "suite.yaml", "--seed", "40"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("seed offset 40"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("seeds 41, 42"), std::string::npos) << r.out;
}

// ---- conv2d (N-2 per output, N-3 per channel) on the neural-engine core ----

// A 3x3 convolution of an all-ones x [2, 3, 4] with padding 1 and kernels of ones (channel 0)
// and of twos (channel 1): every output is the count of real inputs in its window (4 at a
// corner, 6 on an edge, 9 inside) times 2 input channels, times the kernel's value.
TEST_F(CliTest, N2_Conv2dOnBothEnginesMatchesHandValuesAndWritesAWaveform) {
  WriteNpy("x.npy", Tensor{DType::kFp16, {2, 3, 4}, std::vector<uint32_t>(24, 0x3C00)});
  std::vector<uint32_t> w(18, 0x3C00);
  w.insert(w.end(), 18, 0x4000);
  WriteNpy("w.npy", Tensor{DType::kFp16, {2, 2, 3, 3}, w});
  Write("op.yaml",
        "{op: conv2d, generation: m1, stride: [1, 1], padding: [1, 1], inputs: {x: x.npy, w: w.npy}, "
        "outputs: {y: y.npy}}\n");
  const Result r = Ane({"run", "op.yaml", "--engine", "both", "--wave", "conv.fst"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (24 outputs)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("neural-engine core, 256 lanes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wave        conv.fst (top ane_core): open with  gtkwave conv.fst sim/ane_core.gtkw"),
            std::string::npos)
      << r.out;
  ASSERT_TRUE(fs::exists(work_ / "conv.fst"));
  EXPECT_GT(fs::file_size(work_ / "conv.fst"), 1000u);
  const Tensor y = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 3, 4}));
  const std::vector<int> count = {8, 12, 12, 8, 12, 18, 18, 12, 8, 12, 12, 8};
  std::vector<uint32_t> want;
  for (int k : {1, 2}) {
    for (int c : count) want.push_back(HostFp16(double(k * c)));
  }
  EXPECT_EQ(y.bits, want);
}

// A batch [N, C, H, W] runs image by image; groups, stride and int8 requantization with an fp16
// store; y keeps the batch dimension.
TEST_F(CliTest, N3_Conv2dBatchGroupsAndInt8StoreFp16) {
  // x: 2 images [2, 1, 2] (groups 2: one channel per group); w [2, 1, 1, 2] int8.
  WriteNpy("x.npy", Tensor{DType::kInt8, {2, 2, 1, 2}, {10, 20, 3, 4, 0xFB, 6, 7, 8}});  // 0xFB = -5
  WriteNpy("w.npy", Tensor{DType::kInt8, {2, 1, 1, 2}, {1, 2, 3, 0xFF}});                // 0xFF = -1
  Write("op.yaml",
        "{op: conv2d, groups: 2, shift: 2, store: fp16, inputs: {x: x.npy, w: w.npy}, "
        "outputs: {y: y.npy}}\n");
  const Result r = Ane({"run", "op.yaml", "--engine", "both"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Tensor y = ReadNpy(work_ / "y.npy");
  EXPECT_EQ(y.dtype, DType::kFp16);
  EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 2, 1, 1}));
  // image 0: (10 + 40) / 4 = 12.5, (9 - 4) / 4 = 1.25; image 1: (-5 + 12) / 4 = 1.75, (21 - 8) / 4 = 3.25
  EXPECT_EQ(y.bits, (std::vector<uint32_t>{HostFp16(12.5), HostFp16(1.25), HostFp16(1.75), HostFp16(3.25)}));
}

// A depthwise layer through the core's depthwise interleave (docs/core.md): x all ones [4, 3, 4],
// padding 1, kernel k of ones times k + 1: every output is the count of real inputs in its
// window times k + 1. A layer that is not depthwise cannot take that mapping: one line, exit 2.
TEST_F(CliTest, N2_DepthwiseConv2dThroughTheInterleaveMatchesHandValues) {
  WriteNpy("x.npy", Tensor{DType::kFp16, {4, 3, 4}, std::vector<uint32_t>(48, 0x3C00)});
  std::vector<uint32_t> w;
  for (int k = 0; k < 4; ++k) w.insert(w.end(), 9, HostFp16(double(k + 1)));
  WriteNpy("w.npy", Tensor{DType::kFp16, {4, 1, 3, 3}, w});
  Write("op.yaml",
        "{op: conv2d, groups: 4, mapping: depthwise, padding: [1, 1], inputs: {x: x.npy, w: w.npy}, "
        "outputs: {y: y.npy}}\n");
  const Result r = Ane({"run", "op.yaml", "--engine", "both"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("depthwise interleave mapping"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (48 outputs)"), std::string::npos) << r.out;
  const Tensor y = ReadNpy(work_ / "y.npy");
  const std::vector<int> count = {4, 6, 6, 4, 6, 9, 9, 6, 4, 6, 6, 4};
  std::vector<uint32_t> want;
  for (int k = 1; k <= 4; ++k) {
    for (int c : count) want.push_back(HostFp16(double(k * c)));
  }
  EXPECT_EQ(y.bits, want);
  WriteNpy("w2.npy", Tensor{DType::kFp16, {4, 2, 3, 3}, std::vector<uint32_t>(72, 0x3C00)});
  Write("bad.yaml",
        "{op: conv2d, groups: 2, mapping: depthwise, padding: [1, 1], inputs: {x: x.npy, w: w2.npy}, "
        "outputs: {y: y2.npy}}\n");
  const Result b = Ane({"run", "bad.yaml", "--engine", "rtl"});
  EXPECT_EQ(b.exit_code, 2) << b.out << b.err;
  EXPECT_NE(b.err.find("the depthwise interleave takes depthwise layers"), std::string::npos) << b.err;
  EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  EXPECT_FALSE(fs::exists(work_ / "y2.npy"));
}

// A 1x1 convolution in the four-kernel mapping: x [2, 3, 5] of ones except channel 1 = 2, six
// kernels (padded to eight: two slots of four) with w[k] = (k + 1, -1): y[k] = k + 1 - 2 = k - 1.
TEST_F(CliTest, N2_FourKernelConv2dMatchesHandValues) {
  std::vector<uint32_t> x(15, HostFp16(1.0));
  x.insert(x.end(), 15, HostFp16(2.0));
  WriteNpy("x.npy", Tensor{DType::kFp16, {2, 3, 5}, x});
  std::vector<uint32_t> w;
  for (int k = 0; k < 6; ++k) {
    w.push_back(HostFp16(double(k + 1)));
    w.push_back(HostFp16(-1.0));
  }
  WriteNpy("w.npy", Tensor{DType::kFp16, {6, 2, 1, 1}, w});
  Write("op.yaml", "{op: conv2d, mapping: four_kernel, inputs: {x: x.npy, w: w.npy}, outputs: {y: y.npy}}\n");
  const Result r = Ane({"run", "op.yaml", "--engine", "both"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("four-kernel mapping"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (90 outputs)"), std::string::npos) << r.out;
  const Tensor y = ReadNpy(work_ / "y.npy");
  std::vector<uint32_t> want;
  for (int k = 0; k < 6; ++k) want.insert(want.end(), 15, HostFp16(double(k - 1)));
  EXPECT_EQ(y.bits, want);
  // int8 layers have no four-kernel mode: one line, exit 2, no output.
  WriteNpy("x8.npy", Tensor{DType::kInt8, {2, 3, 5}, std::vector<uint32_t>(30, 1)});
  WriteNpy("w8.npy", Tensor{DType::kInt8, {6, 2, 1, 1}, std::vector<uint32_t>(12, 1)});
  Write("bad.yaml",
        "{op: conv2d, mapping: four_kernel, shift: 0, inputs: {x: x8.npy, w: w8.npy}, outputs: {y: y8.npy}}\n");
  const Result b = Ane({"run", "bad.yaml", "--engine", "rtl"});
  EXPECT_EQ(b.exit_code, 2) << b.out << b.err;
  EXPECT_NE(b.err.find("four-kernel"), std::string::npos) << b.err;
  EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  EXPECT_FALSE(fs::exists(work_ / "y8.npy"));
}

TEST_F(CliTest, Conv2dBadInputsGiveOneLineAndExitTwo) {
  WriteNpy("x.npy", Tensor{DType::kFp16, {4, 5, 5}, std::vector<uint32_t>(100, 0x3C00)});
  WriteNpy("w.npy", Tensor{DType::kFp16, {6, 4, 3, 3}, std::vector<uint32_t>(216, 0x3C00)});
  WriteNpy("w8.npy", Tensor{DType::kInt8, {6, 4, 3, 3}, std::vector<uint32_t>(216, 1)});
  WriteNpy("w16.npy", Tensor{DType::kFp16, {1, 4, 16, 16}, std::vector<uint32_t>(1024, 0x3C00)});
  WriteNpy("w2d.npy", Tensor{DType::kFp16, {6, 36}, std::vector<uint32_t>(216, 0x3C00)});
  const std::string io = "outputs: {y: y.npy}";
  struct Bad {
    std::string yaml, field, what;
  };
  for (const Bad& b : std::vector<Bad>{
           {"{op: conv2d, groups: 3, inputs: {x: x.npy, w: w.npy}, " + io + "}", "inputs.w", "groups is 3"},
           {"{op: conv2d, groups: 2, inputs: {x: x.npy, w: w.npy}, " + io + "}", "inputs.w", "need"},
           {"{op: conv2d, shift: 2, inputs: {x: x.npy, w: w8.npy}, " + io + "}", "shift", "this conv2d is fp16 x int8"},
           {"{op: conv2d, inputs: {x: x.npy, w: w16.npy}, " + io + "}", "inputs.x", "outside 1x1 .. 15x15"},
           {"{op: conv2d, inputs: {x: x.npy, w: w2d.npy}, " + io + "}", "inputs.w", "w [Cout, Cin / groups, KH, KW]"},
           {"{op: conv2d, stride: [1, 5], inputs: {x: x.npy, w: w.npy}, " + io + "}", "stride[1]", "1"},
           {"{op: conv2d, padding: [1, 1, 1], inputs: {x: x.npy, w: w.npy}, " + io + "}", "padding", "[top, bottom"},
           {"{op: conv2d, padding: [3, 0], inputs: {x: x.npy, w: w.npy}, " + io + "}", "inputs.x", "padding"},
           {"{op: conv2d, shift: 2, inputs: {x: x.npy, w: w.npy}, " + io + "}", "shift", "this conv2d is fp16"},
           {"{op: conv2d, mapping: wide, inputs: {x: x.npy, w: w.npy}, " + io + "}", "mapping", "unknown mapping"},
           {"{op: conv2d, inputs: {x: x.npy, w: w.npy, bias: {values: [1, 2]}}, " + io + "}", "inputs.bias",
            "shape [6]"},
           {"{op: conv2d, inputs: {x: x.npy, w: w.npy}, kernel: [3, 3], " + io + "}", "kernel", "unknown field"},
       }) {
    Write("op.yaml", b.yaml + "\n");
    ExpectInputError(Ane({"run", "op.yaml", "--engine", "both"}), "op.yaml", b.field, b.what);
  }
  // int8 layers need the requantization shift
  WriteNpy("x8.npy", Tensor{DType::kInt8, {4, 5, 5}, std::vector<uint32_t>(100, 1)});
  Write("op.yaml", "{op: conv2d, inputs: {x: x8.npy, w: w8.npy}, " + io + "}\n");
  ExpectInputError(Ane({"run", "op.yaml"}), "op.yaml", "inputs.w", "needs `shift`");
  // --wave needs an RTL engine and a .fst name
  Write("op.yaml", "{op: conv2d, inputs: {x: x.npy, w: w.npy}, " + io + "}\n");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"run", "op.yaml", "--wave", "a.fst"},
                                               {"run", "op.yaml", "--engine", "rtl", "--wave", "a.vcd"},
                                               {"run", "op.yaml", "--engine", "rtl", "--wave", "nodir/a.fst"}}) {
    const Result r = Ane(args);
    EXPECT_EQ(r.exit_code, 2) << testing::PrintToString(args);
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("--wave"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(work_ / "y.npy"));
  }
}

// regress -j 2 runs cases in child processes; --junit writes one testcase per case; a case
// where rtl and oracle differ (ANE_FAULT) fails, is rerun with a waveform, and the lines to
// open it and rerun it alone are printed.
TEST_F(CliTest, N7_1_RegressInParallelWritesJunitAndAWaveformOfTheFailure) {
  Write("suite.yaml",
        "cases:\n"
        "  - name: conv_a\n"
        "    op: conv2d\n"
        "    inputs:\n"
        "      x: {generate: {distribution: uniform, seed: 1, shape: [1, 6, 7], low: 0, high: 1}}\n"
        "      w: {shape: [2, 1, 1, 1], values: [1, 2]}\n"
        "    expect: {y: {reference: fp64, max_ulp: 0}}\n"
        "  - {name: dot_b, dot: {data: [1, 2, 3]}, expect: 6}\n"
        "  - {name: dot_c, dot: {data: [1, 2]}, expect: 4}\n");  // wrong on purpose: 1 + 2 = 3
  const Result r =
      Ane({"regress", "suite.yaml", "--engine", "both", "-j", "2", "--junit", "out.xml", "--wave-dir", "waves"}, {},
          "ANE_FAULT=0,5");  // x[0][0][5]: y[0, 0, 5] and y[1, 0, 5] differ
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL conv_a  (conv2d 1x1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rtl vs oracle at y[0, 0, 5]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(2 of 84 differ)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PASS dot_b"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL dot_c"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/3, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(case time "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", 2 jobs)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rerun conv_a:  ane regress suite.yaml --filter conv_a --engine both"), std::string::npos);
  EXPECT_NE(r.out.find("waveform of conv_a: waves/conv_a.fst  (open: gtkwave waves/conv_a.fst sim/ane_core.gtkw)"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(fs::exists(work_ / "waves" / "conv_a.fst"));
  EXPECT_EQ(Lines(r.out).back(), "1 passed, 2 failed");
  const std::string xml = ReadText(work_ / "out.xml");
  EXPECT_NE(xml.find("<testsuite name=\"suite\" tests=\"3\" failures=\"2\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase classname=\"suite.both\" name=\"dot_b\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"rtl vs oracle at y["), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"y: expected 4 (0x4400) got 3 (0x4200)\""), std::string::npos) << xml;
  // the same suite without the fault passes but for dot_c, in the suite's order in the table
  const Result ok = Ane({"regress", "suite.yaml", "--engine", "both", "-j2", "--filter", "_"});
  EXPECT_EQ(ok.exit_code, 1) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("PASS conv_a"), std::string::npos) << ok.out;
  // bad -j values
  for (const char* j : {"0", "x", "300"}) {
    const Result b = Ane({"regress", "suite.yaml", "-j", j});
    EXPECT_EQ(b.exit_code, 2) << j;
    EXPECT_NE(b.err.find("-j"), std::string::npos) << b.err;
  }
}

// ---- every fp16 code through every unary operation (N-1, N-4.1, N-5) ----

// All 65,536 fp16 codes in code order (both zeros, denormals, infinities and every NaN).
Tensor AllFp16Codes(std::vector<int64_t> shape) {
  Tensor t{DType::kFp16, std::move(shape), {}};
  for (uint32_t c = 0; c < 0x10000; ++c) t.bits.push_back(c);
  return t;
}

// One unary operation of `ane run` and its result by the contract, from the oracle's own
// functions (called directly here, not through the CLI).
struct UnaryOp {
  std::string name;  // test name
  std::string yaml;  // the op file's fields
  uint16_t (*want)(uint16_t);
};

template <oracle::ActFn F>
uint16_t ActWant(uint16_t x) {
  return oracle::EvalActTable(oracle::DefaultActTable(F), x);
}

std::vector<UnaryOp> UnaryOps() {
  using oracle::ActFn;
  std::vector<UnaryOp> ops = {
      {"abs", "op: elementwise, function: abs", [](uint16_t x) { return oracle::Fp16Abs(x); }},
      {"neg", "op: elementwise, function: neg", [](uint16_t x) { return oracle::Fp16Neg(x); }},
      {"relu", "op: elementwise, function: relu", [](uint16_t x) { return oracle::Fp16Max(x, 0); }},
      {"square", "op: elementwise, function: square", [](uint16_t x) { return oracle::Fp16Square(x); }},
  };
  auto act = [&](const char* fn, uint16_t (*want)(uint16_t)) {
    ops.push_back({fn, std::string("op: activation, function: ") + fn, want});
  };
  act("sigmoid", ActWant<ActFn::kSigmoid>);
  act("tanh", ActWant<ActFn::kTanh>);
  act("gelu", ActWant<ActFn::kGelu>);
  act("silu", ActWant<ActFn::kSilu>);
  act("swish", ActWant<ActFn::kSilu>);
  act("erf", ActWant<ActFn::kErf>);
  act("exp", ActWant<ActFn::kExp>);
  act("softplus", ActWant<ActFn::kSoftplus>);
  act("softsign", ActWant<ActFn::kSoftsign>);
  act("sin", ActWant<ActFn::kSin>);
  act("cos", ActWant<ActFn::kCos>);
  act("log", ActWant<ActFn::kLog>);
  act("recip", ActWant<ActFn::kRecip>);
  act("rsqrt", ActWant<ActFn::kRsqrt>);
  act("sqrt", ActWant<ActFn::kSqrt>);
  return ops;
}

class UnarySweep : public CliTest, public ::testing::WithParamInterface<UnaryOp> {};

// `ane run` of the operation over every fp16 code, on each engine: exit 0, nothing on stderr,
// the fp64 reference line printed, and every output the contract's result (rtl and both too:
// both also compares rtl with the oracle itself). Found: sigmoid of x <= -75 exited 3 with
// "Exact: value out of range" from the fp64 reference line.
TEST_P(UnarySweep, N1_N4_1_N5_EveryFp16CodeOnEveryEngine) {
  const UnaryOp& op = GetParam();
  WriteNpy("x.npy", AllFp16Codes({0x10000}));
  Write("op.yaml", "{" + op.yaml + ", inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
  std::vector<uint32_t> want;
  for (uint32_t c = 0; c < 0x10000; ++c) want.push_back(op.want(uint16_t(c)));
  for (const char* engine : {"oracle", "rtl", "both"}) {
    fs::remove(work_ / "y.npy");
    const Result r = Ane({"run", "op.yaml", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << op.name << " on " << engine << ": " << r.err;
    EXPECT_EQ(r.err, "") << engine;
    EXPECT_NE(r.out.find("vs fp64"), std::string::npos) << engine << "\n" << r.out;
    const Tensor y = ReadNpy(work_ / "y.npy");
    ASSERT_EQ(y.shape, std::vector<int64_t>{0x10000}) << engine;
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      if (y.bits[i] != want[i] && wrong++ == 0) first = i;
    }
    EXPECT_EQ(wrong, 0u) << op.name << " on " << engine << ": first x = 0x" << std::hex << first << " gives 0x"
                         << y.bits[first] << ", the contract 0x" << want[first];
  }
}

INSTANTIATE_TEST_SUITE_P(EveryUnaryOp, UnarySweep, ::testing::ValuesIn(UnaryOps()),
                         [](const ::testing::TestParamInfo<UnaryOp>& p) { return p.param.name; });

// The reductions and softmax over every fp16 code (infinities and NaNs in every row, sums that
// overflow), on both engines compared bit for bit, with the fp64 reference line: exit 0.
TEST_F(CliTest, N4_5_N4_7_EveryFp16CodeThroughReductionsAndSoftmax) {
  WriteNpy("x.npy", AllFp16Codes({256, 256}));
  const std::vector<std::string> ops = {
      "op: reduce, function: sum, axis: rows",   "op: reduce, function: max, axis: columns",
      "op: reduce, function: min, axis: rows",   "op: pool, function: mean, kernel: [3, 3], stride: [2, 2]",
      "op: pool, function: max, kernel: [2, 2]", "op: softmax, axis: rows",
  };
  for (const std::string& o : ops) {
    Write("op.yaml", "{" + o + ", inputs: {x: x.npy}, outputs: {y: y.npy}}\n");
    fs::remove(work_ / "y.npy");
    const Result r = Ane({"run", "op.yaml", "--engine", "both"});
    EXPECT_EQ(r.exit_code, 0) << o << ": " << r.err << r.out;
    EXPECT_NE(r.out.find("vs fp64"), std::string::npos) << o << "\n" << r.out;
    EXPECT_TRUE(fs::exists(work_ / "y.npy")) << o;
  }
}

// Generated tensors at the edges of the generators' parameter ranges (|x| up to 2^40, grids
// of 2^-40) through the fp64 reference: every one exits 0 and overflows to inf or rounds to
// zero as RNE16 says (checked on the few values that are known by hand).
TEST_F(CliTest, N0_3_GeneratedTensorsWithExtremeParameters) {
  const std::vector<std::string> gens = {
      "{distribution: normal, seed: 1, shape: [64], mean: 1099511627776, std: 1099511627776}",
      "{distribution: uniform, seed: 2, shape: [64], low: -1099511627776, high: 1099511627776}",
      "{distribution: range, shape: [64], start: -1099511627776, step: 1099511627776}",
      "{distribution: range, shape: [64], start: 0, step: 0.0000000000009094947017729282379150390625}",
      "{distribution: normal, seed: 3, shape: [64], mean: 0, std: 0.0000000000009094947017729282379150390625}",
  };
  for (const std::string& g : gens) {
    for (const char* o : {"op: activation, function: exp", "op: elementwise, function: square",
                          "op: reduce, function: sum, axis: rows", "op: softmax, axis: rows"}) {
      Write("op.yaml", std::string("{") + o + ", inputs: {x: {generate: " + g + "}}, outputs: {y: y.npy}}\n");
      const Result r = Ane({"run", "op.yaml", "--engine", "both"});
      EXPECT_EQ(r.exit_code, 0) << o << " of " << g << ": " << r.err << r.out;
    }
  }
  // range from -2^40 in steps of 2^40: -2^40 and 2^40.. are +-inf in fp16, 0 stays 0.
  Write("op.yaml",
        "{op: elementwise, function: abs, inputs: {x: {generate: {distribution: range, shape: [3], "
        "start: -1099511627776, step: 1099511627776}}}, outputs: {y: y.npy}}\n");
  ASSERT_EQ(Ane({"run", "op.yaml"}).exit_code, 0);
  EXPECT_EQ(ReadNpy(work_ / "y.npy").bits, (std::vector<uint32_t>{0x7C00, 0x0000, 0x7C00}));
}

// ---- regress: shards and merged JUnit reports ----

// The cases of a JUnit file: "classname name" per testcase, in file order.
std::vector<std::string> JunitCases(const std::string& xml) {
  std::vector<std::string> cases;
  for (size_t p = xml.find("<testcase "); p != std::string::npos; p = xml.find("<testcase ", p + 1)) {
    const size_t end = xml.find('>', p);
    const std::string tag = xml.substr(p, end - p);
    const size_t n = tag.find(" name=\"");
    cases.push_back(tag.substr(n + 7, tag.find('"', n + 7) - n - 7));
  }
  return cases;
}

TEST_F(CliTest, RegressShardsSplitTheSuiteAndMergeIntoTheWholeReport) {
  std::string suite = "cases:\n";
  for (int i = 0; i < 7; ++i) {
    suite += "  - {name: c" + std::to_string(i) + ", dot: {data: [" + std::to_string(i) +
             ", 1]}, expect: " + std::to_string(i + 1) + "}\n";
  }
  Write("suite.yaml", suite);
  const Result whole = Ane({"regress", "suite.yaml", "--junit", "whole.xml"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const std::vector<std::string> all = JunitCases(ReadText(work_ / "whole.xml"));
  ASSERT_EQ(all.size(), 7u);
  for (int n : {1, 2, 3, 7, 10}) {
    std::vector<std::string> files;
    std::multiset<std::string> seen;
    for (int i = 1; i <= n; ++i) {
      const std::string f = "s" + std::to_string(i) + ".xml";
      const std::string shard = std::to_string(i) + "/" + std::to_string(n);
      const Result r = Ane({"regress", "suite.yaml", "--shard", shard, "--junit", f});
      ASSERT_EQ(r.exit_code, 0) << shard << r.err;
      EXPECT_NE(r.out.find("shard " + shard + ": "), std::string::npos) << r.out;
      // the GoogleTest convention selects the same cases (0-based index)
      const Result e = Ane({"regress", "suite.yaml", "--junit", "env.xml"}, {},
                           "GTEST_SHARD_INDEX=" + std::to_string(i - 1) + " GTEST_TOTAL_SHARDS=" + std::to_string(n));
      ASSERT_EQ(e.exit_code, 0) << e.err;
      const std::vector<std::string> mine = JunitCases(ReadText(work_ / f));
      EXPECT_EQ(JunitCases(ReadText(work_ / "env.xml")), mine) << shard;
      for (size_t k = 0; k < mine.size(); ++k) {
        // shard i of n holds the cases at positions i, i + n, ... (1-based)
        EXPECT_EQ(mine[k], "c" + std::to_string(i - 1 + int(k) * n)) << shard;
      }
      seen.insert(mine.begin(), mine.end());
      files.push_back(f);
    }
    // every case in exactly one shard
    EXPECT_EQ(seen, std::multiset<std::string>(all.begin(), all.end())) << n << " shards";
    std::vector<std::string> merge = {"regress", "--merge-junit", "merged.xml"};
    merge.insert(merge.end(), files.rbegin(), files.rend());  // any order
    const Result m = Ane(merge);
    ASSERT_EQ(m.exit_code, 0) << m.err;
    EXPECT_NE(m.out.find("7 cases, 7 passed, 0 failed"), std::string::npos) << m.out;
    std::vector<std::string> merged = JunitCases(ReadText(work_ / "merged.xml"));
    std::sort(merged.begin(), merged.end());
    EXPECT_EQ(merged, all) << n << " shards";
    EXPECT_NE(ReadText(work_ / "merged.xml").find("<testsuite name=\"suite\" tests=\"7\" failures=\"0\""),
              std::string::npos);
  }
  // The project's default suite in 4 parts on the oracle: the merged report is the
  // unsharded one's cases, each once.
  const std::string def = std::string(ANE_SOURCE_DIR) + "/sim/regress/default.yaml";
  ASSERT_EQ(Ane({"regress", def, "--junit", "dwhole.xml"}).exit_code, 0);
  std::vector<std::string> dall = JunitCases(ReadText(work_ / "dwhole.xml"));
  ASSERT_GE(dall.size(), 60u);
  std::vector<std::string> dmerge = {"regress", "--merge-junit", "dmerged.xml"};
  for (int i = 1; i <= 4; ++i) {
    const std::string f = "d" + std::to_string(i) + ".xml";
    ASSERT_EQ(Ane({"regress", def, "--shard", std::to_string(i) + "/4", "--junit", f}).exit_code, 0);
    dmerge.push_back(f);
  }
  const Result dm = Ane(dmerge);
  ASSERT_EQ(dm.exit_code, 0) << dm.err;
  std::vector<std::string> dmerged = JunitCases(ReadText(work_ / "dmerged.xml"));
  std::sort(dall.begin(), dall.end());
  std::sort(dmerged.begin(), dmerged.end());
  EXPECT_EQ(dmerged, dall);
  // GTEST_SHARD_STATUS_FILE is created, as GoogleTest's sharding protocol asks.
  ASSERT_EQ(Ane({"regress", "suite.yaml", "--shard", "1/2"}, {}, "GTEST_SHARD_STATUS_FILE=status").exit_code, 0);
  EXPECT_TRUE(fs::exists(work_ / "status"));
}

TEST_F(CliTest, RegressShardAndMergeRefuseWhatCannotBeWhole) {
  Write("suite.yaml",
        "cases:\n  - {name: a, dot: {data: [1]}, expect: 1}\n  - {name: b, dot: {data: [2]}, expect: 2}\n"
        "  - {name: c, dot: {data: [3]}, expect: 4}\n");
  for (const char* bad : {"0/2", "3/2", "1/0", "x", "1/", "/2", "-1/2", "1/2/3", "1/100000"}) {
    const Result r = Ane({"regress", "suite.yaml", "--shard", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_EQ(r.err.rfind("ane: error: --shard " + std::string(bad) + ": expected I/N", 0), 0u) << r.err;
  }
  for (const char* env : {"GTEST_SHARD_INDEX=0", "GTEST_TOTAL_SHARDS=2", "GTEST_SHARD_INDEX=2 GTEST_TOTAL_SHARDS=2",
                          "GTEST_SHARD_INDEX=x GTEST_TOTAL_SHARDS=2"}) {
    const Result r = Ane({"regress", "suite.yaml"}, {}, env);
    EXPECT_EQ(r.exit_code, 2) << env;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("GTEST_"), std::string::npos) << r.err;
  }
  // shard 2/3 holds case b only; shard 3/3 holds c, which fails: the merge says so (exit 1).
  for (int i = 1; i <= 3; ++i) {
    Ane({"regress", "suite.yaml", "--shard", std::to_string(i) + "/3", "--junit", "p" + std::to_string(i) + ".xml"});
  }
  Ane({"regress", "suite.yaml", "--shard", "2/2", "--junit", "q2.xml"});                   // [b]
  Ane({"regress", "suite.yaml", "--shard", "2/3", "--filter", "b", "--junit", "f2.xml"});  // [b]: 2/3 is empty
  Ane({"regress", "suite.yaml", "--junit", "all.xml"});
  const Result ok = Ane({"regress", "--merge-junit", "m.xml", "p1.xml", "p2.xml", "p3.xml"});
  EXPECT_EQ(ok.exit_code, 1) << ok.err;
  EXPECT_NE(ok.out.find("3 cases, 2 passed, 1 failed"), std::string::npos) << ok.out;
  fs::remove(work_ / "m.xml");
  Write("junk.xml", "<testsuites><testsuite name=\"x\"><testcase name=\"t\"></testsuite></testsuites>\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> refusals = {
      {{"p1.xml", "p2.xml"}, "shard 3/3 of suite suite is missing"},
      {{"p1.xml", "p2.xml", "p3.xml", "p2.xml"}, "p2.xml: given twice"},
      {{"p1.xml", "q2.xml", "p3.xml"}, "different splits"},
      {{"p1.xml", "f2.xml", "p3.xml"}, "different filters"},
      {{"p1.xml", "p2.xml", "p3.xml", "all.xml"}, "testcase a of suite is also in p1.xml"},
      {{"p1.xml", "p2.xml", "p3.xml", "nope.xml"}, "nope.xml: no such file"},
      {{"p1.xml", "junk.xml"}, "junk.xml: line 1: not JUnit XML"},
      {{}, "needs the JUnit files"},
  };
  for (const auto& [inputs, what] : refusals) {
    std::vector<std::string> args = {"regress", "--merge-junit", "m.xml"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const Result r = Ane(args);
    EXPECT_EQ(r.exit_code, 2) << what;
    ASSERT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(work_ / "m.xml")) << what;
  }
}

// What `make run` runs: the default suite on the RTL and the oracle, compared bit for bit.
TEST_F(CliTest, DefaultSuitePasses) {
  const Result r = Ane({"regress", std::string(ANE_SOURCE_DIR) + "/sim/regress/default.yaml", "--engine", "both"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find(" passed, 0 failed"), std::string::npos) << lines.back();
  EXPECT_NE(r.out.find("rtl = oracle"), std::string::npos);
}

}  // namespace
}  // namespace ane::cli
