// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/formats.h"

#include <cmath>
#include <stdexcept>

namespace ane::oracle {

const char* GenerationName(Generation g) { return g == Generation::kM1 ? "m1" : "m5"; }

bool ParseGeneration(const std::string& text, Generation* out) {
  if (text == "m1") {
    *out = Generation::kM1;
  } else if (text == "m5") {
    *out = Generation::kM5;
  } else {
    return false;
  }
  return true;
}

bool Fp16IsNan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; }
bool Fp16IsInf(uint16_t h) { return (h & 0x7FFF) == 0x7C00; }
bool Fp16IsZero(uint16_t h) { return (h & 0x7FFF) == 0; }
bool Fp16IsDenormal(uint16_t h) { return (h & 0x7C00) == 0 && (h & 0x03FF) != 0; }
bool Fp32IsNan(uint32_t f) { return (f & 0x7F800000u) == 0x7F800000u && (f & 0x007FFFFFu) != 0; }

uint16_t InputBoundary(uint16_t h) {
  if (Fp16IsNan(h)) return kFp16PosInf;  // N-1.1
  if (h == 0x8000) return 0x0000;        // N-1.2
  return h;                              // N-1.3: denormals pass
}

namespace {

Exact DecodeBinary(uint64_t bits, const FloatFormat& fmt) {
  const int man_bits = fmt.sig_bits - 1;
  const uint64_t man_mask = (uint64_t{1} << man_bits) - 1;
  const uint64_t exp_mask = (uint64_t{1} << fmt.exp_bits) - 1;
  const bool neg = (bits >> (man_bits + fmt.exp_bits)) & 1;
  const uint64_t e = (bits >> man_bits) & exp_mask;
  const uint64_t m = bits & man_mask;
  if (e == exp_mask) {
    if (m != 0) throw std::invalid_argument("DecodeBinary: NaN has no value");
    return Exact::Infinity(neg);
  }
  if (e == 0) return Exact::FromInt(neg, m, fmt.emin() - man_bits);
  return Exact::FromInt(neg, m | (uint64_t{1} << man_bits), int(e) - fmt.bias - man_bits);
}

}  // namespace

Exact DecodeFp16(uint16_t h) { return DecodeBinary(h, kFp16); }
Exact DecodeFp32(uint32_t f) { return DecodeBinary(f, kFp32); }

Exact RoundToFormat(const Exact& x, const FloatFormat& fmt) {
  if (x.is_inf() || x.is_zero()) return x;
  const int e = std::max(x.Exponent(), fmt.emin());
  const Exact r = x.RoundToQuantum(e - (fmt.sig_bits - 1));
  if (!r.is_zero() && r.Exponent() > fmt.emax()) return Exact::Infinity(x.negative());
  return r;
}

uint64_t EncodeRounded(const Exact& r, const FloatFormat& fmt, bool negative_zero) {
  const int man_bits = fmt.sig_bits - 1;
  const uint64_t exp_mask = (uint64_t{1} << fmt.exp_bits) - 1;
  const uint64_t sign_bit = uint64_t{1} << (man_bits + fmt.exp_bits);
  if (r.is_zero()) return negative_zero ? sign_bit : 0;
  const uint64_t sign = r.negative() ? sign_bit : 0;
  if (r.is_inf()) return sign | (exp_mask << man_bits);
  const int e = r.Exponent();
  if (e < fmt.emin()) {
    return sign | r.ScaledMagnitude(fmt.emin() - man_bits);  // denormal
  }
  if (e > fmt.emax()) throw std::logic_error("EncodeRounded: value not rounded to the format");
  const uint64_t sig = r.ScaledMagnitude(e - man_bits);
  return sign | (uint64_t(e + fmt.bias) << man_bits) | (sig & ((uint64_t{1} << man_bits) - 1));
}

uint16_t RoundToFp16(const Exact& x, bool negative_zero) {
  return uint16_t(EncodeRounded(RoundToFormat(x, kFp16), kFp16, negative_zero));
}

uint32_t RoundToFp32(const Exact& x) { return uint32_t(EncodeRounded(RoundToFormat(x, kFp32), kFp32)); }

uint16_t Fp32ToFp16(uint32_t f) {
  if (Fp32IsNan(f)) return kFp16PosInf;
  if (f == 0x80000000u) return 0;
  return RoundToFp16(DecodeFp32(f));
}

uint32_t Fp16ToFp32(uint16_t h) {
  if (Fp16IsNan(h)) return 0x7FC00000u | (uint32_t(h & 0x8000) << 16) | (uint32_t(h & 0x3FF) << 13);
  if (h == 0x8000) return 0x80000000u;
  return RoundToFp32(DecodeFp16(h));
}

uint16_t DoubleToFp16(double v) {
  if (std::isnan(v)) throw std::invalid_argument("DoubleToFp16: NaN has no fp16 rounding");
  const bool neg = std::signbit(v);
  const double a = std::fabs(v);
  // fp16 overflows to inf from 65520 = 2^16 - 2^4 up, and everything below half the smallest
  // denormal (2^-25) rounds to zero: clamping outside [2^-26, 2^17) changes no result.
  if (a >= 0x1p17) return neg ? kFp16NegInf : kFp16PosInf;
  if (a < 0x1p-26) return 0;
  int e = 0;
  const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  return RoundToFp16(Exact::FromInt(neg, uint64_t(std::ldexp(m, 53)), e - 53));
}

double Fp16ToDouble(uint16_t h) {
  const bool neg = h & 0x8000;
  const int e = (h >> 10) & 0x1F;
  const int m = h & 0x3FF;
  double v;
  if (e == 0x1F) {
    v = m ? NAN : INFINITY;
  } else if (e == 0) {
    v = std::ldexp(double(m), -24);
  } else {
    v = std::ldexp(double(m | 0x400), e - 25);
  }
  return neg ? -v : v;
}

int64_t Fp16OrderedIndex(uint16_t h) {
  // Monotonic map of the codes onto integers: +0 and -0 both map to 0.
  const int64_t mag = h & 0x7FFF;
  return (h & 0x8000) ? -mag : mag;
}

}  // namespace ane::oracle
