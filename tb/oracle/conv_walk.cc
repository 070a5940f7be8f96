// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/conv_walk.h"

#include <string>

namespace ane::oracle {

namespace {
std::string S(int v) { return std::to_string(v); }
}  // namespace

int ConvGeometry::OutHeight() const {
  const int span = height + pad_top + pad_bottom - dilation_y * (kernel_h - 1) - 1;
  return span < 0 ? 0 : span / stride_y + 1;
}

int ConvGeometry::OutWidth() const {
  const int span = width + pad_left + pad_right - dilation_x * (kernel_w - 1) - 1;
  return span < 0 ? 0 : span / stride_x + 1;
}

std::string CheckConvGeometry(const ConvGeometry& g, int max_kernel) {
  if (g.channels < 1 || g.height < 1 || g.width < 1) {
    return "input shape [" + S(g.channels) + ", " + S(g.height) + ", " + S(g.width) + "] must be positive";
  }
  if (g.kernel_h < 1 || g.kernel_h > max_kernel || g.kernel_w < 1 || g.kernel_w > max_kernel) {
    return "kernel " + S(g.kernel_h) + "x" + S(g.kernel_w) + " is outside 1x1 .. " + S(max_kernel) + "x" +
           S(max_kernel);
  }
  if (g.stride_y < 1 || g.stride_y > 4 || g.stride_x < 1 || g.stride_x > 4) {
    return "stride [" + S(g.stride_y) + ", " + S(g.stride_x) + "] is outside 1 .. 4";
  }
  if (g.dilation_y < 1 || g.dilation_y > 4 || g.dilation_x < 1 || g.dilation_x > 4) {
    return "dilation [" + S(g.dilation_y) + ", " + S(g.dilation_x) + "] is outside 1 .. 4";
  }
  const int ext_y = g.dilation_y * (g.kernel_h - 1) + 1;
  const int ext_x = g.dilation_x * (g.kernel_w - 1) + 1;
  if (g.pad_top < 0 || g.pad_bottom < 0 || g.pad_top >= ext_y || g.pad_bottom >= ext_y || g.pad_left < 0 ||
      g.pad_right < 0 || g.pad_left >= ext_x || g.pad_right >= ext_x) {
    return "padding [" + S(g.pad_top) + ", " + S(g.pad_bottom) + ", " + S(g.pad_left) + ", " + S(g.pad_right) +
           "] must be 0 .. " + S(ext_y - 1) + " rows and 0 .. " + S(ext_x - 1) +
           " columns (less than the dilated kernel)";
  }
  if (g.OutHeight() < 1 || g.OutWidth() < 1) {
    return "the " + S(g.height) + "x" + S(g.width) + " input gives no output for this kernel, stride and padding";
  }
  return "";
}

ConvStep StepAt(const ConvGeometry& g, int s) {
  ConvStep st;
  st.kx = s % g.kernel_w;
  st.ky = (s / g.kernel_w) % g.kernel_h;
  st.c = s / (g.kernel_w * g.kernel_h);
  return st;
}

int StepIndex(const ConvGeometry& g, const ConvStep& st) { return (st.c * g.kernel_h + st.ky) * g.kernel_w + st.kx; }

uint16_t ConvInputAt(const Tensor3& x, const ConvGeometry& g, int oy, int ox, const ConvStep& st) {
  const int y = oy * g.stride_y - g.pad_top + st.ky * g.dilation_y;
  const int xx = ox * g.stride_x - g.pad_left + st.kx * g.dilation_x;
  if (y < 0 || y >= g.height || xx < 0 || xx >= g.width) return 0;  // zero padding
  return x.at(st.c, y, xx);
}

LaneView LaneAt(const ConvGeometry& g, const TileMap& t, int lanes, int lane) {
  LaneView v;
  const int per = t.four_kernel ? 4 : t.two_kernel ? 2 : 1;
  const int p = lane / per;
  const int positions = lanes / per;
  if (p >= positions || p >= t.tile_h * t.tile_w) return v;
  v.oy = t.oy0 + p / t.tile_w;
  v.ox = t.ox0 + p % t.tile_w;
  v.active = v.oy < g.OutHeight() && v.ox < g.OutWidth();
  return v;
}

std::vector<uint16_t> ShifterVector(const Tensor3& x, const ConvGeometry& g, const TileMap& t, int lanes,
                                    const ConvStep& st) {
  std::vector<uint16_t> v(size_t(lanes), 0);
  for (int l = 0; l < lanes; ++l) {
    const LaneView lv = LaneAt(g, t, lanes, l);
    if (lv.active) v[size_t(l)] = ConvInputAt(x, g, lv.oy, lv.ox, st);
  }
  return v;
}

}  // namespace ane::oracle
