// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/conv.h"

#include <stdexcept>

namespace ane::oracle {

std::string CheckConvLayer(const ConvLayer& l, bool vectors) {
  const std::string g = CheckConvGeometry(l.geom, kMaxLayerKernel);
  if (!g.empty()) return g;
  if (l.groups < 1 || l.cout < 1 || l.cout % l.groups != 0) {
    return "cout " + std::to_string(l.cout) + " is not a multiple of groups " + std::to_string(l.groups);
  }
  if (l.mode == MacMode::kInt4) {
    return std::string("MAC mode ") + MacModeName(l.mode) + " is not a convolution mode";
  }
  PostConfig pc = l.post;
  pc.gen = l.gen;
  const std::string p = ValidatePostConfig(pc);
  if (!p.empty()) return p;
  if (pc.int_acc != IsIntegerMode(l.mode)) return "post.int_acc must match the MAC mode's accumulator";
  if (pc.sr && !vectors) return "stochastic rounding is not part of a layer here (its draw order is per vector)";
  if (!l.channel.empty() && int(l.channel.size()) != l.cout) return "channel parameters: one per output channel";
  return "";
}

namespace {
void CheckCall(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w, bool vectors) {
  const std::string bad = CheckConvLayer(l, vectors);
  if (!bad.empty()) throw std::invalid_argument(bad);
  if (x.c != l.Cin() || x.h != l.geom.height || x.w != l.geom.width) throw std::invalid_argument("x shape");
  if (int(w.size()) != l.cout) throw std::invalid_argument("w: one kernel per output channel");
  const int k = l.geom.Steps();
  for (const auto& kern : w) {
    if (int(kern.size()) != k) throw std::invalid_argument("w: Cg * KH * KW steps per kernel");
  }
}

// Every output's accumulator (fp32 bits, or int32 as uint32), [Cout][OH OW].
std::vector<std::vector<uint32_t>> Accumulators(const ConvLayer& l, const Tensor3& x,
                                                const std::vector<std::vector<uint16_t>>& w) {
  const ConvGeometry& g = l.geom;
  const int k = g.Steps(), oh = g.OutHeight(), ow = g.OutWidth(), per = l.cout / l.groups;
  std::vector<std::vector<uint32_t>> acc(size_t(l.cout));
  std::vector<uint16_t> data(size_t(k), 0);
  for (int co = 0; co < l.cout; ++co) {
    const int c0 = (co / per) * g.channels;
    for (int oy = 0; oy < oh; ++oy) {
      for (int ox = 0; ox < ow; ++ox) {
        for (int s = 0; s < k; ++s) {
          ConvStep st = StepAt(g, s);
          // the conv group's channels: step c of the reduction reads channel c0 + c
          const int yy = oy * g.stride_y - g.pad_top + st.ky * g.dilation_y;
          const int xx = ox * g.stride_x - g.pad_left + st.kx * g.dilation_x;
          data[size_t(s)] = (yy < 0 || yy >= g.height || xx < 0 || xx >= g.width) ? 0 : x.at(c0 + st.c, yy, xx);
        }
        acc[size_t(co)].push_back(Reduce(l.mode, l.gen, data.data(), w[size_t(co)].data(), size_t(k)).acc);
      }
    }
  }
  return acc;
}
}  // namespace

void CheckConvCall(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w) {
  CheckCall(l, x, w, false);
}

namespace {
// The layer's accumulators post-processed over `order` (Conv2dInVectors).
Tensor3 PostInVectors(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w,
                      const std::vector<PostVector>& order) {
  const int oh = l.geom.OutHeight(), ow = l.geom.OutWidth();
  PostConfig pc = l.post;  // post.gen is the layer's
  pc.gen = l.gen;
  PostProcessor pp(pc);
  const std::vector<std::vector<uint32_t>> acc = Accumulators(l, x, w);
  const size_t plane = size_t(oh) * size_t(ow);
  Tensor3 y{l.cout, oh, ow, std::vector<uint16_t>(size_t(l.cout) * plane)};
  std::vector<uint8_t> done(y.codes.size(), 0);
  for (const PostVector& v : order) {
    if (v.co >= l.cout) throw std::invalid_argument("Conv2dInVectors: a vector's channel is past Cout");
    std::vector<uint32_t> lanes;
    for (int p : v.pos) {
      if (p >= int(plane)) throw std::invalid_argument("Conv2dInVectors: a lane's position is past OH OW");
      lanes.push_back(v.co >= 0 && p >= 0 ? acc[size_t(v.co)][size_t(p)] : 0u);
    }
    const ChannelParams ch = v.co < 0 || l.channel.empty() ? ChannelParams{} : l.channel[size_t(v.co)];
    const std::vector<uint16_t> out = pp.Process(lanes, ch);
    for (size_t i = 0; i < v.pos.size(); ++i) {
      if (v.co < 0 || v.pos[i] < 0) continue;
      const size_t at = size_t(v.co) * plane + size_t(v.pos[i]);
      if (done[at]++) throw std::invalid_argument("Conv2dInVectors: an output in two lanes");
      y.codes[at] = out[i];
    }
  }
  for (uint8_t d : done) {
    if (!d) throw std::invalid_argument("Conv2dInVectors: an output in no lane");
  }
  return y;
}
}  // namespace

Tensor3 Conv2d(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w) {
  CheckCall(l, x, w, false);
  // one vector per output channel (without stochastic rounding the order does not matter)
  const int plane = l.geom.OutHeight() * l.geom.OutWidth();
  std::vector<PostVector> order(size_t(l.cout));
  for (int co = 0; co < l.cout; ++co) {
    order[size_t(co)].co = co;
    for (int p = 0; p < plane; ++p) order[size_t(co)].pos.push_back(p);
  }
  return PostInVectors(l, x, w, order);
}

Tensor3 Conv2dInVectors(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w,
                        const std::vector<PostVector>& order) {
  CheckCall(l, x, w, true);
  return PostInVectors(l, x, w, order);
}

}  // namespace ane::oracle
