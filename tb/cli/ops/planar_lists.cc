// SPDX-License-Identifier: Apache-2.0
#include "tb/cli/ops/planar_lists.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ane::cli::ops {

oracle::ReduceAxis ReadAxis(const Field& f) {
  oracle::ReduceAxis axis;
  if (!oracle::ParseReduceAxis(f.Scalar(), &axis)) {
    f.Fail(fmt::format("unknown axis '{}' (supported: rows, columns, planes, channels)", f.Scalar()));
  }
  return axis;
}

std::vector<std::vector<size_t>> ListIndices(oracle::ReduceAxis axis, const oracle::Tensor3& x) {
  std::vector<std::vector<size_t>> lists;
  auto at = [&](int c, int r, int q) { return (size_t(c) * size_t(x.h) + size_t(r)) * size_t(x.w) + size_t(q); };
  switch (axis) {
    case oracle::ReduceAxis::kRows:
      for (int c = 0; c < x.c; ++c) {
        for (int r = 0; r < x.h; ++r) {
          lists.emplace_back();
          for (int q = 0; q < x.w; ++q) lists.back().push_back(at(c, r, q));
        }
      }
      break;
    case oracle::ReduceAxis::kColumns:
      for (int c = 0; c < x.c; ++c) {
        for (int q = 0; q < x.w; ++q) {
          lists.emplace_back();
          for (int r = 0; r < x.h; ++r) lists.back().push_back(at(c, r, q));
        }
      }
      break;
    case oracle::ReduceAxis::kPlanes:
      for (int c = 0; c < x.c; ++c) {
        lists.emplace_back();
        for (int r = 0; r < x.h; ++r)
          for (int q = 0; q < x.w; ++q) lists.back().push_back(at(c, r, q));
      }
      break;
    case oracle::ReduceAxis::kChannels:
      for (int r = 0; r < x.h; ++r) {
        for (int q = 0; q < x.w; ++q) {
          lists.emplace_back();
          for (int c = 0; c < x.c; ++c) lists.back().push_back(at(c, r, q));
        }
      }
      break;
  }
  return lists;
}

std::vector<std::vector<uint16_t>> ListValues(const std::vector<std::vector<size_t>>& idx, const oracle::Tensor3& x) {
  std::vector<std::vector<uint16_t>> lists;
  for (const auto& list : idx) {
    lists.emplace_back();
    for (size_t i : list) lists.back().push_back(x.codes[i]);
  }
  return lists;
}

std::vector<std::vector<uint16_t>> ReduceLists(oracle::ReduceAxis axis, const oracle::Tensor3& x) {
  return ListValues(ListIndices(axis, x), x);
}

std::vector<harness::TreePatch> PoolPatches(const Operation& op, const oracle::Tensor3& x, std::vector<int>* counts) {
  const oracle::ConvGeometry& g = op.window;
  std::vector<harness::TreePatch> patches;
  for (int c = 0; c < x.c; ++c) {
    for (int oy = 0; oy < g.OutHeight(); ++oy) {
      for (int ox = 0; ox < g.OutWidth(); ++ox) {
        harness::TreePatch p;
        p.op = harness::TreeOp(oracle::PoolReduceOp(op.pool));
        p.first = p.last = true;
        int n = 0;
        for (int ky = 0; ky < g.kernel_h; ++ky) {
          for (int kx = 0; kx < g.kernel_w; ++kx) {
            const int iy = oy * g.stride_y - g.pad_top + ky, ix = ox * g.stride_x - g.pad_left + kx;
            if (iy < 0 || iy >= x.h || ix < 0 || ix >= x.w) continue;
            p.v[size_t(8 * ky + kx)] = x.at(c, iy, ix);
            p.mask |= uint64_t(1) << (8 * ky + kx);
            ++n;
          }
        }
        patches.push_back(p);
        counts->push_back(n);
      }
    }
  }
  return patches;
}

std::vector<uint32_t> ReduceReference(const std::vector<std::vector<uint16_t>>& lists, oracle::ReduceOp op,
                                      const std::vector<int>* counts) {
  const int which = op == oracle::ReduceOp::kSum ? 0 : op == oracle::ReduceOp::kMax ? 1 : 2;
  std::vector<uint32_t> out;
  for (size_t k = 0; k < lists.size(); ++k) {
    double acc = which == 0 ? 0.0 : which == 1 ? -INFINITY : INFINITY;
    for (uint16_t c : lists[k]) {
      const double x = ReferenceValue(c, DType::kFp16);
      if (which == 0) {
        acc = (std::isinf(acc) && std::isinf(x) && acc != x) ? 0.0 : acc + x;
      } else {
        acc = which == 1 ? std::max(acc, x) : std::min(acc, x);
      }
    }
    if (counts) acc /= (*counts)[k];
    out.push_back(ReferenceFp16(acc));
  }
  return out;
}

}  // namespace ane::cli::ops
