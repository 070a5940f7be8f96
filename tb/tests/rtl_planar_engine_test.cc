// SPDX-License-Identifier: Apache-2.0
// The planar engine as one engine (rtl/ane_planar.sv, 8 lanes; docs/planar.md "The engine"):
// tasks from its configuration registers, its three sources and its result in a memory model
// that answers after a random latency and holds every ready low at random. Every byte of memory
// after a task equals the contract's result of the task (harness::PlanarReference: the oracle's
// converter, operator and post-processor functions composed as the engine's units are, N-4.1,
// N-4.3, N-1) written into a copy, and nothing else is written.
//
// Random tests print their seed on failure; rerun one with ANE_TEST_SEED=<seed>
// build/rtl_planar_engine_test --gtest_filter=...
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "Vane_planar8.h"
#include "tb/harness/planar_engine.h"
#include "tb/harness/sim.h"
#include "tb/tests/test_seed.h"

namespace ane {
namespace {

using harness::PeEwOp;
using harness::PePostOp;
using harness::PlanarDriver;
using harness::PlanarTask;
using harness::Sim;
using test::Rng;
using Model = Vane_planar8;
constexpr int kLanes = 8;

// An fp16 code: mostly moderate values, sometimes a special (inf, NaN, -0, a denormal).
uint16_t Value(Rng& rng) {
  const uint32_t k = rng.Below(40);
  if (k == 0) return uint16_t(0x7C00 | rng.Below(2) << 15);
  if (k == 1) return uint16_t(0x7E00 | rng.Below(0x200));
  if (k == 2) return 0x8000;
  if (k == 3) return uint16_t(rng.Below(0x400) | rng.Below(2) << 15);
  return uint16_t((rng.Code() & 0x83FF) | (uint32_t(8 + rng.Below(16)) << 10));
}

uint32_t Align(uint32_t a, uint32_t to) { return (a + to - 1) / to * to; }

struct Scene {
  PlanarTask t;
  std::vector<uint8_t> mem;
  std::string what;
};

// A random pooling window on [H][W] (its output at most kPlanarPoolW wide), or false.
bool RandomPool(Rng& rng, PlanarTask* t) {
  harness::PlanarPool& p = t->pool;
  p.kh = 1 + int(rng.Below(8));
  p.kw = 1 + int(rng.Below(8));
  p.sy = 1 + int(rng.Below(rng.Below(2) ? 3 : 8));
  p.sx = 1 + int(rng.Below(rng.Below(2) ? 3 : 8));
  p.pt = int(rng.Below(uint32_t(p.kh)));
  p.pl = int(rng.Below(uint32_t(p.kw)));
  const int pb = int(rng.Below(uint32_t(p.kh))), pr = int(rng.Below(uint32_t(p.kw)));
  if (t->h + p.pt + pb < p.kh || t->w + p.pl + pr < p.kw) return false;
  p.oh = (t->h + p.pt + pb - p.kh) / p.sy + 1;
  p.ow = (t->w + p.pl + pr - p.kw) / p.sx + 1;
  const oracle::ConvGeometry g = harness::PlanarPoolGeometry(*t);
  return p.ow <= harness::kPlanarPoolW && oracle::CheckPoolGeometry(g).empty() && g.OutHeight() == p.oh &&
         g.OutWidth() == p.ow;
}

// A random task of `kind` over [C][H][W] with its operands placed in a memory of junk: any
// operator and post operation, converters with random scale, bias and unary operation, int8
// sources and result, each source broadcast along W, H or C at random, rows and planes padded.
// Reductions take any operator and axis; poolings any window, stride and padding.
// `shape`, when given, sets the geometry (after the random one is drawn, before the operands
// are laid out).
Scene RandomTask(Rng& rng, int max_w = 40, harness::PlanarKind kind = harness::PlanarKind::kElementwise,
                 const std::function<void(PlanarTask*)>& shape = nullptr) {
  Scene s;
  PlanarTask& t = s.t;
  t.kind = kind;
  t.ew = PeEwOp(rng.Below(13));
  t.post = rng.Below(3) == 0 ? PePostOp(rng.Below(4)) : PePostOp::kPass;
  t.c = 1 + int(rng.Below(5));
  t.h = 1 + int(rng.Below(6));
  t.w = 1 + int(rng.Below(uint32_t(max_w)));
  // (a pooling's MODE.AXIS is channels last, no pooling: a quarter of them)
  t.axis = kind == harness::PlanarKind::kPool ? rng.Below(4) == 0 : rng.Below(2) != 0;
  t.tree = oracle::ReduceOp(rng.Below(3));
  if (kind == harness::PlanarKind::kReduce && t.axis) t.h = 1 + int(rng.Below(12));
  if (kind == harness::PlanarKind::kLineReduce) {
    if (t.axis)
      t.c = 1 + int(rng.Below(rng.Below(3) == 0 ? 140 : 12));
    else
      t.h = 1 + int(rng.Below(rng.Below(3) == 0 ? 140 : 12));
    t.w = 1 + int(rng.Below(rng.Below(3) == 0 ? 200 : uint32_t(max_w)));
  }
  if (kind == harness::PlanarKind::kPool) {
    t.c = 1 + int(rng.Below(rng.Below(3) == 0 ? 20 : 9));
    t.h = 1 + int(rng.Below(12));
    t.w = 1 + int(rng.Below(rng.Below(4) == 0 ? 100 : 24));
    while (!RandomPool(rng, &t)) {
      t.h = 1 + int(rng.Below(12));
      t.w = 1 + int(rng.Below(24));
    }
  }
  if (shape) shape(&t);
  const harness::PlanarShape out = harness::PlanarOutShape(t);
  if (rng.Below(2)) {
    t.fca.scale = Value(rng);
    t.fca.bias = Value(rng);
  }
  t.fca.unary = oracle::FcUnary(rng.Below(4));
  if (rng.Below(2)) {
    t.fco.scale = Value(rng);
    t.fco.bias = Value(rng);
  }
  t.fco.unary = oracle::FcUnary(rng.Below(4));
  t.fco.gain = rng.Below(6) == 0;
  t.dst.int8 = rng.Below(5) == 0;
  t.fca_bypass = rng.Below(5) == 0;
  t.fco_bypass = !t.fco.gain && !t.dst.int8 && rng.Below(4) == 0;
  uint32_t at = 64 * (1 + rng.Below(8));
  // a pooling of dense sources, read flat (POOL.FLAT: chunks of positions cross rows)
  t.pool.flat = kind == harness::PlanarKind::kPool && t.h * t.w <= 16383 && rng.Below(3) == 0;
  auto place = [&](harness::PlanarOperand* o, bool is_src) {
    const int c = is_src ? t.c : out.c, h = is_src ? t.h : out.h, w = is_src ? t.w : out.w;
    if (!is_src && harness::PlanarChannelsLast(t)) {
      // [H][W][C]: dst.plane the position stride (c elements, sometimes padded), rows padded
      const uint32_t eb = o->int8 ? 1 : 2;
      o->plane = uint32_t(c) * eb + eb * rng.Below(3);
      o->row = o->plane * uint32_t(w) + (rng.Below(2) ? 64 : 0);
      o->base = at + (rng.Below(4) == 0 ? rng.Below(64) : 0);
      at = Align(o->base + o->row * uint32_t(h) + 64, 64);
      return;
    }
    const bool dense = is_src && t.pool.flat;
    o->int8 = is_src ? rng.Below(5) == 0 : o->int8;
    const uint32_t eb = o->int8 ? 1 : 2;
    o->bw = is_src && !dense && rng.Below(6) == 0;
    const uint32_t rowb = (o->bw ? 1 : uint32_t(w)) * eb;
    o->row = dense ? rowb : Align(rowb, rng.Below(2) ? 1 : 64) + (rng.Below(3) == 0 ? 2 * rng.Below(8) : 0);
    o->plane = o->row * uint32_t(h) + 2 * rng.Below(4);
    if (is_src && !dense && rng.Below(6) == 0) o->row = 0;  // broadcast along H
    if (is_src && rng.Below(6) == 0) o->plane = 0;          // broadcast along C
    o->base = at + (rng.Below(4) == 0 ? rng.Below(64) : 0);
    at = Align(o->base + o->plane * uint32_t(c) + o->row * uint32_t(h) + rowb + 64, 64);
  };
  for (int k = 0; k < 3; ++k) place(&t.src[k], true);
  place(&t.dst, false);

  s.mem.resize(at + 256 + 16 * kLanes);
  for (auto& b : s.mem) b = uint8_t(rng.Next());
  // the operands: fp16 values with specials, or int8
  for (int k = 0; k < 3; ++k) {
    const harness::PlanarOperand& o = t.src[k];
    for (int c = 0; c < t.c; ++c) {
      for (int y = 0; y < t.h; ++y) {
        for (int x = 0; x < (o.bw ? 1 : t.w); ++x) {
          const uint64_t a =
              uint64_t(o.base) + uint64_t(c) * o.plane + uint64_t(y) * o.row + uint64_t(x) * (o.int8 ? 1 : 2);
          const uint16_t v = o.int8 ? uint16_t(rng.Next()) : Value(rng);
          s.mem[a] = uint8_t(v);
          if (!o.int8) s.mem[a + 1] = uint8_t(v >> 8);
        }
      }
    }
  }
  char b[300];
  std::snprintf(b, sizeof b,
                "kind %d axis %d tree %d pool %dx%d/%d,%d/%d,%d -> %dx%d%s, op %d post %d [%d, %d, %d], int8 "
                "%d%d%d/%d, bw %d%d%d, rows %u %u %u, planes %u %u %u",
                int(t.kind), int(t.axis), int(t.tree), t.pool.kh, t.pool.kw, t.pool.sy, t.pool.sx, t.pool.pt, t.pool.pl,
                t.pool.oh, t.pool.ow, t.pool.flat ? " flat" : "", int(t.ew), int(t.post), t.c, t.h, t.w, t.src[0].int8,
                t.src[1].int8, t.src[2].int8, t.dst.int8, t.src[0].bw, t.src[1].bw, t.src[2].bw, t.src[0].row,
                t.src[1].row, t.src[2].row, t.src[0].plane, t.src[1].plane, t.src[2].plane);
  s.what = b;
  s.what += " dst " + std::to_string(t.dst.base) + "/" + std::to_string(t.dst.row) + "/" + std::to_string(t.dst.plane);
  return s;
}

// The writes a task makes: one per result beat (a row's, a strip's or a chunk's results,
// kLanes at most).
uint64_t WantWrites(const PlanarTask& t) {
  const harness::PlanarShape o = harness::PlanarOutShape(t);
  if (t.kind == harness::PlanarKind::kReduce) return uint64_t(o.c) * uint64_t(o.h);
  if (harness::PlanarChannelsLast(t)) return uint64_t((o.c + kLanes - 1) / kLanes) * uint64_t(o.h) * uint64_t(o.w);
  return uint64_t(o.c) * uint64_t(o.h) * uint64_t((o.w + kLanes - 1) / kLanes);
}

harness::CoreRunOptions Traffic(Rng& rng) {
  harness::CoreRunOptions o;
  if (rng.Below(4) != 0) {
    o.max_latency = 1 + int(rng.Below(12));
    o.stall_pct = int(rng.Below(40));
    o.below = [&rng](uint32_t n) { return rng.Below(n); };
  }
  return o;
}

// Runs a scene; every byte of memory must be the reference's.
harness::PlanarRunResult RunExact(PlanarDriver<Model>& drv, const Scene& s, const harness::CoreRunOptions& opt,
                                  const std::string& what) {
  std::vector<uint8_t> want = s.mem;
  harness::PlanarReference(s.t, &want);
  drv.mem() = s.mem;
  const harness::PlanarRunResult r = drv.Run(s.t, opt, 400000);
  int bad = 0;
  for (size_t i = 0; i < want.size() && bad < (std::getenv("ANE_DEBUG_BYTES") ? 400 : 3); ++i) {
    if (drv.mem()[i] != want[i]) {
      ADD_FAILURE() << what << ": " << s.what << ": byte 0x" << std::hex << i << " is 0x" << int(drv.mem()[i])
                    << ", the contract's 0x" << int(want[i]);
      ++bad;
    }
  }
  return r;
}

// N-4.1, N-4.3, N-1 through the whole engine: 600 random elementwise tasks (every operator,
// every post operation, converters, int8 sources and results, broadcasts along W, H and C,
// padded rows and planes, rows of 1 to 40 elements: partial beats), random memory latency and
// ready on all four ports, one model for all of them.
TEST(RtlPlanarEngine, N4_1_N4_3_RandomElementwiseTasksBitExact) {
  const uint64_t seed = test::TestSeed(0x91A0);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Model> sim("ane_planar", harness::CurrentTestStem());
  PlanarDriver<Model> drv(sim);
  drv.Reset();
  const int n = 600 * int(test::SoakFactor());
  uint64_t beats = 0, cycles = 0;
  int ops[13] = {};
  for (int it = 0; it < n && !testing::Test::HasFailure(); ++it) {
    const Scene s = RandomTask(rng);
    const harness::PlanarRunResult r = RunExact(drv, s, Traffic(rng), "task " + std::to_string(it));
    beats += r.beats;
    cycles += r.cycles;
    ++ops[int(s.t.ew)];
    const uint64_t want = uint64_t(s.t.c) * uint64_t(s.t.h) * uint64_t((s.t.w + kLanes - 1) / kLanes);
    EXPECT_EQ(r.beats, want) << "beats written";
    EXPECT_EQ(r.writes, want) << "writes taken";
  }
  for (int k = 0; k < 13; ++k) EXPECT_GT(ops[k], n / 60) << "operator " << k;  // 10 of 600 tasks
  std::printf("seed %llu: %d tasks, %llu beats in %llu cycles\n", (unsigned long long)seed, n,
              (unsigned long long)beats, (unsigned long long)cycles);
}

// Random tasks of one kind after the elementwise path (any operator, converters, int8, broadcasts).
void RandomKind(harness::PlanarKind kind, uint64_t seed0, int n0) {
  const uint64_t seed = test::TestSeed(seed0);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Model> sim("ane_planar", harness::CurrentTestStem());
  PlanarDriver<Model> drv(sim);
  drv.Reset();
  const int n = n0 * int(test::SoakFactor());
  uint64_t beats = 0, cycles = 0;
  int seen[2][3] = {}, flat = 0;
  for (int it = 0; it < n && !testing::Test::HasFailure(); ++it) {
    const Scene s = RandomTask(rng, 40, kind);
    flat += s.t.pool.flat;
    ASSERT_EQ(harness::CheckPlanarTask(s.t), "") << s.what;
    const harness::PlanarRunResult r = RunExact(drv, s, Traffic(rng), "task " + std::to_string(it));
    beats += r.beats;
    cycles += r.cycles;
    ++seen[s.t.axis][int(s.t.tree)];
    EXPECT_EQ(r.beats, WantWrites(s.t)) << s.what << ": beats written";
    EXPECT_EQ(r.writes, WantWrites(s.t)) << s.what << ": writes taken";
  }
  for (int a = 0; a < 2; ++a) {
    for (int k = 0; k < 3; ++k) EXPECT_GT(seen[a][k], 3) << "axis " << a << " operator " << k;
  }
  if (kind == harness::PlanarKind::kPool) {
    EXPECT_GT(flat, 5) << "flat poolings (POOL.FLAT)";
  }
  std::printf("seed %llu: %d tasks, %llu beats in %llu cycles\n", (unsigned long long)seed, n,
              (unsigned long long)beats, (unsigned long long)cycles);
}

// N-4.4 through the tree: rows and planes (a plane's rows run on across patches: beats that
// straddle two patches, a list's last beat overflowing into a second patch), sum, max, min.
TEST(RtlPlanarEngine, N4_4_RandomTreeReductionsBitExact) { RandomKind(harness::PlanarKind::kReduce, 0x91A2, 200); }

// N-4.4 through the line buffer: over columns (strips of LineW = 64 columns, up to 139 rows:
// blocks of 64 lines) and across channels (up to 139 channels), sum, max, min.
TEST(RtlPlanarEngine, N4_4_RandomLineReductionsBitExact) { RandomKind(harness::PlanarKind::kLineReduce, 0x91A3, 150); }

// N-4.4 at the edges of the reduction units' blocks, which the random tasks seldom draw: trees
// over one element (a row, a plane) and over lists longer than one patch (a plane of 130 rows, a
// row of 130 elements), line reductions across exactly 64
// and 128 channels (whole blocks) and down exactly 64 rows; every operator, random traffic.
TEST(RtlPlanarEngine, N4_4_ReductionsAtPatchAndBlockEdgesBitExact) {
  const uint64_t seed = test::TestSeed(0x91A5);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Model> sim("ane_planar", harness::CurrentTestStem());
  PlanarDriver<Model> drv(sim);
  drv.Reset();
  struct Edge {
    harness::PlanarKind kind;
    bool axis;  // tree: rows (0) or planes (1); line: columns (0) or channels (1)
    int c, h, w;
    const char* what;
  };
  const Edge edges[] = {{harness::PlanarKind::kReduce, false, 2, 130, 5, "a tree over 130 rows"},
                        {harness::PlanarKind::kReduce, false, 1, 1, 3, "a tree over one row"},
                        {harness::PlanarKind::kReduce, true, 1, 3, 4, "a tree over one plane"},
                        {harness::PlanarKind::kReduce, false, 2, 3, 130, "trees along rows of 130 (three patches)"},
                        {harness::PlanarKind::kReduce, true, 3, 1, 1, "trees over planes of one element"},
                        {harness::PlanarKind::kLineReduce, true, 64, 2, 9, "a line across 64 channels"},
                        {harness::PlanarKind::kLineReduce, true, 128, 1, 5, "a line across 128 channels"},
                        {harness::PlanarKind::kLineReduce, false, 2, 64, 70, "lines down 64 rows"}};
  for (const Edge& e : edges) {
    for (int op = 0; op < 3 && !testing::Test::HasFailure(); ++op) {
      const Scene s = RandomTask(rng, 40, e.kind, [&e, op](PlanarTask* t) {
        t->axis = e.axis;
        t->tree = oracle::ReduceOp(op);
        t->c = e.c;
        t->h = e.h;
        t->w = e.w;
      });
      ASSERT_EQ(harness::CheckPlanarTask(s.t), "") << e.what;
      const harness::PlanarRunResult r =
          RunExact(drv, s, Traffic(rng), std::string(e.what) + ", op " + std::to_string(op));
      EXPECT_EQ(r.writes, WantWrites(s.t)) << e.what << ": writes taken";
    }
  }
}

// N-7.1: a reset in every cycle of a task of each kind (elementwise, tree along rows and over
// planes, line reductions, poolings with padding), each followed by a fresh task that must be
// exact: no state of a unit (the reads owed, the patch being filled or spilled, the pooling's
// rows and padding, the packer's job, a write pending) survives the reset.
TEST(RtlPlanarEngine, N7_1_ResetInEveryCycleOfEachKindOfTaskThenAFreshTaskIsExact) {
  const uint64_t seed = test::TestSeed(0x91A6);
  SCOPED_TRACE(test::SeedNote(seed));
  Rng rng(seed);
  Sim<Model> sim("ane_planar", harness::CurrentTestStem());
  PlanarDriver<Model> drv(sim);
  drv.Reset();
  const Scene fresh = RandomTask(rng, 12);
  struct Kind {
    harness::PlanarKind kind;
    bool axis;
    const char* what;
  };
  const Kind kinds[] = {{harness::PlanarKind::kElementwise, false, "elementwise"},
                        {harness::PlanarKind::kReduce, false, "tree along rows"},
                        {harness::PlanarKind::kReduce, true, "tree over planes"},
                        {harness::PlanarKind::kLineReduce, false, "lines down columns"},
                        {harness::PlanarKind::kLineReduce, true, "lines across channels"},
                        {harness::PlanarKind::kPool, false, "pooling with padding"}};
  int resets = 0;
  for (const Kind& k : kinds) {
    const Scene s = RandomTask(rng, 24, k.kind, [&k](PlanarTask* t) {
      t->axis = k.axis;
      t->c = 2;
      t->h = 3;
      t->w = k.kind == harness::PlanarKind::kReduce && !k.axis ? 70 : 12;  // rows of two patches
      if (k.kind == harness::PlanarKind::kReduce && k.axis) {
        t->h = 5;
        t->w = 13;  // planes of 65: the last beat (slots 60 .. 64) spills into a second patch
      }
      if (k.kind == harness::PlanarKind::kPool) {
        t->h = 5;
        t->pool = {};
        t->pool.kh = t->pool.kw = 3;
        t->pool.sy = t->pool.sx = 2;
        t->pool.pt = t->pool.pl = 1;
        t->pool.oh = 3;
        t->pool.ow = 6;  // the padding on every side (one row and column below and right)
      }
    });
    ASSERT_EQ(harness::CheckPlanarTask(s.t), "") << k.what << ": " << s.what;
    const harness::PlanarRunResult full = RunExact(drv, s, {}, k.what);
    for (uint64_t stop = 1; stop <= full.wall && !testing::Test::HasFailure(); ++stop) {  // stop edges in
      drv.mem() = s.mem;
      try {
        drv.Run(s.t, Traffic(rng), stop);
      } catch (const std::runtime_error&) {}
      drv.Reset();
      ++resets;
      RunExact(drv, fresh, {}, std::string("after a reset at cycle ") + std::to_string(stop) + " of " + k.what);
    }
  }
  std::printf("%d resets\n", resets);
  EXPECT_GT(resets, 200);
}

// N-4.5: poolings of any window up to 8x8, stride up to 8, padding on every side, max, min and
// the edge-correct mean; up to 19 channels (groups of 8 lanes, the last one short), rows of up to
// 99 (chunks of 8 positions, the last one short), outputs up to 64 wide; dense planes read flat
// (POOL.FLAT: chunks that cross rows) when the sources happen to be dense. A quarter of the tasks
// are channels last (MODE.AXIS, N-4.1's patch transpose: no pooling, the result [H][W][C]).
TEST(RtlPlanarEngine, N4_5_RandomPoolingsBitExact) { RandomKind(harness::PlanarKind::kPool, 0x91A4, 150); }

// N-7.1: the X seeds (--x-initial unique) change no result.
TEST(RtlPlanarEngine, N7_1_XSeedsDoNotChangeAnyResult) {
  const uint64_t seed = test::TestSeed(0x91A1);
  SCOPED_TRACE(test::SeedNote(seed));
  for (uint32_t xs : {1u, 9u, 1234u}) {
    Rng rng(seed);
    Sim<Model> sim("ane_planar", harness::CurrentTestStem() + ".x" + std::to_string(xs), xs);
    PlanarDriver<Model> drv(sim);
    drv.Reset();
    for (int it = 0; it < 40 && !testing::Test::HasFailure(); ++it) {
      RunExact(drv, RandomTask(rng, 40, harness::PlanarKind(it % 4)), Traffic(rng),
               "x seed " + std::to_string(xs) + ", task " + std::to_string(it));
    }
  }
}

// The rate: one beat of 8 elements per cycle. With memory that always answers after one cycle,
// a task of B beats takes B + at most 48 cycles (the reader, FC_A 9, EW 6, POST 11, FC_O 9, the
// writer and the queues), for one, two and three sources; broadcasts read no less often.
TEST(RtlPlanarEngine, N4_1_CyclesOneBeatPerCycle) {
  Rng rng(5);
  Sim<Model> sim("ane_planar", harness::CurrentTestStem());
  PlanarDriver<Model> drv(sim);
  drv.Reset();
  for (PeEwOp op : {PeEwOp::kPass, PeEwOp::kAdd, PeEwOp::kMultiplyAdd}) {
    Scene s = RandomTask(rng);
    PlanarTask& t = s.t;
    t.ew = op;
    t.fca_bypass = t.fco_bypass = false;
    t.c = 4;
    t.h = 16;
    t.w = 8 * kLanes;
    uint32_t at = 0x1000;
    for (harness::PlanarOperand* o : {&t.src[0], &t.src[1], &t.src[2], &t.dst}) {
      *o = harness::PlanarOperand{};
      o->base = at;
      o->row = uint32_t(2 * t.w);
      o->plane = o->row * uint32_t(t.h);
      at += o->plane * uint32_t(t.c);
    }
    s.mem.assign(at + 1024, 0x3C);
    const harness::PlanarRunResult r = RunExact(drv, s, {}, "full rate");
    const uint64_t beats = uint64_t(t.c) * uint64_t(t.h) * 8;
    std::printf("operator %d: %llu beats in %llu cycles\n", int(op), (unsigned long long)beats,
                (unsigned long long)r.cycles);
    EXPECT_EQ(r.beats, beats);
    EXPECT_LE(r.cycles, beats + 48) << "one beat per cycle";
    EXPECT_GE(r.cycles, beats + 35) << "the units' latency alone";
  }
}

// N-4.1's patch transpose as a task (a pooling task's MODE.AXIS, channels last): [C][H][W] written
// as [H][W][C], worked by index (out[y][x][c] = in[c][y][x], not by PlanarReference, which must
// agree), fp16 and int8, 11 channels (a group of 8 and a short one of 3), rows of 19 (chunks of 8,
// the last short). One write per position and group; the rate: every patch of 8 channel beats
// (the short group's 3 completed by 5 zero rows) leaves as one column per cycle.
TEST(RtlPlanarEngine, N4_1_ChannelsLastWritesTheTensorTransposed) {
  Sim<Model> sim("ane_planar", harness::CurrentTestStem());
  PlanarDriver<Model> drv(sim);
  drv.Reset();
  for (const bool int8 : {false, true}) {
    Scene s;
    PlanarTask& t = s.t;
    t.kind = harness::PlanarKind::kPool;
    t.axis = true;
    t.ew = PeEwOp::kPass;
    t.fca_bypass = true;
    t.fco_bypass = !int8;  // (the int8 store is FC_O's: scale 1, bias 0 keep every int8 value)
    t.c = 11;
    t.h = 3;
    t.w = 19;
    const uint32_t eb = int8 ? 1 : 2;
    t.src[0] = harness::PlanarOperand{0x100, uint32_t(t.w) * eb, uint32_t(t.h * t.w) * eb, int8, false};
    t.dst = harness::PlanarOperand{0x2000, uint32_t(t.w * t.c) * eb, uint32_t(t.c) * eb, int8, false};
    s.mem.assign(0x2000 + size_t(t.h * t.w * t.c) * eb + 256, 0xEE);
    std::vector<uint8_t> want = s.mem;
    for (int c = 0; c < t.c; ++c) {
      for (int y = 0; y < t.h; ++y) {
        for (int x = 0; x < t.w; ++x) {
          const uint16_t v =
              int8 ? uint16_t(uint8_t(c * 23 + y * 7 + x - 100)) : uint16_t(0x3C00 + c * 64 + y * 20 + x);
          const size_t in = 0x100 + size_t((c * t.h + y) * t.w + x) * eb;
          const size_t out = 0x2000 + size_t((y * t.w + x) * t.c + c) * eb;
          s.mem[in] = want[in] = uint8_t(v);
          want[out] = uint8_t(v);
          if (!int8) {
            s.mem[in + 1] = want[in + 1] = uint8_t(v >> 8);
            want[out + 1] = uint8_t(v >> 8);
          }
        }
      }
    }
    ASSERT_EQ(harness::CheckPlanarTask(t), "");
    std::vector<uint8_t> ref = s.mem;
    harness::PlanarReference(t, &ref);
    EXPECT_EQ(ref, want) << "PlanarReference of a channels-last task";
    drv.mem() = s.mem;
    const harness::PlanarRunResult r = drv.Run(t, {}, 100000);
    EXPECT_EQ(drv.mem(), want) << (int8 ? "int8" : "fp16");
    EXPECT_EQ(r.writes, 2u * 3u * 19u) << "a write per position and channel group";
    // reads: 2 groups x 3 rows x 3 chunks x 8 channel beats (the short group's 5 zero rows
    // take the cycles of the beats it does not read)
    const uint64_t patch_rows = 2 * 3 * 3 * 8;
    std::printf("%s: %llu writes in %llu cycles (%llu patch rows)\n", int8 ? "int8" : "fp16",
                (unsigned long long)r.writes, (unsigned long long)r.cycles, (unsigned long long)patch_rows);
    EXPECT_LE(r.cycles, patch_rows + 48) << "a patch row per cycle";
  }
}

// The other kinds' rates, memory answering after one cycle: each reads one beat of 8 elements per
// cycle. A row reduction of 64-element rows (one tree patch per 8 beats), a plane reduction (16
// patches per plane, the running register's 3-cycle recurrence well inside the 128 beats), a sum
// over columns (the line buffer writes 64 lines of 8 beats while it reads the other half's 64
// columns) and a 2x2 pooling read flat (one position of 8 channels per beat) all take their beats
// plus the pipeline's latency (the units' latencies in docs/planar.md, "The engine").
TEST(RtlPlanarEngine, N4_4_N4_5_CyclesOneBeatPerCycleInEveryKind) {
  Sim<Model> sim("ane_planar", harness::CurrentTestStem());
  PlanarDriver<Model> drv(sim);
  drv.Reset();
  struct Case {
    const char* what;
    harness::PlanarKind kind;
    bool axis;
    int c, h, w;
    int slack;  // cycles past the beats
  };
  const Case cases[] = {
      {"row sums [4, 16, 64]", harness::PlanarKind::kReduce, false, 4, 16, 64, 80},
      {"plane sums [4, 16, 64]", harness::PlanarKind::kReduce, true, 4, 16, 64, 80},
      {"column sums [4, 64, 64]", harness::PlanarKind::kLineReduce, false, 4, 64, 64, 160},
      {"2x2 max pool [8, 32, 32]", harness::PlanarKind::kPool, false, 8, 32, 32, 120},
  };
  Rng rng(7);
  for (const Case& k : cases) {
    Scene s;
    PlanarTask& t = s.t;
    t.kind = k.kind;
    t.axis = k.axis;
    t.ew = PeEwOp::kPass;
    t.tree = k.kind == harness::PlanarKind::kPool ? oracle::ReduceOp::kMax : oracle::ReduceOp::kSum;
    t.c = k.c, t.h = k.h, t.w = k.w;
    if (k.kind == harness::PlanarKind::kPool) t.pool = harness::PlanarPool{2, 2, 2, 2, 0, 0, k.h / 2, k.w / 2, true};
    const harness::PlanarShape o = harness::PlanarOutShape(t);
    t.src[0] = harness::PlanarOperand{0x1000, uint32_t(2 * k.w), uint32_t(2 * k.w * k.h), false, false};
    const uint32_t d = Align(0x1000 + uint32_t(2 * k.c * k.h * k.w) + 64, 64);
    t.dst = harness::PlanarOperand{d, uint32_t(2 * o.w), uint32_t(2 * o.w * o.h), false, false};
    s.mem.resize(d + uint32_t(2 * o.c * o.h * o.w) + 256);
    for (size_t i = 0; i < s.mem.size(); i += 2) {
      const uint16_t v = Value(rng);
      s.mem[i] = uint8_t(v);
      s.mem[i + 1] = uint8_t(v >> 8);
    }
    s.what = k.what;
    ASSERT_EQ(harness::CheckPlanarTask(t), "") << k.what;
    const harness::PlanarRunResult r = RunExact(drv, s, {}, k.what);
    const uint64_t beats = uint64_t(k.c) * uint64_t(k.h) * uint64_t(k.w) / kLanes;  // source beats
    std::printf("%s: %llu source beats in %llu cycles\n", k.what, (unsigned long long)beats,
                (unsigned long long)r.cycles);
    EXPECT_EQ(r.reads, beats) << k.what;
    EXPECT_LE(r.cycles, beats + uint64_t(k.slack)) << k.what << ": one beat per cycle";
    EXPECT_GE(r.cycles, beats) << k.what;
  }
}

}  // namespace
}  // namespace ane
