// SPDX-License-Identifier: Apache-2.0
// Values, exact decimals and tensor generation: exact parsing and printing of every fp16
// value, pinned generator outputs (computed independently), and the YAML field checks,
// including the input-handling fixes from fuzzing the readers (tb/fuzz).
#include "tb/cli/tensors.h"

#include <gtest/gtest.h>

#include <functional>

#include "tb/cli/operation.h"
#include "tb/cli/schema.h"
#include "tb/oracle/formats.h"

namespace ane::cli {
namespace {

Field Yaml(const std::string& text) { return Field(YAML::Load(text), "test.yaml", "x"); }

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const CliError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ValuesTest, EveryFp16CodeFormatsToExactDecimalThatParsesBack) {
  for (uint32_t code = 0; code <= 0xFFFF; ++code) {
    if (oracle::Fp16IsNan(uint16_t(code))) continue;
    const std::string text = FormatValue(code, DType::kFp16);
    ASSERT_EQ(ParseValue(Yaml(text), DType::kFp16), code) << "code 0x" << std::hex << code << " text " << text;
  }
}

TEST(ValuesTest, FormatsExactDecimals) {
  EXPECT_EQ(FormatValue(0x0001, DType::kFp16), "0.000000059604644775390625");  // 2^-24
  EXPECT_EQ(FormatValue(0x2E66, DType::kFp16), "0.0999755859375");
  EXPECT_EQ(FormatValue(0x7BFF, DType::kFp16), "65504");
  EXPECT_EQ(FormatValue(0xFC00, DType::kFp16), "-inf");
  EXPECT_EQ(FormatValue(0x80, DType::kInt8), "-128");
  EXPECT_EQ(FormatValue(0xFFFFFFFF, DType::kInt32), "-1");
}

TEST(ValuesTest, ParsesHexInfinityAndExponentForms) {
  EXPECT_EQ(ParseValue(Yaml("0x7c00"), DType::kFp16), 0x7C00u);
  EXPECT_EQ(ParseValue(Yaml("-.inf"), DType::kFp16), 0xFC00u);
  EXPECT_EQ(ParseValue(Yaml("inf"), DType::kFp16), 0x7C00u);
  EXPECT_EQ(ParseValue(Yaml("6.103515625e-05"), DType::kFp16), 0x0400u);  // 2^-14
  EXPECT_EQ(ParseValue(Yaml("1.5e3"), DType::kFp16), 0x65DCu);
  EXPECT_EQ(ParseValue(Yaml("16.0"), DType::kFp16), 0x4C00u);
  EXPECT_EQ(ParseValue(Yaml("-0"), DType::kFp16), 0x8000u);
  EXPECT_EQ(ParseValue(Yaml("-128"), DType::kInt8), 0x80u);
  EXPECT_EQ(ParseValue(Yaml("0xff"), DType::kInt8), 0xFFu);
  EXPECT_EQ(ParseValue(Yaml("-2147483648"), DType::kInt32), 0x80000000u);
}

TEST(ValuesTest, RejectsValuesThatAreNotExactlyRepresentable) {
  EXPECT_NE(ErrorOf([] { ParseValue(Yaml("0.1"), DType::kFp16); }).find("nearest: 0.0999755859375"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseValue(Yaml("2049"), DType::kFp16); }).find("nearest: 2048"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseValue(Yaml("65520"), DType::kFp16); }).find("overflows"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseValue(Yaml("1e-30"), DType::kFp16); }).find("not exactly representable"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseValue(Yaml("abc"), DType::kFp16); }).find("not a number"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseValue(Yaml("128"), DType::kInt8); }).find("out of range"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseValue(Yaml("0x1ff"), DType::kInt8); }).find("does not fit"), std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseValue(Yaml("[1]"), DType::kFp16); }).find("test.yaml: x: expected a value"),
            std::string::npos);
}

