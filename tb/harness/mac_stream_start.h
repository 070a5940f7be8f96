// SPDX-License-Identifier: Apache-2.0
// The common start of a MAC lane or array simulation (they share these port names): inputs
// idle, the result port always ready, no read, then the reset.
#ifndef TB_HARNESS_MAC_STREAM_START_H_
#define TB_HARNESS_MAC_STREAM_START_H_

#include "tb/harness/sim.h"

namespace ane::harness {

template <class Model>
void StartMacStream(Sim<Model>& sim) {
  auto& dut = sim.dut();
  dut.clk_i = 0;
  dut.in_valid_i = 0;
  dut.out_ready_i = 1;
  dut.rd_en_i = 0;
  sim.Reset();
}

}  // namespace ane::harness

#endif  // TB_HARNESS_MAC_STREAM_START_H_
