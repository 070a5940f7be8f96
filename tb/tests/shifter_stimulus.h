// SPDX-License-Identifier: Apache-2.0
// Random layers and tensors for the input buffer and shifter, and the check of its vectors: the
// stimulus and check of rtl_shifter_test and of its mid-job reset test (rtl_reset_test).
#ifndef TB_TESTS_SHIFTER_STIMULUS_H_
#define TB_TESTS_SHIFTER_STIMULUS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/harness/shifter_driver.h"
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

// A random input tensor of the layer's shape: fp16 codes, or int8 values (sign-extended).
inline oracle::Tensor3 RandomShifterTensor(Rng& rng, const oracle::ConvGeometry& g, bool elem16) {
  oracle::Tensor3 x{g.channels, g.height, g.width, {}};
  for (int i = 0; i < g.channels * g.height * g.width; ++i) {
    const uint16_t c = rng.Code();
    x.codes.push_back(elem16 ? c : uint16_t(int16_t(int8_t(uint8_t(c)))));
  }
  return x;
}

// Checks every vector against the oracle's convolution walk (every lane's value and mask).
// Returns the number of lane values compared; stops at the first difference.
inline uint64_t CheckShifterOutputs(const harness::ShifterLayer& l, const oracle::Tensor3& x,
                                    const std::vector<harness::WorkUnit>& wus,
                                    const std::vector<harness::ShifterRequest>& reqs,
                                    const std::vector<harness::ShifterOutput>& out, int lanes,
                                    const std::string& what) {
  // Map each request (in order) to its work unit.
  std::vector<size_t> wu_of;
  size_t w = 0;
  for (const harness::ShifterRequest& r : reqs) {
    wu_of.push_back(w);
    if (r.release) ++w;
  }
  EXPECT_EQ(w, wus.size()) << what;
  uint64_t compared = 0;
  size_t o = 0;
  for (size_t i = 0; i < reqs.size(); ++i) {
    if (reqs[i].nodata) continue;
    if (o >= out.size()) {
      ADD_FAILURE() << what << ": missing vector for request " << i;
      return compared;
    }
    const harness::ShifterOutput& v = out[o++];
    const harness::WorkUnit& wu = wus[wu_of[i]];
    EXPECT_EQ(v.tag, reqs[i].tag & 0xFFFF) << what << " request " << i;
    const oracle::ConvStep st{wu.c0 + reqs[i].c, wu.ky0 + reqs[i].ky, reqs[i].kx};
    const std::vector<uint16_t> want = oracle::ShifterVector(x, l.geom, wu.tile, lanes, st);
    for (int lane = 0; lane < lanes; ++lane) {
      // In two-kernel mode the shifter delivers data value p for lanes 2p and 2p + 1 (the MAC
      // array fans it out), so lane `lane` reads value lane / 2.
      const int p = l.two_kernel ? lane / 2 : lane;
      const oracle::LaneView lv = oracle::LaneAt(l.geom, wu.tile, lanes, lane);
      if (v.data[size_t(p)] != want[size_t(lane)] || v.mask[size_t(p)] != lv.active) {
        ADD_FAILURE() << what << ": request " << i << " (work unit " << wu_of[i] << ", c " << st.c << " ky " << st.ky
                      << " kx " << st.kx << ") lane " << lane << " output (" << lv.oy << ", " << lv.ox << "): rtl 0x"
                      << std::hex << v.data[size_t(p)] << " mask " << v.mask[size_t(p)] << ", oracle 0x"
                      << want[size_t(lane)] << " active " << lv.active << std::dec;
        return compared;
      }
      ++compared;
    }
    if (l.two_kernel) {  // the upper half of the data vector is idle
      for (int p = lanes / 2; p < lanes; ++p) {
        EXPECT_EQ(v.data[size_t(p)], 0) << what;
        EXPECT_FALSE(v.mask[size_t(p)]) << what;
      }
    }
  }
  EXPECT_EQ(o, out.size()) << what;
  return compared;
}

}  // namespace ane::test

#endif  // TB_TESTS_SHIFTER_STIMULUS_H_
