// SPDX-License-Identifier: Apache-2.0
// The planar engine (rtl/ane_planar.sv, 16 lanes) for `ane run --engine rtl|both`: operations on
// tensors laid out in a memory image and run as engine tasks (PlanarTask) on one Verilated
// ane_planar, with the memory answering after one cycle (full rate). Nothing here computes a
// result: the engine reads its sources and writes its results through its ports; these functions
// place the tensors, choose the tasks and read the results back.
//
// An operand of a task is a [C][H][W] tensor of fp16 codes; an operand whose C, H or W is 1 where
// the result's is larger is broadcast along that axis (plane stride 0, row stride 0, the BW bit).
#ifndef TB_HARNESS_PLANAR_ENGINE_RUN_H_
#define TB_HARNESS_PLANAR_ENGINE_RUN_H_

#include <cstdint>
#include <vector>

#include "tb/harness/planar_engine.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/elementwise.h"
#include "tb/oracle/planar.h"

namespace ane::harness {

inline constexpr int kEngineLanes = 16;

struct PlanarEngineStats {
  int64_t tasks = 0;
  uint64_t cycles = 0;  // the engine's own count (START to the last write), summed over tasks
  uint64_t beats = 0;   // result beats written
  uint64_t reads = 0;   // source beats read
};

// Runs `tasks` in order on a 16-lane ane_planar (reset first) over `mem`. A task the engine
// cannot run (CheckPlanarTask) throws std::invalid_argument naming why, before anything runs.
void RunPlanarEngine(const std::vector<PlanarTask>& tasks, std::vector<uint8_t>* mem, PlanarEngineStats* stats);

// y = fco(post(op(fca(a), b, c))) element by element (N-4.1 .. N-4.3); the result's shape is the
// operands' broadcast (each axis equal or 1), so any of a, b and c may broadcast. Any dimension up to 16383. A null
// converter is bypassed (FCCTL.A_BYPASS, O_BYPASS: even an identity converter's N-1 boundary turns -0 into +0).
// Reductions and poolings run with both converters bypassed.
oracle::Tensor3 EngineElementwise(PeEwOp op, PePostOp post, const oracle::FcConfig* fca, const oracle::FcConfig* fco,
                                  const oracle::Tensor3& a, const oracle::Tensor3* b, const oracle::Tensor3* c,
                                  PlanarEngineStats* stats);
// Whether a reduction along `axis` goes through the line buffer (columns, channels) or straight
// into the tree (rows, planes).
inline bool ReducesThroughLineBuffer(oracle::ReduceAxis axis) {
  return axis == oracle::ReduceAxis::kColumns || axis == oracle::ReduceAxis::kChannels;
}
// The reduction of x along `axis` (N-4.4): rows and planes through the tree, columns and channels
// through the line buffer; the result as oracle::ReduceTensor shapes it.
oracle::Tensor3 EngineReduce(oracle::ReduceOp op, oracle::ReduceAxis axis, const oracle::Tensor3& x,
                             PlanarEngineStats* stats);
// The pooling of x (N-4.5) with g's window, stride and padding: output strips of at most
// kPlanarPoolW columns, each one task with the strip's own left and right padding.
oracle::Tensor3 EnginePool(oracle::PoolOp op, const oracle::ConvGeometry& g, const oracle::Tensor3& x,
                           PlanarEngineStats* stats);

// Format conversion (N-4.1): y = fco(x) element by element through the result converter (scale,
// bias, unary, fp16 or int8 store); x fp16, or (x_int8) int8 values in bits [7:0] of its codes,
// which the reader converts exactly to fp16. One converter for the whole tensor (one task), or
// one per channel (one task per channel). An int8 result comes back sign-extended to 16 bits.
oracle::Tensor3 EngineConvert(const std::vector<oracle::FcConfig>& fco, bool x_int8, const oracle::Tensor3& x,
                              PlanarEngineStats* stats);
// x[begin:end] along `axis` (0 channels, 1 rows, 2 columns) as one task whose source starts at
// the slice; `gain`: through the result converter with the width-slice gain (N-4.6), else a copy.
oracle::Tensor3 EngineSlice(const oracle::Tensor3& x, int axis, int begin, int end, bool gain,
                            PlanarEngineStats* stats);

// x transposed (N-4.1's patch transpose, docs/planar.md): y axis k is x axis perm[k] of x's
// [C, H, W]. One task: when W stays last, a copy with permuted source strides (KIND 0); else a
// channels-last task (KIND 3, MODE.AXIS) whose channel axis is y's last, its rows and columns
// the other two, read with permuted strides. x fp16, or (x_int8) int8 values in bits [7:0] of
// its codes (the result converter stores them again); an int8 result comes back sign-extended.
oracle::Tensor3 EngineTranspose(const oracle::Tensor3& x, bool x_int8, const int perm[3], PlanarEngineStats* stats);

}  // namespace ane::harness

#endif  // TB_HARNESS_PLANAR_ENGINE_RUN_H_
