// SPDX-License-Identifier: Apache-2.0
// The multiply-accumulate path of NUMERICS N-2, one function per datapath stage so that a
// mismatch names the stage:
//
//   DecodeMacFp16 / DecodeMacInt   operand decode           N-1, N-2.1, N-2.3
//   MacProduct                     exact product            N-2.2
//   Add12 / QuadReduce             first reduction stage    N-2.4
//   AccumulateQuad                 fp32 accumulator+ceiling N-2.5, N-2.6
//   OutputPort                     fp16 output rounding     N-2.6, N-2.3, N-2.7
//   IntQuadReduce / IntAccumulate  integer MAC              N-2.8
//   CompareStep                    compare mode             N-2.9
//
// MacLane strings the stages together the way a hardware lane does: 8 accumulator slots,
// each with its own pending quad, loadable, clearable and readable.
#ifndef TB_ORACLE_MAC_H_
#define TB_ORACLE_MAC_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tb/oracle/exact.h"
#include "tb/oracle/formats.h"

namespace ane::oracle {

// N-2.1 operand modes. Data and kernel arrive as 16-bit codes: fp16 bits, an int8 in bits
// [7:0] (two's complement), or for kInt4 four int4 data values in bits [3:0], [7:4], [11:8],
// [15:12] and one int4 kernel value in bits [3:0].
// The values are the RTL's mode codes too (ane_pkg::mac_mode_e; tb/harness/rtl_codes.cc).
enum class MacMode {
  kFp16 = 0,       // fp16 x fp16
  kInt8 = 1,       // int8 x int8 -> int32
  kInt8xFp16 = 2,  // int8 data x fp16 kernel, data converted exactly to fp16
  kFp16xInt8 = 3,  // fp16 data x int8 kernel, kernel converted exactly to fp16
  kInt4 = 4,       // int4 packed: four products into slots base .. base + 3
  kCmpMax = 5,     // acc = max(acc, data)
  kCmpMin = 6,     // acc = min(acc, data)
};
const char* MacModeName(MacMode m);
bool IsIntegerMode(MacMode m);
bool IsCompareMode(MacMode m);

// Fp16 ceiling at the accumulator port (N-2.6).
inline constexpr uint16_t kAccPortCeiling = 0x7800;  // 32768

// ---- Stage 1: operand decode ----
// N-1 boundary, then N-2.3: m1 treats a denormal operand as +0 inside the MAC.
Exact DecodeMacFp16(uint16_t code, Generation gen);
// An int8 / int4 operand, converted exactly (N-2.1).
Exact DecodeMacInt(int32_t value);
int32_t Int8FromCode(uint16_t code);
int32_t Int4FromCode(uint16_t code, int index);  // index 0..3 selects bits [4i+3:4i]

// ---- Stage 2: exact product (N-2.2) ----
Exact MacProduct(const Exact& data, const Exact& kernel);

// ---- Stage 3: the quad (N-2.4) ----
// RNE(x + y) on the grid 2^(e - 11), e the larger exponent of the nonzero operands.
Exact Add12(const Exact& x, const Exact& y);
// m1: add12(add12(add12(p0, p1), p2), p3). m5: the exact sum (same chain for infinities).
Exact QuadReduce(const std::array<Exact, 4>& p, Generation gen);

// ---- Stage 4: the fp32 accumulator (N-2.5) with the port ceiling (N-2.6) ----
// The value of a slot register; an fp32 NaN (only a loaded value can hold one) is +inf (N-1.1).
Exact DecodeAcc(uint32_t acc_fp32);
// acc = RNE_fp32(acc + t); then, when `ceiling` is set and |RNE_fp16(acc)| >= 32768,
// acc becomes inf with acc's sign.
uint32_t AccumulateQuad(uint32_t acc_fp32, const Exact& t, bool ceiling);

// ---- Stage 5: the output port (N-2.6) ----
// r = RNE_fp16(acc); m1 flushes |r| < 2^-14 to +0; zero results are +0.
uint16_t OutputPort(uint32_t acc_fp32, Generation gen);

// ---- Integer MAC (N-2.8) ----
// Exact sum of a quad of integer products.
int64_t IntQuadReduce(const std::array<int32_t, 4>& p);
// acc = saturate_int32(acc + t); *saturated is set (sticky) when it saturates.
int32_t IntAccumulate(int32_t acc, int64_t t, bool* saturated);

// ---- Compare mode (N-2.9) ----
// acc = max/min(acc, data) on fp16 values after N-1 and N-2.3; the first value of a cleared
// slot initializes it. acc and the result are fp32 bits (always fp16-representable).
uint32_t CompareStep(uint32_t acc_fp32, bool has_value, uint16_t data, bool is_max, Generation gen);

// One MAC lane with its accumulator slots.
class MacLane {
 public:
  static constexpr int kSlots = 8;