TEST(ValuesTest, ExpandsNestedRepeatGroups) {
  const std::vector<uint32_t> v =
      ParseValueList(Yaml("[2, {repeat: [1, {repeat: 0, times: 2}], times: 2}, {repeat: -1, times: 1}]"), DType::kFp16);
  EXPECT_EQ(v, (std::vector<uint32_t>{0x4000, 0x3C00, 0, 0, 0x3C00, 0, 0, 0xBC00}));
  EXPECT_NE(ErrorOf([] { ParseValueList(Yaml("[{repeat: 1}]"), DType::kFp16); }).find("x[0].times: missing"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseValueList(Yaml("[[1, 2]]"), DType::kFp16); }).find("nested lists"), std::string::npos);
}

// Input handling (found while writing tb/fuzz; regression inputs value/repeat_alias_cycle and
// operation/repeat_alias_cycle.yaml): a YAML alias can make a list hold itself, and expanding its
// repeat groups recursed until the stack overflowed (a crash, no message). Groups nest at most
// 8 deep.
TEST(ValuesTest, InputHandlingRepeatGroupsNestAtMost8Deep) {
  const std::string error = ErrorOf([] { ParseValueList(Yaml("&a [1, {repeat: *a, times: 2}]"), DType::kFp16); });
  EXPECT_NE(error.find("repeat groups nested more than 8 deep"), std::string::npos) << error;
  std::string nested = "1";
  for (int depth = 0; depth < 8; ++depth) nested = "[{repeat: " + nested + ", times: 2}]";
  EXPECT_EQ(ParseValueList(Yaml(nested), DType::kFp16).size(), 256u);  // 8 groups, 2^8 ones
  nested = "[{repeat: " + nested + ", times: 1}]";
  EXPECT_NE(ErrorOf([&] { ParseValueList(Yaml(nested), DType::kFp16); }).find("nested more than 8"), std::string::npos);
}

// Input handling (found by fuzz_operation; regression inputs operation/yaml_*): on a stray ','
// at the top level, or some broken flow maps, yaml-cpp 0.7's LoadAll collected empty documents
// without end until the memory ran out ("internal error: std::bad_alloc", or the machine's
// memory). Now one line: malformed YAML at the place the parser stops.
TEST(SchemaTest, InputHandlingMalformedYamlThatStopsTheParserIsOneError) {
  auto error = [](const std::string& text) { return ErrorOf([&] { ParseYamlFile(text, "t.yaml"); }); };
  EXPECT_EQ(error("\n,\n"), "t.yaml: line 2, column 1: malformed YAML: the parser cannot go on from here");
  EXPECT_EQ(error("{op: matmul},"), "t.yaml: line 1, column 13: malformed YAML: the parser cannot go on from here");
  // What LoadAll gave before, unchanged.
  EXPECT_EQ(error("a: 1\n---\nb: 2\n"), "t.yaml: holds several YAML documents; expected one");
  EXPECT_EQ(error("a: 1\n---\n"), "t.yaml: holds several YAML documents; expected one");
  EXPECT_EQ(error("# nothing\n"), "t.yaml: is empty; expected a YAML map");
  EXPECT_EQ(error("[1, 2]"), "t.yaml: expected a map at the top level, got a list");
  EXPECT_EQ(error("a: [1"), "t.yaml: line 1, column 1: malformed YAML: end of sequence flow not found");
  EXPECT_EQ(ParseYamlFile("a: 1\n...\n", "t.yaml").node()["a"].Scalar(), "1");
}

// Input handling: a shape has at most NumPy's 32 dimensions (see NpyTest.InputHandling...).
TEST(SchemaTest, InputHandlingShapeHasAtMost32Dimensions) {
  std::string shape = "[1";
  for (int i = 1; i < 32; ++i) shape += ", 1";
  EXPECT_EQ(Yaml(shape + "]").Shape().size(), 32u);
  EXPECT_NE(ErrorOf([&] { Yaml(shape + ", 1]").Shape(); }).find("x: 33 dimensions; at most 32"), std::string::npos);
}

