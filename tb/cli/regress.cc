// SPDX-License-Identifier: Apache-2.0
#include "tb/cli/regress.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "tb/harness/sim.h"

namespace ane::cli {

namespace {

struct Check {
  enum class Kind { kEquals, kNpy, kReference };
  Kind kind = Kind::kEquals;
  std::string output;
  Tensor want;          // kEquals, kNpy
  std::string golden;   // kNpy: the file
  int64_t max_ulp = 0;  // kReference
};

struct Case {
  std::string name;
  std::string label;  // what the case runs, printed with its result
  Operation op;
  std::vector<Check> checks;
  int64_t runs = 1;  // > 1: every run must give the same bits (N-7.1)
};

struct BitDiff {
  int64_t count = 0;
  int64_t first = -1;
};

BitDiff CompareBits(const Tensor& got, const Tensor& want) {
  BitDiff d;
  for (size_t i = 0; i < got.bits.size(); ++i) {
    if (got.bits[i] == want.bits[i]) continue;
    if (d.count++ == 0) d.first = int64_t(i);
  }
  return d;
}

// "16" or "16 (0x4c00)" for fp16, where the code says more than the decimal.
std::vector<Check> ReadExpect(const Field& expect, const Operation& op) {
  Fields outputs(expect);
  std::vector<Check> checks;
  for (const auto& [name, type] : op.outputs) {
    const std::optional<Field> spec = outputs.Optional(name);
    if (!spec) continue;
    Fields f(*spec);
    const int64_t count = ElementCount(type.shape);
    if (const std::optional<Field> equals = f.Optional("equals")) {
      Check c{Check::Kind::kEquals, name, Tensor{type.dtype, type.shape, {}}, "", 0};
      if (equals->IsScalar()) {
        c.want.bits.assign(size_t(count), ParseValue(*equals, type.dtype));
      } else {
        c.want.bits = ParseValueList(*equals, type.dtype);
        if (int64_t(c.want.bits.size()) != count) {
          equals->Fail(fmt::format("{} values given but {} is {} {} ({} values)", c.want.bits.size(), name,
                                   DTypeName(type.dtype), ShapeString(type.shape), count));
        }
      }
      checks.push_back(std::move(c));
    }
    if (const std::optional<Field> npy = f.Optional("npy")) {
      Check c{Check::Kind::kNpy, name, {}, npy->Path().string(), 0};
      try {
        c.want = ReadNpy(npy->Path());
      } catch (const NpyError& e) {
        npy->Fail(fmt::format("{}: {}", c.golden, e.what()));
      }
      if (c.want.dtype != type.dtype || c.want.shape != type.shape) {
        npy->Fail(fmt::format("{} holds {} {} but {} is {} {}", c.golden, DTypeName(c.want.dtype),
                              ShapeString(c.want.shape), name, DTypeName(type.dtype), ShapeString(type.shape)));
      }
      checks.push_back(std::move(c));
    }
    const std::optional<Field> reference = f.Optional("reference");
    const std::optional<Field> max_ulp = f.Optional("max_ulp");
    if (reference) {
      if (reference->Scalar() != "fp64") reference->Fail("unknown reference (expected fp64)");
      if (!max_ulp) spec->Fail("reference: fp64 needs max_ulp");
      checks.push_back({Check::Kind::kReference, name, {}, "", max_ulp->Integer(0, INT32_MAX)});
    } else if (max_ulp) {
      max_ulp->Fail("max_ulp needs reference: fp64");
    }
    f.Finish();
    if (!f.Has("equals") && !f.Has("npy") && !reference) {
      spec->Fail("no check (expected equals, npy or reference)");
    }
  }
  outputs.Finish();
  if (checks.empty()) expect.Fail("no output to check");
  return checks;
}

std::string SeedText(const Operation& op) {
  std::vector<uint64_t> seeds;
  for (const auto& [name, t] : op.inputs) {
    if (t.seed) seeds.push_back(*t.seed);
  }
  if (seeds.empty()) return "";
  return fmt::format(", seed{} {}", seeds.size() > 1 ? "s" : "", fmt::join(seeds, ", "));
}

// {dot: {data: [...], kernel: ones | [...]}, generation, expect: VALUE}: one output of a
// [1, K] x [K, 1] fp16 matmul.
void ReadDot(Fields& f, Case* c) {
  Fields dot(f.Required("dot"));
  const Field data_field = dot.Required("data");
  const std::vector<uint32_t> data = ParseValueList(data_field, DType::kFp16);
  if (data.empty()) data_field.Fail("no values");
  const int64_t k = int64_t(data.size());
  std::vector<uint32_t> kernel(data.size(), 0x3C00);  // ones
  Field kernel_field = data_field;
  if (const std::optional<Field> kf = dot.Optional("kernel")) {
    kernel_field = *kf;
    if (kf->IsScalar()) {
      if (kf->Scalar() != "ones") kf->Fail("expected ones or a list of values");
    } else {
      kernel = ParseValueList(*kf, DType::kFp16);
      if (kernel.size() != data.size()) {
        kf->Fail(fmt::format("{} kernel values for {} data values", kernel.size(), data.size()));
      }
    }
  }
  dot.Finish();
  Operation& op = c->op;
  op.file = f.map().file();
  op.op = "matmul";
  if (const std::optional<Field> g = f.Optional("generation")) op.generation = ReadGeneration(*g);
  op.inputs.emplace("a", LoadedTensor{Tensor{DType::kFp16, {1, k}, data}, "dot data", {}});
  op.inputs.emplace("b", LoadedTensor{Tensor{DType::kFp16, {k, 1}, kernel}, "dot kernel", {}});
  InferOutputs(&op, {{"a", data_field}, {"b", kernel_field}});
  const uint32_t want = ParseValue(f.Required("expect"), DType::kFp16);
  c->checks.push_back({Check::Kind::kEquals, "y", Tensor{DType::kFp16, {1, 1}, {want}}, "", 0});
  c->label = fmt::format("dot K={} {}", k, oracle::GenerationName(op.generation));
}

Case ReadCase(const Field& item, const TensorOptions& tensor_options) {
  Fields f(item);
  Case c;
  const Field name = f.Required("name");
  c.name = name.Scalar();
  if (c.name.empty() || c.name.find_first_of(" \t\r\n") != std::string::npos) {
    name.Fail("a case name must be non-empty and without spaces");
  }
  const int kinds = int(f.Has("op")) + int(f.Has("file")) + int(f.Has("dot"));
  if (kinds != 1) {
    item.Fail(kinds == 0 ? "a case needs one of: op (an inline operation), file (an op file), dot"
                         : "give only one of op, file, dot");
  }
  if (f.Has("dot")) {
    ReadDot(f, &c);
  } else {
    if (f.Has("file")) {
      const Field file = f.Required("file");
      const std::filesystem::path path = file.Path();
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) {
        file.Fail(fmt::format("{}: no such file", path.string()));
      }
      Fields op_fields(LoadYamlFile(path.string()));
      c.op = ReadOperation(op_fields, tensor_options);
      op_fields.Finish();
      if (const std::optional<Field> g = f.Optional("generation")) {
        c.op.generation = ReadGeneration(*g);
      }
    } else {
      c.op = ReadOperation(f, tensor_options);
    }
    if (const std::optional<Field> expect = f.Optional("expect")) {
      c.checks = ReadExpect(*expect, c.op);
    }
    c.label = c.op.Describe() + SeedText(c.op);
  }
  if (const std::optional<Field> runs = f.Optional("runs")) c.runs = runs->Integer(1, 1000);
  f.Finish();
  if (c.checks.empty() && c.runs < 2) {
    item.Fail("nothing to check (add expect, or runs: 2 or more)");
  }
  return c;
}

struct Outcome {
  bool pass = true;
  std::vector<std::string> notes;     // what passed
  std::vector<std::string> failures;  // what failed
  int64_t cycles = -1;                // RTL cycles of the first run (-1: none)
  double utilization = -1;            // MAC utilization (matmul, conv2d; -1: none)
  double seconds = 0;                 // host time of the case
};

void RunChecks(const Case& c, const Evaluation& result, Outcome* o) {
  std::optional<TensorMap> reference;
  for (const Check& check : c.checks) {
    const Tensor& got = result.outputs.at(check.output);
    const int64_t total = int64_t(got.bits.size());
    if (check.kind == Check::Kind::kReference) {
      if (!reference) reference = Reference(c.op);
      const Tensor& ref = reference->at(check.output);
      const Difference d = Compare(got, ref);
      const char* unit = got.dtype == DType::kFp16 ? " ulp" : "";
      if (d.max <= check.max_ulp) {
        o->notes.push_back(fmt::format("{} within {}{} of fp64 (max {}, {} of {} differ)", check.output, check.max_ulp,
                                       unit, d.max, d.count, total));
      } else {
        o->failures.push_back(fmt::format("{}: {}{} from fp64, max_ulp {} (got {}, reference {}; {} of {} differ)",
                                          ElementName(check.output, d.worst, got), d.max, unit, check.max_ulp,
                                          ValueText(got.bits[size_t(d.worst)], got.dtype),
                                          ValueText(ref.bits[size_t(d.worst)], ref.dtype), d.count, total));
      }
      continue;
    }
    const BitDiff d = CompareBits(got, check.want);
    const bool golden = check.kind == Check::Kind::kNpy;
    const std::string against = golden ? " in " + check.golden : "";
    if (d.count == 0) {
      if (golden) {
        o->notes.push_back(fmt::format("{} matches {}", check.output, check.golden));
      } else if (total == 1) {
        o->notes.push_back(fmt::format("{} = {}", check.output, FormatValue(got.bits[0], got.dtype)));
      } else {
        o->notes.push_back(fmt::format("{} equals the {} values given", check.output, total));
      }
    } else {
      o->failures.push_back(fmt::format("{}: expected {}{} got {}{}", ElementName(check.output, d.first, got),
                                        ValueText(check.want.bits[size_t(d.first)], got.dtype), against,
                                        ValueText(got.bits[size_t(d.first)], got.dtype),
                                        total == 1 ? "" : fmt::format(" ({} of {} differ)", d.count, total)));
    }
  }
}

Outcome RunCase(const Case& c, const RegressOptions& options) {
  Outcome o;
  try {
    const Evaluation first = Evaluate(c.op, options.engine, options.fault);
    if (first.mismatch) {
      const EngineMismatch& m = *first.mismatch;
      o.failures.push_back(fmt::format("rtl vs oracle at {}: rtl {}, oracle {} ({} of {} differ); {}: {}", m.element,
                                       m.rtl, m.oracle, m.count, m.total, m.stage.stage, m.stage.detail));
    } else if (options.engine == Engine::kBoth) {
      o.notes.push_back("rtl = oracle");
    }
    if (first.rtl) {
      if (first.rtl->conv) {
        const harness::RtlConvStats& cs = *first.rtl->conv;
        o.cycles = int64_t(cs.cycles);
        o.utilization = cs.utilization;
        o.notes.push_back(fmt::format("rtl core {} cycles, utilization {:.1f}%", cs.cycles, 100.0 * cs.utilization));
      }
      if (first.rtl->matmul) {
        o.cycles = int64_t(first.rtl->matmul->cycles);
        o.utilization = first.rtl->matmul->utilization;
      }
      if (first.rtl->engine) o.cycles = int64_t(first.rtl->engine->cycles);
      if (first.rtl->post) {
        o.notes.push_back(fmt::format("rtl post-processor {} cycles", first.rtl->post->cycles));
        if (o.cycles < 0) o.cycles = int64_t(first.rtl->post->cycles);
      }
      if (first.rtl->engine) {
        o.notes.push_back(fmt::format("rtl planar engine {} task{}, {} cycles", first.rtl->engine->tasks,
                                      first.rtl->engine->tasks == 1 ? "" : "s", first.rtl->engine->cycles));
      }
      if (first.rtl->matmul) {
        o.notes.push_back(fmt::format("rtl {} cycles, utilization {:.1f}%", first.rtl->matmul->cycles,
                                      100.0 * first.rtl->matmul->utilization));
      }
    }
    for (int64_t run = 2; run <= c.runs; ++run) {
      const Evaluation again = Evaluate(c.op, options.engine, options.fault);
      for (const auto& [name, t] : first.outputs) {
        const BitDiff d = CompareBits(again.outputs.at(name), t);
        if (d.count != 0) {
          o.failures.push_back(fmt::format("run {} differs from run 1 at {}: {} vs {}", run,
                                           ElementName(name, d.first, t),
                                           ValueText(again.outputs.at(name).bits[size_t(d.first)], t.dtype),
                                           ValueText(t.bits[size_t(d.first)], t.dtype)));
        }
      }
    }
    if (c.runs > 1 && o.failures.empty()) {
      o.notes.push_back(fmt::format("bit-identical over {} runs", c.runs));
    }
    RunChecks(c, first, &o);
  } catch (const std::exception& e) {
    o.failures.push_back(fmt::format("error: {}", e.what()));
  }
  o.pass = o.failures.empty();
  return o;
}

}  // namespace

