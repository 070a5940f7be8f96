// SPDX-License-Identifier: Apache-2.0
// ane_tablegen: the one table generator (NUMERICS N-5.1, N-5.2). Writes the default activation
// tables as C++ (tb/oracle/act_tables.inc, checked in; `make tables` regenerates it) and prints
// each table's worst error over all finite fp16 inputs. The RTL gets the same data through its
// configuration port (loaded by the testbench and by `ane` from the oracle's tables).
//
// Method (docs/postproc.md):
//   1. knots x_i = lo + i * h, i = 0..32, h = 2^step_log2;
//   2. knot values y_i: sampled tables take the exact function, y_i = T(x_i); fitted tables
//      (tanh, gelu, silu, softplus, softsign) minimise the worst absolute error of the
//      continuous piecewise-linear curve through the knots over every fp16 input in the domain,
//      by cyclic coordinate descent (each knot in turn set to the value that minimises the worst
//      error of its two segments, a convex problem solved by ternary search), 150 sweeps; a knot
//      at x = 0 where f(0) = 0 keeps that value, so the origin bias is only the rounding of the fp16
//      evaluation (N-5.4);
//   3. per segment, m = RNE16((y_{i+1} - y_i) / h) and c = RNE16(ybar - m * xbar) where xbar and
//      ybar are the segment's midpoint and the chord's value there.
// T is the function the table stores (after range reduction): e.g. 2^t for exp, sin(pi t / 2)
// for sin and cos, log2(t) for log, 1/t, 1/sqrt(t), sqrt(t) for the pow tables.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "tb/oracle/activation.h"
#include "tb/oracle/exact.h"
#include "tb/oracle/formats.h"

