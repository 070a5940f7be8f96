// SPDX-License-Identifier: Apache-2.0
// Random MAC-path stimulus shared by the oracle property test and the RTL tests: fp16 operands
// that exercise the quad stage (cancellations of an anchor, ties next to it, denormals,
// infinities and NaN, values near the 32768 port ceiling) and fp32 accumulator values.
#ifndef TB_TESTS_MAC_STIMULUS_H_
#define TB_TESTS_MAC_STIMULUS_H_

#include <cstdint>

#include "tb/tests/test_seed.h"

namespace ane::test {

inline uint16_t RandomOperand(Rng& rng, uint16_t anchor) {
  switch (rng.Below(16)) {
    case 0: return rng.Code();                                     // anything, NaN included
    case 1: return uint16_t(rng.Code() & 0x83FF);                  // denormals and zeros
    case 2: return uint16_t(anchor ^ 0x8000);                      // cancels the anchor
    case 3: return uint16_t(anchor + rng.Below(5) - 2);            // near the anchor
    case 4: return 0x3C00;                                         // one
    case 5: return uint16_t(0x3C00 | (rng.Below(2) << 15));        // +-1
    case 6: return uint16_t((rng.Code() & 0x87FF) | 0x3800);       // in [0.5, 2)
    case 7: return uint16_t(0x7400 + rng.Below(0x400));            // near 16384..32768
    case 8: return uint16_t(rng.Below(3) == 0 ? 0x7C00 : 0xFC00);  // infinities
    case 9: {                                                      // NaN or a signed zero
      const uint16_t sign = uint16_t(rng.Below(2) << 15);
      return rng.Below(2) ? uint16_t(sign | (0x7C01 + rng.Below(0x3FF))) : sign;
    }
    default: return uint16_t((rng.Code() & 0x9FFF) | 0x2000);  // moderate magnitudes
  }
}

// fp32 accumulator contents: zeros, denormals, the whole exponent range, values around the
// 32760 ceiling threshold and the fp16 overflow limit, infinities and NaN.
inline uint32_t RandomAcc(Rng& rng) {
  const uint32_t r = uint32_t(rng.Next());
  const uint32_t sign = r & 0x80000000u;
  switch (rng.Below(10)) {
    case 0: return sign;                                                               // zero
    case 1: return sign | (r & 0x007FFFFFu);                                           // denormal
    case 2: return r;                                                                  // anything
    case 3: return sign | (0x46FFF000u + rng.Below(0x2000) - 0x1000);                  // around 32760
    case 4: return sign | (0x477FE000u + rng.Below(0x4000) - 0x2000);                  // around 65520
    case 5: return sign | 0x7F800000u | (rng.Below(4) == 0 ? (r & 0x7FFFFFu) : 0);     // inf / NaN
    case 6: return sign | ((uint32_t(60 + rng.Below(40)) << 23) | (r & 0x7FFFFFu));    // tiny
    default: return sign | ((uint32_t(100 + rng.Below(50)) << 23) | (r & 0x7FFFFFu));  // MAC range
  }
}

}  // namespace ane::test

#endif  // TB_TESTS_MAC_STIMULUS_H_
