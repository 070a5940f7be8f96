// SPDX-License-Identifier: Apache-2.0
// Reset in the middle of a job, for every clocked RTL top that has a Verilated model and a test
// (NUMERICS N-7.1: a result depends on the job's inputs only, not on what ran before it). For
// several seeded iterations per block:
//
//   1. a model with its own X seed (the models are Verilated with --x-assign unique
//      --x-initial unique) takes the power-up reset and starts a random job (the stimulus of the
//      block's own tests) under random input gaps and output back-pressure;
//   2. rst_ni falls at a random cycle of that job (Sim::InterruptAt) while the job is in flight:
//      the cycle is drawn below the one of the job's last result (the core: done_o), which a
//      probe run of the same job on a model of the same X seed under the same traffic measured
//      first. A quarter of the cuts land in the job's first 64 cycles (configuration, start-up),
//      a quarter in its last 64 (drain), the rest anywhere;
//   3. rst_ni stays low for 1 .. kMaxHold cycles while the inputs keep toggling (valid, ready and
//      flags at random; configuration ports quiet), then rises;
//   4. 0 .. kMaxQuiet idle cycles in which the block offers nothing (no result, no request, no
//      done) and is not busy, then a fresh random job whose every result is compared bit for bit
//      with the oracle, as the block's own tests compare it, and counted exactly: a result that
//      comes out before an input of the new job could have produced it fails, nothing more may
//      come out in the kTail cycles after the job, and busy_o is low by their end.
// A failing job B is run again on a model that only had its power-up reset, and the test says
// whether the failure follows the mid-job reset or is the job's own.
//
// The core additionally proves that an interrupted layer is never reported complete: done_o
// never rises for it, the counters and busy_o are cleared by the reset, and the next layer's
// done_o rises only once every byte of its own output has been written, each exactly once.
//
// Every iteration prints its X seed, cut and hold on failure (SCOPED_TRACE); rerun one test with
// ANE_TEST_SEED=<seed> build/rtl_reset_test --gtest_filter=RtlReset.<name>. ANE_SOAK=1 runs 20x
// the iterations. Each test prints its reset points, the range of its cuts and job lengths, the
// holds and the X seeds.
//
// Clocked tops without a reset (ane_mac_mul, ane_mac_add12, ane_mac_acc_add, ane_mac_ref: the
// lane's datapath stages, Verilated with Pipe = 0 or without rst_ni) and clocked tops without a
// model of their own (ane_mac_ctrl, ane_mac_dp, ane_pe_linebuf, ane_fifo, ane_core_kread,
// ane_core_load, ane_core_route, ane_core_out) are reset here inside the lane, ane_pe_vreduce
// and the core. ane_td_fetch has its own mid-walk reset test, in the same steps
// (tb/tests/rtl_td_fetch_test.cc, RtlTdFetch.N7_1_ResetMidWalkThenAFreshWalkIsExact).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "Vane_core256_m1.h"
#include "Vane_core8_m1.h"
#include "Vane_kernel_extract.h"
#include "Vane_mac_array16_m1.h"
#include "Vane_mac_array16_m5.h"
#include "Vane_mac_array256_m1.h"
#include "Vane_mac_array256_m5.h"
#include "Vane_mac_lane_m1.h"
#include "Vane_mac_lane_m5.h"
#include "Vane_pe_ew16.h"
#include "Vane_pe_fc16.h"
#include "Vane_pe_pool4.h"
#include "Vane_pe_post4.h"
#include "Vane_pe_reduce.h"
#include "Vane_pe_transpose8.h"
#include "Vane_pe_vreduce4.h"
#include "Vane_postproc8_m1.h"
#include "Vane_postproc8_m5.h"
#include "Vane_shifter16.h"
#include "Vane_shifter256.h"
#include "tb/harness/core_driver.h"
#include "tb/harness/kernel_extract_driver.h"
#include "tb/harness/planar_driver.h"
#include "tb/harness/planar_run.h"
#include "tb/harness/postproc_driver.h"
#include "tb/harness/shifter_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/activation.h"
#include "tb/oracle/conv.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/elementwise.h"
#include "tb/oracle/formats.h"
#include "tb/oracle/kernel_codec.h"
#include "tb/oracle/mac.h"
#include "tb/oracle/planar.h"
#include "tb/oracle/postproc.h"
#include "tb/plan/core_plan.h"
#include "tb/plan/work_unit.h"
#include "tb/tests/core_stimulus.h"
#include "tb/tests/kernel_stimulus.h"
#include "tb/tests/mac_drive.h"
#include "tb/tests/mac_stream.h"
#include "tb/tests/pe_units.h"
#include "tb/tests/planar_stimulus.h"
#include "tb/tests/postproc_stimulus.h"
#include "tb/tests/shifter_stimulus.h"
#include "tb/tests/test_seed.h"
#include "tb/tests/wide_port.h"

namespace ane {
namespace {

using harness::Sim;
using oracle::Generation;
using oracle::MacMode;
using test::Rng;

constexpr int kMaxHold = 16;    // rst_ni low for 1 .. kMaxHold cycles
constexpr int kMaxQuiet = 24;   // idle cycles between the release and the next job: 0 .. kMaxQuiet
constexpr int kTail = 40;       // cycles after the next job in which nothing may come out
constexpr uint64_t kEdge = 64;  // "early" and "late" cuts: the first and last kEdge cycles

std::function<uint32_t(uint32_t)> Below(Rng& rng) {
  return [&rng](uint32_t n) { return rng.Below(n); };
}

// A block without a driver object: the model alone.
template <class M>
struct SimRig {
  SimRig(const char* top, const std::string& stem, uint32_t x_seed) : sim(top, stem, x_seed) {}
  Sim<M> sim;
};

// Runs f; a harness exception (a protocol check of a driver) becomes a failure of the test with
// the iteration's trace, a SimInterrupted goes on to the caller.
template <class F>
bool Guarded(const std::string& what, F&& f) {
  try {
    f();
  } catch (const harness::SimInterrupted&) {
    throw;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": " << e.what();
    return false;
  }
  return !::testing::Test::HasFailure();
}

// What one test's iterations tried, printed at its end (and recorded as test properties).
struct Tally {
  int points = 0;
  int early = 0, late = 0;
  uint64_t cut_min = ~uint64_t(0), cut_max = 0, len_min = ~uint64_t(0), len_max = 0;
  int hold_min = kMaxHold, hold_max = 0;
  std::vector<uint32_t> x_seeds;
  std::map<std::string, int> phases;  // where the cuts fell, for blocks that say

