// SPDX-License-Identifier: Apache-2.0
// A whole program made ready to run (docs/td.md "Running a program"): the container read, the
// chain walked and interpreted, one buffer for every buffer-table entry the chain uses, and the
// chain's use of memory checked before anything runs. RunTdOracle then runs one TD on the oracle
// through those buffers; ane run and the tests run the chain TD by TD with it.
#ifndef TB_TD_CHAIN_H_
#define TB_TD_CHAIN_H_

#include <cstdint>
#include <map>
#include <vector>

#include "tb/td/hwx.h"
#include "tb/td/program.h"
#include "tb/td/td.h"

namespace ane::td {

// The program's buffers by buffer-table entry.
using Buffers = std::map<int, std::vector<uint8_t>>;

struct Program {
  Hwx hwx;
  std::vector<Td> tds;
  std::vector<TdLayer> layers;
  Buffers buffers;  // the TDs, the weights, each tensor's segment (zeros), scratch
};

// Reads, walks, interprets and checks a program. Besides every refusal of ParseHwx, WalkChain
// and Interpret, it refuses (TdError, one line naming the TD and the field):
//   a buffer index whose table entry is empty; a TD that reads a byte no input holds and no
//   earlier TD wrote (its source, second source or kernels); a write into the TDs, the weights
//   or an input; a TD that writes over bytes it reads; a TD that writes bytes of an output an
//   earlier TD already wrote; an output element no TD writes; a tensor that is not N = D = 1
//   with its elements inside its buffer.
Program PrepareProgram(std::vector<uint8_t> file);

// Element (c, h, w) of a host tensor at its byte strides.
uint64_t HostOffset(const HwxTensor& t, uint64_t c, uint64_t h, uint64_t w);
// The element size of a tensor's type (5 float16: 2, 2 int8: 1); throws TdError for another.
int TensorElemBytes(const HwxTensor& t);

// One TD on the oracle: reads its sources and kernels from `buffers`, writes its result there.
// What it read and wrote, for reports: the layer with its kernels, x and x1 (a planar task's
// second source) [C][H][W], y [C][H][W] (codes: fp16, or int8 sign-extended to 16 bits).
struct TdRun {
  TdLayer layer;
  std::vector<uint16_t> x, x1, y;
};
// fast: a convolution through oracle::FastConv2d (fast_mac.h: the same codes as the reference
// stages, by oracle_fast_mac_test) unless it rounds stochastically; `ane run X.hwx` takes it on
// engines oracle and rtl (where the RTL's result replaces it), and the reference stages stay the
// judge of the RTL (engine both).
TdRun RunTdOracle(const TdLayer& l, Buffers* buffers, bool fast = false);

// Reads a [C][H][W] tensor through a TD's access; writes one.
std::vector<uint16_t> ReadAccess(const TensorAccess& a, const std::vector<uint8_t>& buf);
void WriteAccess(const TensorAccess& a, const std::vector<uint16_t>& v, std::vector<uint8_t>* buf);

}  // namespace ane::td

#endif  // TB_TD_CHAIN_H_
