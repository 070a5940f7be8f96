// SPDX-License-Identifier: Apache-2.0
#include "tb/onnx/conformance.h"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "tb/cli/schema.h"
#include "tb/onnx/lower.h"
#include "tb/onnx/model.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/formats.h"

namespace ane::onnx_in {

namespace fs = std::filesystem;

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kPass: return "pass";
    case Verdict::kFail: return "FAIL";
    case Verdict::kExplained: return "explained";
    default: return "refused";
  }
}

std::vector<std::string> TestFolders(const std::string& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    if (e.is_directory() && fs::exists(e.path() / "model.onnx")) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool WithinRule(double y, double r, double scale, double ulps, double abs, double* ratio) {
  if (std::isnan(r) || std::isinf(r) || std::isnan(y) || std::isinf(y)) {
    const bool same = (std::isnan(r) && std::isnan(y)) || (std::isinf(r) && std::isinf(y) && (r > 0) == (y > 0));
    *ratio = same ? 0.0 : INFINITY;
    return same;
  }
  const double tol = (std::ldexp(1.0, -7) + ulps * std::ldexp(1.0, -10)) * std::fabs(r) + std::ldexp(scale, -8) + abs;
  const double err = std::fabs(y - r);
  *ratio = tol > 0 ? err / tol : (err == 0 ? 0.0 : INFINITY);
  return err <= tol;
}

std::map<std::string, std::string> ReadExplained(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  std::map<std::string, std::string> out;
  std::string line;
  int no = 0;
  while (std::getline(in, line)) {
    ++no;
    if (line.empty() || line[0] == '#') continue;
    const size_t bar = line.find(" | ");
    if (bar == std::string::npos || bar == 0 || bar + 3 >= line.size()) {
      throw std::runtime_error(fmt::format("{}:{}: expected 'test | reason'", path, no));
    }
    out[line.substr(0, bar)] = line.substr(bar + 3);
  }
  return out;
}

namespace {

// The tables' terms of the rule: the largest stated ulps and absolute error of the activation
// tables the plan runs.
void TableTerms(const Plan& plan, double* ulps, double* abs) {
  *ulps = *abs = 0;
  for (const Step& s : plan.steps) {
    if (!s.is_op || s.op.op != "activation") continue;
    const oracle::ActBound b = oracle::StatedActBound(s.op.function);
    if (b.ulps) {
      *ulps = std::max(*ulps, b.bound);
    } else {
      *abs = std::max(*abs, b.bound);
    }
  }
}

std::string OneLine(std::string s, const std::string& folder) {
  // the reason without the model's path (the table names the test)
  const std::string model = (fs::path(folder) / "model.onnx").string() + ": ";
  if (s.rfind(model, 0) == 0) s = s.substr(model.size());
  return s;
}

}  // namespace

TestOutcome RunConformance(const std::string& folder, cli::Engine engine) {
  TestOutcome out;
  out.name = fs::path(folder).filename().string();
  const std::string model_path = (fs::path(folder) / "model.onnx").string();
  std::vector<std::string> sets;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) {
      sets.push_back(e.path().string());
    }
  }
  std::sort(sets.begin(), sets.end());
  try {
    const onnx::ModelProto m = LoadModel(model_path);
    if (sets.empty()) throw OnnxError("no test_data_set");
    std::vector<std::string> inputs;  // the graph inputs the data gives, in order (not initializers)
    {
      std::map<std::string, bool> init;
      for (const auto& t : m.graph().initializer()) init[t.name()] = true;
      for (const auto& i : m.graph().input()) {
        if (!init.count(i.name())) inputs.push_back(i.name());
      }
    }
    double worst = 0;
    std::string worst_at;
    for (const std::string& set : sets) {
      std::map<std::string, onnx::TensorProto> frozen;
      for (size_t k = 0; k < inputs.size(); ++k) {
        const fs::path f = fs::path(set) / fmt::format("input_{}.pb", k);
        if (!fs::exists(f)) continue;  // an optional input left out
        frozen[inputs[k]] = ReadTensorFile(f.string());
        const onnx::TensorProto& t = frozen[inputs[k]];
        if (t.data_type() == onnx::TensorProto::FLOAT || t.data_type() == onnx::TensorProto::DOUBLE) {
          for (double v : FloatValues(t, inputs[k])) {
            if (std::isfinite(v) && v != 0 && (std::fabs(v) > 65504 || std::fabs(v) < std::ldexp(1.0, -25))) {
              throw OnnxError(
                  fmt::format("input '{}' holds {}, outside fp16's range (its values become inf or 0)", inputs[k], v));
            }
          }
        }
      }
      const Plan plan = Lower(m, model_path, engine, frozen);
      const RunResult r = Run(plan, {}, engine);
      double ulps = 0, abs = 0;
      TableTerms(plan, &ulps, &abs);
      if (!r.mismatches.empty()) {
        out.verdict = Verdict::kFail;
        out.detail = "rtl and oracle differ: " + r.mismatches[0];
        return out;
      }
      for (size_t k = 0; k < plan.outputs.size(); ++k) {
        const fs::path f = fs::path(set) / fmt::format("output_{}.pb", k);
        const std::vector<double> ref =
            FloatValues(ReadTensorFile(f.string()), fmt::format("{} output {}", out.name, k));
        const Value& y = r.outputs.at(plan.outputs[k]);
        if (int64_t(ref.size()) != y.Count()) {
          throw OnnxError(fmt::format("output {} has {} elements, the reference {}", k, y.Count(), ref.size()));
        }
        double scale = 0;
        for (double d : ref) {
          if (std::isfinite(d)) scale = std::max(scale, std::fabs(d));
        }
        for (size_t e = 0; e < ref.size(); ++e) {
          double ratio = 0;
          const double yv = oracle::Fp16ToDouble(y.fp16[e]);
          WithinRule(yv, ref[e], scale, ulps, abs, &ratio);
          ++out.elements;
          if (ratio > worst || worst_at.empty()) {
            worst = std::max(worst, ratio);
            if (ratio >= worst) {
              worst_at =
                  fmt::format("{} output {} element {}: {} vs {}", fs::path(set).filename().string(), k, e, yv, ref[e]);
            }
          }
        }
      }
    }
    out.worst = worst;
    out.verdict = worst <= 1.0 ? Verdict::kPass : Verdict::kFail;
    out.detail = fmt::format("{:.3f} of the tolerance at worst ({})", worst, worst_at);
  } catch (const OnnxError& e) {
    out.verdict = Verdict::kRefused;
    out.detail = OneLine(e.what(), folder);
  } catch (const cli::CliError& e) {
    out.verdict = Verdict::kRefused;
    out.detail = OneLine(e.what(), folder);
  }
  return out;
}

}  // namespace ane::onnx_in
