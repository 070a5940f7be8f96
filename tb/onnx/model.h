// SPDX-License-Identifier: Apache-2.0
// ONNX models in (docs/onnx.md): reading a model file with the ONNX library (Debian's
// libonnx-dev), its checker and its shape inference, and the tensors the model and its test
// data carry (TensorProto), as the values the lowering works with.
//
// A value is an fp16 tensor (kept as its codes, like every tensor of the `ane` command), or an
// int64 tensor (shapes, axes, indices: data the lowering reads, never numbers the engine
// computes on). An fp32 or fp64 tensor becomes fp16 at the ANE's input boundary (N-1:
// oracle::Fp32ToFp16, RNE, NaN to +inf, -0 to +0); the caller is told, so that it can print a
// note.
#ifndef TB_ONNX_MODEL_H_
#define TB_ONNX_MODEL_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace onnx {
class ModelProto;
class TensorProto;
}  // namespace onnx

namespace ane::onnx_in {

// Anything wrong with a model or a tensor file; what() is one line naming what is wrong.
class OnnxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ValueType { kFp16, kInt64 };
const char* ValueTypeName(ValueType t);  // "fp16", "int64"

struct Value {
  ValueType type = ValueType::kFp16;
  std::vector<int64_t> shape;
  std::vector<uint16_t> fp16;  // kFp16: the codes, row-major
  std::vector<int64_t> i64;    // kInt64
  int64_t Count() const;
};

// How a TensorProto became a value.
struct Converted {
  Value value;
  bool rounded = false;  // it was fp32 or fp64, rounded to fp16 (N-1)
  std::string from;      // its ONNX element type: "float", "float16", "int64", ...
};

// A TensorProto (an initializer, a Constant's value, a test's input_0.pb) as a value: float16,
// float and double become fp16; int64, int32, int8, uint8 and bool become int64. Other types
// (strings, complex, bfloat16, ...) and malformed data (a data size that does not match the
// shape, external data) throw OnnxError naming `what`.
Converted FromTensorProto(const onnx::TensorProto& t, const std::string& what);

// The exact values of a float, double or float16 TensorProto (size checked; OnnxError naming
// `what` otherwise): an fp32 model's own numbers before any rounding to fp16.
std::vector<double> FloatValues(const onnx::TensorProto& t, const std::string& what);

// Reads a TensorProto file (the .pb of ONNX's test data). Throws OnnxError.
onnx::TensorProto ReadTensorFile(const std::string& path);

// Reads the model, runs the ONNX checker (full check) and shape inference (strict), and returns
// it. Throws OnnxError: an unreadable or malformed file, a model the checker refuses, a shape
// inference error, a graph with no output.
onnx::ModelProto LoadModel(const std::string& path);
// The checks of LoadModel on a model already parsed (`name` names it in the messages): the
// checker, shape inference, an output. Throws OnnxError.
void CheckModel(onnx::ModelProto* model, const std::string& name);

}  // namespace ane::onnx_in

#endif  // TB_ONNX_MODEL_H_
