// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the .hwx (Mach-O) reader, the TD chain walk, the field decode and the
// interpretation of TDs (tb/td), and the editable YAML form of a chain (tb/cli/td_yaml.cc): what
// `ane td decode` and `ane run PROGRAM.hwx` run on a file's bytes before any engine. TdError (and
// CliError from the YAML reader) is the documented answer to a bad file (one line, exit code 2);
// any other exception, a crash, a sanitizer report or a hang is a finding.
//
// An input that reads must also survive the round trips the command offers: the chain written
// back by EncodeChain walks to the same TDs, and the YAML form reads back to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tb/cli/hwx_cmd.h"
#include "tb/cli/schema.h"
#include "tb/fuzz/fuzz_util.h"
#include "tb/td/hwx.h"
#include "tb/td/program.h"
#include "tb/td/td.h"

namespace {

[[noreturn]] void Finding(const char* what) {
  std::fprintf(stderr, "fuzz_hwx: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace td = ane::td;
  const std::vector<uint8_t> bytes(data, data + size);
  std::vector<td::Td> tds;
  std::vector<uint8_t> chain;
  try {
    if (td::IsHwx(bytes)) {
      const td::Hwx h = td::ParseHwx(bytes);
      chain = h.TdBytes();
      tds = td::WalkChain(chain, h.td_count);
      (void)td::DecodeText(tds, &h, true);
      for (int i = 0; i < td::kBarEntries; ++i) (void)h.BarName(i);
      try {
        (void)td::Interpret(tds, h.WeightBytes(), h.weights_bar);
      } catch (const td::TdError& e) {
        ane::fuzz::Rejected(e.what());
      }
    } else {
      chain = bytes;
      tds = td::WalkChain(chain);
      (void)td::DecodeText(tds, nullptr, true);
      try {
        (void)td::Interpret(tds, std::vector<uint8_t>(bytes.begin(), bytes.begin() + int64_t(size / 2)), 1);
      } catch (const td::TdError& e) {
        ane::fuzz::Rejected(e.what());
      }
    }
  } catch (const td::TdError& e) {
    ane::fuzz::Rejected(e.what());
    return 0;
  }
  // Round trips: the TDs alone, and the YAML form.
  const std::vector<uint8_t> again = td::EncodeChain(tds, uint32_t(chain.size()));
  std::vector<td::Td> back;
  try {
    back = td::WalkChain(again);
  } catch (const td::TdError& e) {
    std::fprintf(stderr, "fuzz_hwx: %s\n", e.what());
    Finding("the chain EncodeChain wrote does not walk");
  }
  if (back.size() != tds.size()) Finding("EncodeChain changed the chain's length");
  for (size_t i = 0; i < tds.size(); ++i) {
    if (back[i].at != tds[i].at || back[i].words != tds[i].words) Finding("EncodeChain changed a TD");
  }
  // The YAML form (a yaml-cpp parse of ~300 lines per TD) on one input in eight, chosen by the
  // input's length, so that the parsers above get most of the executions.
  if (size % 8 != 0) return 0;
  std::vector<uint8_t> from_yaml;
  try {
    from_yaml = ane::cli::TdChainFromYaml(ane::cli::TdChainYaml(tds, uint32_t(chain.size()), "fuzz"), "fuzz.yaml");
  } catch (const ane::cli::CliError& e) {
    std::fprintf(stderr, "fuzz_hwx: %s\n", e.what());
    Finding("the YAML form of a chain does not read back");
  }
  if (from_yaml != again) Finding("the YAML form of a chain reads back to other bytes");
  return 0;
}
