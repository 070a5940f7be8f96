// SPDX-License-Identifier: Apache-2.0
#include "tb/fuzz/fuzz_util.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace ane::fuzz {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void Die(const std::string& what) {
  // A broken harness, not a finding: say so plainly and stop.
  std::fprintf(stderr, "fuzz harness: %s\n", what.c_str());
  std::abort();
}

fs::path* work = nullptr;

void RemoveWorkDir() {
  std::error_code ec;
  if (work != nullptr) fs::remove_all(*work, ec);
}

}  // namespace

const fs::path& WorkDir() {
  if (work != nullptr) return *work;
  const char* tmp = std::getenv("TMPDIR");
  const fs::path parent(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
  std::string tmpl = (parent / "ane-fuzz-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) Die("cannot create a folder from " + tmpl);
  work = new fs::path(tmpl);
  std::atexit(RemoveWorkDir);
  std::error_code ec;
  fs::copy(fs::path(ANE_SOURCE_DIR) / "sim" / "examples", *work / "examples", ec);
  if (ec) Die("cannot copy sim/examples: " + ec.message());
  fs::copy(fs::path(ANE_SOURCE_DIR) / "tb" / "fuzz" / "corpus" / "npy", *work / "npy", ec);
  if (ec) Die("cannot copy tb/fuzz/corpus/npy: " + ec.message());
  fs::create_directory(*work / "regress", ec);
  if (ec) Die("cannot create " + (*work / "regress").string() + ": " + ec.message());
  return *work;
}

void Rejected(const char* what) {
  static const bool verbose = std::getenv("ANE_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "rejected: %s\n", what);
}

void WriteInput(const fs::path& path, const uint8_t* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  out.close();
  if (!out) Die("cannot write " + path.string());
}

}  // namespace ane::fuzz
