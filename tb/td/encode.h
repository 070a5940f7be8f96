// SPDX-License-Identifier: Apache-2.0
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
  bool pass = false;    // per-element pass (no kernels) instead of a convolution
  bool planar = false;  // a planar task: y = post(op(src0 x src0_scale, src1)) (A18), fp16, shape [cin][h][w]
  PlanarTask pe;        // its operator and scales
  int src1_bar = 6;
  uint64_t src1_base = 0, src1_row = 0, src1_plane = 0;  // 0: packed
  ElemFormat in = ElemFormat::kFp16, out = ElemFormat::kFp16;
  int cin = 1, h = 1, w = 1, cout = 1, oh = 1, ow = 1;
  int kh = 1, kw = 1, sy = 1, sx = 1, py = 0, px = 0, groups = 1;
  uint16_t scale = 0x3C00;       // NE.PostScale (fp16)
  bool bias = false;             // NE.MACCfg.BiasMode 1: each kernel block starts with its channel's bias (A19)
  uint16_t bias_value = 0;       // every channel's bias (fp16) when `biases` is empty
  std::vector<uint16_t> biases;  // per output channel
  regs::td::Nonlinear nonlinear = regs::td::Nonlinear::kNone;
  int shift = 0;                               // int8 x int8: NE.PostRightShift
  std::vector<std::vector<uint16_t>> weights;  // [cout][cin/groups kh kw] (fp16 codes, int8 in [7:0])
  int kernel_channels = 1;                     // kernel DMA channels the output channels are spread over (1..16)
  std::vector<uint16_t> knots;                 // nonlinear 2: 33 fp16 knots on [-8, 8]
  uint16_t below = 0, above = 0x3C00;
  int src_bar = 5, dst_bar = 4;
  int kernel_bar = -1;                  // Header[9].KBase0: -1 the weights; else a buffer the kernels are in
                                        // at run time (their blocks must be put there by the program's user)
  uint64_t src_base = 0, dst_base = 0;  // multiples of 64
  uint64_t src_row = 0, src_plane = 0, dst_row = 0, dst_plane = 0;  // 0: packed (rows rounded to 64)
};

// Byte strides of a [c][h][w] tensor of `f` with rows rounded up to 64 bytes.
uint64_t PackedRow(int w, ElemFormat f);

struct Encoded {
  std::vector<Td> tds;           // at 0, 0x300, ...
  std::vector<uint8_t> chain;    // their bytes
  std::vector<uint8_t> weights;  // kernels and tables, 64-byte blocks
};
// weights_bar: the buffer entry of the weights (1 in WriteHwx's layout). `prefix`: bytes the
// weights start with (a multiple of 64: data the program's tasks read as tensors, such as a
// compiler's constants), the kernels after them. Throws TdError when a layer cannot be encoded
// (a value too wide for its field).
Encoded EncodeLayers(const std::vector<LayerSpec>& layers, int weights_bar = 1, std::vector<uint8_t> prefix = {});

// A TD of `kind` holding, in every field the model does not run, the first value the real
// programs carry for that kind (regs::td::kFixedRules), the stream headers in place, every
// modelled field 0.
Td TemplateTd(TaskKind kind);
// The kernel blocks of a convolution as EncodeLayers lays them out for one kernel DMA channel
// (the bias first when s.bias): channel c of K holds output channels c, c + K, ...
std::vector<uint8_t> KernelBlocks(const LayerSpec& s, int c);

}  // namespace ane::td

#endif  // TB_TD_ENCODE_H_
