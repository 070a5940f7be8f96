// SPDX-License-Identifier: Apache-2.0
#include "tb/harness/planar_engine_run.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "Vane_planar16.h"
#include "tb/harness/sim.h"

namespace ane::harness {
namespace {

// A memory image with the tensors of one operation, each at a 64-byte boundary.
struct Memory {
  std::vector<uint8_t> bytes;
  uint32_t Alloc(uint64_t n) {
    const uint64_t at = (bytes.size() + 63) / 64 * 64;
    if (at + n + 64 > uint64_t(UINT32_MAX))
      throw std::invalid_argument("the operation's tensors do not fit the engine's 4 GiB");
    bytes.resize(size_t(at + n + 64), 0);
    return uint32_t(at);
  }
  // t stored densely; as an operand of a [c, h, w] result (broadcast where t has 1)
  PlanarOperand Put(const oracle::Tensor3& t, int c, int h, int w) {
    if ((t.c != c && t.c != 1) || (t.h != h && t.h != 1) || (t.w != w && t.w != 1)) {
      throw std::invalid_argument("an operand of shape [" + std::to_string(t.c) + ", " + std::to_string(t.h) + ", " +
                                  std::to_string(t.w) + "] does not broadcast to [" + std::to_string(c) + ", " +
                                  std::to_string(h) + ", " + std::to_string(w) + "]");
    }
    PlanarOperand o;
    o.base = Alloc(2 * t.codes.size());
    for (size_t i = 0; i < t.codes.size(); ++i) {
      bytes[o.base + 2 * i] = uint8_t(t.codes[i]);
      bytes[o.base + 2 * i + 1] = uint8_t(t.codes[i] >> 8);
    }
    o.bw = t.w == 1 && w > 1;
    o.row = t.h == 1 && h > 1 ? 0 : uint32_t(2 * t.w);
    o.plane = t.c == 1 && c > 1 ? 0 : uint32_t(2 * t.w * t.h);
    return o;
  }
  // t's int8 values (bits [7:0] of its codes) stored densely, one byte each
  PlanarOperand Put8(const oracle::Tensor3& t) {
    PlanarOperand o;
    o.base = Alloc(t.codes.size());
    for (size_t i = 0; i < t.codes.size(); ++i) bytes[o.base + i] = uint8_t(t.codes[i]);
    o.int8 = true;
    o.row = uint32_t(t.w);
    o.plane = uint32_t(t.w * t.h);
    return o;
  }
  PlanarOperand Out(int c, int h, int w, bool int8 = false) {
    const uint32_t eb = int8 ? 1 : 2;
    PlanarOperand o;
    o.base = Alloc(eb * uint64_t(c) * uint64_t(h) * uint64_t(w));
    o.row = uint32_t(eb * w);
    o.plane = uint32_t(eb * w * h);
    o.int8 = int8;
    return o;
  }
  // an int8 result's elements sign-extended to 16 bits
  oracle::Tensor3 Get(const PlanarOperand& o, int c, int h, int w) const {
    oracle::Tensor3 t{c, h, w, {}};
    t.codes.reserve(size_t(c) * size_t(h) * size_t(w));
    for (int k = 0; k < c; ++k) {
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const size_t a = size_t(o.base) + size_t(k) * o.plane + size_t(y) * o.row + (o.int8 ? 1 : 2) * size_t(x);
          t.codes.push_back(o.int8 ? uint16_t(int16_t(int8_t(bytes[a]))) : uint16_t(bytes[a] | bytes[a + 1] << 8));
        }
      }
    }
    return t;
  }
};

}  // namespace

void RunPlanarEngine(const std::vector<PlanarTask>& tasks, std::vector<uint8_t>* mem, PlanarEngineStats* stats) {
  for (const PlanarTask& t : tasks) {
    const std::string bad = CheckPlanarTask(t);
    if (!bad.empty()) throw std::invalid_argument("the planar engine cannot run this task: " + bad);
  }
  Sim<Vane_planar16> sim("ane_planar", "planar16_ops");
  PlanarDriver<Vane_planar16> drv(sim);
  drv.Reset();
  drv.mem() = std::move(*mem);
  for (const PlanarTask& t : tasks) {
    const PlanarRunResult r = drv.Run(t, {});
    if (stats) {
      ++stats->tasks;
      stats->cycles += r.cycles;
      stats->beats += r.beats;
      stats->reads += r.reads;
    }
  }
  *mem = std::move(drv.mem());
}

