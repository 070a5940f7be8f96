// SPDX-License-Identifier: Apache-2.0
#include "tb/onnx/compile.h"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "tb/cli/args.h"
#include "tb/cli/hwx_cmd.h"
#include "tb/cli/schema.h"
#include "tb/onnx/model.h"
#include "tb/onnx/move.h"
#include "tb/oracle/formats.h"
#include "tb/td/chain.h"
#include "tb/td/encode.h"
#include "tb/td/hwx.h"

namespace ane::onnx_in {

namespace {

namespace r = regs::td;

constexpr int kWeightsBar = 1;  // WriteHwx's layout
constexpr uint16_t kOne = 0x3C00, kMinusOne = 0xBC00;

// A layout: P = C x H rows of W fp16 elements, each row at a multiple of 64 bytes
// (td::PackedRow), channel planes H rows apart.
struct Chw {
  int64_t c = 1, h = 1, w = 1;
  bool operator==(const Chw& o) const { return c == o.c && h == o.h && w == o.w; }
  int64_t Count() const { return c * h * w; }
  std::string Text() const { return fmt::format("[{}, {}, {}]", c, h, w); }
};
uint64_t RowBytes(const Chw& s) { return td::PackedRow(int(s.w), td::ElemFormat::kFp16); }
uint64_t PlaneBytes(const Chw& s) { return RowBytes(s) * uint64_t(s.h); }
uint64_t Bytes(const Chw& s) { return PlaneBytes(s) * uint64_t(s.c); }
// The layout a value of `shape` takes when nothing else decides: the last two axes as H and W,
// the ones before as channels ([1, C, H, W] and [C, H, W] alike); [1, K] and [K] as K channels
// of one element (what a 1x1 convolution reads and writes); [M, K] as M channels of a row.
Chw Natural(const std::vector<int64_t>& s) {
  const size_t n = s.size();
  if (n == 0) return {};
  if (n == 1) return {s[0], 1, 1};
  if (n == 2) return s[0] == 1 ? Chw{s[1], 1, 1} : Chw{s[0], 1, s[1]};
  int64_t c = 1;
  for (size_t k = 0; k + 2 < n; ++k) c *= s[k];
  return {c, s[n - 2], s[n - 1]};
}
// True when a tensor laid out as `a` has every element where one laid out as `b` has it (the
// same row-major order): the same rows (C x H rows of W: merging channels into rows moves
// nothing), or rows that need no padding on both sides.
bool SameBytes(const Chw& a, const Chw& b) {
  if (a.Count() != b.Count()) return false;
  if (a.c * a.h == b.c * b.h && a.w == b.w) return true;
  return (a.w * 2) % 64 == 0 && (b.w * 2) % 64 == 0;
}

// Where a value lives: an object (a tensor of the container or a region of the scratch buffer),
// or part of one (a concat's input is its result's bytes from `offset` on).
struct Object {
  Chw shape;  // its layout
  int parent = -1;
  uint64_t offset = 0;    // bytes into the parent
  td::TensorRole role{};  // kInput / kOutput for a tensor of the container
  bool tensor = false;
  std::string name;  // the tensor's
  int bar = -1;      // roots: where it is
  uint64_t base = 0;
};

// An operand of a planar task: a value, or a constant laid out in the weights.
struct Operand {
  std::string value;  // a run-time value
  int region = -1;    // else: a region of the weights
};
struct Region {
  std::optional<uint16_t> fill;  // every element this code (shared by every use)
  std::vector<uint16_t> codes;   // else: [C][H][W] of the task's shape
  Chw shape;
  uint64_t bytes = 0;  // as large as its largest use
  uint64_t base = 0;
};

// One TD before the places are known. `src`, `dst` and the operands' values are read and
// written as `lay` says ([C][H][W] of the task's own shapes).
struct Task {
  std::string node;
  td::LayerSpec spec;  // everything but the places
  std::string src, dst;
  Chw src_lay, dst_lay;
  Operand a, b;  // planar: source 0 and 1, laid out as dst_lay
};

class Compiler {
 public:
  explicit Compiler(const Plan& p) : p_(p) {}

