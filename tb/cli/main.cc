// SPDX-License-Identifier: Apache-2.0
// `ane`: the command-line front door of the ANE bit-exact model (docs/cli.md).
//
//   ane run OP.yaml [--engine E] [--out-dir DIR] [--seed S] [--wave FILE.fst]
//   ane regress SUITE.yaml [--engine E] [-j N] [--junit FILE.xml] [--wave-dir DIR] [--filter TEXT] [--seed S]
//               [--shard I/N]
//   ane regress --merge-junit OUT.xml A.xml B.xml ...
//   ane run PROGRAM.hwx --input NAME=x.npy ... [--out-dir DIR] [--engine E]
//   ane run MODEL.onnx --input NAME=x.npy ... [--out-dir DIR] [--engine E]
//   ane td decode FILE [--yaml] [--nonzero] | ane td encode FILE.yaml -o OUT [--hwx PROGRAM.hwx]
//
// Exit codes: 0 success, 1 a regress case failed or `--engine both` found a difference, 2 bad input or usage (one line
// on stderr: "ane: error: <file>: <field>: <what>", nothing written), 3 internal error.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tb/cli/hwx_cmd.h"
#include "tb/cli/operation.h"
#include "tb/cli/regress.h"
#include "tb/cli/schema.h"
#include "tb/harness/sim.h"
#include "tb/onnx/compile.h"
#include "tb/onnx/onnx_cmd.h"

namespace ane::cli {
namespace {

namespace fs = std::filesystem;

constexpr char kVersion[] =
    "ane 0.3.0 (engines: oracle, rtl (256-lane neural-engine core, MAC array, post-processor, planar engine), both; "
    "numerics: NUMERICS.md N-0..N-7)";

constexpr char kHelp[] = R"TEXT(ane -- the Apple Neural Engine bit-exact model

usage:
  ane run OP.yaml [--engine E] [--out-dir DIR] [--seed S] [--wave FILE.fst]
      Evaluate one operation (ane help ops lists them), write its outputs (.npy) and print
      a summary: shape, min/max, infinities, the difference from an fp64 reference in ulps,
      and the RTL's cycles.
  ane regress SUITE.yaml [--engine E] [-j N] [--junit FILE.xml] [--wave-dir DIR]
                         [--filter TEXT] [--seed S] [--shard I/N]
      Run a suite of cases: one PASS/FAIL line per case, a summary table, then
      "N passed, N failed".
  ane regress --merge-junit OUT.xml A.xml B.xml ...
      Join the JUnit reports of a suite's shards (or any JUnit files) into one.
  ane run PROGRAM.hwx --input NAME=x.npy ... [--out-dir DIR] [--engine E] [--wave FILE.fst]
      Run a program compiled for the ANE (.hwx): its task descriptors on the model.
  ane run MODEL.onnx --input NAME=x.npy ... [--engine E] [--out-dir DIR]
      Run an ONNX model: each node lowered to the model's operations or refused (docs/onnx.md).
  ane compile MODEL.onnx -o MODEL.hwx
      Compile an ONNX model into a program of task descriptors (.hwx) that ane run runs.
  ane td decode FILE [--yaml] [--nonzero]      ane td encode FILE.yaml -o OUT [--hwx PROGRAM.hwx]
      Show every field of a program's task descriptors; write them back from YAML.
  ane help [run|regress|td|compile|ops] this text, one command's, or the operations of op files
  ane --version

engines (--engine E): oracle (default), rtl (the Verilated RTL: conv2d on the 256-lane
neural-engine core, matmul on the 256-lane MAC array, the other operations on their blocks),
both (both, compared bit for bit; the first differing element and its stage are reported).

exit codes: 0 success, 1 a regress case failed or rtl and oracle differ, 2 bad input or usage (one line on
stderr, "ane: error: <file>: <field>: <what>", and no output written), 3 internal error.
The YAML schema, the tensor generators and examples: docs/cli.md.
)TEXT";

constexpr char kRunHelp[] =
    R"TEXT(usage: ane run OP.yaml [--engine E] [--out-dir DIR] [--seed S] [--wave FILE.fst]

Evaluates the operation of OP.yaml, e.g.
  {op: matmul, generation: m1, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}}
  {op: conv2d, generation: m1, stride: [1, 1], padding: [1, 1],
   inputs: {x: x.npy, w: w.npy}, outputs: {y: y.npy}}
