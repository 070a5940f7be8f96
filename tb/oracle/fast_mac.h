// SPDX-License-Identifier: Apache-2.0
// The fast exact MAC path (N-2, fp16 x fp16): the same results as the reference stages of
// mac.h (DecodeMacFp16 .. OutputPort through MacLane), computed in fixed point instead of with
// Exact values, for the oracle engine of whole networks (docs/onnx.md).
//
// Every value the fp16 path holds between the operands and the accumulator is an integer
// multiple of 2^-48: an operand is s 2^e with an 11-bit s and e >= -24, so a product is a 22-bit
// integer times 2^(ea + eb), ea + eb >= -48; add12 (N-2.4) rounds to multiples of 2^(e - 11) of
// a larger operand, and the fp32 accumulator (N-2.5) rounds sums of such values to 24 bits,
// which only coarsens the grid. The largest product is 65504^2 < 2^32, and the port ceiling
// (N-2.6) keeps the accumulator below 32768 for K >= 2 (K = 1 holds one product), so a signed
// 128-bit integer counting units of 2^-48 holds every value exactly. Infinities ride beside it
// as a flag with the N-2 rules (inf + (-inf) = +0, 0 x inf = +0). A quad of four finite
// products below 2^60 units (the common case: |a b| below about 2^12) is reduced in int64.
//
// The reference oracle stays the judge of the RTL; this path is checked against it on 10^7
// random dot products of both generations, every special value and every seed figure
// (tb/tests/oracle_fast_mac_test.cc).
#ifndef TB_ORACLE_FAST_MAC_H_
#define TB_ORACLE_FAST_MAC_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tb/oracle/conv.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/formats.h"
#include "tb/oracle/mac.h"

namespace ane::oracle {

// One fp16 x fp16 reduction of k products (data[i * ds] x kernel[i * ks]) on a fresh slot: the
// slot register (fp32 bits) after the last quad, as Reduce(MacMode::kFp16, ...).acc gives.
uint32_t FastReduceFp16(Generation gen, const uint16_t* data, const uint16_t* kernel, size_t k, ptrdiff_t ds = 1,
                        ptrdiff_t ks = 1);

// The output port of a slot register (OutputPort, N-2.6, N-2.3, N-2.7), without Exact.
uint16_t FastOutputPort(uint32_t acc_fp32, Generation gen);

// Conv2d (conv.h) with FastReduceFp16 for fp16 layers (others go through the reference stages):
// the same codes.
Tensor3 FastConv2d(const ConvLayer& l, const Tensor3& x, const std::vector<std::vector<uint16_t>>& w);

// Matmul (mac.h) with FastReduceFp16 when both operands are fp16: the same result.
MatmulResult FastMatmul(const Matrix& a, const Matrix& b, Generation gen);

}  // namespace ane::oracle

#endif  // TB_ORACLE_FAST_MAC_H_
