#include "tb/harness/planar_run.h"

#include "Vane_pe_ew16.h"
#include "Vane_pe_mean.h"
#include "Vane_pe_pool4.h"
#include "Vane_pe_post4.h"
#include "Vane_pe_reduce.h"
#include "Vane_pe_vreduce4.h"
#include "tb/harness/sim.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ane::harness {

std::vector<uint16_t> RtlElementwise(PeEwOp op, const std::vector<uint16_t>& a,
                                     const std::vector<uint16_t>& b,
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




namespace {

// splitmix64, for the gaps and stalls.
struct GapRng {
  uint64_t state;
  bool Percent(int pct) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return int((z ^ (z >> 31)) % 100) < pct;
  }
};

// A streaming unit with a configuration port, reset with nothing offered.
template <class Model>
void ResetIdle(Sim<Model>& sim) {
  auto& d = sim.dut();
  d.cfg_valid_i = 0;
  d.in_valid_i = 0;
  d.out_ready_i = 1;
  sim.Reset();
}

// One configuration of ane_pe_pool: a channel group, a strip of output columns.
struct PoolPass {
  int c0 = 0;            // first channel
  int ox0 = 0, ow = 0;   // output columns [ox0, ox0 + ow)
  int xa = 0, w = 0;     // input columns [xa, xa + w)
  int pad_left = 0;
};

}  // namespace

