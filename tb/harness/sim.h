// SPDX-License-Identifier: Apache-2.0
// Sim<Model>: the one simulation-control class every RTL test uses.
//
// - owns the VerilatedContext and the model (std::unique_ptr), built with the X seed chosen by
//   the test (models are Verilated with --x-assign unique --x-initial unique, so the seed
//   decides every initial and X value);
// - Eval() for combinational tops, Tick() for clocked tops (clk_i), Reset() for rst_ni;
// - FST tracing switched at run time: when ANE_WAVE_DIR is set, the run is written to
//   $ANE_WAVE_DIR/<trace_name>.fst and a sidecar <trace_name>.top names the top module, so
//   scripts/wave.sh can open the matching GTKWave save file from sim/; ANE_WAVE_CYCLES=N, when
//   set, keeps the first N clock cycles or N evaluations, whichever comes first: the rest
//   of the run goes on untraced, at full speed (a long random test's start, or
//   scripts/check_waves.py, which only reads which signals a waveform holds);
// - or, for `ane run --wave FILE.fst` (RequestWaveFile), one explicit file: the first Sim
//   built after the request writes FILE.fst, later ones FILE.2.fst, FILE.3.fst, ... (an
//   operation that runs several blocks one after another), each with its .top sidecar;
// - a cycle timeout for clocked tests;
// - InterruptAt: stop whatever a driver is doing at an exact cycle (a reset in the middle of a
//   job, tb/tests/rtl_reset_test.cc);
// - coverage (a build with ANE_COVERAGE, `make coverage`): when ANE_COVERAGE_DIR is set, each
//   Sim writes its model's counters to $ANE_COVERAGE_DIR/<model>.<pid>.<n>.dat when it ends,
//   and those of the model's first evaluation (its settling) to a .settle.dat before that.
#ifndef TB_HARNESS_SIM_H_
#define TB_HARNESS_SIM_H_

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "verilated.h"
#include "verilated_fst_c.h"
#ifdef ANE_COVERAGE
#include <unistd.h>

#include <atomic>

#include "verilated_cov.h"
#endif

namespace ane::harness {

// Where coverage counters go, or "" (ANE_COVERAGE_DIR unset, or a build without coverage).
inline std::string CoverageDir() {
#ifdef ANE_COVERAGE
  const char* dir = std::getenv("ANE_COVERAGE_DIR");
  return dir ? std::string(dir) : std::string();
#else
  return std::string();
#endif
}

// Where a test's waveform goes, or "" when tracing is off.
inline std::string WaveDir() {
  const char* dir = std::getenv("ANE_WAVE_DIR");
  return dir ? std::string(dir) : std::string();
}

// ANE_WAVE_CYCLES: how many clock cycles (or evaluations, whichever run out first) a waveform keeps;
// unset: all. Anything but a whole number above 0 is an error, never a silent default.
inline uint64_t WaveCycles() {
  const char* env = std::getenv("ANE_WAVE_CYCLES");
  if (!env) return std::numeric_limits<uint64_t>::max();
  const std::string s(env);
  bool digits = !s.empty() && s.size() <= 18;
  for (char c : s) digits = digits && c >= '0' && c <= '9';
  if (!digits || std::stoull(s) == 0) {
    throw std::runtime_error("ANE_WAVE_CYCLES='" + s + "' is not a whole number of cycles above 0");
  }
  return std::stoull(s);
}

// The explicit waveform request of `ane run --wave` (empty: none) and the files written for it.
struct WaveRequest {
  std::string file;                  // FILE.fst
  std::vector<std::string> written;  // FILE.fst, FILE.2.fst, ...
  std::vector<std::string> tops;     // the RTL top of each
};
inline WaveRequest& CurrentWaveRequest() {
  static WaveRequest r;
  return r;
}
inline void RequestWaveFile(const std::string& file) { CurrentWaveRequest() = WaveRequest{file, {}, {}}; }

// Thrown by Sim::Tick() at the cycle Sim::InterruptAt named. A driver can be in any phase then
// (writing the configuration, waiting for busy, streaming, draining): its in-flight bookkeeping
// unwinds with its stack, the model stays as it is, and the test resets it in the middle of the
// job.
struct SimInterrupted : std::runtime_error {
  explicit SimInterrupted(uint64_t cycle)
      : std::runtime_error("Sim: interrupted at cycle " + std::to_string(cycle)), cycle(cycle) {}
  uint64_t cycle;
};

template <class Model>
class Sim {
 public:
  // top: the RTL module name (for the GTKWave save file); trace_name: the FST file stem.
  Sim(const std::string& top, const std::string& trace_name, uint32_t x_seed = 1)
      : context_(std::make_unique<VerilatedContext>()) {
    context_->randReset(2);  // randomize initial values, per --x-initial unique
    context_->randSeed(int(x_seed));
    std::string stem;
    WaveRequest& req = CurrentWaveRequest();
    if (!req.file.empty()) {
      std::string base = req.file;
      if (base.size() > 4 && base.compare(base.size() - 4, 4, ".fst") == 0) base.resize(base.size() - 4);
      stem = req.written.empty() ? base : base + "." + std::to_string(req.written.size() + 1);
      req.written.push_back(stem + ".fst");
      req.tops.push_back(top);
    } else if (!WaveDir().empty()) {
      stem = WaveDir() + "/" + trace_name;
    }
    if (!stem.empty()) context_->traceEverOn(true);
    model_ = std::make_unique<Model>(context_.get(), "TOP");
    if (!stem.empty()) {
      trace_ = std::make_unique<VerilatedFstC>();
      // levels 0: every signal of the model (Verilator 5.006 ignores the depth), the lanes of the
      // 256-lane models included.
      model_->trace(trace_.get(), 0);
      trace_->open((stem + ".fst").c_str());
      wave_ticks_left_ = wave_evals_left_ = WaveCycles();
      std::ofstream(stem + ".top") << top << "\n";
    }
  }
  ~Sim() {
    // Verilator 5.006 erases a model's scopes through the thread's current context: make it
    // this one, or a model destroyed after another Sim's (several alive at once) locks a freed
    // context's mutex and hangs.
    Verilated::threadContextp(context_.get());
    if (trace_) trace_->close();
    model_->final();
    WriteCoverage();
    model_.reset();
  }
  Sim(const Sim&) = delete;
  Sim& operator=(const Sim&) = delete;

