// SPDX-License-Identifier: Apache-2.0
#include "tb/onnx/onnx_cmd.h"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "tb/cli/args.h"
#include "tb/cli/npy.h"
#include "tb/cli/schema.h"
#include "tb/cli/tensors.h"
#include "tb/onnx/lower.h"
#include "tb/onnx/model.h"

namespace ane::onnx_in {

namespace fs = std::filesystem;
using cli::CliError;

const char kRunOnnxHelp[] =
    R"TEXT(usage: ane run MODEL.onnx --input NAME=x.npy ... [--engine E] [--out-dir DIR]

Reads an ONNX model (the ONNX checker and shape inference), lowers every node to the
operations of the model (conv2d on the neural-engine core, matmul on the MAC array, tables on
the post-processor, elementwise, pooling, reductions and softmax on the planar engine) or to
data movement, and runs them in order. Prints what each node became, the outputs and notes on
the numerics (fp32 values rounded to fp16, folded batch normalizations, ...).
A node the model cannot lower is refused (exit 2, one line naming the node and why); nothing
runs and nothing is written then.

  --input NAME=FILE.npy  a value for each graph input: fp16 ('<f2') or fp32 ('<f4', rounded
                    to fp16 at the ANE's input boundary, N-1), of the input's declared shape
  --engine E        oracle (default), rtl, or both: every operation on both, compared bit
                    for bit (exit 1 when one differs; the RTL's values run on)
  --out-dir DIR     write each graph output as DIR/NAME.npy (fp16)

The operators, the lowering and the numerics: docs/onnx.md.
)TEXT";

bool IsOnnxRun(const std::vector<std::string>& argv) {
  for (const std::string& a : argv) {
    if (a.size() > 5 && a.compare(a.size() - 5, 5, ".onnx") == 0 && a.rfind("--", 0) != 0) return true;
  }
  return false;
}

namespace {

std::string Preview(const Value& v) {
  std::string s;
  for (size_t i = 0; i < v.fp16.size() && i < 8; ++i) {
    s += (i ? ", " : "") + cli::FormatValue(v.fp16[i], cli::DType::kFp16);
  }
  return "[" + s + (v.fp16.size() > 8 ? ", ...]" : "]");
}

int Run(const std::vector<std::string>& argv, std::ostream& final_out) {
  const cli::Parsed p = cli::Parse("run", argv, {"input", "out-dir", "engine"}, {}, {"input"});
  if (p.help) {
    final_out << kRunOnnxHelp;
    return 0;
  }
  if (p.positional.size() != 1) throw CliError("ane run takes one model (.onnx) file (see ane run MODEL.onnx --help)");
  const std::string path = p.positional[0];
  cli::Engine engine = cli::Engine::kOracle;
  if (const auto e = cli::Flag(p, "engine")) {
    const std::optional<cli::Engine> pe = cli::ParseEngine(*e);
    if (!pe) throw CliError(fmt::format("--engine {}: unknown engine (expected oracle, rtl or both)", *e));
    engine = *pe;
  }
  std::optional<fs::path> out_dir;
  if (const auto d = cli::Flag(p, "out-dir")) {
    if (const std::string why = cli::OutDirProblem(*d); !why.empty()) {
      throw CliError(fmt::format("--out-dir {}: {}", *d, why));
    }
    out_dir = *d;
  }
  const onnx::ModelProto model = LoadModel(path);
  const Plan plan = Lower(model, path, engine);

  std::map<std::string, Value> feeds;
  std::map<std::string, std::string> origin;
  for (const auto& [name, file] : cli::InputFlags(p)) {
    const std::string spec = name + "=" + file;
    bool rounded = false;
    cli::Tensor t;
    try {
      t = cli::ReadNpy(file, &rounded);
    } catch (const cli::NpyError& e) {
      throw CliError(fmt::format("{}: {}", file, e.what()));
    }
    if (t.dtype != cli::DType::kFp16) {
      throw CliError(fmt::format("--input {}: {} data; the model's inputs are fp16 ('<f2') or fp32 ('<f4')", spec,
                                 cli::DTypeName(t.dtype)));
    }
    Value v;
    v.shape = t.shape;
    for (uint32_t b : t.bits) v.fp16.push_back(uint16_t(b));
    feeds[name] = std::move(v);
    origin[name] = file + (rounded ? ", rounded from fp32" : "");
  }
  if (const std::string bad = CheckFeeds(plan, feeds); !bad.empty()) {
    std::string names;
    for (const auto& [n, s] : plan.inputs) names += (names.empty() ? "" : ", ") + n + " " + cli::ShapeString(s);
    throw CliError(fmt::format("{}: {} (inputs: {}; give each with --input NAME=FILE.npy)", path, bad, names));
  }

  std::ostringstream out;
  int ops = 0;
  for (const Step& s : plan.steps) ops += s.is_op;
  std::string producer = model.producer_name();
  if (!model.producer_version().empty()) producer += " " + model.producer_version();
  if (!producer.empty()) producer += ", ";
  out << fmt::format("model       {} ({}opset {}, {} node{}: {} operation{}, {} data movement{})\n", path, producer,
                     plan.opset, plan.nodes, plan.nodes == 1 ? "" : "s", ops, ops == 1 ? "" : "s",
                     plan.steps.size() - size_t(ops), plan.steps.size() - size_t(ops) == 1 ? "" : "s");
  out << fmt::format("engine      {}\n", cli::EngineName(engine));
  for (const auto& [name, shape] : plan.inputs) {
    out << fmt::format("input       {} fp16 {}  ({})\n", name, cli::ShapeString(shape), origin.at(name));
  }
  int k = 0;
  for (const Step& s : plan.steps) {
    if (s.is_op) out << fmt::format("op {:<8} {}: {}\n", ++k, s.node, s.Text());
  }
  const RunResult r = onnx_in::Run(plan, feeds, engine);
  for (const std::string& l : r.rtl_lines) out << "rtl         " << l << "\n";
  std::vector<std::pair<fs::path, cli::Tensor>> writes;
  for (const std::string& name : plan.outputs) {
    const Value& v = r.outputs.at(name);
    out << fmt::format("output      {} fp16 {}: {}\n", name, cli::ShapeString(v.shape), Preview(v));
    if (out_dir) {
      cli::Tensor t{cli::DType::kFp16, v.shape, {}};
      t.bits.assign(v.fp16.begin(), v.fp16.end());
      writes.emplace_back(*out_dir / cli::TensorFileName(name), std::move(t));
    }
  }
  for (const std::string& m : r.mismatches) out << "differs     " << m << "\n";
  try {
    cli::WriteNpyFilesIn(out_dir, writes);
  } catch (const cli::NpyError& e) {
    throw CliError(e.what());
  }
  for (const auto& [dest, t] : writes) out << fmt::format("wrote       {}\n", dest.string());
  for (const std::string& n : plan.notes) out << "note: " << n << "\n";
  final_out << out.str();
  return r.mismatches.empty() ? 0 : 1;
}

}  // namespace

int RunOnnxCommand(const std::vector<std::string>& argv, std::ostream& out) {
  try {
    return Run(argv, out);
  } catch (const OnnxError& e) {
    throw CliError(e.what());
  }
}

}  // namespace ane::onnx_in
