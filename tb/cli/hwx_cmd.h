// SPDX-License-Identifier: Apache-2.0
// `ane td decode|encode` and `ane run PROGRAM.hwx` (docs/td.md): the front end for the ANE's
// own programs. Bad input throws CliError (one line, exit 2, nothing written).
#ifndef TB_CLI_HWX_CMD_H_
#define TB_CLI_HWX_CMD_H_

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "tb/td/program.h"
#include "tb/td/td.h"

namespace ane::cli {

extern const char kTdHelp[];
extern const char kRunHwxHelp[];

// `ane td ...` (argv after "td").
int TdCommand(const std::vector<std::string>& argv, std::ostream& out);
// `ane run PROGRAM.hwx ...` (argv after "run").
int RunHwxCommand(const std::vector<std::string>& argv, std::ostream& out);
// True when `ane run` was given a program (an argument ending in .hwx) rather than an op file.
bool IsHwxRun(const std::vector<std::string>& argv);

// Why the RTL front end would refuse layer `l` ("" when it runs it): what it plans is what the
// C++ driver plans (core_plan.cc), on the 256-lane core, without kernel splitting.
std::string RtlTdRefusal(const td::TdLayer& l);

// Writes `bytes` to `path` whole (a temporary file renamed into place). Throws CliError.
void WriteBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes);

// The editable YAML form of a chain (decode --yaml) and its reader (encode). `source`: the file
// the chain came from, for the header comment.
std::string TdChainYaml(const std::vector<td::Td>& tds, uint32_t size, const std::string& source);
// Reads the YAML form; returns the chain buffer. Throws CliError naming the field.
std::vector<uint8_t> TdChainFromYaml(const std::string& text, const std::string& file);

}  // namespace ane::cli

#endif  // TB_CLI_HWX_CMD_H_
