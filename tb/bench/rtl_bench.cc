// SPDX-License-Identifier: Apache-2.0
// RTL benchmarks (Google Benchmark) for docs/results.md: the 256-lane MAC array's simulation
// speed against the oracle's in the same run, and its cycle figures (initiation interval,
// latency, cycles of a K-long reduction, utilization), counted by the simulation itself.
//
//   BM_ArrayMatmul/K/G    a [256, K] x b [K, 8] fp16 matmul on the 256-lane array (G: 0 m1,
//                         1 m5): counters MACs/s (simulated), cycles, II, utilization
//   BM_OracleMatmul/K/G   the same matmul on the oracle: MACs/s
//   BM_LaneReduction/K    one K-long fp16 reduction through one lane: cycles from the first
//                         operation accepted to the result on the output port, and latency
//   BM_Postproc/T         4096 vectors through the 8-lane post-processor RTL (scale, bias, and
//                         T: 0 ReLU, 1 the gelu table): values/s (simulated), cycles, latency
//   BM_OraclePostproc/T   the same values on the oracle's post-processor
//   BM_Shifter/L          a 3x3 layer through the L-lane input buffer and shifter, 8 requests per
//                         step (the kernels of a slot group): lane values/s, vectors, cycles
//   BM_KernelExtract/Z/R/Q  a 64-channel 3x3 group (K = 576) of R fp16 kernels with Z % zeros
//                         (Q = 1: zeros in whole quads) through the kernel extract: operations,
//                         cycles, and the cycles of the same group stored dense
//   BM_PlanarReduce/P     4096 patches of 64 fp16 values through the planar reduction tree, in
//                         reductions of P patches (sum): patches, cycles, utilization (an
//                         accumulating patch waits 2 cycles for the running register's node)
//   BM_PlanarElementwise  4096 vectors of 16 fp16 products through the elementwise unit
//   BM_PlanarPool/K/S/P   KxK pooling (max), stride S, padding P, of 8 channels of 64 x 64 through
//                         ane_pe_pool (4 channels per beat, strips of 16 output columns): input
//                         beats, cycles, beats per cycle
//   BM_PlanarAcross/A     a sum over columns (A = 0: 8 x 256 x 64) or across channels (A = 1:
//                         256 x 16 x 16) through the line buffer and the tree (ane_pe_vreduce,
//                         4 lanes, lines of 16): input beats, cycles, beats per cycle
//   BM_PlanarEngine16/i   the planar engine (ane_planar, 16 lanes) on real shapes
//                         (tb/bench/planar_engine_cases.h): cycles, elements, utilization
//   BM_CoreConv/i/g       layer i of kBenchLayers on the 256-lane neural-engine core (g = 0: m1,
//                         1: m5), checked against oracle::Conv2d: MACs/s (simulated), cycles,
//                         MAC cycles, the lost cycles by cause, utilization
//   BM_OracleConv/i       the same layer on the oracle: MACs/s
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "Vane_kernel_extract.h"
#include "Vane_mac_lane_m1.h"
#include "Vane_planar16.h"
#include "Vane_shifter16.h"
#include "Vane_shifter256.h"
#include "tb/bench/planar_engine_cases.h"
#include "tb/harness/core_run.h"
#include "tb/harness/kernel_extract_driver.h"
#include "tb/harness/mac_array_matmul.h"
#include "tb/harness/mac_stream_start.h"
#include "tb/harness/planar_run.h"
#include "tb/harness/postproc_run.h"
#include "tb/harness/shifter_driver.h"
#include "tb/harness/sim.h"
#include "tb/oracle/conv.h"
#include "tb/oracle/conv_walk.h"
#include "tb/oracle/elementwise.h"
#include "tb/oracle/kernel_codec.h"
#include "tb/oracle/mac.h"
#include "tb/oracle/planar.h"
#include "tb/oracle/postproc.h"
#include "tb/plan/work_unit.h"

