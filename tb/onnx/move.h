// SPDX-License-Identifier: Apache-2.0
// Data movement on values (docs/onnx.md): what the lowering of Reshape, Flatten, Squeeze,
// Unsqueeze, Transpose, Concat, Slice, Gather, Expand and Pad does, and what it uses to cut a
// batch into the [C, H, W] tensors the planar operations take. Each element is copied, never
// computed on, so fp16 and int64 values move alike. Shapes are checked by the lowering before;
// these functions assume them right.
#ifndef TB_ONNX_MOVE_H_
#define TB_ONNX_MOVE_H_

#include <cstdint>
#include <vector>

#include "tb/onnx/model.h"

namespace ane::onnx_in {

// numpy.transpose(v, perm).
Value Permute(const Value& v, const std::vector<int64_t>& perm);
// The same elements in another shape of the same count.
Value Reshaped(const Value& v, const std::vector<int64_t>& shape);
// numpy.concatenate(parts, axis).
Value Concat(const std::vector<const Value*>& parts, int64_t axis);
// v[starts[a] : ends[a] : steps[a]] on every axis (starts and ends already clamped to the
// axis, steps non-zero; a negative step walks down from starts[a] to ends[a] exclusive).
Value Sliced(const Value& v, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
             const std::vector<int64_t>& steps);
// numpy.take(v, indices, axis) with indices in range (negative ones already wrapped).
Value Gathered(const Value& v, int64_t axis, const Value& indices);
// numpy.broadcast_to(v, shape) (v right-aligned to shape, each axis equal or 1).
Value Expanded(const Value& v, const std::vector<int64_t>& shape);
// v with `before[a]` and `after[a]` elements of `fill` added on each side of axis a (fp16: the
// code fill16; int64: fill64).
Value Padded(const Value& v, const std::vector<int64_t>& before, const std::vector<int64_t>& after, uint16_t fill16,
             int64_t fill64);

// v with step[a] - 1 zeros (fp16 +0, int64 0) between neighbours along each axis a, then
// before[a] zeros in front and after[a] behind (a negative count crops instead): the input of
// a transposed convolution as the ordinary convolution that computes it.
Value Dilated(const Value& v, const std::vector<int64_t>& step, const std::vector<int64_t>& before,
              const std::vector<int64_t>& after);

// The broadcast shape of two shapes (numpy's rule), or an empty optional-like flag: `ok` false
// when they do not broadcast.
std::vector<int64_t> BroadcastShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b, bool* ok);

}  // namespace ane::onnx_in

#endif  // TB_ONNX_MOVE_H_
