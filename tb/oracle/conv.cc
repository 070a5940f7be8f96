// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/conv.h"

#include <stdexcept>

namespace ane::oracle {

std::string CheckConvLayer(const ConvLayer& l) {
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
  if (pc.sr) return "stochastic rounding is not part of a layer here (its draw order is per vector)";
  if (!l.channel.empty() && int(l.channel.size()) != l.cout) return "channel parameters: one per output channel";
  return "";
}

void CheckConvCall(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w) {
  const std::string bad = CheckConvLayer(l);
  if (!bad.empty()) throw std::invalid_argument(bad);
  if (x.c != l.Cin() || x.h != l.geom.height || x.w != l.geom.width) throw std::invalid_argument("x shape");
  if (int(w.size()) != l.cout) throw std::invalid_argument("w: one kernel per output channel");
}

Tensor3 Conv2d(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w) {
  CheckConvCall(l, x, w);
  const ConvGeometry& g = l.geom;
  const int k = g.Steps(), oh = g.OutHeight(), ow = g.OutWidth(), per = l.cout / l.groups;
  PostConfig pc = l.post;
  pc.gen = l.gen;
  PostProcessor pp(pc);
  Tensor3 y{l.cout, oh, ow, std::vector<uint16_t>(size_t(l.cout) * size_t(oh) * size_t(ow))};
  std::vector<uint16_t> data(size_t(k), 0);
  for (int co = 0; co < l.cout; ++co) {
    if (int(w[size_t(co)].size()) != k) throw std::invalid_argument("w: Cg * KH * KW steps per kernel");
    const int c0 = (co / per) * g.channels;
    std::vector<uint32_t> acc;
    for (int oy = 0; oy < oh; ++oy) {
      for (int ox = 0; ox < ow; ++ox) {
        for (int s = 0; s < k; ++s) {
          ConvStep st = StepAt(g, s);
          // the conv group's channels: step c of the reduction reads channel c0 + c
          const int yy = oy * g.stride_y - g.pad_top + st.ky * g.dilation_y;
          const int xx = ox * g.stride_x - g.pad_left + st.kx * g.dilation_x;
          data[size_t(s)] = (yy < 0 || yy >= g.height || xx < 0 || xx >= g.width) ? 0 : x.at(c0 + st.c, yy, xx);
        }
        acc.push_back(Reduce(l.mode, l.gen, data.data(), w[size_t(co)].data(), size_t(k)).acc);
      }
    }
    const ChannelParams ch = l.channel.empty() ? ChannelParams{} : l.channel[size_t(co)];
    const std::vector<uint16_t> out = pp.Process(acc, ch);
    for (size_t i = 0; i < out.size(); ++i) y.codes[size_t(co) * size_t(oh * ow) + i] = out[i];
  }
  return y;
}

}  // namespace ane::oracle