Relative paths are relative to OP.yaml. Every input is read and checked and the result is
computed before any output is written; outputs are written whole or not at all.

  --engine E        oracle (default), rtl (the Verilated RTL), or both: run
                    both, compare every output bit for bit, report the first differing
                    element and the stage it comes from (exit code 1); the RTL's
                    outputs are written
  --out-dir DIR     write relative output paths under DIR (made when it does not exist)
  --seed S          a tensor generated with seed s uses seed s + S
  --wave FILE.fst   write the RTL's waveform (engines rtl and both); an operation that
                    runs several blocks in turn writes FILE.2.fst, ... for the later ones.
                    The line printed names the GTKWave save file (sim/<top>.gtkw)

A program compiled for the ANE runs with  ane run PROGRAM.hwx --input NAME=x.npy ...
(ane run PROGRAM.hwx --help; docs/td.md), an ONNX model with  ane run MODEL.onnx --input
NAME=x.npy ... (ane run MODEL.onnx --help; docs/onnx.md).
)TEXT";

constexpr char kRegressHelp[] =
    R"TEXT(usage: ane regress SUITE.yaml [--engine E] [-j N] [--junit FILE.xml] [--wave-dir DIR]
                            [--filter TEXT] [--seed S] [--shard I/N]
       ane regress --merge-junit OUT.xml A.xml B.xml ...

Runs the cases of SUITE.yaml (operations with expectations, and dot products) and prints
"PASS name  (details)  [k/n, time]" or "FAIL ..." as each case finishes, a summary table
(case, engine, rtl cycles, utilization, time, result), then "N passed, N failed".
A case that fails on engine rtl or both is rerun with a waveform in the wave directory;
the lines to open it and to rerun the case alone are printed.
Exit code 0 when all pass, 1 when any fails, 2 when the suite is bad (nothing runs then).

  --engine E        oracle (default), rtl, or both (a case fails when rtl and oracle differ)
  -j N, --jobs N    run N cases at once, each in its own process (default 1)
  --junit FILE.xml  write the results as JUnit XML (one testcase per case)
  --wave-dir DIR    where failing cases' waveforms go (default regress-waves)
  --filter TEXT     run only the cases whose name contains TEXT
  --seed S          a tensor generated with seed s uses seed s + S
  --shard I/N       run the I-th of N parts (1 <= I <= N): the cases at positions I, I + N,
                    I + 2N, ... of the suite (after --filter). The whole suite is still read
                    and checked. Without the flag, GTEST_SHARD_INDEX (0-based) and
                    GTEST_TOTAL_SHARDS select the part the same way, and GTEST_SHARD_STATUS_FILE
                    is created when set. An empty part passes with 0 cases.
  --merge-junit OUT.xml A.xml ...
                    join the JUnit files of the N parts (--junit of each) into OUT.xml, counts
                    recomputed from the testcases. Refused (exit 2, nothing written): a file
                    that is not JUnit XML, a case in two files, a missing or repeated part,
                    parts of different splits or filters. Exit 1 when a merged case failed.
)TEXT";

struct Args {
  std::string file;
  std::map<std::string, std::string> flags;
  bool help = false;
};

