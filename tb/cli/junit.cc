// SPDX-License-Identifier: Apache-2.0
#include "tb/cli/junit.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "tb/cli/schema.h"

namespace ane::cli {

namespace {

// Parses a decimal integer in [lo, hi]; nullopt for anything else (signs, spaces, overflow).
std::optional<int> SmallInt(const std::string& t, int lo, int hi) {
  if (t.empty() || t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const int v = std::stoi(t);
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

constexpr int kMaxShards = 10000;

}  // namespace

Shard ParseShard(const std::string& text) {
  const size_t slash = text.find('/');
  const std::optional<int> total =
      slash == std::string::npos ? std::nullopt : SmallInt(text.substr(slash + 1), 1, kMaxShards);
  const std::optional<int> index =
      (slash == std::string::npos || !total) ? std::nullopt : SmallInt(text.substr(0, slash), 1, *total);
  if (!index) {
    throw CliError(fmt::format("--shard {}: expected I/N with 1 <= I <= N <= {} (e.g. 2/4)", text, kMaxShards));
  }
  return Shard{*index - 1, *total};
}

Shard ShardFromEnvironment(bool* found) {
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  *found = index != nullptr || total != nullptr;
  if (!*found) return Shard{};
  if (index == nullptr || total == nullptr) {
    throw CliError(fmt::format("{} is set but {} is not (set both, or neither)",
                               index ? "GTEST_SHARD_INDEX" : "GTEST_TOTAL_SHARDS",
                               index ? "GTEST_TOTAL_SHARDS" : "GTEST_SHARD_INDEX"));
  }
  const std::optional<int> n = SmallInt(total, 1, kMaxShards);
  if (!n) throw CliError(fmt::format("GTEST_TOTAL_SHARDS={}: expected a number in 1 .. {}", total, kMaxShards));
  const std::optional<int> i = SmallInt(index, 0, *n - 1);
  if (!i) {
    throw CliError(
        fmt::format("GTEST_SHARD_INDEX={}: expected a number in 0 .. {} (GTEST_TOTAL_SHARDS={})", index, *n - 1, *n));
  }
  return Shard{*i, *n};
}

std::string ShardText(const Shard& s) { return fmt::format("{}/{}", s.index + 1, s.total); }

namespace {

// A small XML reader for JUnit reports: elements, attributes, text, comments, CDATA, the
// prolog. Each element remembers the span of its source text, so testcases are copied to the
// merged report unchanged. Anything else (unbalanced tags, a bad attribute) is an error with
// its line number.
struct XmlNode {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attrs;  // values as written (escaped)
  std::vector<XmlNode> children;
  size_t begin = 0;
  size_t end = 0;

  const std::string* Attr(const std::string& key) const {
    for (const auto& [k, v] : attrs) {
      if (k == key) return &v;
    }
    return nullptr;
  }
};

class XmlReader {
 public:
  XmlReader(const std::string& file, const std::string& text) : file_(file), t_(text) {}

  XmlNode Document() {
    SkipMisc();
    if (!Peek("<")) Fail("expected an XML element");
    XmlNode root = Element(0);
    SkipMisc();
    if (p_ != t_.size()) Fail("text after the root element");
    return root;
  }

 private:
  static constexpr int kMaxDepth = 64;

  [[noreturn]] void Fail(const std::string& what) const {
    int line = 1;
    for (size_t i = 0; i < p_ && i < t_.size(); ++i) line += t_[i] == '\n';
    throw CliError(fmt::format("{}: line {}: not JUnit XML: {}", file_, line, what));
  }
  bool Peek(const char* s) const { return t_.compare(p_, std::char_traits<char>::length(s), s) == 0; }
  void SkipSpace() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }
  void SkipPast(const char* close, const char* what) {
    const size_t e = t_.find(close, p_);
    if (e == std::string::npos) Fail(fmt::format("unterminated {}", what));
    p_ = e + std::char_traits<char>::length(close);
  }
  // The prolog, comments, processing instructions and a DOCTYPE between elements.
  void SkipMisc() {
    for (;;) {
      SkipSpace();
      if (Peek("<?")) {
        SkipPast("?>", "processing instruction");
      } else if (Peek("<!--")) {
        SkipPast("-->", "comment");
      } else if (Peek("<!DOCTYPE")) {
        SkipPast(">", "DOCTYPE");
      } else {
        return;
      }
    }
  }
  static bool NameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == ':';
  }
  std::string Name() {
    const size_t b = p_;
    while (p_ < t_.size() && NameChar(t_[p_])) ++p_;
    if (p_ == b) Fail("expected a name");
    return t_.substr(b, p_ - b);
  }
  XmlNode Element(int depth) {
    if (depth > kMaxDepth) Fail("elements nested too deeply");
    XmlNode n;
    n.begin = p_;
    ++p_;  // '<'
    n.name = Name();
    for (;;) {
      SkipSpace();
      if (Peek("/>")) {
        p_ += 2;
        n.end = p_;
        return n;
      }
      if (Peek(">")) {
        ++p_;
        break;
      }
      std::string key = Name();
      SkipSpace();
      if (!Peek("=")) Fail(fmt::format("attribute {} has no value", key));
      ++p_;
      SkipSpace();
      if (p_ >= t_.size() || (t_[p_] != '"' && t_[p_] != '\''))
        Fail(fmt::format("attribute {}: expected a quote", key));
      const char q = t_[p_++];
      const size_t e = t_.find(q, p_);
      if (e == std::string::npos) Fail(fmt::format("attribute {}: unterminated value", key));
      const std::string value = t_.substr(p_, e - p_);
      if (value.find('<') != std::string::npos) Fail(fmt::format("attribute {}: '<' in a value", key));
      n.attrs.emplace_back(std::move(key), value);
      p_ = e + 1;
    }
    for (;;) {
      const size_t lt = t_.find('<', p_);
      if (lt == std::string::npos) {
        p_ = t_.size();
        Fail(fmt::format("element {} is not closed", n.name));
      }
      p_ = lt;
      if (Peek("</")) {
        p_ += 2;
        if (Name() != n.name) Fail(fmt::format("element {} closed by another name", n.name));
        SkipSpace();
        if (!Peek(">")) Fail("expected '>'");
        ++p_;
        n.end = p_;
        return n;
      }
      if (Peek("<!--")) {
        SkipPast("-->", "comment");
      } else if (Peek("<![CDATA[")) {
        SkipPast("]]>", "CDATA section");
      } else if (Peek("<?")) {
        SkipPast("?>", "processing instruction");
      } else {
        n.children.push_back(Element(depth + 1));
      }
    }
  }

  std::string file_;
  const std::string& t_;
  size_t p_ = 0;
};

std::string Unescape(const std::string& v) {
  std::string r;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '&') {
      r += v[i];
      continue;
    }
    static const std::pair<const char*, char> kEntities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool done = false;
    for (const auto& [e, c] : kEntities) {
      if (v.compare(i, std::char_traits<char>::length(e), e) == 0) {
        r += c;
        i += std::char_traits<char>::length(e) - 1;
        done = true;
        break;
      }
    }
    if (!done) r += '&';
  }
  return r;
}

