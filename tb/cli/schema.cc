// SPDX-License-Identifier: Apache-2.0
#include "tb/cli/schema.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "tb/cli/npy.h"

namespace ane::cli {

namespace fs = std::filesystem;
using u128 = unsigned __int128;

namespace {

const char* KindName(const YAML::Node& n) {
  if (n.IsMap()) return "a map";
  if (n.IsSequence()) return "a list";
  if (n.IsScalar()) return "a value";
  return "nothing";
}

std::string ChildPath(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

// A decimal integer of at most 38 digits.
std::optional<__int128> ParseInteger(const std::string& text) {
  size_t i = 0;
  bool neg = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    neg = text[0] == '-';
    i = 1;
  }
  if (i == text.size() || text.size() - i > 38) return std::nullopt;
  __int128 v = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    v = v * 10 + (text[i] - '0');
  }
  return neg ? -v : v;
}

int BitLength(u128 v) {
  int n = 0;
  for (; v != 0; v >>= 1) ++n;
  return n;
}

// sign * v * 2^bexp as an Exact, normalized so the magnitude fits 64 bits.
std::optional<oracle::Exact> MakeExact(bool negative, u128 v, int bexp) {
  if (v == 0) return oracle::Exact();
  while ((v & 1) == 0) {
    v >>= 1;
    ++bexp;
  }
  if ((v >> 64) != 0) return std::nullopt;
  if (bexp < oracle::Exact::kMinExponent || bexp + BitLength(v) > oracle::Exact::kMaxExponent) {
    return std::nullopt;
  }
  return oracle::Exact::FromInt(negative, uint64_t(v), bexp);
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

u128 Power(u128 base, int n) {
  u128 p = 1;
  for (int i = 0; i < n; ++i) p *= base;
  return p;
}

}  // namespace

void FailAt(const std::string& file, const std::string& field, const std::string& what) {
  throw CliError(field.empty() ? fmt::format("{}: {}", file, what) : fmt::format("{}: {}: {}", file, field, what));
}

// ---- Field ----

Field::Field(YAML::Node node, std::string file, std::string path)
    : node_(std::move(node)), file_(std::move(file)), path_(std::move(path)) {}

void Field::Fail(const std::string& what) const {
  const YAML::Mark mark = node_.Mark();
  FailAt(file_, path_, mark.is_null() ? what : fmt::format("{} (line {})", what, mark.line + 1));
}

std::string Field::Scalar() const {
  if (!node_.IsScalar()) Fail(fmt::format("expected a value, got {}", KindName(node_)));
  return node_.Scalar();
}

std::vector<Field> Field::Items() const {
  if (!node_.IsSequence()) Fail(fmt::format("expected a list, got {}", KindName(node_)));
  std::vector<Field> items;
  for (size_t i = 0; i < node_.size(); ++i) {
    items.emplace_back(node_[i], file_, fmt::format("{}[{}]", path_, i));
  }
  return items;
}

int64_t Field::Integer(int64_t lo, int64_t hi) const {
  const std::string text = Scalar();
  const std::optional<__int128> v = ParseInteger(text);
  if (!v) Fail(fmt::format("'{}' is not an integer", text));
  if (*v < lo || *v > hi) Fail(fmt::format("{} is out of range [{}, {}]", text, lo, hi));
  return int64_t(*v);
}

uint64_t Field::Unsigned64() const {
  const std::string text = Scalar();
  const std::optional<__int128> v = ParseInteger(text);
  if (!v) Fail(fmt::format("'{}' is not an integer", text));
  if (*v < 0 || *v > __int128(UINT64_MAX)) Fail(fmt::format("{} is out of range [0, 2^64)", text));
  return uint64_t(*v);
}

fs::path Field::Path() const {
  const std::string text = Scalar();
  if (text.empty()) Fail("empty path");
  const fs::path p(text);
  if (p.is_absolute()) return p;
  return (fs::path(file_).parent_path() / p).lexically_normal();
}

std::vector<int64_t> Field::Shape() const {
  std::vector<int64_t> shape;
  int64_t elements = 1;
  const std::vector<Field> dims = Items();
  if (dims.size() > kMaxRank) Fail(fmt::format("{} dimensions; at most {}", dims.size(), kMaxRank));
  for (const Field& d : dims) {
    shape.push_back(d.Integer(1, (int64_t{1} << 31) - 1));
    elements *= shape.back();
    if (elements > kMaxElements) Fail(fmt::format("more than 2^{} elements", kMaxElementsLog2));
  }
  return shape;
}

// ---- Fields ----

Fields::Fields(const Field& map) : map_(map) {
  if (!map.IsMap()) map.Fail(fmt::format("expected a map, got {}", KindName(map.node())));
  for (const auto& kv : map.node()) {
    if (!kv.first.IsScalar()) map.Fail("a map key must be a plain name");
    const std::string key = kv.first.Scalar();
    if (Has(key)) Field(kv.second, map.file(), ChildPath(map.path(), key)).Fail("duplicate field");
    entries_.emplace_back(key, Field(kv.second, map.file(), ChildPath(map.path(), key)));
  }
}

bool Fields::Has(const std::string& key) const {
  for (const auto& e : entries_) {
    if (e.first == key) return true;
  }
  return false;
}

std::optional<Field> Fields::Optional(const std::string& key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.push_back(key);
  for (const auto& e : entries_) {
    if (e.first == key) return e.second;
  }
  return std::nullopt;
}

Field Fields::Required(const std::string& key) {
  std::optional<Field> f = Optional(key);
  if (f) return *f;
  // A misspelt field is the likely cause: name it rather than the missing one.
  for (const auto& e : entries_) {
    if (std::find(known_.begin(), known_.end(), e.first) == known_.end() && EditDistance(e.first, key) <= 2) {
      e.second.Fail(fmt::format("unknown field (did you mean '{}'?)", key));
    }
  }
  Field(map_.node(), map_.file(), ChildPath(map_.path(), key)).Fail("missing required field");
}

void Fields::Finish() const {
  for (const auto& e : entries_) {
    if (std::find(known_.begin(), known_.end(), e.first) != known_.end()) continue;
    e.second.Fail(fmt::format("unknown field (known fields here: {})", fmt::join(known_, ", ")));
  }
}

// ---- files ----

namespace {

// Sees the events of a YAML document and keeps only where the document started.
class DocumentStart : public YAML::EventHandler {
 public:
  const YAML::Mark& mark() const { return mark_; }
  void OnDocumentStart(const YAML::Mark& mark) override { mark_ = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  YAML::Mark mark_;
};

}  // namespace

Field LoadYamlFile(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) FailAt(path, "", "is a directory, not a YAML file");
  std::ifstream in(path, std::ios::binary);
  if (!in) FailAt(path, "", fmt::format("cannot read: {}", std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  return ParseYamlFile(text.str(), path);
}

Field ParseYamlFile(const std::string& text, const std::string& path) {
  auto malformed = [&path](const YAML::Mark& mark, const std::string& what) {
    FailAt(path, fmt::format("line {}, column {}", mark.line + 1, mark.column + 1),
           fmt::format("malformed YAML: {}", what));
  };
  // Not YAML::LoadAll: on some malformed text (a stray ',' at the top level) yaml-cpp 0.7's
  // parser stops consuming input and reports an endless series of empty documents, which
  // LoadAll collects until the memory runs out (found by fuzz_operation; fixed upstream after
  // yaml-cpp 0.8.0 by pull request #1319).
  // So count the documents first, three at most (a document that starts where the previous one
  // started means the parser is stuck), then load the only one.
  int documents = 0;
  YAML::Node root;
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    DocumentStart start;
    std::optional<YAML::Mark> previous;
    while (documents < 3 && parser.HandleNextDocument(start)) {
      if (previous && previous->pos == start.mark().pos) {
        malformed(start.mark(), "the parser cannot go on from here");
      }
      previous = start.mark();
      ++documents;
    }
    if (documents == 1) root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    malformed(e.mark, e.msg);
  }
  if (documents > 1) FailAt(path, "", "holds several YAML documents; expected one");
  if (documents == 0 || root.IsNull()) FailAt(path, "", "is empty; expected a YAML map");
  Field field(root, path, "");
  if (!field.IsMap()) {
    FailAt(path, "", fmt::format("expected a map at the top level, got {}", KindName(root)));
  }
  return field;
}

// ---- exact decimals ----

std::optional<Decimal> ParseDecimal(const std::string& text) {
  Decimal d;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) d.negative = text[i++] == '-';
  std::string digits;
  int frac_len = 0;
  bool seen_point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits += c;
      if (seen_point) ++frac_len;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) return std::nullopt;
  int exp = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    const std::optional<__int128> e = ParseInteger(text.substr(i + 1));
    if (!e || *e < -1000 || *e > 1000) return std::nullopt;
    exp = int(*e);
    i = text.size();
  }
  if (i != text.size()) return std::nullopt;
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return d;  // zero (keeps its sign for -0)
  digits = digits.substr(first);
  d.exp10 = exp - frac_len;
  while (digits.back() == '0') {
    digits.pop_back();
    ++d.exp10;
  }
  if (digits.size() > 36) return std::nullopt;
  for (char c : digits) d.digits = d.digits * 10 + u128(c - '0');
  return d;
}

