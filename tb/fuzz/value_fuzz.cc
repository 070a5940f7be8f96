// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the value parser (ParseValue, ParseValueList: every value in an op file or a
// suite, docs/cli.md "Values") and the exact decimal reader behind it and behind the generator
// parameters (ParseDecimal, DecimalToExact, DecimalToGrid), plus the integer fields.
//
// The first byte picks the mode (its value mod 6): 0, 1, 2 read the rest as one scalar of fp16,
// int8 or int32; 3, 4, 5 parse the rest as YAML and read it as a value list (with repeat groups)
// of fp16, int8 or int32. CliError is the documented answer to bad input; anything else is a
// finding. A value that parses must print (FormatValue) to a text that parses back to the same
// bits, as docs/cli.md promises for every value `ane` prints.
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tb/cli/npy.h"
#include "tb/cli/schema.h"
#include "tb/cli/tensors.h"
#include "tb/fuzz/fuzz_util.h"
#include "tb/oracle/formats.h"

namespace {

using ane::cli::CliError;
using ane::cli::DType;
using ane::cli::Field;

[[noreturn]] void Finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_value: %s\n", what.c_str());
  std::abort();
}

// FormatValue(bits) must parse back to bits (NaN prints as "nan (0x7e01)", which is not a value).
void CheckRoundTrip(uint32_t bits, DType dtype) {
  if (dtype == DType::kFp16 && ane::oracle::Fp16IsNan(uint16_t(bits))) return;
  const std::string text = ane::cli::FormatValue(bits, dtype);
  uint32_t back = 0;
  try {
    back = ane::cli::ParseValue(Field(YAML::Node(text), "fuzz", "printed"), dtype);
  } catch (const CliError& e) {
    Finding(std::string("a printed value does not parse: ") + e.what());
  }
  if (back != bits) Finding("'" + text + "' parses to other bits");
}

void Scalar(const std::string& text, DType dtype) {
  const Field f(YAML::Node(text), "fuzz", "value");
  try {
    CheckRoundTrip(ane::cli::ParseValue(f, dtype), dtype);
  } catch (const CliError& e) {
    ane::fuzz::Rejected(e.what());
  }
  // The integer fields (shapes, seeds, counts) and the decimal reader of the generator
  // parameters read the same texts.
  try {
    f.Integer(INT64_MIN, INT64_MAX);
  } catch (const CliError&) {}
  try {
    f.Unsigned64();
  } catch (const CliError&) {}
  if (const std::optional<ane::cli::Decimal> d = ane::cli::ParseDecimal(text)) {
    ane::cli::DecimalToExact(*d);
    ane::cli::DecimalToGrid(*d, 40);
  }
}

void List(const std::string& text, DType dtype) {
  YAML::Node node;
  try {
    node = YAML::Load(text);
  } catch (const YAML::Exception&) {
    return;  // the harness's own parse (LoadYamlFile turns this into a CliError)
  }
  try {
    const std::vector<uint32_t> values = ane::cli::ParseValueList(Field(node, "fuzz", "values"), dtype);
    // The scalar mode checks every value's round trip; a few per list keep long lists quick.
    for (size_t i = 0; i < values.size() && i < 8; ++i) CheckRoundTrip(values[i], dtype);
  } catch (const CliError& e) {
    ane::fuzz::Rejected(e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  static constexpr DType kTypes[] = {DType::kFp16, DType::kInt8, DType::kInt32};
  const int mode = data[0] % 6;
  if (mode < 3) {
    Scalar(text, kTypes[mode]);
  } else {
    List(text, kTypes[mode - 3]);
  }
  return 0;
}
