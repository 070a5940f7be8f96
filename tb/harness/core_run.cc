// SPDX-License-Identifier: Apache-2.0
#include "tb/harness/core_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "Vane_core256_m1.h"
#include "Vane_core256_m5.h"
#include "tb/harness/sim.h"

namespace ane::harness {

namespace {

// per_slot: kernels per accumulator slot (1 broadcast, 2 two-kernel, 4 four-kernel).
CoreLayerPlan BasePlan(const oracle::ConvLayer& layer, const RtlConvOptions& options, int per_slot) {
  CoreLayerPlan p;
  p.layer = layer;
  // int8 kernels (int8 x int8, fp16 x int8) as raw8, fp16 kernels (fp16 x fp16, int8 x fp16) as fp16
  const bool int8_kernels = layer.mode == oracle::MacMode::kInt8 || layer.mode == oracle::MacMode::kFp16xInt8;
  p.kspec.format = int8_kernels ? oracle::KernelFormat::kRaw8 : options.fp16_kernels;
  if (!int8_kernels) {
    p.kspec.palette_bits = options.palette_bits;
    p.kspec.per_channel_scale = options.per_channel_scale;
    p.kscales = options.scales;
    p.kpalette = options.palette;
  }
  p.kspec.sparse = options.sparse;
  p.kspec.two_kernel = per_slot == 2;
  p.kspec.four_kernel = per_slot == 4;
  return p;
}

// MAC operations of a plan: every pass runs every tile for Cg KH KW steps, one operation per
// step and accumulator slot in use (broadcast: one kernel per slot; two-kernel: two;
// four-kernel: four).
uint64_t Operations(const CoreLayerPlan& p) {
  const int per = oracle::KernelsPerSlot(p.kspec);
  uint64_t slots = 0;
  for (int pass = 0; pass < p.passes; ++pass) {
    const int nk = pass % p.ppg == p.ppg - 1 ? p.nk_last : p.nk_full;
    slots += uint64_t((nk + per - 1) / per);
  }
  return slots * uint64_t(p.nty) * uint64_t(p.ntx) * uint64_t(p.layer.geom.Steps());
}

// Estimated cycles of a plan on the core, for choosing between the mappings: per work unit the
// larger of its MAC cycles and its input reads (64-byte reads of the patch rows, one a cycle,
// plus the release), and per tile at least the kernel group's 64-bit beats (the kernel port
// streams the pass's group once per tile: a dense four-kernel fp16 group is one beat per
// operation). MAC cycles per step: the slots in use, and while fewer than 4 slots rotate the
// same-slot rule (docs/mac_lane.md, Timing) holds the three products of a quad that follow its
// first by 4 - slots cycles each.
double EstimatedCycles(const CoreLayerPlan& p, const CoreParams& cp) {
  const oracle::ConvGeometry& g = p.layer.geom;
  const int reads_per_row = (p.bpr + cp.port_words - 1) / cp.port_words;
  const int per = oracle::KernelsPerSlot(p.kspec);
  const bool params = p.layer.post.scale_en || p.layer.post.bias_en;
  double cycles = 0;
  for (int pass = 0; pass < p.passes; ++pass) {
    const int nk = pass % p.ppg == p.ppg - 1 ? p.nk_last : p.nk_full;
    const int slots = (nk + per - 1) / per;
    const double per_step = slots >= 4 ? slots : slots + 0.75 * (4 - slots);
    double tile = 0;
    for (int sl = 0; sl < p.nsl; ++sl) {
      // channels in the work unit (the depthwise interleave: one per kernel, each kernel's own)
      const int wn = p.diag ? p.diag_g : std::min(p.channels_per_wu, g.channels - sl * p.channels_per_wu);
      const double mac = (p.diag ? 1 : wn) * g.kernel_h * g.kernel_w * per_step;
      const double reads = double(wn) * p.patch_h * reads_per_row + 1;
      tile += std::max(mac, reads);
    }
    const double kbits =
        32.0 + (params ? 64.0 * slots * per : 0.0) + double(slots * per) * g.Steps() * oracle::ValueBits(p.kspec);
    cycles += double(p.nty) * p.ntx * std::max(tile, std::ceil(kbits / 64.0));
  }
  return cycles;
}

// A 1x1 layer at stride 1 without padding computes each position on its own, and its planar
// input and output are contiguous over (y, x): it is the same layer on a [C, 1, H W] tensor,
// whose tiles take whole runs of 128 or 256 positions instead of whole rows (a 56 x 56 map: 25
// tiles of 128 positions instead of 28 of 2 x 56).
bool Flattenable(const oracle::ConvLayer& l) {
  const oracle::ConvGeometry& g = l.geom;
  return g.kernel_h == 1 && g.kernel_w == 1 && g.stride_y == 1 && g.stride_x == 1 && g.pad_top == 0 &&
         g.pad_bottom == 0 && g.pad_left == 0 && g.pad_right == 0 && g.height > 1 && g.height * g.width <= 4095;
}

oracle::ConvLayer Flattened(const oracle::ConvLayer& l) {
  oracle::ConvLayer f = l;
  f.geom.width = l.geom.height * l.geom.width;
  f.geom.height = 1;
  return f;
}

// One run of a planned layer on a 256-lane core model.
template <class Model>
CoreResult RunCore(const CoreLayerPlan& p, const CoreImage& im, const RtlConvOptions& options) {
  Sim<Model> sim("ane_core", "ane_core", options.x_seed);
  sim.set_timeout(uint64_t(1) << 36);
  CoreDriver<Model> drv(sim, kCore256Params);
  drv.Reset();
  return drv.Run(p, im, options.run);
}

}  // namespace

std::string PlanRtlConv(const oracle::ConvLayer& layer, const RtlConvOptions& options, CoreLayerPlan* plan) {
  const std::string bad = oracle::CheckConvLayer(layer, true);
  if (!bad.empty()) return bad;
  if (layer.geom.kernel_h > oracle::kMaxShifterKernel || layer.geom.kernel_w > oracle::kMaxShifterKernel) {
    const oracle::ConvLayer split = SplitGeometry(layer);
    const std::string why = PlanRtlConv(split, options, plan);
    return why.empty() ? ""
                       : "the " + std::to_string(layer.geom.kernel_h) + "x" + std::to_string(layer.geom.kernel_w) +
                             " kernel split into " + std::to_string(split.geom.kernel_h) + "x" +
                             std::to_string(split.geom.kernel_w) + " pieces over " +
                             std::to_string(split.geom.channels) + " virtual channels per group: " + why;
  }
  if (Flattenable(layer)) {
    const std::string why = PlanRtlConv(Flattened(layer), options, plan);
    if (why.empty()) plan->flat_w = layer.geom.width;
    return why;
  }
  if (options.int4) {  // int4 packed: the broadcast mapping, two kernels a pass
    if (options.mapping != ConvMapping::kAuto && options.mapping != ConvMapping::kBroadcast) {
      return "the int4 packed mode runs in the broadcast mapping";
    }
    CoreLayerPlan p = BasePlan(layer, options, 1);
    p.int4 = true;
    const std::string why = PlanCoreLayer(&p, kCore256Params);
    if (why.empty()) *plan = p;
    return why;
  }
  const bool fp16 = layer.mode == oracle::MacMode::kFp16;
  if (options.mapping == ConvMapping::kTwoKernel && !fp16) return "the two-kernel mapping takes fp16 x fp16";
  if (options.mapping == ConvMapping::kFourKernel && !fp16) return "the four-kernel mapping takes fp16 x fp16";
  const ConvMapping m = options.mapping;
  auto tried = [m](ConvMapping x) { return m == ConvMapping::kAuto || m == x; };
  CoreLayerPlan broadcast = BasePlan(layer, options, 1);
  CoreLayerPlan two = BasePlan(layer, options, 2);
  CoreLayerPlan four = BasePlan(layer, options, 4);
  // A depthwise layer may interleave 4 groups (or 3, or 2: a divisor of the groups) per pass,
  // each reading its own channel from its own bank, so that their slots rotate.
  CoreLayerPlan diag = BasePlan(layer, options, 1);
  diag.diag = true;
  diag.diag_g = layer.groups % 4 == 0 ? 4 : layer.groups % 3 == 0 ? 3 : 2;
  const std::string b_bad = tried(ConvMapping::kBroadcast) ? PlanCoreLayer(&broadcast, kCore256Params) : "not tried";
  const std::string t_bad = tried(ConvMapping::kTwoKernel) && fp16 ? PlanCoreLayer(&two, kCore256Params) : "not tried";
  // The four-kernel mode is dense only: with sparse kernels it is tried only when asked for.
  const std::string f_bad =
      tried(ConvMapping::kFourKernel) && fp16 && (!options.sparse || m == ConvMapping::kFourKernel)
          ? PlanCoreLayer(&four, kCore256Params)
          : "not tried";
  const std::string d_bad = tried(ConvMapping::kDepthwise) ? PlanCoreLayer(&diag, kCore256Params) : "not tried";
  // The plan with the fewest estimated cycles; on a tie not the interleave, then the one with
  // fewer MAC operations, then broadcast before two-kernel before four-kernel.
  const CoreLayerPlan* best = nullptr;
  std::tuple<double, bool, uint64_t, int> best_key;
  const std::pair<const CoreLayerPlan*, const std::string*> candidates[] = {
      {&broadcast, &b_bad}, {&two, &t_bad}, {&four, &f_bad}, {&diag, &d_bad}};
  for (int order = 0; order < 4; ++order) {
    const auto [c, why] = candidates[order];
    if (!why->empty()) continue;
    const std::tuple<double, bool, uint64_t, int> key{EstimatedCycles(*c, kCore256Params), c->diag, Operations(*c),
                                                      order};
    if (!best || key < best_key) {
      best = c;
      best_key = key;
    }
  }
  if (!best) {
    return m == ConvMapping::kTwoKernel    ? t_bad
           : m == ConvMapping::kFourKernel ? f_bad
           : m == ConvMapping::kDepthwise  ? d_bad
                                           : b_bad;
  }
  *plan = *best;
  return "";
}

namespace {

// Plans the layer, runs x (an image, or int4's packed images) on the core and returns its output
// (int4: [4 Cout][OH][OW]) and statistics (macs: one image's, int4: four images').
RtlConvResult RunConv(const oracle::ConvLayer& layer, const oracle::Tensor3& x,
                      const std::vector<std::vector<uint16_t>>& w, const RtlConvOptions& options) {
  RtlConvResult r;
  const std::string bad = PlanRtlConv(layer, options, &r.plan);
  if (!bad.empty()) throw std::invalid_argument(bad);
  const CoreLayerPlan& p = r.plan;
  oracle::Tensor3 xin = SplitInput(layer, x);
  if (p.flat_w) {  // the flattened 1x1 layer: the same codes as [C, 1, H W]
    xin.w *= xin.h;
    xin.h = 1;
  }
  const CoreImage im = BuildCoreImage(p, kCore256Params, xin, w, 7);
  const auto t0 = std::chrono::steady_clock::now();
  // the layer's generation chooses the model (ane_core's Gen parameter)
  const CoreResult cr = layer.gen == oracle::Generation::kM5 ? RunCore<Vane_core256_m5>(p, im, options)
                                                             : RunCore<Vane_core256_m1>(p, im, options);
  r.y = cr.y;
  if (p.flat_w) {  // back to [Cout][OH][OW]
    r.y.h = layer.geom.OutHeight();
    r.y.w = layer.geom.OutWidth();
  }
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
  s.four_kernel = p.kspec.four_kernel;
  s.diag = p.diag;
  return r;
}

}  // namespace

RtlConvResult RtlConv2d(const oracle::ConvLayer& layer, const oracle::Tensor3& x,
                        const std::vector<std::vector<uint16_t>>& w, const RtlConvOptions& options) {
  if (options.int4) throw std::invalid_argument("RtlConv2d: int4 layers run through RtlConv2dInt4");
  return RunConv(layer, x, w, options);
}

RtlConvInt4Result RtlConv2dInt4(const oracle::ConvLayer& layer, const std::vector<oracle::Tensor3>& images,
                                const std::vector<std::vector<uint16_t>>& w, const RtlConvOptions& options) {
  RtlConvOptions o = options;
  o.int4 = true;
  RtlConvResult r = RunConv(layer, PackInt4Images(images), w, o);
  RtlConvInt4Result out;
  out.y = UnpackInt4Outputs(r.y, int(images.size()));
  out.stats = r.stats;
  out.plan = r.plan;
  // the given images' multiply-accumulates (the run computes four, padding images included)
  out.stats.macs = r.stats.macs / 4 * images.size();
  out.stats.utilization = out.stats.cycles ? double(out.stats.macs) / (256.0 * double(out.stats.cycles)) : 0.0;
  return out;
}

std::string ConvOutputPlace(const CoreLayerPlan& p, int co, int oy, int ox) {
  if (p.flat_w) {  // a flattened 1x1 layer: position (oy, ox) is column oy W + ox of its one row
    ox += oy * p.flat_w;
    oy = 0;
  }
  const int per = p.layer.cout / p.layer.groups;
  const int pass = p.diag ? co / p.diag_g : (co / per) * p.ppg + (co % per) / p.nk_full;
  return "tile (" + std::to_string(oy / p.tile_h) + ", " + std::to_string(ox / p.tile_w) + ") of " +
         std::to_string(p.nty) + "x" + std::to_string(p.ntx) + ", pass " + std::to_string(pass) + " of " +
         std::to_string(p.passes) + " (" + std::to_string(p.tile_h) + "x" + std::to_string(p.tile_w) + " tiles, " +
         (p.kspec.two_kernel    ? "two-kernel"
          : p.kspec.four_kernel ? "four-kernel"
          : p.diag              ? "depthwise interleave"
          : p.int4              ? "broadcast, int4 packed"
                                : "broadcast") +
         ")";
}

}  // namespace ane::harness