struct MergedSuite {
  std::string name;                                        // escaped, as written
  std::vector<std::pair<std::string, std::string>> props;  // first file's properties, ane.shard left out
  std::vector<std::string> cases;                          // testcase source text
  double time = 0;
  int tests = 0, failures = 0, errors = 0, skipped = 0;
};

struct ShardInfo {
  std::string file;
  std::string suite;  // ane.suite
  Shard shard;
  std::string cases;  // ane.cases: the cases of the whole split suite
  int tests = 0;      // the testcases of this shard
};

// The merge's state: the suites in the order they first appear, where each case came from, and
// the ane shards seen.
struct Merger {
  std::vector<MergedSuite> suites;
  std::map<std::string, size_t> suite_index;
  std::map<std::string, std::string> case_file;  // "suite / classname / name" -> first file
  std::vector<ShardInfo> shards;
  MergeSummary sum;

  void AddFile(const std::string& file, const std::string& text);
  void AddSuite(const std::string& file, const std::string& text, const XmlNode& s);
  void AddProperties(const std::string& file, const std::string& name, const XmlNode& s, const XmlNode& props,
                     bool fresh, MergedSuite& m);
  void AddCase(const std::string& file, const std::string& text, const std::string& name, const XmlNode& c,
               MergedSuite& m);
};

// A JUnit file's text, read whole. Refuses a file given twice, a missing one and the output.
std::string ReadJunitInput(const std::string& file, const std::string& output, std::set<std::string>* seen_files) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!seen_files->insert(fs::weakly_canonical(file, ec).string()).second) {
    throw CliError(fmt::format("{}: given twice", file));
  }
  if (!fs::is_regular_file(file, ec)) throw CliError(fmt::format("{}: no such file", file));
  if (!output.empty() && fs::exists(output, ec) && fs::equivalent(file, output, ec)) {
    throw CliError(fmt::format("{}: is also the output file", file));
  }
  std::ifstream in(file, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  if (!in) throw CliError(fmt::format("{}: cannot read the file", file));
  return buf.str();
}

