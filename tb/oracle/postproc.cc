// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/postproc.h"

#include <stdexcept>

#include "tb/oracle/elementwise.h"
#include "tb/oracle/exact.h"
#include "tb/oracle/mac.h"

namespace ane::oracle {

uint16_t StochasticRound(uint32_t acc_fp32, uint32_t rand, int width, Generation gen) {
  if (Fp32IsNan(acc_fp32)) return kFp16PosInf;
  const bool neg = acc_fp32 >> 31;
  const Exact a = DecodeFp32(acc_fp32).Abs();
  if (a.is_inf()) return neg ? kFp16NegInf : kFp16PosInf;
  if (a.is_zero()) return 0;
  const int e = a.Exponent() < -14 ? -14 : a.Exponent();
  const int ulp = e - 10;
  // q = floor(|a| / 2^(ulp - width)): the fp16 significand followed by the `width` bits below
  // its LSB (q < 2^(11 + width)); the bits further down are dropped.
  const int quantum = ulp - width;
  Exact fl = a.RoundToQuantum(quantum);
  if (a < fl) fl = fl - Exact::FromInt(false, 1, quantum);
  const uint64_t q = fl.is_zero() ? 0 : fl.ScaledMagnitude(quantum);
  const uint64_t t = (q + rand) >> width;  // whole ulps after the carry
  const Exact r = Exact::FromInt(neg, t, ulp);
  if (t == 0) return 0;
  uint16_t out = RoundToFp16(r);                                // exact unless > 65504 (then inf)
  if (gen == Generation::kM1 && Fp16IsDenormal(out)) return 0;  // N-2.3
  return out;
}

int32_t Requantize(int32_t acc, int shift) {
  const Exact v = Exact::FromSigned(acc, -shift).RoundToQuantum(0);
  int64_t q = 0;
  if (!v.is_zero()) {
    const uint64_t mag = v.ScaledMagnitude(0);
    q = v.negative() ? -int64_t(mag) : int64_t(mag);
  }
  if (q > 127) q = 127;
  if (q < -128) q = -128;
  return int32_t(q);
}

uint16_t IntToFp16(int32_t acc, int shift) { return RoundToFp16(Exact::FromSigned(acc, -shift)); }

std::string ValidatePostConfig(const PostConfig& cfg) {
  if (cfg.int_acc && (cfg.shift < 0 || cfg.shift > 31)) return "shift must be 0..31";
  if (!cfg.int_acc && cfg.shift != 0) return "shift applies to integer accumulators only";
  if (cfg.sr && cfg.int_acc) return "stochastic rounding applies to fp accumulators only";
  if (cfg.sr && (cfg.sr_width < 1 || cfg.sr_width > 13)) return "sr_width must be 1..13";
  if (cfg.sr && cfg.sr_seed == 0) return "sr_seed must be nonzero (an all-zero LFSR stays zero)";
  if (cfg.store == PostStore::kInt8) {
    if (!cfg.int_acc) return "an int8 store needs integer accumulators (requantization, N-3.3)";
    if (cfg.scale_en || cfg.bias_en) return "scale and bias apply to fp16 stores only";
    if (cfg.act == PostAct::kTable) return "activation tables apply to fp16 stores only";
  }
  if (cfg.act == PostAct::kTable && (cfg.table.step_log2 < -8 || cfg.table.step_log2 > 7))
    return "table step_log2 must be -8..7";
  return "";
}

PostProcessor::PostProcessor(const PostConfig& cfg) : cfg_(cfg), lfsr_(cfg.sr_seed) {
  const std::string err = ValidatePostConfig(cfg);
  if (!err.empty()) throw std::invalid_argument("post-processor: " + err);
}

std::vector<uint16_t> PostProcessor::Process(const std::vector<uint32_t>& acc, const ChannelParams& ch) {
  std::vector<uint16_t> out;
  out.reserve(acc.size());
  for (uint32_t a : acc) out.push_back(One(a, ch));
  return out;
}

uint16_t PostProcessor::One(uint32_t acc, const ChannelParams& ch) {
  uint16_t r;
  if (cfg_.int_acc) {
    if (cfg_.store == PostStore::kInt8) {
      int32_t q = Requantize(int32_t(acc), cfg_.shift);
      if (cfg_.act == PostAct::kRelu && q < 0) q = 0;
      return uint16_t(int16_t(q));
    }
    r = IntToFp16(int32_t(acc), cfg_.shift);
  } else if (cfg_.sr) {
    r = StochasticRound(acc, lfsr_.Draw(cfg_.sr_width), cfg_.sr_width, cfg_.gen);
  } else {
    r = OutputPort(acc, cfg_.gen);
  }
  if (cfg_.scale_en) r = Fp16Mul(r, ch.scale);
  if (cfg_.bias_en) r = Fp16Add(r, Fp32ToFp16(ch.bias));
  switch (cfg_.act) {
    case PostAct::kNone: break;
    case PostAct::kRelu: r = Fp16Max(r, 0); break;
    case PostAct::kTable: r = EvalActTable(cfg_.table, r); break;
  }
  return r;
}

}  // namespace ane::oracle