  Compiled Run() {
    for (const auto& [name, shape] : p_.inputs) {
      const int o = NewObject(Natural(shape));
      obj_[size_t(o)].tensor = true;
      obj_[size_t(o)].role = td::TensorRole::kInput;
      obj_[size_t(o)].name = name;
      Define(name, shape, o, Natural(shape));
    }
    for (const Step& s : p_.steps) {
      if (s.is_op) {
        Op(s);
      } else {
        Move(s);
      }
    }
    Outputs();
    return Emit();
  }

 private:
  [[noreturn]] void Fail(const std::string& where, const std::string& why) const {
    throw OnnxError(fmt::format("{}: {}: {}", p_.file, where, why));
  }

  int NewObject(const Chw& c) {
    Object o;
    o.shape = c;
    obj_.push_back(o);
    return int(obj_.size()) - 1;
  }
  void Define(const std::string& v, const std::vector<int64_t>& shape, int object, const Chw& lay) {
    shape_[v] = shape;
    of_[v] = object;
    lay_[v] = lay;
  }
  bool Known(const std::string& v) const { return of_.count(v) > 0; }
  bool IsConst(const std::string& v) const { return p_.constants.count(v) > 0; }
  // The value read as `want`: refused unless its bytes are where `want` puts them.
  void ReadAs(const Step& s, const std::string& v, const Chw& want, const char* what) const {
    if (!SameBytes(lay_.at(v), want)) {
      Fail(s.node, fmt::format("the {} '{}' is laid out as {} and read as {}: a copy no TD makes", what, v,
                               lay_.at(v).Text(), want.Text()));
    }
  }

  // ------------------------------------------------------------------ operations
  void Op(const Step& s) {
    const cli::Operation& op = s.op;
    std::map<std::string, std::string> in(s.bind.begin(), s.bind.end());
    const std::vector<int64_t> yshape = op.outputs.at("y").shape;
    if (op.op == "conv2d") return Conv(s, in, yshape);
    if (op.op == "elementwise") return Elementwise(s, in, yshape);
    std::string why;
    if (op.op == "pool" || op.op == "reduce" || op.op == "softmax") {
      why = fmt::format(
          "{} on the planar engine: no task descriptor of the known programs encodes it (a planar TD is an "
          "elementwise operation, docs/td.md A18)",
          op.op);
    } else if (op.op == "activation") {
      why = "an activation table on its own: no task descriptor of the known programs carries the built-in tables";
    } else if (op.op == "matmul") {
      why =
          "a matmul on the MAC array has no task descriptor (a constant B of at most 1023 rows is a 1x1 convolution "
          "of the core; this one has both operands computed at run time or a longer reduction)";
    } else {
      why = fmt::format("the {} operation has no task descriptor", op.op);
    }
    Fail(s.node, why);
  }

  // A bound input that must be computed at run time.
  void RunTime(const Step& s, const std::string& v, const char* what) const {
    if (IsConst(v)) {
      Fail(s.node, fmt::format("the {} is a constant of the model; it is compiled only as a run-time tensor", what));
    }
    if (!Known(v)) throw std::logic_error("compile: value '" + v + "' has no place");
  }
  const Value& Constant(const Step& s, const std::string& v, const char* what) const {
    auto it = p_.constants.find(v);
    if (it == p_.constants.end()) {
      Fail(s.node, fmt::format("the {} is computed at run time; a TD takes it from the weights", what));
    }
    return it->second;
  }
  // The operation's result: a new object laid out as `lay`.
  std::string Result(const Step& s, const std::vector<int64_t>& yshape, const Chw& lay) {
    Define(s.out, yshape, NewObject(lay), lay);
    return s.out;
  }