  void Add(uint64_t cut, uint64_t len, int hold, uint32_t x_seed, uint32_t where, const std::string& phase) {
    ++points;
    if (!phase.empty()) ++phases[phase];
    early += where == 0;
    late += where == 1;
    cut_min = std::min(cut_min, cut);
    cut_max = std::max(cut_max, cut);
    len_min = std::min(len_min, len);
    len_max = std::max(len_max, len);
    hold_min = std::min(hold_min, hold);
    hold_max = std::max(hold_max, hold);
    x_seeds.push_back(x_seed);
  }
  void Report(uint64_t seed) const {
    std::string xs;
    for (size_t i = 0; i < x_seeds.size() && i < 4; ++i) xs += (i ? "," : "") + std::to_string(x_seeds[i]);
    if (x_seeds.size() > 4) xs += ",...";
    std::string ph;
    for (const auto& [name, count] : phases)
      ph += (ph.empty() ? ", cuts: " : ", ") + std::to_string(count) + " " + name;
    std::printf(
        "seed %llu: %d reset points (%d early, %d late%s), cut at cycle %llu..%llu of jobs of %llu..%llu "
        "cycles, hold %d..%d, %zu X seeds (%s)\n",
        static_cast<unsigned long long>(seed), points, early, late, ph.c_str(),
        static_cast<unsigned long long>(cut_min), static_cast<unsigned long long>(cut_max),
        static_cast<unsigned long long>(len_min), static_cast<unsigned long long>(len_max), hold_min, hold_max,
        x_seeds.size(), xs.c_str());
    ::testing::Test::RecordProperty("reset_points", points);
    ::testing::Test::RecordProperty("cut_cycles", std::to_string(cut_min) + ".." + std::to_string(cut_max));
    ::testing::Test::RecordProperty("hold_cycles", std::to_string(hold_min) + ".." + std::to_string(hold_max));
  }
};

// Whether a Bench names the phase of its job a cut falls in (CutPhase).
template <class B, class = void>
struct HasCutPhase : std::false_type {};
template <class B>
struct HasCutPhase<B, std::void_t<decltype(std::declval<B&>().CutPhase(uint64_t()))>> : std::true_type {};

// Whether a Bench has a busy flag to check (Busy).
template <class B, class = void>
struct HasBusy : std::false_type {};
template <class B>
struct HasBusy<B, std::void_t<decltype(std::declval<B&>().Busy(std::declval<typename B::Rig&>()))>> : std::true_type {};

// The probe: the job to its end on a model of X seed `x_seed` under the traffic drawn from
// `traffic`; its length in cycles (a failure is reported). A run cut later on a model of the same
// X seed under the same traffic is the same run up to the cut, cycle for cycle.
template <class Bench>
uint64_t ProbeLength(Bench& bench, const std::string& stem, uint32_t x_seed, const typename Bench::Job& job,
                     uint64_t traffic) {
  typename Bench::Rig probe(Bench::kTop, stem + ".probe", x_seed);
  bench.PowerUp(probe);
  const uint64_t c0 = probe.sim.cycles();
  uint64_t last = 0;
  Guarded("job A, probe run", [&] { last = bench.Run(probe, job, traffic) - c0; });
  return last;
}

// One reset point: job A on a fresh model of X seed `x_seed` cut after cycle `cut`, rst_ni low
// for `hold` cycles with junk on the inputs, `quiet` idle cycles in which nothing may come out,
// then job B, which must be exact, and a quiet tail. A failure is reported (HasFailure()).
template <class Bench>
void CutResetResume(Bench& bench, const std::string& stem, uint32_t x_seed, const typename Bench::Job& job_a,
                    uint64_t traffic_a, const typename Bench::Job& job_b, uint64_t traffic_b, uint64_t cut, int hold,
                    int quiet, Rng& junk) {
  typename Bench::Rig rig(Bench::kTop, stem, x_seed);
  bench.PowerUp(rig);
  rig.sim.InterruptAt(rig.sim.cycles() + cut);
  bool interrupted = false;
  try {
    Guarded("job A", [&] { bench.Run(rig, job_a, traffic_a); });
  } catch (const harness::SimInterrupted&) {
    interrupted = true;
  }
  if (::testing::Test::HasFailure()) return;
  ASSERT_TRUE(interrupted) << "job A ended before its cut";

  bench.ResetMidJob(rig, hold, junk);
  if (::testing::Test::HasFailure()) return;
  auto busy = [&] {
    if constexpr (HasBusy<Bench>::value) return bench.Busy(rig);
    return false;
  };
  bench.Quiet(rig, junk);
  rig.sim.Eval();
  ASSERT_FALSE(busy()) << "busy after the reset";
  for (int q = 0; q < quiet; ++q) {
    bench.Quiet(rig, junk);
    rig.sim.Eval();
    ASSERT_FALSE(bench.AnyOutput(rig)) << "output " << q << " cycles after the reset, before the next job";
    ASSERT_FALSE(busy()) << "busy " << q << " cycles after the reset, before the next job";
    rig.sim.Tick();
  }
  if (!Guarded("job B", [&] { bench.Run(rig, job_b, traffic_b); })) {
    // Whether the failure is the reset's: job B again on a model that only had its power-up
    // reset (same X seed, same traffic).
    SCOPED_TRACE("job B again on a model of the same X seed after its power-up reset");
    const int before = ::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
    typename Bench::Rig fresh(Bench::kTop, stem + ".fresh", x_seed);
    bench.PowerUp(fresh);
    Guarded("job B, fresh model", [&] { bench.Run(fresh, job_b, traffic_b); });
    if (::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count() == before) {
      ADD_FAILURE() << "job B passes on a freshly reset model: the failure above follows the mid-job reset";
    }
    return;
  }
  for (int q = 0; q < kTail; ++q) {
    bench.Quiet(rig, junk);
    rig.sim.Eval();
    ASSERT_FALSE(bench.AnyOutput(rig)) << "output " << q << " cycles after job B's last result";
    rig.sim.Tick();
  }
  rig.sim.Eval();
  ASSERT_FALSE(busy()) << "still busy " << kTail << " cycles after job B's last result";
}

// The iterations of one block. A Bench has:
//   Model, Rig (the model and its drivers, built from (top, stem, x seed)), kTop, Job;
//   Job RandomJob(Rng&);
//   void PowerUp(Rig&)                 inputs idle, the power-up reset;
//   uint64_t Run(Rig&, Job, traffic)   the whole job under the traffic (gaps, back-pressure)
//                                      drawn from `traffic`, every result against the oracle;
//                                      returns the cycle of its last result (the core: done_o;
//                                      an operation stream: its last result or operation);
//   void ResetMidJob(Rig&, hold, Rng&) rst_ni low for `hold` cycles with junk traffic, then idle;
//   void Quiet(Rig&, Rng&)             inputs idle (output ready at random);
//   bool AnyOutput(Rig&)               whether the block offers anything (a result, a request);
// and may have
//   bool Busy(Rig&)                    the block's busy flag: low from the reset on, and low again
//                                      by the end of the tail after a job;
//   std::string CutPhase(cut)          the phase of the probe's job at cycle `cut`.
// `share`: the coverage build runs a third of the iterations (test::CoverageShare); a block whose
// rare reset states only the whole count reaches passes false.
template <class Bench>
void MidJobResets(Bench& bench, uint64_t default_seed, int iterations, bool share = true) {
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const std::string stem = harness::CurrentTestStem();
  Tally tally;
  const uint64_t all = uint64_t(iterations) * test::SoakFactor();
  const int n = int(share ? test::CoverageShare(all) : all);
  for (int it = 0; it < n; ++it) {
    const uint32_t x_seed = 1 + uint32_t(rng.Next() % 0x7FFFFFFEu);  // 0 would ask for a random seed
    const typename Bench::Job job_a = bench.RandomJob(rng);
    const typename Bench::Job job_b = bench.RandomJob(rng);
    const uint64_t traffic_a = rng.Next(), traffic_b = rng.Next();
    Rng junk(rng.Next());
    const int hold = 1 + int(rng.Below(kMaxHold));
    const int quiet = int(rng.Below(kMaxQuiet + 1));
    const uint32_t where = rng.Below(4);  // 0: early, 1: late, else anywhere
    const uint64_t cut_draw = rng.Next();
    SCOPED_TRACE("iteration " + std::to_string(it) + ", x seed " + std::to_string(x_seed));

    const uint64_t last = ProbeLength(bench, stem, x_seed, job_a, traffic_a);
    if (::testing::Test::HasFailure()) return;
    ASSERT_GE(last, 3u) << "job A is too short to be interrupted";
    // The model sees cycles 0 .. cut of the job, the edge after cycle `cut` is the reset's: cut
    // below `last` leaves the job's last result (done) unseen.
    const uint64_t m = last - 1;
    const uint64_t edge = std::min(m, kEdge);
    const uint64_t cut = where == 0 ? 1 + cut_draw % edge : where == 1 ? m - cut_draw % edge : 1 + cut_draw % m;
    std::string phase;
    if constexpr (HasCutPhase<Bench>::value) phase = bench.CutPhase(cut);
    SCOPED_TRACE("job A cut at cycle " + std::to_string(cut) + " of " + std::to_string(last + 1) +
                 (phase.empty() ? "" : " (" + phase + ")") + ", reset held " + std::to_string(hold) + " cycles, " +
                 std::to_string(quiet) + " quiet cycles");

    CutResetResume(bench, stem, x_seed, job_a, traffic_a, job_b, traffic_b, cut, hold, quiet, junk);
    if (::testing::Test::HasFailure()) return;
    tally.Add(cut, last + 1, hold, x_seed, where, phase);
  }
  tally.Report(seed);
}

// A reset in every cycle of one job: job A (the first RandomJob for which `pick` holds) cut
// after each of its cycles 1 .. last - 1 in turn, each time on a fresh model of one X seed, then
// job A again as job B: for the short states a random cut seldom lands in.
template <class Bench, class Pick>
void EveryCycleResets(Bench& bench, uint64_t default_seed, Pick&& pick) {
  const uint64_t seed = test::TestSeed(default_seed);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  const std::string stem = harness::CurrentTestStem();
  const uint32_t x_seed = 1 + uint32_t(rng.Next() % 0x7FFFFFFEu);
  typename Bench::Job job = bench.RandomJob(rng);
  for (int tries = 1; !pick(job); ++tries) {
    ASSERT_LT(tries, 10000) << "no job of the kind asked for";
    job = bench.RandomJob(rng);
  }
  const uint64_t traffic = rng.Next();
  const uint64_t last = ProbeLength(bench, stem, x_seed, job, traffic);
  if (::testing::Test::HasFailure()) return;
  ASSERT_GE(last, 3u) << "job A is too short to be interrupted";
  Tally tally;
  for (uint64_t cut = 1; cut < last; ++cut) {
    Rng junk(rng.Next());
    const int hold = 1 + int(rng.Below(kMaxHold));
    const int quiet = int(rng.Below(kMaxQuiet + 1));
    std::string phase;
    if constexpr (HasCutPhase<Bench>::value) phase = bench.CutPhase(cut);
    SCOPED_TRACE("x seed " + std::to_string(x_seed) + ", job A cut at cycle " + std::to_string(cut) + " of " +
                 std::to_string(last + 1) + (phase.empty() ? "" : " (" + phase + ")") + ", reset held " +
                 std::to_string(hold) + " cycles, " + std::to_string(quiet) + " quiet cycles");
    CutResetResume(bench, stem, x_seed, job, traffic, job, traffic, cut, hold, quiet, junk);
    if (::testing::Test::HasFailure()) return;
    tally.Add(cut, last + 1, hold, x_seed, 2, phase);
  }
  tally.Report(seed);
  EXPECT_EQ(uint64_t(tally.points), last - 1);
}

using test::Get;
using test::Set;

// ============================================================ MAC lane and array (N-2)

// A random operation stream (test::StreamGen, the stream of rtl_mac_lane_test.cc and
// rtl_mac_array_test.cc: interleaved reductions over the 8 slots in every mode, started by
// first, a load or a clear).
struct MacJob {
  uint64_t stream = 0;
  uint64_t ops = 0;
  int in_valid_pct = 100, out_ready_pct = 100;
};

MacJob RandomMacJob(Rng& rng, uint32_t min_ops, uint32_t spread) {
  MacJob j;
  j.stream = rng.Next();
  j.ops = min_ops + rng.Below(spread);
  j.in_valid_pct = 50 + int(rng.Below(51));
  j.out_ready_pct = 40 + int(rng.Below(61));
  return j;
}

// Junk on the operation port while the lane or array is held in reset: any command (the
// undefined 3 too), mode and flags.
template <class M>
void MacJunk(M& d, Rng& junk) {
  d.in_valid_i = junk.Below(2);
  d.in_cmd_i = uint8_t(junk.Below(4));
  d.in_mode_i = uint8_t(junk.Below(8));
  d.in_slot_i = uint8_t(junk.Below(8));
  if constexpr (std::is_same_v<M, Vane_mac_array16_m1> || std::is_same_v<M, Vane_mac_array16_m5> ||
                std::is_same_v<M, Vane_mac_array256_m1> || std::is_same_v<M, Vane_mac_array256_m5>) {
    d.in_two_kernel_i = junk.Below(2);
    d.in_four_kernel_i = !d.in_two_kernel_i && junk.Below(2);
  }
  d.in_first_i = junk.Below(2);
  d.in_last_i = junk.Below(2);
  d.out_ready_i = junk.Below(2);
  d.rd_en_i = junk.Below(2);
  d.rd_slot_i = uint8_t(junk.Below(8));
}

template <class M>
struct MacBenchBase {
  using Model = M;
  using Rig = SimRig<M>;
  using Job = MacJob;
  static void Idle(M& d) {
    d.in_valid_i = 0;
    d.rd_en_i = 0;
    d.out_ready_i = 1;
  }
  void PowerUp(Rig& r) {
    Idle(r.sim.dut());
    r.sim.Reset();
  }
  void ResetMidJob(Rig& r, int hold, Rng& junk) {
    M& d = r.sim.dut();
    r.sim.Reset(hold, [&] { MacJunk(d, junk); });
    Idle(d);
  }
  void Quiet(Rig& r, Rng& rng) {
    Idle(r.sim.dut());
    r.sim.dut().out_ready_i = rng.Below(2);
  }
  bool AnyOutput(Rig& r) { return r.sim.dut().out_valid_o || r.sim.dut().rd_valid_o; }
};

// ane_mac_lane through the lane test's own driver (test::DriveLane): every result when it leaves
// the lane, then every slot the job started read back through the read port.
template <class M, Generation kGen>
struct LaneBench : MacBenchBase<M> {
  static constexpr const char* kTop = "ane_mac_lane";
  MacJob RandomJob(Rng& rng) { return RandomMacJob(rng, 200, 1800); }