  Model& dut() { return *model_; }
  uint64_t cycles() const { return cycles_; }
  bool tracing() const { return trace_ != nullptr; }
  void set_timeout(uint64_t cycles) { timeout_ = cycles; }

  // The first Tick() called once `cycle` clock periods have run (cycles() >= cycle) throws
  // SimInterrupted instead of clocking: the inputs set for that cycle never reach an edge. Once.
  void InterruptAt(uint64_t cycle) { interrupt_at_ = cycle; }

  // Called by every Tick() before its rising edge, with the inputs of that edge set: a recorder
  // of the top's inputs (tb/tools/core_glstim.cc) hangs here.
  void set_before_edge(std::function<void()> f) { before_edge_ = std::move(f); }

  // Combinational top: settle the inputs and record one time step. (Clocked top: settle the
  // inputs set for the next clock edge, to read what they drive combinationally.)
  void Eval() {
    Verilated::threadContextp(context_.get());
    model_->eval();
    CoverageStart();
    if constexpr (HasClock<Model>::value) low_seen_ = model_->clk_i == 0;
    Dump();
    CountWaveStep(wave_evals_left_);
  }

  // Simulated time in the models' unit, 1 ps (Verilator's default time scale): a clock period is
  // the synthesis constraint's 5 ns (constraints/osu018.sdc), so a waveform reads as hardware
  // (GTKWave shows cycle n at n x 5 ns); an Eval() of a combinational top is half a period.
  static constexpr uint64_t kHalfPeriodPs = 2500;

  // Clocked top: one full clk_i period. Throws when the timeout is exceeded.
  // With a waveform: clk_i low, eval, clk_i high, eval, each a time step. Without one, one eval
  // is saved per cycle (every eval re-evaluates the logic the inputs drive, a quarter of a
  // 256-lane array's simulation time): the cycle ends with clk_i set low but not evaluated,
  // so the caller's Eval() of the next cycle's inputs is also the model's low phase, and the
  // next Tick() goes straight to the rising edge. The edge samples the same values either way:
  // no block has logic on the falling edge or on the clock level, and an input changed after
  // that Eval() is settled by the edge's own eval before the registers sample it.
  void Tick() {
    if (cycles_ >= interrupt_at_) {
      interrupt_at_ = kNever;
      throw SimInterrupted(cycles_);
    }
    if (before_edge_) before_edge_();
    Verilated::threadContextp(context_.get());
    if (trace_) {
      model_->clk_i = 0;
      model_->eval();
      CoverageStart();
      Dump();
      model_->clk_i = 1;
      model_->eval();
      Dump();
      CountWaveStep(wave_ticks_left_);
    } else {
      if (!low_seen_ || model_->clk_i != 0) {
        model_->clk_i = 0;
        model_->eval();
        CoverageStart();
      }
      model_->clk_i = 1;
      model_->eval();
      model_->clk_i = 0;
      low_seen_ = false;
      context_->timeInc(2 * kHalfPeriodPs);
    }
    if (++cycles_ > timeout_) throw std::runtime_error("Sim: cycle timeout exceeded");
  }