  void Conv(const Step& s, const std::map<std::string, std::string>& in, const std::vector<int64_t>& yshape) {
    const cli::Operation& op = s.op;
    const oracle::ConvLayer& L = op.conv;
    if (L.mode != oracle::MacMode::kFp16) Fail(s.node, "only fp16 x fp16 convolutions are compiled");
    if (L.gen != oracle::Generation::kM1) Fail(s.node, "the program format is the M1's (cpusubtype 4)");
    if (L.geom.dilation_y != 1 || L.geom.dilation_x != 1) {
      Fail(s.node, "a dilated convolution: a TD has no dilation (A12)");
    }
    if (L.post.sr) Fail(s.node, "stochastic rounding has no TD field the model knows");
    if (L.post.act == oracle::PostAct::kTable) {
      Fail(s.node, "an activation table: a TD's table is the program's own 33 knots (A11)");
    }
    const std::string x = in.at("x");
    RunTime(s, x, "input x");
    if (yshape.size() == 4 && yshape[0] != 1) Fail(s.node, "a batch of more than one is not compiled");
    const Chw xc{L.Cin(), L.geom.height, L.geom.width};
    const Chw yc = Natural(yshape);
    ReadAs(s, x, xc, "input");
    Task t;
    t.node = s.node;
    td::LayerSpec& p = t.spec;
    p.cin = int(xc.c);
    p.h = int(xc.h);
    p.w = int(xc.w);
    p.cout = int(yc.c);
    p.oh = int(yc.h);
    p.ow = int(yc.w);
    p.kh = L.geom.kernel_h;
    p.kw = L.geom.kernel_w;
    p.sy = L.geom.stride_y;
    p.sx = L.geom.stride_x;
    p.py = L.geom.pad_top;
    p.px = L.geom.pad_left;
    p.groups = L.groups;
    const Value& w = Constant(s, in.at("w"), "weights");
    const size_t per = w.fp16.size() / size_t(p.cout);
    for (int co = 0; co < p.cout; ++co) {
      p.weights.emplace_back(w.fp16.begin() + long(size_t(co) * per), w.fp16.begin() + long(size_t(co + 1) * per));
    }
    if (in.count("scale")) {
      const Value& sc = Constant(s, in.at("scale"), "scale");
      for (uint16_t v : sc.fp16) {
        if (v != sc.fp16[0]) Fail(s.node, "a scale per output channel: a TD has one post scale (NE.PostScale)");
      }
      p.scale = sc.fp16.at(0);
    }
    if (in.count("bias")) {
      p.bias = true;
      p.biases = Constant(s, in.at("bias"), "bias").fp16;
    }
    p.nonlinear = L.post.act == oracle::PostAct::kRelu ? r::Nonlinear::kRelu : r::Nonlinear::kNone;
    // the kernel DMA channels: as few as hold the kernels (CoeffBfrSize counts 64-byte units in 26 bits)
    const uint64_t block = (uint64_t(per) * 2 + (p.bias ? 2 : 0) + 63) / 64 * 64;
    const uint64_t most = ((uint64_t(1) << 26) - 1) * 64;
    p.kernel_channels = int(std::min<uint64_t>(16, (uint64_t(p.cout) * block + most - 1) / most));
    t.src = x;
    t.src_lay = xc;
    t.dst_lay = yc;
    t.dst = Result(s, yshape, yc);
    tasks_.push_back(std::move(t));
  }

  Operand ConstOperand(const Value& v, const std::vector<int64_t>& yshape, const Chw& lay) {
    const Value full = Expanded(v, yshape);
    bool uniform = true;
    for (uint16_t c : full.fp16) uniform &= c == full.fp16[0];
    Operand o;
    if (uniform) {
      const uint16_t code = full.fp16.empty() ? 0 : full.fp16[0];
      auto it = fill_.find(code);
      if (it == fill_.end()) {
        Region g;
        g.fill = code;
        regions_.push_back(g);
        it = fill_.emplace(code, int(regions_.size()) - 1).first;
      }
      Region& g = regions_[size_t(it->second)];
      g.bytes = std::max(g.bytes, Bytes(lay));
      o.region = it->second;
      return o;
    }
    Region g;
    g.codes = full.fp16;
    g.shape = lay;
    g.bytes = Bytes(lay);
    regions_.push_back(g);
    o.region = int(regions_.size()) - 1;
    return o;
  }
  Operand Fill(uint16_t code, const std::vector<int64_t>& yshape, const Chw& lay) {
    Value v;
    v.shape = {1};
    v.fp16 = {code};
    return ConstOperand(v, yshape, lay);
  }

