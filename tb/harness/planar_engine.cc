// SPDX-License-Identifier: Apache-2.0
#include "tb/harness/planar_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "tb/oracle/elementwise.h"
#include "tb/regs/ane_regs.h"

namespace ane::harness {
namespace {

namespace rp = regs::planar;

int Eb(const PlanarOperand& o) { return o.int8 ? 1 : 2; }

uint16_t LoadElem(const std::vector<uint8_t>& m, uint64_t a, bool int8) {
  if (int8) return oracle::Int8ToFp16(int8_t(m.at(size_t(a))));
  return uint16_t(m.at(size_t(a)) | m.at(size_t(a) + 1) << 8);
}

}  // namespace

int EwArity(PeEwOp op) {
  switch (op) {
    case PeEwOp::kAdd:
    case PeEwOp::kSub:
    case PeEwOp::kMul:
    case PeEwOp::kMax:
    case PeEwOp::kMin:
    case PeEwOp::kCompare: return 2;
    case PeEwOp::kMultiplyAdd:
    case PeEwOp::kAddMultiply: return 3;
    default: return 1;
  }
}

PlanarShape PlanarOutShape(const PlanarTask& t) {
  switch (t.kind) {
    case PlanarKind::kElementwise: return {t.c, t.h, t.w};
    case PlanarKind::kReduce: return t.axis ? PlanarShape{t.c, 1, 1} : PlanarShape{t.c, t.h, 1};
    case PlanarKind::kLineReduce: return t.axis ? PlanarShape{1, t.h, t.w} : PlanarShape{t.c, 1, t.w};
    case PlanarKind::kPool: return t.axis ? PlanarShape{t.c, t.h, t.w} : PlanarShape{t.c, t.pool.oh, t.pool.ow};
  }
  return {t.c, t.h, t.w};
}

bool PlanarChannelsLast(const PlanarTask& t) { return t.kind == PlanarKind::kPool && t.axis; }

uint64_t PlanarDstAddr(const PlanarTask& t, int c, int y, int x) {
  const uint64_t eb = uint64_t(Eb(t.dst));
  if (PlanarChannelsLast(t))
    return uint64_t(t.dst.base) + uint64_t(c) * eb + uint64_t(y) * t.dst.row + uint64_t(x) * t.dst.plane;
  return uint64_t(t.dst.base) + uint64_t(c) * t.dst.plane + uint64_t(y) * t.dst.row + uint64_t(x) * eb;
}

oracle::ConvGeometry PlanarPoolGeometry(const PlanarTask& t) {
  oracle::ConvGeometry g;
  g.channels = t.c;
  g.height = t.h;
  g.width = t.w;
  g.kernel_h = t.pool.kh;
  g.kernel_w = t.pool.kw;
  g.stride_y = t.pool.sy;
  g.stride_x = t.pool.sx;
  g.pad_top = t.pool.pt;
  g.pad_left = t.pool.pl;
  g.pad_bottom = std::max(0, (t.pool.oh - 1) * t.pool.sy + t.pool.kh - t.h - t.pool.pt);
  g.pad_right = std::max(0, (t.pool.ow - 1) * t.pool.sx + t.pool.kw - t.w - t.pool.pl);
  return g;
}

namespace {
// [first, last] byte of an operand's elements over `c` planes, `h` rows and `w` columns
std::pair<uint64_t, uint64_t> Extent(const PlanarOperand& o, int c, int h, int w) {
  const uint64_t last = uint64_t(o.base) + uint64_t(c - 1) * o.plane + uint64_t(h - 1) * o.row +
                        (o.bw ? 0 : uint64_t(w - 1) * uint64_t(Eb(o))) + uint64_t(Eb(o)) - 1;
  return {o.base, last};
}
}  // namespace

std::string CheckPlanarTask(const PlanarTask& t) {
  if (t.c < 1 || t.h < 1 || t.w < 1) return fmt::format("a zero size [{}, {}, {}]", t.c, t.h, t.w);
  if (!rp::Fits(rp::kChanC, t.c) || !rp::Fits(rp::kShapeH, t.h) || !rp::Fits(rp::kShapeW, t.w)) {
    return fmt::format("[{}, {}, {}] is past the engine's 16383 per dimension", t.c, t.h, t.w);
  }
  if (t.fco_bypass && (t.dst.int8 || t.fco.gain)) {
    return "the int8 store and the width-slice gain are the result converter's: not with O_BYPASS";
  }
  if (t.kind == PlanarKind::kPool && t.pool.flat) {  // pooling or channels last
    if (int64_t(t.h) * t.w > 16383)
      return fmt::format("a FLAT pooling's plane of {}x{} is past 16383 positions", t.h, t.w);
    for (int s = 0; s < EwArity(t.ew); ++s) {
      const PlanarOperand& o = t.src[s];
      if (o.bw || o.row != uint32_t(t.w * Eb(o)))
        return fmt::format("a FLAT pooling's source {} is not dense (row stride {} bytes)", s, o.row);
    }
  }
  if (t.kind == PlanarKind::kPool && !t.axis) {
    const PlanarPool& p = t.pool;
    if (p.kh < 1 || p.kh > 8 || p.kw < 1 || p.kw > 8)
      return fmt::format("pooling window {}x{} is outside 1x1 .. 8x8", p.kh, p.kw);
    if (p.sy < 1 || p.sy > 8 || p.sx < 1 || p.sx > 8)
      return fmt::format("pooling stride [{}, {}] is outside 1 .. 8", p.sy, p.sx);
    if (p.pt < 0 || p.pt >= p.kh || p.pl < 0 || p.pl >= p.kw) return "pooling padding must be smaller than the window";
    if (p.ow < 1 || p.oh < 1 || !rp::Fits(rp::kPooloutOh, p.oh))
      return fmt::format("pooling output {}x{} is empty or too tall", p.oh, p.ow);
    if (p.ow > kPlanarPoolW) {
      return fmt::format("a pooling output row of {} is wider than the engine's {} (PoolW)", p.ow, kPlanarPoolW);
    }
    const oracle::ConvGeometry g = PlanarPoolGeometry(t);
    const std::string bad = oracle::CheckPoolGeometry(g);
    if (!bad.empty()) return bad;
    if (g.OutHeight() != p.oh || g.OutWidth() != p.ow) {
      return fmt::format(
          "pooling output {}x{} does not follow from the input {}x{}, window and padding (it gives {}x{})", p.oh, p.ow,
          t.h, t.w, g.OutHeight(), g.OutWidth());
    }
  }
  if (t.kind != PlanarKind::kElementwise) {
    // the engine writes results while it still reads: a result must not land on a source
    const PlanarShape o = PlanarOutShape(t);
    const std::pair<uint64_t, uint64_t> d = {PlanarDstAddr(t, 0, 0, 0),
                                             PlanarDstAddr(t, o.c - 1, o.h - 1, o.w - 1) + uint64_t(Eb(t.dst)) - 1};
    for (int s = 0; s < EwArity(t.ew); ++s) {
      const auto e = Extent(t.src[s], t.c, t.h, t.w);
      if (d.first <= e.second && e.first <= d.second) {
        return fmt::format("the result overlaps source {} (a reduction or pooling writes while it reads)", s);
      }
    }
  }
  return "";
}

std::vector<std::pair<uint32_t, uint32_t>> PlanarWrites(const PlanarTask& t) {
  using rp::Pack;
  const char* why = "the task is too large for the planar engine";
  std::vector<std::pair<uint32_t, uint32_t>> w;
  w.push_back({rp::kModeAddr, Pack(rp::kModeAddr,
                                   {{rp::kModeKind, int(t.kind)},
                                    {rp::kModeAxis, t.axis},
                                    {rp::kModeEwop, int(t.ew)},
                                    {rp::kModeTreeop, int(t.tree)},
                                    {rp::kModePostop, int(t.post)}},
                                   why)});
  w.push_back({rp::kShapeAddr, Pack(rp::kShapeAddr, {{rp::kShapeW, t.w}, {rp::kShapeH, t.h}}, why)});
  w.push_back({rp::kChanAddr, Pack(rp::kChanAddr, {{rp::kChanC, t.c}}, why)});
  w.push_back({rp::kFmtAddr, Pack(rp::kFmtAddr, {{rp::kFmtS0Int8, t.src[0].int8},
                                                 {rp::kFmtS1Int8, t.src[1].int8},
                                                 {rp::kFmtS2Int8, t.src[2].int8},
                                                 {rp::kFmtDInt8, t.dst.int8},
                                                 {rp::kFmtS0Bw, t.src[0].bw},
                                                 {rp::kFmtS1Bw, t.src[1].bw},
                                                 {rp::kFmtS2Bw, t.src[2].bw}})});
  w.push_back({rp::kFcaAddr, Pack(rp::kFcaAddr, {{rp::kFcaScale, t.fca.scale}, {rp::kFcaBias, t.fca.bias}})});
  w.push_back({rp::kFcoAddr, Pack(rp::kFcoAddr, {{rp::kFcoScale, t.fco.scale}, {rp::kFcoBias, t.fco.bias}})});
  w.push_back({rp::kFcctlAddr, Pack(rp::kFcctlAddr, {{rp::kFcctlAUnary, int(t.fca.unary)},
                                                     {rp::kFcctlOUnary, int(t.fco.unary)},
                                                     {rp::kFcctlOGain, t.fco.gain},
                                                     {rp::kFcctlABypass, t.fca_bypass},
                                                     {rp::kFcctlOBypass, t.fco_bypass}})});
  if (t.kind == PlanarKind::kPool) {
    w.push_back({rp::kPoolAddr, Pack(rp::kPoolAddr,
                                     {{rp::kPoolKh, t.pool.kh},
                                      {rp::kPoolKw, t.pool.kw},
                                      {rp::kPoolSy, t.pool.sy},
                                      {rp::kPoolSx, t.pool.sx},
                                      {rp::kPoolPt, t.pool.pt},
                                      {rp::kPoolPl, t.pool.pl},
                                      {rp::kPoolFlat, t.pool.flat}},
                                     why)});
    w.push_back(
        {rp::kPooloutAddr, Pack(rp::kPooloutAddr, {{rp::kPooloutOw, t.pool.ow}, {rp::kPooloutOh, t.pool.oh}}, why)});
    w.push_back({rp::kPoolnAddr, Pack(rp::kPoolnAddr, {{rp::kPoolnN, t.pool.flat ? t.h * t.w : 0}}, why)});
  } else {
    w.push_back({rp::kPoolAddr, 0});  // (POOLN matters only to a FLAT pooling: not written)
    w.push_back({rp::kPooloutAddr, 0});
  }
  const uint32_t a[12][2] = {
      {rp::kS0baseAddr, t.src[0].base}, {rp::kS0rowAddr, t.src[0].row}, {rp::kS0planeAddr, t.src[0].plane},
      {rp::kS1baseAddr, t.src[1].base}, {rp::kS1rowAddr, t.src[1].row}, {rp::kS1planeAddr, t.src[1].plane},
      {rp::kS2baseAddr, t.src[2].base}, {rp::kS2rowAddr, t.src[2].row}, {rp::kS2planeAddr, t.src[2].plane},
      {rp::kDbaseAddr, t.dst.base},     {rp::kDrowAddr, t.dst.row},     {rp::kDplaneAddr, t.dst.plane}};
  for (const auto& [addr, v] : a) w.push_back({addr, v});
  w.push_back({rp::kStartAddr, 1});
  return w;
}

void PlanarReference(const PlanarTask& t, std::vector<uint8_t>* mem) {
  const int arity = EwArity(t.ew);
  oracle::FcConfig fa = t.fca, fo = t.fco;
  fa.in_int8 = false;  // the reader converts an int8 source exactly (the same value)
  fa.gain = false;
  fa.out_int8 = false;
  fo.in_int8 = false;
  fo.out_int8 = t.dst.int8;
  // the elementwise path's values
  oracle::Tensor3 v{t.c, t.h, t.w, {}};
  v.codes.reserve(size_t(t.c) * size_t(t.h) * size_t(t.w));
  for (int c = 0; c < t.c; ++c) {
    for (int y = 0; y < t.h; ++y) {
      for (int x = 0; x < t.w; ++x) {
        uint16_t in[3] = {0, 0, 0};
        for (int s = 0; s < arity; ++s) {
          const PlanarOperand& o = t.src[s];
          const uint64_t at = uint64_t(o.base) + uint64_t(c) * o.plane + uint64_t(y) * o.row +
                              (o.bw ? 0 : uint64_t(x) * uint64_t(Eb(o)));
          in[s] = LoadElem(*mem, at, o.int8);
        }
        uint16_t r = EwOracle(t.ew, t.fca_bypass ? in[0] : oracle::FormatConvert(fa, in[0]), in[1], in[2]);
        switch (t.post) {
          case PePostOp::kPass: break;
          case PePostOp::kSqrt: r = oracle::Fp16Sqrt(r); break;
          case PePostOp::kRecip: r = oracle::Fp16Recip(r); break;
          case PePostOp::kRsqrt: r = oracle::Fp16Rsqrt(r); break;
        }
        v.codes.push_back(r);
      }
    }
  }
  // then the kind's unit
  oracle::Tensor3 y;
  switch (t.kind) {
    case PlanarKind::kElementwise: y = v; break;
    case PlanarKind::kReduce:
      y = oracle::ReduceTensor(t.tree, t.axis ? oracle::ReduceAxis::kPlanes : oracle::ReduceAxis::kRows, v);
      break;
    case PlanarKind::kLineReduce:
      y = oracle::ReduceTensor(t.tree, t.axis ? oracle::ReduceAxis::kChannels : oracle::ReduceAxis::kColumns, v);
      break;
    case PlanarKind::kPool: {
      if (t.axis) {  // channels last: the values themselves
        y = v;
        break;
      }
      const oracle::PoolOp op = t.tree == oracle::ReduceOp::kSum   ? oracle::PoolOp::kMean
                                : t.tree == oracle::ReduceOp::kMax ? oracle::PoolOp::kMax
                                                                   : oracle::PoolOp::kMin;
      y = oracle::Pool(op, PlanarPoolGeometry(t), v);
      break;
    }
  }
  // FC_O and the store, after every read: a result may overwrite a source (elementwise)
  for (int c = 0; c < y.c; ++c) {
    for (int r = 0; r < y.h; ++r) {
      for (int x = 0; x < y.w; ++x) {
        const uint16_t o = t.fco_bypass ? y.at(c, r, x) : oracle::FormatConvert(fo, y.at(c, r, x));
        const uint64_t a = PlanarDstAddr(t, c, r, x);
        (*mem).at(size_t(a)) = uint8_t(o);
        if (!t.dst.int8) (*mem).at(size_t(a) + 1) = uint8_t(o >> 8);
      }
    }
  }
}

std::vector<std::pair<uint64_t, uint64_t>> PlanarWriteRanges(const PlanarTask& t) {
  std::vector<std::pair<uint64_t, uint64_t>> r;
  const PlanarShape o = PlanarOutShape(t);
  if (PlanarChannelsLast(t)) {
    for (int y = 0; y < o.h; ++y) {
      for (int x = 0; x < o.w; ++x) {
        const uint64_t b = PlanarDstAddr(t, 0, y, x);
        r.push_back({b, b + uint64_t(o.c) * uint64_t(Eb(t.dst))});
      }
    }
    return r;
  }
  for (int c = 0; c < o.c; ++c) {
    for (int y = 0; y < o.h; ++y) {
      const uint64_t b = uint64_t(t.dst.base) + uint64_t(c) * t.dst.plane + uint64_t(y) * t.dst.row;
      r.push_back({b, b + uint64_t(o.w) * uint64_t(Eb(t.dst))});
    }
  }
  return r;
}

}  // namespace ane::harness
