// SPDX-License-Identifier: Apache-2.0
// Helpers of the fuzz targets. WorkDir() is a private folder for the targets that read YAML
// files: the op file or suite under test is written there next to a copy of sim/examples, so
// that the paths of the seed inputs (`a.npy`, `file: ../examples/matmul_min.yaml`) resolve as
// they do in the source tree.
#ifndef TB_FUZZ_FUZZ_UTIL_H_
#define TB_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace ane::fuzz {

// WORK/examples (a copy of sim/examples), WORK/npy (a copy of the .npy seeds, corpus/npy: int32,
// empty and 3-D tensors for the op files to name) and WORK/regress (empty), in a new folder under
// $TMPDIR (or /tmp); made at the first call and removed when the process exits normally.
const std::filesystem::path& WorkDir();

// ANE_FUZZ_VERBOSE=1: prints the error each rejected input got (to see what a seed or a
// regression input does: `ANE_FUZZ_VERBOSE=1 fuzz_operation FILE`).
void Rejected(const char* what);

// Writes the fuzzer's input to `path`, replacing it.
void WriteInput(const std::filesystem::path& path, const uint8_t* data, size_t size);

}  // namespace ane::fuzz

#endif  // TB_FUZZ_FUZZ_UTIL_H_