  void Elementwise(const Step& s, const std::map<std::string, std::string>& in, const std::vector<int64_t>& yshape) {
    const cli::Operation& op = s.op;
    // the result takes the layout of its first run-time operand (an elementwise operation reads
    // and writes its tensors in one order, whatever the layout)
    std::optional<Chw> lay;
    for (const auto& [name, v] : s.bind) {
      if (IsConst(v)) continue;
      RunTime(s, v, "operand");
      if (shape_.at(v) != yshape) {
        Fail(s.node, fmt::format("'{}' {} is broadcast to {} at run time: a planar TD reads two tensors of one shape",
                                 v, cli::ShapeString(shape_.at(v)), cli::ShapeString(yshape)));
      }
      if (!lay) lay = lay_.at(v);
      ReadAs(s, v, *lay, "operand");
    }
    if (!lay) Fail(s.node, "every operand is a constant");
    Task t;
    t.node = s.node;
    td::PlanarTask& pe = t.spec.pe;
    // the operation's result converter (the lowering gives every elementwise operation one: the
    // planar TD always applies it, A18)
    if (!op.ew_scale && !op.ew_bias) {
      Fail(s.node, "an elementwise operation without the planar engine's result converter has no TD");
    }
    pe.scale = op.ew_scale.value_or(kOne);
    pe.bias = op.ew_bias.value_or(0);
    auto operand = [&](const char* name) {
      const std::string& v = in.at(name);
      Operand o;
      if (IsConst(v)) return ConstOperand(p_.constants.at(v), yshape, *lay);
      o.value = v;
      return o;
    };
    switch (op.ew) {
      case harness::PeEwOp::kAdd:
        pe.op = r::PlanarOp::kAdd;
        t.a = operand("a");
        t.b = operand("b");
        break;
      case harness::PeEwOp::kSub:  // a - b = (-1 b) + a
        pe.op = r::PlanarOp::kAdd;
        pe.src0_scale = kMinusOne;
        t.a = operand("b");
        t.b = operand("a");
        break;
      case harness::PeEwOp::kMul:
        pe.op = r::PlanarOp::kMul;
        t.a = operand("a");
        t.b = operand("b");
        break;
      case harness::PeEwOp::kMax:
      case harness::PeEwOp::kMin:
        pe.op = op.ew == harness::PeEwOp::kMax ? r::PlanarOp::kMax : r::PlanarOp::kMin;
        t.a = operand("a");
        t.b = operand("b");
        break;
      case harness::PeEwOp::kRelu:  // max(x, +0)
        pe.op = r::PlanarOp::kMax;
        t.a = operand("x");
        t.b = Fill(0x0000, yshape, *lay);
        break;
      case harness::PeEwOp::kNeg:  // (-1 x) x 1
        pe.op = r::PlanarOp::kMul;
        pe.src0_scale = kMinusOne;
        t.a = operand("x");
        t.b = Fill(kOne, yshape, *lay);
        break;
      default:
        Fail(s.node,
             fmt::format("elementwise {}: a planar TD runs add, sub, mul, max, min, relu and neg (A18)", s.Text()));
    }
    t.spec.planar = true;
    t.spec.cin = int(lay->c);
    t.spec.h = int(lay->h);
    t.spec.w = int(lay->w);
    t.src_lay = t.dst_lay = *lay;
    t.dst = Result(s, yshape, *lay);
    tasks_.push_back(std::move(t));
  }

