// SPDX-License-Identifier: Apache-2.0
// A convolution layer on the full 256-lane neural-engine core (Vane_core256_m1 or, for an m5
// layer, Vane_core256_m5; rtl/ane_core.sv),
// for `ane run` (op conv2d) and the benchmarks: plans the layer (core_plan.h), builds the memory
// image, runs it through CoreDriver and returns what the core wrote with its counters. The
// kernel formats are lossless here (fp16 kernels as fp16, int8 kernels as raw8), so the
// coefficients the MAC receives are the given weights and oracle::Conv2d takes them as they are.
#ifndef TB_HARNESS_CORE_RUN_H_
#define TB_HARNESS_CORE_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tb/harness/core_driver.h"
#include "tb/oracle/conv.h"
#include "tb/plan/core_plan.h"

namespace ane::harness {

// The parameters of Vane_core256_m1 and _m5 (rtl/CMakeLists.txt: ane_core's defaults).
inline constexpr CoreParams kCore256Params{256, 512, 8, 64};

enum class ConvMapping { kAuto, kBroadcast, kTwoKernel, kDepthwise, kFourKernel };

struct RtlConvOptions {
  ConvMapping mapping = ConvMapping::kAuto;  // auto: the mapping with fewer estimated cycles
  bool sparse = false;                       // sparse kernel groups (same results, skips zeros)
  // How fp16 kernels are stored (N-6): fp16, int8sym (one scale per group or, with
  // per_channel_scale, per kernel) or palette (palette_bits); `scales` / `palette`, when not
  // empty, are stored in every group (a per-tensor scale, a whole layer's palette)
  oracle::KernelFormat fp16_kernels = oracle::KernelFormat::kFp16;
  int palette_bits = 4;
  bool per_channel_scale = false;
  std::vector<uint16_t> scales, palette;
  // int4 packed mode (N-2.8, CoreLayerPlan::int4): an int8 x int8 layer of values -8..7, up to
  // four images a run (RtlConv2dInt4); broadcast mapping, raw8 kernels
  bool int4 = false;
  CoreRunOptions run;   // memory latency and back-pressure
  uint32_t x_seed = 1;  // --x-initial seed of the model
};

struct RtlConvStats {
  CoreCounters counters;   // the core's own counters (cycles, MAC cycles, stalls)
  uint64_t cycles = 0;     // START to done
  uint64_t macs = 0;       // useful multiply-accumulates: Cout OH OW Cg KH KW
  double utilization = 0;  // macs / (256 cycles)
  double seconds = 0;      // host time of the simulation
  int tile_h = 0, tile_w = 0, tiles = 0, passes = 0;
  bool two_kernel = false;
  bool four_kernel = false;
  bool diag = false;  // the depthwise interleave (CoreLayerPlan::diag)
};

// Plans `layer` for the 256-lane core: "" or a one-line reason the core cannot run it.
std::string PlanRtlConv(const oracle::ConvLayer& layer, const RtlConvOptions& options, CoreLayerPlan* plan);

struct RtlConvResult {
  oracle::Tensor3 y;  // [Cout][OH][OW] codes (int8 outputs sign-extended)
  RtlConvStats stats;
  CoreLayerPlan plan;
};

// x: [Cin][H][W]; w: [Cout][Cg KH KW] (steps in N-2 order: c, ky, kx). Throws
// std::invalid_argument with PlanRtlConv's reason when the core cannot run the layer.
RtlConvResult RtlConv2d(const oracle::ConvLayer& layer, const oracle::Tensor3& x,
                        const std::vector<std::vector<uint16_t>>& w, const RtlConvOptions& options = {});

// int4 (options.int4): one to four images [Cin][H][W] of int8 codes -8..7 in one run of the core,
// packed four to a 16-bit element (PackInt4Images); their outputs in the same order. stats.macs
// counts the given images' multiply-accumulates. Throws std::invalid_argument as RtlConv2d does,
// and on a value outside -8..7.
struct RtlConvInt4Result {
  std::vector<oracle::Tensor3> y;
  RtlConvStats stats;
  CoreLayerPlan plan;
};
RtlConvInt4Result RtlConv2dInt4(const oracle::ConvLayer& layer, const std::vector<oracle::Tensor3>& images,
                                const std::vector<std::vector<uint16_t>>& w, const RtlConvOptions& options);

// "tile (ty, tx) of pass p": where output y[co][oy][ox] of a planned layer is computed.
std::string ConvOutputPlace(const CoreLayerPlan& plan, int co, int oy, int ox);

}  // namespace ane::harness

#endif  // TB_HARNESS_CORE_RUN_H_
