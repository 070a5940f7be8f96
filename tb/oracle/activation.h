// SPDX-License-Identifier: Apache-2.0
// Activation lookup tables (NUMERICS N-5) and their evaluation, exactly as the post-processor
// performs it. docs/postproc.md is the specification this file implements; in short:
//
//   x  = N-1 boundary of the input (NaN -> +inf, -0 -> +0)
//   special inputs first: +inf -> at_pinf, -inf -> at_ninf, +0 -> at_zero (if enabled),
//                         negative -> at_neg (if enabled)
//   symmetry: odd / even tables work on |x|; an odd table negates a nonzero result for x < 0
//   argument (mode):
//     direct  t = x
//     exp2    v = mul(x, k); n = floor(v); t = sub(v, n)          result = ldexp(T(t), n)
//     trig    u = mul(|x|, k); q = floor(u) (+1 for cos); f = u - floor(u);
//             t = q odd ? sub(1, f) : f                            result = q & 2 ? -T(t) : T(t)
//     log     x = 2^e * m, m in [1, 2); t = m                      result = mul(add(e, T(t)), k)
//     pow     x = 2^e * m; split: e odd -> m *= 2, e -= 1; t = m  result = ldexp(T(t), g),
//             g = (split ? e / 2 : e) * (negate ? -1 : 1)
//   T(t): t < lo -> left; t >= hi = lo + 32 * 2^step_log2 -> right (or t itself when
//         right_identity); else i = floor((t - lo) / 2^step_log2), T = add(mul(m[i], t), c[i])
//
// mul, add and sub are the IEEE fp16 operations of N-4.1 (RNE, denormals kept); ldexp is an
// exact scaling by a power of two followed by one RNE16 with gradual underflow and overflow to
// inf. Every table result is computed with integer arithmetic (Exact); no host floating point
// touches a result. The table data (tb/oracle/act_tables.inc) is written by the table
// generator (tb/tools/ane_tablegen.cc, `make tables`); the RTL is loaded with the same data.
#ifndef TB_ORACLE_ACTIVATION_H_
#define TB_ORACLE_ACTIVATION_H_

#include <array>
#include <cstdint>
#include <string>

namespace ane::oracle {

enum class ActFn {
  kSigmoid,
  kTanh,
  kGelu,
  kSilu,
  kErf,
  kExp,
  kSoftplus,
  kSoftsign,
  kSin,
  kCos,
  kLog,
  kRecip,
  kRsqrt,
  kSqrt
};
inline constexpr ActFn kAllActFns[] = {ActFn::kSigmoid, ActFn::kTanh,     ActFn::kGelu,     ActFn::kSilu, ActFn::kErf,
                                       ActFn::kExp,     ActFn::kSoftplus, ActFn::kSoftsign, ActFn::kSin,  ActFn::kCos,
                                       ActFn::kLog,     ActFn::kRecip,    ActFn::kRsqrt,    ActFn::kSqrt};
inline constexpr int kNumActFns = 14;

const char* ActFnName(ActFn fn);
// Accepts the names above plus the alias "swish" for silu. Returns false for anything else.
bool ParseActFn(const std::string& name, ActFn* out);

// The exact function in fp64 (host libm): the reference of the accuracy tests and the
// generator's target. Never used to compute an engine result.
double ActReference(ActFn fn, double x);

// The worst error of each default table over every finite fp16 input that the project states
// and its tests enforce (N-5.3; docs/postproc.md "Accuracy"): an absolute error, or (ulps) fp16
// ulps of the exact result; it holds for |x| <= domain (sin and cos: 8; else every input).
struct ActBound {
  bool ulps = false;
  double bound = 0;
  double domain = 0;
};
ActBound StatedActBound(ActFn fn);

// (values: the RTL's codes too, ane_pkg::act_mode_e and act_sym_e; tb/harness/rtl_codes.cc)
enum class ActMode : uint8_t { kDirect = 0, kExp2 = 1, kTrig = 2, kLog = 3, kPow = 4 };
enum class ActSym : uint8_t { kNone = 0, kOdd = 1, kEven = 2 };

inline constexpr int kActSegments = 32;  // 33 knots (N-5.1)

// One table as the configuration port loads it (docs/postproc.md gives the register map).
struct ActTable {
  ActMode mode = ActMode::kDirect;
  ActSym sym = ActSym::kNone;
  uint16_t lo = 0;              // fp16: the first knot
  int step_log2 = 0;            // segment width 2^step_log2, -8 .. 7
  uint16_t k = 0x3C00;          // fp16 constant: exp2 / trig pre-multiplier, log post-multiplier
  bool cos_phase = false;       // trig: add one quadrant (cos)
  bool pow_split = false;       // pow: even-exponent split (sqrt, rsqrt)
  bool pow_negate = false;      // pow: negate the exponent (recip, rsqrt)
  uint16_t left = 0;            // T(t) for t < lo
  uint16_t right = 0;           // T(t) for t >= hi
  bool right_identity = false;  // T(t) = t for t >= hi (gelu, silu, softplus)
  uint16_t at_pinf = 0;         // result for +inf (and NaN, N-1.1)
  uint16_t at_ninf = 0;         // result for -inf
  bool zero_en = false;
  uint16_t at_zero = 0;  // result for +0 (and -0, N-1.2) when zero_en
  bool neg_en = false;
  uint16_t at_neg = 0;                     // result for every negative input when neg_en
  std::array<uint16_t, kActSegments> m{};  // fp16 slopes
  std::array<uint16_t, kActSegments> c{};  // fp16 intercepts
};

// The default table of each function (generated data, N-5.2).
const ActTable& DefaultActTable(ActFn fn);

// Step 3 of the table generator (N-5.1, tb/tools/ane_tablegen.cc): per segment s of a table's
// knots x_i = lo + i 2^step_log2, m = RNE16((y_{s+1} - y_s) / h) and c = RNE16(ybar - m xbar) at
// the segment's midpoint. y: the 33 knot values. Also used for tables read from .hwx programs.
void ActSegmentsFromKnots(ActTable* table, const double* y);

// Evaluates a table on an fp16 input code (N-5.1, N-5.4).
uint16_t EvalActTable(const ActTable& table, uint16_t x);

// T(t) alone: the clamp and the segment evaluation on an fp16 argument t (no specials, no
// symmetry, no range reduction). Exposed for the generator and the tests.
uint16_t EvalActSegments(const ActTable& table, uint16_t t);

// RNE16 of h * 2^n with gradual underflow and overflow to inf (h any non-NaN code).
uint16_t Fp16Ldexp(uint16_t h, int n);

}  // namespace ane::oracle

#endif  // TB_ORACLE_ACTIVATION_H_