// Input handling (found while writing tb/fuzz; regression inputs operation/*_output_over_the_bound
// and suite/matmul_output_over_the_bound.yaml): an output far larger than the inputs (an outer
// product, a 1x1 conv2d with many output channels) made the engines fail to allocate it (exit 3)
// or, for a suite's `equals: 0`, the reader allocate 16 GiB. It is bad input under the bound of
// an input tensor, 2^28 elements.
TEST(OperationTest, InputHandlingOutputOverTheTensorBoundIsAnError) {
  auto error = [](const std::string& text) {
    return ErrorOf([&] {
      Fields fields(Field(YAML::Load(text), "op.yaml", ""));
      ReadOperation(fields, TensorOptions{});
    });
  };
  EXPECT_EQ(error("{op: matmul, inputs: {a: {generate: {distribution: zeros, shape: [65536, 1]}},"
                  " b: {generate: {distribution: zeros, shape: [1, 65536]}}}}"),
            "op.yaml: inputs: the output y would be fp16 [65536, 65536], more than 2^28 elements "
            "(line 1)");
  EXPECT_EQ(error("{op: conv2d, inputs: {"
                  "x: {generate: {distribution: zeros, shape: [1, 512, 512]}}, "
                  "w: {generate: {distribution: zeros, shape: [2048, 1, 1, 1]}}}}"),
            "op.yaml: inputs: the output y would be fp16 [2048, 512, 512], more than 2^28 elements "
            "(line 1)");
  EXPECT_EQ(error("{op: matmul, inputs: {a: {generate: {distribution: zeros, shape: [16384, 1]}},"
                  " b: {generate: {distribution: zeros, shape: [1, 16384]}}}}"),
            "(no error)");  // 2^28 outputs: at the bound
}

TEST(DecimalTest, ReadsBinaryFractionsExactlyAndRoundsOthersToTheGrid) {
  const auto exact = DecimalToExact(*ParseDecimal("0.375"));
  ASSERT_TRUE(exact.has_value());
  EXPECT_EQ(*exact, oracle::Exact::FromInt(false, 3, -3));
  EXPECT_FALSE(DecimalToExact(*ParseDecimal("0.1")).has_value());
  // 0.1 * 2^40 = 109951162777.6 -> 109951162778
  EXPECT_EQ(*DecimalToGrid(*ParseDecimal("0.1"), 40), oracle::Exact::FromInt(false, 109951162778ull, -40));
  EXPECT_FALSE(ParseDecimal("1.2.3").has_value());
  EXPECT_FALSE(ParseDecimal("").has_value());
  EXPECT_FALSE(ParseDecimal("1e").has_value());
}

TEST(GeneratorTest, SplitMix64MatchesTheReferenceSequence) {
  SplitMix64 rng(1234567);  // values from Vigna's splitmix64.c
  EXPECT_EQ(rng.Next(), 6457827717110365317ull);
  EXPECT_EQ(rng.Next(), 3203168211198807973ull);
  EXPECT_EQ(rng.Next(), 9817491932198370423ull);
}

// The expected codes were computed independently (Python: splitmix64, exact sums, struct 'e').
TEST(GeneratorTest, GeneratedTensorsArePinnedAcrossMachines) {
  const TensorOptions none;
  EXPECT_EQ(LoadTensor(Yaml("{generate: {distribution: normal, seed: 1, shape: [6]}}"), none).tensor.bits,
            (std::vector<uint32_t>{0x3db3, 0xb8f4, 0xb8ba, 0x3dbb, 0x38ac, 0xbd8b}));
  EXPECT_EQ(LoadTensor(Yaml("{generate: {distribution: uniform, seed: 7, shape: [2, 3]}}"), none).tensor.bits,
            (std::vector<uint32_t>{0xb30d, 0xbbbb, 0x3a6a, 0x314f, 0xae16, 0xb802}));
  const Tensor i8 =
      LoadTensor(Yaml("{generate: {distribution: uniform, seed: 9, shape: [6], dtype: int8}}"), none).tensor;
  std::vector<int> values;
  for (uint32_t b : i8.bits) values.push_back(int8_t(uint8_t(b)));
  EXPECT_EQ(values, (std::vector<int>{46, 64, -61, 72, -61, -99}));
}

TEST(GeneratorTest, SeedOffsetShiftsEverySeed) {
  const LoadedTensor shifted =
      LoadTensor(Yaml("{generate: {distribution: normal, seed: 1, shape: [6]}}"), TensorOptions{6});
  const LoadedTensor direct =
      LoadTensor(Yaml("{generate: {distribution: normal, seed: 7, shape: [6]}}"), TensorOptions{});
  EXPECT_EQ(shifted.tensor.bits, direct.tensor.bits);
  EXPECT_EQ(shifted.seed, std::optional<uint64_t>(7));
}