// Parses "FILE [--flag VALUE | --flag=VALUE]..." for a command taking `allowed` flags.
Args ParseArgs(const std::string& command, const std::vector<std::string>& argv, const std::set<std::string>& allowed) {
  Args args;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--help" || a == "-h") {
      args.help = true;
    } else if (a.rfind("--", 0) == 0 || (a.rfind("-j", 0) == 0 && allowed.count("jobs"))) {
      // -j N and -jN are --jobs N
      const bool short_j = a.rfind("-j", 0) == 0;
      const size_t eq = short_j ? (a.size() > 2 ? 1 : std::string::npos) : a.find('=');
      const std::string name = short_j ? "jobs" : a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (!allowed.count(name)) {
        throw CliError(fmt::format("unknown flag '--{}' for ane {} (see ane {} --help)", name, command, command));
      }
      if (args.flags.count(name)) throw CliError(fmt::format("--{} given twice", name));
      if (eq != std::string::npos) {
        args.flags[name] = a.substr(eq + 1);
      } else if (i + 1 < argv.size()) {
        args.flags[name] = argv[++i];
      } else {
        throw CliError(fmt::format("--{} needs a value", name));
      }
    } else if (a.size() > 1 && a[0] == '-') {
      throw CliError(fmt::format("unknown flag '{}' for ane {} (see ane {} --help)", a, command, command));
    } else if (args.file.empty()) {
      args.file = a;
    } else {
      throw CliError(fmt::format("unexpected argument '{}' (ane {} takes one YAML file)", a, command));
    }
  }
  if (args.file.empty() && !args.help) {
    throw CliError(fmt::format("ane {} needs a YAML file (see ane {} --help)", command, command));
  }
  return args;
}

Engine EngineFlag(const Args& args) {
  auto it = args.flags.find("engine");
  if (it == args.flags.end()) return Engine::kOracle;
  const std::optional<Engine> e = ParseEngine(it->second);
  if (!e) {
    throw CliError(fmt::format("--engine {}: unknown engine (expected oracle, rtl or both)", it->second));
  }
  return *e;
}

std::optional<uint64_t> SeedFlag(const Args& args) {
  auto it = args.flags.find("seed");
  if (it == args.flags.end()) return std::nullopt;
  const std::string& s = it->second;
  if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos ||
      (s.size() == 20 && s > "18446744073709551615")) {
    throw CliError(fmt::format("--seed {}: expected an integer in [0, 2^64)", s));
  }
  return std::stoull(s);
}

// Where output `name` goes: the path written in the op file, under --out-dir when relative.
fs::path OutputPath(const Field& f, const std::optional<fs::path>& out_dir) {
  const fs::path written(f.Scalar());
  const fs::path path = out_dir && written.is_relative() ? (*out_dir / written).lexically_normal() : f.Path();
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  // --out-dir itself (checked by Run) is made when it does not exist yet; a folder below it is not.
  const bool made = out_dir && (dir / "").lexically_normal() == (*out_dir / "").lexically_normal();
  if (!made && !fs::is_directory(dir, ec)) {
    f.Fail(fmt::format("directory {} does not exist (create it first)", dir.string()));
  }
  if (fs::is_directory(path, ec)) f.Fail(fmt::format("{} is a directory", path.string()));
  return path;
}

std::string MinMax(const Tensor& t) {
  size_t lo = 0;
  size_t hi = 0;
  for (size_t i = 1; i < t.bits.size(); ++i) {
    if (OrderedValue(t.bits[i], t.dtype) < OrderedValue(t.bits[lo], t.dtype)) lo = i;
    if (OrderedValue(t.bits[i], t.dtype) > OrderedValue(t.bits[hi], t.dtype)) hi = i;
  }
  return fmt::format("min {}  max {}", FormatValue(t.bits[lo], t.dtype), FormatValue(t.bits[hi], t.dtype));
}

// The waveforms the run wrote (--wave) and how to open each.
void PrintWaves(std::ostream& out) {
  const harness::WaveRequest& req = harness::CurrentWaveRequest();
  for (size_t i = 0; i < req.written.size(); ++i) {
    out << fmt::format("wave        {} (top {}): open with  gtkwave {} sim/{}.gtkw\n", req.written[i], req.tops[i],
                       req.written[i], req.tops[i]);
  }
}

