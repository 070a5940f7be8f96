// SPDX-License-Identifier: Apache-2.0
// The activation tables on the post-processor RTL, for `ane --engine rtl|both` (op activation):
// every fp16 input goes through an 8-lane ane_postproc (generation m5, so that the output port
// stage passes every fp16 value, denormals included, unchanged) configured with the table.
#ifndef TB_HARNESS_POSTPROC_RUN_H_
#define TB_HARNESS_POSTPROC_RUN_H_

#include <cstdint>
#include <vector>

#include "tb/harness/postproc_driver.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/postproc.h"

namespace ane::harness {

inline constexpr int kPostprocLanes = 8;

struct RtlPostStats {
  int64_t vectors = 0;
  uint64_t cycles = 0;  // from the first vector in to the last result out
  double seconds = 0;
};

// Any post-processing configuration on the 8-lane model of cfg.gen: one output vector per input
// vector, no gaps, no back-pressure.
std::vector<std::vector<uint16_t>> RtlPostprocess(const oracle::PostConfig& cfg, const std::vector<PostVector>& in,
                                                  RtlPostStats* stats = nullptr);

std::vector<uint16_t> RtlActivation(const oracle::ActTable& table, const std::vector<uint16_t>& x,
                                    RtlPostStats* stats = nullptr);

}  // namespace ane::harness

#endif  // TB_HARNESS_POSTPROC_RUN_H_
