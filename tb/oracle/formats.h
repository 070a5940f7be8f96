// SPDX-License-Identifier: Apache-2.0
// fp16 / fp32 formats, the generation switch and the input boundary (NUMERICS N-0, N-1).
// Encoding and decoding are exact: values go through Exact, rounding is RNE on integers.
#ifndef TB_ORACLE_FORMATS_H_
#define TB_ORACLE_FORMATS_H_

#include <cstdint>
#include <string>

#include "tb/oracle/exact.h"

namespace ane::oracle {

// N-0.2 generation switch.
enum class Generation { kM1, kM5 };
const char* GenerationName(Generation g);
// Parses "m1" / "m5"; returns false for anything else.
bool ParseGeneration(const std::string& text, Generation* out);

// An IEEE binary interchange format.
struct FloatFormat {
  int sig_bits;  // significand bits including the hidden bit
  int exp_bits;
  int bias;
  int emin() const { return 1 - bias; }
  int emax() const { return bias; }
};
inline constexpr FloatFormat kFp16{11, 5, 15};
inline constexpr FloatFormat kFp32{24, 8, 127};

inline constexpr uint16_t kFp16PosInf = 0x7C00;
inline constexpr uint16_t kFp16NegInf = 0xFC00;
inline constexpr uint16_t kFp16MaxFinite = 0x7BFF;  // 65504

bool Fp16IsNan(uint16_t h);
bool Fp16IsInf(uint16_t h);
bool Fp16IsZero(uint16_t h);
bool Fp16IsDenormal(uint16_t h);
bool Fp32IsNan(uint32_t f);

// N-1.1 / N-1.2: NaN -> +inf, -0 -> +0, everything else (denormals too, N-1.3) unchanged.
uint16_t InputBoundary(uint16_t h);

// Exact value of a non-NaN code. -0 decodes to 0 (Exact zero is unsigned).
Exact DecodeFp16(uint16_t h);
Exact DecodeFp32(uint32_t f);

// RNE (N-0.3) to a format with gradual underflow and IEEE overflow (to inf when the exact
// value is at least max + half an ulp). Infinity passes. Returns the rounded value.
Exact RoundToFormat(const Exact& x, const FloatFormat& fmt);
// Encodes a value that is already representable in the format (the result of RoundToFormat).
uint64_t EncodeRounded(const Exact& rounded, const FloatFormat& fmt, bool negative_zero = false);

// Round then encode. A zero result encodes as +0 unless negative_zero is set.
uint16_t RoundToFp16(const Exact& x, bool negative_zero = false);
uint32_t RoundToFp32(const Exact& x);

// fp32 -> fp16 at the input boundary: NaN -> +inf, -0 -> +0, then RNE16 (N-1, N-3.1).
uint16_t Fp32ToFp16(uint32_t f);
// fp16 -> fp32 is exact.
uint32_t Fp16ToFp32(uint16_t h);

// For reports and reference checks only (never used to compute a result).
double Fp16ToDouble(uint16_t h);
// RNE (N-0.3) of any non-NaN double to fp16, for fp64 reference lines and generated tables:
// the double's exact value rounded once. Magnitudes of 2^17 and more give inf and below 2^-26
// give +0 (both are far past where every fp16 rounding is decided), so no double leaves
// Exact's range. NaN throws std::invalid_argument: the caller decides what NaN means.
uint16_t DoubleToFp16(double v);
// Position of an fp16 code on the ordered line of codes (+0 and -0 both at 0); the ulp
// distance between two codes is the difference of their positions.
int64_t Fp16OrderedIndex(uint16_t h);

}  // namespace ane::oracle

#endif  // TB_ORACLE_FORMATS_H_