  // ------------------------------------------------------------------ data movement
  void Move(const Step& s) {
    if (s.move_kind == Step::MoveKind::kOther) {
      Fail(s.node, fmt::format("{}: a data movement no TD makes (compiled: reshapes, and concats on the channel axis)",
                               s.move_text));
    }
    for (const std::string& a : s.args) {
      if (!Known(a)) throw std::logic_error("compile: a movement of a constant at run time");
    }
    const std::vector<int64_t> yshape = MovedShape(s);
    if (s.move_kind == Step::MoveKind::kReshape) {  // a view: the same bytes
      const std::string& a = s.args.at(0);
      const Chw nat = Natural(yshape);
      Define(s.out, yshape, of_.at(a), SameBytes(lay_.at(a), nat) ? nat : lay_.at(a));
      views_.push_back(fmt::format("{}: {} (no TD: the same bytes)", s.node, s.move_text));
      return;
    }
    // a concat: each part written in place at its offset of the result, when the parts follow
    // one another in the result's bytes (no axis before the concat's has more than one item)
    // and each is whole planes of the result's rows
    const Chw yc = Natural(yshape);
    int64_t outer = 1;
    for (int64_t k = 0; k < s.axis; ++k) outer *= yshape[size_t(k)];
    if (outer != 1)
      Fail(s.node, fmt::format("{}: the parts interleave in the result, a copy no TD makes", s.move_text));
    const int out = NewObject(yc);
    uint64_t off = 0;
    std::set<int> seen;
    for (const std::string& a : s.args) {
      const int o = of_.at(a);
      Object& ob = obj_[size_t(o)];
      const Chw part{shape_.at(a).empty() ? 1 : Natural(shape_.at(a)).Count() / (yc.h * yc.w), yc.h, yc.w};
      if (ob.tensor || ob.parent >= 0 || seen.count(o) || !SameBytes(lay_.at(a), part) || !SameBytes(ob.shape, part) ||
          part.Count() != Natural(shape_.at(a)).Count()) {
        Fail(s.node, fmt::format("{}: '{}' cannot be written in place into the result (a graph input, a part of "
                                 "another concat, given twice, or not whole planes): a copy no TD makes",
                                 s.move_text, a));
      }
      seen.insert(o);
      ob.parent = out;
      ob.offset = off;
      off += Bytes(part);
    }
    Define(s.out, yshape, out, yc);
    views_.push_back(fmt::format("{}: {} (no TD: each part written at its place in the result)", s.node, s.move_text));
  }
  std::vector<int64_t> MovedShape(const Step& s) const {
    std::vector<Value> stand;
    for (const std::string& a : s.args) {
      Value v;
      v.shape = shape_.at(a);
      v.fp16.assign(size_t(v.Count()), 0);
      stand.push_back(std::move(v));
    }
    std::vector<const Value*> vs;
    for (const Value& v : stand) vs.push_back(&v);
    return s.move(vs).shape;
  }

  void Outputs() {
    std::set<int> used;
    for (const std::string& name : p_.outputs) {
      if (!Known(name)) Fail(fmt::format("output '{}'", name), "a constant of the model: no task computes it");
      const int o = of_.at(name);
      Object& ob = obj_[size_t(o)];
      if (ob.tensor || ob.parent >= 0 || used.count(o)) {
        Fail(fmt::format("output '{}'", name),
             "it is a graph input, another output or a part of a concat: the program would need a copy");
      }
      used.insert(o);
      ob.tensor = true;
      ob.role = td::TensorRole::kOutput;
      ob.name = name;
    }
  }

  // ------------------------------------------------------------------ layout and encoding
  struct Place {
    int bar;
    uint64_t base, row, plane;
  };
  // Where value v is, read as `lay`.
  Place PlaceOf(const std::string& v, const Chw& lay) const {
    int o = of_.at(v);
    uint64_t off = 0;
    while (obj_[size_t(o)].parent >= 0) {
      off += obj_[size_t(o)].offset;
      o = obj_[size_t(o)].parent;
    }
    return {obj_[size_t(o)].bar, obj_[size_t(o)].base + off, RowBytes(lay), PlaneBytes(lay)};
  }

