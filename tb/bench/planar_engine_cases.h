// SPDX-License-Identifier: Apache-2.0
// The planar engine's cycle figures on real shapes (docs/results.md), for any ane_planar model:
// each case runs engine tasks through harness::PlanarDriver with memory that answers after one
// cycle and is always ready, and checks every byte written against harness::PlanarReference.
//
//   0  ResNet residual add, [256, 14, 14] + [256, 14, 14]: dense tensors, one run of 50,176
//      elements (the task's [C, H, W] = [1, 49, 1024])
//   1  2x2 max pooling, stride 2, [64, 112, 112] -> [64, 56, 56] (POOL.FLAT)
//   2  global average pooling, 7x7 mean, [512, 7, 7] -> [512, 1, 1] (POOL.FLAT)
//   3  softmax over 1000 values, the planar engine's five tasks (max, x - max, sum, recip,
//      e * recip); the exp between them is the neural engine's table, here the oracle's, not
//      counted
//   4  the reduction tree: sums of the 4096 rows of [64, 64, 64], one 64-value patch per row
//
// Counters: cycles (the engine's own count, START to the last write, summed over the case's
// tasks), operations (the elements the tasks stream: each task's input tensor, the first source's
// of a two-source operation), utilization = operations / (lanes x cycles): elements per lane per
// cycle; patches (case 4: tree patches), tasks.
#ifndef TB_BENCH_PLANAR_ENGINE_CASES_H_
#define TB_BENCH_PLANAR_ENGINE_CASES_H_

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "tb/harness/planar_engine.h"
#include "tb/harness/sim.h"
#include "tb/oracle/activation.h"

