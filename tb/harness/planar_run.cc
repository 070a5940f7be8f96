#include "tb/harness/planar_run.h"

#include "Vane_fp16_recip.h"
#include "Vane_pe_ew16.h"
#include "Vane_pe_mean.h"
#include "Vane_pe_reduce.h"
#include "tb/harness/sim.h"

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

std::vector<uint16_t> RtlRecip(const std::vector<uint16_t>& x) {
  Sim<Vane_fp16_recip> sim("ane_fp16_recip", "ane_recip");
  auto& d = sim.dut();
  std::vector<uint16_t> y;
  for (uint16_t v : x) {
    d.x_i = v;
    sim.Eval();
    y.push_back(d.y_o);
  }
  return y;
}

}  // namespace ane::harness
