// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/exact.h"

#include <cstdio>
#include <stdexcept>

namespace ane::oracle {

namespace {
using u128 = unsigned __int128;

[[noreturn]] void RangeError(const char* what) {
  throw std::out_of_range(std::string("Exact: value out of range in ") + what);
}
}  // namespace

Exact Exact::Infinity(bool negative) {
  Exact e;
  e.inf_ = true;
  e.neg_ = negative;
  return e;
}

Exact Exact::FromInt(bool negative, uint64_t magnitude, int exponent) {
  Exact e;
  if (magnitude == 0) return e;
  const int shift = exponent + kFracBits;  // bit position of magnitude's LSB
  if (shift < 0) {
    if (-shift >= 64 || (magnitude & ((uint64_t{1} << -shift) - 1)) != 0) {
      RangeError("FromInt (below 2^-160)");
    }
    magnitude >>= -shift;
    e.mag_[0] = magnitude;
  } else {
    const int top = shift + 63 - __builtin_clzll(magnitude);
    if (top > kBits - 2) RangeError("FromInt (too large)");
    const int limb = shift / 64;
    const int off = shift % 64;
    e.mag_[limb] = magnitude << off;
    if (off != 0 && limb + 1 < kLimbs) e.mag_[limb + 1] = magnitude >> (64 - off);
  }
  e.neg_ = negative;
  return e;
}

Exact Exact::FromSigned(int64_t value, int exponent) {
  const bool neg = value < 0;
  const uint64_t mag = neg ? uint64_t(0) - uint64_t(value) : uint64_t(value);
  return FromInt(neg, mag, exponent);
}

bool Exact::is_zero() const {
  if (inf_) return false;
  for (uint64_t l : mag_) {
    if (l != 0) return false;
  }
  return true;
}

int Exact::TopBit() const {
  for (int i = kLimbs - 1; i >= 0; --i) {
    if (mag_[i] != 0) return 64 * i + 63 - __builtin_clzll(mag_[i]);
  }
  return -1;
}

bool Exact::Bit(int i) const {
  if (i < 0 || i >= kBits) return false;
  return (mag_[i / 64] >> (i % 64)) & 1;
}

bool Exact::AnyBitBelow(int i) const {
  if (i <= 0) return false;
  if (i > kBits) i = kBits;
  const int full = i / 64;
  for (int l = 0; l < full; ++l) {
    if (mag_[l] != 0) return true;
  }
  const int rem = i % 64;
  return rem != 0 && (mag_[full] & ((uint64_t{1} << rem) - 1)) != 0;
}

int Exact::Exponent() const {
  const int top = TopBit();
  if (inf_ || top < 0) throw std::logic_error("Exact::Exponent of zero or infinity");
  return top - kFracBits;
}

Exact Exact::Negated() const {
  Exact e = *this;
  if (!e.is_zero()) e.neg_ = !e.neg_;
  return e;
}

Exact Exact::Abs() const {
  Exact e = *this;
  e.neg_ = false;
  return e;
}

int Exact::CompareMagnitude(const Limbs& a, const Limbs& b) {
  for (int i = kLimbs - 1; i >= 0; --i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

bool Exact::AddMagnitude(Limbs& acc, const Limbs& b) {
  uint64_t carry = 0;
  for (int i = 0; i < kLimbs; ++i) {
    const u128 s = u128(acc[i]) + b[i] + carry;
    acc[i] = uint64_t(s);
    carry = uint64_t(s >> 64);
  }
  return carry != 0;
}

void Exact::SubMagnitude(Limbs& acc, const Limbs& b) {
  uint64_t borrow = 0;
  for (int i = 0; i < kLimbs; ++i) {
    const u128 d = u128(acc[i]) - b[i] - borrow;
    acc[i] = uint64_t(d);
    borrow = uint64_t(d >> 64) & 1;
  }
}

Exact operator+(const Exact& a, const Exact& b) {
  if (a.inf_ || b.inf_) {
    if (a.inf_ && b.inf_ && a.neg_ != b.neg_) return Exact();  // inf + (-inf) = +0
    return a.inf_ ? a : b;
  }
  Exact r;
  if (a.neg_ == b.neg_) {
    r.mag_ = a.mag_;
    r.neg_ = a.neg_;
    if (Exact::AddMagnitude(r.mag_, b.mag_) || r.TopBit() > Exact::kBits - 2) {
      RangeError("operator+");
    }
  } else {
    const int c = Exact::CompareMagnitude(a.mag_, b.mag_);
    if (c == 0) return Exact();
    const Exact& big = c > 0 ? a : b;
    const Exact& small = c > 0 ? b : a;
    r.mag_ = big.mag_;
    r.neg_ = big.neg_;
    Exact::SubMagnitude(r.mag_, small.mag_);
  }
  if (r.is_zero()) r.neg_ = false;
  return r;
}

Exact operator*(const Exact& a, const Exact& b) {
  const bool neg = a.neg_ != b.neg_;
  if (a.inf_ || b.inf_) {
    if (a.is_zero() || b.is_zero()) return Exact();  // 0 x inf = +0
    return Exact::Infinity(neg);
  }
  if (a.is_zero() || b.is_zero()) return Exact();
  // Schoolbook product of the magnitudes, then drop kFracBits (must be exact).
  std::array<uint64_t, 2 * Exact::kLimbs> wide{};
  for (int i = 0; i < Exact::kLimbs; ++i) {
    if (a.mag_[i] == 0) continue;
    uint64_t carry = 0;
    for (int j = 0; j < Exact::kLimbs; ++j) {
      const u128 t = u128(a.mag_[i]) * b.mag_[j] + wide[i + j] + carry;
      wide[i + j] = uint64_t(t);
      carry = uint64_t(t >> 64);
    }
    wide[i + Exact::kLimbs] += carry;
  }
  // Check the bits shifted out are zero (exact product) and the result fits.
  const int drop = Exact::kFracBits;  // 160 = 2 limbs + 32 bits
  const int drop_limbs = drop / 64;
  const int drop_bits = drop % 64;
  for (int l = 0; l < drop_limbs; ++l) {
    if (wide[l] != 0) RangeError("operator* (below 2^-160)");
  }
  if (drop_bits != 0 && (wide[drop_limbs] & ((uint64_t{1} << drop_bits) - 1)) != 0) {
    RangeError("operator* (below 2^-160)");
  }
  Exact r;
  for (int i = 0; i < Exact::kLimbs; ++i) {
    const int src = i + drop_limbs;
    uint64_t v = wide[src] >> drop_bits;
    if (drop_bits != 0 && src + 1 < 2 * Exact::kLimbs) v |= wide[src + 1] << (64 - drop_bits);
    r.mag_[i] = v;
  }
  // Bits above the kept window: the rest of the top kept limb and every limb above it.
  if (drop_bits != 0 && (wide[Exact::kLimbs + drop_limbs] >> drop_bits) != 0) {
    RangeError("operator* (too large)");
  }
  for (int l = Exact::kLimbs + drop_limbs + 1; l < 2 * Exact::kLimbs; ++l) {
    if (wide[l] != 0) RangeError("operator* (too large)");
  }
  if (r.TopBit() > Exact::kBits - 2) RangeError("operator* (too large)");
  r.neg_ = neg;
  return r;
}

int Exact::Compare(const Exact& a, const Exact& b) {
  auto rank = [](const Exact& x) { return x.inf_ ? (x.neg_ ? -1 : 1) : 0; };
  const int ra = rank(a);
  const int rb = rank(b);
  if (ra != 0 || rb != 0) return ra == rb ? 0 : (ra < rb ? -1 : 1);
  const bool za = a.is_zero();
  const bool zb = b.is_zero();
  const int sa = za ? 0 : (a.neg_ ? -1 : 1);
  const int sb = zb ? 0 : (b.neg_ ? -1 : 1);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  const int m = CompareMagnitude(a.mag_, b.mag_);
  return sa > 0 ? m : -m;
}

Exact Exact::RoundToQuantum(int quantum_exp) const {
  if (inf_) return *this;
  const int pos = quantum_exp + kFracBits;  // bit index of one quantum
  if (pos <= 0) return *this;               // every representable value is a multiple
  if (pos >= kBits - 1) RangeError("RoundToQuantum");
  const bool half = Bit(pos - 1);
  const bool rest = AnyBitBelow(pos - 1);
  const bool lsb = Bit(pos);
  Exact r = *this;
  // Clear every bit below pos.
  for (int l = 0; l < kLimbs; ++l) {
    const int lo = 64 * l;
    if (lo + 64 <= pos) {
      r.mag_[l] = 0;
    } else if (lo < pos) {
      r.mag_[l] &= ~((uint64_t{1} << (pos - lo)) - 1);
    }
  }
  if (half && (rest || lsb)) {
    Limbs one{};
    one[pos / 64] = uint64_t{1} << (pos % 64);
    if (AddMagnitude(r.mag_, one) || r.TopBit() > kBits - 2) RangeError("RoundToQuantum");
  }
  if (r.is_zero()) r.neg_ = false;
  return r;
}

bool Exact::IsMultipleOf(int quantum_exp) const {
  if (inf_) return false;
  return !AnyBitBelow(quantum_exp + kFracBits);
}

uint64_t Exact::ScaledMagnitude(int quantum_exp) const {
  const unsigned __int128 v = ScaledMagnitude128(quantum_exp);
  if ((v >> 64) != 0) RangeError("ScaledMagnitude");
  return uint64_t(v);
}

unsigned __int128 Exact::ScaledMagnitude128(int quantum_exp) const {
  if (inf_ || !IsMultipleOf(quantum_exp)) throw std::logic_error("ScaledMagnitude128: not a multiple");
  const int pos = quantum_exp + kFracBits;
  if (TopBit() - pos >= 128) RangeError("ScaledMagnitude128");
  unsigned __int128 v = 0;
  for (int i = std::max(pos, 0); i <= TopBit(); ++i) {
    if (Bit(i)) v |= static_cast<unsigned __int128>(1) << (i - pos);
  }
  return v;
}

std::string Exact::DebugString() const {
  if (inf_) return neg_ ? "-inf" : "+inf";
  if (is_zero()) return "0";
  std::string s = neg_ ? "-0x" : "0x";
  bool started = false;
  char buf[20];
  for (int i = kLimbs - 1; i >= 0; --i) {
    if (!started && mag_[i] == 0) continue;
    std::snprintf(buf, sizeof(buf), started ? "%016llx" : "%llx", static_cast<unsigned long long>(mag_[i]));
    s += buf;
    started = true;
  }
  return s + " * 2^-160";
}

}  // namespace ane::oracle
