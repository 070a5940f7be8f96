// SPDX-License-Identifier: Apache-2.0
// The operation families of the `ane` command (docs/cli.md "Operation files", docs/cli.md
// "Adding an operation"): each family (conv2d, matmul, ...) lives in its own file under
// tb/cli/ops/ with everything about it: its own fields, its inputs, the checks and shape
// inference, the description, the evaluation on each engine and the fp64 reference. The list
// of families is tb/cli/ops/families.def, one line each; operation_read.cc and operation.cc
// only dispatch through it.
//
// The fuzz build (tb/fuzz) compiles the family files with ANE_CLI_NO_ENGINES: the readers and
// the fp64 references without the engines, so that nothing of the Verilated models is linked;
// `evaluate` and `print_rtl` are then null.
//
// Not part of the command's interface: operation.h is.
#ifndef TB_CLI_OP_FAMILY_H_
#define TB_CLI_OP_FAMILY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tb/cli/npy.h"
#include "tb/cli/operation.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/postproc.h"

#ifdef ANE_CLI_NO_ENGINES
#define ANE_CLI_ENGINE(fn) nullptr
#else
#define ANE_CLI_ENGINE(fn) fn
#endif

namespace ane::cli {

struct OpFamily {
  const char* name;         // the `op:` value
  const char* summary;      // one line for `ane help ops`: what it computes and on which RTL block
  std::string (*fields)();  // its own fields, for `ane help ops`: "function: add (a, b), ..."
  // Reads the family's own fields before the inputs (function, axis, window, ...). May be null.
  void (*read_fields)(Fields& fields, Operation* op);
  // The inputs it needs, given what read_fields read, and the ones it may have.
  std::vector<const char*> (*inputs)(const Operation& op);
  std::vector<const char*> optional_inputs;
  // Checks the inputs (dtype, shape) and fills op->outputs; `where` names each input's field.
  void (*infer)(Operation* op, const std::map<std::string, Field>& where);
  // The fields that depend on the outputs (post-processing), asked for before the inputs and
  // read by read_after after inference; `late` holds those present. read_after may be null.
  std::vector<const char*> late_fields;
  void (*read_after)(Operation* op, const std::map<std::string, Field>& where,
                     const std::map<std::string, Field>& late);
  // The part of Describe() after the op name, before the inputs: " sigmoid", " 3x3 stride ...".
  std::string (*describe)(const Operation& op);
  bool inputs_by_name;  // Describe() names the inputs ("x fp16 [..], w fp16 [..]")
  // "" when --engine rtl/both can run op, else why not. Null: there is no RTL engine (and in
  // the fuzz build, where CheckEngine is a stand-in).
  std::string (*rtl_check)(const Operation& op);
  // Evaluation on an engine (Evaluate() in operation.h).
  Evaluation (*evaluate)(const Operation& op, Engine engine, const harness::DataFault& fault);
  // The RTL's summary lines of `ane run` ("rtl ..."), after the outputs. May be null.
  void (*print_rtl)(const Operation& op, const RtlRun& rtl);
  // `ane run`'s note on how the fp64 reference differs from the engine, "" for none. May be null.
  std::string (*reference_note)(const Operation& op);
  TensorMap (*reference)(const Operation& op);
};

// Every family, in the order of families.def (which is the order of `ane help ops`).
const std::vector<const OpFamily*>& OpFamilies();
// The family named `name`, or null.
const OpFamily* FindOpFamily(const std::string& name);
// op.op's family; throws std::logic_error when there is none (a caller built a bad Operation).
const OpFamily& FamilyOf(const Operation& op);

namespace ops {

// The families (one definition in each tb/cli/ops/<name>.cc).
#define ANE_OP(family) extern const OpFamily family;
#include "tb/cli/ops/families.def"
#undef ANE_OP

// Helpers shared by the families (ops/common.cc).

// A matmul operand as a matrix: a 1-D a is a row [1, K], a 1-D b a column [K, 1]
// (numpy.matmul's rule; the output drops that dimension again).
struct MatrixShape {
  int64_t rows = 0;
  int64_t cols = 0;
};
MatrixShape AsMatrix(const Tensor& t, bool is_b);

// The post-processor parameters of output channel (matmul: column) `col`: the scale and bias
// inputs' values, or scale 1 and bias 0.
oracle::ChannelParams Channel(const Operation& op, int64_t col);

// A rank-1..3 tensor as [C][H][W].
oracle::Tensor3 As3(const Tensor& x);

// Fails at `where` unless t is fp16: "wrong dtype: ...; <op> inputs are fp16 ('<f2')".
void RequireFp16(const Operation& op, const Tensor& t, const Field& where);

// Fails at `where` unless x fits one planar task as a whole: a non-empty [W], [H, W] or
// [C, H, W] ("shape ...: <op> takes ..."), each axis at most 16383. Convert, slice, transpose.
void RequirePlanarTensor(const Tensor& x, const Field& where, const char* op);

// The scale and bias inputs (fp16 [n], one per `per`) and the activation (relu or a table) of
// matmul and conv2d post-processing: checks them and sets scale_en, bias_en, act and table.
void ReadScaleBiasActivation(const Operation& op, const std::map<std::string, Field>& where,
                             const std::optional<Field>& activation, int64_t n, const char* per,
                             oracle::PostConfig* cfg);

// `rounding: nearest | stochastic` with `rounding_seed` (1 .. 2^32 - 1, default 1) and
// `rounding_bits` (1 .. 13, default 13) of matmul and conv2d post-processing (N-3.4): sets sr,
// sr_seed and sr_width. `what` names the operation ("this matmul is int8 x int8") for the refusal
// of an integer accumulator (cfg->int_acc, set before).
void ReadRounding(const std::optional<Field>& rounding, const std::optional<Field>& seed,
                  const std::optional<Field>& bits, const std::string& what, oracle::PostConfig* cfg);
// `precision: int4` of matmul and conv2d (N-2.8): fails at `where` unless t is int8 with every
// value in -8..7 (nothing is wrapped to a nibble). `pair` names the two inputs ("a and b").
void CheckInt4Values(const Tensor& t, const char* name, const char* pair, const Field& where);
// The note `ane run` prints for a stochastically rounded matmul or conv2d (the reference rounds to
// nearest).
extern const char kStochasticNote[];

// The value of one input element for the fp64 reference (after the N-1 input boundary).
double ReferenceValue(uint32_t bits, DType dtype);
// An fp64 reference value rounded once to fp16; NaN (an indeterminate form) gives +0 (N-4.2).
uint32_t ReferenceFp16(double v);
// The fp64 post-processing of one reduction `sum` (N-3 in exact arithmetic, one rounding).
uint32_t PostReference(const oracle::PostConfig& p, const oracle::ChannelParams& ch, double sum);

// The `inputs` of the families with the one input x.
std::vector<const char*> InputX(const Operation& op);
// The `rtl_check` of the families whose RTL takes every operation they read.
std::string RtlTakesAll(const Operation& op);
// The `rtl_check` of the planar families whose input x runs as one [C, H, W] tensor of the planar
// engine (reduce, pool, softmax): each of its axes at most 16383.
std::string RtlCheckPlanarShape(const Operation& op);

// `padding:` into g: [rows, columns] or [top, bottom, left, right], each 0..hi, or (when
// scalar_ok) one integer for all four sides.
void ReadPadding(const Field& f, int64_t hi, bool scalar_ok, oracle::ConvGeometry* g);

// "y" as a one-output TensorMap.
inline TensorMap Y(Tensor y) { return {{"y", std::move(y)}}; }

// The first line of `ane run`'s note for matmul and conv2d (the reference's single rounding).
extern const char kDotProductNote[];

#ifndef ANE_CLI_NO_ENGINES
// Compares every element of the RTL's y with the oracle's want: the first difference, with the
// stage locate(i) names, becomes e->mismatch, and every difference counts.
template <class Locate>
void CompareWithOracle(Evaluation* e, const Tensor& y, const Tensor& want, Locate locate) {
  for (size_t i = 0; i < y.bits.size(); ++i) {
    if (y.bits[i] == want.bits[i]) continue;
    if (!e->mismatch) {
      EngineMismatch m;
      m.element = ElementName("y", int64_t(i), y);
      m.rtl = ValueText(y.bits[i], y.dtype);
      m.oracle = ValueText(want.bits[i], want.dtype);
      m.total = int64_t(y.bits.size());
      m.stage = locate(i);
      e->mismatch = m;
    }
    ++e->mismatch->count;
  }
}

// The evaluation of engine oracle: y = want.
Evaluation OracleOnly(Tensor want);

// The evaluation of engines rtl and both: the RTL's y and what it did; for engine both, y
// compared with the oracle's want (CompareWithOracle, locate names the stage).
template <class Locate>
Evaluation RtlEvaluation(Engine engine, RtlRun rtl, Tensor y, const Tensor& want, Locate locate) {
  Evaluation e;
  e.rtl = std::move(rtl);
  if (engine == Engine::kBoth) CompareWithOracle(&e, y, want, locate);
  e.outputs.emplace("y", std::move(y));
  return e;
}
// An fp16 tensor of the RTL's codes.
Tensor Fp16Tensor(const std::vector<int64_t>& shape, const std::vector<uint16_t>& codes);

// `ane run`'s line for a post-processor run, and the speed line of the MAC array and the core.
void PrintPostRtl(const harness::RtlPostStats& s);
// `ane run`'s line for a run on the planar engine (ane_planar).
void PrintEngineRtl(const harness::PlanarEngineStats& s);
void PrintRtlSpeed(uint64_t cycles, uint64_t macs, double seconds);
#endif

}  // namespace ops
}  // namespace ane::cli

#endif  // TB_CLI_OP_FAMILY_H_
