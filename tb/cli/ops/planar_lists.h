// SPDX-License-Identifier: Apache-2.0
// What the planar families (reduce, pool, softmax: tb/cli/ops/) share: the lists a reduction
// axis makes of a tensor, the pooling windows as tree patches, the fp64 reduction of the
// reference.
#ifndef TB_CLI_OPS_PLANAR_LISTS_H_
#define TB_CLI_OPS_PLANAR_LISTS_H_

#include <cstdint>
#include <vector>

#include "tb/cli/op_family.h"
#include "tb/oracle/planar.h"

namespace ane::cli::ops {

// `axis: rows | columns | planes | channels`.
oracle::ReduceAxis ReadAxis(const Field& f);

// The element indices (into x.codes) of the lists a tensor reduction reduces, in the order of
// oracle::ReduceTensor's outputs; each list in reduction order.
std::vector<std::vector<size_t>> ListIndices(oracle::ReduceAxis axis, const oracle::Tensor3& x);
// The values at those indices.
std::vector<std::vector<uint16_t>> ListValues(const std::vector<std::vector<size_t>>& idx, const oracle::Tensor3& x);
std::vector<std::vector<uint16_t>> ReduceLists(oracle::ReduceAxis axis, const oracle::Tensor3& x);

// The windows of a pooling, in output order: tree patches (element (ky, kx) at 8 ky + kx) and
// the number of real elements.
std::vector<harness::TreePatch> PoolPatches(const Operation& op, const oracle::Tensor3& x, std::vector<int>* counts);

// fp64: each list's sum in order (exact for these sizes; inf - inf = 0), or its exact max / min,
// divided by counts[k] when given; rounded once to fp16.
std::vector<uint32_t> ReduceReference(const std::vector<std::vector<uint16_t>>& lists, oracle::ReduceOp op,
                                      const std::vector<int>* counts);

}  // namespace ane::cli::ops

#endif  // TB_CLI_OPS_PLANAR_LISTS_H_
