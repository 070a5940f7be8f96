#include "tb/harness/core_run.h"

#include <chrono>
#include <stdexcept>

#include "Vane_core256_m1.h"
#include "tb/harness/sim.h"

namespace ane::harness {

namespace {

CoreLayerPlan BasePlan(const oracle::ConvLayer& layer, const RtlConvOptions& options, bool two_kernel) {
  CoreLayerPlan p;
  p.layer = layer;
  p.kspec.format = layer.mode == oracle::MacMode::kInt8 ? oracle::KernelFormat::kRaw8 : oracle::KernelFormat::kFp16;
  p.kspec.sparse = options.sparse;
  p.kspec.two_kernel = two_kernel;
  return p;
}

// MAC operations of a plan: every pass runs every tile for Cg KH KW steps, one operation per
// step and accumulator slot in use (broadcast: one kernel per slot; two-kernel: two).
uint64_t Operations(const CoreLayerPlan& p) {
  uint64_t slots = 0;
  for (int pass = 0; pass < p.passes; ++pass) {
    const int nk = pass % p.ppg == p.ppg - 1 ? p.nk_last : p.nk_full;
    slots += uint64_t(p.kspec.two_kernel ? (nk + 1) / 2 : nk);
  }
  return slots * uint64_t(p.nty) * uint64_t(p.ntx) * uint64_t(p.layer.geom.Steps());
}

}  // namespace

std::string PlanRtlConv(const oracle::ConvLayer& layer, const RtlConvOptions& options, CoreLayerPlan* plan) {
  const std::string bad = oracle::CheckConvLayer(layer);
  if (!bad.empty()) return bad;
  if (layer.geom.kernel_h > oracle::kMaxShifterKernel || layer.geom.kernel_w > oracle::kMaxShifterKernel) {
    const oracle::ConvLayer split = SplitGeometry(layer);
    const std::string why = PlanRtlConv(split, options, plan);
    return why.empty() ? "" : "the " + std::to_string(layer.geom.kernel_h) + "x" + std::to_string(layer.geom.kernel_w) +
                                  " kernel split into " + std::to_string(split.geom.kernel_h) + "x" +
                                  std::to_string(split.geom.kernel_w) + " pieces over " +
                                  std::to_string(split.geom.channels) + " virtual channels per group: " + why;
  }
  if (layer.gen != oracle::Generation::kM1) {
    return "the core model is generation m1 (Vane_core256_m1); other generations run on the oracle";
  }
  const bool fp16 = layer.mode == oracle::MacMode::kFp16;
  if (layer.mode != oracle::MacMode::kFp16 && layer.mode != oracle::MacMode::kInt8) {
    return "the core runs fp16 x fp16 and int8 x int8 layers";
  }
  if (options.mapping == ConvMapping::kTwoKernel && !fp16) return "the two-kernel mapping takes fp16 x fp16";
  CoreLayerPlan broadcast = BasePlan(layer, options, false);
  const std::string b_bad = options.mapping == ConvMapping::kTwoKernel ? "not tried" : PlanCoreLayer(&broadcast, kCore256Params);
  CoreLayerPlan two = BasePlan(layer, options, true);
  const std::string t_bad = (options.mapping == ConvMapping::kBroadcast || !fp16) ? "not tried"
                                                                                   : PlanCoreLayer(&two, kCore256Params);
  if (!b_bad.empty() && !t_bad.empty()) return options.mapping == ConvMapping::kTwoKernel ? t_bad : b_bad;
  if (b_bad.empty() && (!t_bad.empty() || Operations(broadcast) <= Operations(two))) {
    *plan = broadcast;
  } else {
    *plan = two;
  }
  return "";
}

RtlConvResult RtlConv2d(const oracle::ConvLayer& layer, const oracle::Tensor3& x,
                        const std::vector<std::vector<uint16_t>>& w, const RtlConvOptions& options) {
  RtlConvResult r;
  const std::string bad = PlanRtlConv(layer, options, &r.plan);
  if (!bad.empty()) throw std::invalid_argument(bad);
  const CoreLayerPlan& p = r.plan;
  const CoreImage im = BuildCoreImage(p, kCore256Params, SplitInput(layer, x), w, 7);
  const auto t0 = std::chrono::steady_clock::now();
  Sim<Vane_core256_m1> sim("ane_core", "ane_core", options.x_seed);
  sim.set_timeout(uint64_t(1) << 36);
  CoreDriver<Vane_core256_m1> drv(sim, kCore256Params);
  drv.Reset();
  const CoreResult cr = drv.Run(p, im, options.run);
  r.y = cr.y;
  RtlConvStats& s = r.stats;
  s.counters = cr.counters;
  s.cycles = cr.cycles;
  s.macs = im.macs;
  s.utilization = s.cycles ? double(s.macs) / (256.0 * double(s.cycles)) : 0.0;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  s.tile_h = p.tile_h;
  s.tile_w = p.tile_w;
  s.tiles = p.nty * p.ntx;
  s.passes = p.passes;
  s.two_kernel = p.kspec.two_kernel;
  return r;
}

std::string ConvOutputPlace(const CoreLayerPlan& p, int co, int oy, int ox) {
  const int per = p.layer.cout / p.layer.groups;
  const int pass = (co / per) * p.ppg + (co % per) / p.nk_full;
  return "tile (" + std::to_string(oy / p.tile_h) + ", " + std::to_string(ox / p.tile_w) + ") of " +
         std::to_string(p.nty) + "x" + std::to_string(p.ntx) + ", pass " + std::to_string(pass) + " of " +
         std::to_string(p.passes) + " (" + std::to_string(p.tile_h) + "x" + std::to_string(p.tile_w) + " tiles, " +
         (p.kspec.two_kernel ? "two-kernel" : "broadcast") + ")";
}

}  // namespace ane::harness
