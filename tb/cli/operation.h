// SPDX-License-Identifier: Apache-2.0
// One operation of an op file (docs/cli.md "Operation files"): reading and checking it,
// evaluating it on an engine, and the fp64 reference its outputs are compared with. Each
// operation (`op:` conv2d, matmul, activation, elementwise, reduce, pool, softmax) is a family
// with its own file in tb/cli/ops/ (op_family.h; `ane help ops` lists them): engine oracle runs
// the golden model (tb/oracle), engine rtl the Verilated RTL of its block (conv2d: the 256-lane
// neural-engine core; matmul: the 256-lane MAC array; activation: the post-processor; the others:
// the planar engine's blocks), engine both runs both and compares bit for bit.
#ifndef TB_CLI_OPERATION_H_
#define TB_CLI_OPERATION_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tb/cli/npy.h"
#include "tb/cli/schema.h"
#include "tb/cli/tensors.h"
#include "tb/harness/core_run.h"
#include "tb/harness/mac_array_matmul.h"
#include "tb/harness/planar_engine_run.h"
#include "tb/harness/planar_run.h"
#include "tb/harness/postproc_run.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/formats.h"
#include "tb/oracle/planar.h"

namespace ane::cli {

enum class Engine { kOracle, kRtl, kBoth };
std::optional<Engine> ParseEngine(const std::string& text);
const char* EngineName(Engine e);
struct Operation;
// Fails with a CliError naming --engine unless `engine` can evaluate `op` (for conv2d on the
// RTL: unless the 256-lane core's planner accepts the layer).
void CheckEngine(Engine engine, const Operation& op);

// ANE_FAULT=ROW,K (a testing aid, docs/cli.md): the RTL engine is fed a[ROW, K] (matmul), or
// element K of channel ROW of x (conv2d, every image), with its lowest bit flipped, so that
// `--engine both` can be seen to fail. Unset: no fault.
// Throws CliError when the variable is malformed.
harness::DataFault FaultFromEnvironment();

// `generation: m1 | m5`.
oracle::Generation ReadGeneration(const Field& f);

struct TensorType {
  DType dtype = DType::kFp16;
  std::vector<int64_t> shape;
};

using TensorMap = std::map<std::string, Tensor>;

struct Operation {
  std::string file;                                  // the YAML file the operation was read from
  std::string op;                                    // the family's name (op_family.h): "conv2d", "matmul", ...
  oracle::ActFn function = oracle::ActFn::kSigmoid;  // activation
  harness::PeEwOp ew = harness::PeEwOp::kAdd;        // elementwise
  // elementwise `scale` / `bias` (fp16 codes): y = RNE16(RNE16(f x scale) + bias), the planar
  // engine's result converter; unset: y = f
  std::optional<uint16_t> ew_scale, ew_bias;
  oracle::ReduceOp reduce = oracle::ReduceOp::kSum;  // reduce
  oracle::ReduceAxis axis = oracle::ReduceAxis::kRows;
  oracle::PoolOp pool = oracle::PoolOp::kMax;  // pool
  oracle::ConvGeometry window;                 // pool: kernel, stride, padding
  // matmul post-processing (N-3, docs/cli.md): inputs `scale` / `bias` (fp16 [N], one per
  // output column), `activation` (relu or a table), `shift` (int8 x int8: requantize to int8).
  std::optional<oracle::PostConfig> post;
  // matmul and conv2d `precision: int4` (N-2.8): int8 inputs holding -8..7, run in the MAC's
  // int4 packed mode (matmul: the 256-lane array's int4 mapping; conv2d: the core, four images
  // a run, conv_rtl.int4)
  bool int4 = false;
  // conv2d (docs/cli.md): the layer (geometry, groups, Cout, MAC mode, post-processing, channel
  // parameters), how the core maps it (conv_rtl.mapping, .sparse), and the batch N of a
  // [N, C, H, W] input (0: x is [C, H, W]).
  oracle::ConvLayer conv;
  harness::RtlConvOptions conv_rtl;
  // conv2d `kernel_format: int8sym | palette` (N-6): the coefficients the MAC receives, w as
  // stored and decompressed ([Cout][Cg KH KW]); empty for fp16 and int8 kernels
  std::vector<std::vector<uint16_t>> conv_coefs;
  int64_t batch = 0;
  // convert (docs/cli.md): the planar engine's result converter, one for every channel or one
  // per channel (from `scale` / `bias` lists); before Infer, the fields as read
  std::vector<oracle::FcConfig> convert;
  std::vector<uint16_t> convert_scale, convert_bias;
  // slice: the axis of x's [C, H, W] (0, 1 or 2, right-aligned), begin and end
  int slice_axis = 2;
  int64_t slice_begin = 0, slice_end = 0;
  // transpose: `perm` as read (x's rank), then (Infer) over x's right-aligned [C, H, W]
  std::vector<int> transpose_perm;
  oracle::Generation generation = oracle::Generation::kM1;
  std::map<std::string, LoadedTensor> inputs;
  std::map<std::string, TensorType> outputs;   // what Evaluate() returns
  std::map<std::string, Field> output_fields;  // the `outputs:` block (may be empty)