TEST(GeneratorTest, DeterministicDistributionsHaveTheirDocumentedValues) {
  const TensorOptions none;
  EXPECT_EQ(LoadTensor(Yaml("{generate: {distribution: range, shape: [4], start: -1, step: 0.5}}"), none).tensor.bits,
            (std::vector<uint32_t>{0xBC00, 0xB800, 0x0000, 0x3800}));
  EXPECT_EQ(LoadTensor(Yaml("{generate: {distribution: identity, shape: [2, 3]}}"), none).tensor.bits,
            (std::vector<uint32_t>{0x3C00, 0, 0, 0, 0x3C00, 0}));
  EXPECT_EQ(LoadTensor(Yaml("{generate: {distribution: constant, value: -inf, shape: [2]}}"), none).tensor.bits,
            (std::vector<uint32_t>{0xFC00, 0xFC00}));
  EXPECT_NE(ErrorOf([&] {
              LoadTensor(Yaml("{generate: {distribution: range, shape: [3], dtype: int8, start: 126}}"), none);
            }).find("leaves the int8 range"),
            std::string::npos);
}

TEST(GeneratorTest, NormalHasTheRequestedMeanAndDeviation) {
  const Tensor t =
      LoadTensor(Yaml("{generate: {distribution: normal, seed: 3, shape: [20000], mean: 2, std: 0.5}}"), {}).tensor;
  double sum = 0;
  double sum2 = 0;
  for (uint32_t b : t.bits) {
    const double v = oracle::Fp16ToDouble(uint16_t(b));
    sum += v;
    sum2 += v * v;
  }
  const double mean = sum / double(t.bits.size());
  const double var = sum2 / double(t.bits.size()) - mean * mean;
  EXPECT_NEAR(mean, 2.0, 0.02);
  EXPECT_NEAR(var, 0.25, 0.01);
}

TEST(GeneratorTest, Int8NormalRoundsAndClamps) {
  const Tensor t =
      LoadTensor(Yaml("{generate: {distribution: normal, seed: 4, shape: [4000], dtype: int8, std: 100}}"), {}).tensor;
  bool saw_min = false;
  bool saw_max = false;
  for (uint32_t b : t.bits) {
    ASSERT_LE(b, 0xFFu);
    saw_min |= b == 0x80;
    saw_max |= b == 0x7F;
  }
  EXPECT_TRUE(saw_min && saw_max);  // 100 * up to 6 std reaches both ends of the int8 range
}

TEST(GeneratorTest, RejectsBadGeneratorFields) {
  const TensorOptions none;
  auto error = [&](const char* yaml) { return ErrorOf([&] { LoadTensor(Yaml(yaml), none); }); };
  EXPECT_NE(error("{generate: {distribution: normal, shape: [2]}}").find("x.generate.seed: missing"),
            std::string::npos);
  EXPECT_NE(error("{generate: {distribution: ones, seed: 1, shape: [2]}}").find("x.generate.seed: unknown field"),
            std::string::npos);
  EXPECT_NE(error("{generate: {distribution: gauss, seed: 1, shape: [2]}}").find("unknown distribution"),
            std::string::npos);
  EXPECT_NE(error("{generate: {distribution: uniform, seed: 1, shape: [2], low: 1, high: 1}}").find("low < high"),
            std::string::npos);
  EXPECT_NE(error("{generate: {distribution: ones, shape: [2, 0]}}").find("x.generate.shape[1]"), std::string::npos);
  EXPECT_NE(error("{generate: {distribution: ones, shape: [2], dtype: fp32}}").find("unknown dtype"),
            std::string::npos);
  EXPECT_NE(error("{values: [1, 2, 3], shape: [2, 2]}").find("3 values do not fill shape [2, 2]"), std::string::npos);
  EXPECT_NE(error("{values: [1], generate: {}}").find("either generate or values"), std::string::npos);
}

}  // namespace
}  // namespace ane::cli
