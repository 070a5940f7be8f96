// Helpers shared by the two halves of operation.h: the reader (operation_read.cc: reading and
// checking an op file, no RTL) and the engines with the fp64 reference (operation.cc). The
// reader is its own file so that it links without the Verilated models (the fuzz targets of
// tb/fuzz link only the reader, the tensors, the .npy reader, the schema and the oracle).
// Not part of the command's interface.
#ifndef TB_CLI_OPERATION_INTERNAL_H_
#define TB_CLI_OPERATION_INTERNAL_H_

#include <cstdint>

#include "tb/cli/npy.h"
#include "tb/cli/operation.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/postproc.h"

namespace ane::cli::internal {

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

// A rank-1..3 fp16 tensor as [C][H][W].
oracle::Tensor3 As3(const Tensor& x);

}  // namespace ane::cli::internal

#endif  // TB_CLI_OPERATION_INTERNAL_H_
