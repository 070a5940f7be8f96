// SPDX-License-Identifier: Apache-2.0
#include "tb/plan/core_plan.h"

#include <algorithm>
#include <stdexcept>

#include "tb/plan/work_unit.h"
#include "tb/regs/ane_regs.h"

namespace ane::harness {
namespace {

int CeilDiv(int a, int b) { return (a + b - 1) / b; }

bool Fp16Data(oracle::MacMode m) {
  return m == oracle::MacMode::kFp16 || m == oracle::MacMode::kFp16xInt8 || oracle::IsCompareMode(m);
}

// The layer register's mode field (rtl/regs/ane_regs.yaml). An int4 plan's layer is kInt8
// (CoreLayerPlan::int4); oracle::CheckConvLayer refuses kInt4 as a layer's mode, so it is a
// caller's bug.
uint32_t ModeBits(const CoreLayerPlan& p) {
  if (p.int4) return 4;
  const oracle::MacMode m = p.layer.mode;
  switch (m) {
    case oracle::MacMode::kFp16: return 0;
    case oracle::MacMode::kInt8: return 1;
    case oracle::MacMode::kInt8xFp16: return 2;
    case oracle::MacMode::kFp16xInt8: return 3;
    case oracle::MacMode::kCmpMax: return 5;
    case oracle::MacMode::kCmpMin: return 6;
    case oracle::MacMode::kInt4: break;
  }
  throw std::logic_error("ModeBits: the core has no register value for MAC mode " + std::to_string(int(m)));
}

// Bytes of one channel's patch in the bank: patch_h rows of bpr beats.
int ChannelBytes(const CoreLayerPlan& p, const CoreParams& cp) { return p.patch_h * p.bpr * cp.beat_bytes; }

void Patch(CoreLayerPlan* p, const CoreParams& cp) {
  const oracle::ConvGeometry& g = p->layer.geom;
  p->patch_h = (p->tile_h - 1) * g.stride_y + (g.kernel_h - 1) * g.dilation_y + 1;
  p->patch_w = (p->tile_w - 1) * g.stride_x + (g.kernel_w - 1) * g.dilation_x + 1;
  p->bpr = CeilDiv(p->patch_w * (p->elem16 ? 2 : 1), cp.beat_bytes);
}

// The groups of pass `pass`: the output channels it computes (padding kernel: -1).
std::vector<int> PassChannels(const CoreLayerPlan& p, int pass) {
  if (p.diag) {  // the pass's groups, one kernel each
    std::vector<int> co;
    for (int k = 0; k < p.diag_g; ++k) co.push_back(pass * p.diag_g + k);
    return co;
  }
  const int per = p.layer.cout / p.layer.groups;
  const int gi = pass / p.ppg, pg = pass % p.ppg;
  const int nk = pg == p.ppg - 1 ? p.nk_last : p.nk_full;
  std::vector<int> co;
  for (int k = 0; k < nk; ++k) co.push_back(gi * per + pg * p.nk_full + k);
  // padding kernels up to a whole slot (two- and four-kernel modes)
  while (int(co.size()) % oracle::KernelsPerSlot(p.kspec) != 0) co.push_back(-1);
  return co;
}

oracle::KernelGroup PassGroup(const CoreLayerPlan& p, int pass, const std::vector<std::vector<uint16_t>>& w) {
  const oracle::ConvLayer& l = p.layer;
  oracle::KernelGroup grp;
  grp.spec = p.kspec;
  grp.spec.params = l.post.scale_en || l.post.bias_en;
  grp.steps = l.geom.Steps();
  if (p.kspec.format == oracle::KernelFormat::kInt8Sym) grp.scales = p.kscales;
  if (p.kspec.format == oracle::KernelFormat::kPalette) grp.palette = p.kpalette;
  for (int co : PassChannels(p, pass)) {
    grp.weights.push_back(co < 0 ? std::vector<uint16_t>(size_t(grp.steps), 0) : w[size_t(co)]);
    if (grp.spec.params) {
      oracle::KernelParams kp;
      if (co >= 0 && !l.channel.empty()) kp = {l.channel[size_t(co)].scale, l.channel[size_t(co)].bias};
      grp.params.push_back(kp);
    }
  }
  return grp;
}

}  // namespace

namespace {

bool FitsShifter(const oracle::ConvGeometry& g) {
  return g.kernel_h <= oracle::kMaxShifterKernel && g.kernel_w <= oracle::kMaxShifterKernel;
}

int LargestDivisorUpTo7(int n) {
  int d = 1;
  for (int k = 1; k <= oracle::kMaxShifterKernel; ++k) {
    if (n % k == 0) d = k;
  }
  return d;
}

// Virtual channels per input channel, and the (rows, columns) offset of virtual channel f.
struct Split {
  int kh = 1, kw = 1, per = 1;
  std::pair<int, int> Offset(const oracle::ConvGeometry& g, int f) const {
    if (g.kernel_w <= oracle::kMaxShifterKernel) return {f * kh * g.dilation_y, 0};
    const int pieces = g.kernel_w / kw;
    return {(f / pieces) * g.dilation_y, (f % pieces) * kw * g.dilation_x};
  }
};

Split SplitOf(const oracle::ConvGeometry& g) {
  Split s;
  if (g.kernel_w <= oracle::kMaxShifterKernel) {
    s.kh = LargestDivisorUpTo7(g.kernel_h);
    s.kw = g.kernel_w;
    s.per = g.kernel_h / s.kh;
  } else {
    s.kh = 1;
    s.kw = LargestDivisorUpTo7(g.kernel_w);
    s.per = g.kernel_h * (g.kernel_w / s.kw);
  }
  return s;
}

}  // namespace

oracle::ConvLayer SplitGeometry(const oracle::ConvLayer& l) {
  if (FitsShifter(l.geom)) return l;
  const oracle::ConvGeometry& g = l.geom;
  const Split s = SplitOf(g);
  oracle::ConvLayer v = l;
  oracle::ConvGeometry& vg = v.geom;
  vg.channels = g.channels * s.per;
  vg.kernel_h = s.kh;
  vg.kernel_w = s.kw;
  vg.pad_top = vg.pad_bottom = vg.pad_left = vg.pad_right = 0;
  // A piece one row high (wide) reads one input row (column) per output row (column): the copy
  // keeps only those, and the piece runs at stride 1 there.
  if (s.kh == 1) vg.stride_y = 1;
  if (s.kw == 1) vg.stride_x = 1;
  vg.height = (g.OutHeight() - 1) * vg.stride_y + (s.kh - 1) * g.dilation_y + 1;
  vg.width = (g.OutWidth() - 1) * vg.stride_x + (s.kw - 1) * g.dilation_x + 1;
  return v;
}

oracle::Tensor3 SplitInput(const oracle::ConvLayer& l, const oracle::Tensor3& x) {
  if (FitsShifter(l.geom)) return x;
  const oracle::ConvGeometry& g = l.geom;
  const oracle::ConvLayer v = SplitGeometry(l);
  const Split s = SplitOf(g);
  oracle::Tensor3 t{x.c * s.per, v.geom.height, v.geom.width, {}};
  t.codes.reserve(size_t(t.c) * size_t(t.h) * size_t(t.w));
  for (int c = 0; c < x.c; ++c) {
    for (int f = 0; f < s.per; ++f) {
      const auto [dy, dx] = s.Offset(g, f);
      for (int i = 0; i < t.h; ++i) {
        for (int j = 0; j < t.w; ++j) {
          const int yy = (s.kh == 1 ? i * g.stride_y : i) - g.pad_top + dy;
          const int xx = (s.kw == 1 ? j * g.stride_x : j) - g.pad_left + dx;
          t.codes.push_back(yy < 0 || yy >= x.h || xx < 0 || xx >= x.w ? 0 : x.at(c, yy, xx));
        }
      }
    }
  }
  return t;
}

namespace {

// The widest tile up to the lane positions whose patch `fits`: the whole output map's width and
// as many rows as the positions take, then fewer rows, then fewer columns. "" or why not.
template <class Fits>
std::string ShrinkTile(CoreLayerPlan* p, const CoreParams& cp, int positions, Fits fits) {
  p->tile_w = std::min(p->ow, positions);
  p->tile_h = std::min(p->oh, positions / p->tile_w);
  while (!fits()) {
    if (p->tile_h > 1) {
      --p->tile_h;
    } else if (p->tile_w > 1) {
      --p->tile_w;
    } else {
      return "one output's window does not fit a " + std::to_string(cp.bank_bytes) + "-byte bank";
    }
  }
  return "";
}

int NextPow2(int n) {
  int k = 1;
  while (k < n) k *= 2;
  return k;
}

// The depthwise interleave: one channel per bank, so a bank row is a power-of-two number of
// words (the bank holds whole rows) and a channel's patch_h rows fill its bank exactly.
std::string PlanDiag(CoreLayerPlan* p, const CoreParams& cp, int positions) {
  const oracle::ConvLayer& l = p->layer;
  const oracle::ConvGeometry& g = l.geom;
  if (p->kspec.two_kernel || p->kspec.four_kernel) return "the depthwise interleave runs in broadcast mode";
  if (g.channels != 1 || l.cout != l.groups) {
    return "the depthwise interleave takes depthwise layers (one input and one output channel per group)";
  }
  if (p->diag_g < 2 || p->diag_g > 8 || p->diag_g > cp.in_banks || l.groups % p->diag_g != 0) {
    return "depthwise interleave of " + std::to_string(p->diag_g) + " groups: 2 to 8, at most the " +
           std::to_string(cp.in_banks) + " banks, dividing the " + std::to_string(l.groups) + " groups";
  }
  auto fits = [&] {
    Patch(p, cp);
    p->bpr = NextPow2(p->bpr);
    return p->bpr <= 63 && p->patch_h * p->bpr * cp.beat_bytes <= cp.bank_bytes;  // PATCH.BPR: 6 bits
  };
  if (p->tile_w == 0 || p->tile_h == 0) {
    const std::string why = ShrinkTile(p, cp, positions, fits);
    if (!why.empty()) return why;
  } else if (!fits()) {
    return "tile " + std::to_string(p->tile_h) + "x" + std::to_string(p->tile_w) + ": its patch does not fit a bank";
  }
  if (p->tile_h * p->tile_w > positions || p->tile_h > 511 || p->tile_w > 511) return "tile does not fit the lanes";
  p->patch_h = cp.bank_bytes / (p->bpr * cp.beat_bytes);  // the bank image's rows per channel
  p->channels_per_wu = p->diag_g;
  p->nsl = 1;
  p->nty = CeilDiv(p->oh, p->tile_h);
  p->ntx = CeilDiv(p->ow, p->tile_w);
  p->nk_full = p->nk_last = p->diag_g;
  p->ppg = 1;
  p->passes = l.groups / p->diag_g;
  if (p->passes > 1023 || p->nty > 1023 || p->ntx > 1023) return "too many passes or tiles";
  return "";
}

}  // namespace

std::string PlanCoreLayer(CoreLayerPlan* p, const CoreParams& cp) {
  oracle::ConvLayer& l = p->layer;
  const std::string bad = oracle::CheckConvLayer(l, true);  // stochastic rounding: CorePostVectors
  if (!bad.empty()) return bad;
  const oracle::ConvGeometry& g = l.geom;
  p->elem16 = Fp16Data(l.mode) || p->int4;  // int4: four images per 16-bit element
  p->out8 = l.post.store == oracle::PostStore::kInt8;
  if (p->int4) {
    if (l.mode != oracle::MacMode::kInt8) return "int4 packed layers are int8 x int8 layers of values -8..7";
    if (p->kspec.format != oracle::KernelFormat::kRaw8) return "int4 kernels: format raw8";
    if (p->kspec.two_kernel || p->kspec.four_kernel || p->diag) return "int4 packed layers run in broadcast mode";
  }
  if (p->kspec.two_kernel && l.mode != oracle::MacMode::kFp16) return "the two-kernel mode takes fp16 x fp16";
  if (p->kspec.four_kernel && l.mode != oracle::MacMode::kFp16) return "the four-kernel mode takes fp16 x fp16";
  if (p->kspec.four_kernel && p->kspec.two_kernel) return "two-kernel and four-kernel modes together";
  if (p->kspec.four_kernel && p->kspec.sparse) return "the four-kernel mode takes dense kernels";
  if (p->kspec.four_kernel && cp.lanes % 4 != 0) return "the four-kernel mode needs a multiple of 4 lanes";
  // N-2.9: a compare ignores the kernel, so a kernel of zeros must not drop its data steps
  if (oracle::IsCompareMode(l.mode) && p->kspec.sparse) return "compare mode takes dense kernels";
  // N-3.4: the draws follow the result order, which a sparse kernel's early end would change
  if (l.post.sr && p->kspec.sparse) return "stochastic rounding takes dense kernels";
  if (l.mode == oracle::MacMode::kFp16 && p->kspec.format != oracle::KernelFormat::kFp16 &&
      p->kspec.format != oracle::KernelFormat::kInt8Sym && p->kspec.format != oracle::KernelFormat::kPalette) {
    return "fp16 kernels: format fp16, int8sym or palette";
  }
  if ((l.mode == oracle::MacMode::kInt8 || l.mode == oracle::MacMode::kFp16xInt8) &&
      p->kspec.format != oracle::KernelFormat::kRaw8) {
    return "int8 kernels: format raw8";
  }
  p->oh = g.OutHeight();
  p->ow = g.OutWidth();
  if (g.height > 4095 || g.width > 4095) return "input height and width: at most 4095";
  if (g.channels > 1023) return "input channels per group: at most 1023";
  if (g.pad_top > 31 || g.pad_left > 31) return "padding: at most 31";
  const int positions = cp.lanes / oracle::KernelsPerSlot(p->kspec);
  if (p->diag) return PlanDiag(p, cp, positions);
  if (p->tile_w == 0 || p->tile_h == 0) {
    const std::string why = ShrinkTile(p, cp, positions, [&] {
      Patch(p, cp);
      return ChannelBytes(*p, cp) <= cp.bank_bytes && p->bpr <= 63;
    });
    if (!why.empty()) return why;
  }
  if (p->tile_h < 1 || p->tile_w < 1 || p->tile_h * p->tile_w > positions || p->tile_h > 511 || p->tile_w > 511) {
    return "tile " + std::to_string(p->tile_h) + "x" + std::to_string(p->tile_w) + " does not fit " +
           std::to_string(positions) + " lane positions";
  }
  Patch(p, cp);
  if (p->bpr > 63) return "a patch row needs more than 63 beats";
  const int chb = ChannelBytes(*p, cp);
  if (p->channels_per_wu == 0) p->channels_per_wu = std::max(1, std::min(g.channels, cp.bank_bytes / chb));
  if (p->channels_per_wu > g.channels) p->channels_per_wu = g.channels;
  if (p->channels_per_wu * chb > cp.bank_bytes) {
    return "a work unit of " + std::to_string(p->channels_per_wu) + " channel(s) of " + std::to_string(p->patch_h) +
           " rows x " + std::to_string(p->bpr * cp.beat_bytes) + " bytes does not fit the " +
           std::to_string(cp.bank_bytes) + "-byte bank";
  }
  p->nsl = CeilDiv(g.channels, p->channels_per_wu);
  p->nty = CeilDiv(p->oh, p->tile_h);
  p->ntx = CeilDiv(p->ow, p->tile_w);
  const int per = l.cout / l.groups;
  // int4: an operation writes four slots, so a pass holds two kernels (slot bases 0 and 4)
  const int nkmax = p->int4 ? 2 : 8 * oracle::KernelsPerSlot(p->kspec);
  p->nk_full = std::min(nkmax, per);
  p->ppg = CeilDiv(per, p->nk_full);
  p->nk_last = per - (p->ppg - 1) * p->nk_full;
  p->passes = l.groups * p->ppg;
  if (p->passes > 1023 || p->nty > 1023 || p->ntx > 1023 || per > 1023) return "too many passes or tiles";
  // A pass directory entry counts its group's beats in 16 bits (docs/core.md): 8 fp16 kernels
  // of more than 32 760 steps would not fit (the RTL set-up, ane_td_setup, refuses the same).
  if (oracle::ValueBits(p->kspec) == 16 && g.Steps() > 32760) {
    return "fp16 kernels of " + std::to_string(g.Steps()) +
           " steps: more than the 32 760 a kernel group's directory entry holds";
  }
  return "";
}

oracle::Tensor3 PackInt4Images(const std::vector<oracle::Tensor3>& images) {
  if (images.empty() || images.size() > 4) throw std::invalid_argument("int4 packing: one to four images");
  const oracle::Tensor3& f = images[0];
  oracle::Tensor3 t{f.c, f.h, f.w, std::vector<uint16_t>(f.codes.size(), 0)};
  for (size_t n = 0; n < images.size(); ++n) {
    const oracle::Tensor3& x = images[n];
    if (x.c != f.c || x.h != f.h || x.w != f.w || x.codes.size() != f.codes.size()) {
      throw std::invalid_argument("int4 packing: images of different shapes");
    }
    for (size_t i = 0; i < x.codes.size(); ++i) {
      const int v = int8_t(uint8_t(x.codes[i]));
      if (v < -8 || v > 7) {
        throw std::invalid_argument("int4 packing: image " + std::to_string(n) + " value " + std::to_string(v) +
                                    " at element " + std::to_string(i) + " is outside -8..7");
      }
      t.codes[i] = uint16_t(t.codes[i] | (uint16_t(v & 0xF) << (4 * n)));
    }
  }
  return t;
}

std::vector<oracle::Tensor3> UnpackInt4Outputs(const oracle::Tensor3& y, int images) {
  if (y.c % 4 != 0 || images < 1 || images > 4) throw std::invalid_argument("int4 outputs: 4 Cout channels");
  const int cout = y.c / 4;
  const size_t plane = size_t(y.h) * size_t(y.w);
  std::vector<oracle::Tensor3> out;
  for (int n = 0; n < images; ++n) {
    oracle::Tensor3 t{cout, y.h, y.w, {}};
    for (int co = 0; co < cout; ++co) {
      const auto first = y.codes.begin() + std::ptrdiff_t(size_t(4 * co + n) * plane);
      t.codes.insert(t.codes.end(), first, first + std::ptrdiff_t(plane));
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::vector<uint16_t>> CoreCoefficients(const CoreLayerPlan& p,
                                                    const std::vector<std::vector<uint16_t>>& w) {
  std::vector<std::vector<uint16_t>> coefs(w.size());
  for (int pass = 0; pass < p.passes; ++pass) {
    oracle::KernelGroup grp = PassGroup(p, pass, w);
    const std::vector<uint32_t> words = oracle::EncodeKernelGroup(&grp);
    const oracle::DecodedGroup dec = oracle::DecodeKernelGroup(words.data(), words.size(), grp.steps);
    const std::vector<int> cos = PassChannels(p, pass);
    for (size_t k = 0; k < cos.size(); ++k) {
      if (cos[k] >= 0) coefs[size_t(cos[k])] = dec.coefs[k];
    }
  }
  return coefs;
}

CoreImage BuildCoreImage(const CoreLayerPlan& p, const CoreParams& cp, const oracle::Tensor3& x,
                         const std::vector<std::vector<uint16_t>>& w, uint64_t junk_seed) {
  const oracle::ConvLayer& l = p.layer;
  const oracle::ConvGeometry& g = l.geom;
  const int esz = p.elem16 ? 2 : 1, oesz = p.out8 ? 1 : 2;
  if (p.int4) {  // the lane multiplies by the kernel's low four bits (N-2.8)
    for (size_t co = 0; co < w.size(); ++co) {
      for (uint16_t v : w[co]) {
        if (int16_t(v) < -8 || int16_t(v) > 7) {
          throw std::invalid_argument("int4 kernel " + std::to_string(co) + " value " + std::to_string(int16_t(v)) +
                                      " is outside -8..7");
        }
      }
    }
  }
  CoreImage im;
  auto align = [](uint32_t a, uint32_t n) { return (a + n - 1) / n * n; };
  im.x_base = 0x100;
  const uint32_t x_bytes = uint32_t(x.c * x.h * x.w * esz);
  im.k_base = align(im.x_base + x_bytes + 64, 64);
  // groups
  std::vector<std::vector<uint32_t>> groups;
  uint32_t k_end = im.k_base + uint32_t(8 * p.passes);
  std::vector<uint32_t> gaddr;
  for (int pass = 0; pass < p.passes; ++pass) {
    oracle::KernelGroup grp = PassGroup(p, pass, w);
    std::vector<uint32_t> words = oracle::EncodeKernelGroup(&grp);
    const oracle::DecodedGroup dec = oracle::DecodeKernelGroup(words.data(), words.size(), grp.steps);
    im.mac_ops += uint64_t(dec.ops.size()) * uint64_t(p.nty * p.ntx);
    if (words.size() % 2) words.push_back(0);
    k_end = align(k_end, 8);
    gaddr.push_back(k_end);
    k_end += uint32_t(words.size() * 4);
    groups.push_back(std::move(words));
  }
  im.y_base = align(k_end + 64, 64);
  im.y_bytes = uint32_t(p.OutChannels() * p.oh * p.ow * oesz);
  im.mem.resize(size_t(im.y_base + im.y_bytes + 256));
  uint64_t s = junk_seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& b : im.mem) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    b = uint8_t(s >> 24);
  }
  for (int c = 0; c < x.c; ++c) {
    for (int yy = 0; yy < x.h; ++yy) {
      for (int xx = 0; xx < x.w; ++xx) {
        const uint16_t v = x.at(c, yy, xx);
        const size_t a = im.x_base + size_t(((c * x.h + yy) * x.w + xx) * esz);
        im.mem[a] = uint8_t(v);
        if (esz == 2) im.mem[a + 1] = uint8_t(v >> 8);
      }
    }
  }
  for (int pass = 0; pass < p.passes; ++pass) {
    const uint64_t entry = uint64_t(gaddr[size_t(pass)]) | uint64_t(groups[size_t(pass)].size() / 2) << 32;
    for (int i = 0; i < 8; ++i) im.mem[im.k_base + size_t(8 * pass + i)] = uint8_t(entry >> (8 * i));
    for (size_t i = 0; i < groups[size_t(pass)].size(); ++i) {
      for (int j = 0; j < 4; ++j)
        im.mem[gaddr[size_t(pass)] + 4 * i + size_t(j)] = uint8_t(groups[size_t(pass)][i] >> (8 * j));
    }
  }
  // (int4: four images' multiply-accumulates per operation)
  im.macs = uint64_t(p.int4 ? 4 : 1) * uint64_t(l.cout) * uint64_t(p.oh) * uint64_t(p.ow) * uint64_t(g.Steps());
  im.shifter_writes = CoreShifterWrites(p, cp);
  const uint32_t esz_u = uint32_t(esz), oesz_u = uint32_t(oesz);
  im.writes =
      CoreLayerWrites(p, CoreAddresses{im.x_base, uint32_t(g.height * g.width) * esz_u, uint32_t(g.width) * esz_u,
                                       im.k_base, im.y_base, uint32_t(p.oh * p.ow) * oesz_u, uint32_t(p.ow) * oesz_u});
  return im;
}

std::vector<std::pair<uint32_t, uint32_t>> CoreShifterWrites(const CoreLayerPlan& p, const CoreParams& cp) {
  const oracle::ConvGeometry& g = p.layer.geom;
  const int esz = p.elem16 ? 2 : 1;
  // the planar bank image with rows of bpr beats (ShifterConfigWrites, the SHIFTER window)
  ShifterLayer sl;
  sl.geom = g;
  sl.tile_h = p.tile_h;
  sl.tile_w = p.tile_w;
  sl.elem16 = p.elem16;
  sl.two_kernel = p.kspec.two_kernel;
  sl.four_kernel = p.kspec.four_kernel;
  sl.col_stride = 1;
  sl.row_stride = p.bpr * cp.beat_bytes / esz;
  sl.ch_stride = p.patch_h * sl.row_stride;
  namespace rc = regs::core;
  std::vector<std::pair<uint32_t, uint32_t>> w;
  for (const auto& [a, v] : ShifterConfigWrites(sl)) w.push_back({rc::WindowAddr(rc::kShifter, a), v});
  return w;
}

std::vector<std::pair<uint32_t, uint32_t>> CoreLayerWrites(const CoreLayerPlan& p, const CoreAddresses& ad) {
  const oracle::ConvLayer& l = p.layer;
  const oracle::ConvGeometry& g = l.geom;
  namespace rc = regs::core;
  std::vector<std::pair<uint32_t, uint32_t>> wr;
  // Pack throws std::out_of_range when a value does not fit its field (docs/core.md, Registers).
  auto write = [&wr](uint32_t addr, std::initializer_list<rc::FieldValue> fields) {
    wr.push_back({addr, rc::Pack(addr, fields)});
  };
  write(rc::kKextAddr, {{rc::kKextC, g.channels}, {rc::kKextKh, g.kernel_h}, {rc::kKextKw, g.kernel_w}});
  const bool params = l.post.scale_en || l.post.bias_en;
  write(rc::kLayerAddr, {{rc::kLayerCg, p.diag ? p.diag_g : g.channels},
                         {rc::kLayerMode, ModeBits(p)},
                         {rc::kLayerTwoKernel, p.kspec.two_kernel},
                         {rc::kLayerElem16, p.elem16},
                         {rc::kLayerParams, params},
                         {rc::kLayerOut8, p.out8},
                         {rc::kLayerDiag, p.diag},
                         {rc::kLayerFourKernel, p.kspec.four_kernel}});
  write(rc::kTileAddr, {{rc::kTileTileH, p.tile_h}, {rc::kTileTileW, p.tile_w}, {rc::kTileNc, p.channels_per_wu}});
  write(rc::kGridAddr, {{rc::kGridNty, p.nty}, {rc::kGridNtx, p.ntx}, {rc::kGridNsl, p.nsl}});
  write(rc::kPassAddr,
        {{rc::kPassNp, p.passes}, {rc::kPassPpg, p.ppg}, {rc::kPassNkFull, p.nk_full}, {rc::kPassNkLast, p.nk_last}});
  write(rc::kCgoutAddr, {{rc::kCgoutCgout, p.diag ? p.diag_g : l.cout / l.groups}});
  write(rc::kInAddr, {{rc::kInH, g.height}, {rc::kInW, g.width}});
  write(rc::kOutAddr, {{rc::kOutOh, p.oh}, {rc::kOutOw, p.ow}});
  write(rc::kWinAddr,
        {{rc::kWinSy, g.stride_y}, {rc::kWinSx, g.stride_x}, {rc::kWinPt, g.pad_top}, {rc::kWinPl, g.pad_left}});
  write(rc::kPatchAddr, {{rc::kPatchPh, p.patch_h}, {rc::kPatchPw, p.patch_w}, {rc::kPatchBpr, p.bpr}});
  write(rc::kXbaseAddr, {{rc::kXbaseBase, ad.x_base}});
  write(rc::kXchsAddr, {{rc::kXchsStride, ad.x_chs}});
  write(rc::kXrsAddr, {{rc::kXrsStride, ad.x_rs}});
  write(rc::kKbaseAddr, {{rc::kKbaseBase, ad.k_base}});
  write(rc::kYbaseAddr, {{rc::kYbaseBase, ad.y_base}});
  write(rc::kYchsAddr, {{rc::kYchsStride, ad.y_chs}});
  write(rc::kYrsAddr, {{rc::kYrsStride, ad.y_rs}});
  return wr;
}

std::vector<oracle::PostVector> CorePostVectors(const CoreLayerPlan& p, const CoreParams& cp) {
  std::vector<oracle::PostVector> order;
  for (int pass = 0; pass < p.passes; ++pass) {
    const std::vector<int> kernels = PassChannels(p, pass);
    for (int ty = 0; ty < p.nty; ++ty) {
      for (int tx = 0; tx < p.ntx; ++tx) {
        for (int co : kernels) {
          oracle::PostVector v{co, std::vector<int>(size_t(cp.lanes), -1)};
          for (int i = 0; i < p.tile_h * p.tile_w && i < cp.lanes; ++i) {
            const int oy = ty * p.tile_h + i / p.tile_w, ox = tx * p.tile_w + i % p.tile_w;
            if (oy < p.oh && ox < p.ow) v.pos[size_t(i)] = oy * p.ow + ox;
          }
          order.push_back(std::move(v));
        }
      }
    }
  }
  return order;
}

}  // namespace ane::harness
