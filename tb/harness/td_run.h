// SPDX-License-Identifier: Apache-2.0
// A TD program on the full-size RTL (Vane_td_ctrl256 driving Vane_core256_m1 and the 16-lane
// planar engine Vane_planar16, td_system.h), for
// `ane run PROGRAM.hwx --engine rtl|both`: the caller places the chain, the weights and the
// buffers in a memory image and names the buffer table; the front end walks, plans, converts
// and runs every TD. Nothing of the C++ interpretation or planner is used.
#ifndef TB_HARNESS_TD_RUN_H_
#define TB_HARNESS_TD_RUN_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "tb/harness/core_run.h"
#include "tb/harness/td_system.h"

namespace ane::harness {

// The parameters of Vane_td_ctrl256 (rtl/CMakeLists.txt): those of Vane_core256_m1.
inline constexpr CoreParams kTdCtrl256Params = kCore256Params;

// Runs the chain on `mem` (changed in place: what the core and the kernel DMA wrote).
TdSystemResult RunTdProgram256(std::vector<uint8_t>* mem, const TdSystemJob& job,
                               const std::function<bool(uint64_t)>& writable, const CoreRunOptions& options = {},
                               uint32_t x_seed = 1);

}  // namespace ane::harness

#endif  // TB_HARNESS_TD_RUN_H_