namespace {

using ane::oracle::ActFn;
using ane::oracle::ActMode;
using ane::oracle::ActSym;
using ane::oracle::ActTable;

using ane::oracle::DoubleToFp16;

double Fp16(uint16_t h) { return ane::oracle::Fp16ToDouble(h); }

struct Recipe {
  ActFn fn;
  ActTable base;                    // everything but m and c
  std::function<double(double)> t;  // the function the segments store
  bool fitted;
};

ActTable Base(ActMode mode, ActSym sym, double lo, int step_log2) {
  ActTable t;
  t.mode = mode;
  t.sym = sym;
  t.lo = DoubleToFp16(lo);
  t.step_log2 = step_log2;
  return t;
}

constexpr uint16_t kZero = 0x0000, kOne = 0x3C00, kMinusOne = 0xBC00, kInf = 0x7C00;

std::vector<Recipe> Recipes() {
  using ane::oracle::ActReference;
  std::vector<Recipe> r;
  auto f = [](ActFn fn) { return [fn](double x) { return ActReference(fn, x); }; };
  {  // sigmoid on [-8, 8], step 0.5, exact samples
    ActTable t = Base(ActMode::kDirect, ActSym::kNone, -8, -1);
    t.left = kZero;
    t.right = kOne;
    t.at_pinf = kOne;
    t.at_ninf = kZero;
    r.push_back({ActFn::kSigmoid, t, f(ActFn::kSigmoid), false});
  }
  {  // tanh on [0, 4], step 1/8, odd
    ActTable t = Base(ActMode::kDirect, ActSym::kOdd, 0, -3);
    t.right = kOne;
    t.at_pinf = kOne;
    t.at_ninf = kMinusOne;
    r.push_back({ActFn::kTanh, t, f(ActFn::kTanh), true});
  }
  {  // gelu on [-4, 4], step 1/4; gelu(x) -> x above the domain
    ActTable t = Base(ActMode::kDirect, ActSym::kNone, -4, -2);
    t.left = kZero;
    t.right_identity = true;
    t.at_pinf = kInf;
    t.at_ninf = kZero;
    r.push_back({ActFn::kGelu, t, f(ActFn::kGelu), true});
  }
  {  // silu (swish) on [-8, 8], step 1/2
    ActTable t = Base(ActMode::kDirect, ActSym::kNone, -8, -1);
    t.left = kZero;
    t.right_identity = true;
    t.at_pinf = kInf;
    t.at_ninf = kZero;
    r.push_back({ActFn::kSilu, t, f(ActFn::kSilu), true});
  }
  {  // erf on [0, 2], step 1/16, odd, exact samples
    ActTable t = Base(ActMode::kDirect, ActSym::kOdd, 0, -4);
    t.right = kOne;
    t.at_pinf = kOne;
    t.at_ninf = kMinusOne;
    r.push_back({ActFn::kErf, t, f(ActFn::kErf), false});
  }
  {  // exp = 2^(x log2 e): the table holds 2^t on [0, 1] (knots 2^(i/32))
    ActTable t = Base(ActMode::kExp2, ActSym::kNone, 0, -5);
    t.k = DoubleToFp16(1.0 / std::log(2.0));
    t.left = kOne;
    t.right = 0x4000;
    t.at_pinf = kInf;
    t.at_ninf = kZero;
    r.push_back({ActFn::kExp, t, [](double x) { return std::exp2(x); }, false});
  }
  {  // softplus on [-8, 8], step 1/2; softplus(x) -> x above; +inf collapses to +0 (N-5.4)
    ActTable t = Base(ActMode::kDirect, ActSym::kNone, -8, -1);
    t.left = kZero;
    t.right_identity = true;
    t.at_pinf = kZero;
    t.at_ninf = kZero;
    r.push_back({ActFn::kSoftplus, t, f(ActFn::kSoftplus), true});
  }
  {  // softsign on [0, 16], step 1/2, odd; +inf collapses to +0 (N-5.4), -inf likewise
    ActTable t = Base(ActMode::kDirect, ActSym::kOdd, 0, -1);
    t.right = kOne;
    t.at_pinf = kZero;
    t.at_ninf = kZero;
    r.push_back({ActFn::kSoftsign, t, f(ActFn::kSoftsign), true});
  }
  const auto quarter_sine = [](double x) { return std::sin(M_PI / 2 * x); };
  {  // sin over a quarter period: u = |x| * 2/pi, the table holds sin(pi t / 2) on [0, 1]
    ActTable t = Base(ActMode::kTrig, ActSym::kOdd, 0, -5);
    t.k = DoubleToFp16(2.0 / M_PI);
    t.right = kOne;
    t.at_pinf = kZero;
    t.at_ninf = kZero;
    r.push_back({ActFn::kSin, t, quarter_sine, false});
  }
  {  // cos: the sine table one quadrant on, even
    ActTable t = Base(ActMode::kTrig, ActSym::kEven, 0, -5);
    t.k = DoubleToFp16(2.0 / M_PI);
    t.cos_phase = true;
    t.right = kOne;
    t.at_pinf = kZero;
    t.at_ninf = kZero;
    r.push_back({ActFn::kCos, t, quarter_sine, false});
  }
  {  // log = (e + log2 m) * ln 2; log(+0) = -65504 sentinel, log(negative) = +0
    ActTable t = Base(ActMode::kLog, ActSym::kNone, 1, -5);
    t.k = DoubleToFp16(std::log(2.0));
    t.left = kZero;
    t.right = kOne;
    t.at_pinf = kInf;
    t.at_ninf = kZero;
    t.zero_en = true;
    t.at_zero = 0xFBFF;
    t.neg_en = true;
    t.at_neg = kZero;
    r.push_back({ActFn::kLog, t, [](double x) { return std::log2(x); }, false});
  }
  {  // recip = 2^-e / m, odd
    ActTable t = Base(ActMode::kPow, ActSym::kOdd, 1, -5);
    t.pow_negate = true;
    t.left = kOne;
    t.right = 0x3800;
    t.at_pinf = kZero;
    t.at_ninf = kZero;
    t.zero_en = true;
    t.at_zero = kInf;
    r.push_back({ActFn::kRecip, t, [](double x) { return 1.0 / x; }, false});
  }
  {  // rsqrt = 2^(-e/2) / sqrt(m), m in [1, 4) after the even split; domain [1, 5]
    ActTable t = Base(ActMode::kPow, ActSym::kNone, 1, -3);
    t.pow_split = true;
    t.pow_negate = true;
    t.left = kOne;
    t.right = 0x3800;
    t.at_pinf = kZero;
    t.at_ninf = kZero;
    t.zero_en = true;
    t.at_zero = kInf;
    t.neg_en = true;
    t.at_neg = kZero;
    r.push_back({ActFn::kRsqrt, t, [](double x) { return 1.0 / std::sqrt(x); }, false});
  }
  {  // sqrt = 2^(e/2) sqrt(m)
    ActTable t = Base(ActMode::kPow, ActSym::kNone, 1, -3);
    t.pow_split = true;
    t.left = kOne;
    t.right = 0x4000;
    t.at_pinf = kInf;
    t.at_ninf = kZero;
    t.zero_en = true;
    t.at_zero = kZero;
    t.neg_en = true;
    t.at_neg = kZero;
    r.push_back({ActFn::kSqrt, t, [](double x) { return std::sqrt(x); }, false});
  }
  return r;
}

// Every fp16 value in [lo, hi) with the segment it falls in.
struct Point {
  double x, y;
  int seg;
};

std::vector<Point> DomainPoints(const ActTable& t, const std::function<double(double)>& f) {
  const double lo = Fp16(t.lo), h = std::ldexp(1.0, t.step_log2);
  std::vector<Point> pts;
  for (uint32_t code = 0; code < 0x10000; ++code) {
    if (((code >> 10) & 0x1F) == 0x1F || code == 0x8000) continue;
    const double x = Fp16(uint16_t(code));
    if (x < lo || x >= lo + 32 * h) continue;
    int seg = int(std::floor((x - lo) / h));
    pts.push_back({x, f(x), seg});
  }
  return pts;
}

// Worst |PWL - f| over the points of segments [s0, s1].
double SegmentError(const std::vector<std::vector<Point>>& by_seg, const std::vector<double>& ys, double lo, double h,
                    int s0, int s1) {
  double worst = 0;
  for (int s = s0; s <= s1; ++s) {
    if (s < 0 || s >= 32) continue;
    const double x0 = lo + s * h;
    for (const Point& p : by_seg[size_t(s)]) {
      const double v = ys[size_t(s)] + (ys[size_t(s) + 1] - ys[size_t(s)]) * (p.x - x0) / h;
      worst = std::max(worst, std::fabs(v - p.y));
    }
  }
  return worst;
}

std::vector<double> FitKnots(const ActTable& t, const std::function<double(double)>& f) {
  const double lo = Fp16(t.lo), h = std::ldexp(1.0, t.step_log2);
  std::vector<double> ys(33);
  for (int i = 0; i <= 32; ++i) ys[size_t(i)] = f(lo + i * h);
  std::vector<std::vector<Point>> by_seg(32);
  for (const Point& p : DomainPoints(t, f)) by_seg[size_t(p.seg)].push_back(p);
  for (int sweep = 0; sweep < 150; ++sweep) {
    for (int i = 0; i <= 32; ++i) {
      if (lo + i * h == 0.0 && f(0.0) == 0.0) continue;  // keeps the exact f(0) = 0
      double a = ys[size_t(i)] - 0.05, b = ys[size_t(i)] + 0.05;
      for (int it = 0; it < 80; ++it) {
        const double m1 = a + (b - a) / 3, m2 = b - (b - a) / 3;
        ys[size_t(i)] = m1;
        const double e1 = SegmentError(by_seg, ys, lo, h, i - 1, i);
        ys[size_t(i)] = m2;
        const double e2 = SegmentError(by_seg, ys, lo, h, i - 1, i);
        if (e1 < e2)
          b = m2;
        else
          a = m1;
      }
      ys[size_t(i)] = (a + b) / 2;
    }
  }
  return ys;
}

ActTable Build(const Recipe& r) {
  ActTable t = r.base;
  const double lo = Fp16(t.lo), h = std::ldexp(1.0, t.step_log2);
  std::vector<double> ys(33);
  if (r.fitted) {
    ys = FitKnots(t, r.t);
  } else {
    for (int i = 0; i <= 32; ++i) ys[size_t(i)] = r.t(lo + i * h);
  }
  ane::oracle::ActSegmentsFromKnots(&t, ys.data());
  return t;
}

std::string Hex(uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04X", v);
  return buf;
}

const char* ModeName(ActMode m) {
  switch (m) {
    case ActMode::kDirect: return "ActMode::kDirect";
    case ActMode::kExp2: return "ActMode::kExp2";
    case ActMode::kTrig: return "ActMode::kTrig";
    case ActMode::kLog: return "ActMode::kLog";
    case ActMode::kPow: return "ActMode::kPow";
  }
  return "?";
}
const char* SymName(ActSym s) {
  switch (s) {
    case ActSym::kNone: return "ActSym::kNone";
    case ActSym::kOdd: return "ActSym::kOdd";
    case ActSym::kEven: return "ActSym::kEven";
  }
  return "?";
}

std::string Emit(const std::vector<std::pair<ActFn, ActTable>>& tables) {
  std::string s =
      "// SPDX-License-Identifier: Apache-2.0\n"
      "// Generated by tb/tools/ane_tablegen.cc (`make tables`). Do not edit: regenerate.\n"
      "// The default activation tables (NUMERICS N-5), in ActFn order. Included by activation.cc.\n"
      "void FillDefaultActTables(ActTable* out) {\n";
  for (const auto& [fn, t] : tables) {
    s += "  {  // " + std::string(ane::oracle::ActFnName(fn)) + "\n";
    s += "    ActTable& t = out[" + std::to_string(int(fn)) + "];\n";
    s += "    t.mode = " + std::string(ModeName(t.mode)) + ";\n";
    s += "    t.sym = " + std::string(SymName(t.sym)) + ";\n";
    s += "    t.lo = " + Hex(t.lo) + ";\n";
    s += "    t.step_log2 = " + std::to_string(t.step_log2) + ";\n";
    s += "    t.k = " + Hex(t.k) + ";\n";
    s += "    t.cos_phase = " + std::string(t.cos_phase ? "true" : "false") + ";\n";
    s += "    t.pow_split = " + std::string(t.pow_split ? "true" : "false") + ";\n";
    s += "    t.pow_negate = " + std::string(t.pow_negate ? "true" : "false") + ";\n";
    s += "    t.left = " + Hex(t.left) + ";\n";
    s += "    t.right = " + Hex(t.right) + ";\n";
    s += "    t.right_identity = " + std::string(t.right_identity ? "true" : "false") + ";\n";
    s += "    t.at_pinf = " + Hex(t.at_pinf) + ";\n";
    s += "    t.at_ninf = " + Hex(t.at_ninf) + ";\n";
    s += "    t.zero_en = " + std::string(t.zero_en ? "true" : "false") + ";\n";
    s += "    t.at_zero = " + Hex(t.at_zero) + ";\n";
    s += "    t.neg_en = " + std::string(t.neg_en ? "true" : "false") + ";\n";
    s += "    t.at_neg = " + Hex(t.at_neg) + ";\n";
    for (const char* field : {"m", "c"}) {
      const auto& v = std::string(field) == "m" ? t.m : t.c;
      s += std::string("    t.") + field + " = {";
      for (int i = 0; i < 32; ++i) {
        if (i % 8 == 0) s += "\n       ";
        s += " " + Hex(v[size_t(i)]) + (i < 31 ? "," : "");
      }
      s += "};\n";
    }
    s += "  }\n";
  }
  s += "}\n";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ane_tablegen OUT.inc\n";
    return 2;
  }
  std::vector<std::pair<ActFn, ActTable>> tables;
  for (const Recipe& r : Recipes()) {
    const ActTable t = Build(r);
    tables.push_back({r.fn, t});
    // Worst error of the generated table over every finite fp16 input.
    double worst = 0, at = 0;
    for (uint32_t code = 0; code < 0x10000; ++code) {
      if (((code >> 10) & 0x1F) == 0x1F) continue;
      const double x = Fp16(uint16_t(code));
      const double want = ane::oracle::ActReference(r.fn, x);
      if (!std::isfinite(want)) continue;
      const double got = Fp16(ane::oracle::EvalActTable(t, uint16_t(code)));
      const double err = std::fabs(got - want);
      if (err > worst) worst = err, at = x;
    }
    std::printf("%-9s %s worst |error| %.6g at x = %.9g\n", ane::oracle::ActFnName(r.fn),
                r.fitted ? "fitted " : "sampled", worst, at);
  }
  std::ofstream out(argv[1]);
  out << Emit(tables);
  return out ? 0 : 1;
}