namespace {

// One line of text (a note or a failure) for the child-to-parent file: no newlines.
std::string OneLine(std::string t) {
  for (char& ch : t) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return t;
}

void SaveOutcome(const Outcome& o, const std::string& file) {
  std::ofstream out(file);
  out << "pass " << int(o.pass) << "\ncycles " << o.cycles << "\n"
      << fmt::format("utilization {:.17g}\nseconds {:.17g}\n", o.utilization, o.seconds);
  for (const std::string& n : o.notes) out << "note " << OneLine(n) << "\n";
  for (const std::string& f : o.failures) out << "fail " << OneLine(f) << "\n";
}

Outcome LoadOutcome(const std::string& file, int status) {
  Outcome o;
  std::ifstream in(file);
  std::string line;
  bool complete = false;
  while (std::getline(in, line)) {
    const size_t sp = line.find(' ');
    const std::string key = line.substr(0, sp), value = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "pass") {
      o.pass = value == "1";
      complete = true;
    } else if (key == "cycles") {
      o.cycles = std::stoll(value);
    } else if (key == "utilization") {
      o.utilization = std::stod(value);
    } else if (key == "seconds") {
      o.seconds = std::stod(value);
    } else if (key == "note") {
      o.notes.push_back(value);
    } else if (key == "fail") {
      o.failures.push_back(value);
    }
  }
  if (!complete) {
    o.pass = false;
    o.failures.push_back(WIFSIGNALED(status) ? fmt::format("the case's process died on signal {}", WTERMSIG(status))
                                             : fmt::format("the case's process exited with status {} without a result",
                                                           WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  }
  return o;
}

Outcome TimedCase(const Case& c, const RegressOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  Outcome o = RunCase(c, options);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

std::string XmlEscape(const std::string& t) {
  std::string r;
  for (char ch : t) {
    switch (ch) {
      case '&': r += "&amp;"; break;
      case '<': r += "&lt;"; break;
      case '>': r += "&gt;"; break;
      case '"': r += "&quot;"; break;
      default:
        if (uint8_t(ch) < 0x20 && ch != '\n' && ch != '\t') {
          r += ' ';
        } else {
          r += ch;
        }
    }
  }
  return r;
}

void WriteJunit(const std::string& file, const std::string& suite, const std::vector<Case>& cases,
                const std::vector<Outcome>& outcomes, const RegressOptions& options, size_t suite_cases) {
  const Engine engine = options.engine;
  int failures = 0;
  double total = 0;
  for (const Outcome& o : outcomes) {
    failures += !o.pass;
    total += o.seconds;
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << fmt::format("<testsuites tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3f}\">\n", cases.size(), failures,
                   total);
  x << fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.3f}\">\n",
      XmlEscape(suite), cases.size(), failures, total);
  // What ran: `ane regress --merge-junit` checks shards against these.
  x << "    <properties>\n";
  x << fmt::format("      <property name=\"ane.suite\" value=\"{}\"/>\n", XmlEscape(suite));
  x << fmt::format("      <property name=\"ane.engine\" value=\"{}\"/>\n", EngineName(engine));
  if (options.filter)
    x << fmt::format("      <property name=\"ane.filter\" value=\"{}\"/>\n", XmlEscape(*options.filter));
  if (options.shard) {
    x << fmt::format("      <property name=\"ane.shard\" value=\"{}\"/>\n", ShardText(*options.shard));
    x << fmt::format("      <property name=\"ane.cases\" value=\"{}\"/>\n", suite_cases);
  }
  x << "    </properties>\n";
  for (size_t i = 0; i < cases.size(); ++i) {
    const Outcome& o = outcomes[i];
    x << fmt::format("    <testcase classname=\"{}.{}\" name=\"{}\" time=\"{:.3f}\">\n", XmlEscape(suite),
                     EngineName(engine), XmlEscape(cases[i].name), o.seconds);
    if (!o.pass) {
      x << fmt::format("      <failure message=\"{}\">{}</failure>\n", XmlEscape(o.failures.front()),
                       XmlEscape(fmt::format("{}", fmt::join(o.failures, "\n"))));
    }
    x << fmt::format("      <system-out>{}: {}</system-out>\n", XmlEscape(cases[i].label),
                     XmlEscape(fmt::format("{}", fmt::join(o.pass ? o.notes : o.failures, "; "))));
    x << "    </testcase>\n";
  }
  x << "  </testsuite>\n</testsuites>\n";
  std::ofstream out(file);
  out << x.str();
  if (!out) throw CliError(fmt::format("--junit {}: cannot write the file", file));
}

std::string ResultLine(const Case& c, const Outcome& o) {
  return fmt::format("{} {}  ({}: {})", o.pass ? "PASS" : "FAIL", c.name, c.label,
                     fmt::join(o.pass ? o.notes : o.failures, "; "));
}

}  // namespace

namespace {

// The suite's cases that --filter keeps (every case is read and checked, kept or not).
std::vector<Case> ReadSuiteCases(const std::string& path, const RegressOptions& options) {
  Fields top(LoadYamlFile(path));
  if (const std::optional<Field> d = top.Optional("description")) d->Scalar();
  const Field cases_field = top.Required("cases");
  top.Finish();

  const TensorOptions tensor_options{options.seed_offset};
  std::vector<Case> cases;
  std::set<std::string> names;
  for (const Field& item : cases_field.Items()) {
    Case c = ReadCase(item, tensor_options);
    if (!names.insert(c.name).second) item.Fail(fmt::format("duplicate case name '{}'", c.name));
    CheckEngine(options.engine, c.op);
    if (!options.filter || c.name.find(*options.filter) != std::string::npos) {
      cases.push_back(std::move(c));
    }
  }
  if (names.empty()) cases_field.Fail("no cases");
  if (cases.empty()) {
    throw CliError(fmt::format("--filter {}: no case name contains it", *options.filter));
  }
  return cases;
}

// Runs cases[i] for every i in a child process each, at most options.jobs at a time: the
// Verilated models never share a process, and a case that crashes fails alone. `report(i)` after
// each case ends, in the order they end.
void RunInChildren(const std::vector<Case>& cases, const RegressOptions& options, std::vector<Outcome>* outcomes_out,
                   std::ostream& out, const std::function<void(size_t)>& report) {
  namespace fs = std::filesystem;
  std::vector<Outcome>& outcomes = *outcomes_out;
  const size_t n = cases.size();
  char tmpl[] = "/tmp/ane-regress-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) throw std::runtime_error("regress: cannot create a temporary directory");
  const std::string tmp(tmpl);
  std::map<pid_t, size_t> running;
  size_t next = 0;
  while (next < n || !running.empty()) {
    while (next < n && int(running.size()) < options.jobs) {
      out.flush();
      const pid_t pid = fork();
      if (pid < 0) throw std::runtime_error("regress: fork failed");
      if (pid == 0) {
        int code = 0;
        try {
          SaveOutcome(TimedCase(cases[next], options), fmt::format("{}/{}", tmp, next));
        } catch (...) {
          code = 3;
        }
        std::_Exit(code);
      }
      running.emplace(pid, next++);
    }
    int status = 0;
    const pid_t done = waitpid(-1, &status, 0);
    if (done < 0) throw std::runtime_error("regress: waitpid failed");
    const auto it = running.find(done);
    if (it == running.end()) continue;
    const size_t i = it->second;
    running.erase(it);
    const std::string file = fmt::format("{}/{}", tmp, i);
    outcomes[i] = LoadOutcome(file, status);
    std::remove(file.c_str());
    report(i);
  }
  fs::remove_all(tmp);
}

// The table of results; returns the number of failed cases.
int PrintResultTable(const std::vector<Case>& cases, const std::vector<Outcome>& outcomes,
                     const RegressOptions& options, std::ostream& out) {
  const size_t n = cases.size();
  int failed = 0;
  size_t width = 4;
  for (const Case& c : cases) width = std::max(width, c.name.size());
  out << fmt::format("\n{:<{}}  {:<6}  {:>12}  {:>11}  {:>8}  {}\n", "case", width, "engine", "rtl cycles",
                     "utilization", "time", "result");
  double total = 0;
  for (size_t i = 0; i < n; ++i) {
    const Outcome& o = outcomes[i];
    failed += o.pass ? 0 : 1;
    total += o.seconds;
    out << fmt::format("{:<{}}  {:<6}  {:>12}  {:>11}  {:>7.2f}s  {}\n", cases[i].name, width,
                       EngineName(options.engine), o.cycles < 0 ? std::string("-") : std::to_string(o.cycles),
                       o.utilization < 0 ? std::string("-") : fmt::format("{:.1f}%", 100.0 * o.utilization), o.seconds,
                       o.pass ? "pass" : "FAIL");
  }
  out << fmt::format("(case time {:.1f} s in all, {} job{})\n", total, std::max(1, options.jobs),
                     options.jobs > 1 ? "s" : "");

  return failed;
}

// Reruns each failing case on the RTL with a waveform, and says how to open it and rerun it.
void RerunFailures(const std::string& path, const std::vector<Case>& cases, const std::vector<Outcome>& outcomes,
                   const RegressOptions& options, std::ostream& out) {
  namespace fs = std::filesystem;
  const size_t n = cases.size();
  for (size_t i = 0; i < n; ++i) {
    if (outcomes[i].pass) continue;
    const std::string rerun =
        fmt::format("ane regress {} --filter {} --engine {}{}", path, cases[i].name, EngineName(options.engine),
                    options.seed_offset ? fmt::format(" --seed {}", *options.seed_offset) : "");
    out << fmt::format("rerun {}:  {}\n", cases[i].name, rerun);
    if (options.engine == Engine::kOracle) continue;
    std::error_code ec;
    fs::create_directories(options.wave_dir, ec);
    if (ec) {
      out << fmt::format("  (no waveform: cannot create {}: {})\n", options.wave_dir, ec.message());
      continue;
    }
    harness::RequestWaveFile(fmt::format("{}/{}.fst", options.wave_dir, cases[i].name));
    try {
      Evaluate(cases[i].op, options.engine, options.fault);
    } catch (const std::exception& e) {
      out << fmt::format("  (the rerun stopped: {})\n", e.what());
    }
    const harness::WaveRequest& req = harness::CurrentWaveRequest();
    for (size_t k = 0; k < req.written.size(); ++k) {
      out << fmt::format("  waveform of {}: {}  (open: gtkwave {} sim/{}.gtkw)\n", cases[i].name, req.written[k],
                         req.written[k], req.tops[k]);
    }
    harness::RequestWaveFile("");
  }
}

}  // namespace

int RunSuite(const std::string& path, const RegressOptions& options, std::ostream& out) {
  std::vector<Case> cases = ReadSuiteCases(path, options);
  const size_t suite_cases = cases.size();
  if (options.shard) {
    const Shard& sh = *options.shard;
    std::vector<Case> mine;
    for (size_t k = 0; k < cases.size(); ++k) {
      if (int(k % size_t(sh.total)) == sh.index) mine.push_back(std::move(cases[k]));
    }
    cases = std::move(mine);
  }
  namespace fs = std::filesystem;
  if (options.junit) {
    const fs::path j(*options.junit);
    std::error_code ec;
    if (j.has_parent_path() && !fs::is_directory(j.parent_path(), ec)) {
      throw CliError(fmt::format("--junit {}: directory {} does not exist", *options.junit, j.parent_path().string()));
    }
  }

  if (options.seed_offset) {
    out << fmt::format("seed offset {}: a tensor generated with seed s uses seed s + {}\n", *options.seed_offset,
                       *options.seed_offset);
  }
  const size_t n = cases.size();
  if (options.shard) {
    std::vector<size_t> where;
    for (size_t k = size_t(options.shard->index); k < suite_cases && where.size() < 4;
         k += size_t(options.shard->total)) {
      where.push_back(k + 1);
    }
    out << fmt::format("shard {}: {} of the {} cases{}\n", ShardText(*options.shard), n, suite_cases,
                       n == 0 ? " (none falls in this shard)"
                              : fmt::format(" (suite positions {}{})", fmt::join(where, ", "), n > 4 ? ", ..." : ""));
  }
  std::vector<Outcome> outcomes(n);
  size_t finished = 0;
  auto report = [&](size_t i) {
    ++finished;
    out << fmt::format("{}  [{}/{}, {:.2f} s]\n", ResultLine(cases[i], outcomes[i]), finished, n, outcomes[i].seconds)
        << std::flush;
  };
  if (options.jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) {
      outcomes[i] = TimedCase(cases[i], options);
      report(i);
    }
  } else {
    RunInChildren(cases, options, &outcomes, out, report);
  }

  const int failed = PrintResultTable(cases, outcomes, options, out);
  const int passed = int(n) - failed;
  if (options.junit) {
    WriteJunit(*options.junit, fs::path(path).stem().string(), cases, outcomes, options, suite_cases);
    out << fmt::format("wrote JUnit XML: {}\n", *options.junit);
  }
  RerunFailures(path, cases, outcomes, options, out);
  out << fmt::format("{} passed, {} failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace ane::cli
