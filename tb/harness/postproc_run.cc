// SPDX-License-Identifier: Apache-2.0
#include "tb/harness/postproc_run.h"

#include <chrono>

#include "Vane_postproc8_m1.h"
#include "Vane_postproc8_m5.h"
#include "tb/harness/postproc_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/formats.h"

namespace ane::harness {

namespace {

template <class Model>
std::vector<std::vector<uint16_t>> RunModel(const oracle::PostConfig& cfg, const std::vector<PostVector>& in,
                                            RtlPostStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  Sim<Model> sim("ane_postproc", "ane_postproc");
  sim.set_timeout(uint64_t(1) << 40);
  PostprocDriver<Model> drv(sim, kPostprocLanes);
  drv.Reset();
  drv.Configure(cfg);
  PostRunStats run;
  auto out = drv.Run(
      in, [] { return false; }, [] { return false; }, &run);
  if (stats) {
    stats->vectors = int64_t(in.size());
    stats->cycles = run.cycles;
    stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return out;
}

}  // namespace

std::vector<std::vector<uint16_t>> RtlPostprocess(const oracle::PostConfig& cfg, const std::vector<PostVector>& in,
                                                  RtlPostStats* stats) {
  if (cfg.gen == oracle::Generation::kM5) return RunModel<Vane_postproc8_m5>(cfg, in, stats);
  return RunModel<Vane_postproc8_m1>(cfg, in, stats);
}

std::vector<uint16_t> RtlActivation(const oracle::ActTable& table, const std::vector<uint16_t>& x,
                                    RtlPostStats* stats) {
  oracle::PostConfig cfg;
  cfg.gen = oracle::Generation::kM5;
  cfg.act = oracle::PostAct::kTable;
  cfg.table = table;
  std::vector<PostVector> in;
  for (size_t i = 0; i < x.size(); i += kPostprocLanes) {
    PostVector v;
    for (size_t l = 0; l < size_t(kPostprocLanes); ++l) {
      v.acc.push_back(i + l < x.size() ? oracle::Fp16ToFp32(x[i + l]) : 0u);
    }
    in.push_back(std::move(v));
  }
  const auto out = RtlPostprocess(cfg, in, stats);
  std::vector<uint16_t> y;
  for (size_t i = 0; i < x.size(); ++i) y.push_back(out[i / kPostprocLanes][i % kPostprocLanes]);
  return y;
}

}  // namespace ane::harness