void Merger::AddFile(const std::string& file, const std::string& text) {
  const XmlNode root = XmlReader(file, text).Document();
  std::vector<const XmlNode*> file_suites;
  if (root.name == "testsuite") {
    file_suites.push_back(&root);
  } else if (root.name == "testsuites") {
    for (const XmlNode& c : root.children) {
      if (c.name != "testsuite") {
        throw CliError(fmt::format("{}: not JUnit XML: <{}> inside <testsuites>", file, c.name));
      }
      file_suites.push_back(&c);
    }
  } else {
    throw CliError(fmt::format("{}: not JUnit XML: the root element is <{}>", file, root.name));
  }
  ++sum.files;
  for (const XmlNode* s : file_suites) AddSuite(file, text, *s);
}

void Merger::AddSuite(const std::string& file, const std::string& text, const XmlNode& s) {
  const std::string* name = s.Attr("name");
  if (name == nullptr) throw CliError(fmt::format("{}: not JUnit XML: a <testsuite> without a name", file));
  auto [it, fresh] = suite_index.emplace(*name, suites.size());
  if (fresh) suites.push_back(MergedSuite{*name, {}, {}, 0, 0, 0, 0, 0});
  MergedSuite& m = suites[it->second];
  if (const std::string* t = s.Attr("time")) {
    char* e = nullptr;
    errno = 0;
    const double v = std::strtod(t->c_str(), &e);
    if (t->empty() || *e != '\0' || errno != 0 || !(v >= 0)) {
      throw CliError(
          fmt::format("{}: testsuite {}: time=\"{}\" is not a number of seconds", file, Unescape(*name), *t));
    }
    m.time += v;
  }
  for (const XmlNode& c : s.children) {
    if (c.name == "properties") {
      AddProperties(file, *name, s, c, fresh, m);
    } else if (c.name == "testcase") {
      AddCase(file, text, *name, c, m);
    }
  }
}

void Merger::AddProperties(const std::string& file, const std::string& name, const XmlNode& s, const XmlNode& props,
                           bool fresh, MergedSuite& m) {
  std::optional<std::string> shard_text, suite_prop, cases_prop;
  for (const XmlNode& p : props.children) {
    const std::string* k = p.Attr("name");
    const std::string* v = p.Attr("value");
    if (p.name != "property" || k == nullptr || v == nullptr) continue;
    if (*k == "ane.shard") {
      shard_text = Unescape(*v);
    } else {
      if (*k == "ane.suite") suite_prop = Unescape(*v);
      if (*k == "ane.cases") cases_prop = Unescape(*v);
      if (fresh && *k != "ane.cases") m.props.emplace_back(*k, *v);
    }
  }
  if (!shard_text) return;
  Shard sh;
  try {
    sh = ParseShard(*shard_text);
  } catch (const CliError&) {
    throw CliError(fmt::format("{}: property ane.shard=\"{}\" is not I/N", file, *shard_text));
  }
  int tests = 0;
  for (const XmlNode& tc : s.children) tests += tc.name == "testcase";
  shards.push_back({file, suite_prop.value_or(Unescape(name)), sh, cases_prop.value_or("?"), tests});
}

void Merger::AddCase(const std::string& file, const std::string& text, const std::string& name, const XmlNode& c,
                     MergedSuite& m) {
  const std::string* cname = c.Attr("name");
  if (cname == nullptr) {
    throw CliError(fmt::format("{}: not JUnit XML: a <testcase> without a name in {}", file, Unescape(name)));
  }
  const std::string* cls = c.Attr("classname");
  const std::string key = name + " / " + (cls ? *cls : "") + " / " + *cname;
  if (auto [prev, added] = case_file.emplace(key, file); !added) {
    throw CliError(fmt::format("{}: testcase {} of {} is also in {} (a case may appear once)", file, Unescape(*cname),
                               Unescape(name), prev->second));
  }
  bool failed = false, errored = false, skipped = false;
  for (const XmlNode& r : c.children) {
    failed |= r.name == "failure";
    errored |= r.name == "error";
    skipped |= r.name == "skipped";
  }
  ++m.tests;
  m.failures += failed;
  m.errors += errored;
  m.skipped += skipped && !failed && !errored;
  m.cases.push_back(text.substr(c.begin, c.end - c.begin));
}

using ShardsBySuite = std::map<std::string, std::vector<const ShardInfo*>>;

