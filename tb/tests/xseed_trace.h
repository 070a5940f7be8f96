// SPDX-License-Identifier: Apache-2.0
// N-7.1: the X seed (--x-initial unique) may not change what a block does. A test runs the same
// stimulus under several X seeds, the first being 1, and records each run's outputs cycle by
// cycle (with the don't-care payloads masked); every later run must equal the first.
#ifndef TB_TESTS_XSEED_TRACE_H_
#define TB_TESTS_XSEED_TRACE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ane::test {

// Keeps x seed 1's trace in *first; compares any other seed's trace with it. `what` names the
// run ("walk", "job", ...) in the message.
inline void ExpectSameAsXSeed1(uint32_t xs, const std::vector<std::string>& trace, std::vector<std::string>* first,
                               const char* what) {
  if (xs == 1) {
    *first = trace;
    return;
  }
  ASSERT_EQ(trace.size(), first->size()) << "x seed " << xs << ": cycles of the " << what;
  for (size_t i = 0; i < trace.size(); ++i) {
    ASSERT_EQ(trace[i], (*first)[i]) << "x seed " << xs << " differs from x seed 1 at cycle " << i;
  }
}

}  // namespace ane::test

#endif  // TB_TESTS_XSEED_TRACE_H_
