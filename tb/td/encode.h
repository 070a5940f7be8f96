// The encoder (docs/td.md "Writing programs"): layers in the model's terms become TDs with the
// fields Interpret() reads, chained, with their kernels packed into a weights section the way
// Apple's files hold them (assumption A8), and the whole program as an .hwx file. The inverse
// of program.h: Interpret(EncodeLayers(x)) gives back x. Used by the random-TD tests and by
// anyone writing a program by hand.
#ifndef TB_TD_ENCODE_H_
#define TB_TD_ENCODE_H_

#include <cstdint>
#include <vector>

#include "tb/td/hwx.h"
#include "tb/td/program.h"
#include "tb/td/td.h"

namespace ane::td {

struct LayerSpec {
  bool pass = false;  // per-element pass (no kernels) instead of a convolution
  ElemFormat in = ElemFormat::kFp16, out = ElemFormat::kFp16;
  int cin = 1, h = 1, w = 1, cout = 1, oh = 1, ow = 1;
  int kh = 1, kw = 1, sy = 1, sx = 1, py = 0, px = 0, groups = 1;
  uint16_t scale = 0x3C00;  // NE.PostScale (fp16)
  bool bias = false;
  uint16_t bias_value = 0;  // NE.AccBias (fp16)
  int nonlinear = 0;        // 0 none, 1 ReLU, 2 table
  int shift = 0;            // int8 x int8: NE.PostRightShift
  std::vector<std::vector<uint16_t>> weights;  // [cout][cin/groups kh kw] (fp16 codes, int8 in [7:0])
  int kernel_channels = 1;  // kernel DMA channels the output channels are spread over (1..16)
  std::vector<uint16_t> knots;  // nonlinear 2: 33 fp16 knots on [-8, 8]
  uint16_t below = 0, above = 0x3C00;
  int src_bar = 5, dst_bar = 4;
  uint64_t src_base = 0, dst_base = 0;  // multiples of 64
  uint64_t src_row = 0, src_plane = 0, dst_row = 0, dst_plane = 0;  // 0: packed (rows rounded to 64)
};

// Byte strides of a [c][h][w] tensor of `f` with rows rounded up to 64 bytes.
uint64_t PackedRow(int w, ElemFormat f);

struct Encoded {
  std::vector<Td> tds;             // at 0, 0x300, ...
  std::vector<uint8_t> chain;      // their bytes
  std::vector<uint8_t> weights;    // kernels and tables, 64-byte blocks
};
// weights_bar: the buffer entry of the weights (1 in WriteHwx's layout). Throws TdError when a
// layer cannot be encoded (a value too wide for its field).
Encoded EncodeLayers(const std::vector<LayerSpec>& layers, int weights_bar = 1);

}  // namespace ane::td

#endif  // TB_TD_ENCODE_H_
