// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the operation reader, as `ane run OP.yaml` reads an op file (main.cc):
// LoadYamlFile, ReadOperation (every op, every field, every input tensor: .npy files, inline
// values, generated tensors with any distribution and parameters), Fields::Finish, and the
// description `ane regress` prints. CliError is the documented answer to bad input (one line,
// exit code 2); any other exception (exit code 3 in `ane`), a crash, a sanitizer report or a
// hang is a finding.
//
// The input is written to WORK/examples/op.yaml next to a copy of sim/examples, so that the
// .npy paths of the seed inputs resolve.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tb/cli/operation.h"
#include "tb/cli/schema.h"
#include "tb/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = (ane::fuzz::WorkDir() / "examples" / "op.yaml").string();
  ane::fuzz::WriteInput(path, data, size);
  try {
    ane::cli::Fields fields(ane::cli::LoadYamlFile(path));
    const ane::cli::Operation op = ane::cli::ReadOperation(fields, ane::cli::TensorOptions{});
    fields.Finish();
    op.Describe();
  } catch (const ane::cli::CliError& e) {
    ane::fuzz::Rejected(e.what());
  }
  return 0;
}
