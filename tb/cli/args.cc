// SPDX-License-Identifier: Apache-2.0
#include "tb/cli/args.h"

#include <fmt/format.h>

#include "tb/cli/schema.h"

namespace ane::cli {

Parsed Parse(const std::string& command, const std::vector<std::string>& argv, const std::set<std::string>& valued,
             const std::set<std::string>& boolean, const std::set<std::string>& repeat) {
  Parsed p;
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      p.help = true;
      continue;
    }
    if (a == "-o") a = "--out";
    if (a.rfind("--", 0) != 0) {
      p.positional.push_back(a);
      continue;
    }
    const size_t eq = a.find('=');
    const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (boolean.count(name)) {
      if (eq != std::string::npos) throw CliError(fmt::format("--{} takes no value", name));
      if (p.flags.count(name)) throw CliError(fmt::format("--{} given twice", name));
      p.flags.emplace(name, "");
      continue;
    }
    if (!valued.count(name))
      throw CliError(fmt::format("unknown flag '{}' for ane {} (see ane {} --help)", a, command, command));
    if (p.flags.count(name) && !repeat.count(name)) throw CliError(fmt::format("--{} given twice", name));
    std::string value;
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
    } else {
      if (i + 1 >= argv.size()) throw CliError(fmt::format("--{} needs a value", name));
      value = argv[++i];
    }
    p.flags.emplace(name, value);
  }
  return p;
}

std::optional<std::string> Flag(const Parsed& p, const std::string& name) {
  auto it = p.flags.find(name);
  if (it == p.flags.end()) return std::nullopt;
  return it->second;
}

std::vector<std::pair<std::string, std::string>> InputFlags(const Parsed& p) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  for (auto [it, end] = p.flags.equal_range("input"); it != end; ++it) {
    const std::string& spec = it->second;
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      throw CliError(fmt::format("--input {}: expected NAME=FILE.npy", spec));
    }
    const std::string name = spec.substr(0, eq);
    if (!seen.insert(name).second) throw CliError(fmt::format("--input {}: input '{}' given twice", spec, name));
    out.emplace_back(name, spec.substr(eq + 1));
  }
  return out;
}

std::string TensorFileName(const std::string& tensor) {
  std::string s;
  for (char c : tensor) s += (c == '/' || c == '\\' || c == '\0') ? '_' : c;
  if (s.empty() || s == "." || s == "..") s = "_" + s;
  return s + ".npy";
}

}  // namespace ane::cli
