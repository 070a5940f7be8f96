// SPDX-License-Identifier: Apache-2.0
// Compile-time checks: every code the testbench writes into the RTL equals the RTL's own, read
// from the Verilated package (rtl/ane_pkg.sv's public enums, emitted into each model that uses
// ane_pkg; the core's has them all). A mismatch fails the build, naming the code.
#include "tb/harness/rtl_codes.h"

#include "Vane_core8_m1_ane_pkg.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/mac.h"
#include "tb/oracle/planar.h"
#include "tb/oracle/postproc.h"

namespace ane::harness {
namespace {

using Pkg = Vane_core8_m1_ane_pkg;

template <class E>
constexpr unsigned Code(E e) {
  return static_cast<unsigned>(e);
}

static_assert(Code(MacCmd::kMac) == Pkg::CmdMac);
static_assert(Code(MacCmd::kLoad) == Pkg::CmdLoad);
static_assert(Code(MacCmd::kClear) == Pkg::CmdClear);

static_assert(Code(oracle::MacMode::kFp16) == Pkg::ModeFp16);
static_assert(Code(oracle::MacMode::kInt8) == Pkg::ModeInt8);
static_assert(Code(oracle::MacMode::kInt8xFp16) == Pkg::ModeI8xF16);
static_assert(Code(oracle::MacMode::kFp16xInt8) == Pkg::ModeF16xI8);
static_assert(Code(oracle::MacMode::kInt4) == Pkg::ModeInt4);
static_assert(Code(oracle::MacMode::kCmpMax) == Pkg::ModeCmpMax);
static_assert(Code(oracle::MacMode::kCmpMin) == Pkg::ModeCmpMin);

static_assert(Code(PeEwOp::kAdd) == Pkg::PeEwAdd);
static_assert(Code(PeEwOp::kSub) == Pkg::PeEwSub);
static_assert(Code(PeEwOp::kMul) == Pkg::PeEwMul);
static_assert(Code(PeEwOp::kMax) == Pkg::PeEwMax);
static_assert(Code(PeEwOp::kMin) == Pkg::PeEwMin);
static_assert(Code(PeEwOp::kCompare) == Pkg::PeEwCmp);
static_assert(Code(PeEwOp::kAbs) == Pkg::PeEwAbs);
static_assert(Code(PeEwOp::kNeg) == Pkg::PeEwNeg);
static_assert(Code(PeEwOp::kRelu) == Pkg::PeEwRelu);
static_assert(Code(PeEwOp::kSquare) == Pkg::PeEwSquare);
static_assert(Code(PeEwOp::kPass) == Pkg::PeEwPass);
static_assert(Code(PeEwOp::kMultiplyAdd) == Pkg::PeEwAddMul);
static_assert(Code(PeEwOp::kAddMultiply) == Pkg::PeEwMulAfterAdd);

static_assert(Code(PeTreeOp::kSum) == Pkg::PeTreeSum);
static_assert(Code(PeTreeOp::kMax) == Pkg::PeTreeMax);
static_assert(Code(PeTreeOp::kMin) == Pkg::PeTreeMin);

static_assert(Code(PePostOp::kPass) == Pkg::PePostPass);
static_assert(Code(PePostOp::kSqrt) == Pkg::PePostSqrt);
static_assert(Code(PePostOp::kRecip) == Pkg::PePostRecip);
static_assert(Code(PePostOp::kRsqrt) == Pkg::PePostRsqrt);

static_assert(Code(oracle::FcUnary::kNone) == Pkg::PeFcNone);
static_assert(Code(oracle::FcUnary::kAbs) == Pkg::PeFcAbs);
static_assert(Code(oracle::FcUnary::kNeg) == Pkg::PeFcNeg);
static_assert(Code(oracle::FcUnary::kRelu) == Pkg::PeFcRelu);

static_assert(Code(oracle::PostAct::kNone) == Pkg::PpActNone);
static_assert(Code(oracle::PostAct::kRelu) == Pkg::PpActRelu);
static_assert(Code(oracle::PostAct::kTable) == Pkg::PpActTable);

static_assert(Code(oracle::ActMode::kDirect) == Pkg::ActDirect);
static_assert(Code(oracle::ActMode::kExp2) == Pkg::ActExp2);
static_assert(Code(oracle::ActMode::kTrig) == Pkg::ActTrig);
static_assert(Code(oracle::ActMode::kLog) == Pkg::ActLog);
static_assert(Code(oracle::ActMode::kPow) == Pkg::ActPow);
static_assert(Code(oracle::ActSym::kNone) == Pkg::ActSymNone);
static_assert(Code(oracle::ActSym::kOdd) == Pkg::ActSymOdd);
static_assert(Code(oracle::ActSym::kEven) == Pkg::ActSymEven);

}  // namespace
}  // namespace ane::harness
