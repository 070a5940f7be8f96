// SPDX-License-Identifier: Apache-2.0
#include "tb/harness/sim.h"

#include <gtest/gtest.h>

namespace ane::harness {

std::string CurrentTestStem() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string stem = info ? std::string(info->test_suite_name()) + "." + info->name() : "sim";
  for (char& c : stem) {
    if (c == '/') c = '_';
  }
  return stem;
}

}  // namespace ane::harness
