// The planar engine's RTL for `ane --engine rtl|both`: elementwise operations through a 16-lane
// ane_pe_ew (docs/planar.md), 16 values per vector at full rate.
#ifndef TB_HARNESS_PLANAR_RUN_H_
#define TB_HARNESS_PLANAR_RUN_H_

#include <cstdint>
#include <vector>

namespace ane::harness {

inline constexpr int kPlanarLanes = 16;

// ane_pe_ew's operation codes (rtl/ane_pe_ew.sv).
enum class PeEwOp : uint8_t {
  kAdd = 0, kSub = 1, kMul = 2, kMax = 3, kMin = 4, kCompare = 5, kAbs = 6, kNeg = 7,
  kRelu = 8, kSquare = 9, kMultiplyAdd = 10, kAddMultiply = 11,
};

struct RtlPlanarStats {
  int64_t vectors = 0;
  uint64_t cycles = 0;  // from the first vector in to the last result out
};

// y[i] = op(a[i], b[i], c[i]); b and c may be empty for operations that do not read them.
std::vector<uint16_t> RtlElementwise(PeEwOp op, const std::vector<uint16_t>& a,
                                     const std::vector<uint16_t>& b,
                                     const std::vector<uint16_t>& c, RtlPlanarStats* stats = nullptr);

}  // namespace ane::harness

#endif  // TB_HARNESS_PLANAR_RUN_H_