oracle::Tensor3 EngineElementwise(PeEwOp op, PePostOp post, const oracle::FcConfig* fca, const oracle::FcConfig* fco,
                                  const oracle::Tensor3& a, const oracle::Tensor3* b, const oracle::Tensor3* c,
                                  PlanarEngineStats* stats) {
  Memory m;
  PlanarTask t;
  t.kind = PlanarKind::kElementwise;
  t.ew = op;
  t.post = post;
  t.fca_bypass = fca == nullptr;
  t.fco_bypass = fco == nullptr;
  if (fca) t.fca = *fca;
  if (fco) t.fco = *fco;
  const int arity = EwArity(op);
  if (arity >= 2 && !b) throw std::invalid_argument("EngineElementwise: the operator reads b");
  if (arity >= 3 && !c) throw std::invalid_argument("EngineElementwise: the operator reads c");
  // the result's shape: each axis the largest of the operands' (the others 1 there, Put checks)
  t.c = a.c;
  t.h = a.h;
  t.w = a.w;
  for (const oracle::Tensor3* o : {arity >= 2 ? b : nullptr, arity >= 3 ? c : nullptr}) {
    if (!o) continue;
    t.c = std::max(t.c, o->c);
    t.h = std::max(t.h, o->h);
    t.w = std::max(t.w, o->w);
  }
  t.src[0] = m.Put(a, t.c, t.h, t.w);
  if (arity >= 2) t.src[1] = m.Put(*b, t.c, t.h, t.w);
  if (arity >= 3) t.src[2] = m.Put(*c, t.c, t.h, t.w);
  t.dst = m.Out(t.c, t.h, t.w);
  RunPlanarEngine({t}, &m.bytes, stats);
  return m.Get(t.dst, t.c, t.h, t.w);
}

oracle::Tensor3 EngineReduce(oracle::ReduceOp op, oracle::ReduceAxis axis, const oracle::Tensor3& x,
                             PlanarEngineStats* stats) {
  Memory m;
  PlanarTask t;
  t.ew = PeEwOp::kPass;
  t.fca_bypass = t.fco_bypass = true;
  t.tree = op;
  t.kind = ReducesThroughLineBuffer(axis) ? PlanarKind::kLineReduce : PlanarKind::kReduce;
  t.axis = axis == oracle::ReduceAxis::kPlanes || axis == oracle::ReduceAxis::kChannels;
  t.c = x.c;
  t.h = x.h;
  t.w = x.w;
  t.src[0] = m.Put(x, x.c, x.h, x.w);
  const PlanarShape o = PlanarOutShape(t);
  t.dst = m.Out(o.c, o.h, o.w);
  RunPlanarEngine({t}, &m.bytes, stats);
  return m.Get(t.dst, o.c, o.h, o.w);
}

oracle::Tensor3 EnginePool(oracle::PoolOp op, const oracle::ConvGeometry& g0, const oracle::Tensor3& x,
                           PlanarEngineStats* stats) {
  oracle::ConvGeometry g = g0;
  g.channels = x.c;
  g.height = x.h;
  g.width = x.w;
  const std::string bad = oracle::CheckPoolGeometry(g);
  if (!bad.empty()) throw std::invalid_argument(bad);
  const int oh = g.OutHeight(), ow = g.OutWidth();
  Memory m;
  const PlanarOperand src = m.Put(x, x.c, x.h, x.w);
  const PlanarOperand dst = m.Out(x.c, oh, ow);
  std::vector<PlanarTask> tasks;
  for (int ox0 = 0; ox0 < ow; ox0 += kPlanarPoolW) {
    // the strip's outputs ox0 .. ox0 + n - 1 and the input columns their windows cover
    const int n = std::min(kPlanarPoolW, ow - ox0);
    const int s0 = ox0 * g.stride_x - g.pad_left, e1 = (ox0 + n - 1) * g.stride_x - g.pad_left + g.kernel_w;
    const int x0 = std::max(0, s0), x1 = std::min(x.w, e1);
    PlanarTask t;
    t.kind = PlanarKind::kPool;
    t.ew = PeEwOp::kPass;
    t.fca_bypass = t.fco_bypass = true;
    t.tree = oracle::PoolReduceOp(op);
    t.c = x.c;
    t.h = x.h;
    t.w = x1 - x0;
    t.pool = PlanarPool{g.kernel_h, g.kernel_w, g.stride_y, g.stride_x, g.pad_top, x0 - s0, oh, n, false};
    // a strip of whole rows of a dense plane is read flat: chunks of positions cross rows
    t.pool.flat = x0 == 0 && x1 == x.w && int64_t(x.h) * x.w <= 16383;
    t.src[0] = src;
    t.src[0].base += uint32_t(2 * x0);
    t.dst = dst;
    t.dst.base += uint32_t(2 * ox0);
    tasks.push_back(t);
  }
  RunPlanarEngine(tasks, &m.bytes, stats);
  return m.Get(dst, x.c, oh, ow);
}