std::vector<TreeResult> RtlLineReduce(const std::vector<LineJob>& jobs, const LineRunOptions& opt,
                                      LineStats* stats) {
  int64_t expect = 0, patches = 0;
  for (const LineJob& j : jobs) {
    if (j.n < 1 || j.n > 65535 || j.len < 1 || j.len > kLineMaxW || j.op < 0 || j.op > 2 ||
        j.lines.size() != size_t(j.n) * size_t(j.len)) {
      throw std::invalid_argument("RtlLineReduce: a job's shape is out of range");
    }
    expect += j.len;
    patches += int64_t((j.n + 63) / 64) * j.len;
  }
  Sim<Vane_pe_vreduce4> sim("ane_pe_vreduce", "ane_vreduce", opt.x_seed);
  auto& d = sim.dut();
  ResetIdle(sim);
  GapRng rng{opt.seed};
  std::vector<TreeResult> out;
  size_t cfg_next = 0, in_job = 0;
  int in_line = 0, in_beat = 0;
  int64_t beats = 0;
  bool offered = false;
  const uint64_t start = sim.cycles();
  int64_t total_beats = 0;
  for (const LineJob& j : jobs) total_beats += int64_t(j.n) * ((j.len + kLineLanes - 1) / kLineLanes);
  sim.set_timeout(start + 1000 + 20 * uint64_t(total_beats + expect));
  while (int64_t(out.size()) < expect) {
    d.cfg_valid_i = cfg_next < jobs.size() && !rng.Percent(opt.cfg_gap_pct);
    if (d.cfg_valid_i) {
      d.cfg_op_i = uint8_t(jobs[cfg_next].op);
      d.cfg_n_i = uint16_t(jobs[cfg_next].n);
      d.cfg_len_i = uint8_t(jobs[cfg_next].len);
    }
    if (!offered) offered = in_job < jobs.size() && !rng.Percent(opt.gap_pct);
    d.in_valid_i = offered;
    if (offered) {
      const LineJob& j = jobs[in_job];
      uint64_t beat = 0;
      for (int l = 0; l < kLineLanes; ++l) {
        const int e = in_beat * kLineLanes + l;
        // Lanes past the line's end carry a pattern the unit must ignore.
        const uint16_t v = e < j.len ? j.lines[size_t(in_line) * size_t(j.len) + size_t(e)] : uint16_t(0x7bff);
        beat |= uint64_t(v) << (16 * l);
      }
      d.in_data_i = beat;
    }
    d.out_ready_i = !rng.Percent(opt.stall_pct);
    sim.Eval();
    if (d.cfg_valid_i && d.cfg_ready_o) ++cfg_next;
    if (offered && d.in_ready_o) {
      offered = false;
      ++beats;
      const LineJob& j = jobs[in_job];
      if (++in_beat * kLineLanes >= j.len) {
        in_beat = 0;
        if (++in_line == j.n) in_line = 0, ++in_job;
      }
    }
    if (d.out_valid_o && d.out_ready_i) out.push_back({d.out_fp32_o, d.out_fp16_o});
    sim.Tick();
  }
  if (stats) {
    stats->beats = beats;
    stats->patches = patches;
    stats->results = int64_t(out.size());
    stats->jobs = int64_t(jobs.size());
    stats->cycles = sim.cycles() - start;
  }
  return out;
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
  p.op = op == oracle::PoolOp::kMean ? 0 : op == oracle::PoolOp::kMax ? 1 : 2;
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

std::vector<uint16_t> RtlPool(const PoolGeometry& g, const std::vector<uint16_t>& x,
                              const PoolRunOptions& opt, PoolStats* stats) {
  if (size_t(g.channels) * size_t(g.height) * size_t(g.width) != x.size()) {
    throw std::invalid_argument("RtlPool: input size does not match the geometry");
  }
  std::vector<PoolPass> passes;
  for (int c0 = 0; c0 < g.channels; c0 += kPoolLanes) {
    for (int ox0 = 0; ox0 < g.out_w; ox0 += kPoolMaxOutW) {
      PoolPass p;
      p.c0 = c0;
      p.ox0 = ox0;
      p.ow = std::min(kPoolMaxOutW, g.out_w - ox0);
      const int xs = ox0 * g.stride_x - g.pad_left;  // the strip's first window column
      const int xe = std::min(g.width - 1, (ox0 + p.ow - 1) * g.stride_x - g.pad_left + g.kernel_w - 1);
      p.xa = std::max(xs, 0);
      p.pad_left = p.xa - xs;
      p.w = xe - p.xa + 1;
      passes.push_back(p);
    }
  }
  Sim<Vane_pe_pool4> sim("ane_pe_pool", "ane_pool", opt.x_seed);
  auto& d = sim.dut();
  ResetIdle(sim);
  GapRng rng{opt.seed};
  std::vector<uint16_t> y(size_t(g.channels) * size_t(g.out_h) * size_t(g.out_w), 0);
  // The input beats and output positions in stream order.
  size_t cfg_next = 0, in_pass = 0, out_pass = 0;
  int in_y = 0, in_x = 0, out_y = 0, out_x = 0;
  int64_t beats = 0, results = 0, expect = 0;
  bool offered = false;  // a beat offered stays offered until taken
  for (const PoolPass& p : passes) expect += int64_t(g.out_h) * p.ow;
  const uint64_t start = sim.cycles();
  sim.set_timeout(start + 1000 + 40 * uint64_t(expect + int64_t(x.size())));
  while (results < expect) {
    d.cfg_valid_i = cfg_next < passes.size() && !rng.Percent(opt.cfg_gap_pct);
    if (d.cfg_valid_i) {
      const PoolPass& p = passes[cfg_next];
      d.cfg_op_i = uint8_t(g.op);
      d.cfg_h_i = uint16_t(g.height);
      d.cfg_w_i = uint16_t(p.w);
      d.cfg_oh_i = uint16_t(g.out_h);
      d.cfg_ow_i = uint16_t(p.ow);
      d.cfg_kh_i = uint8_t(g.kernel_h);
      d.cfg_kw_i = uint8_t(g.kernel_w);
      d.cfg_sy_i = uint8_t(g.stride_y);
      d.cfg_sx_i = uint8_t(g.stride_x);
      d.cfg_pt_i = uint8_t(g.pad_top);
      d.cfg_pl_i = uint8_t(p.pad_left);
    }
    // The gap decision is made between beats.
    if (!offered) offered = in_pass < passes.size() && !rng.Percent(opt.gap_pct);
    d.in_valid_i = offered;
    if (d.in_valid_i) {
      const PoolPass& p = passes[in_pass];
      uint64_t beat = 0;
      for (int l = 0; l < kPoolLanes; ++l) {
        const int c = p.c0 + l;
        if (c < g.channels) {
          beat |= uint64_t(x[(size_t(c) * size_t(g.height) + size_t(in_y)) * size_t(g.width) + size_t(p.xa + in_x)])
                  << (16 * l);
        }
      }
      d.in_data_i = beat;
    }
    d.out_ready_i = !rng.Percent(opt.stall_pct);
    sim.Eval();
    if (d.cfg_valid_i && d.cfg_ready_o) ++cfg_next;
    if (d.in_valid_i && d.in_ready_o) {
      ++beats;
      offered = false;
      if (++in_x == passes[in_pass].w) {
        in_x = 0;
        if (++in_y == g.height) in_y = 0, ++in_pass;
      }
    }
    if (d.out_valid_o && d.out_ready_i) {
      const PoolPass& p = passes[out_pass];
      for (int l = 0; l < kPoolLanes; ++l) {
        const int c = p.c0 + l;
        if (c < g.channels) {
          y[(size_t(c) * size_t(g.out_h) + size_t(out_y)) * size_t(g.out_w) + size_t(p.ox0 + out_x)] =
              uint16_t(d.out_data_o >> (16 * l));
        }
      }
      ++results;
      if (++out_x == p.ow) {
        out_x = 0;
        if (++out_y == g.out_h) out_y = 0, ++out_pass;
      }
    }
    sim.Tick();
  }
  if (stats) {
    stats->beats = beats;
    stats->results = results;
    stats->passes = int64_t(passes.size());
    stats->cycles = sim.cycles() - start;
  }
  return y;
}

std::vector<uint16_t> RtlPost(PePostOp op, const std::vector<uint16_t>& x, const PostRunOptions& opt,
                              RtlPlanarStats* stats) {
  Sim<Vane_pe_post4> sim("ane_pe_post", "ane_post", opt.x_seed);
  auto& d = sim.dut();
  d.in_valid_i = 0;
  d.out_ready_i = 1;
  sim.Reset();
  GapRng rng{opt.seed};
  const size_t vectors = (x.size() + kPostLanes - 1) / kPostLanes;
  std::vector<uint16_t> y;
  y.reserve(vectors * kPostLanes);
  size_t next = 0;
  bool offered = false;
  const uint64_t start = sim.cycles();
  sim.set_timeout(start + 1000 + 20 * uint64_t(vectors));
  while (y.size() < vectors * kPostLanes) {
    if (!offered) offered = next < vectors && !rng.Percent(opt.gap_pct);
    d.in_valid_i = offered;
    if (offered) {
      uint64_t beat = 0;
      for (int l = 0; l < kPostLanes; ++l) {
        const size_t i = next * kPostLanes + size_t(l);
        if (i < x.size()) beat |= uint64_t(x[i]) << (16 * l);
      }
      d.in_op_i = uint8_t(op);
      d.in_data_i = beat;
    }
    d.out_ready_i = !rng.Percent(opt.stall_pct);
    sim.Eval();
    if (d.out_valid_o && d.out_ready_i) {
      for (int l = 0; l < kPostLanes; ++l) y.push_back(uint16_t(d.out_data_o >> (16 * l)));
    }
    if (offered && d.in_ready_o) {
      offered = false;
      ++next;
    }
    sim.Tick();
  }
  y.resize(x.size());
  if (stats) {
    stats->vectors = int64_t(vectors);
    stats->cycles = sim.cycles() - start;
  }
  return y;
}

}  // namespace ane::harness
