// SPDX-License-Identifier: Apache-2.0
// The planar engine's RTL for `ane --engine rtl|both` (docs/planar.md): elementwise operations
// through a 16-lane ane_pe_ew, reductions through ane_pe_reduce, pooling means through
// ane_pe_mean, reciprocals through ane_fp16_recip; full rate, no gaps.
#ifndef TB_HARNESS_PLANAR_RUN_H_
#define TB_HARNESS_PLANAR_RUN_H_

#include <array>
#include <cstdint>
#include <vector>

#include "tb/harness/rtl_codes.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/planar.h"

namespace ane::harness {

inline constexpr int kPlanarLanes = 16;

struct RtlPlanarStats {
  int64_t vectors = 0;
  uint64_t cycles = 0;  // from the first vector in to the last result out
};

// One patch of the reduction tree (ane_pe_reduce): 64 fp16 values, the valid mask, the
// operator (TreeOp), and whether it starts / ends a reduction.
struct TreePatch {
  std::array<uint16_t, 64> v{};
  uint64_t mask = 0;
  int op = 0;
  bool first = false;
  bool last = false;
};
struct TreeResult {
  uint32_t fp32 = 0;
  uint16_t fp16 = 0;
};
// Every patch through the tree at full rate; one result per patch marked last.
std::vector<TreeResult> RtlReduceTree(const std::vector<TreePatch>& patches, RtlPlanarStats* stats = nullptr);
// ane_pe_mean: RNE16(sum / n) for each (sum, n).
std::vector<uint16_t> RtlMean(const std::vector<uint32_t>& sums, const std::vector<int>& counts);

// How a streaming unit with a configuration port is driven: random input gaps, configuration
// (job) gaps and output back-pressure, and the X seed.
struct StreamRunOptions {
  int gap_pct = 0;      // input beats withheld at random
  int stall_pct = 0;    // output back-pressure at random
  int cfg_gap_pct = 0;  // configurations withheld at random
  uint64_t seed = 1;    // of the gaps and stalls
  uint32_t x_seed = 1;  // Verilator's X seed
};

// Reductions across lines through ane_pe_vreduce (the line buffer, ane_pe_linebuf, in front of
// the reduction tree): one job reduces n lines of len elements (1 .. kLineMaxW) column by
// column; result j = ReduceList(op, element j of lines 0 .. n - 1). A line goes in as beats of
// kLineLanes elements. Jobs are offered back to back; results come in job order, len per job.
inline constexpr int kLineLanes = 4;
inline constexpr int kLineMaxW = 16;
struct LineJob {
  int op = 0;  // PeTreeOp (TreeOp)
  int n = 1, len = 1;
  std::vector<uint16_t> lines;  // n x len, line-major
};
using LineRunOptions = StreamRunOptions;
struct LineStats {
  int64_t beats = 0;    // input beats
  int64_t patches = 0;  // tree patches (one per column per block of 64 lines)
  int64_t results = 0;
  int64_t jobs = 0;
  uint64_t cycles = 0;  // from reset release to the last result
};
std::vector<TreeResult> RtlLineReduce(const std::vector<LineJob>& jobs, const LineRunOptions& opt = {},
                                      LineStats* stats = nullptr);
// A tensor reduction over columns (lines = the rows of each channel's plane, cut into strips
// of kLineMaxW columns) or across channels (lines = the channels, cut into stretches of
// kLineMaxW positions of the raster-order plane); the result as oracle::ReduceTensor's codes.
std::vector<uint16_t> RtlReduceAcross(oracle::ReduceOp op, oracle::ReduceAxis axis, const oracle::Tensor3& x,
                                      const LineRunOptions& opt = {}, LineStats* stats = nullptr);

// Pooling through ane_pe_pool (the first filter, the line buffer and the second filter):
// kPoolLanes channels in parallel, output rows of at most kPoolMaxOutW per pass. A plane whose
// output is wider is cut into strips of kPoolMaxOutW output columns, each fed the input
// columns its windows cover (with the strip's own left padding); channels go in groups of
// kPoolLanes (the last group's spare lanes carry zeros). Every (group, strip) is one
// configuration, offered as soon as the unit takes it.
inline constexpr int kPoolLanes = 4;
inline constexpr int kPoolMaxOutW = 16;
struct PoolGeometry {
  int op = 0;  // PeTreeOp (TreeOp): sum for a mean, max, min
  int channels = 1, height = 1, width = 1, out_h = 1, out_w = 1;
  int kernel_h = 1, kernel_w = 1, stride_y = 1, stride_x = 1, pad_top = 0, pad_left = 0;
};
using PoolRunOptions = StreamRunOptions;
struct PoolStats {
  int64_t beats = 0;    // input beats (one position of kPoolLanes channels)
  int64_t results = 0;  // output beats
  int64_t passes = 0;   // configurations: channel groups x strips
  uint64_t cycles = 0;  // from reset release to the last result
};
// The configuration of an oracle pooling (op, window geometry).
PoolGeometry ToPoolGeometry(oracle::PoolOp op, const oracle::ConvGeometry& g);
// x: [C][H][W] fp16 codes; returns [C][OH][OW].
std::vector<uint16_t> RtlPool(const PoolGeometry& g, const std::vector<uint16_t>& x, const PoolRunOptions& opt = {},
                              PoolStats* stats = nullptr);

// The planar post-processor (ane_pe_post, 4 lanes, latency 11): y[i] = op(x[i]) (PePostOp); random input gaps and
// output back-pressure when asked.
inline constexpr int kPostLanes = 4;
struct PostRunOptions {
  int gap_pct = 0;
  int stall_pct = 0;
  uint64_t seed = 1;
  uint32_t x_seed = 1;
};
std::vector<uint16_t> RtlPost(PePostOp op, const std::vector<uint16_t>& x, const PostRunOptions& opt = {},
                              RtlPlanarStats* stats = nullptr);
// The reciprocal through the post-processor.
inline std::vector<uint16_t> RtlRecip(const std::vector<uint16_t>& x) { return RtlPost(PePostOp::kRecip, x); }

// y[i] = op(a[i], b[i], c[i]); b and c may be empty for operations that do not read them.
std::vector<uint16_t> RtlElementwise(PeEwOp op, const std::vector<uint16_t>& a, const std::vector<uint16_t>& b,
                                     const std::vector<uint16_t>& c, RtlPlanarStats* stats = nullptr);

}  // namespace ane::harness

#endif  // TB_HARNESS_PLANAR_RUN_H_
