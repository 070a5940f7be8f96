// SPDX-License-Identifier: Apache-2.0
// Test helpers: fp16 codes from decimal values, computed by the host's own conversion
// (GCC _Float16), so that expected values in tests never come from the oracle.
#ifndef TB_TESTS_FP16_VALUES_H_
#define TB_TESTS_FP16_VALUES_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace ane::test {

// The fp16 code of `v`; throws if `v` is not exactly representable (tests state exact values).
inline uint16_t H(double v) {
  const _Float16 h = static_cast<_Float16>(v);
  if (static_cast<double>(h) != v && !std::isnan(v)) {
    throw std::invalid_argument("H(): " + std::to_string(v) + " is not an fp16 value");
  }
  uint16_t bits;
  std::memcpy(&bits, &h, sizeof(bits));
  return bits;
}

inline _Float16 HostHalf(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, sizeof(bits));
  return h;
}

inline uint16_t HostBits(_Float16 h) {
  uint16_t bits;
  std::memcpy(&bits, &h, sizeof(bits));
  return bits;
}

// `pattern` (exact fp16 values) repeated `times` times, as fp16 codes.
inline std::vector<uint16_t> Repeat(const std::vector<double>& pattern, int times) {
  std::vector<uint16_t> v;
  for (int t = 0; t < times; ++t) {
    for (double x : pattern) v.push_back(H(x));
  }
  return v;
}

// About 2100 codes: every code whose low 6 significand bits are all 0 or all 1 (every sign and
// exponent, with exact, tie and carry patterns), plus the special codes by name.
inline std::vector<uint16_t> DenseFp16Subset() {
  std::vector<uint16_t> s;
  for (uint32_t c = 0; c < 0x10000; ++c) {
    if ((c & 0x3F) == 0x00 || (c & 0x3F) == 0x3F) s.push_back(uint16_t(c));
  }
  const uint16_t specials[] = {
      0x0000,                          // +0 (and -0 with the sign below)
      0x0001, 0x0002, 0x0003, 0x0155,  // smallest denormals, a mid one
      0x03FE, 0x03FF,                  // largest denormals
      0x0400, 0x0401, 0x07FF,          // smallest normals
      0x3BFF, 0x3C00, 0x3C01,          // around 1
      0x4BFF, 0x4C00,                  // 15.99, 16: 65504 + 16 = 65520 is the overflow tie
      0x5BFE, 0x5BFF, 0x5C00,          // around 256: squares around 65520
      0x7BFD, 0x7BFE, 0x7BFF,          // largest normals, 65504
      0x7C00, 0x7C01, 0x7E00, 0x7FFF,  // inf, NaNs
  };
  for (uint16_t c : specials) {
    s.push_back(c);
    s.push_back(uint16_t(c | 0x8000));
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

}  // namespace ane::test

#endif  // TB_TESTS_FP16_VALUES_H_
