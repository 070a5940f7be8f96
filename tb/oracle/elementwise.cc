// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/elementwise.h"

#include <cmath>

#include "tb/oracle/exact.h"
#include "tb/oracle/formats.h"

namespace ane::oracle {

namespace {

using u128 = unsigned __int128;

constexpr uint16_t kOne = 0x3C00;

bool Neg(uint16_t h) { return h & 0x8000; }

// A finite nonzero fp16 code as an integer significand and a power of two: value = sig * 2^exp.
struct Parts {
  uint64_t sig;
  int exp;
};
Parts Split(uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const uint64_t m = h & 0x3FF;
  if (e == 0) return {m, -24};
  return {m | 0x400, e - 25};
}

// Integer square root of a 128-bit value: the largest s with s * s <= x.
uint64_t Isqrt(u128 x) {
  uint64_t s = uint64_t(std::sqrt(double(x)));  // a first guess only; corrected exactly below
  while (u128(s) * s > x) --s;
  while (u128(s + 1) * (s + 1) <= x) ++s;
  return s;
}

// q + (inexact ? half an LSB below) as an exact value: (2q + sticky) * 2^(exp - 1).
// Rounding it to fp16 equals rounding the true quotient or root, because q has at least 20
// significant bits, so the sticky bit sits far below the rounding position.
Exact WithSticky(bool negative, uint64_t q, bool inexact, int exp) {
  return Exact::FromInt(negative, 2 * q + (inexact ? 1 : 0), exp - 1);
}

}  // namespace

const char* EwOpName(EwOp op) {
  switch (op) {
    case EwOp::kAdd: return "add";
    case EwOp::kSub: return "sub";
    case EwOp::kMul: return "mul";
    case EwOp::kDiv: return "div";
    case EwOp::kMax: return "max";
    case EwOp::kMin: return "min";
    case EwOp::kAbs: return "abs";
    case EwOp::kNeg: return "neg";
    case EwOp::kSquare: return "square";
    case EwOp::kRecip: return "recip";
    case EwOp::kRsqrt: return "rsqrt";
    case EwOp::kSqrt: return "sqrt";
  }
  return "?";
}

bool ParseEwOp(const std::string& name, EwOp* out) {
  for (EwOp op : kAllEwOps) {
    if (name == EwOpName(op)) {
      *out = op;
      return true;
    }
  }
  return false;
}

int EwOpArity(EwOp op) {
  switch (op) {
    case EwOp::kAdd:
    case EwOp::kSub:
    case EwOp::kMul:
    case EwOp::kDiv:
    case EwOp::kMax:
    case EwOp::kMin: return 2;
    default: return 1;
  }
}

uint16_t Fp16Add(uint16_t a, uint16_t b) {
  a = InputBoundary(a);
  b = InputBoundary(b);
  // inf + (-inf) = +0 (N-4.2) is Exact's rule; an exact zero sum is +0 under RNE.
  return RoundToFp16(DecodeFp16(a) + DecodeFp16(b));
}

uint16_t Fp16Sub(uint16_t a, uint16_t b) {
  a = InputBoundary(a);
  b = InputBoundary(b);
  return RoundToFp16(DecodeFp16(a) - DecodeFp16(b));
}

uint16_t Fp16Mul(uint16_t a, uint16_t b) {
  a = InputBoundary(a);
  b = InputBoundary(b);
  const bool neg = Neg(a) != Neg(b);
  if ((Fp16IsInf(a) && Fp16IsZero(b)) || (Fp16IsZero(a) && Fp16IsInf(b))) return 0;  // N-4.2
  // A zero product (a zero factor, or underflow) keeps the IEEE sign.
  return RoundToFp16(DecodeFp16(a) * DecodeFp16(b), neg);
}

uint16_t Fp16Div(uint16_t a, uint16_t b) {
  a = InputBoundary(a);
  b = InputBoundary(b);
  const bool neg = Neg(a) != Neg(b);
  const uint16_t sign = neg ? 0x8000 : 0;
  const bool a_inf = Fp16IsInf(a), b_inf = Fp16IsInf(b);
  const bool a_zero = Fp16IsZero(a), b_zero = Fp16IsZero(b);
  if ((a_inf && b_inf) || (a_zero && b_zero)) return 0;  // N-4.2
  if (a_inf || b_zero) return sign | kFp16PosInf;
  if (b_inf || a_zero) return sign;
  const Parts pa = Split(a), pb = Split(b);
  const uint64_t num = pa.sig << 40;
  const uint64_t q = num / pb.sig;
  const bool inexact = num % pb.sig != 0;
  return RoundToFp16(WithSticky(neg, q, inexact, pa.exp - pb.exp - 40), neg);
}

uint16_t Fp16Max(uint16_t a, uint16_t b) {
  a = InputBoundary(a);
  b = InputBoundary(b);
  return Exact::Compare(DecodeFp16(a), DecodeFp16(b)) >= 0 ? a : b;
}

uint16_t Fp16Min(uint16_t a, uint16_t b) {
  a = InputBoundary(a);
  b = InputBoundary(b);
  return Exact::Compare(DecodeFp16(a), DecodeFp16(b)) <= 0 ? a : b;
}

uint16_t Fp16Abs(uint16_t a) { return InputBoundary(a) & 0x7FFF; }
uint16_t Fp16Neg(uint16_t a) { return InputBoundary(a) ^ 0x8000; }
uint16_t Fp16Square(uint16_t a) { return Fp16Mul(a, a); }
uint16_t Fp16Recip(uint16_t a) { return Fp16Div(kOne, a); }

uint16_t Fp16Sqrt(uint16_t a) {
  a = InputBoundary(a);
  if (Fp16IsZero(a)) return 0;
  if (Neg(a)) return 0;  // sqrt(negative) = +0, N-4.2 (also sqrt(-inf))
  if (Fp16IsInf(a)) return kFp16PosInf;
  Parts p = Split(a);
  if (p.exp & 1) {
    p.sig <<= 1;
    p.exp -= 1;
  }
  const u128 x = u128(p.sig) << 40;
  const uint64_t s = Isqrt(x);
  return RoundToFp16(WithSticky(false, s, u128(s) * s != x, (p.exp - 40) / 2));
}

uint16_t Fp16Rsqrt(uint16_t a) {
  a = InputBoundary(a);
  if (Fp16IsZero(a)) return kFp16PosInf;  // rsqrt(+0) = +inf, rsqrt(-0) = +inf (N-1.2)
  if (Neg(a)) return 0;                   // sqrt of a negative: +0 (N-4.2)
  if (Fp16IsInf(a)) return 0;
  Parts p = Split(a);
  if (p.exp & 1) {
    p.sig <<= 1;
    p.exp -= 1;
  }
  // 1 / sqrt(sig * 2^exp) = 2^(-exp/2) * 2^-40 * (2^40 / sqrt(sig)), q = floor(2^40 / sqrt(sig)).
  const u128 two80 = u128(1) << 80;
  const uint64_t q = Isqrt(two80 / p.sig);
  const bool inexact = u128(q) * q * p.sig != two80;
  return RoundToFp16(WithSticky(false, q, inexact, -p.exp / 2 - 40));
}

uint16_t Elementwise(EwOp op, uint16_t a, uint16_t b) {
  switch (op) {
    case EwOp::kAdd: return Fp16Add(a, b);
    case EwOp::kSub: return Fp16Sub(a, b);
    case EwOp::kMul: return Fp16Mul(a, b);
    case EwOp::kDiv: return Fp16Div(a, b);
    case EwOp::kMax: return Fp16Max(a, b);
    case EwOp::kMin: return Fp16Min(a, b);
    case EwOp::kAbs: return Fp16Abs(a);
    case EwOp::kNeg: return Fp16Neg(a);
    case EwOp::kSquare: return Fp16Square(a);
    case EwOp::kRecip: return Fp16Recip(a);
    case EwOp::kRsqrt: return Fp16Rsqrt(a);
    case EwOp::kSqrt: return Fp16Sqrt(a);
  }
  return 0;
}

}  // namespace ane::oracle
