// SPDX-License-Identifier: Apache-2.0
// The lowering of an ONNX graph to the operations the model runs (docs/onnx.md): every node
// becomes operations of the `ane` command's families (conv2d, matmul, activation, elementwise,
// reduce, pool, softmax: tb/cli/ops/, each on the oracle or on its RTL block) or data movement
// (reshape, transpose, concat, slicing, padding: exact, no arithmetic), or is refused with one
// line naming the node and why. Everything is decided before anything runs: the shapes come
// from ONNX shape inference and the constants (initializers, Constant nodes, shape arithmetic)
// are folded, so a model that lowers runs to its end.
//
// Fusions the ANE's compiler makes are made here too, each reported as a note: a
// BatchNormalization after a Conv folds into the convolution's per-channel scale and bias (N-3,
// computed in fp64 from the model's fp32 parameters and rounded once to fp16), and a Relu after
// it becomes the post-processor's ReLU.
#ifndef TB_ONNX_LOWER_H_
#define TB_ONNX_LOWER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tb/cli/operation.h"
#include "tb/onnx/model.h"

namespace onnx {
class TensorProto;
}  // namespace onnx

namespace ane::onnx_in {

// One thing the plan runs: an operation of a family, or a data movement.
struct Step {
  std::string node;  // the ONNX node(s) it comes from: "Conv 'conv1' + Relu 'relu1'"
  bool is_op = false;
  // is_op: the operation (its inputs are stand-ins of the right shape until the run puts the
  // values in) and which value feeds each of its inputs.
  cli::Operation op;
  std::vector<std::pair<std::string, std::string>> bind;  // (family input, value)
  // !is_op: the movement, from the values `args`.
  std::function<Value(const std::vector<const Value*>&)> move;
  std::string move_text;  // "reshape [1, 8, 1, 1] -> [1, 8]"
  // What the movement is, for the compiler (tb/onnx/compile.h): a reshape keeps the row-major
  // order of the elements (a view), a concat joins its args along `axis`; other: anything else.
  enum class MoveKind { kOther, kReshape, kConcat };
  MoveKind move_kind = MoveKind::kOther;
  int64_t axis = 0;
  std::vector<std::string> args;
  std::string out;           // the value it makes
  std::string Text() const;  // one line: what runs
};

struct Plan {
  std::string file;
  int64_t opset = 0;
  std::vector<std::pair<std::string, std::vector<int64_t>>> inputs;  // the inputs to feed (fp16)
  std::vector<std::string> outputs;                                  // the graph's outputs
  std::map<std::string, Value> constants;
  std::vector<Step> steps;
  std::vector<std::string> notes;  // fusions, roundings, numerics a user should know of
  int64_t nodes = 0;               // nodes of the graph
};

// Lowers the model (read by LoadModel). `engine`: rtl and both also check that each operation's
// RTL block takes it (the 256-lane core's planner for each convolution, the planar engine's
// sizes). Throws OnnxError ("FILE: node 'NAME' (OpType): why") or cli::CliError.
// `frozen`: graph inputs given as constants of the model (the conformance tests give a Conv's
// weights as an input; the ANE's compiler takes them as constants).
Plan Lower(const onnx::ModelProto& model, const std::string& file, cli::Engine engine,
           const std::map<std::string, onnx::TensorProto>& frozen = {});

// What a run gives: the graph's outputs, and for engine both every operation whose RTL result
// differed from the oracle's (one line each).
struct RunResult {
  std::map<std::string, Value> outputs;
  std::vector<std::string> mismatches;
  std::vector<std::string> rtl_lines;  // per operation on the RTL: its block and cycles
};

// Runs the plan on the engine with the graph's inputs (fp16 values of the declared shapes; the
// caller checks them with CheckFeeds first). Engine both runs the RTL's results on.
RunResult Run(const Plan& plan, const std::map<std::string, Value>& feeds, cli::Engine engine);

// "" when `feeds` has exactly the plan's inputs, each fp16 of its declared shape; else why not.
std::string CheckFeeds(const Plan& plan, const std::map<std::string, Value>& feeds);

}  // namespace ane::onnx_in

#endif  // TB_ONNX_LOWER_H_