  uint64_t Run(SimRig<M>& r, const MacJob& job, uint64_t traffic) {
    test::StreamGen gen(job.stream);
    Rng rng(traffic);
    return test::DriveLane(r.sim, kGen, gen, rng, job.ops, {job.in_valid_pct, job.out_ready_pct, false}).last_cycle;
  }
};

TEST(RtlReset, N2_MacLaneM1MidJob) {
  LaneBench<Vane_mac_lane_m1, Generation::kM1> b;
  MidJobResets(b, 0x4E5E7001, 300);
}
TEST(RtlReset, N2_MacLaneM5MidJob) {
  LaneBench<Vane_mac_lane_m5, Generation::kM5> b;
  MidJobResets(b, 0x4E5E7002, 300);
}

// ane_mac_array through the array test's own driver (test::DriveArray): broadcast and the fp16
// two- and four-kernel modes, every lane of every result, then the started slots read back.
template <class M, Generation kGen, int kLanes>
struct ArrayBench : MacBenchBase<M> {
  static constexpr const char* kTop = "ane_mac_array";
  ArrayBench(uint32_t min_ops, uint32_t spread) : min_ops_(min_ops), spread_(spread) {}
  MacJob RandomJob(Rng& rng) { return RandomMacJob(rng, min_ops_, spread_); }
  uint32_t min_ops_, spread_;

