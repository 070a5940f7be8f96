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

#ifndef ANE_CLI_NO_ENGINES
bool Across(oracle::ReduceAxis axis) {
  return axis == oracle::ReduceAxis::kColumns || axis == oracle::ReduceAxis::kChannels;
}

std::vector<harness::TreePatch> ListPatches(const std::vector<std::vector<uint16_t>>& lists, oracle::ReduceOp op) {
  std::vector<harness::TreePatch> patches;
  for (const auto& list : lists) {
    for (size_t p = 0; p < list.size(); p += 64) {
      harness::TreePatch t;
      t.op = harness::TreeOp(op);
      t.first = p == 0;
      t.last = p + 64 >= list.size();
      for (size_t i = 0; i < 64 && p + i < list.size(); ++i) {
        t.v[i] = list[p + i];
        t.mask |= uint64_t(1) << i;
      }
      patches.push_back(t);
    }
  }
  return patches;
}

std::vector<uint16_t> RtlReduceLists(oracle::ReduceOp op, oracle::ReduceAxis axis, const oracle::Tensor3& values,
                                     const std::vector<std::vector<uint16_t>>& lists, harness::RtlPlanarStats* stats) {
  std::vector<uint16_t> out;
  if (Across(axis)) {
    harness::LineStats ls;
    out = harness::RtlReduceAcross(op, axis, values, {}, &ls);
    stats->vectors = ls.beats;
    stats->cycles = ls.cycles;
  } else {
    for (const auto& r : harness::RtlReduceTree(ListPatches(lists, op), stats)) out.push_back(r.fp16);
  }
  return out;
}

void PrintTreeRtl(const Operation&, const RtlRun& rtl) {
  fmt::print("rtl         planar reduction tree, 64 inputs: {} patches, {} cycles\n", rtl.planar->vectors,
             rtl.planar->cycles);
}
#endif

}  // namespace ane::cli::ops
