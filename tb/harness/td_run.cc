#include "tb/harness/td_run.h"

#include "Vane_core256_m1.h"
#include "Vane_td_ctrl256.h"
#include "tb/harness/sim.h"

namespace ane::harness {

TdSystemResult RunTdProgram256(std::vector<uint8_t>* mem, const TdSystemJob& job,
                               const std::function<bool(uint64_t)>& writable, const CoreRunOptions& options,
                               uint32_t x_seed) {
  Sim<Vane_td_ctrl256> ctrl("ane_td_ctrl", "td_ctrl256", x_seed);
  Sim<Vane_core256_m1> core("ane_core", "core256", x_seed + 1);
  TdSystem<Vane_td_ctrl256, Vane_core256_m1> sys(ctrl, core, kTdCtrl256Params);
  sys.Reset();
  sys.mem() = std::move(*mem);
  TdSystemResult r = sys.Run(job, writable, options);
  *mem = std::move(sys.mem());
  return r;
}

}  // namespace ane::harness
