// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the JUnit reader of `ane regress --merge-junit OUT A.xml B.xml ...`
// (tb/cli/junit.cc). The input is up to three files separated by a line "--8<--"; they are
// written to a private folder and merged. CliError is the documented answer to a bad file or a
// set of shards that cannot be whole (one line, exit code 2); any other exception, a crash, a
// sanitizer report or a hang is a finding.
//
// A merge that succeeds must also be whole: its output, merged again alone, succeeds with the
// same counts (the writer's XML reads back, and recounting changes nothing).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tb/cli/junit.h"
#include "tb/cli/schema.h"
#include "tb/fuzz/fuzz_util.h"

namespace {

[[noreturn]] void Finding(const char* what) {
  std::fprintf(stderr, "fuzz_junit: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fs = std::filesystem;
  static const fs::path dir = ane::fuzz::WorkDir() / "junit";
  fs::create_directories(dir);
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> files;
  size_t start = 0;
  while (files.size() < 3) {
    const size_t cut = text.find("\n--8<--\n", start);
    const std::string part = text.substr(start, cut == std::string::npos ? std::string::npos : cut - start);
    const fs::path f = dir / ("in" + std::to_string(files.size()) + ".xml");
    ane::fuzz::WriteInput(f, reinterpret_cast<const uint8_t*>(part.data()), part.size());
    files.push_back(f.string());
    if (cut == std::string::npos) break;
    start = cut + 8;
  }
  const std::string out = (dir / "merged.xml").string();
  const std::string again = (dir / "again.xml").string();
  fs::remove(out);
  ane::cli::MergeSummary first;
  try {
    first = ane::cli::MergeJunit(out, files);
  } catch (const ane::cli::CliError& e) {
    ane::fuzz::Rejected(e.what());
    if (fs::exists(out)) Finding("a refused merge wrote its output");
    return 0;
  }
  ane::cli::MergeSummary second;
  try {
    second = ane::cli::MergeJunit(again, {out});
  } catch (const ane::cli::CliError& e) {
    std::fprintf(stderr, "fuzz_junit: %s\n", e.what());
    Finding("the merged report does not merge again");
  }
  if (second.tests != first.tests || second.failures != first.failures || second.errors != first.errors ||
      second.skipped != first.skipped) {
    Finding("merging the merged report changed its counts");
  }
  return 0;
}
