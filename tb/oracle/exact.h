// SPDX-License-Identifier: Apache-2.0
// Exact arithmetic for the golden oracle.
//
// Exact holds either +-infinity or a finite binary rational held exactly as a signed
// fixed-point number: magnitude * 2^-kFracBits with a 320-bit magnitude. That covers every
// quantity the datapath can form: fp32 values down to the smallest fp32 denormal (2^-149),
// products of fp16 values (down to 2^-48), and sums up past the fp32 maximum (2^128).
// All operations are integer operations; no host floating point is used for any result.
//
// Zero is unsigned: the engine's zero results are +0 (NUMERICS N-1.2, N-2.7), so an Exact
// zero never carries a sign. Where an IEEE signed zero matters (N-4.1 elementwise results),
// the caller tracks the sign itself.
#ifndef TB_ORACLE_EXACT_H_
#define TB_ORACLE_EXACT_H_

#include <array>
#include <cstdint>
#include <string>

namespace ane::oracle {

class Exact {
 public:
  static constexpr int kLimbs = 5;
  static constexpr int kBits = 64 * kLimbs;
  static constexpr int kFracBits = 160;
  // Largest power-of-two exponent the magnitude can hold without overflow.
  static constexpr int kMaxExponent = kBits - kFracBits - 2;
  static constexpr int kMinExponent = -kFracBits;

  Exact() = default;  // +0

  static Exact Zero() { return Exact(); }
  static Exact Infinity(bool negative);
  // sign * magnitude * 2^exponent; magnitude * 2^exponent must fit the range above.
  static Exact FromInt(bool negative, uint64_t magnitude, int exponent);
  static Exact FromSigned(int64_t value, int exponent = 0);

  bool is_inf() const { return inf_; }
  bool is_zero() const;
  bool is_finite() const { return !inf_; }
  bool negative() const { return neg_; }

  // floor(log2 |x|) for finite nonzero x.
  int Exponent() const;

  Exact Negated() const;
  Exact Abs() const;

  // Exact sum. Infinity rules of the engine (N-2.4, N-2.5, N-4.2): inf + finite = inf,
  // inf + inf (same sign) = inf, inf + (-inf) = +0.
  friend Exact operator+(const Exact& a, const Exact& b);
  friend Exact operator-(const Exact& a, const Exact& b) { return a + b.Negated(); }
  // Exact product of two finite values whose product fits the range (fp16 x fp16, int x int).
  // A zero factor gives +0; inf x nonzero = inf with the product's sign; 0 x inf = +0 (N-2.2).
  friend Exact operator*(const Exact& a, const Exact& b);

  // Three-way comparison of the real values (-inf < finite < +inf). Returns -1, 0, 1.
  static int Compare(const Exact& a, const Exact& b);
  friend bool operator==(const Exact& a, const Exact& b) { return Compare(a, b) == 0; }
  friend bool operator!=(const Exact& a, const Exact& b) { return Compare(a, b) != 0; }
  friend bool operator<(const Exact& a, const Exact& b) { return Compare(a, b) < 0; }

  // Round to the nearest multiple of 2^quantum_exp, ties to even (N-0.3). Infinity passes.
  Exact RoundToQuantum(int quantum_exp) const;
  // True when x is an integer multiple of 2^quantum_exp.
  bool IsMultipleOf(int quantum_exp) const;
  // |x| / 2^quantum_exp for an x that is a multiple of it and whose quotient fits 64 bits.
  uint64_t ScaledMagnitude(int quantum_exp) const;
  // The same for quotients up to 128 bits.
  unsigned __int128 ScaledMagnitude128(int quantum_exp) const;

  // Decimal-free debug text: "+inf", "-inf", "0", or "[-]0x<hex> * 2^-160".
  std::string DebugString() const;

 private:
  using Limbs = std::array<uint64_t, kLimbs>;
  static int CompareMagnitude(const Limbs& a, const Limbs& b);
  static bool AddMagnitude(Limbs& acc, const Limbs& b);  // returns carry out
  static void SubMagnitude(Limbs& acc, const Limbs& b);  // requires acc >= b
  int TopBit() const;                                    // -1 for zero
  bool Bit(int i) const;
  bool AnyBitBelow(int i) const;

  Limbs mag_{};
  bool neg_ = false;
  bool inf_ = false;
};

}  // namespace ane::oracle

#endif  // TB_ORACLE_EXACT_H_
