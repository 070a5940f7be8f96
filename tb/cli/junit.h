// SPDX-License-Identifier: Apache-2.0
// JUnit XML reports of `ane regress` split into shards, and joining them again
// (`ane regress --merge-junit OUT a.xml b.xml ...`, docs/cli.md "Sharded regressions").
//
// A sharded run (`--shard I/N`, or GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS) writes its JUnit
// file with the properties ane.suite, ane.engine and ane.shard = "I/N". The merge reads any
// JUnit files (ane's, GoogleTest's --gtest_output=xml, other tools'), joins their testsuites
// by name and recounts tests, failures, errors and skipped from the testcases themselves.
// It refuses (CliError, exit 2, nothing written) a file that is not JUnit XML, a testcase that
// appears twice, and a set of ane shards with one missing, repeated or from different splits,
// so a merged report that is written holds every case of the suite once.
#ifndef TB_CLI_JUNIT_H_
#define TB_CLI_JUNIT_H_

#include <ostream>
#include <string>
#include <vector>

namespace ane::cli {

// One shard of a suite: cases k with k % total == index (0-based, in suite order after
// --filter), the GoogleTest convention.
struct Shard {
  int index = 0;  // 0 .. total - 1
  int total = 1;
};

// "I/N" with 1 <= I <= N <= 10000 (I counts from 1, as CI matrices do). CliError otherwise.
Shard ParseShard(const std::string& text);
// GTEST_SHARD_INDEX (0-based) and GTEST_TOTAL_SHARDS when both are set; CliError when only one
// is set or either is not a valid number. Sets *found to false when neither is set.
Shard ShardFromEnvironment(bool* found);
// "I/N", I from 1.
std::string ShardText(const Shard& s);

struct MergeSummary {
  int files = 0;
  int tests = 0;
  int failures = 0;
  int errors = 0;
  int skipped = 0;
};

// Joins the JUnit files `inputs` into `output` (written only when every check passes).
MergeSummary MergeJunit(const std::string& output, const std::vector<std::string>& inputs);

// `ane regress --merge-junit OUT a.xml ...`: merges, prints one summary line, and returns 0
// when no merged testcase failed or errored, 1 otherwise.
int RunMergeJunit(const std::string& output, const std::vector<std::string>& inputs, std::ostream& out);

}  // namespace ane::cli

#endif  // TB_CLI_JUNIT_H_
