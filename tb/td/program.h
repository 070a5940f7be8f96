// What a TD asks the engine to do, in the model's terms (docs/td.md "From fields to an
// operation"): each TD of a chain becomes one layer oracle::Conv2d and the neural-engine core
// run (a convolution, or the per-element pass as a depthwise 1x1 convolution with unit weights),
// with where it reads its input and writes its output (a buffer-table entry, a byte offset and
// byte strides), its kernels taken from the weights, and its post-processing (scale, bias, ReLU
// or the program's own lookup table). Every field the interpretation uses is checked; a value
// the model does not cover (uint8, a palettized or sparse kernel, the planar engine, a second
// source, ...) is refused with a one-line TdError naming the field. The assumptions behind each
// reading are listed in docs/td.md with their evidence.
#ifndef TB_TD_PROGRAM_H_
#define TB_TD_PROGRAM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tb/oracle/activation.h"
#include "tb/oracle/conv.h"
#include "tb/td/hwx.h"
#include "tb/td/td.h"

namespace ane::td {

// Element formats of Common.ChCfg / TileDMA Fmt / NE.KernelCfg (assumption A13).
enum class ElemFormat { kInt8 = 1, kFp16 = 2 };
int ElemBytes(ElemFormat f);
const char* ElemName(ElemFormat f);

// How a TD reads or writes one [C][H][W] tensor in a buffer.
struct TensorAccess {
  int bar = -1;         // buffer-table entry (header RBase0 / WBase)
  uint64_t base = 0;    // byte offset in the buffer (TileDMA BaseAddr x 64)
  uint64_t row = 0, plane = 0, depth = 0;  // byte strides (x 64)
  ElemFormat format = ElemFormat::kFp16;
  int c = 0, h = 0, w = 0;
  // One past the last byte accessed.
  uint64_t End() const;
  uint64_t Offset(int ci, int yi, int xi) const;
};

struct TdLayer {
  int index = 0;         // position in the chain
  uint32_t at = 0;       // offset in the chain buffer
  bool pass = false;     // the per-element pass (NE.MACCfg OpMode 4, KernelMode 1)
  TensorAccess src, dst;
  oracle::ConvLayer layer;                   // geometry, groups, Cout, MAC mode, post-processing
  std::vector<std::vector<uint16_t>> w;      // [Cout][Cg KH KW] (fp16 codes, int8 sign-extended)
  std::optional<oracle::ActTable> table;     // the program's table (NonlinearMode 2)
  int table_channel = -1;                    // the kernel DMA channel it came from
  std::vector<int> kernel_channels;          // enabled kernel DMA channels holding kernels
  // "convolution 3x3 stride 1 pad 1,1 ..." / "per-element pass ..."
  std::string Describe() const;
};

// Interprets every TD of a chain. `weights` is the kernel buffer (the __const section), `bar`
// the buffer table, `weights_bar` the entry holding the weights (-1: none). Throws TdError.
std::vector<TdLayer> Interpret(const std::vector<Td>& tds, const std::vector<uint8_t>& weights, int weights_bar);

// The program table of a NonlinearMode 2 TD: 0x4a+ bytes at the table channel, u16 words
// [2] below-domain value, [3] above-domain value, [4..36] the 33 fp16 knots on [-8, 8] step 1/2
// (assumption A11). Throws TdError for a non-finite knot or value.
oracle::ActTable TableFromBlob(const uint8_t* blob, size_t size);
// The inverse (the encoder): words 0, 1 and 37.. zero.
std::vector<uint8_t> TableBlob(const std::vector<uint16_t>& knots, uint16_t below, uint16_t above);

}  // namespace ane::td

#endif  // TB_TD_PROGRAM_H_
