// SPDX-License-Identifier: Apache-2.0
// Strict reading of the `ane` command's YAML files (docs/cli.md): every field is checked, an
// unknown or missing field is an error naming the file and the field path, and numbers are
// read exactly from their decimal text (never through host floating point).
#ifndef TB_CLI_SCHEMA_H_
#define TB_CLI_SCHEMA_H_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/oracle/exact.h"

namespace ane::cli {

// The largest tensor the command accepts, in elements: 2^28 for a shape, a list of values, a
// generated tensor or an output. It catches a mistyped shape before it eats the memory. The fuzz
// build (tb/fuzz) lowers it with -DANE_CLI_MAX_ELEMENTS_LOG2=12 so that every input is quick to
// read; the code paths stay the same.
#ifndef ANE_CLI_MAX_ELEMENTS_LOG2
#define ANE_CLI_MAX_ELEMENTS_LOG2 28
#endif
inline constexpr int kMaxElementsLog2 = ANE_CLI_MAX_ELEMENTS_LOG2;
inline constexpr int64_t kMaxElements = int64_t{1} << kMaxElementsLog2;

// A user-facing error: bad input or bad usage. main() prints "ane: error: <what()>" as one
// line and exits with code 2. what() is "<file>: <field>: <message>" for a field of a file.
class CliError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws CliError("<file>: <field>: <what>"); the field part is left out when empty.
[[noreturn]] void FailAt(const std::string& file, const std::string& field, const std::string& what);

// A YAML node, the file it was read from and its field path ("inputs.a.generate.shape",
// "cases[3].expect.y"), so that any complaint about it names both.
class Field {
 public:
  Field(YAML::Node node, std::string file, std::string path);

  const YAML::Node& node() const { return node_; }
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }

  [[noreturn]] void Fail(const std::string& what) const;

  bool IsMap() const { return node_.IsMap(); }
  bool IsSequence() const { return node_.IsSequence(); }
  bool IsScalar() const { return node_.IsScalar(); }

  // The scalar text; fails for a map, a list or a null.
  std::string Scalar() const;
  // The items of a list; fails unless a list.
  std::vector<Field> Items() const;
  // A decimal integer in [lo, hi].
  int64_t Integer(int64_t lo, int64_t hi) const;
  // A decimal integer in [0, 2^64).
  uint64_t Unsigned64() const;
  // A path; a relative one is resolved against the directory of the YAML file.
  std::filesystem::path Path() const;
  // A list of dimensions, each in [1, 2^31).
  std::vector<int64_t> Shape() const;

 private:
  YAML::Node node_;
  std::string file_;
  std::string path_;
};

// The fields of one YAML map, read once each. Required()/Optional() name the fields the
// reader knows; Finish() then rejects any other field as unknown.
class Fields {
 public:
  explicit Fields(const Field& map);  // fails unless a map with distinct scalar keys

  const Field& map() const { return map_; }
  bool Has(const std::string& key) const;
  std::optional<Field> Optional(const std::string& key);
  Field Required(const std::string& key);
  // Fails on the first field that no Required()/Optional() call asked for.
  void Finish() const;

 private:
  Field map_;
  std::vector<std::pair<std::string, Field>> entries_;
  std::vector<std::string> known_;
};

// Reads and parses a YAML file. The top level must be a map.
Field LoadYamlFile(const std::string& path);
// The same for the text of a file named `path`.
Field ParseYamlFile(const std::string& text, const std::string& path);

// A decimal number read exactly: value = (negative ? -1 : 1) * digits * 10^exp10.
struct Decimal {
  bool negative = false;
  unsigned __int128 digits = 0;
  int exp10 = 0;
};
// [+-]DIGITS[.DIGITS][(e|E)[+-]DIGITS] with at most 36 significant digits.
std::optional<Decimal> ParseDecimal(const std::string& text);
// The exact value when it is a binary fraction in Exact's range (0.375, 65504), else nullopt
// (0.1 has no finite binary expansion).
std::optional<oracle::Exact> DecimalToExact(const Decimal& d);
// The value itself when it is a binary fraction, otherwise rounded to the nearest multiple of
// 2^-frac_bits (ties to even). nullopt when out of range.
std::optional<oracle::Exact> DecimalToGrid(const Decimal& d, int frac_bits);

}  // namespace ane::cli

#endif  // TB_CLI_SCHEMA_H_
