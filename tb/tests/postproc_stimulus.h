// SPDX-License-Identifier: Apache-2.0
// Random post-processor jobs (NUMERICS N-3, N-5) and their check against the oracle, shared by
// rtl_postproc_test and the reset test's post-processor bench.
#ifndef TB_TESTS_POSTPROC_STIMULUS_H_
#define TB_TESTS_POSTPROC_STIMULUS_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tb/harness/postproc_driver.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/formats.h"
#include "tb/oracle/postproc.h"
#include "tb/tests/test_seed.h"

namespace ane::test {

// A random configuration the post-processor accepts: rounding, stochastic rounding,
// requantization, scale, bias, ReLU, tables.
inline oracle::PostConfig RandomPostConfig(Rng& rng, oracle::Generation gen) {
  oracle::PostConfig c;
  c.gen = gen;
  c.int_acc = rng.Below(4) == 0;
  if (c.int_acc) {
    c.shift = int(rng.Below(32));
    c.store = rng.Below(2) ? oracle::PostStore::kInt8 : oracle::PostStore::kFp16;
  } else {
    c.sr = rng.Below(3) == 0;
    c.sr_width = 1 + int(rng.Below(13));
    c.sr_seed = uint32_t(rng.Next()) | 1u;
  }
  const bool fp_store = c.store == oracle::PostStore::kFp16;
  c.scale_en = fp_store && rng.Below(2);
  c.bias_en = fp_store && rng.Below(2);
  const uint32_t a = rng.Below(3);
  c.act = a == 0 ? oracle::PostAct::kNone : (a == 1 ? oracle::PostAct::kRelu : oracle::PostAct::kTable);
  if (!fp_store && c.act == oracle::PostAct::kTable) c.act = oracle::PostAct::kRelu;
  c.table = oracle::DefaultActTable(oracle::kAllActFns[rng.Below(oracle::kNumActFns)]);
  return c;
}

// A random accumulator value: int32, or fp32 of every kind (NaN and inf, fp16 values, the
// ranges that round, near 65504).
inline uint32_t RandomPostAcc(Rng& rng, bool int_acc) {
  if (int_acc) {
    const uint32_t r = uint32_t(rng.Next());
    return rng.Below(2) ? r : uint32_t(int32_t(r) >> rng.Below(32));
  }
  switch (rng.Below(6)) {
    case 0: return uint32_t(rng.Next());  // anything, NaN and inf included
    case 1: return oracle::Fp16ToFp32(rng.Code());
    case 2: return (uint32_t(rng.Below(2)) << 31) | ((103 + rng.Below(40)) << 23) | rng.Below(1u << 23);
    case 3: return (uint32_t(rng.Below(2)) << 31) | ((127 - 30 + rng.Below(50)) << 23) | rng.Below(1u << 23);
    case 4: return uint32_t(rng.Below(2)) << 31 | 0x477FE000u | rng.Below(0x4000);  // near 65504
    default: return oracle::Fp16ToFp32(rng.Code()) + rng.Below(8192);
  }
}

// A random vector of `lanes` accumulator values with its channel's scale and bias.
inline harness::PostVector RandomPostVector(Rng& rng, const oracle::PostConfig& cfg, int lanes) {
  harness::PostVector pv;
  for (int l = 0; l < lanes; ++l) pv.acc.push_back(RandomPostAcc(rng, cfg.int_acc));
  pv.ch.scale = rng.Below(4) ? uint16_t(0x3000 + rng.Below(0x1800)) | uint16_t(rng.Below(2) << 15) : rng.Code();
  pv.ch.bias = rng.Below(4) ? oracle::Fp16ToFp32(rng.Code()) : uint32_t(rng.Next());
  return pv;
}

inline std::vector<std::vector<uint16_t>> PostOracle(const oracle::PostConfig& cfg,
                                                     const std::vector<harness::PostVector>& in) {
  oracle::PostProcessor pp(cfg);
  std::vector<std::vector<uint16_t>> out;
  for (const harness::PostVector& v : in) out.push_back(pp.Process(v.acc, v.ch));
  return out;
}

// Every lane of every vector; a failure names the vector, the lane and its inputs. False at the
// first difference.
inline bool ExpectSamePost(const std::vector<std::vector<uint16_t>>& got,
                           const std::vector<std::vector<uint16_t>>& want, const std::vector<harness::PostVector>& in,
                           const std::string& what) {
  EXPECT_EQ(got.size(), want.size()) << what;
  if (got.size() != want.size()) return false;
  for (size_t v = 0; v < got.size(); ++v) {
    for (size_t l = 0; l < got[v].size(); ++l) {
      EXPECT_EQ(got[v][l], want[v][l]) << what << ": vector " << v << " lane " << l << std::hex << " acc 0x"
                                       << in[v].acc[l] << " scale 0x" << in[v].ch.scale << " bias 0x" << in[v].ch.bias;
      if (got[v][l] != want[v][l]) return false;
    }
  }
  return true;
}

}  // namespace ane::test

#endif  // TB_TESTS_POSTPROC_STIMULUS_H_
