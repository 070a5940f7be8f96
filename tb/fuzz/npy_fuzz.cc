// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the .npy reader (DecodeNpy, what ReadNpy runs on a file's bytes for every
// .npy input and golden file of `ane`). NpyError is the reader's documented answer to a bad file
// (the callers turn it into "ane: error: <file>: <field>: <path>: <what>", exit code 2); any
// other exception, a crash, a sanitizer report or a hang is a finding.
//
// A file that reads also has to survive the round trip the command makes with its outputs:
// EncodeNpy writes it back and DecodeNpy gives the same tensor.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tb/cli/npy.h"
#include "tb/fuzz/fuzz_util.h"

namespace {

[[noreturn]] void Finding(const char* what) {
  std::fprintf(stderr, "fuzz_npy: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ane::cli::Tensor;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  Tensor t;
  try {
    t = ane::cli::DecodeNpy(bytes);
  } catch (const ane::cli::NpyError& e) {
    ane::fuzz::Rejected(e.what());
    return 0;
  }
  if (int64_t(t.bits.size()) != ane::cli::ElementCount(t.shape)) Finding("element count != shape");
  Tensor back;
  try {
    back = ane::cli::DecodeNpy(ane::cli::EncodeNpy(t));
  } catch (const ane::cli::NpyError& e) {
    std::fprintf(stderr, "fuzz_npy: %s\n", e.what());
    Finding("the file EncodeNpy wrote does not read back");
  }
  if (back.dtype != t.dtype || back.shape != t.shape || back.bits != t.bits) {
    Finding("EncodeNpy + DecodeNpy changed the tensor");
  }
  return 0;
}
