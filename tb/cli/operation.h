// One operation of an op file (docs/cli.md "Operation files"): reading and checking it,
// evaluating it on an engine, and the fp64 reference its outputs are compared with.
// Only `matmul` exists so far: a [M, K] x b [K, N] -> y [M, N] through ane::oracle::Matmul.
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
#include "tb/oracle/formats.h"

namespace ane::cli {

enum class Engine { kOracle, kRtl, kBoth };
std::optional<Engine> ParseEngine(const std::string& text);
const char* EngineName(Engine e);
// Fails with a CliError naming --engine unless `engine` can evaluate `op` (only the oracle can
// so far: the MAC array RTL comes in a later issue).
void CheckEngine(Engine engine, const std::string& op);

// `generation: m1 | m5`.
oracle::Generation ReadGeneration(const Field& f);

struct TensorType {
  DType dtype = DType::kFp16;
  std::vector<int64_t> shape;
};

using TensorMap = std::map<std::string, Tensor>;

struct Operation {
  std::string file;  // the YAML file the operation was read from
  std::string op;    // "matmul"
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
// Checks the inputs of op->op and fills op->outputs. `where` maps each input to the field
// it came from, for error messages.
void InferOutputs(Operation* op, const std::map<std::string, Field>& where);

struct Evaluation {
  TensorMap outputs;
  int64_t saturated = 0;  // int32 outputs whose accumulation saturated (N-2.8)
};
Evaluation Evaluate(const Operation& op);

// The fp64 reference: each output is the fp64 dot product of the decoded inputs (after the
// N-1 input boundary; 0 x inf = 0 and inf - inf = +0 as in the engine), summed in index
// order and rounded once to the output type (fp16 by the oracle's exact RNE, int32 clamped).
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
