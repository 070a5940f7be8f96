// SPDX-License-Identifier: Apache-2.0
// The convolution window walk that the input shifter performs (ARCHITECTURE: input buffer +
// shifter; NUMERICS N-2 reduction order), written from the definition of a 2-D convolution:
//
//   y[oy][ox] = sum over c, ky, kx of  x[c][oy*sy - pt + ky*dy][ox*sx - pl + kx*dx] * w[c][ky][kx]
//
// with x taken as zero outside the tensor (zero padding). The reduction of one output visits
// its steps in the N-2 order `for c: for ky: for kx:` (step s = (c*KH + ky)*KW + kx).
//
// Lanes of a tile: lane p holds output (oy0 + p / tile_w, ox0 + p % tile_w) for
// p < tile_h * tile_w; a lane is active when that output lies inside the output map.
// In the fp16 two-kernel mode a tile holds NumLanes / 2 outputs and output p feeds lanes 2p and
// 2p + 1 (N-2.1; the MAC array's two-kernel mode), so both lanes of a pair see the same value.
//
// Nothing here knows about work units, bank layouts or the RTL: tests compare what the RTL
// delivers for (lane, step) with ConvInputAt.
#ifndef TB_ORACLE_CONV_WALK_H_
#define TB_ORACLE_CONV_WALK_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ane::oracle {

struct ConvGeometry {
  int channels = 1;  // C: input channels of the reduction
  int height = 1;    // H
  int width = 1;     // W
  int kernel_h = 1;  // KH, 1..7
  int kernel_w = 1;  // KW, 1..7
  int stride_y = 1;  // 1..4
  int stride_x = 1;
  int dilation_y = 1;  // 1..4
  int dilation_x = 1;
  int pad_top = 0;
  int pad_bottom = 0;
  int pad_left = 0;
  int pad_right = 0;

  // floor((H + pt + pb - dy*(KH - 1) - 1) / sy) + 1, and the same across.
  int OutHeight() const;
  int OutWidth() const;
  int Steps() const { return channels * kernel_h * kernel_w; }  // K of one output
};

// The supported ranges: kernel 1..max_kernel (the shifter's walk: 7), stride 1..4, dilation
// 1..4, padding 0..(extent of the dilated kernel - 1), at least one output. Returns "" or a
// one-line reason.
inline constexpr int kMaxShifterKernel = 7;
std::string CheckConvGeometry(const ConvGeometry& g, int max_kernel = kMaxShifterKernel);

// One step of the reduction (N-2 order).
struct ConvStep {
  int c = 0;
  int ky = 0;
  int kx = 0;
};
ConvStep StepAt(const ConvGeometry& g, int s);
int StepIndex(const ConvGeometry& g, const ConvStep& st);

// An input tensor [C][H][W] of 16-bit element codes (fp16 bits, an int8 in bits [7:0], or four
// packed int4 values).
struct Tensor3 {
  int c = 0;
  int h = 0;
  int w = 0;
  std::vector<uint16_t> codes;  // (c*h + y)*w + x
  size_t index(int ci, int y, int x) const { return size_t((ci * h + y) * w + x); }
  uint16_t at(int ci, int y, int x) const { return codes[index(ci, y, x)]; }
};

// The input element that output (oy, ox) multiplies at step st, or 0 in the zero padding.
uint16_t ConvInputAt(const Tensor3& x, const ConvGeometry& g, int oy, int ox, const ConvStep& st);

// A tile of output positions mapped onto lanes.
struct TileMap {
  int oy0 = 0;
  int ox0 = 0;
  int tile_h = 1;
  int tile_w = 1;
  bool two_kernel = false;   // positions feed lane pairs (2p, 2p + 1)
  bool four_kernel = false;  // positions feed lane fours (4p .. 4p + 3)
};
struct LaneView {
  bool active = false;  // the lane's output lies inside the tile and the output map
  int oy = 0;
  int ox = 0;
};
// The output position that lane `lane` of `lanes` works on.
LaneView LaneAt(const ConvGeometry& g, const TileMap& t, int lanes, int lane);

// What every lane sees at one step: active lanes get ConvInputAt, inactive lanes 0.
std::vector<uint16_t> ShifterVector(const Tensor3& x, const ConvGeometry& g, const TileMap& t, int lanes,
                                    const ConvStep& st);

}  // namespace ane::oracle

#endif  // TB_ORACLE_CONV_WALK_H_
