// SPDX-License-Identifier: Apache-2.0
#include "tb/harness/planar_run.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "Vane_pe_ew16.h"
#include "Vane_pe_mean.h"
#include "Vane_pe_pool4.h"
#include "Vane_pe_post4.h"
#include "Vane_pe_reduce.h"
#include "Vane_pe_vreduce4.h"
#include "tb/harness/planar_driver.h"
#include "tb/harness/sim.h"

namespace ane::harness {

std::vector<uint16_t> RtlElementwise(PeEwOp op, const std::vector<uint16_t>& a, const std::vector<uint16_t>& b,
                                     const std::vector<uint16_t>& c, RtlPlanarStats* stats) {
  Sim<Vane_pe_ew16> sim("ane_pe_ew", "ane_elementwise");
  auto& d = sim.dut();
  d.in_valid_i = 0;
  d.out_ready_i = 1;
  sim.Reset();
  auto at = [](const std::vector<uint16_t>& v, size_t i) { return i < v.size() ? uint32_t(v[i]) : 0u; };
  const size_t vectors = (a.size() + kPlanarLanes - 1) / kPlanarLanes;
  std::vector<uint16_t> y;
  y.reserve(vectors * kPlanarLanes);
  size_t next = 0;
  const uint64_t start = sim.cycles();
  while (y.size() < vectors * kPlanarLanes) {
    d.in_valid_i = next < vectors;
    if (next < vectors) {
      d.in_op_i = uint8_t(op);
      for (int w = 0; w < kPlanarLanes / 2; ++w) {
        const size_t i = next * kPlanarLanes + size_t(2 * w);
        d.in_a_i[size_t(w)] = at(a, i) | at(a, i + 1) << 16;
        d.in_b_i[size_t(w)] = at(b, i) | at(b, i + 1) << 16;
        d.in_c_i[size_t(w)] = at(c, i) | at(c, i + 1) << 16;
      }
    }
    sim.Eval();
    if (d.out_valid_o) {
      for (int l = 0; l < kPlanarLanes; ++l) y.push_back(uint16_t(d.out_y_o[size_t(l / 2)] >> (16 * (l % 2))));
    }
    if (next < vectors && d.in_ready_o) ++next;
    sim.Tick();
  }
  y.resize(a.size());
  if (stats) {
    stats->vectors = int64_t(vectors);
    stats->cycles = sim.cycles() - start;
  }
  return y;
}

std::vector<TreeResult> RtlReduceTree(const std::vector<TreePatch>& patches, RtlPlanarStats* stats) {
  Sim<Vane_pe_reduce> sim("ane_pe_reduce", "ane_reduce");
  auto& d = sim.dut();
  d.in_valid_i = 0;
  d.out_ready_i = 1;
  sim.Reset();
  size_t expect = 0;
  for (const TreePatch& p : patches) expect += p.last;
  std::vector<TreeResult> out;
  size_t next = 0;
  const uint64_t start = sim.cycles();
  while (out.size() < expect) {
    d.in_valid_i = next < patches.size();
    if (next < patches.size()) {
      const TreePatch& p = patches[next];
      d.in_op_i = uint8_t(p.op);
      d.in_first_i = p.first;
      d.in_last_i = p.last;
      d.in_mask_i = p.mask;
      for (int w = 0; w < 32; ++w) {
        d.in_data_i[size_t(w)] = uint32_t(p.v[size_t(2 * w)]) | uint32_t(p.v[size_t(2 * w + 1)]) << 16;
      }
    }
    sim.Eval();
    if (d.out_valid_o) out.push_back({d.out_fp32_o, d.out_fp16_o});
    if (next < patches.size() && d.in_ready_o) ++next;
    sim.Tick();
  }
  if (stats) {
    stats->vectors = int64_t(patches.size());
    stats->cycles = sim.cycles() - start;
  }
  return out;
}

std::vector<uint16_t> RtlMean(const std::vector<uint32_t>& sums, const std::vector<int>& counts) {
  Sim<Vane_pe_mean> sim("ane_pe_mean", "ane_mean");
  auto& d = sim.dut();
  std::vector<uint16_t> y;
  for (size_t i = 0; i < sums.size(); ++i) {
    d.sum_i = sums[i];
    d.n_i = uint8_t(counts[i]);
    sim.Eval();
    y.push_back(d.y_o);
  }
  return y;
}

std::vector<TreeResult> RtlLineReduce(const std::vector<LineJob>& jobs, const LineRunOptions& opt, LineStats* stats) {
  Sim<Vane_pe_vreduce4> sim("ane_pe_vreduce", "ane_vreduce", opt.x_seed);
  ResetIdle(sim);
  return StreamLineJobs(sim, jobs, opt, stats);
}

std::vector<uint16_t> RtlReduceAcross(oracle::ReduceOp op, oracle::ReduceAxis axis, const oracle::Tensor3& x,
                                      const LineRunOptions& opt, LineStats* stats) {
  if (axis != oracle::ReduceAxis::kColumns && axis != oracle::ReduceAxis::kChannels) {
    throw std::invalid_argument("RtlReduceAcross: only columns and channels go through the line buffer");
  }
  const int code = op == oracle::ReduceOp::kSum ? 0 : op == oracle::ReduceOp::kMax ? 1 : 2;
  std::vector<LineJob> jobs;
  if (axis == oracle::ReduceAxis::kColumns) {
    for (int c = 0; c < x.c; ++c) {
      for (int q0 = 0; q0 < x.w; q0 += kLineMaxW) {
        LineJob j;
        j.op = code;
        j.n = x.h;
        j.len = std::min(kLineMaxW, x.w - q0);
        for (int r = 0; r < x.h; ++r)
          for (int q = 0; q < j.len; ++q) j.lines.push_back(x.at(c, r, q0 + q));
        jobs.push_back(std::move(j));
      }
    }
  } else {
    const int positions = x.h * x.w;
    for (int p0 = 0; p0 < positions; p0 += kLineMaxW) {
      LineJob j;
      j.op = code;
      j.n = x.c;
      j.len = std::min(kLineMaxW, positions - p0);
      for (int c = 0; c < x.c; ++c)
        for (int p = 0; p < j.len; ++p) j.lines.push_back(x.codes[size_t(c) * size_t(positions) + size_t(p0 + p)]);
      jobs.push_back(std::move(j));
    }
  }
  std::vector<uint16_t> y;
  for (const TreeResult& r : RtlLineReduce(jobs, opt, stats)) y.push_back(r.fp16);
  return y;
}

PoolGeometry ToPoolGeometry(oracle::PoolOp op, const oracle::ConvGeometry& g) {
  PoolGeometry p;
  p.op = TreeOp(oracle::PoolReduceOp(op));
  p.channels = g.channels;
  p.height = g.height;
  p.width = g.width;
  p.out_h = g.OutHeight();
  p.out_w = g.OutWidth();
  p.kernel_h = g.kernel_h;
  p.kernel_w = g.kernel_w;
  p.stride_y = g.stride_y;
  p.stride_x = g.stride_x;
  p.pad_top = g.pad_top;
  p.pad_left = g.pad_left;
  return p;
}

std::vector<uint16_t> RtlPool(const PoolGeometry& g, const std::vector<uint16_t>& x, const PoolRunOptions& opt,
                              PoolStats* stats) {
  if (size_t(g.channels) * size_t(g.height) * size_t(g.width) != x.size()) {
    throw std::invalid_argument("RtlPool: input size does not match the geometry");
  }
  Sim<Vane_pe_pool4> sim("ane_pe_pool", "ane_pool", opt.x_seed);
  ResetIdle(sim);
  return StreamPool(sim, g, x, opt, stats);
}

std::vector<uint16_t> RtlPost(PePostOp op, const std::vector<uint16_t>& x, const PostRunOptions& opt,
                              RtlPlanarStats* stats) {
  Sim<Vane_pe_post4> sim("ane_pe_post", "ane_post", opt.x_seed);
  ResetIdle(sim);
  return StreamPost(sim, op, x, opt, stats);
}

}  // namespace ane::harness