  uint64_t Run(SimRig<M>& r, const MacJob& job, uint64_t traffic) {
    test::StreamGen stream(job.stream);
    Rng rng(traffic);
    return test::DriveArray<M, kLanes>(r.sim, kGen, stream, rng, job.ops, {job.in_valid_pct, job.out_ready_pct, false})
        .last_cycle;
  }
};

TEST(RtlReset, N2_MacArray16M1MidJob) {
  ArrayBench<Vane_mac_array16_m1, Generation::kM1, 16> b(100, 600);
  MidJobResets(b, 0x4E5E8001, 120);
}
TEST(RtlReset, N2_MacArray16M5MidJob) {
  ArrayBench<Vane_mac_array16_m5, Generation::kM5, 16> b(100, 600);
  MidJobResets(b, 0x4E5E8002, 60);
}
// The full-width arrays (NumLanes = 256, the instances of `ane run`), fewer and shorter jobs.
TEST(RtlReset, N2_MacArray256M1MidJob) {
  ArrayBench<Vane_mac_array256_m1, Generation::kM1, 256> b(60, 200);
  MidJobResets(b, 0x4E5E8003, 8);
}
TEST(RtlReset, N2_MacArray256M5MidJob) {
  ArrayBench<Vane_mac_array256_m5, Generation::kM5, 256> b(60, 200);
  MidJobResets(b, 0x4E5E8004, 8);
}

// ============================================================ post-processor (N-3)

constexpr int kPpLanes = 8;

struct PostJob {
  oracle::PostConfig cfg;
  std::vector<harness::PostVector> in;
  int gap_pct = 0, stall_pct = 0;
};

template <class M, Generation kGen>
struct PostprocBench {
  using Model = M;
  using Rig = SimRig<M>;
  using Job = PostJob;
  static constexpr const char* kTop = "ane_postproc";

  PostJob RandomJob(Rng& rng) {
    PostJob j;
    j.cfg = test::RandomPostConfig(rng, kGen);  // rtl_postproc_test's jobs (tb/tests/postproc_stimulus.h)
    const int vectors = 50 + int(rng.Below(400));
    for (int v = 0; v < vectors; ++v) j.in.push_back(test::RandomPostVector(rng, j.cfg, kPpLanes));
    j.gap_pct = int(rng.Below(40));
    j.stall_pct = int(rng.Below(40));
    return j;
  }
  void PowerUp(Rig& r) { harness::PostprocDriver<M>(r.sim, kPpLanes).Reset(); }
  // The configuration (CTRL, SEED and the table, every job: the reset clears CTRL, the table
  // descriptor and the LFSR) and the vectors.
  uint64_t Run(Rig& r, const PostJob& job, uint64_t traffic) {
    harness::PostprocDriver<M> drv(r.sim, kPpLanes);
    Rng rng(traffic);
    const uint64_t entry = r.sim.cycles();
    drv.Configure(job.cfg);
    cfg_ = r.sim.cycles() - entry;
    const auto got = drv.Run(
        job.in, [&] { return int(rng.Below(100)) < job.gap_pct; }, [&] { return int(rng.Below(100)) < job.stall_pct; });
    const uint64_t last = r.sim.cycles() - 1;
    test::ExpectSamePost(got, test::PostOracle(job.cfg, job.in), job.in,
                         "ctrl 0x" + std::to_string(harness::PostCtrlWord(job.cfg)));
    return last;
  }
  // The probe's configuration writes took cycles 0 .. cfg_ - 1.
  std::string CutPhase(uint64_t cut) const { return cut < cfg_ ? "configuring" : "streaming"; }
  void ResetMidJob(Rig& r, int hold, Rng& junk) {
    harness::PostprocDriver<M>(r.sim, kPpLanes).ResetMidJob(hold, Below(junk));
  }
  uint64_t cfg_ = 0;
  void Quiet(Rig& r, Rng& rng) {
    r.sim.dut().in_valid_i = 0;
    r.sim.dut().cfg_we_i = 0;
    r.sim.dut().out_ready_i = rng.Below(2);
  }
  bool AnyOutput(Rig& r) { return r.sim.dut().out_valid_o; }
  bool Busy(Rig& r) { return r.sim.dut().busy_o; }
};

TEST(RtlReset, N3_PostprocM1MidJob) {
  PostprocBench<Vane_postproc8_m1, Generation::kM1> b;
  MidJobResets(b, 0x4E5E3001, 200);
}
TEST(RtlReset, N3_PostprocM5MidJob) {
  PostprocBench<Vane_postproc8_m5, Generation::kM5> b;
  MidJobResets(b, 0x4E5E3002, 200);
}

// ============================================================ input buffer and shifter (N-2 order)

constexpr int kShBank = 512;
constexpr int kShBeat = 16;

using test::RandomShifterLayer;

struct ShifterJob {
  harness::ShifterLayer layer;
  oracle::Tensor3 x;
  std::vector<harness::WorkUnit> wus;
  std::vector<harness::ShifterRequest> reqs;
  int gap_pct = 0, stall_pct = 0;
};

template <class M, int kShLanes>
struct ShifterBench {
  using Model = M;
  using Rig = SimRig<Model>;
  using Job = ShifterJob;
  static constexpr const char* kTop = "ane_shifter";

  ShifterJob RandomJob(Rng& rng) {
    ShifterJob j;
    j.layer = RandomShifterLayer(rng, kShLanes, kShBank);
    const oracle::ConvGeometry& g = j.layer.geom;
    j.x = test::RandomShifterTensor(rng, g, j.layer.elem16);
    j.wus = harness::PlanWorkUnits(j.layer, j.x, kShBeat);
    j.reqs = harness::DenseRequests(j.layer, j.wus, 1 + int(rng.Below(3)));
    j.gap_pct = int(rng.Below(40));
    j.stall_pct = int(rng.Below(40));
    return j;
  }
  void PowerUp(Rig& r) { harness::ShifterDriver<Model>(r.sim, kShLanes, kShBeat).Reset(); }
  // The configuration (registers and PREP, every job) and the layer; every lane of every vector
  // against the oracle's convolution walk (rtl_shifter_test's check, tb/tests/shifter_stimulus.h).
  uint64_t Run(Rig& r, const ShifterJob& job, uint64_t traffic) {
    harness::ShifterDriver<Model> drv(r.sim, kShLanes, kShBeat);
    Rng rng(traffic);
    auto chance = [&rng](int pct) { return [&rng, pct] { return pct > 0 && int(rng.Below(100)) < pct; }; };
    const uint64_t entry = r.sim.cycles();
    drv.Configure(job.layer);
    cfg_ = r.sim.cycles() - entry;
    const auto out = drv.Run(job.wus, job.reqs, chance(job.gap_pct), chance(job.gap_pct), chance(job.stall_pct));
    const uint64_t last = r.sim.cycles() - 1;
    test::CheckShifterOutputs(job.layer, job.x, job.wus, job.reqs, out, kShLanes, "layer");
    return last;
  }
  // The probe's register writes and PREP took cycles 0 .. cfg_ - 1.
  std::string CutPhase(uint64_t cut) const { return cut < cfg_ ? "configuring" : "streaming"; }
  void ResetMidJob(Rig& r, int hold, Rng& junk) {
    harness::ShifterDriver<Model>(r.sim, kShLanes, kShBeat).ResetMidJob(hold, Below(junk));
  }
  uint64_t cfg_ = 0;
  void Quiet(Rig& r, Rng& rng) {
    Model& d = r.sim.dut();
    d.cfg_we_i = 0;
    d.ld_valid_i = 0;
    d.rq_valid_i = 0;
    d.out_ready_i = rng.Below(2);
  }
  bool AnyOutput(Rig& r) { return r.sim.dut().out_valid_o; }
  bool Busy(Rig& r) { return r.sim.dut().busy_o; }
};

TEST(RtlReset, N2_Shifter16MidLayer) {
  ShifterBench<Vane_shifter16, 16> b;
  MidJobResets(b, 0x4E5E2001, 600);
}
TEST(RtlReset, N2_Shifter256MidLayer) {
  ShifterBench<Vane_shifter256, 256> b;
  MidJobResets(b, 0x4E5E2002, 60);
}

// ============================================================ kernel extract (N-6)

struct ExtractJob {
  oracle::ConvGeometry geom;
  test::ExtractExpect e;  // the words and the expected operations and parameter records
  int gap_pct = 0, stall_pct = 0;
};

struct KernelExtractBench {
  using Model = Vane_kernel_extract;
  using Rig = SimRig<Model>;
  using Job = ExtractJob;
  static constexpr const char* kTop = "ane_kernel_extract";