namespace ane {
namespace {

using oracle::Generation;

// Deterministic fp16 operands in [0.5, 2) with both signs (no overflow at any K here).
oracle::Matrix Operands(int64_t rows, int64_t cols, uint32_t seed) {
  oracle::Matrix m;
  m.rows = rows;
  m.cols = cols;
  uint32_t x = seed;
  for (int64_t i = 0; i < rows * cols; ++i) {
    x = x * 1664525u + 1013904223u;
    m.codes.push_back(uint16_t(0x3800 + ((x >> 8) & 0x7FF)) | uint16_t((x >> 31) << 15));
  }
  return m;
}

Generation Gen(int64_t g) { return g == 0 ? Generation::kM1 : Generation::kM5; }

void BM_ArrayMatmul(benchmark::State& state) {
  const int64_t k = state.range(0);
  const oracle::Matrix a = Operands(harness::kArrayLanes, k, 1);
  const oracle::Matrix b = Operands(k, harness::kArraySlots, 2);
  harness::RtlMatmulResult r;
  for (auto _ : state) {
    r = harness::RtlMatmul(a, b, Gen(state.range(1)), {});
    benchmark::DoNotOptimize(r.y.fp16.data());
  }
  const oracle::MatmulResult want = oracle::Matmul(a, b, Gen(state.range(1)));
  if (r.y.fp16 != want.fp16) state.SkipWithError("RTL and oracle differ");
  state.counters["MACs/s"] = benchmark::Counter(double(r.stats.macs), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["cycles"] = double(r.stats.cycles);
  state.counters["operations"] = double(r.stats.operations);
  state.counters["utilization"] = r.stats.utilization;
  state.SetLabel("256-lane array, fp16, M = 256, N = 8");
}
BENCHMARK(BM_ArrayMatmul)->Args({64, 0})->Args({512, 0})->Args({512, 1})->Unit(benchmark::kMillisecond);

void BM_OracleMatmul(benchmark::State& state) {
  const int64_t k = state.range(0);
  const oracle::Matrix a = Operands(harness::kArrayLanes, k, 1);
  const oracle::Matrix b = Operands(k, harness::kArraySlots, 2);
  for (auto _ : state) {
    const oracle::MatmulResult y = oracle::Matmul(a, b, Gen(state.range(1)));
    benchmark::DoNotOptimize(y.fp16.data());
  }
  state.counters["MACs/s"] =
      benchmark::Counter(double(a.rows * k * b.cols), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel("oracle, the same matmul");
}
BENCHMARK(BM_OracleMatmul)->Args({64, 0})->Args({512, 0})->Args({512, 1})->Unit(benchmark::kMillisecond);

void BM_LaneReduction(benchmark::State& state) {
  const int64_t k = state.range(0);
  int64_t cycles = 0;
  int64_t latency = -1;
  int64_t last_ii_cycles = 0;
  for (auto _ : state) {
    harness::Sim<Vane_mac_lane_m1> sim("ane_mac_lane", "bench");
    auto& dut = sim.dut();
    harness::StartMacStream(sim);
    int64_t cycle = 0;
    int64_t last_accept = -1;
    int64_t accepted = 0;
    for (bool done = false; !done; ++cycle) {
      const bool valid = accepted < k;
      dut.in_valid_i = valid;
      dut.in_cmd_i = 0;
      dut.in_mode_i = 0;
      dut.in_slot_i = 2;
      dut.in_first_i = accepted == 0;
      dut.in_last_i = accepted == k - 1;
      dut.in_data_i = 0x3C00;
      dut.in_kernel_i = 0x3C00;
      sim.Eval();
      // in_valid_i stays high until all K are accepted; count the cycles that takes.
      if (accepted < k && dut.in_ready_o && ++accepted == k) last_accept = cycle;
      if (dut.out_valid_o) {
        cycles = cycle;
        latency = cycle - last_accept;
        last_ii_cycles = last_accept + 1;
        done = true;
      }
      sim.Tick();
      if (cycle > 4 * k + 64) state.SkipWithError("no result");
    }
  }
  state.counters["cycles"] = double(cycles);
  state.counters["latency"] = double(latency);
  // Initiation interval: cycles per accepted operation while the reduction streams in.
  state.counters["II"] = double(last_ii_cycles) / double(k);
  state.SetLabel("one lane, one slot, fp16");
}
BENCHMARK(BM_LaneReduction)->Arg(1)->Arg(4)->Arg(64)->Arg(4096)->Unit(benchmark::kMicrosecond);

oracle::PostConfig PostBenchConfig(int64_t table) {
  oracle::PostConfig cfg;
  cfg.scale_en = cfg.bias_en = true;
  cfg.act = table ? oracle::PostAct::kTable : oracle::PostAct::kRelu;
  cfg.table = oracle::DefaultActTable(oracle::ActFn::kGelu);
  return cfg;
}

std::vector<harness::PostVector> PostBenchVectors() {
  std::vector<harness::PostVector> in(4096);
  uint32_t x = 7;
  for (auto& v : in) {
    for (int l = 0; l < harness::kPostprocLanes; ++l) {
      x = x * 1664525u + 1013904223u;
      v.acc.push_back(oracle::Fp16ToFp32(uint16_t(0x3000 + ((x >> 8) & 0x1FFF)) | uint16_t((x >> 31) << 15)));
    }
    v.ch.scale = 0x3C00 + uint16_t(x & 0xFF);
    v.ch.bias = oracle::Fp16ToFp32(0x2E00);
  }
  return in;
}

void BM_Postproc(benchmark::State& state) {
  const oracle::PostConfig cfg = PostBenchConfig(state.range(0));
  const std::vector<harness::PostVector> in = PostBenchVectors();
  harness::RtlPostStats stats;
  std::vector<std::vector<uint16_t>> got;
  for (auto _ : state) {
    got = harness::RtlPostprocess(cfg, in, &stats);
    benchmark::DoNotOptimize(got.data());
  }
  oracle::PostProcessor pp(cfg);
  for (size_t v = 0; v < in.size(); ++v) {
    if (got[v] != pp.Process(in[v].acc, in[v].ch)) state.SkipWithError("RTL and oracle differ");
  }
  state.counters["ops/s"] =
      benchmark::Counter(double(in.size()) * harness::kPostprocLanes, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["operations"] = double(in.size());
  state.counters["cycles"] = double(stats.cycles);
  state.counters["utilization"] = double(in.size()) / double(stats.cycles);
  state.SetLabel(state.range(0) ? "8-lane post-processor: scale, bias, gelu table (values)"
                                : "8-lane post-processor: scale, bias, ReLU (values)");
}
BENCHMARK(BM_Postproc)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_OraclePostproc(benchmark::State& state) {
  const oracle::PostConfig cfg = PostBenchConfig(state.range(0));
  const std::vector<harness::PostVector> in = PostBenchVectors();
  for (auto _ : state) {
    oracle::PostProcessor pp(cfg);
    for (const auto& v : in) benchmark::DoNotOptimize(pp.Process(v.acc, v.ch).data());
  }
  state.counters["ops/s"] =
      benchmark::Counter(double(in.size()) * harness::kPostprocLanes, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel("oracle, the same values");
}
BENCHMARK(BM_OraclePostproc)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// ---- input buffer and shifter ----

template <class Model>
void ShifterBench(benchmark::State& state, int lanes) {
  harness::ShifterLayer l;
  oracle::ConvGeometry& g = l.geom;
  g.channels = 4;
  g.height = g.width = lanes == 256 ? 32 : 16;
  g.kernel_h = g.kernel_w = 3;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
  l.tile_h = l.tile_w = lanes == 256 ? 16 : 4;
  l.elem16 = lanes != 256;  // the 256-lane tile holds int8 (a 16x16 fp16 tile needs 648 bytes)
  if (!harness::PlanShifterLayer(&l, lanes, 512).empty()) {
    state.SkipWithError("layer does not fit");
    return;
  }
  oracle::Tensor3 x{g.channels, g.height, g.width, {}};
  uint32_t r = 3;
  for (int i = 0; i < g.channels * g.height * g.width; ++i) {
    r = r * 1664525u + 1013904223u;
    x.codes.push_back(l.elem16 ? uint16_t(r >> 16) : uint16_t(int16_t(int8_t(uint8_t(r >> 16)))));
  }
  const auto wus = harness::PlanWorkUnits(l, x, 16);
  const auto reqs = harness::DenseRequests(l, wus, 8);
  harness::ShifterStats st;
  std::vector<harness::ShifterOutput> out;
  for (auto _ : state) {
    harness::Sim<Model> sim("ane_shifter", "bench_shifter");
    harness::ShifterDriver<Model> drv(sim, lanes, 16);
    drv.Reset();
    drv.Configure(l);
    auto never = [] { return false; };
    out = drv.Run(wus, reqs, never, never, never, &st);
    benchmark::DoNotOptimize(out.data());
  }
  // Spot check against the oracle: the last request's vector.
  const auto& last = reqs.back();
  const auto want =
      oracle::ShifterVector(x, g, wus.back().tile, lanes, oracle::ConvStep{wus.back().c0 + last.c, last.ky, last.kx});
  if (out.back().data != want) state.SkipWithError("RTL and oracle differ");
  state.counters["ops/s"] =
      benchmark::Counter(double(reqs.size()) * lanes, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["operations"] = double(reqs.size());
  state.counters["cycles"] = double(st.cycles);
  state.counters["utilization"] = double(reqs.size()) / double(st.cycles);
  state.SetLabel(std::to_string(lanes) + "-lane shifter, 3x3 same padding, " + std::to_string(wus.size()) +
                 " work units, 8 requests per step (lane values)");
}
void BM_Shifter(benchmark::State& state) {
  if (state.range(0) == 256) {
    ShifterBench<Vane_shifter256>(state, 256);
  } else {
    ShifterBench<Vane_shifter16>(state, 16);
  }
}
BENCHMARK(BM_Shifter)->Arg(16)->Arg(256)->Unit(benchmark::kMillisecond);

// ---- kernel extract: the cycles sparse skipping saves ----

oracle::KernelGroup ExtractBenchGroup(int zero_pct, int r, bool quads, bool sparse) {
  oracle::KernelGroup g;
  g.spec.sparse = sparse;
  g.steps = 576;
  uint32_t x = 11u + uint32_t(zero_pct) * 7u + uint32_t(r);
  g.weights.assign(size_t(r), std::vector<uint16_t>(576, 0));
  for (int n = 0; n < r; ++n) {
    for (int s = 0; s < 576; ++s) {
      if (!quads || s % 4 == 0) x = x * 1664525u + 1013904223u;
      if (int((x >> 8) % 100) < zero_pct) continue;
      g.weights[size_t(n)][size_t(s)] = uint16_t(0x3800 + ((x >> 12) & 0x3FF));
    }
  }
  return g;
}

uint64_t ExtractCycles(const std::vector<uint32_t>& words, const oracle::DecodedGroup& d, harness::ExtractStats* st) {
  harness::Sim<Vane_kernel_extract> sim("ane_kernel_extract", "bench_extract");
  harness::KernelExtractDriver<Vane_kernel_extract> drv(sim);
  drv.Reset();
  drv.Configure(64, 3, 3);
  std::vector<harness::ExtractOp> ops;
  std::vector<harness::ExtractParam> params;
  auto never = [] { return false; };
  drv.Run(words, d.ops.size(), d.params.size(), never, never, never, &ops, &params, st);
  return ops.size() == d.ops.size() ? st->cycles : 0;
}

void BM_KernelExtract(benchmark::State& state) {
  const int zero_pct = int(state.range(0)), r = int(state.range(1));
  const bool quads = state.range(2) != 0;
  oracle::KernelGroup dense_g = ExtractBenchGroup(zero_pct, r, quads, false);
  oracle::KernelGroup sparse_g = ExtractBenchGroup(zero_pct, r, quads, true);
  const auto dense_w = oracle::EncodeKernelGroup(&dense_g);
  const auto sparse_w = oracle::EncodeKernelGroup(&sparse_g);
  const auto dense_d = oracle::DecodeKernelGroup(dense_w.data(), dense_w.size(), 576);
  const auto sparse_d = oracle::DecodeKernelGroup(sparse_w.data(), sparse_w.size(), 576);
  harness::ExtractStats ds, ss;
  uint64_t dense_cycles = 0, sparse_cycles = 0;
  for (auto _ : state) {
    dense_cycles = ExtractCycles(dense_w, dense_d, &ds);
    sparse_cycles = ExtractCycles(sparse_w, sparse_d, &ss);
  }
  if (!dense_cycles || !sparse_cycles) state.SkipWithError("operation count differs from the oracle");
  state.counters["ops/s"] = benchmark::Counter(double(sparse_d.ops.size() + dense_d.ops.size()),
                                               benchmark::Counter::kIsIterationInvariantRate);
  state.counters["operations"] = double(sparse_d.ops.size());
  state.counters["cycles"] = double(sparse_cycles);
  state.counters["dense_cycles"] = double(dense_cycles);
  state.counters["skipped_blocks"] = double(sparse_d.skipped_blocks);
  state.counters["idle_quads"] = double(sparse_d.idle_quads);
  state.SetLabel(std::to_string(r) + " kernel(s), K = 576, " + std::to_string(zero_pct) + "% zeros" +
                 (quads ? " in whole quads" : " scattered") + ", sparse stream (operations)");
}
BENCHMARK(BM_KernelExtract)
    ->Args({0, 1, 0})
    ->Args({50, 1, 0})
    ->Args({90, 1, 0})
    ->Args({50, 1, 1})
    ->Args({90, 1, 1})
    ->Args({0, 8, 0})
    ->Args({50, 8, 0})
    ->Args({90, 8, 0})
    ->Args({50, 8, 1})
    ->Args({90, 8, 1})
    ->Unit(benchmark::kMillisecond);

// ---- the planar engine: one patch, one vector per cycle ----

void BM_PlanarReduce(benchmark::State& state) {
  const int per = int(state.range(0));
  std::vector<harness::TreePatch> patches(4096);
  uint32_t r = 5;
  for (size_t i = 0; i < patches.size(); ++i) {
    harness::TreePatch& p = patches[i];
    p.op = 0;
    p.first = i % size_t(per) == 0;
    p.last = i % size_t(per) == size_t(per) - 1;
    p.mask = ~uint64_t(0);
    for (auto& v : p.v) {
      r = r * 1664525u + 1013904223u;
      v = uint16_t(0x2000 + ((r >> 12) & 0x3FFF)) | uint16_t((r >> 31) << 15);
    }
  }
  harness::RtlPlanarStats st;
  std::vector<harness::TreeResult> got;
  for (auto _ : state) {
    got = harness::RtlReduceTree(patches, &st);
    benchmark::DoNotOptimize(got.data());
  }
  for (size_t k = 0; k < got.size(); ++k) {
    uint32_t acc = oracle::ReduceIdentity(oracle::ReduceOp::kSum);
    for (int j = 0; j < per; ++j) {
      const auto& p = patches[k * size_t(per) + size_t(j)];
      acc = oracle::ReduceAccumulate(oracle::ReduceOp::kSum, acc,
                                     oracle::ReduceTree(oracle::ReduceOp::kSum, p.v, p.mask));
    }
    if (got[k].fp32 != acc) state.SkipWithError("RTL and oracle differ");
  }
  state.counters["ops/s"] =
      benchmark::Counter(double(patches.size()) * 64, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["operations"] = double(patches.size());
  state.counters["cycles"] = double(st.cycles);
  state.counters["utilization"] = double(patches.size()) / double(st.cycles);
  state.SetLabel("planar reduction tree, 64 inputs, sums of " + std::to_string(per) + " patch(es) (values)");
}
BENCHMARK(BM_PlanarReduce)->Arg(1)->Arg(16)->Unit(benchmark::kMillisecond);

void BM_PlanarElementwise(benchmark::State& state) {
  std::vector<uint16_t> a(4096 * harness::kPlanarLanes), b(a.size());
  uint32_t r = 9;
  for (size_t i = 0; i < a.size(); ++i) {
    r = r * 1664525u + 1013904223u;
    a[i] = uint16_t(r >> 16);
    b[i] = uint16_t(r);
  }
  harness::RtlPlanarStats st;
  std::vector<uint16_t> y;
  for (auto _ : state) {
    y = harness::RtlElementwise(harness::PeEwOp::kMul, a, b, {}, &st);
    benchmark::DoNotOptimize(y.data());
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (y[i] != oracle::Fp16Mul(a[i], b[i])) state.SkipWithError("RTL and oracle differ");
  }
  state.counters["ops/s"] = benchmark::Counter(double(a.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["operations"] = double(st.vectors);
  state.counters["cycles"] = double(st.cycles);
  state.counters["utilization"] = double(st.vectors) / double(st.cycles);
  state.SetLabel("planar elementwise unit, 16 lanes, mul (values)");
}
BENCHMARK(BM_PlanarElementwise)->Unit(benchmark::kMillisecond);

void BM_PlanarPool(benchmark::State& state) {
  oracle::ConvGeometry g;
  g.channels = 8;
  g.height = g.width = 64;
  g.kernel_h = g.kernel_w = int(state.range(0));
  g.stride_y = g.stride_x = int(state.range(1));
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = int(state.range(2));
  oracle::Tensor3 x{g.channels, g.height, g.width, {}};
  uint32_t r = 11;
  for (int i = 0; i < g.channels * g.height * g.width; ++i) {
    r = r * 1664525u + 1013904223u;
    x.codes.push_back(uint16_t(r >> 16));
  }
  harness::PoolStats st;
  std::vector<uint16_t> y;
  for (auto _ : state) {
    y = harness::RtlPool(harness::ToPoolGeometry(oracle::PoolOp::kMax, g), x.codes, {}, &st);
    benchmark::DoNotOptimize(y.data());
  }
  if (y != oracle::Pool(oracle::PoolOp::kMax, g, x).codes) state.SkipWithError("RTL and oracle differ");
  // The input a single pass would read: every position of every channel group once.
  const double plane_beats = double((g.channels + harness::kPoolLanes - 1) / harness::kPoolLanes) * g.height * g.width;
  state.counters["ops/s"] = benchmark::Counter(double(x.codes.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["operations"] = double(st.beats);
  state.counters["cycles"] = double(st.cycles);
  state.counters["utilization"] = double(st.beats) / double(st.cycles);
  state.SetLabel("planar pooling " + std::to_string(g.kernel_h) + "x" + std::to_string(g.kernel_w) + " stride " +
                 std::to_string(g.stride_y) + " padding " + std::to_string(g.pad_top) + ", 8 x 64 x 64, " +
                 std::to_string(st.passes) + " passes; " + std::to_string(int64_t(plane_beats)) +
                 " beats without strips (input beats)");
}
BENCHMARK(BM_PlanarPool)->Args({2, 2, 0})->Args({3, 1, 1})->Args({3, 2, 1})->Unit(benchmark::kMillisecond);

void BM_PlanarAcross(benchmark::State& state) {
  const bool channels = state.range(0) == 1;
  const oracle::ReduceAxis axis = channels ? oracle::ReduceAxis::kChannels : oracle::ReduceAxis::kColumns;
  oracle::Tensor3 x = channels ? oracle::Tensor3{256, 16, 16, {}} : oracle::Tensor3{8, 256, 64, {}};
  uint32_t r = 13;
  for (int i = 0; i < x.c * x.h * x.w; ++i) {
    r = r * 1664525u + 1013904223u;
    x.codes.push_back(uint16_t(r >> 16));
  }
  harness::LineStats st;
  std::vector<uint16_t> y;
  for (auto _ : state) {
    y = harness::RtlReduceAcross(oracle::ReduceOp::kSum, axis, x, {}, &st);
    benchmark::DoNotOptimize(y.data());
  }
  if (y != oracle::ReduceTensor(oracle::ReduceOp::kSum, axis, x).codes) state.SkipWithError("RTL and oracle differ");
  state.counters["ops/s"] = benchmark::Counter(double(x.codes.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["operations"] = double(st.beats);
  state.counters["cycles"] = double(st.cycles);
  state.counters["utilization"] = double(st.beats) / double(st.cycles);
  state.SetLabel(std::string("planar sum ") +
                 (channels ? "across channels of 256 x 16 x 16" : "over columns of 8 x 256 x 64") + ", " +
                 std::to_string(st.jobs) + " jobs, " + std::to_string(st.patches) + " tree patches (input beats)");
}
BENCHMARK(BM_PlanarAcross)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_PlanarEngine16(benchmark::State& state) { bench::PlanarEngineCase<Vane_planar16>(state, 16, "16 lanes"); }
BENCHMARK(BM_PlanarEngine16)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

// Layers on the 256-lane neural-engine core (harness::RtlConv2d, Vane_core256_m1) and on the
// oracle (oracle::Conv2d): the core's cycle counters and utilization, and both speeds.
struct BenchLayer {
  const char* name;
  int cin, h, w, cout, k, stride, pad, groups;
  bool int8;
  // int4 packed (N-2.8, harness::RtlConv2dInt4): an int8 layer of values -8..7 on four images at
  // once (one per nibble of a 16-bit element); MACs count the four images'
  bool int4 = false;
};
constexpr BenchLayer kBenchLayers[] = {
    {"aligned: x [16, 32, 32], 3x3 pad 1, 32 out", 16, 32, 32, 32, 3, 1, 1, 1, false},
    {"ResNet stage 4 slice: x [64, 14, 14], 3x3 pad 1, 64 out", 64, 14, 14, 64, 3, 1, 1, 1, false},
    {"1x1 projection: x [64, 28, 28], 128 out", 64, 28, 28, 128, 1, 1, 0, 1, false},
    {"depthwise 3x3 pad 1: x [64, 28, 28], groups 64", 64, 28, 28, 64, 3, 1, 1, 64, false},
    {"stem 7x7 stride 2 pad 3: x [3, 64, 64], 16 out", 3, 64, 64, 16, 7, 2, 3, 1, false},
    {"int8 3x3 pad 1: x [32, 16, 16], 32 out, requantized", 32, 16, 16, 32, 3, 1, 1, 1, true},
    {"ResNet stage 1: x [64, 56, 56], 3x3 pad 1, 64 out", 64, 56, 56, 64, 3, 1, 1, 1, false},
    // A MobileNet-v2 inverted-residual block at 28 x 28 (expansion 6): expand, depthwise, project.
    {"MobileNet-v2 block, expand 1x1: x [32, 28, 28], 192 out", 32, 28, 28, 192, 1, 1, 0, 1, false},
    {"MobileNet-v2 block, depthwise 3x3 pad 1: x [192, 28, 28], groups 192", 192, 28, 28, 192, 3, 1, 1, 192, false},
    {"MobileNet-v2 block, project 1x1: x [192, 28, 28], 32 out", 192, 28, 28, 32, 1, 1, 0, 1, false},
    // A 1x1 layer whose positions fill the tiles (56 x 56 = 24.5 two-kernel tiles of 128).
    {"ResNet-50 stage 1 1x1: x [64, 56, 56], 64 out", 64, 56, 56, 64, 1, 1, 0, 1, false},
    // A transformer projection as a 1x1 layer: 128 tokens (the width) of 256 features (channels).
    {"transformer matmul: [128 tokens, 256] x [256, 256] as 1x1 on x [256, 1, 128]", 256, 1, 128, 256, 1, 1, 0, 1,
     false},
    // The int8 layer above in the int4 packed mode: four images a run.
    {"int4 packed, 4 images: x [32, 16, 16] each, 3x3 pad 1, 32 out, requantized", 32, 16, 16, 32, 3, 1, 1, 1, true,
     true},
};
constexpr int kNumBenchLayers = int(sizeof(kBenchLayers) / sizeof(kBenchLayers[0]));

struct BenchConv {
  oracle::ConvLayer l;
  std::vector<std::vector<uint16_t>> w;
  std::vector<oracle::Tensor3> images;  // x (int4: the four images)
};

BenchConv MakeBenchConv(const BenchLayer& b) {
  BenchConv c;
  oracle::ConvGeometry& g = c.l.geom;
  g.channels = b.cin / b.groups;
  g.height = b.h;
  g.width = b.w;
  g.kernel_h = g.kernel_w = b.k;
  g.stride_y = g.stride_x = b.stride;
  g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = b.pad;
  c.l.groups = b.groups;
  c.l.cout = b.cout;
  if (b.int8) {
    c.l.mode = oracle::MacMode::kInt8;
    c.l.post.int_acc = true;
    c.l.post.shift = 8;
    c.l.post.store = oracle::PostStore::kInt8;
  }
  uint32_t r = 77;
  auto next = [&r] {
    r = r * 1664525u + 1013904223u;
    return r >> 8;
  };
  const auto int4 = [&next] { return int8_t(int(next() & 0xF) - 8); };
  for (int n = 0; n < (b.int4 ? 4 : 1); ++n) {
    oracle::Tensor3 x{b.cin, b.h, b.w, {}};
    for (int i = 0; i < b.cin * b.h * b.w; ++i) {
      x.codes.push_back(b.int4   ? uint16_t(uint8_t(int4()))
                        : b.int8 ? uint16_t(next() & 0xFF)
                                 : uint16_t(0x3800 + (next() & 0x7FF)) | uint16_t((next() & 1) << 15));
    }
    c.images.push_back(std::move(x));
  }
  if (b.int4) c.l.post.shift = 4;
  c.w.assign(size_t(b.cout), {});
  for (auto& k : c.w) {
    for (int s = 0; s < g.Steps(); ++s) {
      k.push_back(b.int4   ? uint16_t(int16_t(int4()))
                  : b.int8 ? uint16_t(int16_t(int8_t(next() & 0xFF)))
                           : uint16_t(0x2C00 + (next() & 0x7FF)) | uint16_t((next() & 1) << 15));
    }
  }
  return c;
}

// range(1): 0 generation m1 (Vane_core256_m1), 1 generation m5 (Vane_core256_m5: the same
// schedule, m5 arithmetic), checked against the oracle at that generation.
void BM_CoreConv(benchmark::State& state) {
  const BenchLayer& b = kBenchLayers[state.range(0)];
  BenchConv c = MakeBenchConv(b);
  if (state.range(1) == 1) c.l.gen = c.l.post.gen = oracle::Generation::kM5;
  harness::RtlConvStats s;
  bool same = true;
  for (auto _ : state) {
    if (b.int4) {
      harness::RtlConvOptions o;
      o.int4 = true;
      const harness::RtlConvInt4Result r = harness::RtlConv2dInt4(c.l, c.images, c.w, o);
      s = r.stats;
      for (size_t n = 0; n < c.images.size(); ++n)
        same = same && r.y[n].codes == oracle::Conv2d(c.l, c.images[n], c.w).codes;
    } else {
      const harness::RtlConvResult r = harness::RtlConv2d(c.l, c.images[0], c.w);
      s = r.stats;
      same = r.y.codes == oracle::Conv2d(c.l, c.images[0], c.w).codes;
    }
  }
  if (!same) state.SkipWithError("RTL and oracle differ");
  state.counters["MACs/s"] = benchmark::Counter(double(s.macs), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["cycles"] = double(s.cycles);
  state.counters["operations"] = double(s.counters.mac);
  state.counters["utilization"] = s.utilization;
  state.counters["core_macs"] = double(s.macs);
  state.counters["stall_res"] = double(s.counters.stall_res);
  state.counters["wait_slot"] = double(s.counters.wait_slot);
  state.counters["wait_load"] = double(s.counters.wait_load);
  state.counters["wait_kern"] = double(s.counters.wait_kern);
  state.counters["mac_cycles"] = double(s.counters.mac);
  state.counters["tiles"] = double(s.tiles);
  state.counters["passes"] = double(s.passes);
  state.counters["tile_h"] = double(s.tile_h);
  state.counters["tile_w"] = double(s.tile_w);
  state.counters["two_kernel"] = s.two_kernel ? 1.0 : 0.0;
  state.counters["four_kernel"] = s.four_kernel ? 1.0 : 0.0;
  state.counters["depthwise_interleave"] = s.diag ? 1.0 : 0.0;
  state.counters["int4"] = b.int4 ? 1.0 : 0.0;
  state.SetLabel(b.name);
}
BENCHMARK(BM_CoreConv)
    ->ArgsProduct({benchmark::CreateDenseRange(0, kNumBenchLayers - 1, 1), {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_OracleConv(benchmark::State& state) {
  const BenchLayer& b = kBenchLayers[state.range(0)];
  const BenchConv c = MakeBenchConv(b);
  for (auto _ : state) {
    for (const oracle::Tensor3& x : c.images) {
      const oracle::Tensor3 y = oracle::Conv2d(c.l, x, c.w);
      benchmark::DoNotOptimize(y.codes.data());
    }
  }
  const double macs =
      double(c.images.size()) * c.l.cout * c.l.geom.OutHeight() * c.l.geom.OutWidth() * c.l.geom.Steps();
  state.counters["MACs/s"] = benchmark::Counter(macs, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::string("oracle, ") + b.name);
}
BENCHMARK(BM_OracleConv)->DenseRange(0, kNumBenchLayers - 1)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace ane

BENCHMARK_MAIN();
