// SPDX-License-Identifier: Apache-2.0
// Oracle speed: MACs per second through the full N-2 path, and elementwise ops per second.
// Run: build/oracle_bench (make results writes the figures into docs/results.md).
#include <benchmark/benchmark.h>

#include <vector>

#include "tb/oracle/conv.h"
#include "tb/oracle/elementwise.h"
#include "tb/oracle/fast_mac.h"
#include "tb/oracle/mac.h"
#include "tb/tests/test_seed.h"

namespace ane::oracle {
namespace {

std::vector<uint16_t> RandomFinite(size_t n, uint64_t seed) {
  test::Rng rng(seed);
  std::vector<uint16_t> v(n);
  for (auto& x : v) x = uint16_t(rng.Code() & 0xBBFF);  // finite, magnitudes below 1
  return v;
}

void BM_OracleDotFp16(benchmark::State& state) {
  const size_t k = size_t(state.range(0));
  const Generation gen = state.range(1) ? Generation::kM5 : Generation::kM1;
  const auto a = RandomFinite(k, 1), w = RandomFinite(k, 2);
  for (auto _ : state) {
    benchmark::DoNotOptimize(Reduce(MacMode::kFp16, gen, a.data(), w.data(), k).fp16);
  }
  state.counters["MACs/s"] = benchmark::Counter(double(k) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OracleDotFp16)->Args({256, 0})->Args({256, 1})->Args({4096, 0});

// The fast exact path (fast_mac.h) on the same dot products: the oracle engine of whole networks.
void BM_FastDotFp16(benchmark::State& state) {
  const size_t k = size_t(state.range(0));
  const Generation gen = state.range(1) ? Generation::kM5 : Generation::kM1;
  const auto a = RandomFinite(k, 1), w = RandomFinite(k, 2);
  for (auto _ : state) {
    benchmark::DoNotOptimize(FastOutputPort(FastReduceFp16(gen, a.data(), w.data(), k), gen));
  }
  state.counters["MACs/s"] = benchmark::Counter(double(k) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FastDotFp16)->Args({256, 0})->Args({256, 1})->Args({4096, 0});

// A 3x3 convolution of 32 channels to 32 on 16 x 16 (2.36 M MACs), reference and fast.
ConvLayer BenchLayer() {
  ConvLayer l;
  l.geom.channels = 32;
  l.geom.height = l.geom.width = 16;
  l.geom.kernel_h = l.geom.kernel_w = 3;
  l.geom.pad_top = l.geom.pad_bottom = l.geom.pad_left = l.geom.pad_right = 1;
  l.cout = 32;
  return l;
}
void ConvBench(benchmark::State& state, bool fast) {
  const ConvLayer l = BenchLayer();
  Tensor3 x{32, 16, 16, RandomFinite(32 * 16 * 16, 7)};
  std::vector<std::vector<uint16_t>> w;
  for (int co = 0; co < 32; ++co) w.push_back(RandomFinite(32 * 9, 100 + uint64_t(co)));
  for (auto _ : state) benchmark::DoNotOptimize(fast ? FastConv2d(l, x, w).codes[0] : Conv2d(l, x, w).codes[0]);
  state.counters["MACs/s"] =
      benchmark::Counter(double(32 * 9 * 32 * 16 * 16) * double(state.iterations()), benchmark::Counter::kIsRate);
}
void BM_OracleConv3x3(benchmark::State& state) { ConvBench(state, false); }
void BM_FastConv3x3(benchmark::State& state) { ConvBench(state, true); }
BENCHMARK(BM_OracleConv3x3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FastConv3x3)->Unit(benchmark::kMillisecond);

void BM_OracleDotInt8(benchmark::State& state) {
  const size_t k = size_t(state.range(0));
  const auto a = RandomFinite(k, 3), w = RandomFinite(k, 4);
  for (auto _ : state) {
    benchmark::DoNotOptimize(Reduce(MacMode::kInt8, Generation::kM1, a.data(), w.data(), k).int32);
  }
  state.counters["MACs/s"] = benchmark::Counter(double(k) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OracleDotInt8)->Arg(256);

void BM_OracleElementwise(benchmark::State& state) {
  const EwOp op = kAllEwOps[state.range(0)];
  const auto a = RandomFinite(4096, 5), b = RandomFinite(4096, 6);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(Elementwise(op, a[i & 4095], b[i & 4095]));
    ++i;
  }
  state.SetLabel(EwOpName(op));
  state.counters["ops/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OracleElementwise)->DenseRange(0, 11);

}  // namespace
}  // namespace ane::oracle

BENCHMARK_MAIN();