  // 1 .. 4 groups of one reduction shape in one stream, drawn and expected as
  // rtl_kernel_extract_test does (tb/tests/kernel_stimulus.h).
  ExtractJob RandomJob(Rng& rng) {
    ExtractJob j;
    j.geom.channels = 1 + int(rng.Below(6));
    j.geom.kernel_h = j.geom.height = 1 + int(rng.Below(7));
    j.geom.kernel_w = j.geom.width = 1 + int(rng.Below(7));
    const int zero_pcts[] = {0, 50, 90, 100};
    const int groups = 1 + int(rng.Below(4));
    for (int gi = 0; gi < groups; ++gi) {
      const oracle::KernelFormat f = oracle::KernelFormat(rng.Below(5));
      const bool two = int(f) <= 2 && rng.Below(2);
      oracle::KernelGroup g = test::RandomGroup(rng, j.geom.Steps(), f, rng.Below(3) != 0, two ? 2 : 1,
                                                1 + int(rng.Below(8)), zero_pcts[rng.Below(4)]);
      test::AddGroup(&j.e, g, j.geom);
    }
    j.gap_pct = int(rng.Below(50));
    j.stall_pct = int(rng.Below(50));
    return j;
  }
  void PowerUp(Rig& r) { harness::KernelExtractDriver<Model>(r.sim).Reset(); }
  uint64_t Run(Rig& r, const ExtractJob& job, uint64_t traffic) {
    harness::KernelExtractDriver<Model> drv(r.sim);
    Rng rng(traffic);
    auto chance = [&rng](int pct) { return [&rng, pct] { return int(rng.Below(100)) < pct; }; };
    drv.Configure(job.geom.channels, job.geom.kernel_h, job.geom.kernel_w);
    std::vector<harness::ExtractOp> ops;
    std::vector<harness::ExtractParam> params;
    harness::ExtractStats st;
    const uint64_t start = r.sim.cycles();
    drv.Run(job.e.words, job.e.ops.size(), job.e.params.size(), chance(job.gap_pct), chance(job.stall_pct),
            chance(job.stall_pct), &ops, &params, &st);
    // the cycle of the last operation (the driver then waits for the extract to go idle); a
    // stream of groups with no operation at all ends with its last parameter record
    const uint64_t last = st.op_cycles ? start + st.cycles - 1 : r.sim.cycles() - 5;
    test::CompareExtract(job.e, ops, params, "stream");
    return last;
  }
  void ResetMidJob(Rig& r, int hold, Rng& junk) {
    harness::KernelExtractDriver<Model>(r.sim).ResetMidJob(hold, Below(junk));
  }
  void Quiet(Rig& r, Rng& rng) {
    Model& d = r.sim.dut();
    d.cfg_we_i = 0;
    d.kin_valid_i = 0;
    d.op_ready_i = rng.Below(2);
    d.pp_ready_i = rng.Below(2);
  }
  bool AnyOutput(Rig& r) { return r.sim.dut().op_valid_o || r.sim.dut().pp_valid_o; }
  bool Busy(Rig& r) { return r.sim.dut().busy_o; }
};

TEST(RtlReset, N6_KernelExtractMidStream) {
  KernelExtractBench b;
  MidJobResets(b, 0x4E5E6001, 300, /*share=*/false);  // the scale-load state is a cycle or two
}

// ============================================================ planar engine (N-4)

// Junk on a planar unit's handshakes while it is held in reset.
template <class M>
void StreamJunk(M& d, Rng& junk) {
  d.in_valid_i = junk.Below(2);
  d.out_ready_i = junk.Below(2);
}

// The common part of the planar units driven here without a harness driver.
template <class M>
struct StreamBenchBase {
  using Model = M;
  using Rig = SimRig<M>;
  void PowerUp(Rig& r) {
    r.sim.dut().in_valid_i = 0;
    r.sim.dut().out_ready_i = 1;
    r.sim.Reset();
  }
  void ResetMidJob(Rig& r, int hold, Rng& junk) {
    M& d = r.sim.dut();
    r.sim.Reset(hold, [&] { StreamJunk(d, junk); });
    d.in_valid_i = 0;
    d.out_ready_i = 1;
  }
  void Quiet(Rig& r, Rng& rng) {
    r.sim.dut().in_valid_i = 0;
    r.sim.dut().out_ready_i = rng.Below(2);
  }
  bool AnyOutput(Rig& r) { return r.sim.dut().out_valid_o; }
};

// ---- ane_pe_ew (16 lanes): random operands through every operation, rtl_planar_test's driver
// (tb/tests/pe_units.h) ----

struct EwJob {
  std::vector<test::EwVec> in;
  int gap_pct = 0, stall_pct = 0;
};

struct PeEwBench : StreamBenchBase<Vane_pe_ew16> {
  using Job = EwJob;
  static constexpr const char* kTop = "ane_pe_ew";
  EwJob RandomJob(Rng& rng) {
    EwJob j;
    const size_t n = 50 + rng.Below(500);
    for (size_t i = 0; i < n; ++i) j.in.push_back(test::RandomEwVec(rng, true));
    j.gap_pct = int(rng.Below(50));
    j.stall_pct = int(rng.Below(50));
    return j;
  }
  uint64_t Run(Rig& r, const EwJob& job, uint64_t traffic) {
    Rng rng(traffic);
    return test::DriveEw(r.sim, job.in, rng, job.gap_pct, job.stall_pct).last_cycle;
  }
  // While held in reset the unit sees any operation code, the undefined ones (12 .. 15)
  // included: its checks of the input protocol hold only out of reset.
  void ResetMidJob(Rig& r, int hold, Rng& junk) {
    Vane_pe_ew16& d = r.sim.dut();
    r.sim.Reset(hold, [&] {
      StreamJunk(d, junk);
      d.in_op_i = uint8_t(junk.Below(16));
    });
    d.in_valid_i = 0;
    d.out_ready_i = 1;
  }
};

TEST(RtlReset, N4_1_PeEw16MidJob) {
  PeEwBench b;
  MidJobResets(b, 0x4E5E4101, 200);
}

// ---- ane_pe_fc (16 lanes, 16 channels): random beats and table writes, rtl_planar_fc_test's
// driver (tb/tests/pe_units.h) ----

struct FcJob {
  std::vector<test::FcWrite> entries;  // written with the pipeline idle, before the beats
  std::vector<test::FcBeat> in;
  int gap_pct = 0, stall_pct = 0, write_pct = 0;
};

struct PeFcBench : StreamBenchBase<Vane_pe_fc16> {
  using Job = FcJob;
  static constexpr const char* kTop = "ane_pe_fc";
  FcJob RandomJob(Rng& rng) {
    FcJob j;
    const int entries = int(rng.Below(test::kFcChannels + 1));
    for (int e = 0; e < entries; ++e)
      j.entries.push_back({int(rng.Below(test::kFcChannels)), test::FcOperand(rng), test::FcOperand(rng)});
    j.in = test::RandomFcBeats(rng, 50 + rng.Below(500));
    j.gap_pct = int(rng.Below(50));
    j.stall_pct = int(rng.Below(50));
    j.write_pct = int(rng.Below(10));
    return j;
  }
  // The driver's table mirror starts at the reset value the RTL gives every entry (scale 1.0,
  // bias +0): a job after a reset in the middle of another must not see that job's entries.
  uint64_t Run(Rig& r, const FcJob& job, uint64_t traffic) {
    Rng rng(traffic);
    test::FcDriver drv(r.sim);
    drv.Load(job.entries);
    return drv.Run(job.in, rng, job.gap_pct, job.stall_pct, job.write_pct).last_cycle;
  }
  void PowerUp(Rig& r) {
    r.sim.dut().cfg_we_i = 0;
    StreamBenchBase::PowerUp(r);
  }
  void ResetMidJob(Rig& r, int hold, Rng& junk) {
    r.sim.dut().cfg_we_i = 0;
    StreamBenchBase::ResetMidJob(r, hold, junk);
  }
};

TEST(RtlReset, N4_1_PeFc16MidJob) {
  PeFcBench b;
  MidJobResets(b, 0x4E5E4102, 200);
}

// ---- ane_pe_transpose (8 x 8): random patches, rtl_planar_fc_test's driver ----

struct TransposeJob {
  std::vector<std::vector<uint16_t>> patches;
  int gap_pct = 0, stall_pct = 0;
};

struct PeTransposeBench : StreamBenchBase<Vane_pe_transpose8> {
  using Job = TransposeJob;
  static constexpr const char* kTop = "ane_pe_transpose";
  TransposeJob RandomJob(Rng& rng) {
    TransposeJob j;
    j.patches = test::RandomTransposePatches(rng, 5 + rng.Below(60));
    j.gap_pct = int(rng.Below(4)) * 25;
    j.stall_pct = int(rng.Below(4)) * 25;
    return j;
  }
  // Every column beat against oracle::TransposePatch. A reset in the middle of a patch must
  // leave the next job's first row as row 0 of its first patch.
  uint64_t Run(Rig& r, const TransposeJob& job, uint64_t traffic) {
    Rng rng(traffic);
    return test::DriveTranspose(r.sim, job.patches, rng, job.gap_pct, job.stall_pct).last_cycle;
  }
};

TEST(RtlReset, N4_1_PeTranspose8MidJob) {
  PeTransposeBench b;
  MidJobResets(b, 0x4E5E4103, 1000);
}

// ---- ane_pe_post (4 lanes): every operation on random codes, through harness::StreamPost ----

struct PostOpJob {
  harness::PePostOp op = harness::PePostOp::kPass;
  std::vector<uint16_t> x;
  harness::PostRunOptions opt;
};

uint16_t PePostOracle(harness::PePostOp op, uint16_t x) {
  switch (op) {
    case harness::PePostOp::kSqrt: return oracle::Fp16Sqrt(x);
    case harness::PePostOp::kRecip: return oracle::Fp16Recip(x);
    case harness::PePostOp::kRsqrt: return oracle::Fp16Rsqrt(x);
    default: return x;
  }
}

struct PePostBench : StreamBenchBase<Vane_pe_post4> {
  using Job = PostOpJob;
  static constexpr const char* kTop = "ane_pe_post";
  PostOpJob RandomJob(Rng& rng) {
    PostOpJob j;
    j.op = harness::PePostOp(rng.Below(4));
    j.x.resize(100 + rng.Below(2000));
    for (auto& v : j.x) v = rng.Code();
    j.opt.gap_pct = int(rng.Below(4)) * 15;
    j.opt.stall_pct = int(rng.Below(4)) * 15;
    return j;
  }
  uint64_t Run(Rig& r, const PostOpJob& job, uint64_t traffic) {
    harness::PostRunOptions opt = job.opt;
    opt.seed = traffic;
    const std::vector<uint16_t> y = harness::StreamPost(r.sim, job.op, job.x, opt);
    const uint64_t last = r.sim.cycles() - 1;
    for (size_t i = 0; i < y.size(); ++i) {
      if (y[i] != PePostOracle(job.op, job.x[i])) {
        ADD_FAILURE() << "op " << int(job.op) << " input " << i << std::hex << " 0x" << job.x[i] << ": rtl 0x" << y[i]
                      << ", oracle 0x" << PePostOracle(job.op, job.x[i]);
        break;
      }
    }
    return last;
  }
  void ResetMidJob(Rig& r, int hold, Rng& junk) { harness::ResetStreamUnitMidJob(r.sim, hold, Below(junk)); }
};

TEST(RtlReset, N4_1_PePost4MidJob) {
  PePostBench b;
  MidJobResets(b, 0x4E5E4104, 400);
}

// ---- ane_pe_reduce: random reductions of 1..5 patches, rtl_planar_test's driver ----

struct ReduceJob {
  std::vector<test::Patch> in;
  int gap_pct = 0, stall_pct = 0;
};

struct PeReduceBench : StreamBenchBase<Vane_pe_reduce> {
  using Job = ReduceJob;
  static constexpr const char* kTop = "ane_pe_reduce";
  ReduceJob RandomJob(Rng& rng) {
    ReduceJob j;
    j.in = test::RandomPatches(rng, 20 + int(rng.Below(150)));
    j.gap_pct = int(rng.Below(50));
    j.stall_pct = int(rng.Below(50));
    return j;
  }
  // Every result (fp32 register and fp16 store) against the oracle's tree and running register;
  // the reduction the reset cut must not leak into the next job's first one.
  uint64_t Run(Rig& r, const ReduceJob& job, uint64_t traffic) {
    Rng rng(traffic);
    return test::DriveReduce(r.sim, job.in, rng, job.gap_pct, job.stall_pct).last_cycle;
  }
};

TEST(RtlReset, N4_4_PeReduceMidJob) {
  PeReduceBench b;
  MidJobResets(b, 0x4E5E4401, 100);
}

// The planar units with a configuration stream and a busy flag, driven by the harness.
template <class M>
struct CfgStreamBenchBase {
  using Model = M;
  using Rig = SimRig<Model>;
  void PowerUp(Rig& r) { harness::ResetIdle(r.sim); }
  void ResetMidJob(Rig& r, int hold, Rng& junk) { harness::ResetStreamUnitMidJob(r.sim, hold, Below(junk)); }
  void Quiet(Rig& r, Rng& rng) {
    r.sim.dut().cfg_valid_i = 0;
    r.sim.dut().in_valid_i = 0;
    r.sim.dut().out_ready_i = rng.Below(2);
  }
  bool AnyOutput(Rig& r) { return r.sim.dut().out_valid_o; }
  bool Busy(Rig& r) { return r.sim.dut().busy_o; }
};

// ---- ane_pe_vreduce (4 lanes, lines up to 16): line jobs through harness::StreamLineJobs, with
// rtl_planar_vreduce_test's jobs and check (tb/tests/planar_stimulus.h) ----

struct VreduceJob {
  std::vector<harness::LineJob> jobs;
  harness::LineRunOptions opt;
};

struct PeVreduceBench : CfgStreamBenchBase<Vane_pe_vreduce4> {
  using Job = VreduceJob;
  static constexpr const char* kTop = "ane_pe_vreduce";
  // 1 .. 3 line jobs back to back, line counts around the 64-line blocks.
  VreduceJob RandomJob(Rng& rng) {
    VreduceJob v;
    const int k = 1 + int(rng.Below(3));
    for (int q = 0; q < k; ++q) v.jobs.push_back(test::RandomLineJob(rng));
    v.opt = test::RandomLineTraffic(rng);
    return v;
  }
  uint64_t Run(Rig& r, const VreduceJob& job, uint64_t traffic) {
    harness::LineRunOptions opt = job.opt;
    opt.seed = traffic;
    const std::vector<harness::TreeResult> got = harness::StreamLineJobs(r.sim, job.jobs, opt);
    const uint64_t last = r.sim.cycles() - 1;
    test::ExpectLineOracle(job.jobs, got, "line jobs");
    return last;
  }
};

TEST(RtlReset, N4_4_PeVreduce4MidJob) {
  PeVreduceBench b;
  MidJobResets(b, 0x4E5E4402, 200);
}

// ---- ane_pe_pool (4 lanes, output rows of 16): random poolings through harness::StreamPool,
// with rtl_planar_pool_test's cases and check (tb/tests/planar_stimulus.h) ----

struct PoolJob {
  test::PoolCase c;
  harness::PoolRunOptions opt;
};

struct PePoolBench : CfgStreamBenchBase<Vane_pe_pool4> {
  using Job = PoolJob;
  static constexpr const char* kTop = "ane_pe_pool";
  PoolJob RandomJob(Rng& rng) {
    PoolJob j;
    j.c = test::RandomPoolCase(rng);
    j.opt = test::RandomPoolTraffic(rng);
    return j;
  }
  uint64_t Run(Rig& r, const PoolJob& job, uint64_t traffic) {
    harness::PoolRunOptions opt = job.opt;
    opt.seed = traffic;
    const std::vector<uint16_t> got =
        harness::StreamPool(r.sim, harness::ToPoolGeometry(job.c.op, job.c.g), job.c.x.codes, opt);
    const uint64_t last = r.sim.cycles() - 1;
    test::ExpectPoolOracle(job.c, got, oracle::PoolOpName(job.c.op));
    return last;
  }
};

TEST(RtlReset, N4_5_PePool4MidJob) {
  PePoolBench b;
  MidJobResets(b, 0x4E5E4501, 300);
}

// ============================================================ the core (N-2, N-3)

// An ane_core instance: NumLanes, 512-byte banks, 8-byte input beats, 32-byte output beats.
constexpr harness::CoreParams CoreOf(int lanes) { return {lanes, 512, 8, 64}; }

// A random layer, as rtl_core_test.cc: geometry, groups, fp16 (fp16, int8sym or palette kernels,
// broadcast or two-kernel, scale, bias, ReLU) or int8 (requantized to int8 or fp16), dense or
// sparse; the planner's tiling or forced channels per work unit.
struct CoreJob {
  harness::CoreLayerPlan plan;
  harness::CoreImage image;
  oracle::Tensor3 want;
  int max_latency = 1, stall_pct = 0;
};

bool RandomCoreLayer(Rng& rng, const harness::CoreParams& cp, harness::CoreLayerPlan* out, oracle::Tensor3* x_out,
                     std::vector<std::vector<uint16_t>>* w_out) {
  test::LayerCase lc = test::RandomLayer(rng, true);
  harness::CoreLayerPlan& p = lc.plan;
  if (rng.Below(3) == 0) p.channels_per_wu = 1 + int(rng.Below(uint32_t(p.layer.geom.channels)));
  harness::CoreLayerPlan probe = p;
  if (!harness::PlanCoreLayer(&probe, cp).empty()) {
    p.channels_per_wu = 1;
    probe = p;
    if (!harness::PlanCoreLayer(&probe, cp).empty()) return false;  // a window wider than the bank
  }
  *out = probe;
  *x_out = std::move(lc.x);
  *w_out = std::move(lc.w);
  return true;
}

template <class M, int kLanes>
struct CoreRig {
  CoreRig(const char* top, const std::string& stem, uint32_t x_seed)
      : sim(top, stem, x_seed), drv(sim, CoreOf(kLanes)) {
    sim.set_timeout(50'000'000);
  }
  Sim<M> sim;
  harness::CoreDriver<M> drv;
};

template <class M, int kLanes>
struct CoreBench {
  using Model = M;
  using Rig = CoreRig<M, kLanes>;
  using Job = CoreJob;
  static constexpr const char* kTop = "ane_core";

