// SPDX-License-Identifier: Apache-2.0
// A whole convolution layer (ARCHITECTURE: neural-engine core), written from the definition of a
// grouped 2-D convolution and NUMERICS:
//
//   y[co][oy][ox] = post_co( reduce over c < Cg, ky, kx of
//                            x[g Cg + c][oy sy - pt + ky dy][ox sx - pl + kx dx] * w[co][c][ky][kx] )
//
// with g = co / (Cout / groups), x zero outside the tensor, each output one MAC reduction in the
// N-2 order (oracle::Reduce: the quad stage, the accumulator, the port ceiling), then the
// post-processor of N-3 with the channel's scale and bias (oracle::PostProcessor), one output
// channel per vector. Nothing here knows about tiles, work units or the RTL.
#ifndef TB_ORACLE_CONV_H_
#define TB_ORACLE_CONV_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tb/oracle/conv_walk.h"
#include "tb/oracle/mac.h"
#include "tb/oracle/postproc.h"

namespace ane::oracle {

// A layer's kernel may be larger than the shifter's 7x7 walk: the definition (and the N-2 order
// for cin: for ky: for kx:) holds for any size; the core runs larger kernels by splitting them
// (harness::SplitLargeKernel). 15x15 is this model's limit.
inline constexpr int kMaxLayerKernel = 15;

struct ConvLayer {
  ConvGeometry geom;  // geom.channels = Cg, the input channels of one conv group
  int groups = 1;
  int cout = 1;  // a multiple of groups
  MacMode mode = MacMode::kFp16;
  Generation gen = Generation::kM1;
  PostConfig post;                     // post.gen is taken from gen
  std::vector<ChannelParams> channel;  // per output channel, or empty (scale 1, bias 0)
  int Cin() const { return geom.channels * groups; }
};

// "" or a one-line reason the layer is not one this definition covers (the geometry's ranges,
// groups dividing Cout, a MAC mode with one product per step, a valid post configuration without
// stochastic rounding unless `vectors` (Conv2dInVectors), the channel parameters' count).
std::string CheckConvLayer(const ConvLayer& l, bool vectors = false);

// Throws std::invalid_argument unless the layer is valid (CheckConvLayer), x has its input's shape
// and w one kernel per output channel.
void CheckConvCall(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w);

// x: [Cin][H][W] codes; w: [Cout][Cg * KH * KW] codes as the MAC receives them, steps in the N-2
// order. Returns y: [Cout][OH][OW] codes (fp16, or int8 sign-extended to 16 bits).
Tensor3 Conv2d(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w);

// The same layer whose post-processing runs over vectors in a given order, as an engine does:
// with stochastic rounding (N-3.4) each lane of every vector takes one draw of the LFSR in lane
// order, whatever it holds, so the outputs depend on the order. Vector v post-processes channel
// co (its scale and bias; -1: a vector no output comes from) with lane i holding output position
// pos[i] = oy OW + ox of that channel (-1: a lane no output comes from; it still draws). Every
// output must be in exactly one lane of one vector. Stochastic rounding allowed.
struct PostVector {
  int co = -1;
  std::vector<int> pos;
};
Tensor3 Conv2dInVectors(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w,
                        const std::vector<PostVector>& order);

}  // namespace ane::oracle

#endif  // TB_ORACLE_CONV_H_
