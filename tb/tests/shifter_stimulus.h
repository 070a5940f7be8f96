// SPDX-License-Identifier: Apache-2.0
// Random layers for the input buffer and shifter: the stimulus of rtl_shifter_test and of its
// mid-job reset test (rtl_reset_test).
#ifndef TB_TESTS_SHIFTER_STIMULUS_H_
#define TB_TESTS_SHIFTER_STIMULUS_H_

#include <algorithm>
#include <cstdint>
#include <string>

#include "tb/oracle/conv_walk.h"
#include "tb/plan/work_unit.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

// A random layer (every kernel, stride, dilation, padding, element size and layout) that fits
// `lanes` lanes and a bank of `bank_bytes`: the work unit is shrunk until the planner accepts it.
// With `banks` > 2 (the model's NumBanks), a quarter of the planar layers hold a bank per
// channel: work units of up to `banks` banks.
inline harness::ShifterLayer RandomShifterLayer(Rng& rng, int lanes, int bank_bytes, int banks = 2) {
  for (;;) {
    harness::ShifterLayer l;
    oracle::ConvGeometry& g = l.geom;
    g.kernel_h = 1 + int(rng.Below(7));
    g.kernel_w = 1 + int(rng.Below(7));
    g.stride_y = 1 + int(rng.Below(4));
    g.stride_x = 1 + int(rng.Below(4));
    g.dilation_y = 1 + int(rng.Below(4));
    g.dilation_x = 1 + int(rng.Below(4));
    const int ey = g.dilation_y * (g.kernel_h - 1) + 1, ex = g.dilation_x * (g.kernel_w - 1) + 1;
    g.pad_top = int(rng.Below(uint32_t(ey)));
    g.pad_bottom = int(rng.Below(uint32_t(ey)));
    g.pad_left = int(rng.Below(uint32_t(ex)));
    g.pad_right = int(rng.Below(uint32_t(ex)));
    g.channels = 1 + int(rng.Below(3));
    g.height = std::max(1, ey - g.pad_top - g.pad_bottom) + int(rng.Below(8));
    g.width = std::max(1, ex - g.pad_left - g.pad_right) + int(rng.Below(8));
    if (!oracle::CheckConvGeometry(g).empty()) continue;
    l.elem16 = rng.Below(3) != 0;
    l.two_kernel = l.elem16 && rng.Below(3) == 0;
    l.layout = rng.Below(2) ? harness::Layout::kPlanar : harness::Layout::kInterleaved;
    const int positions = l.two_kernel ? lanes / 2 : lanes;
    l.tile_w = 1 + int(rng.Below(uint32_t(positions)));
    l.tile_h = 1 + int(rng.Below(uint32_t(positions / l.tile_w)));
    l.channels_per_wu = 1 + int(rng.Below(uint32_t(g.channels)));
    l.kernel_rows_per_wu = 0;
    std::string why = harness::PlanShifterLayer(&l, lanes, bank_bytes);
    // Shrink until the work unit fits the bank: fewer channels, then kernel rows, then tile.
    while (!why.empty() && why.find("bank") != std::string::npos) {
      if (l.channels_per_wu > 1) {
        --l.channels_per_wu;
      } else if ((l.kernel_rows_per_wu == 0 ? g.kernel_h : l.kernel_rows_per_wu) > 1) {
        l.kernel_rows_per_wu = (l.kernel_rows_per_wu == 0 ? g.kernel_h : l.kernel_rows_per_wu) - 1;
      } else if (l.tile_w > 1) {
        --l.tile_w;
      } else if (l.tile_h > 1) {
        --l.tile_h;
      } else {
        break;
      }
      why = harness::PlanShifterLayer(&l, lanes, bank_bytes);
    }
    if (why.empty() && banks > 2 && l.layout == harness::Layout::kPlanar && rng.Below(4) == 0) {
      harness::ShifterLayer b = l;
      b.bank_per_channel = true;
      if (rng.Below(3) == 0) b.geom.channels = banks;  // a work unit of the whole ring
      b.channels_per_wu = 1 + int(rng.Below(uint32_t(std::min(b.geom.channels, banks))));
      if (harness::PlanShifterLayer(&b, lanes, bank_bytes).empty()) return b;
    }
    if (why.empty()) return l;
  }
}

}  // namespace ane::test

#endif  // TB_TESTS_SHIFTER_STIMULUS_H_