  CoreJob RandomJob(Rng& rng) {
    CoreJob j;
    oracle::Tensor3 x;
    std::vector<std::vector<uint16_t>> w;
    while (!RandomCoreLayer(rng, CoreOf(kLanes), &j.plan, &x, &w)) {}
    j.image = harness::BuildCoreImage(j.plan, CoreOf(kLanes), x, w, rng.Next());
    j.want = oracle::Conv2d(j.plan.layer, x, harness::CoreCoefficients(j.plan, w));
    j.max_latency = 1 + int(rng.Below(12));
    j.stall_pct = int(rng.Below(35));
    return j;
  }
  void PowerUp(Rig& r) { r.drv.Reset(); }
  // The whole layer from its first configuration write: every output against oracle::Conv2d,
  // the MAC operations the kernel groups schedule, and done_o only once every output byte has
  // been written, each once. Returns the cycle done_o was seen.
  uint64_t Run(Rig& r, const CoreJob& job, uint64_t traffic) {
    Rng rng(traffic);
    harness::CoreRunOptions opt;
    opt.max_latency = job.max_latency;
    opt.stall_pct = job.stall_pct;
    opt.below = Below(rng);
    const uint64_t entry = r.sim.cycles();
    const harness::CoreResult res = r.drv.Run(job.plan, job.image, opt);
    const uint64_t done = r.sim.cycles() - 1;
    start_ = r.sim.cycles() - res.cycles - 1 - entry;
    EXPECT_EQ(res.bytes_written, job.image.y_bytes) << "output bytes written when done_o rose";
    EXPECT_EQ(res.bytes_rewritten, 0u) << "output bytes written twice";
    EXPECT_EQ(res.counters.mac, job.image.mac_ops) << "MAC operations";
    const harness::CoreLayerPlan& p = job.plan;
    int bad = 0;
    for (size_t i = 0; i < job.want.codes.size() && i < res.y.codes.size() && bad < 5; ++i) {
      if (res.y.codes[i] != job.want.codes[i]) {
        const size_t plane = size_t(p.oh * p.ow);
        ADD_FAILURE() << "y[" << i / plane << "][" << (i % plane) / size_t(p.ow) << "][" << i % size_t(p.ow)
                      << "] rtl 0x" << std::hex << res.y.codes[i] << " oracle 0x" << job.want.codes[i];
        ++bad;
      }
    }
    return done;
  }
  // Cycle `cut` of the probe's layer: before START was taken (configuration: the shifter's
  // registers and PREP, the post-processor, the layer registers) or while the layer runs.
  std::string CutPhase(uint64_t cut) const { return cut <= start_ ? "configuring" : "running"; }
  // The reset clears what could show the interrupted layer as complete: busy_o, done_o and the
  // counters (which a driver reads after done_o) are 0 when rst_ni rises.
  void ResetMidJob(Rig& r, int hold, Rng& junk) {
    r.drv.ResetMidJob(hold, Below(junk));
    Model& d = r.sim.dut();
    r.sim.Eval();
    EXPECT_FALSE(d.busy_o) << "busy after the reset";
    EXPECT_FALSE(d.done_o) << "done after the reset";
    EXPECT_EQ(d.st_cycles_o | d.st_mac_o | d.st_stall_res_o | d.st_wait_slot_o | d.st_wait_load_o | d.st_wait_kern_o |
                  d.st_last_mac_o,
              0u)
        << "counters of the interrupted layer after the reset";
  }
  void Quiet(Rig& r, Rng& rng) {
    Model& d = r.sim.dut();
    d.cfg_we_i = 0;
    d.xs_valid_i = 0;
    d.ks_valid_i = 0;
    d.xr_ready_i = rng.Below(2);
    d.kr_ready_i = rng.Below(2);
    d.yw_ready_i = rng.Below(2);
  }
  // No request, no write, no done.
  bool AnyOutput(Rig& r) {
    const Model& d = r.sim.dut();
    return d.xr_valid_o || d.kr_valid_o || d.yw_valid_o || d.done_o;
  }
  bool Busy(Rig& r) { return r.sim.dut().busy_o; }

