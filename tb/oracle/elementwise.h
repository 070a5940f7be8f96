// SPDX-License-Identifier: Apache-2.0
// Elementwise fp16 operations (NUMERICS N-4.1, N-4.2): each is one IEEE fp16 operation with
// RNE after the N-1 input boundary. Denormals are kept, overflow goes to inf at the true fp16
// limit, and the indeterminate forms (inf - inf, 0 * inf, inf / inf, 0 / 0, sqrt of a
// negative) return +0. Results follow IEEE signed-zero rules (e.g. neg(+0) = -0,
// -1 * +0 = -0); a -0 result becomes +0 again when it next enters the engine (N-1.2).
// Every result is computed with integer arithmetic (Exact, or integer division and square
// root with a sticky bit for div, recip, sqrt and rsqrt).
#ifndef TB_ORACLE_ELEMENTWISE_H_
#define TB_ORACLE_ELEMENTWISE_H_

#include <cstdint>
#include <string>

namespace ane::oracle {

enum class EwOp { kAdd, kSub, kMul, kDiv, kMax, kMin, kAbs, kNeg, kSquare, kRecip, kRsqrt, kSqrt };
inline constexpr EwOp kAllEwOps[] = {EwOp::kAdd, EwOp::kSub, EwOp::kMul,    EwOp::kDiv,   EwOp::kMax,   EwOp::kMin,
                                     EwOp::kAbs, EwOp::kNeg, EwOp::kSquare, EwOp::kRecip, EwOp::kRsqrt, EwOp::kSqrt};

const char* EwOpName(EwOp op);
bool ParseEwOp(const std::string& name, EwOp* out);
int EwOpArity(EwOp op);  // 1 or 2

// Applies `op` to fp16 codes (b is ignored by unary operations).
uint16_t Elementwise(EwOp op, uint16_t a, uint16_t b = 0);

uint16_t Fp16Add(uint16_t a, uint16_t b);
uint16_t Fp16Sub(uint16_t a, uint16_t b);
uint16_t Fp16Mul(uint16_t a, uint16_t b);
uint16_t Fp16Div(uint16_t a, uint16_t b);
uint16_t Fp16Max(uint16_t a, uint16_t b);
uint16_t Fp16Min(uint16_t a, uint16_t b);
uint16_t Fp16Abs(uint16_t a);
uint16_t Fp16Neg(uint16_t a);
uint16_t Fp16Square(uint16_t a);
uint16_t Fp16Recip(uint16_t a);
uint16_t Fp16Rsqrt(uint16_t a);
uint16_t Fp16Sqrt(uint16_t a);

}  // namespace ane::oracle

#endif  // TB_ORACLE_ELEMENTWISE_H_
