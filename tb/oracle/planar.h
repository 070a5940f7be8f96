// SPDX-License-Identifier: Apache-2.0
// The planar engine's numerics (NUMERICS N-4, with N-1 and N-5), one function per datapath
// stage, written from the contract (docs/planar.md gives the choices where it is silent):
//
//   ReduceTree / ReduceAccumulate / ReduceFinish   the 32-16-8-4-2-1 tree, the running
//                                                  register and the fp16 store        N-4.4
//   Pool                                           max / min / edge-correct mean      N-4.5
//   Compare, Ternary                               +1/0/-1; A + B*C, (A + B)*C        N-4.1, N-4.3
//   WidthSliceGain                                 x16 before the fp16 store          N-4.6
//   Softmax                                        max, subtract, exp, sum, recip     N-4.7
//   Reduce (tensor)                                rows, columns, planes, channels    N-4.4
//
// Every value enters through the N-1 boundary (NaN -> +inf, -0 -> +0). Arithmetic is exact
// (Exact) with one rounding per operation.
#ifndef TB_ORACLE_PLANAR_H_
#define TB_ORACLE_PLANAR_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/oracle/conv_walk.h"
#include "tb/oracle/formats.h"

namespace ane::oracle {

// ---- N-4.4 the reduction tree ----
enum class ReduceOp { kSum, kMax, kMin };
const char* ReduceOpName(ReduceOp op);
bool ParseReduceOp(const std::string& name, ReduceOp* out);

inline constexpr int kPatch = 64;  // tree inputs

// The identity an unused tree input holds: +0 (sum), -inf (max), +inf (min), as fp32 bits.
uint32_t ReduceIdentity(ReduceOp op);
// One two-input node: sum = RNE_fp32(a + b) with inf + (-inf) = +0; max / min exact.
uint32_t ReduceNode(ReduceOp op, uint32_t a, uint32_t b);
// One patch: input i is fp16 code values[i] after N-1 (as fp32) when valid bit i is set,
// otherwise the identity; level k pairs (2i, 2i + 1) of level k - 1. Returns fp32 bits.
uint32_t ReduceTree(ReduceOp op, const std::array<uint16_t, kPatch>& values, uint64_t valid);
// The running register across patches: acc = node(acc, tree), starting at the identity.
inline uint32_t ReduceAccumulate(ReduceOp op, uint32_t acc, uint32_t tree) { return ReduceNode(op, acc, tree); }
// The fp16 store: RNE16 with the plain fp16 range (just above 65504 -> 65504, from 65520 inf).
uint16_t ReduceFinish(uint32_t acc);

// A whole reduction of a list of fp16 values: cut into consecutive patches of 64 (input i of
// the tree takes element 64p + i), identity-padded, accumulated in order, stored as fp16.
uint16_t ReduceList(ReduceOp op, const std::vector<uint16_t>& values);

// Tensor reductions (N-4.4): over each row (W), each column (H), each plane (H x W, row-major)
// or across channels (C) at each position. The reduced elements of one output form the list
// of ReduceList in that order.
enum class ReduceAxis { kRows, kColumns, kPlanes, kChannels };
const char* ReduceAxisName(ReduceAxis a);
bool ParseReduceAxis(const std::string& name, ReduceAxis* out);
// Output shape: rows [C][H], columns [C][W], planes [C], channels [H][W] (as a Tensor3 with
// unit dimensions: [C][H][1], [C][1][W], [C][1][1], [1][H][W]).
Tensor3 ReduceTensor(ReduceOp op, ReduceAxis axis, const Tensor3& x);

// ---- N-4.5 pooling ----
enum class PoolOp { kMax, kMin, kMean };
const char* PoolOpName(PoolOp op);
bool ParsePoolOp(const std::string& name, PoolOp* out);
// The reduction a pooling's tree does: max and min as such, mean as the sum.
inline ReduceOp PoolReduceOp(PoolOp op) {
  return op == PoolOp::kMax ? ReduceOp::kMax : op == PoolOp::kMin ? ReduceOp::kMin : ReduceOp::kSum;
}
// A KxK window (K = 1..8) with stride and padding (ConvGeometry's kernel, stride, padding;
// dilation 1). Window element (ky, kx) is tree input 8*ky + kx, so the tree's first three
// levels reduce along rows and the last three across them (first filter, then second); only
// elements inside the tensor are valid (padding takes no part). max / min store the tree
// result; mean divides the fp32 sum exactly by the number of real elements and rounds once to
// fp16 (edge-correct mean).
Tensor3 Pool(PoolOp op, const ConvGeometry& g, const Tensor3& x);
std::string CheckPoolGeometry(const ConvGeometry& g);
// The mean of a window: RNE16(sum / n), sum fp32 bits, n = 1..64 real elements.
uint16_t MeanFinish(uint32_t sum, int n);

// ---- N-4.1 / N-4.3 elementwise extras ----
// +1.0, +0 or -1.0 as a > b, a == b, a < b after N-1 (so NaN compares as +inf).
uint16_t Compare(uint16_t a, uint16_t b);
enum class TernaryOp { kAddMul, kMulAfterAdd };  // A + B*C, (A + B)*C
uint16_t Ternary(TernaryOp op, uint16_t a, uint16_t b, uint16_t c);

// ---- N-4.1 format conversion ----
// int8 -> fp16 is exact; fp16 -> int8 is RNE to an integer, clamped to [-128, 127] (after N-1,
// so NaN -> +inf -> 127).
uint16_t Int8ToFp16(int8_t q);
int8_t Fp16ToInt8(uint16_t h);

// ---- N-4.1 / N-4.6 the format converter (first and second) ----
// y = out(gain(unary(bias + scale * x))), each operation one elementwise fp16 operation:
//   x     the lane's fp16 code, or (in_int8) the int8 in its low byte, exactly as fp16
//   p     Fp16Mul(x, scale); s = Fp16Add(p, bias)
//   u     none, Fp16Abs, Fp16Neg or relu = Fp16Max(s, +0)
//   g     gain ? WidthSliceStore(u) with the gain (Fp16Mul(u, 16)) : u
//   y     out_int8 ? Fp16ToInt8(g) as a 16-bit lane (sign-extended) : g
// Scale 1.0 and bias +0 make the affine step the identity after N-1.
// (values: the RTL's codes too, ane_pkg::pe_fc_unary_e; tb/harness/rtl_codes.cc)
enum class FcUnary { kNone = 0, kAbs = 1, kNeg = 2, kRelu = 3 };
const char* FcUnaryName(FcUnary u);
bool ParseFcUnary(const std::string& name, FcUnary* out);
struct FcConfig {
  bool in_int8 = false;
  uint16_t scale = 0x3C00;
  uint16_t bias = 0x0000;
  FcUnary unary = FcUnary::kNone;
  bool gain = false;
  bool out_int8 = false;
};
uint16_t FormatConvert(const FcConfig& c, uint16_t lane);

// The patch transpose: out[j][i] = in[i][j] of an n x n row-major patch.
std::vector<uint16_t> TransposePatch(const std::vector<uint16_t>& patch, int n);

// ---- N-4.6 width-slice gain ----
// The fp16 store of a width slice with a nonzero begin offset (m1 and A14): RNE16(16 * x) with
// overflow to inf, x an fp16 value after N-1. Any other slice, or m5: x unchanged.
uint16_t WidthSliceStore(uint16_t x, bool width_axis, int begin, Generation gen);

// ---- N-4.7 softmax ----
// Over one list: m = max (ReduceList), d_i = sub(x_i, m), e_i = exp table (N-5) of d_i,
// s = sum of e_i (ReduceList), r = recip(s) (elementwise), y_i = mul(e_i, r).
std::vector<uint16_t> Softmax(const std::vector<uint16_t>& x);

}  // namespace ane::oracle

#endif  // TB_ORACLE_PLANAR_H_
