// SPDX-License-Identifier: Apache-2.0
// The fixture of the end-to-end tests of build/ane (cli_test.cc, hwx_cli_test.cc): a fresh
// temporary folder per test, a runner that captures exit code, stdout and stderr, and the
// contract of a bad input.
#ifndef TB_TESTS_CLI_FIXTURE_H_
#define TB_TESTS_CLI_FIXTURE_H_

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tb/cli/npy.h"

namespace ane::cli::test {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The fp16 code of an exactly representable value, through the host's _Float16 (independent
// of the oracle's conversions).
inline uint32_t HostFp16(double v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t b = 0;
  std::memcpy(&b, &h, sizeof b);
  return b;
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = MakeTempDir("ane_cli_work_");
    logs_ = MakeTempDir("ane_cli_logs_");
  }
  void TearDown() override {
    fs::remove_all(work_);
    fs::remove_all(logs_);
  }

  static fs::path MakeTempDir(const std::string& prefix) {
    std::string tmpl = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    return tmpl;
  }

  // Runs `ane args...` with the working folder `cwd` (default: the test's folder) and the
  // environment assignments `env` ("NAME=value ...").
  Result Ane(const std::vector<std::string>& args, const fs::path& cwd = {}, const std::string& env = "") const {
    std::string cmd = "cd " + Quote((cwd.empty() ? work_ : cwd).string()) + " && " + env + " " + Quote(ANE_BINARY);
    for (const std::string& a : args) cmd += " " + Quote(a);
    cmd += " > " + Quote((logs_ / "out").string()) + " 2> " + Quote((logs_ / "err").string());
    const int status = std::system(cmd.c_str());
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = ReadText(logs_ / "out");
    r.err = ReadText(logs_ / "err");
    return r;
  }

  void Write(const std::string& name, const std::string& text) const {
    fs::create_directories((work_ / name).parent_path());
    std::ofstream(work_ / name, std::ios::binary) << text;
  }
  void WriteNpy(const std::string& name, const Tensor& t) const { Write(name, EncodeNpy(t)); }

  // a = [[1, 2], [3, 4]], b = [[5, 6], [7, 8]] in fp16: y = [[19, 22], [43, 50]].
  void WriteFp16Inputs() const {
    WriteNpy("a.npy", Tensor{DType::kFp16, {2, 2}, {0x3C00, 0x4000, 0x4200, 0x4400}});
    WriteNpy("b.npy", Tensor{DType::kFp16, {2, 2}, {0x4500, 0x4600, 0x4700, 0x4800}});
  }

  // Asserts the contract of a bad input: exit code 2, nothing on stdout, exactly one line on
  // stderr of the form "ane: error: <file>: <field>: ..." and no output file.
  void ExpectInputError(const Result& r, const std::string& file, const std::string& field,
                        const std::string& what) const {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    const std::vector<std::string> lines = Lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_EQ(lines[0].rfind("ane: error: " + file + ": " + field + ": ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(what), std::string::npos) << lines[0];
    EXPECT_FALSE(fs::exists(work_ / "y.npy"));
  }

  static constexpr char kMinimal[] =
      "{op: matmul, generation: m1, inputs: {a: a.npy, b: b.npy}, outputs: {y: y.npy}}\n";

  fs::path work_;
  fs::path logs_;
};

}  // namespace ane::cli::test

#endif  // TB_TESTS_CLI_FIXTURE_H_
