// SPDX-License-Identifier: Apache-2.0
// Tensors and the NumPy .npy container (format versions 1.0 and 2.0) for the `ane` command.
// Only what the datapath uses: little-endian fp16 '<f2', int8 '|i1' and int32 '<i4', C order.
// Reading validates everything (magic, version, header dictionary, dtype, shape against the
// file size); writing goes through a temporary file and a rename, so a failure leaves no
// partial file.
#ifndef TB_CLI_NPY_H_
#define TB_CLI_NPY_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ane::cli {

enum class DType { kFp16, kInt8, kInt32 };
const char* DTypeName(DType t);  // "fp16", "int8", "int32"
const char* NpyDescr(DType t);   // "<f2", "|i1", "<i4"
int DTypeBytes(DType t);

// The most dimensions a tensor may have (the .npy reader and `shape:` fields): NumPy's own
// limit (NPY_MAXDIMS of NumPy 1.x). It also keeps the header EncodeNpy writes for an output of
// that shape under the 65535 bytes a version 1.0 file can hold.
inline constexpr size_t kMaxRank = 32;

// A dense row-major tensor. Each element is kept as its bit pattern: an fp16 code, an int8
// byte (0..255) or an int32 word.
struct Tensor {
  DType dtype = DType::kFp16;
  std::vector<int64_t> shape;
  std::vector<uint32_t> bits;
};
int64_t ElementCount(const std::vector<int64_t>& shape);
std::string ShapeString(const std::vector<int64_t>& shape);  // "[2, 3]"
// The multi-index of a row-major flat index: "[1, 0]".
std::string IndexString(int64_t flat, const std::vector<int64_t>& shape);

// A malformed, unreadable or unwritable .npy file; what() says what is wrong (no file name).
class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// With `rounded_from_fp32`, an fp32 array ('<f4') is accepted too and becomes fp16 through the
// ANE's input boundary (N-1: oracle::Fp32ToFp16); *rounded_from_fp32 says whether it was.
Tensor DecodeNpy(const std::string& bytes, bool* rounded_from_fp32 = nullptr);
std::string EncodeNpy(const Tensor& t);  // version 1.0, header padded to 64 bytes like NumPy

Tensor ReadNpy(const std::filesystem::path& path, bool* rounded_from_fp32 = nullptr);
// Writes every file or none: all go to temporary files next to their targets first and are
// renamed only when all were written.
void WriteNpyFiles(const std::vector<std::pair<std::filesystem::path, Tensor>>& files);

// An output directory named on the command line (--out-dir): an existing directory, or one that
// does not exist yet and can be made (every part of it that exists is a directory). Returns ""
// when it is usable, else why not.
std::string OutDirProblem(const std::filesystem::path& dir);
// WriteNpyFiles under --out-dir `dir`: makes it when it is missing, and removes what it made
// when the files cannot be written (nothing is left behind on an error).
void WriteNpyFilesIn(const std::optional<std::filesystem::path>& dir,
                     const std::vector<std::pair<std::filesystem::path, Tensor>>& files);

}  // namespace ane::cli

#endif  // TB_CLI_NPY_H_
