// SPDX-License-Identifier: Apache-2.0
// Stand-ins for the engine half of operation.h (operation.cc, which links the Verilated models),
// for the suite target only. RunSuite calls CheckEngine on every case it reads; the target uses
// Engine::kOracle, for which CheckEngine accepts every operation, as here. The others run or
// report cases, which the target never does (it selects no case): reaching one is a finding.
#include <cstdio>
#include <cstdlib>

#include "tb/cli/operation.h"

namespace ane::cli {

namespace {

[[noreturn]] void Unreachable(const char* what) {
  std::fprintf(stderr, "fuzz_suite: RunSuite called %s, but the target selects no case\n", what);
  std::abort();
}

}  // namespace

void CheckEngine(Engine engine, const Operation&) {
  if (engine != Engine::kOracle) Unreachable("CheckEngine for an RTL engine");
}

const char* EngineName(Engine) { Unreachable("EngineName"); }
Evaluation Evaluate(const Operation&, Engine, const harness::DataFault&) { Unreachable("Evaluate"); }
TensorMap Reference(const Operation&) { Unreachable("Reference"); }
Difference Compare(const Tensor&, const Tensor&) { Unreachable("Compare"); }
std::string ValueText(uint32_t, DType) { Unreachable("ValueText"); }
std::string ElementName(const std::string&, int64_t, const Tensor&) { Unreachable("ElementName"); }

}  // namespace ane::cli
