// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the ONNX model reader and the lowering (tb/onnx): what `ane run MODEL.onnx`
// does with a file's bytes before any engine runs: the protobuf parse, the ONNX checker, shape
// inference, the constants and every node's lowering (on the oracle, whose checks are the
// operations' own). OnnxError and CliError are the documented answers to a bad model (one line,
// exit code 2); any other exception, a crash, a sanitizer report or a hang is a finding.
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "tb/cli/schema.h"
#include "tb/fuzz/fuzz_util.h"
#include "tb/onnx/lower.h"
#include "tb/onnx/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace ox = ane::onnx_in;
  onnx::ModelProto m;
  if (!m.ParseFromArray(data, int(size))) return 0;  // not a model: `ane run` says so in one line
  try {
    ox::CheckModel(&m, "fuzz.onnx");
    const ox::Plan plan = ox::Lower(m, "fuzz.onnx", ane::cli::Engine::kOracle);
    if (plan.outputs.empty()) {
      std::fprintf(stderr, "fuzz_onnx: a lowered model without outputs\n");
      std::abort();
    }
  } catch (const ox::OnnxError& e) {
    ane::fuzz::Rejected(e.what());
  } catch (const ane::cli::CliError& e) {
    ane::fuzz::Rejected(e.what());
  }
  return 0;
}