int Run(const Args& args) {
  const Engine engine = EngineFlag(args);
  std::optional<fs::path> out_dir;
  if (auto it = args.flags.find("out-dir"); it != args.flags.end()) {
    if (const std::string why = OutDirProblem(it->second); !why.empty()) {
      throw CliError(fmt::format("--out-dir {}: {}", it->second, why));
    }
    out_dir = it->second;
  }
  Fields fields(LoadYamlFile(args.file));
  const Operation op = ReadOperation(fields, TensorOptions{SeedFlag(args)});
  fields.Finish();
  CheckEngine(engine, op);
  const harness::DataFault fault = FaultFromEnvironment();
  std::vector<std::pair<fs::path, Tensor>> writes;
  std::map<std::string, fs::path> paths;
  for (const auto& [name, f] : op.output_fields) paths.emplace(name, OutputPath(f, out_dir));

  std::optional<fs::path> wave;
  if (auto it = args.flags.find("wave"); it != args.flags.end()) {
    if (engine == Engine::kOracle) throw CliError("--wave: the oracle has no waveform (use --engine rtl or both)");
    wave = fs::path(it->second);
    if (wave->extension() != ".fst") throw CliError(fmt::format("--wave {}: expected a .fst file name", it->second));
    const fs::path dir = wave->has_parent_path() ? wave->parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      throw CliError(fmt::format("--wave {}: directory {} does not exist", it->second, dir.string()));
    }
    harness::RequestWaveFile(wave->string());
  }
  const Evaluation result = Evaluate(op, engine, fault);
  const TensorMap reference = Reference(op);
  for (const auto& [name, path] : paths) writes.emplace_back(path, result.outputs.at(name));
  try {
    WriteNpyFilesIn(out_dir, writes);
  } catch (const NpyError& e) {
    throw CliError(e.what());
  }

  fmt::print("op          {}\n", op.op);
  fmt::print("generation  {}\n", oracle::GenerationName(op.generation));
  fmt::print("engine      {}\n", EngineName(engine));
  for (const auto& [name, t] : op.inputs) {
    fmt::print("input {:<5} {} {}  ({})\n", name, DTypeName(t.tensor.dtype), ShapeString(t.tensor.shape), t.origin);
  }
  for (const auto& [name, y] : result.outputs) {
    const bool fp = y.dtype == DType::kFp16;
    int64_t pos_inf = 0;
    int64_t neg_inf = 0;
    for (uint32_t b : y.bits) {
      pos_inf += fp && b == oracle::kFp16PosInf;
      neg_inf += fp && b == oracle::kFp16NegInf;
    }
    fmt::print("output {:<4} {} {}  {}  {}\n", name, DTypeName(y.dtype), ShapeString(y.shape), MinMax(y),
               fp ? fmt::format("+inf {}  -inf {}", pos_inf, neg_inf) : fmt::format("saturated {}", result.saturated));
    const Difference d = Compare(y, reference.at(name));
    fmt::print("vs fp64     {}: max {} {}, {} of {} outputs differ\n", name, d.max, fp ? "ulp" : "(integer)", d.count,
               y.bits.size());
    if (paths.count(name)) fmt::print("wrote       {}: {}\n", name, paths.at(name).string());
  }
  if (result.rtl) PrintRtlSummary(op, *result.rtl);
  fmt::print("{}", ReferenceNote(op));
  if (wave) PrintWaves(std::cout);
  if (engine == Engine::kBoth) {
    if (!result.mismatch) {
      fmt::print("rtl vs oracle: bit-identical ({} outputs)\n", result.outputs.begin()->second.bits.size());
      return 0;
    }
    const EngineMismatch& m = *result.mismatch;
    fmt::print("rtl vs oracle: MISMATCH at {}: rtl {}, oracle {} ({} of {} outputs differ)\n", m.element, m.rtl,
               m.oracle, m.count, m.total);
    fmt::print("stage       {}: {}\n", m.stage.stage, m.stage.detail);
    return 1;
  }
  return 0;
}

