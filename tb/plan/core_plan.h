// SPDX-License-Identifier: Apache-2.0
// What a driver (the compiler and DMA set-up of a real ANE) prepares for the neural-engine core
// (rtl/ane_core.sv, docs/core.md): the tiling of a layer, the compressed kernel group of every
// pass with the pass directory, the memory image of input and kernels, and the configuration
// register writes. Not the oracle: tests compare what the core writes with oracle::Conv2d.
#ifndef TB_PLAN_CORE_PLAN_H_
#define TB_PLAN_CORE_PLAN_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tb/oracle/conv.h"
#include "tb/oracle/kernel_codec.h"

namespace ane::harness {

struct CoreParams {  // the RTL instance's parameters
  int lanes = 16;
  int bank_bytes = 512;
  int beat_bytes = 8;  // a bank word: bank rows are whole words (PlanCoreLayer's bpr)
  int out_bytes = 64;  // output port bytes per write
  int port_words = 8;  // bank words per input read (the input port: 64 bytes)
  int in_banks = 8;    // the input buffer's ring of banks (ane_core InBanks)
  int PortBytes() const { return port_words * beat_bytes; }
};

struct CoreLayerPlan {
  oracle::ConvLayer layer;
  oracle::KernelSpec kspec;  // format, sparse, two_kernel, four_kernel (params follow the post config)
  // int8sym / palette kernels: the scale(s) or palette every pass group stores (empty: each
  // group's own choice, EncodeKernelGroup)
  std::vector<uint16_t> kscales, kpalette;
  // tiling (0: chosen by PlanCoreLayer)
  int tile_h = 0, tile_w = 0;
  int channels_per_wu = 0;
  // Depthwise interleave (LAYER.DIAG, docs/core.md): a pass holds the kernels of diag_g
  // depthwise groups, kernel k reducing over channel k of the work unit only, one channel per
  // bank. Set by the caller; PlanCoreLayer checks it and tiles for one channel per bank.
  bool diag = false;
  int diag_g = 0;
  // int4 packed mode (LAYER.MODE 4, N-2.8; docs/core.md): up to four images at once, each an
  // int8 x int8 layer (layer.mode kInt8) of values -8..7. x's 16-bit elements hold the four
  // images (PackInt4Images: nibble n is image n), the kernels are raw8 of -8..7, a pass holds at
  // most two kernels (slot bases 0 and 4), and the core writes output channel 4 co + n for
  // image n's channel co (UnpackInt4Outputs).
  bool int4 = false;
  int OutChannels() const { return int4 ? 4 * layer.cout : layer.cout; }
  // derived
  int oh = 0, ow = 0, nty = 0, ntx = 0, nsl = 0;
  int patch_h = 0, patch_w = 0, bpr = 0;
  int nk_full = 0, nk_last = 0, ppg = 0, passes = 0;
  bool elem16 = true, out8 = false;
  int flat_w = 0;  // a 1x1 layer planned as [C, 1, H W] (harness::PlanRtlConv): its output width W
};

// A layer whose kernel is larger than the shifter's 7x7 walk, as an equivalent layer the core
// runs (ARCHITECTURE: "larger by passes"): the same reduction in the same N-2 order (for cin:
// for ky: for kx:, so the same quads), over virtual input channels that are shifted copies of
// x with the padding baked in (none left):
//   KW <= 7: blocks of h kernel rows (h the largest divisor of KH up to 7): virtual channel
//            (c, b) is x[c] moved up by b h dy rows; kernel h x KW;
//   KW > 7:  pieces of w columns of one kernel row (w the largest divisor of KW up to 7):
//            virtual channel (c, ky, p) is x[c] moved up by ky dy and left by p w dx; kernel 1 x w.
// Virtual step s of a kernel is step s of the original one, so the kernels are unchanged. A
// piece one row high (one column wide) keeps only the input rows (columns) its outputs read and
// runs at stride 1 in that direction.
// SplitGeometry: the virtual layer (the layer itself when its kernel fits); SplitInput: x for it.
oracle::ConvLayer SplitGeometry(const oracle::ConvLayer& l);
oracle::Tensor3 SplitInput(const oracle::ConvLayer& l, const oracle::Tensor3& x);

// int4 (CoreLayerPlan::int4): one to four images [Cin][H][W] of int8 codes -8..7 as the core's
// packed input, nibble n of each 16-bit element image n's value (absent images: zeros); throws
// std::invalid_argument on a value outside -8..7 or images of different shapes. And back: the
// core's output [4 Cout][OH][OW] as `images` outputs [Cout][OH][OW].
oracle::Tensor3 PackInt4Images(const std::vector<oracle::Tensor3>& images);
std::vector<oracle::Tensor3> UnpackInt4Outputs(const oracle::Tensor3& y, int images);

// Fills the derived fields (and the tiling when not given). "" or a one-line reason.
std::string PlanCoreLayer(CoreLayerPlan* p, const CoreParams& cp);

// The memory image and register writes of one run.
struct CoreImage {
  std::vector<uint8_t> mem;  // from address 0
  uint32_t x_base = 0, k_base = 0, y_base = 0, y_bytes = 0;
  std::vector<std::pair<uint32_t, uint32_t>> shifter_writes;  // (0x80 + a, data), PREP last
  std::vector<std::pair<uint32_t, uint32_t>> writes;          // extract, post-processor, core
  uint64_t mac_ops = 0;                                       // operations the kernel groups schedule, over every tile
  uint64_t macs = 0;                                          // useful multiply-accumulates: Cout OH OW Cg KH KW
};

// Where a layer's tensors are (bytes): what XBASE .. YRS hold.
struct CoreAddresses {
  uint32_t x_base = 0, x_chs = 0, x_rs = 0, k_base = 0, y_base = 0, y_chs = 0, y_rs = 0;
};
// The shifter's window writes ((0x80 + a, data), PREP last) and the kernel extract's and the
// core's register writes (KEXT, LAYER .. YRS) of a planned layer: what a driver writes.
std::vector<std::pair<uint32_t, uint32_t>> CoreShifterWrites(const CoreLayerPlan& p, const CoreParams& cp);
std::vector<std::pair<uint32_t, uint32_t>> CoreLayerWrites(const CoreLayerPlan& p, const CoreAddresses& a);

// x: [Cin][H][W] codes; w: [Cout][Cg KH KW] as given to the encoder (fp16 codes, raw ints).
CoreImage BuildCoreImage(const CoreLayerPlan& p, const CoreParams& cp, const oracle::Tensor3& x,
                         const std::vector<std::vector<uint16_t>>& w, uint64_t junk_seed);

// The post-processor's vectors of a planned layer in the order the core runs them, for
// oracle::Conv2dInVectors (N-3.4: with stochastic rounding every lane of every vector draws, in
// lane order): for each pass, tile row, tile column, one vector per kernel of the pass
// (PassChannels: padding kernels too, co = -1, written nowhere), of cp.lanes lanes; lane i holds
// tile position i (row-major in the tile; two- and four-kernel modes: the positions compacted to
// the lower half or quarter, the rest zeros) when it is inside the output (position oy OW + ox of
// the plan's output: a flattened 1x1 layer's one row is the original's positions in order).
// Sparse kernels are not covered (a kernel whose last quad is dropped may end early).
std::vector<oracle::PostVector> CorePostVectors(const CoreLayerPlan& p, const CoreParams& cp);

// The coefficients the MAC receives (the decoded groups), [Cout][K]: what oracle::Conv2d takes.
std::vector<std::vector<uint16_t>> CoreCoefficients(const CoreLayerPlan& p,
                                                    const std::vector<std::vector<uint16_t>>& w);

}  // namespace ane::harness

#endif  // TB_PLAN_CORE_PLAN_H_
