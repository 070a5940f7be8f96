// SPDX-License-Identifier: Apache-2.0
// The post-processor (NUMERICS N-3): what happens to each lane's accumulator after the MAC.
// docs/postproc.md is the specification; per lane value, in order:
//
//   fp accumulator (fp32 code):
//     1. output rounding: RNE16 (N-2.6), or stochastic rounding (N-3.4) with an LFSR draw;
//        then m1 flushes |r| < 2^-14 to +0 (N-2.3); a zero result is +0
//   integer accumulator (int32):
//     1. int8 store: q = clamp(RNE(acc / 2^shift), -128, 127) (N-3.3), then ReLU if asked; or
//        fp16 store: r = RNE16(acc / 2^shift) (gradual underflow, inf at 65520)
//   fp16 chain (both, when the store is fp16):
//     2. scale  r = mul(r, s)               (N-3.1, s: the vector's channel scale, fp16)
//     3. bias   r = add(r, RNE16(b32))      (N-3.1, b32: the vector's channel bias, fp32)
//     4. activation: ReLU max(r, +0) (N-3.2) or a lookup table (N-5, activation.h)
//   mul / add / max are the fp16 operations of N-4.1.
//
// Stochastic rounding source (N-3.4): a 32-bit Fibonacci LFSR, polynomial
// x^32 + x^22 + x^2 + x + 1: one step shifts left and feeds s[31]^s[21]^s[1]^s[0] into bit 0.
// Each rounded value takes one draw: 16 steps, then the low `width` bits of the state. Draws go
// in lane order (lane 0 first) through every vector, one per lane whatever its value, while
// stochastic rounding is on; the seed (nonzero) is part of the configuration.
#ifndef TB_ORACLE_POSTPROC_H_
#define TB_ORACLE_POSTPROC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tb/oracle/activation.h"
#include "tb/oracle/formats.h"

namespace ane::oracle {

class SrLfsr {
 public:
  static constexpr int kStepsPerDraw = 16;
  explicit SrLfsr(uint32_t seed) : state_(seed) {}
  void Step() {
    const uint32_t b = ((state_ >> 31) ^ (state_ >> 21) ^ (state_ >> 1) ^ state_) & 1u;
    state_ = (state_ << 1) | b;
  }
  // One draw: 16 steps, then the low `width` bits (1..13).
  uint32_t Draw(int width) {
    for (int i = 0; i < kStepsPerDraw; ++i) Step();
    return state_ & ((1u << width) - 1u);
  }
  uint32_t state() const { return state_; }

 private:
  uint32_t state_;
};

// N-3.4: r = trunc(|a| / ulp + rand / 2^width) ulps with a's sign, where ulp is the fp16 ulp at
// |a|'s binade (2^-24 below 2^-14) and only the `width` bits below the fp16 LSB take part
// (lower bits are dropped first); > 65504 becomes inf; then the m1 flush. A zero result is +0,
// inf passes, a NaN code is +inf (N-1.1).
uint16_t StochasticRound(uint32_t acc_fp32, uint32_t rand, int width, Generation gen);

// N-3.3: clamp(RNE(acc / 2^shift), -128, 127).
int32_t Requantize(int32_t acc, int shift);
// RNE16(acc / 2^shift), plain fp16 range.
uint16_t IntToFp16(int32_t acc, int shift);

enum class PostAct { kNone = 0, kRelu = 1, kTable = 2 };  // the RTL's codes too (ane_pkg::pp_act_e)
enum class PostStore { kFp16, kInt8 };

struct PostConfig {
  Generation gen = Generation::kM1;
  bool int_acc = false;  // the accumulators hold int32 (integer MAC modes)
  int shift = 0;         // int_acc: 0..31
  PostStore store = PostStore::kFp16;
  bool sr = false;       // stochastic rounding (fp accumulators, fp16 store)
  int sr_width = 13;     // 1..13
  uint32_t sr_seed = 1;  // nonzero
  bool scale_en = false;
  bool bias_en = false;
  PostAct act = PostAct::kNone;
  ActTable table;  // when act == kTable
};

// "" when the configuration is one the post-processor accepts, else what is wrong.
std::string ValidatePostConfig(const PostConfig& cfg);

// Per-vector channel parameters (one output channel per lane vector).
struct ChannelParams {
  uint16_t scale = 0x3C00;  // fp16
  uint32_t bias = 0;        // fp32 code
};

class PostProcessor {
 public:
  // Throws std::invalid_argument when ValidatePostConfig fails.
  explicit PostProcessor(const PostConfig& cfg);
  // One lane vector of accumulator codes (fp32 bits, or int32 as uint32) to fp16 codes, or
  // int8 values sign-extended to 16 bits. Advances the LFSR in lane order.
  std::vector<uint16_t> Process(const std::vector<uint32_t>& acc, const ChannelParams& ch);
  const PostConfig& config() const { return cfg_; }
  uint32_t lfsr_state() const { return lfsr_.state(); }

 private:
  uint16_t One(uint32_t acc, const ChannelParams& ch);
  PostConfig cfg_;
  SrLfsr lfsr_;
};

}  // namespace ane::oracle

#endif  // TB_ORACLE_POSTPROC_H_