  Compiled Emit() {
    Compiled c;
    td::HwxSpec spec;
    // tensors (their table entries as WriteHwx assigns them: outputs from 4, then inputs)
    std::vector<int> tensor_objs;
    for (int role : {2, 1}) {
      for (size_t k = 0; k < obj_.size(); ++k) {
        if (obj_[k].tensor && int(obj_[k].role) == role) tensor_objs.push_back(int(k));
      }
    }
    int bar = 4;
    uint64_t scratch = 0;
    for (int k : tensor_objs) {
      Object& o = obj_[size_t(k)];
      o.bar = bar++;
      td::HwxTensor t;
      t.name = o.name;
      t.role = o.role;
      t.type = 5;
      const uint32_t dims[5] = {1, uint32_t(o.shape.c), uint32_t(o.shape.h), uint32_t(o.shape.w), 1};
      const uint64_t bytes = Bytes(o.shape);
      const uint64_t strides[5] = {bytes, PlaneBytes(o.shape), RowBytes(o.shape), 2, bytes};
      std::copy(dims, dims + 5, t.dims);
      std::copy(strides, strides + 5, t.strides);
      t.bytes = uint32_t(bytes);
      spec.tensors.push_back(t);
      c.tensors.push_back(fmt::format("{} {} fp16 [1, {}, {}, {}] (buffer {}, rows of {} bytes)",
                                      o.role == td::TensorRole::kInput ? "input " : "output", o.name, o.shape.c,
                                      o.shape.h, o.shape.w, o.bar, RowBytes(o.shape)));
    }
    const int scratch_bar = bar;
    for (Object& o : obj_) {
      if (o.tensor || o.parent >= 0) continue;
      o.bar = scratch_bar;
      o.base = scratch;
      scratch += Bytes(o.shape);
      scratch = (scratch + 63) / 64 * 64;
    }
    // the constants, at the start of the weights
    std::vector<uint8_t> prefix;
    for (Region& g : regions_) {
      g.base = prefix.size();
      prefix.resize(size_t(g.base + g.bytes), 0);
      if (g.fill) {
        for (uint64_t k = 0; k < g.bytes; k += 2) {
          prefix[size_t(g.base + k)] = uint8_t(*g.fill);
          prefix[size_t(g.base + k + 1)] = uint8_t(*g.fill >> 8);
        }
      } else {
        const uint64_t row = RowBytes(g.shape), plane = PlaneBytes(g.shape);
        size_t i = 0;
        for (int64_t ch = 0; ch < g.shape.c; ++ch) {
          for (int64_t y = 0; y < g.shape.h; ++y) {
            for (int64_t x = 0; x < g.shape.w; ++x) {
              const uint64_t at = g.base + uint64_t(ch) * plane + uint64_t(y) * row + uint64_t(x) * 2;
              prefix[size_t(at)] = uint8_t(g.codes[i]);
              prefix[size_t(at + 1)] = uint8_t(g.codes[i] >> 8);
              ++i;
            }
          }
        }
      }
      prefix.resize((prefix.size() + 63) / 64 * 64, 0);
    }
    c.constant_bytes = prefix.size();
    std::vector<td::LayerSpec> specs;
    for (Task& t : tasks_) {
      td::LayerSpec& p = t.spec;
      auto place = [&](const Operand& o, const Chw& lay, int* b, uint64_t* base, uint64_t* row, uint64_t* plane) {
        if (!o.value.empty()) {
          const Place q = PlaceOf(o.value, lay);
          *b = q.bar;
          *base = q.base;
          *row = q.row;
          *plane = q.plane;
          return;
        }
        *b = kWeightsBar;
        *base = regions_[size_t(o.region)].base;
        *row = RowBytes(lay);
        *plane = PlaneBytes(lay);
      };
      Operand src, dst;
      src.value = t.src;
      dst.value = t.dst;
      if (p.planar) {
        place(t.a, t.dst_lay, &p.src_bar, &p.src_base, &p.src_row, &p.src_plane);
        place(t.b, t.dst_lay, &p.src1_bar, &p.src1_base, &p.src1_row, &p.src1_plane);
      } else {
        place(src, t.src_lay, &p.src_bar, &p.src_base, &p.src_row, &p.src_plane);
      }
      place(dst, t.dst_lay, &p.dst_bar, &p.dst_base, &p.dst_row, &p.dst_plane);
      specs.push_back(p);
    }
    if (specs.empty()) Fail("the model", "no operation to compile (a program is at least one TD)");
    td::Encoded e;
    try {
      e = td::EncodeLayers(specs, kWeightsBar, prefix);
    } catch (const td::TdError& err) {
      Fail("the chain", err.what());
    }
    c.kernel_bytes = e.weights.size() - prefix.size();
    c.scratch_bytes = scratch;
    spec.tds = e.chain;
    spec.td_count = uint32_t(e.tds.size());
    spec.weights = e.weights;
    spec.scratch = scratch > 0 ? 1 : 0;
    spec.ident = "ANEC v1\nane compile " + p_.file;
    try {
      c.file = td::WriteHwx(&spec);
    } catch (const td::TdError& err) {
      Fail("the container", err.what());
    }
    if (spec.scratch && spec.scratch_bars.at(0) != scratch_bar) throw std::logic_error("compile: scratch entry moved");
    // The program as `ane run` reads it: every TD interpreted and checked, and each one the RTL
    // front end runs.
    td::Program prog;
    try {
      prog = td::PrepareProgram(c.file);
    } catch (const td::TdError& err) {
      Fail("the program", err.what());
    }
    for (size_t k = 0; k < prog.layers.size(); ++k) {
      const std::string why = cli::RtlTdRefusal(prog.layers[k]);
      if (!why.empty()) Fail(tasks_[k].node, fmt::format("TD {}: {}", k, why));
      c.tds.push_back(fmt::format("TD {:<4} {}: {}", k, tasks_[k].node, prog.layers[k].Describe()));
    }
    c.views = views_;
    return c;
  }