  uint64_t start_ = 0;  // the cycle of the last complete run's START write, from its first cycle
};

// Sparse layers (N-6.3) of three or more channel slices per tile whose kernels are zero over
// whole slices (the second and the last): the router releases such slices by no-data requests,
// skipping them between two operations or ending the group after its last one (docs/core.md
// "ane_core_route"). The random layers above seldom have one; resets land in those states here.
template <class M, int kLanes>
struct SparseSliceCoreBench : CoreBench<M, kLanes> {
  CoreJob RandomJob(Rng& rng) {
    CoreJob j;
    oracle::Tensor3 x;
    std::vector<std::vector<uint16_t>> w;
    for (;;) {
      if (!RandomCoreLayer(rng, CoreOf(kLanes), &j.plan, &x, &w)) continue;
      if (j.plan.nsl >= 3 && !j.plan.kspec.four_kernel && !j.plan.diag && j.plan.layer.groups == 1) break;
    }
    j.plan.kspec.sparse = true;
    const oracle::ConvGeometry& g = j.plan.layer.geom;
    const int nc = j.plan.channels_per_wu, kk = g.kernel_h * g.kernel_w;
    for (auto& kern : w) {
      for (size_t s = 0; s < kern.size(); ++s) {
        const int slice = int(s) / kk / nc;
        if (slice == 1 || slice == j.plan.nsl - 1) kern[s] = 0;
      }
    }
    j.image = harness::BuildCoreImage(j.plan, CoreOf(kLanes), x, w, rng.Next());
    j.want = oracle::Conv2d(j.plan.layer, x, harness::CoreCoefficients(j.plan, w));
    j.max_latency = 1 + int(rng.Below(12));
    j.stall_pct = int(rng.Below(35));
    return j;
  }
};

TEST(RtlReset, N2_N3_N6_3_Core8SparseSlicesMidLayerNeverReportsDoneAndNextLayerIsExact) {
  SparseSliceCoreBench<Vane_core8_m1, 8> b;
  MidJobResets(b, 0x4E5E0C03, 300);
}

// A reset in every cycle of one short sparse layer (four slices or more of whole quads, at most
// 400 MAC operations): the router's skip of the zero slice 1 lasts a cycle or two a group (its end
// state is never entered: scripts/coverage_unreachable.txt).
TEST(RtlReset, N2_N3_N6_3_Core8SparseLayerResetInEveryCycleThenTheLayerAgainIsExact) {
  SparseSliceCoreBench<Vane_core8_m1, 8> b;
  EveryCycleResets(b, 0x4E5E0C04, [](const CoreJob& j) {
    // four slices or more: slice 1 (zero) lies between two with operations (the skip state);
    // slices of whole quads (the steps of a slice, channels x KH x KW, a multiple of 4), or a
    // quad that reaches into slice 0 or 2 keeps an operation in slice 1
    const int kk = j.plan.layer.geom.kernel_h * j.plan.layer.geom.kernel_w;
    return j.plan.nsl >= 4 && (j.plan.channels_per_wu * kk) % 4 == 0 && j.image.mac_ops <= 400;
  });
}

TEST(RtlReset, N2_N3_Core8MidLayerNeverReportsDoneAndNextLayerIsExact) {
  CoreBench<Vane_core8_m1, 8> b;
  MidJobResets(b, 0x4E5E0C01, 150);
}
// The full 256-lane core (the instance of `ane run`): a few small layers.
TEST(RtlReset, N2_N3_Core256MidLayerNeverReportsDoneAndNextLayerIsExact) {
  CoreBench<Vane_core256_m1, 256> b;
  MidJobResets(b, 0x4E5E0C02, 12);
}

// ============================================================ the harness itself

// Sim::InterruptAt stops a run at the named cycle whatever the driver is doing, once.
TEST(RtlReset, HarnessInterruptStopsAtTheNamedCycle) {
  Sim<Vane_pe_ew16> sim("ane_pe_ew", harness::CurrentTestStem());
  sim.dut().in_valid_i = 0;
  sim.dut().out_ready_i = 1;
  sim.Reset();
  const uint64_t c0 = sim.cycles();
  sim.InterruptAt(c0 + 5);
  int ticks = 0;
  try {
    for (; ticks < 10; ++ticks) sim.Tick();
  } catch (const harness::SimInterrupted& e) {
    EXPECT_EQ(e.cycle, c0 + 5);
  }
  EXPECT_EQ(ticks, 5);
  EXPECT_EQ(sim.cycles(), c0 + 5);
  for (int i = 0; i < 10; ++i) sim.Tick();  // once only
  EXPECT_EQ(sim.cycles(), c0 + 15);
}

// The X seed alone chooses a model's power-up state, whatever other Sim is alive and ran last
// on the thread: Verilator draws initial values through the thread's current context, which a
// new VerilatedContext becomes as it is built (Sim builds its context, then the model). The
// iterations above rely on it. The fingerprint: ane_pe_transpose shows column 0 of its bank 0,
// registers without reset, while no column is valid.
std::array<uint32_t, 4> PowerUpFingerprint(uint32_t x_seed) {
  Sim<Vane_pe_transpose8> sim("ane_pe_transpose", harness::CurrentTestStem(), x_seed);
  sim.dut().in_valid_i = 0;
  sim.dut().out_ready_i = 0;
  sim.Eval();
  return {sim.dut().out_col_o[0], sim.dut().out_col_o[1], sim.dut().out_col_o[2], sim.dut().out_col_o[3]};
}

std::array<uint32_t, 4> FingerprintBesideAnother(uint32_t x_seed, uint32_t other_seed) {
  Sim<Vane_pe_ew16> other("ane_pe_ew", harness::CurrentTestStem() + ".other", other_seed);
  other.dut().in_valid_i = 0;
  other.Reset();  // the thread's current context is now other's
  return PowerUpFingerprint(x_seed);
}

TEST(RtlReset, HarnessXSeedAloneChoosesThePowerUpState) {
  const auto alone = PowerUpFingerprint(7);
  EXPECT_EQ(FingerprintBesideAnother(7, 5), alone);
  EXPECT_EQ(FingerprintBesideAnother(7, 6), alone);
  EXPECT_NE(PowerUpFingerprint(8), alone);
}

}  // namespace
}  // namespace ane
