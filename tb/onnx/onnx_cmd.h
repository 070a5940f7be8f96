// SPDX-License-Identifier: Apache-2.0
// `ane run MODEL.onnx --input NAME=x.npy ... [--engine E] [--out-dir D]` (docs/onnx.md): an ONNX
// model read, lowered and run on the oracle, the RTL or both. Bad input throws CliError (one
// line, exit 2, nothing written).
#ifndef TB_ONNX_ONNX_CMD_H_
#define TB_ONNX_ONNX_CMD_H_

#include <ostream>
#include <string>
#include <vector>

namespace ane::onnx_in {

extern const char kRunOnnxHelp[];
// True when `ane run` was given a model (an argument ending in .onnx).
bool IsOnnxRun(const std::vector<std::string>& argv);
// `ane run MODEL.onnx ...` (argv after "run"). 0, or 1 when engine both found a difference.
int RunOnnxCommand(const std::vector<std::string>& argv, std::ostream& out);

}  // namespace ane::onnx_in

#endif  // TB_ONNX_ONNX_CMD_H_
