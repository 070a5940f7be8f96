// Test helpers: fp16 codes from decimal values, computed by the host's own conversion
// (GCC _Float16), so that expected values in tests never come from the oracle.
#ifndef TB_TESTS_FP16_VALUES_H_
#define TB_TESTS_FP16_VALUES_H_

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

}  // namespace ane::test

#endif  // TB_TESTS_FP16_VALUES_H_