  explicit MacLane(Generation gen = Generation::kM1) : gen_(gen) {}

  Generation generation() const { return gen_; }

  // acc = +0, no products seen, saturation flag cleared.
  void Clear(int slot);
  // Loads a partial result (fp32 bits, or an int32 for the integer modes) to continue a
  // reduction across passes. A loaded slot counts as a reduction with K >= 2 for the port
  // ceiling, and as holding a value for compare mode.
  void Load(int slot, uint32_t bits);
  // One multiply-accumulate (or compare) into `slot`; kInt4 uses slots slot .. slot + 3.
  // `last` ends the reduction: the pending incomplete quad is padded with +0 and accumulated.
  void Step(MacMode mode, uint16_t data, uint16_t kernel, int slot, bool last);

  uint16_t ReadFp16(int slot) const;  // output port, N-2.6
  int32_t ReadInt32(int slot) const;  // integer modes
  uint32_t ReadRaw(int slot) const;   // the 32-bit slot register
  bool Saturated(int slot) const;
  // Products accumulated or pending since the last Clear (saturates at 2^31).
  int64_t ProductCount(int slot) const;

 private:
  struct Slot {
    uint32_t acc = 0;  // fp32 bits or int32 two's complement
    bool saturated = false;
    bool continued = false;  // loaded, or an earlier reduction ended in this slot
    bool has_value = false;  // compare mode: holds a value
    int64_t products = 0;
    int pending = 0;
    bool pending_int = false;
    std::array<Exact, 4> quad{};
    std::array<int32_t, 4> quad_int{};
  };
  void PushFp(Slot& s, const Exact& product, bool last);
  void PushInt(Slot& s, int32_t product, bool last);
  void FlushQuad(Slot& s);
  Slot& At(int slot);
  const Slot& At(int slot) const;

  Generation gen_;
  std::array<Slot, kSlots> slots_{};
};

// One whole reduction on a freshly cleared (or loaded) slot: K products in order.
struct MacResult {
  uint16_t fp16 = 0;       // FP and compare modes
  int32_t int32 = 0;       // kInt8
  bool saturated = false;  // kInt8
  uint32_t acc = 0;        // raw slot register
};
MacResult Reduce(MacMode mode, Generation gen, const uint16_t* data, const uint16_t* kernel, size_t k,
                 std::optional<uint32_t> initial = std::nullopt);

// Matrix multiply (N-2, N-7.2): y[m][n] reduces a[m][0..K) * b[0..K)[n] in index order.
enum class ElemType { kFp16, kInt8 };
const char* ElemTypeName(ElemType t);
struct Matrix {
  ElemType type = ElemType::kFp16;
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<uint16_t> codes;  // row-major; an int8 in bits [7:0]
  uint16_t at(int64_t r, int64_t c) const { return codes[size_t(r * cols + c)]; }
};
struct MatmulResult {
  bool is_int = false;  // int8 x int8 gives int32, every other mix gives fp16
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<uint16_t> fp16;   // when !is_int
  std::vector<int32_t> int32;   // when is_int
  int64_t saturated_count = 0;  // integer outputs whose accumulation saturated
  std::vector<uint32_t> acc;    // Matmul only: every output's raw 32-bit accumulator slot
};
MacMode MatmulMode(ElemType a, ElemType b);
// Throws std::invalid_argument when the inner dimensions differ.
MatmulResult Matmul(const Matrix& a, const Matrix& b, Generation gen);
// The int4 packed mode (N-2.8) as a matrix multiply: a and b are int8 matrices whose values lie
// in -8..7. Rows 4g .. 4g + 3 of a go in the nibbles [3:0] .. [15:12] of one 16-bit data word,
// b[k][n] in the kernel's bits [3:0], one MacLane kInt4 step per k on slots 0..3: y[4g + j][n]
// is slot j. Rows past M are 0 nibbles. int32 results with saturation as for kInt8.
// Throws std::invalid_argument when the inner dimensions differ, an operand is not int8 or a
// value lies outside -8..7 (naming it).
MatmulResult MatmulInt4(const Matrix& a, const Matrix& b, Generation gen);

}  // namespace ane::oracle

#endif  // TB_ORACLE_MAC_H_
