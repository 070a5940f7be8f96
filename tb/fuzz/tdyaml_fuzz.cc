// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the reader of the TD YAML form (`ane td encode FILE.yaml`, TdChainFromYaml in
// tb/cli/td_yaml.cc) on arbitrary text. CliError is its documented answer to a bad file (one
// line, exit code 2); any other exception, a crash, a sanitizer report or a hang is a finding.
// A file that reads must give a chain the decoder walks, whose YAML form reads back to the same
// bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tb/cli/hwx_cmd.h"
#include "tb/cli/schema.h"
#include "tb/fuzz/fuzz_util.h"
#include "tb/td/td.h"

namespace {

[[noreturn]] void Finding(const char* what) {
  std::fprintf(stderr, "fuzz_tdyaml: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<uint8_t> chain;
  try {
    chain = ane::cli::TdChainFromYaml(text, "fuzz.yaml");
  } catch (const ane::cli::CliError& e) {
    ane::fuzz::Rejected(e.what());
    return 0;
  }
  std::vector<ane::td::Td> tds;
  try {
    tds = ane::td::WalkChain(chain);
  } catch (const ane::td::TdError& e) {
    std::fprintf(stderr, "fuzz_tdyaml: %s\n", e.what());
    Finding("TdChainFromYaml returned a chain the decoder refuses");
  }
  std::vector<uint8_t> again;
  try {
    again = ane::cli::TdChainFromYaml(ane::cli::TdChainYaml(tds, uint32_t(chain.size()), "fuzz"), "again.yaml");
  } catch (const ane::cli::CliError& e) {
    std::fprintf(stderr, "fuzz_tdyaml: %s\n", e.what());
    Finding("the YAML form of a read chain does not read back");
  }
  // Bytes outside every TD are not in the YAML form (they are zero when it is written).
  std::vector<uint8_t> expect(chain.size(), 0);
  for (const ane::td::Td& t : tds) {
    std::copy(chain.begin() + t.at, chain.begin() + t.at + ane::regs::td::kTdBytes, expect.begin() + t.at);
  }
  if (again != expect) Finding("the YAML form of a read chain reads back to other bytes");
  return 0;
}
