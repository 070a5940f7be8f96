// SPDX-License-Identifier: Apache-2.0
// The RTL's operation codes as the testbench writes them to ports and registers. Their source is
// rtl/ane_pkg.sv: each enum here, and each oracle enum whose values cross into the RTL as they
// are (oracle::MacMode, FcUnary, PostAct, ActMode, ActSym), has explicit values that
// tb/harness/rtl_codes.cc checks at compile time against the Verilated package (the enums
// ane_pkg.sv marks /*verilator public*/), so a code changed on one side fails the build.
#ifndef TB_HARNESS_RTL_CODES_H_
#define TB_HARNESS_RTL_CODES_H_

#include <cstdint>

#include "tb/oracle/elementwise.h"
#include "tb/oracle/planar.h"

namespace ane::harness {

// ane_pkg::mac_cmd_e: the MAC lane's commands.
enum class MacCmd : uint8_t { kMac = 0, kLoad = 1, kClear = 2 };

// ane_pkg::pe_ew_op_e: ane_pe_ew's operations.
enum class PeEwOp : uint8_t {
  kAdd = 0,
  kSub = 1,
  kMul = 2,
  kMax = 3,
  kMin = 4,
  kCompare = 5,
  kAbs = 6,
  kNeg = 7,
  kRelu = 8,
  kSquare = 9,
  kMultiplyAdd = 10,
  kAddMultiply = 11,
  kPass = 12,
};

// The contract's result of ane_pe_ew's operation `op` on one lane (N-4.1, N-4.3): the oracle's
// functions by the RTL's operation code.
inline uint16_t EwOracle(PeEwOp op, uint16_t a, uint16_t b, uint16_t c) {
  switch (op) {
    case PeEwOp::kAdd: return oracle::Fp16Add(a, b);
    case PeEwOp::kSub: return oracle::Fp16Sub(a, b);
    case PeEwOp::kMul: return oracle::Fp16Mul(a, b);
    case PeEwOp::kMax: return oracle::Fp16Max(a, b);
    case PeEwOp::kMin: return oracle::Fp16Min(a, b);
    case PeEwOp::kCompare: return oracle::Compare(a, b);
    case PeEwOp::kAbs: return oracle::Fp16Abs(a);
    case PeEwOp::kNeg: return oracle::Fp16Neg(a);
    case PeEwOp::kRelu: return oracle::Fp16Max(a, 0);
    case PeEwOp::kSquare: return oracle::Fp16Square(a);
    case PeEwOp::kMultiplyAdd: return oracle::Ternary(oracle::TernaryOp::kAddMul, a, b, c);
    case PeEwOp::kAddMultiply: return oracle::Ternary(oracle::TernaryOp::kMulAfterAdd, a, b, c);
    case PeEwOp::kPass: return a;
  }
  return 0;
}

// ane_pkg::pe_tree_op_e: the reduction tree's operator (ane_pe_reduce, ane_pe_pool,
// ane_pe_vreduce).
enum class PeTreeOp : uint8_t { kSum = 0, kMax = 1, kMin = 2 };

// ane_pkg::pe_post_op_e: ane_pe_post's exact unary units.
enum class PePostOp : uint8_t { kPass = 0, kSqrt = 1, kRecip = 2, kRsqrt = 3 };

// The tree's operator for a reduction, as the code TreePatch::op and PoolGeometry::op carry.
inline int TreeOp(oracle::ReduceOp op) {
  return int(op == oracle::ReduceOp::kMax   ? PeTreeOp::kMax
             : op == oracle::ReduceOp::kMin ? PeTreeOp::kMin
                                            : PeTreeOp::kSum);
}

// ... and back: the reduction a tree code stands for.
inline oracle::ReduceOp ReduceOfTreeOp(int code) {
  return code == int(PeTreeOp::kMax)   ? oracle::ReduceOp::kMax
         : code == int(PeTreeOp::kMin) ? oracle::ReduceOp::kMin
                                       : oracle::ReduceOp::kSum;
}

}  // namespace ane::harness

#endif  // TB_HARNESS_RTL_CODES_H_
