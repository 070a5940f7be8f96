// SPDX-License-Identifier: Apache-2.0
// Input tensors of an operation (docs/cli.md "Tensors"): an .npy file, an inline list of
// values, or a tensor generated from a seed and a distribution. Generation is bit-for-bit
// deterministic on every machine: a splitmix64 stream, integer arithmetic, and one exact RNE
// rounding to fp16 by the oracle (no host floating point).
#ifndef TB_CLI_TENSORS_H_
#define TB_CLI_TENSORS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tb/cli/npy.h"
#include "tb/cli/schema.h"

namespace ane::cli {

struct TensorOptions {
  // `--seed S`: a generated tensor whose file says `seed: s` uses seed s + S (mod 2^64).
  std::optional<uint64_t> seed_offset;
};

struct LoadedTensor {
  Tensor tensor;
  std::string origin;            // "sim/examples/a.npy", "values", "normal, seed 7"
  std::optional<uint64_t> seed;  // the effective seed of a generated tensor
};

// Reads an input tensor spec: a path string, {values: ...} or {generate: ...}.
LoadedTensor LoadTensor(const Field& spec, const TensorOptions& options);

// One value for a tensor of `dtype`, as bits. fp16: a decimal that is exactly representable
// (16, -0.5, 6.103515625e-05), inf / -inf / nan, or a hex code (0x7c00). int8 / int32: a
// decimal integer in range, or a hex code of the raw bits.
uint32_t ParseValue(const Field& f, DType dtype);
// A flat list of values; an item {repeat: VALUE or [VALUES], times: N} stands for the values
// repeated N times (and may nest).
std::vector<uint32_t> ParseValueList(const Field& f, DType dtype);
// The exact decimal text of a value: "0.0999755859375", "65504", "-inf". Parsing it with
// ParseValue gives the same bits back.
std::string FormatValue(uint32_t bits, DType dtype);
// fp16: the position along the ordered codes (oracle::Fp16OrderedIndex), so differences are
// in ulps; integers: the value.
int64_t OrderedValue(uint32_t bits, DType dtype);

// splitmix64 (Steele, Lea, Flood 2014): the generator behind every random distribution.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next();

 private:
  uint64_t state_;
};

}  // namespace ane::cli

#endif  // TB_CLI_TENSORS_H_