  const Plan& p_;
  std::vector<Object> obj_;
  std::map<std::string, int> of_;
  std::map<std::string, std::vector<int64_t>> shape_;
  std::map<std::string, Chw> lay_;  // how each value is read: its [C][H][W]
  std::vector<Task> tasks_;
  std::vector<Region> regions_;
  std::map<uint16_t, int> fill_;
  std::vector<std::string> views_;
};

}  // namespace

Compiled Compile(const Plan& plan) { return Compiler(plan).Run(); }

const char kCompileHelp[] = R"TEXT(usage: ane compile MODEL.onnx -o MODEL.hwx

Compiles an ONNX model into the ANE's own program format: the model is read and lowered as
ane run MODEL.onnx lowers it, and each
operation becomes one task descriptor of a chain in an .hwx container, with the kernels and
constants in its weights section, its inputs and outputs as named tensors ([1, C, H, W], rows
of 64-byte multiples) and every intermediate value in a scratch buffer. Run it with
  ane run MODEL.hwx --input NAME=x.npy ... [--engine oracle|rtl|both]
which gives, bit for bit, what  ane run MODEL.onnx --engine oracle  gives.

Compiled: convolutions (fp16, with their folded normalizations, biases, one post scale and
ReLU; fully connected layers are 1x1 convolutions), the planar engine's add, sub, mul, max,
min, relu and neg (a constant operand is a tensor in the weights), reshapes that keep the
layout and concats on the channel axis (no TD: each part is written in place). Everything else
(pooling, reductions, softmax, activation tables, other data movement, a batch of more than
one) has no task descriptor in the programs the model knows, and is refused: exit 2, one line
naming the node and why, nothing written.

  -o, --out FILE    the program to write (required)

docs/onnx.md "Compiling to a program"; the TD format: docs/td.md.
)TEXT";

int CompileCommand(const std::vector<std::string>& argv, std::ostream& final_out) {
  const cli::Parsed p = cli::Parse("compile", argv, {"out"}, {}, {});
  if (p.help) {
    final_out << kCompileHelp;
    return 0;
  }
  const auto is_onnx = [](const std::string& a) { return a.size() > 5 && a.compare(a.size() - 5, 5, ".onnx") == 0; };
  if (p.positional.size() != 1 || !is_onnx(p.positional[0])) {
    throw cli::CliError("ane compile takes one model (.onnx) file (see ane compile --help)");
  }
  const std::optional<std::string> out = cli::Flag(p, "out");
  if (!out) throw cli::CliError("ane compile needs -o FILE.hwx, the program to write");
  const std::string path = p.positional[0];
  Compiled c;
  Plan plan;
  try {
    const onnx::ModelProto model = LoadModel(path);
    plan = Lower(model, path, cli::Engine::kOracle);  // the TDs are checked against the RTL front end
    c = Compile(plan);
  } catch (const OnnxError& e) {
    throw cli::CliError(e.what());
  }
  cli::WriteBytes(*out, c.file);
  std::ostringstream o;
  o << fmt::format("model       {} ({} node{})\n", path, plan.nodes, plan.nodes == 1 ? "" : "s");
  for (const std::string& t : c.tensors) o << "tensor      " << t << "\n";
  for (const std::string& t : c.tds) o << t << "\n";
  for (const std::string& v : c.views) o << "view        " << v << "\n";
  o << fmt::format("wrote       {} ({} bytes: {} TD{}, kernels {} bytes, constants {} bytes, scratch {} bytes)\n", *out,
                   c.file.size(), c.tds.size(), c.tds.size() == 1 ? "" : "s", c.kernel_bytes, c.constant_bytes,
                   c.scratch_bytes);
  for (const std::string& n : plan.notes) o << "note: " << n << "\n";
  final_out << o.str();
  return 0;
}

}  // namespace ane::onnx_in
