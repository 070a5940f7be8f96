// SPDX-License-Identifier: Apache-2.0
// The streaming loops of the planar units with a configuration stream or gaps (ane_pe_vreduce,
// ane_pe_pool, ane_pe_post) on a Sim the caller owns: planar_run.cc builds, resets and runs a
// model with them (RtlLineReduce, RtlPool, RtlPost), and a test can run several jobs on one
// model, stop one in the middle (Sim::InterruptAt) and reset it (ResetStreamUnitMidJob).
// Each loop throws std::runtime_error when the unit hands out a result before anything of the
// run could have produced it (a result left over from an interrupted job).
#ifndef TB_HARNESS_PLANAR_DRIVER_H_
#define TB_HARNESS_PLANAR_DRIVER_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tb/harness/planar_run.h"
#include "tb/harness/sim.h"

namespace ane::harness {

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

namespace planar_detail {
// Whether the model has a configuration stream (cfg_valid_i).
template <class M, class = void>
struct HasCfgValid : std::false_type {};
template <class M>
struct HasCfgValid<M, std::void_t<decltype(std::declval<M&>().cfg_valid_i)>> : std::true_type {};

template <class Model>
void Idle(Model& d) {
  if constexpr (HasCfgValid<Model>::value) d.cfg_valid_i = 0;
  d.in_valid_i = 0;
  d.out_ready_i = 1;
}

inline void NoLeftover(bool leftover, const char* unit, uint64_t cycle) {
  if (leftover) {
    throw std::runtime_error(std::string(unit) + ": a result before its input (cycle " + std::to_string(cycle) + ")");
  }
}
}  // namespace planar_detail

// A streaming unit (configuration stream if it has one, input, output), reset with nothing
// offered.
template <class Model>
void ResetIdle(Sim<Model>& sim) {
  planar_detail::Idle(sim.dut());
  sim.Reset();
}

// Reset in the middle of a job (Sim::InterruptAt): rst_ni low for `hold` cycles while the
// streams go on (`below` set: cfg_valid_i, in_valid_i and out_ready_i at random, the data
// fields keeping their last values); then idle.
template <class Model>
void ResetStreamUnitMidJob(Sim<Model>& sim, int hold, const std::function<uint32_t(uint32_t)>& below = {}) {
  auto& d = sim.dut();
  planar_detail::Idle(d);
  sim.Reset(hold, [&] {
    if (!below) return;
    if constexpr (planar_detail::HasCfgValid<Model>::value) d.cfg_valid_i = below(2);
    d.in_valid_i = below(2);
    d.out_ready_i = below(2);
  });
  planar_detail::Idle(d);
}

// Line jobs through an ane_pe_vreduce model (kLineLanes lanes, lines up to kLineMaxW), reset
// and idle: see RtlLineReduce.
template <class Model>
std::vector<TreeResult> StreamLineJobs(Sim<Model>& sim, const std::vector<LineJob>& jobs, const LineRunOptions& opt,
                                       LineStats* stats = nullptr) {
  int64_t expect = 0, patches = 0;
  for (const LineJob& j : jobs) {
    if (j.n < 1 || j.n > 65535 || j.len < 1 || j.len > kLineMaxW || j.op < 0 || j.op > int(PeTreeOp::kMin) ||
        j.lines.size() != size_t(j.n) * size_t(j.len)) {
      throw std::invalid_argument("RtlLineReduce: a job's shape is out of range");
    }
    expect += j.len;
    patches += int64_t((j.n + 63) / 64) * j.len;
  }
  auto& d = sim.dut();
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
    // A column's result needs its last line, so none comes before the run's first beat.
    planar_detail::NoLeftover(d.out_valid_o && d.out_ready_i && beats == 0, "ane_pe_vreduce", sim.cycles());
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

// One configuration of ane_pe_pool: a channel group, a strip of output columns.
struct PoolPass {
  int c0 = 0;           // first channel
  int ox0 = 0, ow = 0;  // output columns [ox0, ox0 + ow)
  int xa = 0, w = 0;    // input columns [xa, xa + w)
  int pad_left = 0;
};

// The passes of a pooling: channel groups of kPoolLanes, strips of kPoolMaxOutW output columns.
inline std::vector<PoolPass> PoolPasses(const PoolGeometry& g) {
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
  return passes;
}

// A pooling through an ane_pe_pool model (kPoolLanes lanes, kPoolMaxOutW output columns), reset
// and idle: see RtlPool.
template <class Model>
std::vector<uint16_t> StreamPool(Sim<Model>& sim, const PoolGeometry& g, const std::vector<uint16_t>& x,
                                 const PoolRunOptions& opt, PoolStats* stats = nullptr) {
  if (size_t(g.channels) * size_t(g.height) * size_t(g.width) != x.size()) {
    throw std::invalid_argument("RtlPool: input size does not match the geometry");
  }
  const std::vector<PoolPass> passes = PoolPasses(g);
  auto& d = sim.dut();
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
  // Until every result is out and every beat is in: the walker steps over all H rows of a pass,
  // so rows below the last window still go in after the last result (the pass ends with them).
  while (results < expect || in_pass < passes.size()) {
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
    // Every output window holds at least one input position (padding is smaller than the window).
    planar_detail::NoLeftover(d.out_valid_o && d.out_ready_i && beats == 0, "ane_pe_pool", sim.cycles());
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

// x through an ane_pe_post model (kPostLanes lanes), reset and idle: see RtlPost.
template <class Model>
std::vector<uint16_t> StreamPost(Sim<Model>& sim, PePostOp op, const std::vector<uint16_t>& x,
                                 const PostRunOptions& opt, RtlPlanarStats* stats = nullptr) {
  auto& d = sim.dut();
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
      // one result per vector taken in an earlier cycle
      planar_detail::NoLeftover(y.size() / kPostLanes >= next, "ane_pe_post", sim.cycles());
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

#endif  // TB_HARNESS_PLANAR_DRIVER_H_
