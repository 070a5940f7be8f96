// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/kernel_codec.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "tb/oracle/elementwise.h"
#include "tb/oracle/exact.h"
#include "tb/oracle/formats.h"

namespace ane::oracle {

namespace {

std::string S(long long v) { return std::to_string(v); }

[[noreturn]] void Fail(const std::string& why) { throw std::invalid_argument(why); }

bool FpCoefficients(KernelFormat f) {
  return f == KernelFormat::kFp16 || f == KernelFormat::kInt8Sym || f == KernelFormat::kPalette;
}

bool ValidPaletteBits(int b) { return b == 1 || b == 2 || b == 4 || b == 6 || b == 8; }

// fp16 code as sign, integer significand and exponent: value = (-1)^neg * sig * 2^exp.
struct Fp16Parts {
  bool neg;
  uint64_t sig;
  int exp;
};
Fp16Parts Parts(uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const uint64_t f = h & 0x3FF;
  if (e == 0) return {(h & 0x8000) != 0, f, -24};
  return {(h & 0x8000) != 0, f | 0x400, e - 25};
}

uint16_t Int8ToFp16(int q) { return RoundToFp16(Exact::FromSigned(q)); }

uint16_t SignExtend(uint32_t v, int bits) {
  const uint32_t sign = 1u << (bits - 1);
  const int32_t s = int32_t((v ^ sign)) - int32_t(sign);
  return uint16_t(int16_t(s));
}

// The value a sparse mask keeps: a nonzero coefficient.
bool NonzeroCode(KernelFormat f, uint16_t coef) {
  if (FpCoefficients(f)) return (coef & 0x7FFF) != 0;
  return coef != 0;
}

class BitWriter {
 public:
  void Put(uint64_t v, int bits) {
    for (int i = 0; i < bits; ++i) {
      if (nbits_ % 32 == 0) words_.push_back(0);
      if ((v >> i) & 1) words_.back() |= 1u << (nbits_ % 32);
      ++nbits_;
    }
  }
  std::vector<uint32_t> Finish() {
    if (words_.size() % 2) words_.push_back(0);  // a whole number of 64-bit beats
    return words_;
  }

 private:
  std::vector<uint32_t> words_;
  uint64_t nbits_ = 0;
};

class BitReader {
 public:
  BitReader(const uint32_t* w, size_t n) : w_(w), n_(n) {}
  uint32_t Get(int bits, const char* what) {
    uint32_t v = 0;
    for (int i = 0; i < bits; ++i) {
      const size_t word = size_t(pos_ / 32);
      if (word >= n_) Fail(std::string("kernel stream ends inside the ") + what);
      if ((w_[word] >> (pos_ % 32)) & 1) v |= 1u << i;
      ++pos_;
    }
    return v;
  }
  uint64_t pos() const { return pos_; }

