// SPDX-License-Identifier: Apache-2.0
// `ane regress SUITE.yaml` (docs/cli.md "Regression suites"): a list of cases, each an
// operation (inline or from an op file) or a dot product, with expectations on its outputs.
// The whole suite is read and checked before any case runs, so a bad suite runs nothing.
#ifndef TB_CLI_REGRESS_H_
#define TB_CLI_REGRESS_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "tb/cli/junit.h"
#include "tb/cli/operation.h"

namespace ane::cli {

struct RegressOptions {
  Engine engine = Engine::kOracle;
  std::optional<std::string> filter;  // run only the cases whose name contains it
  std::optional<uint64_t> seed_offset;
  harness::DataFault fault;                // ANE_FAULT (FaultFromEnvironment)
  int jobs = 1;                            // cases run at once (> 1: one child process per case)
  std::optional<std::string> junit;        // write JUnit XML here
  std::string wave_dir = "regress-waves";  // failing RTL cases are rerun with a waveform here
  std::optional<Shard> shard;              // run only this shard of the (filtered) cases
};

// Prints one line per case as it finishes ("PASS name  (details)  [k/n, t s]" or "FAIL ..."),
// then a summary table (case, engine, cycles, utilization, time, result), and a last line
// "N passed, N failed". A case that fails on the RTL engine is rerun with a waveform in
// options.wave_dir, and the line to open it is printed. Returns 0 when every case passed,
// 1 otherwise. Throws CliError for a bad suite (exit code 2) before any case runs.
// With options.shard, the whole suite is read and checked, then only the cases k (in suite
// order, after the filter) with k % total == index run; an empty shard passes with 0 cases.
int RunSuite(const std::string& path, const RegressOptions& options, std::ostream& out);

}  // namespace ane::cli

#endif  // TB_CLI_REGRESS_H_