namespace ane::bench {

inline const char* kPlanarEngineCaseNames[] = {
    "ResNet residual add [256, 14, 14]", "2x2 max pool, stride 2, [64, 112, 112]", "global average pool [512, 7, 7]",
    "softmax over 1000 (five planar tasks)", "tree: row sums of [64, 64, 64]"};

template <class Model>
void PlanarEngineCase(benchmark::State& state, int lanes, const char* model) {
  const int which = int(state.range(0));
  uint32_t r = 17 + uint32_t(which);
  auto value = [&r] {
    r = r * 1664525u + 1013904223u;
    return uint16_t(0x3000 + ((r >> 12) & 0x0FFF)) | uint16_t((r >> 31) << 15);
  };
  using harness::PlanarKind;
  using harness::PlanarOperand;
  using harness::PlanarTask;
  std::vector<uint8_t> mem;
  auto alloc = [&mem](uint64_t bytes) {
    const uint32_t at = uint32_t((mem.size() + 63) / 64 * 64);
    mem.resize(at + bytes + 128, 0);
    return at;
  };
  auto dense = [](uint32_t base, int h, int w) {
    PlanarOperand o;
    o.base = base;
    o.row = uint32_t(2 * w);
    o.plane = uint32_t(2 * w * h);
    return o;
  };
  auto fill = [&](uint32_t base, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      const uint16_t v = value();
      mem[base + 2 * i] = uint8_t(v);
      mem[base + 2 * i + 1] = uint8_t(v >> 8);
    }
  };
  std::vector<PlanarTask> tasks;
  uint64_t elements = 0;
  // the tasks and their inputs
  PlanarTask t;
  t.fca_bypass = t.fco_bypass = true;
  t.ew = harness::PeEwOp::kPass;
  if (which == 0) {
    t.ew = harness::PeEwOp::kAdd;
    t.c = 1, t.h = 49, t.w = 1024;
    const uint32_t a = alloc(2 * 50176), b = alloc(2 * 50176), y = alloc(2 * 50176);
    fill(a, 50176);
    fill(b, 50176);
    t.src[0] = dense(a, 49, 1024);
    t.src[1] = dense(b, 49, 1024);
    t.dst = dense(y, 49, 1024);
    tasks.push_back(t);
    elements = 50176;
  } else if (which == 1 || which == 2) {
    const bool gp = which == 2;
    t.kind = PlanarKind::kPool;
    t.c = gp ? 512 : 64;
    t.h = t.w = gp ? 7 : 112;
    t.tree = gp ? oracle::ReduceOp::kSum : oracle::ReduceOp::kMax;
    t.pool =
        gp ? harness::PlanarPool{7, 7, 1, 1, 0, 0, 1, 1, true} : harness::PlanarPool{2, 2, 2, 2, 0, 0, 56, 56, true};
    const uint64_t n = uint64_t(t.c) * uint64_t(t.h) * uint64_t(t.w);
    const uint32_t x = alloc(2 * n), y = alloc(2 * uint64_t(t.c) * uint64_t(t.pool.oh) * uint64_t(t.pool.ow));
    fill(x, n);
    t.src[0] = dense(x, t.h, t.w);
    t.dst = dense(y, t.pool.oh, t.pool.ow);
    tasks.push_back(t);
    elements = n;
  } else if (which == 3) {
    // x [1, 1, 1000] -> m [1] -> d -> (exp) e -> s [1] -> rs [1] -> y
    const uint32_t x = alloc(2000), m = alloc(2), d = alloc(2000), s = alloc(2), rs = alloc(2), y = alloc(2000);
    fill(x, 1000);
    PlanarTask mx = t;
    mx.kind = PlanarKind::kReduce;
    mx.tree = oracle::ReduceOp::kMax;
    mx.w = 1000;
    mx.src[0] = dense(x, 1, 1000);
    mx.dst = dense(m, 1, 1);
    PlanarTask sub = t;
    sub.ew = harness::PeEwOp::kSub;
    sub.w = 1000;
    sub.src[0] = dense(x, 1, 1000);
    sub.src[1] = dense(m, 1, 1);
    sub.src[1].bw = true;
    sub.dst = dense(d, 1, 1000);
    PlanarTask sum = mx;
    sum.tree = oracle::ReduceOp::kSum;
    sum.src[0] = dense(d, 1, 1000);  // e, written over d by the exp step
    sum.dst = dense(s, 1, 1);
    PlanarTask rec = t;
    rec.post = harness::PePostOp::kRecip;
    rec.src[0] = dense(s, 1, 1);
    rec.dst = dense(rs, 1, 1);
    PlanarTask mul = sub;
    mul.ew = harness::PeEwOp::kMul;
    mul.src[0] = dense(d, 1, 1000);
    mul.src[1] = dense(rs, 1, 1);
    mul.src[1].bw = true;
    mul.dst = dense(y, 1, 1000);
    tasks = {mx, sub, sum, rec, mul};
    elements = 4 * 1000 + 1;
  } else {
    t.kind = PlanarKind::kReduce;
    t.tree = oracle::ReduceOp::kSum;
    t.c = 64, t.h = 64, t.w = 64;
    const uint32_t x = alloc(2 * 262144), y = alloc(2 * 4096);
    fill(x, 262144);
    t.src[0] = dense(x, 64, 64);
    t.dst = dense(y, 64, 1);
    tasks.push_back(t);
    elements = 262144;
  }
  const std::vector<uint8_t> input = mem;
  uint64_t cycles = 0;
  for (auto _ : state) {
    harness::Sim<Model> sim("ane_planar", std::string("bench_") + model);
    harness::PlanarDriver<Model> drv(sim);
    drv.Reset();
    drv.mem() = input;
    std::vector<uint8_t> want = input;
    cycles = 0;
    for (size_t k = 0; k < tasks.size(); ++k) {
      if (which == 3 && k == 2) {
        // the exp table between the passes (the neural engine's post-processor)
        const oracle::ActTable& table = oracle::DefaultActTable(oracle::ActFn::kExp);
        for (std::vector<uint8_t>* m : {&drv.mem(), &want}) {
          const uint32_t d = tasks[1].dst.base;
          for (uint32_t i = 0; i < 1000; ++i) {
            const uint16_t e = oracle::EvalActTable(table, uint16_t((*m)[d + 2 * i] | (*m)[d + 2 * i + 1] << 8));
            (*m)[d + 2 * i] = uint8_t(e);
            (*m)[d + 2 * i + 1] = uint8_t(e >> 8);
          }
        }
      }
      const harness::PlanarRunResult res = drv.Run(tasks[k], {});
      cycles += res.cycles;
      harness::PlanarReference(tasks[k], &want);
    }
    if (drv.mem() != want) state.SkipWithError("the engine's memory differs from the contract's");
  }
  state.counters["cycles"] = double(cycles);
  state.counters["operations"] = double(elements);
  state.counters["utilization"] = double(elements) / (double(lanes) * double(cycles));
  state.counters["tasks"] = double(tasks.size());
  if (which == 4) state.counters["patches"] = 4096;
  state.SetLabel(std::string("planar engine ") + model + ": " + kPlanarEngineCaseNames[which]);
}

}  // namespace ane::bench

#endif  // TB_BENCH_PLANAR_ENGINE_CASES_H_
