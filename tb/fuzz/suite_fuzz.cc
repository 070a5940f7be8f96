// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the suite reader, as `ane regress SUITE.yaml` reads a suite: RunSuite itself
// (tb/cli/regress.cc), which reads and checks the whole suite (every case, referenced op file,
// .npy input and golden file) before it runs any case. The target asks for the cases whose name
// contains a space, which no valid case name does, so a suite that reads ends in the CliError
// "--filter: no case name contains it" and no case runs (the engines are stand-ins that abort,
// no_engines.cc). CliError is the documented answer to bad input (exit code 2); any other
// exception (exit code 3 in `ane`), a crash, a sanitizer report or a hang is a finding.
//
// The input is written to WORK/regress/suite.yaml next to WORK/examples (a copy of
// sim/examples), the layout of sim/, so that the seed suites' op files and golden files resolve.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "tb/cli/regress.h"
#include "tb/cli/schema.h"
#include "tb/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = (ane::fuzz::WorkDir() / "regress" / "suite.yaml").string();
  ane::fuzz::WriteInput(path, data, size);
  ane::cli::RegressOptions options;
  options.engine = ane::cli::Engine::kOracle;
  options.filter = " ";
  std::ostringstream out;
  try {
    ane::cli::RunSuite(path, options, out);
  } catch (const ane::cli::CliError& e) {
    ane::fuzz::Rejected(e.what());
    return 0;
  }
  // RunSuite returned: it ran cases, which the filter rules out.
  __builtin_trap();
}
