// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/fast_mac.h"

#include <array>
#include <stdexcept>

#include "tb/oracle/postproc.h"

namespace ane::oracle {
namespace {

using i128 = __int128;
using u128 = unsigned __int128;

// A value of the fp16 MAC path: v units of 2^-48, or an infinity (inf = +1 / -1).
struct Fx {
  i128 v = 0;
  int inf = 0;
};

// An operand after N-1 and N-2.3: sig x 2^exp (sig signed, 0 for zero), or an infinity.
struct Operand {
  int32_t sig = 0;
  int16_t exp = 0;  // + 48: the shift of a product's significand into units of 2^-48 is ea + eb
  int8_t inf = 0;
};

struct OperandTable {
  std::array<Operand, 65536> op[2];  // [generation]
  OperandTable() {
    for (int g = 0; g < 2; ++g) {
      for (uint32_t c = 0; c < 65536; ++c) {
        const uint16_t h = InputBoundary(uint16_t(c));  // NaN -> +inf, -0 -> +0
        Operand o;
        const int sign = (h & 0x8000) ? -1 : 1;
        const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
        if (e == 0x1F) {
          o.inf = int8_t(sign);
        } else if (e == 0) {
          if (g == 0 || m == 0) {  // m1: a denormal operand is +0 (N-2.3)
            o.sig = 0;
          } else {
            o.sig = sign * m;
            o.exp = -24 + 24;  // value m 2^-24: in the product's shift, each operand adds its exp + 24
          }
        } else {
          o.sig = sign * (1024 + m);
          o.exp = int16_t(e - 25 + 24);
        }
        op[g][c] = o;
      }
    }
  }
};

const OperandTable& Operands() {
  static const OperandTable t;
  return t;
}

// The position of the highest set bit of a nonzero magnitude.
inline int Msb(u128 m) {
  const uint64_t hi = uint64_t(m >> 64);
  return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(uint64_t(m));
}

inline u128 Mag(i128 v) { return v < 0 ? u128(-v) : u128(v); }

// v rounded to a multiple of 2^g, ties to even (g <= 0: unchanged).
inline i128 RoundTo(i128 v, int g) {
  if (g <= 0) return v;
  const i128 q = v >> g;  // floor
  const i128 r = v - (q << g);
  const i128 half = i128(1) << (g - 1);
  const i128 up = (r > half || (r == half && (q & 1))) ? q + 1 : q;
  return up << g;
}

// add12 (N-2.4): the exact sum on the grid 2^(e - 11) of the larger nonzero operand.
inline Fx Add12(const Fx& x, const Fx& y) {
  if (x.inf || y.inf) {
    if (x.inf && y.inf && x.inf != y.inf) return {};  // inf + (-inf) = +0
    return {0, x.inf ? x.inf : y.inf};
  }
  if (x.v == 0 && y.v == 0) return {};
  const int mx = x.v ? Msb(Mag(x.v)) : -1, my = y.v ? Msb(Mag(y.v)) : -1;
  return {RoundTo(x.v + y.v, (mx > my ? mx : my) - 11), 0};
}

// add12 on int64 values (|x|, |y| < 2^62 and so their sum).
inline int64_t Add12x64(int64_t x, int64_t y) {
  if (x == 0 && y == 0) return 0;
  const uint64_t mx = uint64_t(x < 0 ? -x : x), my = uint64_t(y < 0 ? -y : y);
  const uint64_t m = mx > my ? mx : my;
  const int g = 63 - __builtin_clzll(m) - 11;
  const int64_t v = x + y;
  if (g <= 0) return v;
  const int64_t q = v >> g;  // floor
  const int64_t r = v - q * (int64_t(1) << g);
  const int64_t half = int64_t(1) << (g - 1);
  return ((r > half || (r == half && (q & 1))) ? q + 1 : q) * (int64_t(1) << g);
}

inline Fx ExactAdd(const Fx& x, const Fx& y) {
  if (x.inf || y.inf) {
    if (x.inf && y.inf && x.inf != y.inf) return {};
    return {0, x.inf ? x.inf : y.inf};
  }
  return {x.v + y.v, 0};
}

// 32760 in units of 2^-48: RNE_fp16 of a value of this magnitude or more is 32768 or more.
const i128 kCeiling = i128(32760) << 48;

// acc = RNE_fp32(acc + t) (N-2.5), then the port ceiling (N-2.6) when `ceiling`.
inline Fx Accumulate(const Fx& acc, const Fx& t, bool ceiling) {
  Fx s = ExactAdd(acc, t);
  if (s.inf || s.v == 0) return s;
  s.v = RoundTo(s.v, Msb(Mag(s.v)) - 23);
  if (ceiling && Mag(s.v) >= u128(kCeiling)) return {0, s.v < 0 ? -1 : 1};
  return s;
}

uint32_t ToFp32Bits(const Fx& a) {
  if (a.inf) return (a.inf < 0 ? 0x80000000u : 0u) | 0x7F800000u;
  if (a.v == 0) return 0;
  const u128 m = Mag(a.v);
  const int p = Msb(m);  // the value is m 2^-48, 24 significant bits at most
  const uint32_t exp = uint32_t(p - 48 + 127);
  const uint32_t mant = uint32_t((p >= 23 ? (m >> (p - 23)) : (m << (23 - p))) & 0x7FFFFF);
  return (a.v < 0 ? 0x80000000u : 0u) | (exp << 23) | mant;
}

Fx FromFp32Bits(uint32_t b) {
  const uint32_t e = (b >> 23) & 0xFF, m = b & 0x7FFFFF;
  const bool neg = (b >> 31) != 0;
  if (e == 0xFF) return {0, m ? 1 : (neg ? -1 : 1)};  // a NaN register is +inf (N-1.1)
  if (e == 0) {
    if (m == 0) return {};
    throw std::logic_error("FastOutputPort: an fp32 denormal is off the fp16 path's grid");
  }
  const int shift = int(e) - 150 + 48;  // value (2^23 + m) 2^(e - 150), in units of 2^-48
  const uint32_t sig = 0x800000 | m;
  if (shift < 0 && (shift < -23 || (sig & ((1u << -shift) - 1)) != 0)) {
    throw std::logic_error("FastOutputPort: a value off the fp16 path's grid of 2^-48");
  }
  const i128 v = shift >= 0 ? i128(sig) << shift : i128(sig >> -shift);
  return {neg ? -v : v, 0};
}

}  // namespace

uint32_t FastReduceFp16(Generation gen, const uint16_t* data, const uint16_t* kernel, size_t k, ptrdiff_t ds,
                        ptrdiff_t ks) {
  const std::array<Operand, 65536>& op = Operands().op[gen == Generation::kM1 ? 0 : 1];
  const bool m1 = gen == Generation::kM1;
  const bool ceiling = k >= 2;
  Fx acc;
  for (size_t q = 0; q < k; q += 4) {
    // the common case first: four finite products below 2^60 units (|a b| < 2^12 or so), whose
    // quad stays inside int64 (a sum of four is below 2^62)
    int64_t p64[4] = {0, 0, 0, 0};
    bool small = true;
    for (size_t j = 0; j < 4 && q + j < k; ++j) {
      const Operand& a = op[data[ptrdiff_t(q + j) * ds]];
      const Operand& b = op[kernel[ptrdiff_t(q + j) * ks]];
      const int shift = a.exp + b.exp;
      if (a.inf || b.inf || shift > 38) {
        small = false;
        break;
      }
      p64[j] = int64_t(a.sig) * b.sig * (int64_t(1) << shift);
    }
    if (small) {
      acc = Accumulate(
          acc,
          {i128(m1 ? Add12x64(Add12x64(Add12x64(p64[0], p64[1]), p64[2]), p64[3]) : p64[0] + p64[1] + p64[2] + p64[3]),
           0},
          ceiling);
      continue;
    }
    Fx p[4];
    for (size_t j = 0; j < 4; ++j) {
      if (q + j >= k) break;  // the last quad is padded with +0 products
      const Operand& a = op[data[ptrdiff_t(q + j) * ds]];
      const Operand& b = op[kernel[ptrdiff_t(q + j) * ks]];
      if (a.inf || b.inf) {
        // inf x nonzero = inf with the product's sign; 0 x inf = +0 (N-2.2)
        const int sa = a.inf ? a.inf : (a.sig > 0 ? 1 : a.sig < 0 ? -1 : 0);
        const int sb = b.inf ? b.inf : (b.sig > 0 ? 1 : b.sig < 0 ? -1 : 0);
        p[j].inf = sa * sb;
      } else {
        p[j].v = i128(int64_t(a.sig) * b.sig) << (a.exp + b.exp);
      }
    }
    Fx t;
    if (m1) {
      t = Add12(Add12(Add12(p[0], p[1]), p[2]), p[3]);
    } else {
      t = ExactAdd(ExactAdd(ExactAdd(p[0], p[1]), p[2]), p[3]);
    }
    acc = Accumulate(acc, t, ceiling);
  }
  return ToFp32Bits(acc);
}

uint16_t FastOutputPort(uint32_t acc_fp32, Generation gen) {
  const Fx a = FromFp32Bits(acc_fp32);
  if (a.inf) return a.inf < 0 ? kFp16NegInf : kFp16PosInf;
  if (a.v == 0) return 0;
  const u128 m = Mag(a.v);
  const int p = Msb(m);
  // normal fp16 (value >= 2^-14): 11 significant bits; below: multiples of 2^-24
  const int g = p - 48 >= -14 ? p - 10 : 24;
  const u128 r = u128(RoundTo(i128(m), g));
  const uint16_t sign = a.v < 0 ? 0x8000 : 0;
  if (r >= (u128(1) << 64)) return sign | kFp16PosInf;  // 65536 and more (65520 rounds there)
  if (r < (u128(1) << 34)) {                            // below 2^-14: an fp16 denormal
    if (gen == Generation::kM1 || r == 0) return 0;     // m1 flushes it (N-2.3); zeros are +0
    return sign | uint16_t(r >> 24);
  }
  const int q = Msb(r);
  return sign | uint16_t(((q - 48 + 15) << 10) | int((r >> (q - 10)) & 0x3FF));
}

Tensor3 FastConv2d(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w) {
  if (l.mode != MacMode::kFp16) return Conv2d(l, x, w);
  CheckConvCall(l, x, w);
  const ConvGeometry& g = l.geom;
  const int k = g.Steps(), oh = g.OutHeight(), ow = g.OutWidth(), per = l.cout / l.groups;
  PostConfig pc = l.post;
  pc.gen = l.gen;
  PostProcessor pp(pc);
  Tensor3 y{l.cout, oh, ow, std::vector<uint16_t>(size_t(l.cout) * size_t(oh) * size_t(ow))};
  // the patches of one conv group, gathered once: patch[(oy * ow + ox) * k + s]
  std::vector<uint16_t> patch(size_t(oh) * size_t(ow) * size_t(k));
  std::vector<ConvStep> steps;
  for (int s = 0; s < k; ++s) steps.push_back(StepAt(g, s));
  int patch_group = -1;
  std::vector<uint32_t> acc(size_t(oh) * size_t(ow));
  for (int co = 0; co < l.cout; ++co) {
    if (int(w[size_t(co)].size()) != k) throw std::invalid_argument("w: Cg * KH * KW steps per kernel");
    const int group = co / per;
    if (group != patch_group) {
      const int c0 = group * g.channels;
      for (int oy = 0; oy < oh; ++oy) {
        for (int ox = 0; ox < ow; ++ox) {
          uint16_t* out = &patch[(size_t(oy) * size_t(ow) + size_t(ox)) * size_t(k)];
          for (int s = 0; s < k; ++s) {
            const ConvStep& st = steps[size_t(s)];
            const int yy = oy * g.stride_y - g.pad_top + st.ky * g.dilation_y;
            const int xx = ox * g.stride_x - g.pad_left + st.kx * g.dilation_x;
            out[s] = (yy < 0 || yy >= g.height || xx < 0 || xx >= g.width) ? 0 : x.at(c0 + st.c, yy, xx);
          }
        }
      }
      patch_group = group;
    }
    for (size_t i = 0; i < acc.size(); ++i) {
      acc[i] = FastReduceFp16(l.gen, &patch[i * size_t(k)], w[size_t(co)].data(), size_t(k));
    }
    const ChannelParams ch = l.channel.empty() ? ChannelParams{} : l.channel[size_t(co)];
    const std::vector<uint16_t> out = pp.Process(acc, ch);
    for (size_t i = 0; i < out.size(); ++i) y.codes[size_t(co) * size_t(oh * ow) + i] = out[i];
  }
  return y;
}

MatmulResult FastMatmul(const Matrix& a, const Matrix& b, Generation gen) {
  if (a.type != ElemType::kFp16 || b.type != ElemType::kFp16) return Matmul(a, b, gen);
  if (a.cols != b.rows) {
    throw std::invalid_argument("Matmul: inner dimensions differ (" + std::to_string(a.cols) + " vs " +
                                std::to_string(b.rows) + ")");
  }
  MatmulResult y;
  y.rows = a.rows;
  y.cols = b.cols;
  y.fp16.resize(size_t(a.rows * b.cols));
  for (int64_t m = 0; m < a.rows; ++m) {
    for (int64_t n = 0; n < b.cols; ++n) {
      const uint32_t acc =
          FastReduceFp16(gen, &a.codes[size_t(m * a.cols)], &b.codes[size_t(n)], size_t(a.cols), 1, ptrdiff_t(b.cols));
      y.fp16[size_t(m * b.cols + n)] = FastOutputPort(acc, gen);
    }
  }
  return y;
}

}  // namespace ane::oracle