  // Active-low reset held for `cycles` clock periods. `each_cycle`, when given, sets the other
  // inputs before each of those clocks (traffic that goes on while the block is held in reset);
  // the caller sets them for the first cycle after the release.
  void Reset(int cycles = 4, const std::function<void()>& each_cycle = {}) {
    model_->rst_ni = 0;
    for (int i = 0; i < cycles; ++i) {
      if (each_cycle) each_cycle();
      Tick();
    }
    model_->rst_ni = 1;
  }

  // Random numbers below n, for traffic during a reset (a driver's ResetMidJob).
  using Below = std::function<uint32_t(uint32_t)>;

  // Reset in the middle of a job, as every driver does it (Sim::InterruptAt): `idle` sets the
  // inputs idle, rst_ni is held low for `hold` cycles while `traffic(below)` drives the block's
  // handshake inputs at random when `below` is set, and the inputs are idle again afterwards.
  template <class Idle, class Traffic>
  void ResetWithTraffic(int hold, const Below& below, Idle idle, Traffic traffic) {
    idle();
    Reset(hold, [&] {
      if (below) traffic(below);
    });
    idle();
  }

 private:
  void Dump() {
    if (trace_) trace_->dump(context_->time());
    context_->timeInc(kHalfPeriodPs);
  }

  // One traced cycle or evaluation done: the waveform ends after ANE_WAVE_CYCLES of either. The
  // untraced Tick() keeps the time going as before, so the times in the file are unchanged.
  void CountWaveStep(uint64_t& left) {
    if (trace_ && --left == 0) {
      trace_->close();
      trace_.reset();
    }
  }

  // Coverage. After the first evaluation the counters are written to a ".settle" file and
  // zeroed: Verilator counts a combinational block's unconditional statements only when it
  // first settles the model, so their line points come from that file; its toggle points,
  // counted against the random power-up values of --x-initial unique, are no toggles and are
  // dropped (scripts/coverage.py). At the end the counters are written again (the counters
  // live in the model: before it goes).
  void CoverageStart() {
#ifdef ANE_COVERAGE
    if (!coverage_started_) {
      coverage_started_ = true;
      WriteCoverage(".settle");
      context_->coveragep()->zero();
    }
#endif
  }
  void WriteCoverage(const std::string& kind = "") {
#ifdef ANE_COVERAGE
    const std::string dir = CoverageDir();
    if (dir.empty()) return;
    static std::atomic<unsigned> n{0};
    context_->coveragep()->write(
        (dir + "/" + model_->modelName() + "." + std::to_string(getpid()) + "." + std::to_string(n++) + kind + ".dat")
            .c_str());
#else
    (void)kind;
#endif
  }

  // Whether the model has a clk_i input (a clocked top).
  template <class M, class = void>
  struct HasClock : std::false_type {};
  template <class M>
  struct HasClock<M, std::void_t<decltype(std::declval<M&>().clk_i)>> : std::true_type {};

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedFstC> trace_;
  uint64_t wave_ticks_left_ = 0;  // traced cycles left before the waveform ends
  uint64_t wave_evals_left_ = 0;  // traced evaluations left before it ends
  bool low_seen_ = false;         // the last eval saw clk_i low, and clk_i is still low
#ifdef ANE_COVERAGE
  bool coverage_started_ = false;  // the counters were zeroed after the first evaluation
#endif
  uint64_t cycles_ = 0;
  uint64_t timeout_ = uint64_t(1) << 40;
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
  uint64_t interrupt_at_ = kNever;
  std::function<void()> before_edge_;
};

// One write to a model's configuration port (cfg_we_i, cfg_addr_i, cfg_wdata_i): one clock.
template <class Model>
void WriteConfig(Sim<Model>& sim, uint32_t addr, uint32_t data) {
  Model& d = sim.dut();
  d.cfg_we_i = 1;
  d.cfg_addr_i = addr;
  d.cfg_wdata_i = data;
  sim.Tick();
  d.cfg_we_i = 0;
}

// The current GoogleTest's name as a file stem: Suite.Name with '/' replaced.
std::string CurrentTestStem();

}  // namespace ane::harness

#endif  // TB_HARNESS_SIM_H_
