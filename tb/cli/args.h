// SPDX-License-Identifier: Apache-2.0
// The command lines of `ane run PROGRAM.hwx`, `ane run MODEL.onnx` and `ane td` (docs/cli.md):
// "FILE [--flag VALUE | --flag=VALUE | -o VALUE]...", and the names of the tensor files they
// write. Bad usage throws CliError (one line, exit 2).
#ifndef TB_CLI_ARGS_H_
#define TB_CLI_ARGS_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ane::cli {

struct Parsed {
  std::vector<std::string> positional;
  std::multimap<std::string, std::string> flags;
  bool help = false;
};
// `valued` flags take a value, `boolean` ones none; `repeat` flags may be given several times.
Parsed Parse(const std::string& command, const std::vector<std::string>& argv, const std::set<std::string>& valued,
             const std::set<std::string>& boolean, const std::set<std::string>& repeat);
// The value of a flag given once, or nothing.
std::optional<std::string> Flag(const Parsed& p, const std::string& name);
// The --input NAME=FILE flags, in order; a malformed one or a name given twice throws CliError.
std::vector<std::pair<std::string, std::string>> InputFlags(const Parsed& p);
// "NAME.npy" for a tensor name, with path separators and NULs replaced by '_' (".." and "" get
// a leading '_'), so that an output never lands outside its folder.
std::string TensorFileName(const std::string& tensor);

}  // namespace ane::cli

#endif  // TB_CLI_ARGS_H_
