// SPDX-License-Identifier: Apache-2.0
// ONNX's own backend tests as conformance (docs/onnx.md "Conformance"): each test folder of
// Debian's libonnx-testdata (model.onnx and test_data_set_N/{input,output}_K.pb) is lowered with
// its inputs as constants of the model (the tests give a Conv's weights as an input; the ANE's
// compiler takes them as constants), run, and each output compared with the reference under
// one rule for every test:
//
//   |y - r| <= (2^-7 + U 2^-10) |r| + 2^-8 max|r| + A
//
// y the model's fp16 output, r the reference (fp32 or fp64, exactly), max|r| over the output
// tensor. 2^-7 is 8 fp16 ulps: two input roundings to fp16 (2^-11 each, N-1) and the output's
// rounding (2^-11) with a condition of up to 2; 2^-8 of the output's largest magnitude covers
// fp16 accumulation (N-2: products summed in fp16 order, each step rounded) where terms cancel;
// U (ulps) and A (absolute) are the stated worst errors of the activation tables the model runs
// (oracle::StatedActBound, N-5.3; 0 when it runs none). An infinite or NaN reference must be met
// exactly (the ANE computes no NaN: N-4.2 gives +0).
//
// A test the rule fails for a reason of the fp16 datapath itself (an input of 10000 whose
// neighbours round together) is listed with that reason in tb/onnx/conformance_explained.txt
// and counted as explained; a listed test that passes is an error (the list goes stale).
#ifndef TB_ONNX_CONFORMANCE_H_
#define TB_ONNX_CONFORMANCE_H_

#include <map>
#include <string>
#include <vector>

#include "tb/cli/operation.h"

namespace ane::onnx_in {

enum class Verdict { kPass, kFail, kRefused, kExplained };
const char* VerdictName(Verdict v);

struct TestOutcome {
  std::string name;  // the test folder's name
  Verdict verdict = Verdict::kRefused;
  std::string detail;  // refused: why (the lowering's reason); fail: the worst element; pass: the largest error
  int64_t elements = 0;
  double worst = 0;  // the largest |y - r| / (2^-7 |r| + 2^-8 max|r|) (pass: <= 1)
};

// The test folders under `root` (those with a model.onnx), sorted by name.
std::vector<std::string> TestFolders(const std::string& root);

// Runs the test in `folder` (every test_data_set_N) on the engine.
TestOutcome RunConformance(const std::string& folder, cli::Engine engine);

// The rule above for one element (r an fp32 or fp64 value, scale = max|r| of its tensor, ulps and
// abs the tables' terms U and A).
bool WithinRule(double y, double r, double scale, double ulps, double abs, double* ratio);

// tb/onnx/conformance_explained.txt's lines "test | reason" (comments with #). Throws
// std::runtime_error when unreadable or malformed.
std::map<std::string, std::string> ReadExplained(const std::string& path);

}  // namespace ane::onnx_in

#endif  // TB_ONNX_CONFORMANCE_H_
