// SPDX-License-Identifier: Apache-2.0
// ane_onnx_conformance [--engine E] [--filter TEXT] [--sample N] [--markdown] DIR...: ONNX's
// backend tests (each DIR a folder of test folders, Debian's /usr/share/libonnx-testdata/data/node,
// ...) run through the model (tb/onnx/conformance.h): one line per test (pass, FAIL, refused and
// why), then the counts. --sample N runs every N-th test of each folder (in name order: the RTL
// sample of make test). --markdown writes the table of docs/results.md. Exit 1 when a test fails
// (engine both: also when the RTL's result differs from the oracle's in any bit).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "tb/cli/schema.h"
#include "tb/onnx/conformance.h"

int main(int argc, char** argv) {
  using namespace ane;
  cli::Engine engine = cli::Engine::kOracle;
  std::string filter;
  int sample = 1;  // every sample-th test (in name order) of each folder
  bool markdown = false;
  std::string explained_file;
  std::vector<std::string> roots;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--engine" && i + 1 < argc) {
      const auto e = cli::ParseEngine(argv[++i]);
      if (!e) {
        std::cerr << "ane_onnx_conformance: --engine: oracle, rtl or both\n";
        return 2;
      }
      engine = *e;
    } else if (a == "--filter" && i + 1 < argc) {
      filter = argv[++i];
    } else if (a == "--sample" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v.empty() || v.size() > 6 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) < 1) {
        std::cerr << "ane_onnx_conformance: --sample: a count of 1 or more\n";
        return 2;
      }
      sample = std::stoi(v);
    } else if (a == "--explained" && i + 1 < argc) {
      explained_file = argv[++i];
    } else if (a == "--markdown") {
      markdown = true;
    } else if (!a.empty() && a[0] == '-') {
      std::cerr
          << "usage: ane_onnx_conformance [--engine E] [--filter TEXT] [--sample N] [--explained FILE] [--markdown] "
             "DIR...\n";
      return 2;
    } else {
      roots.push_back(a);
    }
  }
  if (roots.empty()) {
    std::cerr << "ane_onnx_conformance: name the folders of tests (e.g. /usr/share/libonnx-testdata/data/node)\n";
    return 2;
  }
  std::map<std::string, std::string> explained;
  if (!explained_file.empty()) {
    try {
      explained = onnx_in::ReadExplained(explained_file);
    } catch (const std::exception& e) {
      std::cerr << "ane_onnx_conformance: " << e.what() << "\n";
      return 2;
    }
  }
  int stale = 0;
  std::map<onnx_in::Verdict, int> count;
  std::vector<onnx_in::TestOutcome> all;
  for (const std::string& root : roots) {
    int seen = 0;
    for (const std::string& folder : onnx_in::TestFolders(root)) {
      if (!filter.empty() && folder.find(filter) == std::string::npos) continue;
      if (seen++ % sample != 0) continue;
      onnx_in::TestOutcome o = onnx_in::RunConformance(folder, engine);
      o.name = std::filesystem::path(root).filename().string() + "/" + o.name;
      if (auto ex = explained.find(o.name); ex != explained.end()) {
        if (o.verdict == onnx_in::Verdict::kFail) {
          o.verdict = onnx_in::Verdict::kExplained;
          o.detail = ex->second + " (" + o.detail + ")";
        } else {
          ++stale;
          o.detail = "listed as explained but " + std::string(onnx_in::VerdictName(o.verdict)) + ": " + o.detail;
          o.verdict = onnx_in::Verdict::kFail;
        }
      }
      ++count[o.verdict];
      if (!markdown) {
        std::cout << fmt::format("{:<8} {}  {}\n", onnx_in::VerdictName(o.verdict), o.name, o.detail) << std::flush;
      }
      all.push_back(std::move(o));
    }
  }
  const int pass = count[onnx_in::Verdict::kPass], fail = count[onnx_in::Verdict::kFail],
            refused = count[onnx_in::Verdict::kRefused], expl = count[onnx_in::Verdict::kExplained];
  if (markdown) {
    std::cout << "| Test | Result | Detail |\n|---|---|---|\n";
    for (const auto& o : all) {
      std::string d = o.detail;
      for (char& c : d) {
        if (c == '|') c = '/';
      }
      std::cout << fmt::format("| `{}` | {} | {} |\n", o.name, onnx_in::VerdictName(o.verdict), d);
    }
  }
  std::cout << fmt::format("{} tests: {} passed, {} explained, {} failed, {} refused (engine {})\n",
                           pass + fail + refused + expl, pass, expl, fail, refused, cli::EngineName(engine));
  if (stale) std::cerr << stale << " test(s) listed as explained did not fail\n";
  return fail ? 1 : 0;
}
