// SPDX-License-Identifier: Apache-2.0
// What a TD asks the engine to do, in the model's terms (docs/td.md "From fields to an
// operation"). Each TD of a chain is one task of one of three kinds:
//   convolution       oracle::Conv2d and the neural-engine core (NE.MACCfg OpMode 0)
//   per-element pass  the same, as a depthwise 1x1 convolution with unit weights (OpMode 4,
//                     KernelMode 1)
//   planar            an elementwise operation of two sources on the planar engine
//                     (Header[8].ENE 0): y = post(op(src0 x scale0, src1)), assumption A18
// with where it reads and writes (buffer-table entries, byte offsets and strides), its kernels
// (from the weights, or from any buffer a run-time tensor is in: KBase0 names the buffer), its
// post-processing (scale, per-channel bias from the kernel blocks, ReLU or the program's own
// lookup table). Every bit of a TD has a status (tb/regs/ane_regs.h, docs/td.md "Field status"):
// a modelled field is read here; an inert one changes no value; a field the model does not run
// must hold a value the real programs carry for the TD's kind, or the TD is refused with a
// one-line TdError naming the TD and the field.
#ifndef TB_TD_PROGRAM_H_
#define TB_TD_PROGRAM_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tb/oracle/activation.h"
#include "tb/oracle/conv.h"
#include "tb/td/hwx.h"
#include "tb/td/td.h"

namespace ane::td {

// The element format of a tensor a task reads or writes: the codes of Common.ChCfg / TileDMA
// Fmt / NE.KernelCfg (regs::td::Fmt, assumption A13) that name a format.
enum class ElemFormat : uint32_t {
  kInt8 = uint32_t(regs::td::Fmt::kInt8),
  kFp16 = uint32_t(regs::td::Fmt::kFp16),
};
int ElemBytes(ElemFormat f);
const char* ElemName(ElemFormat f);

// The kind of a TD (regs::td::Kind): its engine and operation.
enum class TaskKind { kConv = regs::td::kKindConv, kPass = regs::td::kKindPass, kPlanar = regs::td::kKindPlanar };
// The kind the fixed-field rules use: planar when Header[8].ENE is 0, a per-element pass when
// NE.MACCfg is OpMode Pass with KernelMode 1, a convolution otherwise.
TaskKind KindOf(const Td& t);

// How a TD reads or writes one [C][H][W] tensor in a buffer.
struct TensorAccess {
  int bar = -1;                            // buffer-table entry (header RBase0 / RBase1 / WBase)
  uint64_t base = 0;                       // byte offset in the buffer (TileDMA BaseAddr x 64)
  uint64_t row = 0, plane = 0, depth = 0;  // byte strides (x 64)
  ElemFormat format = ElemFormat::kFp16;
  int c = 0, h = 0, w = 0;
  // One past the last byte accessed.
  uint64_t End() const;
  uint64_t Offset(int ci, int yi, int xi) const;
};

// The planar engine's elementwise operators (Planar.Cfg.Op, assumption A18).
using PlanarOp = regs::td::PlanarOp;
const char* PlanarOpName(PlanarOp op);

// A planar task: y = RNE16(RNE16(op(RNE16(a x src0_scale), b) x scale) + bias), each step one
// fp16 operation of N-4.1 (assumption A18).
struct PlanarTask {
  PlanarOp op = PlanarOp::kAdd;
  uint16_t src0_scale = 0x3C00;  // Planar.Src0Scale.Scale
  uint16_t scale = 0x3C00;       // Planar.Post.Scale
  uint16_t bias = 0;             // Planar.Post.Bias
};
// One element of a planar task.
uint16_t PlanarElement(const PlanarTask& p, uint16_t a, uint16_t b);

// Where a convolution's kernels are: kernel DMA channel i reads `size[i]` bytes at `base[i]` of
// buffer `bar` (Header[9].KBase0); output channel co is block co div K of channel co mod K (A8);
// a block holds the fp16 bias first when `bias_in_block` (NE.MACCfg.BiasMode 1, A19).
struct KernelSource {
  int bar = -1;
  std::vector<uint64_t> base, size;  // per enabled kernel channel, the table's last
  bool bias_in_block = false;
  uint64_t block_bytes = 0;  // one output channel's block (a multiple of 64)
};

struct TdLayer {
  int index = 0;    // position in the chain
  uint32_t at = 0;  // offset in the chain buffer
  TaskKind kind = TaskKind::kConv;
  bool pass = false;    // the per-element pass (kind kPass)
  bool planar = false;  // a planar task (kind kPlanar)
  TensorAccess src, dst;
  TensorAccess src1;  // a planar task's second source (bar -1: none)
  PlanarTask pe;      // a planar task's operation
  // The neural engine's layer: geometry, groups, Cout, MAC mode, post-processing.
  oracle::ConvLayer layer;
  KernelSource kernels;                   // convolutions (and the table's channel)
  std::vector<std::vector<uint16_t>> w;   // [Cout][Cg KH KW] (fp16 codes, int8 sign-extended)
  std::optional<oracle::ActTable> table;  // the program's table (NonlinearMode 2)
  int table_channel = -1;                 // the kernel DMA channel it came from
  std::vector<int> kernel_channels;       // enabled kernel DMA channels holding kernels
  bool loaded = false;                    // w, table and the per-channel biases are read (LoadKernels)
  // "convolution 3x3 stride 1 pad 1,1 ..." / "per-element pass ..." / "planar add ..."
  std::string Describe() const;
  // The byte ranges of the kernel buffer the TD reads (its kernels and table): [begin, end).
  std::vector<std::pair<uint64_t, uint64_t>> KernelReads() const;
};

// Interprets every TD of a chain. `weights` is the weights section, `weights_bar` the entry
// holding it (-1: none); a TD whose kernels are in the weights gets them now, another waits for
// LoadKernels with its buffer at run time. Throws TdError.
std::vector<TdLayer> Interpret(const std::vector<Td>& tds, const std::vector<uint8_t>& weights, int weights_bar);

// Reads a convolution's kernels, per-channel biases and table from its kernel buffer's bytes.
// Throws TdError (a block past the buffer, a non-finite knot or bias).
void LoadKernels(TdLayer* l, const std::vector<uint8_t>& kbuf);

// The first fixed field of `t` whose value no real program carries for the TD's kind, as
// "Field = value: ..." (empty: none). Exposed for the tests.
std::string FixedFieldError(const Td& t);
// A value of `rule`'s bits (masked, in place) that no real program of `kind` carries: the first
// carried one stepped at the rule's lsb until it is not carried. False when every value is
// carried (a one-bit field whose kind carries both). For the tests that refuse such values.
bool UncarriedValue(const regs::td::FixedRule& rule, TaskKind kind, uint32_t* value);

// The program table of a NonlinearMode 2 TD: 0x4a+ bytes at the table channel, u16 words
// [2] below-domain value, [3] above-domain value, [4..36] the 33 fp16 knots on [-8, 8] step 1/2
// (assumption A11). Throws TdError for a non-finite knot or value.
oracle::ActTable TableFromBlob(const uint8_t* blob, size_t size);
// The inverse (the encoder): words 0, 1 and 37.. zero.
std::vector<uint8_t> TableBlob(const std::vector<uint16_t>& knots, uint16_t below, uint16_t above);

}  // namespace ane::td

#endif  // TB_TD_PROGRAM_H_