oracle::Tensor3 EngineConvert(const std::vector<oracle::FcConfig>& fco, bool x_int8, const oracle::Tensor3& x,
                              PlanarEngineStats* stats) {
  if (fco.empty() || (fco.size() != 1 && int(fco.size()) != x.c)) {
    throw std::invalid_argument("EngineConvert: one converter, or one per channel");
  }
  const bool out8 = fco[0].out_int8;
  for (const oracle::FcConfig& f : fco) {
    if (f.in_int8 || f.gain || f.out_int8 != out8) throw std::invalid_argument("EngineConvert: a converter's fields");
  }
  Memory m;
  const PlanarOperand src = x_int8 ? m.Put8(x) : m.Put(x, x.c, x.h, x.w);
  const PlanarOperand dst = m.Out(x.c, x.h, x.w, out8);
  std::vector<PlanarTask> tasks;
  const int per = fco.size() == 1 ? x.c : 1;
  for (int c0 = 0; c0 < x.c; c0 += per) {
    PlanarTask t;
    t.kind = PlanarKind::kElementwise;
    t.ew = PeEwOp::kPass;
    t.fca_bypass = true;  // the reader converts an int8 source exactly
    t.fco = fco[fco.size() == 1 ? 0 : size_t(c0)];
    t.c = per;
    t.h = x.h;
    t.w = x.w;
    t.src[0] = src;
    t.src[0].base += uint32_t(c0) * src.plane;
    t.dst = dst;
    t.dst.base += uint32_t(c0) * dst.plane;
    tasks.push_back(t);
  }
  RunPlanarEngine(tasks, &m.bytes, stats);
  return m.Get(dst, x.c, x.h, x.w);
}

oracle::Tensor3 EngineSlice(const oracle::Tensor3& x, int axis, int begin, int end, bool gain,
                            PlanarEngineStats* stats) {
  if (axis < 0 || axis > 2 || begin < 0 || end <= begin || end > (axis == 0 ? x.c : axis == 1 ? x.h : x.w)) {
    throw std::invalid_argument("EngineSlice: the slice is outside x");
  }
  Memory m;
  const PlanarOperand src = m.Put(x, x.c, x.h, x.w);
  PlanarTask t;
  t.kind = PlanarKind::kElementwise;
  t.ew = PeEwOp::kPass;
  t.fca_bypass = true;
  // the width-slice gain is the result converter's (scale 1, bias +0: the identity after N-1);
  // without it the converter is bypassed and the slice is a copy of the codes
  t.fco_bypass = !gain;
  t.fco.gain = gain;
  t.c = axis == 0 ? end - begin : x.c;
  t.h = axis == 1 ? end - begin : x.h;
  t.w = axis == 2 ? end - begin : x.w;
  t.src[0] = src;
  t.src[0].base += uint32_t(begin) * (axis == 0 ? src.plane : axis == 1 ? src.row : 2u);
  t.dst = m.Out(t.c, t.h, t.w);
  RunPlanarEngine({t}, &m.bytes, stats);
  return m.Get(t.dst, t.c, t.h, t.w);
}

oracle::Tensor3 EngineTranspose(const oracle::Tensor3& x, bool x_int8, const int perm[3], PlanarEngineStats* stats) {
  const int n[3] = {x.c, x.h, x.w};
  int seen = 0;
  for (int k = 0; k < 3; ++k) {
    if (perm[k] < 0 || perm[k] > 2 || (seen >> perm[k] & 1)) throw std::invalid_argument("EngineTranspose: perm");
    seen |= 1 << perm[k];
  }
  Memory m;
  const PlanarOperand src = x_int8 ? m.Put8(x) : m.Put(x, x.c, x.h, x.w);
  const uint32_t eb = x_int8 ? 1 : 2;
  const uint32_t xs[3] = {src.plane, src.row, eb};  // x's stride per axis
  const int d[3] = {n[perm[0]], n[perm[1]], n[perm[2]]};
  const PlanarOperand out = m.Out(d[0], d[1], d[2], x_int8);
  const uint32_t ys[3] = {out.plane, out.row, eb};  // y's stride per axis
  PlanarTask t;
  t.ew = PeEwOp::kPass;
  t.fca_bypass = true;     // the reader converts an int8 source exactly
  t.fco_bypass = !x_int8;  // fp16: the codes unchanged; int8: stored again by FC_O (scale 1, bias 0)
  t.fco.out_int8 = x_int8;
  t.src[0] = src;
  t.dst = out;
  if (perm[2] == 2) {
    // W stays last: a copy over [y0, y1, W], x read along perm[0] and perm[1]
    t.kind = PlanarKind::kElementwise;
    t.c = d[0];
    t.h = d[1];
    t.w = d[2];
    t.src[0].plane = xs[perm[0]];
    t.src[0].row = xs[perm[1]];
  } else {
    // channels last: the engine's channels are y's last axis, its columns x's W (at y's axis kw),
    // its rows the remaining axis (at y's axis kr)
    const int kw = perm[0] == 2 ? 0 : 1, kr = 1 - kw;
    t.kind = PlanarKind::kPool;
    t.axis = true;
    t.c = d[2];
    t.h = d[kr];
    t.w = n[2];
    t.src[0].plane = xs[perm[2]];
    t.src[0].row = xs[perm[kr]];
    t.dst.row = ys[kr];
    t.dst.plane = ys[kw];
  }
  RunPlanarEngine({t}, &m.bytes, stats);
  return m.Get(out, d[0], d[1], d[2]);
}

}  // namespace ane::harness