 private:
  const uint32_t* w_;
  size_t n_;
  uint64_t pos_ = 0;
};

// Palette choice: distinct values when they fit, otherwise 1-D k-means.
std::vector<uint16_t> ChoosePalette(const std::vector<uint16_t>& values, int bits) {
  const size_t entries = size_t(1) << bits;
  std::vector<uint16_t> distinct = values;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<uint16_t> pal;
  if (distinct.size() <= entries) {
    std::stable_sort(distinct.begin(), distinct.end(),
                     [](uint16_t a, uint16_t b) { return Fp16ToDouble(a) < Fp16ToDouble(b); });
    pal = distinct;
    pal.resize(entries, 0);
    return pal;
  }
  std::vector<double> v;
  for (uint16_t c : values) {
    if (Fp16IsNan(c) || Fp16IsInf(c)) {
      Fail("palette: more than " + S(long(entries)) +
           " distinct weights must be quantized, which needs finite weights");
    }
    v.push_back(Fp16ToDouble(c));
  }
  std::sort(v.begin(), v.end());
  std::vector<double> centre(entries);
  for (size_t k = 0; k < entries; ++k) centre[k] = v[(2 * k + 1) * v.size() / (2 * entries)];
  std::vector<size_t> owner(v.size());
  for (int round = 0; round < 32; ++round) {
    for (size_t i = 0; i < v.size(); ++i) {
      size_t best = 0;
      for (size_t k = 1; k < entries; ++k) {
        if (std::fabs(v[i] - centre[k]) < std::fabs(v[i] - centre[best])) best = k;
      }
      owner[i] = best;
    }
    std::vector<double> sum(entries, 0.0);
    std::vector<size_t> count(entries, 0);
    for (size_t i = 0; i < v.size(); ++i) {
      sum[owner[i]] += v[i];
      ++count[owner[i]];
    }
    for (size_t k = 0; k < entries; ++k) {
      if (count[k]) centre[k] = sum[k] / double(count[k]);
    }
  }
  for (double c : centre) pal.push_back(DoubleToFp16(c));
  return pal;
}

size_t NearestEntry(const std::vector<uint16_t>& pal, uint16_t w) {
  for (size_t k = 0; k < pal.size(); ++k) {
    if (pal[k] == w) return k;  // lossless palettes hold every weight exactly
  }
  const double x = Fp16ToDouble(w);
  size_t best = 0;
  for (size_t k = 1; k < pal.size(); ++k) {
    if (std::fabs(x - Fp16ToDouble(pal[k])) < std::fabs(x - Fp16ToDouble(pal[best]))) best = k;
  }
  return best;
}

uint16_t MaxAbsScale(const std::vector<uint16_t>& w) {
  uint16_t m = 0;
  for (uint16_t c : w) {
    const uint16_t a = uint16_t(InputBoundary(c) & 0x7FFF);
    if (Fp16ToDouble(a) > Fp16ToDouble(m)) m = a;
  }
  if (m == 0) return 0x3C00;
  const uint16_t s = Fp16Div(m, 0x57F0);  // 127
  return s == 0 ? uint16_t(0x0001) : s;
}

}  // namespace

void ChooseStorage(KernelGroup* g) {
  const KernelSpec& sp = g->spec;
  if (sp.format == KernelFormat::kInt8Sym && g->scales.empty()) {
    if (sp.per_channel_scale) {
      for (const auto& w : g->weights) g->scales.push_back(MaxAbsScale(w));
    } else {
      std::vector<uint16_t> all;
      for (const auto& w : g->weights) all.insert(all.end(), w.begin(), w.end());
      g->scales.push_back(MaxAbsScale(all));
    }
  }
  if (sp.format == KernelFormat::kPalette && g->palette.empty()) {
    std::vector<uint16_t> values;  // a sparse group's palette holds no zero: its masks drop zeros
    for (const auto& w : g->weights) {
      for (uint16_t c : w) {
        if (!sp.sparse || NonzeroCode(sp.format, c)) values.push_back(c);
      }
    }
    if (values.empty()) values.push_back(0);
    g->palette = ChoosePalette(values, sp.palette_bits);
  }
}

const char* KernelFormatName(KernelFormat f) {
  switch (f) {
    case KernelFormat::kFp16: return "fp16";
    case KernelFormat::kInt8Sym: return "int8sym";
    case KernelFormat::kPalette: return "palette";
    case KernelFormat::kRaw8: return "raw8";
    case KernelFormat::kRaw4: return "raw4";
  }
  return "?";
}

bool ParseKernelFormat(const std::string& name, KernelFormat* out) {
  for (KernelFormat f : {KernelFormat::kFp16, KernelFormat::kInt8Sym, KernelFormat::kPalette, KernelFormat::kRaw8,
                         KernelFormat::kRaw4}) {
    if (name == KernelFormatName(f)) {
      *out = f;
      return true;
    }
  }
  return false;
}

int ValueBits(const KernelSpec& spec) {
  switch (spec.format) {
    case KernelFormat::kFp16: return 16;
    case KernelFormat::kInt8Sym: return 8;
    case KernelFormat::kPalette: return spec.palette_bits;
    case KernelFormat::kRaw8: return 8;
    case KernelFormat::kRaw4: return 4;
  }
  return 16;
}

int KernelsPerSlot(const KernelSpec& spec) { return spec.four_kernel ? 4 : spec.two_kernel ? 2 : 1; }

int QuantizeInt8(uint16_t w, uint16_t scale) {
  const Fp16Parts a = Parts(w), b = Parts(scale);
  if (a.sig == 0) return 0;
  const int d = a.exp - b.exp;
  uint64_t q = 0;
  if (d > 24) {
    q = 127;
  } else {
    const uint64_t num = d >= 0 ? a.sig << d : a.sig;
    const uint64_t den = d >= 0 ? b.sig : b.sig << (-d);
    q = num / den;
    const uint64_t rem = num % den;
    if (2 * rem > den || (2 * rem == den && (q & 1))) ++q;  // RNE
    q = std::min<uint64_t>(q, 127);
  }
  return (a.neg != b.neg) ? -int(q) : int(q);
}

uint16_t DequantInt8(uint16_t scale, int q) { return Fp16Mul(scale, Int8ToFp16(q)); }

std::vector<KernelOp> BuildSchedule(const std::vector<std::vector<uint16_t>>& coefs,
                                    const std::vector<std::vector<bool>>& stored, int per_slot, bool sparse, int steps,
                                    int* skipped_blocks, int* idle_quads) {
  if (per_slot != 1 && per_slot != 2 && per_slot != 4) {
    Fail("kernels per slot must be 1, 2 or 4, not " + S(per_slot));
  }
  const int nk = int(coefs.size());
  const int r = nk / per_slot;
  const auto coef = [&](int j, int k, int s) {
    return k < per_slot ? coefs[size_t(per_slot * j + k)][size_t(s)] : uint16_t(0);
  };
  const int quads = (steps + 3) / 4;
  int skipped = 0, idle = 0;
  std::vector<KernelOp> ops;
  for (int g = 0; g < quads; ++g) {
    const int s0 = 4 * g, s1 = std::min(steps, 4 * g + 4);
    std::vector<int> kept;
    for (int j = 0; j < r; ++j) {
      bool any = true;
      if (sparse && !stored.empty() && g > 0 && g < quads - 1) {
        any = false;
        for (int s = s0; s < s1; ++s) {
          for (int k = 0; k < per_slot; ++k) any = any || stored[size_t(per_slot * j + k)][size_t(s)];
        }
      }
      if (any) {
        kept.push_back(j);
      } else {
        ++skipped;
      }
    }
    if (kept.empty()) ++idle;
    for (int s = s0; s < s1; ++s) {
      for (int j : kept) {
        KernelOp op;
        op.step = s;
        op.slot = j;
        op.coef_a = coef(j, 0, s);
        op.coef_b = coef(j, 1, s);
        op.coef_c = coef(j, 2, s);
        op.coef_d = coef(j, 3, s);
        op.first = s == 0;
        op.last = s == steps - 1;
        ops.push_back(op);
      }
    }
  }
  if (skipped_blocks) *skipped_blocks = skipped;
  if (idle_quads) *idle_quads = idle;
  return ops;
}

namespace {

// A kernel group's coefficient fields: the stored value and the keep bit of each weight.
struct CoefficientFields {
  std::vector<std::vector<uint32_t>> field;
  std::vector<std::vector<bool>> keep;
  CoefficientFields(int nk, int k)
      : field(size_t(nk), std::vector<uint32_t>(size_t(k), 0)), keep(size_t(nk), std::vector<bool>(size_t(k), true)) {}
};

// The group's spec, kernels and parameters fit together (N-6.1); fails naming what does not.
void CheckKernelGroup(const KernelGroup* g) {
  const KernelSpec& sp = g->spec;
  const int nk = int(g->weights.size());
  const int k = g->steps;
  if (int(sp.format) > 4) Fail("kernel format " + S(int(sp.format)) + " is unknown");
  if (k < 1) Fail("a kernel group needs at least one step (K = " + S(k) + ")");
  if (sp.two_kernel && !FpCoefficients(sp.format)) {
    Fail(std::string("two-kernel mode is fp16 only; format ") + KernelFormatName(sp.format) + " holds integer kernels");
  }
  if (sp.two_kernel && sp.four_kernel) Fail("a kernel group is two-kernel or four-kernel, not both");
  if (sp.four_kernel && !FpCoefficients(sp.format)) {
    Fail(std::string("four-kernel mode is fp16 only; format ") + KernelFormatName(sp.format) +
         " holds integer kernels");
  }
  if (sp.four_kernel && sp.sparse) Fail("four-kernel mode is dense only (no sparse groups)");
  const int per = KernelsPerSlot(sp);
  if (nk < per || nk > 8 * per || nk % per) {
    Fail(
        "a kernel group holds 1 .. 8 kernels (2 .. 16 in pairs in two-kernel mode, 4 .. 32 in "
        "fours in four-kernel mode), not " +
        S(nk));
  }
  for (const auto& w : g->weights) {
    if (int(w.size()) != k) Fail("every kernel needs K = " + S(k) + " weights");
  }
  if (sp.per_channel_scale && sp.format != KernelFormat::kInt8Sym) {
    Fail("a per-channel scale belongs to the int8sym format only");
  }
  if (sp.format == KernelFormat::kPalette && !ValidPaletteBits(sp.palette_bits)) {
    Fail("palette index bits must be 1, 2, 4, 6 or 8, not " + S(sp.palette_bits));
  }
  if (sp.params ? int(g->params.size()) != nk : !g->params.empty()) {
    Fail("post-processing parameters: " + S(long(g->params.size())) + " given, " +
         (sp.params ? S(nk) : std::string("0")) + " expected");
  }
}

// int8sym: each weight quantized by its scale (the scales chosen from the weights when none are
// given: one per group, or one per kernel).
void Int8SymFields(KernelGroup* g, CoefficientFields* out) {
  const KernelSpec& sp = g->spec;
  const int nk = int(g->weights.size());
  const int k = g->steps;
  std::vector<std::vector<uint32_t>>& field = out->field;
  std::vector<std::vector<bool>>& keep = out->keep;
  const size_t want = sp.per_channel_scale ? size_t(nk) : 1;
  ChooseStorage(g);
  if (g->scales.size() != want) {
    Fail("int8sym needs " + S(long(want)) + " scale(s), got " + S(long(g->scales.size())));
  }
  for (uint16_t sc : g->scales) {
    if (Fp16IsNan(sc) || Fp16IsInf(sc) || Fp16IsZero(sc)) {
      Fail("an int8sym scale must be a finite nonzero fp16 value");
    }
  }
  for (int n = 0; n < nk; ++n) {
    const uint16_t sc = g->scales[sp.per_channel_scale ? size_t(n) : 0];
    for (int s = 0; s < k; ++s) {
      const uint16_t w = InputBoundary(g->weights[size_t(n)][size_t(s)]);
      if (Fp16IsInf(w)) Fail("int8sym: weights must be finite (kernel " + S(n) + ", step " + S(s) + ")");
      const int q = QuantizeInt8(w, sc);
      field[size_t(n)][size_t(s)] = uint32_t(q) & 0xFF;
      keep[size_t(n)][size_t(s)] = !sp.sparse || q != 0;
    }
  }
}

// palette: each weight as the index of its nearest entry (the palette chosen from the weights
// when none is given).
void PaletteFields(KernelGroup* g, CoefficientFields* out) {
  const KernelSpec& sp = g->spec;
  const int nk = int(g->weights.size());
  const int k = g->steps;
  std::vector<std::vector<uint32_t>>& field = out->field;
  std::vector<std::vector<bool>>& keep = out->keep;
  ChooseStorage(g);
  if (g->palette.size() != (size_t(1) << sp.palette_bits)) {
    Fail("the palette needs " + S(1L << sp.palette_bits) + " entries, got " + S(long(g->palette.size())));
  }
  for (int n = 0; n < nk; ++n) {
    for (int s = 0; s < k; ++s) {
      const uint16_t w = g->weights[size_t(n)][size_t(s)];
      const size_t idx = NearestEntry(g->palette, w);
      field[size_t(n)][size_t(s)] = uint32_t(idx);
      // sparse: a zero weight is dropped (+0) even when the palette has no zero entry (the
      // chosen palette of a sparse group holds none); a weight whose entry is zero too
      keep[size_t(n)][size_t(s)] = !sp.sparse || (NonzeroCode(sp.format, w) && NonzeroCode(sp.format, g->palette[idx]));
    }
  }
}

// The group's words: header, palette or scales, parameters, then per quad of steps the sparse
// masks and the kept coefficients (N-6.1's layout).
std::vector<uint32_t> WriteKernelGroup(const KernelGroup* g, const CoefficientFields& c) {
  const KernelSpec& sp = g->spec;
  const int nk = int(g->weights.size());
  const int k = g->steps;
  const int per = KernelsPerSlot(sp);
  const std::vector<std::vector<uint32_t>>& field = c.field;
  const std::vector<std::vector<bool>>& keep = c.keep;
  BitWriter bw;
  const int r = nk / per;
  bw.Put(uint32_t(sp.format) | (sp.sparse ? 1u << 3 : 0) | (sp.two_kernel ? 1u << 4 : 0) |
             (sp.per_channel_scale ? 1u << 5 : 0) | (sp.params ? 1u << 6 : 0) |
             (uint32_t(sp.format == KernelFormat::kPalette ? sp.palette_bits : 0) << 7) | (uint32_t(r - 1) << 11) |
             (sp.four_kernel ? 1u << 14 : 0),
         32);
  if (sp.format == KernelFormat::kPalette) {
    for (uint16_t e : g->palette) bw.Put(e, 16);
  }
  if (sp.format == KernelFormat::kInt8Sym) {
    for (uint16_t sc : g->scales) bw.Put(sc, 16);
    if (g->scales.size() % 2) bw.Put(0, 16);
  }
  for (const KernelParams& p : g->params) {
    bw.Put(p.scale, 32);
    bw.Put(p.bias, 32);
  }
  const int vbits = ValueBits(sp);
  const int quads = (k + 3) / 4;
  for (int q = 0; q < quads; ++q) {
    const int s0 = 4 * q, s1 = std::min(k, 4 * q + 4);
    if (sp.sparse) {
      for (int n = 0; n < nk; ++n) {
        uint32_t mask = 0;
        for (int s = s0; s < s1; ++s) mask |= keep[size_t(n)][size_t(s)] ? 1u << (s - s0) : 0;
        bw.Put(mask, 4);
      }
    }
    for (int s = s0; s < s1; ++s) {
      for (int n = 0; n < nk; ++n) {
        if (keep[size_t(n)][size_t(s)]) bw.Put(field[size_t(n)][size_t(s)], vbits);
      }
    }
  }
  return bw.Finish();
}

}  // namespace

std::vector<uint32_t> EncodeKernelGroup(KernelGroup* g) {
  const KernelSpec& sp = g->spec;
  const int nk = int(g->weights.size());
  const int k = g->steps;
  CheckKernelGroup(g);

  CoefficientFields c(nk, k);
  std::vector<std::vector<uint32_t>>& field = c.field;
  std::vector<std::vector<bool>>& keep = c.keep;
  switch (sp.format) {
    case KernelFormat::kFp16:
      for (int n = 0; n < nk; ++n) {
        for (int s = 0; s < k; ++s) {
          const uint16_t w = g->weights[size_t(n)][size_t(s)];
          field[size_t(n)][size_t(s)] = w;
          keep[size_t(n)][size_t(s)] = !sp.sparse || NonzeroCode(sp.format, w);
        }
      }
      break;
    case KernelFormat::kInt8Sym: Int8SymFields(g, &c); break;
    case KernelFormat::kPalette: PaletteFields(g, &c); break;
    case KernelFormat::kRaw8:
    case KernelFormat::kRaw4: {
      const int bits = sp.format == KernelFormat::kRaw8 ? 8 : 4;
      for (int n = 0; n < nk; ++n) {
        for (int s = 0; s < k; ++s) {
          const uint16_t w = g->weights[size_t(n)][size_t(s)];
          const uint32_t v = w & ((1u << bits) - 1);
          if (SignExtend(v, bits) != w) {
            Fail(std::string(KernelFormatName(sp.format)) + ": weight code " + S(w) + " is not a sign-extended " +
                 S(bits) + "-bit integer (kernel " + S(n) + ", step " + S(s) + ")");
          }
          field[size_t(n)][size_t(s)] = v;
          keep[size_t(n)][size_t(s)] = !sp.sparse || v != 0;
        }
      }
      break;
    }
  }

  return WriteKernelGroup(g, c);
}

DecodedGroup DecodeKernelGroup(const uint32_t* words, size_t n, int steps) {
  if (steps < 1) Fail("a kernel group needs at least one step (K = " + S(steps) + ")");
  BitReader br(words, n);
  DecodedGroup d;
  d.steps = steps;
  const uint32_t h0 = br.Get(32, "header");
  KernelSpec& sp = d.spec;
  if ((h0 & 7) > 4) Fail("kernel header: format " + S(h0 & 7) + " is unknown");
  if (h0 >> 15) Fail("kernel header: reserved bits [31:15] are not zero");
  sp.format = KernelFormat(h0 & 7);
  sp.sparse = (h0 >> 3) & 1;
  sp.two_kernel = (h0 >> 4) & 1;
  sp.four_kernel = (h0 >> 14) & 1;
  sp.per_channel_scale = (h0 >> 5) & 1;
  sp.params = (h0 >> 6) & 1;
  sp.palette_bits = int((h0 >> 7) & 0xF);
  d.slots = int((h0 >> 11) & 7) + 1;
  if (sp.format == KernelFormat::kPalette) {
    if (!ValidPaletteBits(sp.palette_bits)) {
      Fail("kernel header: palette index bits " + S(sp.palette_bits) + " (1, 2, 4, 6 or 8)");
    }
  } else {
    if (sp.palette_bits != 0) Fail("kernel header: palette bits set without the palette format");
    sp.palette_bits = 4;
  }
  if (sp.two_kernel && !FpCoefficients(sp.format)) Fail("kernel header: two-kernel mode with integer kernels");
  if (sp.four_kernel && !FpCoefficients(sp.format)) Fail("kernel header: four-kernel mode with integer kernels");
  if (sp.four_kernel && sp.two_kernel) Fail("kernel header: both two-kernel and four-kernel");
  if (sp.four_kernel && sp.sparse) Fail("kernel header: a sparse four-kernel group");
  if (sp.per_channel_scale && sp.format != KernelFormat::kInt8Sym) {
    Fail("kernel header: per-channel scale without the int8sym format");
  }
  const int nk = KernelsPerSlot(sp) * d.slots;
  if (sp.format == KernelFormat::kPalette) {
    for (int i = 0; i < (1 << sp.palette_bits); ++i) d.palette.push_back(uint16_t(br.Get(16, "palette")));
  }
  if (sp.format == KernelFormat::kInt8Sym) {
    const int ns = sp.per_channel_scale ? nk : 1;
    for (int i = 0; i < ns; ++i) d.scales.push_back(uint16_t(br.Get(16, "scales")));
    if (ns % 2 && br.Get(16, "scales") != 0) Fail("kernel header: the unused half of the last scale word is not zero");
  }
  if (sp.params) {
    for (int i = 0; i < nk; ++i) {
      KernelParams p;
      const uint32_t sw = br.Get(32, "post-processing parameters");
      if (sw >> 16) Fail("kernel header: parameter word [31:16] is not zero");
      p.scale = uint16_t(sw);
      p.bias = br.Get(32, "post-processing parameters");
      d.params.push_back(p);
    }
  }
  d.header_words = int(br.pos() / 32);

  const int vbits = ValueBits(sp);
  d.coefs.assign(size_t(nk), std::vector<uint16_t>(size_t(steps), 0));
  d.stored.assign(size_t(nk), std::vector<bool>(size_t(steps), true));
  const int quads = (steps + 3) / 4;
  for (int q = 0; q < quads; ++q) {
    const int s0 = 4 * q, s1 = std::min(steps, 4 * q + 4);
    if (sp.sparse) {
      for (int i = 0; i < nk; ++i) {
        const uint32_t mask = br.Get(4, "keep masks");
        if (mask >> (s1 - s0)) Fail("keep mask of kernel " + S(i) + " marks steps past K = " + S(steps));
        for (int s = s0; s < s1; ++s) d.stored[size_t(i)][size_t(s)] = (mask >> (s - s0)) & 1;
      }
    }
    for (int s = s0; s < s1; ++s) {
      for (int i = 0; i < nk; ++i) {
        if (!d.stored[size_t(i)][size_t(s)]) continue;  // a dropped coefficient is +0 (N-6.3)
        const uint32_t v = br.Get(vbits, "coefficients");
        uint16_t c = 0;
        switch (sp.format) {
          case KernelFormat::kFp16: c = uint16_t(v); break;
          case KernelFormat::kInt8Sym:
            c = DequantInt8(d.scales[sp.per_channel_scale ? size_t(i) : 0], int(int8_t(uint8_t(v))));
            break;
          case KernelFormat::kPalette: c = d.palette[v]; break;
          case KernelFormat::kRaw8: c = SignExtend(v, 8); break;
          case KernelFormat::kRaw4: c = SignExtend(v, 4); break;
        }
        d.coefs[size_t(i)][size_t(s)] = c;
      }
    }
  }
  // Padding to the end of the 64-bit beat must be zero.
  while (br.pos() % 64) {
    if (br.Get(1, "padding")) Fail("kernel stream: nonzero padding after the last coefficient");
  }
  d.words = size_t(br.pos() / 32);
  if (!sp.sparse) d.stored.clear();
  d.ops = BuildSchedule(d.coefs, d.stored, KernelsPerSlot(sp), sp.sparse, steps, &d.skipped_blocks, &d.idle_quads);
  if (!sp.sparse) d.stored.assign(size_t(nk), std::vector<bool>(size_t(steps), true));
  return d;
}

std::vector<std::vector<uint16_t>> StoredCoefficients(KernelSpec spec, const std::vector<uint16_t>& palette,
                                                      const std::vector<uint16_t>& scales,
                                                      const std::vector<std::vector<uint16_t>>& w) {
  spec.two_kernel = spec.four_kernel = spec.params = false;
  std::vector<std::vector<uint16_t>> coefs;
  for (size_t n0 = 0; n0 < w.size(); n0 += 8) {
    KernelGroup g;
    g.spec = spec;
    g.steps = w.empty() ? 0 : int(w[0].size());
    g.weights.assign(w.begin() + std::ptrdiff_t(n0), w.begin() + std::ptrdiff_t(std::min(w.size(), n0 + 8)));
    if (spec.format == KernelFormat::kPalette) g.palette = palette;
    if (spec.format == KernelFormat::kInt8Sym) g.scales = scales;
    const std::vector<uint32_t> words = EncodeKernelGroup(&g);
    const DecodedGroup d = DecodeKernelGroup(words.data(), words.size(), g.steps);
    coefs.insert(coefs.end(), d.coefs.begin(), d.coefs.end());
  }
  return coefs;
}

}  // namespace ane::oracle
