// SPDX-License-Identifier: Apache-2.0
// Lane i's slice of a wide Verilator port (a VlWide of 32-bit words, or a port of 32 bits or
// fewer): `bits` bits at bit i x bits. For the tests that drive the lane arrays.
#ifndef TB_TESTS_WIDE_PORT_H_
#define TB_TESTS_WIDE_PORT_H_

#include <verilated.h>

#include <cstddef>
#include <cstdint>

namespace ane::test {

template <size_t N>
uint32_t Get(const VlWide<N>& w, int bits, int i) {
  uint32_t v = 0;
  for (int b = 0; b < bits; ++b) {
    const int k = i * bits + b;
    v |= ((w[size_t(k / 32)] >> (k % 32)) & 1u) << b;
  }
  return v;
}
inline uint32_t Get(uint32_t w, int bits, int i) { return (w >> (i * bits)) & ((1u << bits) - 1); }

template <size_t N>
void Set(VlWide<N>& w, int bits, int i, uint32_t v) {
  for (int b = 0; b < bits; ++b) {
    const int k = i * bits + b;
    const uint32_t mask = 1u << (k % 32);
    w[size_t(k / 32)] = (w[size_t(k / 32)] & ~mask) | (((v >> b) & 1u) << (k % 32));
  }
}

}  // namespace ane::test

#endif  // TB_TESTS_WIDE_PORT_H_
