// SPDX-License-Identifier: Apache-2.0
// Oracle speed: MACs per second through the full N-2 path, and elementwise ops per second.
// Run: build/oracle_bench (make results writes the figures into docs/results.md).
#include <benchmark/benchmark.h>

#include <vector>

#include "tb/oracle/elementwise.h"
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
