// SPDX-License-Identifier: Apache-2.0
// `ane compile MODEL.onnx -o MODEL.hwx` (docs/onnx.md "Compiling to a program"): a lowered plan
// (lower.h) written as the ANE's own program, a chain of task descriptors in the .hwx container
// (tb/td: EncodeLayers, WriteHwx), which `ane run MODEL.hwx` runs through the TD front end.
//
// Every operation of the plan becomes one TD whose result is the operation's, bit for bit, or
// the model is refused with one line naming the node and why:
//   conv2d (fp16)      a convolution TD: kernels and per-channel biases in the weights section
//                      (BiasMode 1, A19), one post scale, ReLU; the fully connected layers the
//                      lowering makes 1x1 convolutions of are among them
//   elementwise        a planar TD (A18): add, sub (source 0 scaled by -1), mul, max, min, relu
//                      (max with +0), neg, with the operation's scale and bias; a constant
//                      operand is a tensor in the weights section (one region per value for a
//                      broadcast scalar)
// Data movement costs no TD when it is a view: a reshape that keeps the [C][H][W] layout, or a
// concat on the channel axis (each part written at its channel offset of the result, as
// concat.hwx does). Anything else (pooling, reductions, softmax, tables, transposes, slices) has
// no TD the known programs show, and is refused.
//
// Tensors: each graph input and output is a tensor of the container ([1, C, H, W] with rows of
// 64-byte multiples), every intermediate value has its place in one scratch buffer.
#ifndef TB_ONNX_COMPILE_H_
#define TB_ONNX_COMPILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tb/onnx/lower.h"

namespace ane::onnx_in {

struct Compiled {
  std::vector<uint8_t> file;       // the .hwx
  std::vector<std::string> tds;    // one line per TD: what it runs and for which node
  std::vector<std::string> views;  // the data movements that cost no TD
  std::vector<std::string> tensors;
  uint64_t kernel_bytes = 0, constant_bytes = 0, scratch_bytes = 0;
};

// Compiles the plan (lowered for the oracle: the program's TDs are checked against the RTL
// front end, not the operations against their blocks). Throws OnnxError "FILE: NODE: why" for
// a step no TD expresses, or for a TD the RTL front end would refuse.
Compiled Compile(const Plan& plan);

extern const char kCompileHelp[];
// `ane compile MODEL.onnx -o MODEL.hwx` (argv after "compile").
int CompileCommand(const std::vector<std::string>& argv, std::ostream& out);

}  // namespace ane::onnx_in

#endif  // TB_ONNX_COMPILE_H_
