// SPDX-License-Identifier: Apache-2.0
#include "tb/harness/td_run.h"

#include "Vane_core256_m1.h"
#include "Vane_planar16.h"
#include "Vane_td_ctrl256.h"
#include "tb/harness/sim.h"

namespace ane::harness {

TdSystemResult RunTdProgram256(std::vector<uint8_t>* mem, const TdSystemJob& job,
                               const std::function<bool(uint64_t)>& writable, const CoreRunOptions& options,
                               uint32_t x_seed) {
  Sim<Vane_td_ctrl256> ctrl("ane_td_ctrl", "td_ctrl256", x_seed);
  Sim<Vane_core256_m1> core("ane_core", "core256", x_seed + 1);
  Sim<Vane_planar16> planar("ane_planar", "planar16", x_seed + 2);
  TdSystem<Vane_td_ctrl256, Vane_core256_m1, Vane_planar16> sys(ctrl, core, planar, kTdCtrl256Params);
  sys.Reset();
  sys.mem() = std::move(*mem);
  TdSystemResult r = sys.Run(job, writable, options);
  *mem = std::move(sys.mem());
  return r;
}

}  // namespace ane::harness