// The shards of each ane suite must be one complete split: the same N, every index once, the
// same cases. (Files without ane.shard, e.g. GoogleTest reports, are merged as they are.)
ShardsBySuite CheckShards(const std::vector<ShardInfo>& shards) {
  ShardsBySuite by_suite;
  for (const ShardInfo& s : shards) by_suite[s.suite].push_back(&s);
  for (const auto& [suite, list] : by_suite) {
    const ShardInfo& first = *list.front();
    const int n = first.shard.total;
    std::map<int, std::string> by_index;
    for (const ShardInfo* s : list) {
      if (s->shard.total != n) {
        throw CliError(fmt::format("{}: shard {} of suite {} but {} is shard {} (different splits)", s->file,
                                   ShardText(s->shard), suite, first.file, ShardText(first.shard)));
      }
      if (auto [prev, added] = by_index.emplace(s->shard.index, s->file); !added) {
        throw CliError(
            fmt::format("{}: shard {} of suite {} again (also {})", s->file, ShardText(s->shard), suite, prev->second));
      }
    }
    int tests = 0;
    for (const ShardInfo* s : list) {
      if (s->cases != first.cases) {
        throw CliError(fmt::format("{}: a shard of {} cases of suite {} but {} is a shard of {} (different filters)",
                                   s->file, s->cases, suite, first.file, first.cases));
      }
      tests += s->tests;
    }
    for (int i = 0; i < n; ++i) {
      if (!by_index.count(i)) {
        throw CliError(fmt::format("shard {} of suite {} is missing ({} of {} shards given)", ShardText(Shard{i, n}),
                                   suite, by_index.size(), n));
      }
    }
    if (first.cases != "?" && std::to_string(tests) != first.cases) {
      throw CliError(
          fmt::format("the shards of suite {} hold {} cases but the suite has {}", suite, tests, first.cases));
    }
  }
  return by_suite;
}

// The merged report; adds the suites' counts to `sum`.
std::string MergedXml(const std::vector<MergedSuite>& suites, const ShardsBySuite& by_suite, MergeSummary* sum) {
  double total_time = 0;
  for (const MergedSuite& m : suites) {
    sum->tests += m.tests;
    sum->failures += m.failures;
    sum->errors += m.errors;
    sum->skipped += m.skipped;
    total_time += m.time;
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << fmt::format("<testsuites tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
                   sum->tests, sum->failures, sum->errors, sum->skipped, total_time);
  for (const MergedSuite& m : suites) {
    x << fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n", m.name,
        m.tests, m.failures, m.errors, m.skipped, m.time);
    x << "    <properties>\n";
    for (const auto& [k, v] : m.props) x << fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", k, v);
    for (const auto& [k, v] : m.props) {
      if (k != "ane.suite") continue;
      const auto it = by_suite.find(Unescape(v));
      if (it != by_suite.end()) {
        x << fmt::format("      <property name=\"ane.merged\" value=\"{} shards\"/>\n", it->second.size());
      }
    }
    x << "    </properties>\n";
    for (const std::string& c : m.cases) x << "    " << c << "\n";
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

// Writes the merged report whole or not at all: a temporary file renamed into place.
void WriteMerged(const std::string& output, const std::string& xml) {
  namespace fs = std::filesystem;
  {
    const fs::path o(output);
    std::error_code ec;
    if (output.empty()) throw CliError("--merge-junit needs an output file name");
    if (o.has_parent_path() && !fs::is_directory(o.parent_path(), ec)) {
      throw CliError(fmt::format("--merge-junit {}: directory {} does not exist", output, o.parent_path().string()));
    }
  }
  const std::string tmp = output + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << xml;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw CliError(fmt::format("--merge-junit {}: cannot write the file", output));
    }
  }
  std::error_code ec;
  fs::rename(tmp, output, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw CliError(fmt::format("--merge-junit {}: cannot write the file ({})", output, ec.message()));
  }
}

}  // namespace

MergeSummary MergeJunit(const std::string& output, const std::vector<std::string>& inputs) {
  if (inputs.empty()) throw CliError("--merge-junit needs the JUnit files to merge after the output file");
  Merger merger;
  std::set<std::string> seen_files;
  for (const std::string& file : inputs) merger.AddFile(file, ReadJunitInput(file, output, &seen_files));
  const ShardsBySuite by_suite = CheckShards(merger.shards);
  const std::string xml = MergedXml(merger.suites, by_suite, &merger.sum);
  WriteMerged(output, xml);
  return merger.sum;
}

int RunMergeJunit(const std::string& output, const std::vector<std::string>& inputs, std::ostream& out) {
  const MergeSummary s = MergeJunit(output, inputs);
  out << fmt::format("merged {} file{} into {}: {} cases, {} passed, {} failed, {} errors, {} skipped\n", s.files,
                     s.files == 1 ? "" : "s", output, s.tests, s.tests - s.failures - s.errors - s.skipped, s.failures,
                     s.errors, s.skipped);
  return s.failures + s.errors == 0 ? 0 : 1;
}

}  // namespace ane::cli