std::optional<oracle::Exact> DecimalToExact(const Decimal& d) {
  if (d.digits == 0) return oracle::Exact();
  u128 v = d.digits;
  if (d.exp10 >= 0) {
    for (int i = 0; i < d.exp10; ++i) {
      if (v > ~u128{0} / 10) return std::nullopt;
      v *= 10;
    }
    return MakeExact(d.negative, v, 0);
  }
  const int n = -d.exp10;
  if (n > 55) return std::nullopt;  // digits < 10^36 < 5^55 cannot hold the factor 5^n
  const u128 p5 = Power(5, n);
  if (v % p5 != 0) return std::nullopt;
  return MakeExact(d.negative, v / p5, -n);
}

std::optional<oracle::Exact> DecimalToGrid(const Decimal& d, int frac_bits) {
  if (std::optional<oracle::Exact> exact = DecimalToExact(d)) return exact;
  if (d.exp10 >= 0 || -d.exp10 > 38 || (d.digits >> (127 - frac_bits)) != 0) return std::nullopt;
  const u128 num = d.digits << frac_bits;
  const u128 den = Power(10, -d.exp10);
  u128 q = num / den;
  const u128 r = num % den;
  if (2 * r > den || (2 * r == den && (q & 1) != 0)) ++q;
  return MakeExact(d.negative, q, -frac_bits);
}

}  // namespace ane::cli
