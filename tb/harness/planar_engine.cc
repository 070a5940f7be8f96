#include "tb/harness/planar_engine.h"

#include <fmt/format.h>

#include "tb/oracle/elementwise.h"
#include "tb/regs/ane_regs.h"

namespace ane::harness {
namespace {

namespace rp = regs::planar;

int Eb(const PlanarOperand& o) { return o.int8 ? 1 : 2; }

uint16_t LoadElem(const std::vector<uint8_t>& m, uint64_t a, bool int8) {
  if (int8) return oracle::Int8ToFp16(int8_t(m.at(size_t(a))));
  return uint16_t(m.at(size_t(a)) | m.at(size_t(a) + 1) << 8);
}

}  // namespace

int EwArity(PeEwOp op) {
  switch (op) {
    case PeEwOp::kAdd:
    case PeEwOp::kSub:
    case PeEwOp::kMul:
    case PeEwOp::kMax:
    case PeEwOp::kMin:
    case PeEwOp::kCompare: return 2;
    case PeEwOp::kMultiplyAdd:
    case PeEwOp::kAddMultiply: return 3;
    default: return 1;
  }
}

std::string CheckPlanarTask(const PlanarTask& t) {
  if (t.kind != PlanarKind::kElementwise) return "only the elementwise task runs on the engine yet";
  if (t.c < 1 || t.h < 1 || t.w < 1) return fmt::format("a zero size [{}, {}, {}]", t.c, t.h, t.w);
  if (!rp::Fits(rp::kChanC, t.c) || !rp::Fits(rp::kShapeH, t.h) || !rp::Fits(rp::kShapeW, t.w)) {
    return fmt::format("[{}, {}, {}] is past the engine's 16383 per dimension", t.c, t.h, t.w);
  }
  return "";
}

std::vector<std::pair<uint32_t, uint32_t>> PlanarWrites(const PlanarTask& t) {
  using rp::Pack;
  const char* why = "the task is too large for the planar engine";
  std::vector<std::pair<uint32_t, uint32_t>> w;
  w.push_back({rp::kModeAddr, Pack(rp::kModeAddr, {{rp::kModeKind, int(t.kind)}, {rp::kModeEwop, int(t.ew)},
                                                   {rp::kModePostop, int(t.post)}}, why)});
  w.push_back({rp::kShapeAddr, Pack(rp::kShapeAddr, {{rp::kShapeW, t.w}, {rp::kShapeH, t.h}}, why)});
  w.push_back({rp::kChanAddr, Pack(rp::kChanAddr, {{rp::kChanC, t.c}}, why)});
  w.push_back({rp::kFmtAddr, Pack(rp::kFmtAddr, {{rp::kFmtS0Int8, t.src[0].int8},
                                                 {rp::kFmtS1Int8, t.src[1].int8},
                                                 {rp::kFmtS2Int8, t.src[2].int8},
                                                 {rp::kFmtDInt8, t.dst.int8},
                                                 {rp::kFmtS0Bw, t.src[0].bw},
                                                 {rp::kFmtS1Bw, t.src[1].bw},
                                                 {rp::kFmtS2Bw, t.src[2].bw}})});
  w.push_back({rp::kFcaAddr, Pack(rp::kFcaAddr, {{rp::kFcaScale, t.fca.scale}, {rp::kFcaBias, t.fca.bias}})});
  w.push_back({rp::kFcoAddr, Pack(rp::kFcoAddr, {{rp::kFcoScale, t.fco.scale}, {rp::kFcoBias, t.fco.bias}})});
  w.push_back({rp::kFcctlAddr, Pack(rp::kFcctlAddr, {{rp::kFcctlAUnary, int(t.fca.unary)},
                                                     {rp::kFcctlOUnary, int(t.fco.unary)},
                                                     {rp::kFcctlOGain, t.fco.gain}})});
  w.push_back({rp::kPoolAddr, 0});
  w.push_back({rp::kPooloutAddr, 0});
  const uint32_t a[12][2] = {{rp::kS0baseAddr, t.src[0].base}, {rp::kS0rowAddr, t.src[0].row},
                             {rp::kS0planeAddr, t.src[0].plane}, {rp::kS1baseAddr, t.src[1].base},
                             {rp::kS1rowAddr, t.src[1].row},   {rp::kS1planeAddr, t.src[1].plane},
                             {rp::kS2baseAddr, t.src[2].base}, {rp::kS2rowAddr, t.src[2].row},
                             {rp::kS2planeAddr, t.src[2].plane}, {rp::kDbaseAddr, t.dst.base},
                             {rp::kDrowAddr, t.dst.row},       {rp::kDplaneAddr, t.dst.plane}};
  for (const auto& [addr, v] : a) w.push_back({addr, v});
  w.push_back({rp::kStartAddr, 1});
  return w;
}

void PlanarReference(const PlanarTask& t, std::vector<uint8_t>* mem) {
  const int arity = EwArity(t.ew);
  oracle::FcConfig fa = t.fca, fo = t.fco;
  fa.in_int8 = false;  // the reader converts an int8 source exactly (the same value)
  fa.gain = false;
  fa.out_int8 = false;
  fo.in_int8 = false;
  fo.out_int8 = t.dst.int8;
  std::vector<std::pair<uint64_t, uint16_t>> out;
  for (int c = 0; c < t.c; ++c) {
    for (int y = 0; y < t.h; ++y) {
      for (int x = 0; x < t.w; ++x) {
        uint16_t v[3] = {0, 0, 0};
        for (int s = 0; s < arity; ++s) {
          const PlanarOperand& o = t.src[s];
          const uint64_t at = uint64_t(o.base) + uint64_t(c) * o.plane + uint64_t(y) * o.row +
                              (o.bw ? 0 : uint64_t(x) * uint64_t(Eb(o)));
          v[s] = LoadElem(*mem, at, o.int8);
        }
        uint16_t r = EwOracle(t.ew, oracle::FormatConvert(fa, v[0]), v[1], v[2]);
        switch (t.post) {
          case PePostOp::kPass: break;
          case PePostOp::kSqrt: r = oracle::Fp16Sqrt(r); break;
          case PePostOp::kRecip: r = oracle::Fp16Recip(r); break;
          case PePostOp::kRsqrt: r = oracle::Fp16Rsqrt(r); break;
        }
        r = oracle::FormatConvert(fo, r);
        out.push_back({uint64_t(t.dst.base) + uint64_t(c) * t.dst.plane + uint64_t(y) * t.dst.row +
                           uint64_t(x) * uint64_t(Eb(t.dst)),
                       r});
      }
    }
  }
  for (const auto& [a, r] : out) {  // after every read: a result may overwrite a source
    (*mem).at(size_t(a)) = uint8_t(r);
    if (!t.dst.int8) (*mem).at(size_t(a) + 1) = uint8_t(r >> 8);
  }
}

std::vector<std::pair<uint64_t, uint64_t>> PlanarWriteRanges(const PlanarTask& t) {
  std::vector<std::pair<uint64_t, uint64_t>> r;
  for (int c = 0; c < t.c; ++c) {
    for (int y = 0; y < t.h; ++y) {
      const uint64_t b = uint64_t(t.dst.base) + uint64_t(c) * t.dst.plane + uint64_t(y) * t.dst.row;
      r.push_back({b, b + uint64_t(t.w) * uint64_t(Eb(t.dst))});
    }
  }
  return r;
}

}  // namespace ane::harness
