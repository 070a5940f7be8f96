// SPDX-License-Identifier: Apache-2.0
// `ane td decode|encode` and `ane run PROGRAM.hwx` (docs/td.md): the front end for the ANE's
// own programs. Bad input throws CliError (one line, exit 2, nothing written).
#ifndef TB_CLI_HWX_CMD_H_
#define TB_CLI_HWX_CMD_H_

#include <ostream>
#include <string>
#include <vector>

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

// The editable YAML form of a chain (decode --yaml) and its reader (encode). `source`: the file
// the chain came from, for the header comment.
std::string TdChainYaml(const std::vector<td::Td>& tds, uint32_t size, const std::string& source);
// Reads the YAML form; returns the chain buffer. Throws CliError naming the field.
std::vector<uint8_t> TdChainFromYaml(const std::string& text, const std::string& file);

}  // namespace ane::cli

#endif  // TB_CLI_HWX_CMD_H_