  // "matmul fp16 [2, 3] x fp16 [3, 2] -> fp16 [2, 2], m1"
  std::string Describe() const;
};

// Reads op, generation, inputs and outputs from `fields` (a whole op file, or an inline
// regress case that has fields of its own), loads every input and checks dtypes and shapes.
// The caller calls fields.Finish().
Operation ReadOperation(Fields& fields, const TensorOptions& options);
// An operation built by a program rather than read from a file (the ONNX lowering, docs/onnx.md):
// `fields` is the map an op file would hold without its inputs and outputs (op, generation, the
// family's own fields: {op: conv2d, stride: [2, 2], activation: relu}), `inputs` the tensors by
// the family's input names with the text naming where each came from. Everything is checked as
// for an op file; a failure throws CliError "<file>: <where>: <what>".
struct BuiltInput {
  LoadedTensor tensor;
  std::string where;  // "node 'conv1' (Conv) input W"
};
Operation BuildOperation(const std::string& file, const std::string& where, const YAML::Node& fields,
                         std::map<std::string, BuiltInput> inputs);
// Checks the inputs of op->op and fills op->outputs. `where` maps each input to the field
// it came from, for error messages.
void InferOutputs(Operation* op, const std::map<std::string, Field>& where);

// What the RTL engine did.
struct RtlRun {
  std::optional<harness::RtlMatmulStats> matmul;     // matmul
  std::optional<harness::RtlPostStats> post;         // activation, matmul's post-processing
  std::optional<harness::PlanarEngineStats> engine;  // elementwise, reduce, pool, softmax: ane_planar
  std::optional<harness::RtlConvStats> conv;         // conv2d (summed over the batch)
};

// The elementwise functions (docs/cli.md): name, operation, inputs ("x"; "a", "b"; or "a", "b",
// "c").
struct EwFunction {
  const char* name;
  harness::PeEwOp op;
  int arity;
};
const std::vector<EwFunction>& EwFunctions();
// The first output element where the RTL and the oracle differ (engine both).
struct EngineMismatch {
  std::string element;  // "y[3, 1]"
  std::string rtl;      // ValueText of each side
  std::string oracle;
  int64_t count = 0;  // elements that differ
  int64_t total = 0;
  harness::StageReport stage;
};

struct Evaluation {
  TensorMap outputs;      // the oracle's (engine oracle) or the RTL's (engines rtl and both)
  int64_t saturated = 0;  // int32 outputs whose accumulation saturated (N-2.8)
  std::optional<RtlRun> rtl;
  std::optional<EngineMismatch> mismatch;  // engine both only
};
Evaluation Evaluate(const Operation& op, Engine engine = Engine::kOracle, const harness::DataFault& fault = {});
// `ane run`'s lines on the RTL's run ("rtl ..."), printed to stdout.
void PrintRtlSummary(const Operation& op, const RtlRun& rtl);
// `ane run`'s note on how the fp64 reference differs from the engine ("" when it does not).
std::string ReferenceNote(const Operation& op);
// `ane help ops`: every operation, what it computes and on which block, and its fields.
std::string OpsHelp();

// "1.5 (0x3e00)" for fp16, the integer for int types.
std::string ValueText(uint32_t bits, DType dtype);
// "y[1, 0]" for a multi-element output, "y" for a single element.
std::string ElementName(const std::string& output, int64_t index, const Tensor& t);

// The fp64 reference (each family's file says how it computes it). activation: RNE16 of the
// function in fp64 of each input (after N-1). matmul: each output is the fp64 dot product of
// the decoded inputs (after the N-1 input boundary; 0 x inf = 0 and inf - inf = +0 as in the
// engine), summed in index order and rounded once to the output type (fp16 by the oracle's
// exact RNE, int32 clamped).
TensorMap Reference(const Operation& op);

// Distance between two tensors of one type along OrderedValue (ulps for fp16).
struct Difference {
  int64_t max = 0;
  int64_t count = 0;   // elements that differ
  int64_t worst = -1;  // flat index of the first element with the largest difference
};
Difference Compare(const Tensor& got, const Tensor& want);

}  // namespace ane::cli

#endif  // TB_CLI_OPERATION_H_
