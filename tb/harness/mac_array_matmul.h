// SPDX-License-Identifier: Apache-2.0
// Matrix multiply on the RTL: y = a [M, K] x b [K, N] through the full 256-lane MAC array
// (Vane_mac_array256_m1 / _m5), for `ane run --engine rtl|both` and the benchmarks.
//
// Mapping (docs/mac_lane.md "Matrix multiply on the array"): each output element is one lane's
// reduction over k in index order (NUMERICS N-2, N-7.2), so the result is the oracle's Matmul
// bit for bit. Lanes take rows of a, the 8 accumulator slots take columns of b:
//   broadcast   lane i <- a[256t + i, k], kernel b[k, n] broadcast, slot j <- column 8g + j;
//   two-kernel  (fp16 x fp16) data value i <- a[128t + i, k] feeds lanes 2i and 2i+1, kernels
//               b[k, n] and b[k, n + 1] to the even and odd lanes: 128 rows x 16 columns per pass.
// Each cycle issues (k, slot) with k outer and the slots inner, `first` at k = 0 and `last` at
// k = K - 1; the mapping with fewer cycles is used (broadcast on a tie).
//   int4 packed (N-2.8, int8 matrices with values -8..7): lane i packs a[1024t + 4i + j, k] in
//               nibble j of its data word, the kernel is b[k, n]'s low nibble, one column per pass
//               on base slot 0 or 4 (alternating). Slot base + j ends with y[1024t + 4i + j, n];
//               the four results leave on the result port, slots base .. base + 3 in consecutive
//               cycles (docs/mac_lane.md, "int4 on the array").
#ifndef TB_HARNESS_MAC_ARRAY_MATMUL_H_
#define TB_HARNESS_MAC_ARRAY_MATMUL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tb/oracle/formats.h"
#include "tb/oracle/mac.h"

namespace ane::harness {

inline constexpr int kArrayLanes = 256;
inline constexpr int kArraySlots = 8;

// A deliberate fault, to check that a comparison can fail (docs/cli.md, ANE_FAULT): the data
// value a[row, k] fed to the RTL has its lowest bit flipped.
struct DataFault {
  int64_t row = -1;
  int64_t k = -1;
  bool active() const { return row >= 0; }
};

struct RtlMatmulOptions {
  bool allow_two_kernel = true;
  bool int4 = false;  // the int4 packed mapping; a and b are int8 with values -8..7
  DataFault fault;
};

struct RtlMatmulStats {
  bool two_kernel = false;
  bool int4 = false;
  uint64_t operations = 0;    // operations accepted by the array (one per cycle at full rate)
  uint64_t stall_cycles = 0;  // cycles an operation waited: passes of fewer than 4 columns
                              // (int4: a pass's first operation, and a last incomplete quad)
  uint64_t cycles = 0;        // from the first operation to the last result
  uint64_t macs = 0;          // M x N x K
  double utilization = 0;     // macs / (256 x cycles); int4: macs / (1024 x cycles)
  double seconds = 0;         // host time of the simulation
};

struct RtlMatmulResult {
  oracle::MatmulResult y;
  std::vector<uint32_t> raw;  // every output's 32-bit accumulator slot, row-major
  RtlMatmulStats stats;
};

// Throws std::invalid_argument when the inner dimensions differ or a matrix is empty, or (int4)
// an operand is not int8 or holds a value outside -8..7.
RtlMatmulResult RtlMatmul(const oracle::Matrix& a, const oracle::Matrix& b, oracle::Generation gen,
                          const RtlMatmulOptions& options = {});

// Where one output element's RTL result first leaves the oracle's: the element's reduction
// is replayed through a single RTL lane (Vane_mac_lane) and the oracle's MacLane, reading the
// slot after every complete quad (N-2.4/N-2.5) and at the output port (N-2.6). int4: the
// element's group of four rows in int4 mode, reading the element's slot.
struct StageReport {
  std::string stage;   // "quad and accumulate (N-2.4, N-2.5)", "output port (N-2.6)", "array"
  std::string detail;  // one line: where and the two values
};
StageReport LocateMismatch(const oracle::Matrix& a, const oracle::Matrix& b, oracle::Generation gen, int64_t row,
                           int64_t col, const DataFault& fault = {}, bool int4 = false);

}  // namespace ane::harness

#endif  // TB_HARNESS_MAC_ARRAY_MATMUL_H_