int Main(const std::vector<std::string>& argv) {
  if (argv.empty()) throw CliError("no command (see ane --help)");
  const std::string& command = argv[0];
  const std::vector<std::string> rest(argv.begin() + 1, argv.end());
  if (command == "--help" || command == "-h" || command == "help") {
    if (rest.size() > 1) throw CliError("ane help takes at most one command name");
    const std::string topic = rest.empty() ? "" : rest[0];
    if (topic.empty()) {
      std::cout << kHelp;
    } else if (topic == "run") {
      std::cout << kRunHelp;
    } else if (topic == "regress") {
      std::cout << kRegressHelp;
    } else if (topic == "td") {
      std::cout << kTdHelp;
    } else if (topic == "compile") {
      std::cout << onnx_in::kCompileHelp;
    } else if (topic == "ops") {
      std::cout << OpsHelp();
    } else {
      throw CliError(fmt::format("no help for '{}' (commands: run, regress, td, compile; the operations: ops)", topic));
    }
    return 0;
  }
  if (command == "--version") {
    if (!rest.empty()) throw CliError("--version takes no arguments");
    std::cout << kVersion << "\n";
    return 0;
  }
  if (command == "td") return TdCommand(rest, std::cout);
  if (command == "compile") return onnx_in::CompileCommand(rest, std::cout);
  if (command == "run" && IsHwxRun(rest)) return RunHwxCommand(rest, std::cout);
  if (command == "run" && onnx_in::IsOnnxRun(rest)) return onnx_in::RunOnnxCommand(rest, std::cout);
  if (command == "run") {
    const Args args = ParseArgs(command, rest, {"engine", "out-dir", "seed", "wave"});
    if (args.help) {
      std::cout << kRunHelp;
      return 0;
    }
    return Run(args);
  }
  if (command == "regress") {
    // ane regress --merge-junit OUT A.xml B.xml ...: no suite, every other argument a report.
    for (size_t i = 0; i < rest.size(); ++i) {
      const bool eq = rest[i].rfind("--merge-junit=", 0) == 0;
      if (rest[i] != "--merge-junit" && !eq) continue;
      std::vector<std::string> files;
      std::string output = eq ? rest[i].substr(14) : "";
      for (size_t k = 0; k < rest.size(); ++k) {
        if (k == i) continue;
        if (!eq && k == i + 1) {
          output = rest[k];
          continue;
        }
        if (rest[k].size() > 1 && rest[k][0] == '-') {
          throw CliError(fmt::format("--merge-junit takes only file names ('{}' given)", rest[k]));
        }
        files.push_back(rest[k]);
      }
      if (output.empty()) throw CliError("--merge-junit needs an output file name");
      return RunMergeJunit(output, files, std::cout);
    }
    const Args args = ParseArgs(command, rest, {"engine", "filter", "seed", "jobs", "junit", "wave-dir", "shard"});
    if (args.help) {
      std::cout << kRegressHelp;
      return 0;
    }
    RegressOptions options;
    options.engine = EngineFlag(args);
    if (auto it = args.flags.find("filter"); it != args.flags.end()) options.filter = it->second;
    options.seed_offset = SeedFlag(args);
    options.fault = FaultFromEnvironment();
    if (auto it = args.flags.find("jobs"); it != args.flags.end()) {
      const std::string& j = it->second;
      if (j.empty() || j.size() > 3 || j.find_first_not_of("0123456789") != std::string::npos || std::stoi(j) < 1 ||
          std::stoi(j) > 256) {
        throw CliError(fmt::format("-j {}: expected a number of jobs in 1 .. 256", j));
      }
      options.jobs = std::stoi(j);
    }
    if (auto it = args.flags.find("junit"); it != args.flags.end()) {
      if (it->second.empty()) throw CliError("--junit needs a file name");
      options.junit = it->second;
    }
    if (auto it = args.flags.find("wave-dir"); it != args.flags.end()) {
      if (it->second.empty()) throw CliError("--wave-dir needs a directory name");
      options.wave_dir = it->second;
    }
    if (auto it = args.flags.find("shard"); it != args.flags.end()) {
      options.shard = ParseShard(it->second);
    } else {
      bool from_env = false;
      const Shard env = ShardFromEnvironment(&from_env);
      if (from_env) options.shard = env;
    }
    // The GoogleTest sharding protocol: a runner that shards creates this file to say so.
    if (const char* status = std::getenv("GTEST_SHARD_STATUS_FILE"); status != nullptr && *status != '\0') {
      std::ofstream touch(status, std::ios::app);
      if (!touch) throw CliError(fmt::format("GTEST_SHARD_STATUS_FILE={}: cannot create the file", status));
    }
    return RunSuite(args.file, options, std::cout);
  }
  throw CliError(fmt::format("unknown command '{}' (see ane --help)", command));
}

}  // namespace
}  // namespace ane::cli

int main(int argc, char** argv) {
  try {
    return ane::cli::Main(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const ane::cli::CliError& e) {
    std::cout.flush();
    std::cerr << "ane: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "ane: internal error: " << e.what() << "\n";
    return 3;
  }
}
