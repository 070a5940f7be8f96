// SPDX-License-Identifier: Apache-2.0
#include "tb/onnx/lower.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnx/onnx_pb.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>

#include "tb/cli/op_family.h"
#include "tb/onnx/move.h"
#include "tb/oracle/formats.h"

namespace ane::onnx_in {

std::string Step::Text() const { return is_op ? op.Describe() : move_text; }

namespace {

using onnx::AttributeProto;
using onnx::NodeProto;

struct Info {
  ValueType type = ValueType::kFp16;
  std::vector<int64_t> shape;
};

int64_t Prod(const std::vector<int64_t>& s, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t n = 1;
  for (size_t i = from; i < s.size() && i < to; ++i) n *= s[i];
  return n;
}

std::string Shape(const std::vector<int64_t>& s) { return cli::ShapeString(s); }

cli::Tensor ToTensor(const Value& v) {
  cli::Tensor t;
  t.dtype = cli::DType::kFp16;
  t.shape = v.shape;
  t.bits.assign(v.fp16.begin(), v.fp16.end());
  return t;
}

Value FromTensor(const cli::Tensor& t) {
  Value v;
  v.type = ValueType::kFp16;
  v.shape = t.shape;
  for (uint32_t b : t.bits) v.fp16.push_back(uint16_t(b));
  return v;
}

Value Fp16Const(const std::vector<int64_t>& shape, const std::vector<uint16_t>& codes) {
  Value v;
  v.shape = shape;
  v.fp16 = codes;
  return v;
}

YAML::Node Pair(int64_t a, int64_t b) {
  YAML::Node n;
  n.push_back(a);
  n.push_back(b);
  return n;
}

// The core's plan takes at most 1023 output channels per conv group (tb/plan/core_plan.cc).
constexpr int64_t kMaxCoreOutputs = 1023;  // the core's channels of one group, out and in
// The planar engine's largest extent of one axis (its SHAPE and CHAN fields, docs/planar.md).
constexpr int64_t kPlanarAxis = 16383;

class Lowering {
 public:
  Lowering(const onnx::ModelProto& m, const std::string& file, cli::Engine engine,
           const std::map<std::string, onnx::TensorProto>& frozen)
      : m_(m), g_(m.graph()), file_(file), engine_(engine), frozen_(frozen) {}

  Plan Go() {
    plan_.file = file_;
    for (const auto& o : m_.opset_import()) {
      if (o.domain().empty() || o.domain() == "ai.onnx") opset_ = o.version();
    }
    plan_.opset = opset_;
    plan_.nodes = g_.node_size();
    for (const auto& t : g_.initializer()) AddConstant(t.name(), t, "initializer");
    for (const auto& vi : g_.input()) {
      if (auto f = frozen_.find(vi.name()); f != frozen_.end()) {
        if (!vi.type().has_tensor_type()) {
          throw OnnxError(fmt::format(
              "{}: input '{}' is not a tensor (sequences, maps and optionals are not supported)", file_, vi.name()));
        }
        if (vi.type().tensor_type().elem_type() != f->second.data_type()) {
          throw OnnxError(fmt::format("{}: input '{}' is declared with element type {} but given as {}", file_,
                                      vi.name(), vi.type().tensor_type().elem_type(), f->second.data_type()));
        }
        AddConstant(vi.name(), f->second, "input");
      }
      if (plan_.constants.count(vi.name())) continue;  // an initializer's default
      plan_.inputs.emplace_back(vi.name(), GraphValueShape(vi, "input"));
      info_[vi.name()] = {ValueType::kFp16, plan_.inputs.back().second};
    }
    for (const auto& vi : g_.value_info()) declared_[vi.name()] = &vi;
    for (const auto& vi : g_.output()) declared_[vi.name()] = &vi;
    for (const auto& n : g_.node()) {
      for (const auto& in : n.input()) ++uses_[in];
    }
    for (const auto& o : g_.output()) ++uses_[o.name()];
    for (int i = 0; i < g_.node_size(); ++i) {
      if (fused_.count(i)) continue;
      LowerNode(i);
    }
    for (const auto& o : g_.output()) {
      auto it = info_.find(o.name());
      if (it == info_.end()) throw OnnxError(fmt::format("{}: output '{}' is made by no node", file_, o.name()));
      if (it->second.type != ValueType::kFp16) {
        throw OnnxError(fmt::format("{}: output '{}' is {} {} (shape arithmetic); the model's outputs must be fp16",
                                    file_, o.name(), ValueTypeName(it->second.type), Shape(it->second.shape)));
      }
      plan_.outputs.push_back(o.name());
    }
    if (!folded_.empty()) {
      std::string which;
      for (size_t k = 0; k < folded_.size() && k < 2; ++k) which += (k ? ", " : "") + folded_[k];
      plan_.notes.push_back(fmt::format(
          "{} BatchNormalization node{} folded into the Conv before {} ({}{}): its weights times scale = gamma / "
          "sqrt(var + eps), and bias = beta + (B - mean) scale, in fp64 from the fp32 parameters, each rounded once "
          "to fp16 (the weights carry the scale; the post-processor's N-3 bias)",
          folded_.size(), folded_.size() == 1 ? "" : "s", folded_.size() == 1 ? "it" : "each", which,
          folded_.size() > 2 ? ", ..." : ""));
    }
    if (rounded_ > 0) {
      plan_.notes.insert(plan_.notes.begin(),
                         fmt::format("{} fp32 constant{} (weights, biases, parameters) rounded to fp16 at the ANE's "
                                     "input boundary (N-1: RNE)",
                                     rounded_, rounded_ == 1 ? "" : "s"));
    }
    return std::move(plan_);
  }

 private:
  // ---------------------------------------------------------------- facts and errors
  std::string Label(int i) const {
    const NodeProto& n = g_.node(i);
    return n.name().empty() ? fmt::format("node #{} ({})", i, n.op_type())
                            : fmt::format("node '{}' ({})", n.name(), n.op_type());
  }
  [[noreturn]] void Refuse(int i, const std::string& why) const {
    throw OnnxError(fmt::format("{}: {}: {}", file_, Label(i), why));
  }

  std::vector<int64_t> GraphValueShape(const onnx::ValueInfoProto& vi, const char* what) {
    const auto& t = vi.type();
    if (!t.has_tensor_type()) {
      throw OnnxError(
          fmt::format("{}: {} '{}' is not a tensor (sequences and maps are not supported)", file_, what, vi.name()));
    }
    const int et = t.tensor_type().elem_type();
    if (et != onnx::TensorProto::FLOAT && et != onnx::TensorProto::FLOAT16 && et != onnx::TensorProto::DOUBLE) {
      throw OnnxError(
          fmt::format("{}: {} '{}' has element type {}; the model's inputs must be floating point "
                      "(float16, float, double: fp16 on the ANE)",
                      file_, what, vi.name(), et));
    }
    if (!t.tensor_type().has_shape()) {
      throw OnnxError(
          fmt::format("{}: {} '{}' has no shape (dynamic shapes are not supported)", file_, what, vi.name()));
    }
    std::vector<int64_t> shape;
    for (const auto& d : t.tensor_type().shape().dim()) {
      if (d.has_dim_value() && d.dim_value() > cli::kMaxElements) {
        throw OnnxError(fmt::format("{}: {} '{}' has a dimension of {}: more than 2^{} elements", file_, what,
                                    vi.name(), d.dim_value(), cli::kMaxElementsLog2));
      }
      if (!d.has_dim_value() || d.dim_value() <= 0) {
        throw OnnxError(fmt::format(
            "{}: {} '{}' has a dynamic dimension '{}' (a fixed size is needed: export the model with fixed shapes)",
            file_, what, vi.name(), d.has_dim_param() ? d.dim_param() : "?"));
      }
      shape.push_back(d.dim_value());
    }
    if (TooLarge(shape)) {
      throw OnnxError(fmt::format("{}: {} '{}' is {}: more than 2^{} elements", file_, what, vi.name(), Shape(shape),
                                  cli::kMaxElementsLog2));
    }
    return shape;
  }

  static bool TooLarge(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) {
      if (d > 0 && n > cli::kMaxElements / d) return true;
      n *= d;
    }
    return n > cli::kMaxElements;
  }

  void AddConstant(const std::string& name, const onnx::TensorProto& t, const char* what) {
    Converted c = FromTensorProto(t, fmt::format("{}: {} '{}'", file_, what, name));
    if (TooLarge(c.value.shape)) {
      throw OnnxError(fmt::format("{}: {} '{}' is {}: more than 2^{} elements", file_, what, name, Shape(c.value.shape),
                                  cli::kMaxElementsLog2));
    }
    if (c.rounded) {
      ++rounded_;
      f64_[name] = FloatValues(t, fmt::format("{}: {} '{}'", file_, what, name));
    }
    info_[name] = {c.value.type, c.value.shape};
    plan_.constants[name] = std::move(c.value);
  }

  const Info& InfoOf(int i, const std::string& v) const {
    auto it = info_.find(v);
    if (it == info_.end()) Refuse(i, fmt::format("input '{}' is made by no node before it", v));
    return it->second;
  }
  bool IsConst(const std::string& v) const { return plan_.constants.count(v) > 0; }
  const Value& Const(int i, const std::string& v, const char* what) const {
    auto it = plan_.constants.find(v);
    if (it == plan_.constants.end()) {
      Refuse(i, fmt::format("{} ('{}') is computed at run time; it must be a constant of the model", what, v));
    }
    return it->second;
  }
  // The values of a constant in fp64: the model's own fp32 numbers when it had them.
  std::vector<double> Doubles(int i, const std::string& v, const char* what) const {
    auto it = f64_.find(v);
    if (it != f64_.end()) return it->second;
    const Value& c = Const(i, v, what);
    std::vector<double> d;
    if (c.type == ValueType::kInt64) {
      for (int64_t x : c.i64) d.push_back(double(x));
    } else {
      for (uint16_t h : c.fp16) d.push_back(oracle::Fp16ToDouble(h));
    }
    return d;
  }
  std::vector<int64_t> Ints(int i, const std::string& v, const char* what) const {
    const Value& c = Const(i, v, what);
    if (c.type != ValueType::kInt64) Refuse(i, fmt::format("{} ('{}') must be integers", what, v));
    return c.i64;
  }

  // attributes
  const AttributeProto* Attr(int i, const char* name) const {
    for (const auto& a : g_.node(i).attribute()) {
      if (a.name() == name) return &a;
    }
    return nullptr;
  }
  int64_t AttrInt(int i, const char* name, int64_t def) const {
    const AttributeProto* a = Attr(i, name);
    return a ? a->i() : def;
  }
  float AttrFloat(int i, const char* name, float def) const {
    const AttributeProto* a = Attr(i, name);
    return a ? a->f() : def;
  }
  std::string AttrString(int i, const char* name, const std::string& def) const {
    const AttributeProto* a = Attr(i, name);
    return a ? a->s() : def;
  }
  std::vector<int64_t> AttrInts(int i, const char* name, std::vector<int64_t> def) const {
    const AttributeProto* a = Attr(i, name);
    return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : def;
  }
  // Refuses attributes the lowering does not know (so that none is silently ignored).
  void KnownAttrs(int i, std::initializer_list<const char*> known) const {
    for (const auto& a : g_.node(i).attribute()) {
      bool ok = false;
      for (const char* k : known) ok |= a.name() == k;
      if (!ok) Refuse(i, fmt::format("attribute '{}' is not supported", a.name()));
    }
  }
  int64_t Axis(int i, int64_t axis, size_t rank, bool insert = false) const {
    const int64_t r = int64_t(rank) + (insert ? 1 : 0);
    if (axis < -r || axis >= r) Refuse(i, fmt::format("axis {} is out of range for rank {}", axis, rank));
    return axis < 0 ? axis + r : axis;
  }
  // The node's inputs (empty names are absent optional inputs).
  std::string In(int i, int k) const {
    const NodeProto& n = g_.node(i);
    return k < n.input_size() ? n.input(k) : std::string();
  }
  // Refuses when an output past the first is used (MaxPool's indices, BatchNormalization's
  // running statistics, Dropout's mask).
  void OnlyFirstOutput(int i) const {
    const NodeProto& n = g_.node(i);
    for (int k = 1; k < n.output_size(); ++k) {
      if (!n.output(k).empty() && uses_.count(n.output(k))) {
        Refuse(i, fmt::format("output {} ('{}') is used; only the first output is supported", k, n.output(k)));
      }
    }
  }
  // The node that alone consumes value v, when it has type `type` and v is no graph output.
  int SoleConsumer(const std::string& v, const char* type) const {
    auto it = uses_.find(v);
    if (it == uses_.end() || it->second != 1) return -1;
    for (const auto& o : g_.output()) {
      if (o.name() == v) return -1;
    }
    for (int j = 0; j < g_.node_size(); ++j) {
      const NodeProto& n = g_.node(j);
      for (const auto& in : n.input()) {
        if (in == v) return n.op_type() == type ? j : -1;
      }
    }
    return -1;
  }

  // ---------------------------------------------------------------- emitting
  std::string Temp(const std::string& base) { return fmt::format("{}#{}", base, ++temps_); }

  void Define(int i, const std::string& out, const Info& info) {
    if (TooLarge(info.shape)) {
      Refuse(i,
             fmt::format("'{}' would be {}: more than 2^{} elements", out, Shape(info.shape), cli::kMaxElementsLog2));
    }
    auto d = declared_.find(out);
    if (d != declared_.end() && d->second->type().has_tensor_type() && d->second->type().tensor_type().has_shape()) {
      std::vector<int64_t> s;
      bool fixed = true;
      for (const auto& dim : d->second->type().tensor_type().shape().dim()) {
        fixed &= dim.has_dim_value();
        s.push_back(dim.dim_value());
      }
      if (fixed && s != info.shape) {
        Refuse(i, fmt::format("the lowering makes '{}' {} but ONNX shape inference says {}", out, Shape(info.shape),
                              Shape(s)));
      }
    }
    info_[out] = info;
  }

  // A data movement: folded into a constant when every argument is one.
  void EmitMove(int i, const std::string& label, const std::string& text,
                std::function<Value(const std::vector<const Value*>&)> fn, const std::vector<std::string>& args,
                const std::string& out, Step::MoveKind kind = Step::MoveKind::kOther, int64_t axis = 0) {
    bool all_const = true;
    for (const std::string& a : args) all_const &= IsConst(a);
    if (all_const) {
      std::vector<const Value*> vs;
      for (const std::string& a : args) vs.push_back(&plan_.constants.at(a));
      Value v = fn(vs);
      Define(i, out, {v.type, v.shape});
      plan_.constants[out] = std::move(v);
      return;
    }
    // the result's type and shape: the movement run on stand-ins
    std::vector<Value> stand;
    for (const std::string& a : args) stand.push_back(StandIn(a));
    std::vector<const Value*> vs;
    for (const Value& v : stand) vs.push_back(&v);
    const Value r = fn(vs);
    Define(i, out, {r.type, r.shape});
    Step s;
    s.node = label;
    s.move = std::move(fn);
    s.move_text = text;
    s.move_kind = kind;
    s.axis = axis;
    s.args = args;
    s.out = out;
    plan_.steps.push_back(std::move(s));
  }

  Value StandIn(const std::string& v) const {
    auto c = plan_.constants.find(v);
    if (c != plan_.constants.end()) return c->second;
    const Info& in = info_.at(v);
    Value s;
    s.type = in.type;
    s.shape = in.shape;
    if (in.type == ValueType::kFp16) {
      s.fp16.assign(size_t(Prod(in.shape)), 0);
    } else {
      s.i64.assign(size_t(Prod(in.shape)), 0);
    }
    return s;
  }

  // An operation of a family on fp16 values.
  void EmitOp(int i, const std::string& label, const YAML::Node& fields,
              const std::vector<std::pair<std::string, std::string>>& bind, const std::string& out) {
    std::map<std::string, cli::BuiltInput> ins;
    for (const auto& [name, v] : bind) {
      if (InfoOf(i, v).type != ValueType::kFp16) {
        Refuse(i, fmt::format("input '{}' is integer data; the engine computes on fp16", v));
      }
      cli::BuiltInput b;
      b.tensor.tensor = ToTensor(StandIn(v));
      b.tensor.origin = v;
      b.where = fmt::format("{} input '{}'", label, v);
      ins.emplace(name, std::move(b));
    }
    // An elementwise operation runs through the planar engine's result converter, as every planar
    // task does (A18: y = RNE16(RNE16(f x Post.Scale) + Post.Bias)); the lowering's has scale 1.0
    // and bias +0, so that a -0 result is +0 (N-4.2) exactly as in a compiled program.
    YAML::Node f = YAML::Clone(fields);
    if (f["op"].as<std::string>() == "elementwise" && !f["scale"].IsDefined() && !f["bias"].IsDefined()) {
      f["scale"] = 1.0;
      f["bias"] = 0.0;
    }
    cli::Operation op = cli::BuildOperation(file_, label, f, std::move(ins));
    const cli::OpFamily& fam = cli::FamilyOf(op);
    if (engine_ != cli::Engine::kOracle) {
      const std::string bad = fam.rtl_check ? fam.rtl_check(op) : std::string("there is no RTL engine for ") + op.op;
      if (!bad.empty()) {
        throw OnnxError(fmt::format("{}: {}: --engine {}: {}", file_, label, cli::EngineName(engine_), bad));
      }
    }
    for (const auto& [name, v] : bind) {
      if (!IsConst(v)) op.inputs.at(name).tensor.bits.clear();  // a stand-in: the run puts the value in
    }
    const cli::TensorType& y = op.outputs.at("y");
    if (y.dtype != cli::DType::kFp16) throw std::logic_error("EmitOp: a result that is not fp16");
    Define(i, out, {ValueType::kFp16, y.shape});
    Step s;
    s.node = label;
    s.is_op = true;
    s.op = std::move(op);
    s.bind = bind;
    s.out = out;
    plan_.steps.push_back(std::move(s));
  }

  // v in another shape of the same count (no step when the shape is already that).
  std::string View(int i, const std::string& label, const std::string& v, const std::vector<int64_t>& shape,
                   const std::string& out = "") {
    const Info& in = InfoOf(i, v);
    if (in.shape == shape && out.empty()) return v;
    const std::string o = out.empty() ? Temp(v) : out;
    EmitMove(
        i, label, fmt::format("reshape {} -> {}", Shape(in.shape), Shape(shape)),
        [shape](const std::vector<const Value*>& a) { return Reshaped(*a[0], shape); }, {v}, o,
        Step::MoveKind::kReshape);
    return o;
  }
  std::string Expand(int i, const std::string& label, const std::string& v, const std::vector<int64_t>& shape) {
    const Info& in = InfoOf(i, v);
    if (in.shape == shape) return v;
    const std::string o = Temp(v);
    EmitMove(
        i, label, fmt::format("broadcast {} -> {}", Shape(in.shape), Shape(shape)),
        [shape](const std::vector<const Value*>& a) { return Expanded(*a[0], shape); }, {v}, o);
    return o;
  }
  std::string Transpose(int i, const std::string& label, const std::string& v, const std::vector<int64_t>& perm) {
    const Info& in = InfoOf(i, v);
    const std::string o = Temp(v);
    EmitMove(
        i, label, fmt::format("transpose {} perm {}", Shape(in.shape), Shape(perm)),
        [perm](const std::vector<const Value*>& a) { return Permute(*a[0], perm); }, {v}, o);
    return o;
  }
  // Item k of axis 0 of v, without that axis.
  std::string Take(int i, const std::string& label, const std::string& v, int64_t k) {
    const Info& in = InfoOf(i, v);
    std::vector<int64_t> shape(in.shape.begin() + 1, in.shape.end());
    const std::string o = Temp(v);
    EmitMove(
        i, label, fmt::format("item {} of {}", k, Shape(in.shape)),
        [k, shape](const std::vector<const Value*>& a) {
          Value idx;
          idx.type = ValueType::kInt64;
          idx.i64 = {k};
          return Gathered(*a[0], 0, idx);
        },
        {v}, o);
    return o;
  }
  // The parts stacked along a new axis 0.
  void Stack(int i, const std::string& label, const std::vector<std::string>& parts, const std::string& out) {
    const std::vector<int64_t> one = InfoOf(i, parts[0]).shape;
    std::vector<int64_t> shape = one;
    shape.insert(shape.begin(), int64_t(parts.size()));
    EmitMove(
        i, label, fmt::format("stack {} x {}", parts.size(), Shape(one)),
        [shape](const std::vector<const Value*>& a) {
          std::vector<int64_t> s1 = a[0]->shape;
          s1.insert(s1.begin(), 1);
          std::vector<Value> views;
          for (const Value* p : a) views.push_back(Reshaped(*p, s1));
          std::vector<const Value*> ps;
          for (const Value& p : views) ps.push_back(&p);
          return Concat(ps, 0);
        },
        parts, out);
  }

  // Runs `one` (an operation on a value without the batch axis, returning its result) on each
  // item of axis 0 of x and stacks the results into `out`; one item runs without a copy.
  template <class One>
  void PerItem(int i, const std::string& label, const std::string& x, const std::string& out, One one) {
    const Info& in = InfoOf(i, x);
    const int64_t n = in.shape[0];
    if (n == 1) {
      std::vector<int64_t> s(in.shape.begin() + 1, in.shape.end());
      const std::string y = one(View(i, label, x, s));
      std::vector<int64_t> ys = InfoOf(i, y).shape;
      ys.insert(ys.begin(), 1);
      View(i, label, y, ys, out);
      return;
    }
    std::vector<std::string> parts;
    for (int64_t k = 0; k < n; ++k) parts.push_back(one(Take(i, label, x, k)));
    Stack(i, label, parts, out);
  }

  // ---------------------------------------------------------------- the nodes
  void LowerNode(int i) {
    const NodeProto& n = g_.node(i);
    if (!n.domain().empty() && n.domain() != "ai.onnx") {
      Refuse(i, fmt::format("operator domain '{}' is not supported (only the default ONNX domain)", n.domain()));
    }
    const std::string& t = n.op_type();
    const std::string label = Label(i);
    static const std::map<std::string, const char*> kActivations = {
        {"Sigmoid", "sigmoid"}, {"Tanh", "tanh"}, {"Erf", "erf"},           {"Exp", "exp"},
        {"Log", "log"},         {"Sqrt", "sqrt"}, {"Softplus", "softplus"}, {"Softsign", "softsign"},
        {"Sin", "sin"},         {"Cos", "cos"},   {"Reciprocal", "recip"}};
    static const std::map<std::string, const char*> kBinary = {
        {"Add", "add"}, {"Sub", "sub"}, {"Mul", "mul"}, {"Max", "max"}, {"Min", "min"}};
    if (t == "Constant") return LowerConstant(i);
    if (t == "Identity" || t == "Dropout") return LowerIdentity(i);
    if (t == "Shape") return LowerShape(i);
    if (t == "Size") return LowerSize(i);
    if (t == "Reshape") return LowerReshape(i);
    if (t == "Flatten") return LowerFlatten(i);
    if (t == "Squeeze" || t == "Unsqueeze") return LowerSqueeze(i, t == "Unsqueeze");
    if (t == "Transpose") return LowerTranspose(i);
    if (t == "Concat") return LowerConcat(i);
    if (t == "Gather") return LowerGather(i);
    if (t == "Slice") return LowerSlice(i);
    if (t == "Expand") return LowerExpand(i);
    if (t == "Pad") return LowerPad(i);
    if (t == "Cast") return LowerCast(i);
    if (t == "ConstantOfShape") return LowerConstantOfShape(i);
    if (t == "Conv") return LowerConv(i);
    if (t == "ConvTranspose") return LowerConvTranspose(i);
    if (t == "Gemm") return LowerGemm(i);
    if (t == "MatMul") return LowerMatMul(i);
    if (t == "BatchNormalization") return LowerBatchNorm(i);
    if (t == "Relu" || t == "Abs" || t == "Neg") {
      KnownAttrs(i, {});
      if (IntConstInputs(i)) return FoldIntUnary(i);
      YAML::Node f;
      f["op"] = "elementwise";
      f["function"] = t == "Relu" ? "relu" : t == "Abs" ? "abs" : "neg";
      return EmitOp(i, label, f, {{"x", In(i, 0)}}, n.output(0));
    }
    if (t == "Gelu") {
      KnownAttrs(i, {"approximate"});
      if (AttrString(i, "approximate", "none") != "none") {
        Refuse(i, "approximate='tanh' is not supported (the ANE's gelu table is the erf form)");
      }
      return Activation(i, label, "gelu", In(i, 0), n.output(0));
    }
    if (auto a = kActivations.find(t); a != kActivations.end()) {
      KnownAttrs(i, {});
      return Activation(i, label, a->second, In(i, 0), n.output(0));
    }
    if (auto b = kBinary.find(t); b != kBinary.end()) {
      KnownAttrs(i, {"broadcast", "axis", "consumed_inputs"});
      if (IntConstInputs(i)) return FoldIntBinary(i);
      if (n.input_size() == 1) return LowerIdentity(i);
      std::string acc = In(i, 0);
      for (int k = 1; k < n.input_size(); ++k) {
        const std::string out = k + 1 == n.input_size() ? n.output(0) : Temp(n.output(0));
        Binary(i, label, b->second, acc, OldBroadcast(i, acc, In(i, k)), out);
        acc = out;
      }
      return;
    }
    if (t == "Sum") {
      KnownAttrs(i, {});
      if (n.input_size() == 1) return LowerIdentity(i);
      std::string acc = In(i, 0);
      for (int k = 1; k < n.input_size(); ++k) {
        const std::string out = k + 1 == n.input_size() ? n.output(0) : Temp(n.output(0));
        Binary(i, label, "add", acc, In(i, k), out);
        acc = out;
      }
      return;
    }
    if (t == "Div") {
      KnownAttrs(i, {"broadcast", "axis", "consumed_inputs"});
      if (IntConstInputs(i)) return FoldIntBinary(i);
      const std::string r = Temp(In(i, 1));
      Activation(i, label, "recip", OldBroadcast(i, In(i, 0), In(i, 1)), r);
      note_div_ = true;
      return Binary(i, label, "mul", In(i, 0), r, n.output(0));
    }
    if (t == "Clip") return LowerClip(i);
    if (t == "MaxPool" || t == "AveragePool") return LowerPool(i, t == "MaxPool");
    if (t == "GlobalAveragePool" || t == "GlobalMaxPool") return LowerGlobalPool(i, t == "GlobalMaxPool");
    if (t == "ReduceSum" || t == "ReduceMax" || t == "ReduceMin" || t == "ReduceMean") return LowerReduce(i);
    if (t == "Softmax") return LowerSoftmax(i);
    Refuse(i, fmt::format("operator {} is not supported (docs/onnx.md lists the operators the model lowers)", t));
  }

  // Before opset 7, B of an arithmetic node broadcasts to A only with broadcast = 1, aligned at
  // `axis` (default: its trailing axes): B as numpy's rule sees it, trailing 1s added.
  std::string OldBroadcast(int i, const std::string& a, const std::string& b) {
    if (AttrInt(i, "broadcast", 0) == 0) return b;
    const std::vector<int64_t> as = InfoOf(i, a).shape, bs = InfoOf(i, b).shape;
    const int64_t r = int64_t(as.size());
    const int64_t axis = Attr(i, "axis") ? AttrInt(i, "axis", 0) : r - int64_t(bs.size());
    const int64_t ax = axis < 0 ? axis + r : axis;
    if (ax < 0 || ax + int64_t(bs.size()) > r) Refuse(i, fmt::format("broadcast axis {} does not fit", axis));
    std::vector<int64_t> shape = bs;
    shape.resize(size_t(r - ax), 1);
    return View(i, Label(i), b, shape);
  }

  // ---- constants and shape arithmetic
  void LowerConstant(int i) {
    const NodeProto& n = g_.node(i);
    if (n.attribute_size() != 1) Refuse(i, "a Constant needs exactly one value attribute");
    const AttributeProto& a = n.attribute(0);
    if (a.name() == "value") return AddConstant(n.output(0), a.t(), "Constant");
    Value v;
    if (a.name() == "value_float" || a.name() == "value_floats") {
      std::vector<double> d;
      if (a.name() == "value_float") {
        d.push_back(a.f());
      } else {
        d.assign(a.floats().begin(), a.floats().end());
        v.shape = {int64_t(d.size())};
      }
      for (double x : d) {
        const float f = float(x);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        v.fp16.push_back(oracle::Fp32ToFp16(u));
      }
      f64_[n.output(0)] = d;
      ++rounded_;
    } else if (a.name() == "value_int" || a.name() == "value_ints") {
      v.type = ValueType::kInt64;
      if (a.name() == "value_int") {
        v.i64.push_back(a.i());
      } else {
        v.i64.assign(a.ints().begin(), a.ints().end());
        v.shape = {int64_t(v.i64.size())};
      }
    } else {
      Refuse(i, fmt::format("Constant attribute '{}' is not supported", a.name()));
    }
    info_[n.output(0)] = {v.type, v.shape};
    plan_.constants[n.output(0)] = std::move(v);
  }

  void LowerConstantOfShape(int i) {
    KnownAttrs(i, {"value"});
    const std::vector<int64_t> shape = Ints(i, In(i, 0), "the shape");
    for (int64_t d : shape) {
      if (d < 0) Refuse(i, fmt::format("negative dimension {}", d));
    }
    Value fill;
    fill.fp16 = {0};
    if (const AttributeProto* a = Attr(i, "value")) {
      fill = FromTensorProto(a->t(), fmt::format("{}: {} value", file_, Label(i))).value;
    }
    if (fill.Count() != 1) Refuse(i, "value must hold one element");
    fill.shape = {};
    const std::string& out = g_.node(i).output(0);
    Value v = Expanded(fill, shape);
    info_[out] = {v.type, v.shape};
    plan_.constants[out] = std::move(v);
  }

  bool IntConstInputs(int i) const {
    const NodeProto& n = g_.node(i);
    for (const auto& in : n.input()) {
      auto it = plan_.constants.find(in);
      if (it == plan_.constants.end() || it->second.type != ValueType::kInt64) return false;
    }
    return n.input_size() > 0;
  }
  void FoldIntUnary(int i) {
    const NodeProto& n = g_.node(i);
    Value v = plan_.constants.at(n.input(0));
    for (int64_t& x : v.i64)
      x = n.op_type() == "Neg" ? -x : n.op_type() == "Abs" ? std::llabs(x) : std::max<int64_t>(x, 0);
    info_[n.output(0)] = {v.type, v.shape};
    plan_.constants[n.output(0)] = std::move(v);
  }
  void FoldIntBinary(int i) {
    const NodeProto& n = g_.node(i);
    if (n.input_size() != 2) Refuse(i, "integer arithmetic on more than two inputs is not supported");
    const Value& a = plan_.constants.at(n.input(0));
    const Value& b = plan_.constants.at(n.input(1));
    bool ok = false;
    const std::vector<int64_t> shape = BroadcastShape(a.shape, b.shape, &ok);
    if (!ok) Refuse(i, fmt::format("shapes {} and {} do not broadcast", Shape(a.shape), Shape(b.shape)));
    const Value ea = Expanded(a, shape), eb = Expanded(b, shape);
    Value v = ea;
    const std::string& t = n.op_type();
    for (size_t k = 0; k < v.i64.size(); ++k) {
      const int64_t x = ea.i64[k], y = eb.i64[k];
      if (t == "Div" && y == 0) Refuse(i, "integer division by zero");
      v.i64[k] = t == "Add"   ? x + y
                 : t == "Sub" ? x - y
                 : t == "Mul" ? x * y
                 : t == "Div" ? x / y
                 : t == "Max" ? std::max(x, y)
                              : std::min(x, y);
    }
    info_[n.output(0)] = {v.type, v.shape};
    plan_.constants[n.output(0)] = std::move(v);
  }

  void LowerIdentity(int i) {
    KnownAttrs(i, {"seed", "ratio"});
    const NodeProto& n = g_.node(i);
    if (n.op_type() == "Dropout") {
      if (n.input_size() > 2 && !n.input(2).empty()) {
        const std::vector<int64_t> tm = Ints(i, n.input(2), "training_mode");
        if (!tm.empty() && tm[0] != 0) Refuse(i, "training_mode is on; the ANE runs inference");
      }
    }
    OnlyFirstOutput(i);
    const std::string& x = n.input(0);
    View(i, Label(i), x, InfoOf(i, x).shape, n.output(0));
  }

  void LowerShape(int i) {
    KnownAttrs(i, {"start", "end"});
    const NodeProto& n = g_.node(i);
    const std::vector<int64_t>& s = InfoOf(i, n.input(0)).shape;
    const int64_t r = int64_t(s.size());
    auto clamp = [r](int64_t a) { return std::clamp<int64_t>(a < 0 ? a + r : a, 0, r); };
    const int64_t b = clamp(AttrInt(i, "start", 0)), e = clamp(AttrInt(i, "end", r));
    Value v;
    v.type = ValueType::kInt64;
    for (int64_t k = b; k < e; ++k) v.i64.push_back(s[size_t(k)]);
    v.shape = {int64_t(v.i64.size())};
    info_[n.output(0)] = {v.type, v.shape};
    plan_.constants[n.output(0)] = std::move(v);
  }
  void LowerSize(int i) {
    KnownAttrs(i, {});
    const NodeProto& n = g_.node(i);
    Value v;
    v.type = ValueType::kInt64;
    v.i64 = {Prod(InfoOf(i, n.input(0)).shape)};
    info_[n.output(0)] = {v.type, v.shape};
    plan_.constants[n.output(0)] = std::move(v);
  }

  // ---- data movement
  void LowerReshape(int i) {
    KnownAttrs(i, {"allowzero"});
    const NodeProto& n = g_.node(i);
    const std::vector<int64_t>& in = InfoOf(i, n.input(0)).shape;
    std::vector<int64_t> shape = Ints(i, In(i, 1), "the target shape");
    const bool allowzero = AttrInt(i, "allowzero", 0) != 0;
    int infer = -1;
    int64_t known = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] == 0 && !allowzero) {
        if (k >= in.size()) Refuse(i, fmt::format("target dimension {} copies an input axis that does not exist", k));
        shape[k] = in[k];
      }
      if (shape[k] == -1) {
        if (infer >= 0) Refuse(i, "more than one -1 in the target shape");
        infer = int(k);
      } else if (shape[k] < 0) {
        Refuse(i, fmt::format("target dimension {}", shape[k]));
      } else {
        known *= shape[k];
      }
    }
    if (infer >= 0) {
      if (known == 0 || Prod(in) % known != 0)
        Refuse(i, fmt::format("cannot reshape {} to {}", Shape(in), Shape(shape)));
      shape[size_t(infer)] = Prod(in) / known;
    }
    if (Prod(shape) != Prod(in)) Refuse(i, fmt::format("cannot reshape {} to {}", Shape(in), Shape(shape)));
    View(i, Label(i), n.input(0), shape, n.output(0));
  }
  void LowerFlatten(int i) {
    KnownAttrs(i, {"axis"});
    const NodeProto& n = g_.node(i);
    const std::vector<int64_t>& in = InfoOf(i, n.input(0)).shape;
    const int64_t r = int64_t(in.size());
    int64_t axis = AttrInt(i, "axis", 1);
    if (axis < -r || axis > r) Refuse(i, fmt::format("axis {} is out of range for rank {}", axis, r));
    if (axis < 0) axis += r;
    View(i, Label(i), n.input(0), {Prod(in, 0, size_t(axis)), Prod(in, size_t(axis))}, n.output(0));
  }
  void LowerSqueeze(int i, bool unsqueeze) {
    KnownAttrs(i, {"axes"});
    const NodeProto& n = g_.node(i);
    const std::vector<int64_t>& in = InfoOf(i, n.input(0)).shape;
    std::vector<int64_t> axes;
    if (n.input_size() > 1 && !n.input(1).empty()) {
      axes = Ints(i, n.input(1), "axes");
    } else {
      axes = AttrInts(i, "axes", {});
    }
    std::vector<int64_t> shape;
    if (unsqueeze) {
      const size_t r = in.size() + axes.size();
      std::set<int64_t> at;
      for (int64_t a : axes) {
        const int64_t ax = a < 0 ? a + int64_t(r) : a;
        if (ax < 0 || ax >= int64_t(r) || !at.insert(ax).second) Refuse(i, fmt::format("bad axis {}", a));
      }
      size_t k = 0;
      for (size_t d = 0; d < r; ++d) shape.push_back(at.count(int64_t(d)) ? 1 : in[k++]);
    } else {
      std::set<int64_t> at;
      for (int64_t a : axes) at.insert(Axis(i, a, in.size()));
      for (size_t d = 0; d < in.size(); ++d) {
        const bool drop = axes.empty() ? in[d] == 1 : at.count(int64_t(d)) > 0;
        if (drop && in[d] != 1) Refuse(i, fmt::format("axis {} has size {}, not 1", d, in[d]));
        if (!drop) shape.push_back(in[d]);
      }
    }
    View(i, Label(i), n.input(0), shape, n.output(0));
  }
  void LowerTranspose(int i) {
    KnownAttrs(i, {"perm"});
    const NodeProto& n = g_.node(i);
    const size_t r = InfoOf(i, n.input(0)).shape.size();
    std::vector<int64_t> def;
    for (size_t k = r; k-- > 0;) def.push_back(int64_t(k));
    const std::vector<int64_t> perm = AttrInts(i, "perm", def);
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (size_t k = 0; k < sorted.size(); ++k) {
      if (sorted.size() != r || sorted[k] != int64_t(k))
        Refuse(i, fmt::format("perm {} is not a permutation", Shape(perm)));
    }
    EmitMove(
        i, Label(i), fmt::format("transpose {} perm {}", Shape(InfoOf(i, n.input(0)).shape), Shape(perm)),
        [perm](const std::vector<const Value*>& a) { return Permute(*a[0], perm); }, {n.input(0)}, n.output(0));
  }
  void LowerConcat(int i) {
    KnownAttrs(i, {"axis"});
    const NodeProto& n = g_.node(i);
    const Info& first = InfoOf(i, n.input(0));
    const int64_t axis = Axis(i, AttrInt(i, "axis", 0), first.shape.size());
    std::vector<std::string> args;
    for (const auto& in : n.input()) {
      const Info& info = InfoOf(i, in);
      if (info.type != first.type || info.shape.size() != first.shape.size()) {
        Refuse(i, fmt::format("input '{}' is {} {}, unlike the first ({} {})", in, ValueTypeName(info.type),
                              Shape(info.shape), ValueTypeName(first.type), Shape(first.shape)));
      }
      for (size_t d = 0; d < info.shape.size(); ++d) {
        if (int64_t(d) != axis && info.shape[d] != first.shape[d]) {
          Refuse(i, fmt::format("input '{}' {} does not match {} off axis {}", in, Shape(info.shape),
                                Shape(first.shape), axis));
        }
      }
      args.push_back(in);
    }
    EmitMove(
        i, Label(i), fmt::format("concat {} inputs on axis {}", args.size(), axis),
        [axis](const std::vector<const Value*>& a) { return Concat(a, axis); }, args, n.output(0),
        Step::MoveKind::kConcat, axis);
  }
  void LowerGather(int i) {
    KnownAttrs(i, {"axis"});
    const NodeProto& n = g_.node(i);
    const Info& data = InfoOf(i, n.input(0));
    const int64_t axis = Axis(i, AttrInt(i, "axis", 0), data.shape.size());
    Value idx = Const(i, n.input(1), "the indices");
    if (idx.type != ValueType::kInt64) Refuse(i, "the indices must be integers");
    const int64_t len = data.shape[size_t(axis)];
    for (int64_t& k : idx.i64) {
      if (k < -len || k >= len) Refuse(i, fmt::format("index {} is out of range for an axis of {}", k, len));
      if (k < 0) k += len;
    }
    EmitMove(
        i, Label(i), fmt::format("gather {} items of axis {}", idx.Count(), axis),
        [axis, idx](const std::vector<const Value*>& a) { return Gathered(*a[0], axis, idx); }, {n.input(0)},
        n.output(0));
  }
  void LowerSlice(int i) {
    KnownAttrs(i, {"starts", "ends", "axes"});
    const NodeProto& n = g_.node(i);
    const std::vector<int64_t>& in = InfoOf(i, n.input(0)).shape;
    std::vector<int64_t> starts, ends, axes, steps;
    if (opset_ < 10) {
      starts = AttrInts(i, "starts", {});
      ends = AttrInts(i, "ends", {});
      axes = AttrInts(i, "axes", {});
    } else {
      starts = Ints(i, In(i, 1), "starts");
      ends = Ints(i, In(i, 2), "ends");
      if (!In(i, 3).empty()) axes = Ints(i, In(i, 3), "axes");
      if (!In(i, 4).empty()) steps = Ints(i, In(i, 4), "steps");
    }
    if (axes.empty()) {
      for (size_t k = 0; k < starts.size(); ++k) axes.push_back(int64_t(k));
    }
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size()) {
      Refuse(i, "starts, ends, axes and steps differ in length");
    }
    std::vector<int64_t> b(in.size(), 0), e(in), st(in.size(), 1);
    for (size_t k = 0; k < axes.size(); ++k) {
      const int64_t a = Axis(i, axes[k], in.size());
      const int64_t d = in[size_t(a)];
      if (steps[k] == 0) Refuse(i, "a step of 0");
      st[size_t(a)] = steps[k];
      int64_t s0 = starts[k] < 0 ? starts[k] + d : starts[k];
      int64_t e0 = ends[k] < 0 ? ends[k] + d : ends[k];
      if (steps[k] > 0) {
        s0 = std::clamp<int64_t>(s0, 0, d);
        e0 = std::clamp<int64_t>(e0, 0, d);
      } else {
        s0 = std::clamp<int64_t>(s0, 0, d - 1);
        e0 = std::clamp<int64_t>(e0, -1, d - 1);
      }
      b[size_t(a)] = s0;
      e[size_t(a)] = e0;
    }
    EmitMove(
        i, Label(i), fmt::format("slice {}", Shape(in)),
        [b, e, st](const std::vector<const Value*>& a) { return Sliced(*a[0], b, e, st); }, {n.input(0)}, n.output(0));
  }
  void LowerExpand(int i) {
    KnownAttrs(i, {});
    const NodeProto& n = g_.node(i);
    const std::vector<int64_t>& in = InfoOf(i, n.input(0)).shape;
    bool ok = false;
    const std::vector<int64_t> shape = BroadcastShape(in, Ints(i, In(i, 1), "the shape"), &ok);
    if (!ok) Refuse(i, fmt::format("{} does not broadcast to the shape given", Shape(in)));
    EmitMove(
        i, Label(i), fmt::format("broadcast {} -> {}", Shape(in), Shape(shape)),
        [shape](const std::vector<const Value*>& a) { return Expanded(*a[0], shape); }, {n.input(0)}, n.output(0));
  }
  void LowerPad(int i) {
    KnownAttrs(i, {"mode", "pads", "value"});
    const NodeProto& n = g_.node(i);
    if (AttrString(i, "mode", "constant") != "constant") {
      Refuse(i, fmt::format("mode '{}' is not supported (constant only)", AttrString(i, "mode", "")));
    }
    const Info& x = InfoOf(i, n.input(0));
    const size_t r = x.shape.size();
    std::vector<int64_t> pads = opset_ < 11 ? AttrInts(i, "pads", {}) : Ints(i, In(i, 1), "pads");
    std::vector<int64_t> axes;
    if (!In(i, 3).empty()) axes = Ints(i, In(i, 3), "axes");
    if (axes.empty()) {
      for (size_t k = 0; k < r; ++k) axes.push_back(int64_t(k));
    }
    if (pads.size() != 2 * axes.size())
      Refuse(i, fmt::format("pads has {} values for {} axes", pads.size(), axes.size()));
    std::vector<int64_t> before(r, 0), after(r, 0);
    for (size_t k = 0; k < axes.size(); ++k) {
      const int64_t a = Axis(i, axes[k], r);
      before[size_t(a)] = pads[k];
      after[size_t(a)] = pads[k + axes.size()];
      if (pads[k] < 0 || pads[k + axes.size()] < 0) Refuse(i, "negative pads (cropping) are not supported");
    }
    uint16_t fill16 = 0;
    int64_t fill64 = 0;
    if (opset_ < 11) {
      const float f = AttrFloat(i, "value", 0.0f);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      fill16 = oracle::Fp32ToFp16(u);
      fill64 = int64_t(f);
    } else if (!In(i, 2).empty()) {
      const Value& c = Const(i, In(i, 2), "constant_value");
      if (c.Count() != 1) Refuse(i, "constant_value must hold one element");
      if (c.type == ValueType::kFp16) {
        fill16 = c.fp16[0];
      } else {
        fill64 = c.i64[0];
      }
    }
    EmitMove(
        i, Label(i), fmt::format("pad {}", Shape(x.shape)),
        [before, after, fill16, fill64](const std::vector<const Value*>& a) {
          return Padded(*a[0], before, after, fill16, fill64);
        },
        {n.input(0)}, n.output(0));
  }
  void LowerCast(int i) {
    KnownAttrs(i, {"to", "saturate"});
    const NodeProto& n = g_.node(i);
    const int to = int(AttrInt(i, "to", 0));
    const Info& x = InfoOf(i, n.input(0));
    const bool to_float =
        to == onnx::TensorProto::FLOAT || to == onnx::TensorProto::FLOAT16 || to == onnx::TensorProto::DOUBLE;
    const bool to_int = to == onnx::TensorProto::INT64 || to == onnx::TensorProto::INT32;
    if ((to_float && x.type == ValueType::kFp16) || (to_int && x.type == ValueType::kInt64)) {
      View(i, Label(i), n.input(0), x.shape, n.output(0));
      return;
    }
    if (to_float && IsConst(n.input(0))) {  // integers of the model as fp16 values
      Value v;
      v.shape = x.shape;
      for (int64_t k : plan_.constants.at(n.input(0)).i64) v.fp16.push_back(oracle::DoubleToFp16(double(k)));
      info_[n.output(0)] = {v.type, v.shape};
      plan_.constants[n.output(0)] = std::move(v);
      return;
    }
    Refuse(i, fmt::format("a cast of {} data to element type {} is not supported", ValueTypeName(x.type), to));
  }

  // ---- the numeric operators
  void Activation(int i, const std::string& label, const char* fn, const std::string& x, const std::string& out) {
    YAML::Node f;
    f["op"] = "activation";
    f["function"] = fn;
    EmitOp(i, label, f, {{"x", x}}, out);
  }

  // a fn b with numpy's broadcasting, as one elementwise operation of the planar engine (b
  // broadcast along at most three axes; otherwise broadcast by data movement first).
  void Binary(int i, const std::string& label, const std::string& fn, std::string a, std::string b,
              const std::string& out) {
    bool ok = false;
    const std::vector<int64_t> s = BroadcastShape(InfoOf(i, a).shape, InfoOf(i, b).shape, &ok);
    if (!ok) {
      Refuse(i, fmt::format("shapes {} and {} do not broadcast", Shape(InfoOf(i, a).shape), Shape(InfoOf(i, b).shape)));
    }
    const bool commutes = fn == "add" || fn == "mul" || fn == "max" || fn == "min";
    if (InfoOf(i, a).shape != s) {
      if (commutes && InfoOf(i, b).shape == s) {
        std::swap(a, b);
      } else {
        a = Expand(i, label, a, s);
      }
    }
    YAML::Node f;
    f["op"] = "elementwise";
    f["function"] = fn;
    const std::vector<int64_t> bs = InfoOf(i, b).shape;
    if (bs == s) return EmitOp(i, label, f, {{"a", a}, {"b", b}}, out);
    // merge neighbouring axes that b broadcasts alike: [N, C, H, W] + [C, 1, 1] is [N, C, HW] + [C, 1]
    // (no merged axis past the planar engine's 16383 per dimension: [96, 256] + [1] stays so)
    std::vector<int64_t> bp(s.size() - bs.size(), 1);
    bp.insert(bp.end(), bs.begin(), bs.end());
    std::vector<int64_t> sm, bm;
    int last = -1;  // the broadcast flag of the last kept axis
    for (size_t k = 0; k < s.size(); ++k) {
      if (s[k] == 1) continue;
      const int flag = bp[k] == 1 ? 1 : 0;
      if (flag == last && sm.back() * s[k] <= kPlanarAxis) {
        sm.back() *= s[k];
        bm.back() *= bp[k];
      } else {
        sm.push_back(s[k]);
        bm.push_back(bp[k]);
      }
      last = flag;
    }
    if (sm.empty()) {
      sm = {1};
      bm = {1};
    }
    if (sm.size() > 3) {  // broadcast b by data movement
      return EmitOp(i, label, f, {{"a", a}, {"b", Expand(i, label, b, s)}}, out);
    }
    const std::string av = View(i, label, a, sm), bv = View(i, label, b, bm);
    if (sm == s) return EmitOp(i, label, f, {{"a", av}, {"b", bv}}, out);
    const std::string y = Temp(out);
    EmitOp(i, label, f, {{"a", av}, {"b", bv}}, y);
    View(i, label, y, s, out);
  }

  // Conv (+ BatchNormalization) (+ Relu) as one conv2d on the core.
  void LowerConv(int i) {
    KnownAttrs(i, {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
    const NodeProto& n = g_.node(i);
    std::string label = Label(i);
    const std::string& x = n.input(0);
    const std::string& w = n.input(1);
    const std::string b = In(i, 2);
    const Info& xi = InfoOf(i, x);
    const size_t rank = xi.shape.size();
    if (rank != 3 && rank != 4) {
      Refuse(i, fmt::format("a {}-D input: the core runs 1-D ([N, C, L]) and 2-D ([N, C, H, W]) convolutions", rank));
    }
    const Value& wv = Const(i, w, "the weights W");
    if (wv.type != ValueType::kFp16 || wv.shape.size() != rank)
      Refuse(i, "the weights must be floating point of the input's rank");
    const size_t sp = rank - 2;  // spatial axes
    std::vector<int64_t> kernel(wv.shape.begin() + 2, wv.shape.end());
    if (const AttributeProto* a = Attr(i, "kernel_shape")) {
      if (std::vector<int64_t>(a->ints().begin(), a->ints().end()) != kernel) {
        Refuse(i, fmt::format("kernel_shape differs from the weights' {}", Shape(kernel)));
      }
    }
    const std::vector<int64_t> strides = AttrInts(i, "strides", std::vector<int64_t>(sp, 1));
    const std::vector<int64_t> dil = AttrInts(i, "dilations", std::vector<int64_t>(sp, 1));
    std::vector<int64_t> pads = AttrInts(i, "pads", std::vector<int64_t>(2 * sp, 0));
    if (strides.size() != sp || dil.size() != sp || pads.size() != 2 * sp)
      Refuse(i, "strides, dilations or pads of the wrong length");
    AutoPad(i, xi.shape, kernel, strides, dil, &pads);
    const int64_t group = AttrInt(i, "group", 1);
    // fusions
    std::string y = n.output(0);
    std::vector<double> scale, bias;
    bool bn_bias = false;  // the bias is the normalization's (folded), not the model's B
    const int64_t cout = wv.shape[0];
    if (!b.empty()) bias = Doubles(i, b, "the bias B");
    const int bn = SoleConsumer(y, "BatchNormalization");
    if (bn >= 0 && BatchNormFoldable(bn)) {
      std::vector<double> s, t;
      BatchNormParams(bn, cout, &s, &t);
      scale = s;
      if (bias.empty()) bias.assign(size_t(cout), 0.0);
      for (int64_t c = 0; c < cout; ++c) bias[size_t(c)] = t[size_t(c)] + bias[size_t(c)] * s[size_t(c)];
      label += " + " + Label(bn);
      folded_.push_back(Label(bn) + " into " + Label(i));
      fused_.insert(bn);
      y = g_.node(bn).output(0);
    }
    std::string wsrc = w;  // the weights the conv takes: the model's, or with the scale folded in
    if (!scale.empty()) {
      // the normalization's scale folds into the weights (the ANE's compilers fold it so; a TD
      // has one post scale, not one per channel): w s per output channel in fp64 from the
      // model's own (fp32) weights, rounded once to fp16
      const std::vector<double> wd = Doubles(i, w, "the weights W");
      const size_t per = wd.size() / size_t(cout);
      std::vector<uint16_t> codes(wd.size());
      for (size_t k = 0; k < wd.size(); ++k) {
        const double p = wd[k] * scale[k / per];
        if (std::isnan(p)) Refuse(i, "the folded weights have a NaN");
        codes[k] = oracle::DoubleToFp16(p);
      }
      wsrc = Temp(label + ".weights");
      plan_.constants[wsrc] = Fp16Const(wv.shape, codes);
      info_[wsrc] = {ValueType::kFp16, wv.shape};
      scale.clear();
      bn_bias = true;
    }
    YAML::Node f;
    f["op"] = "conv2d";
    const int relu = SoleConsumer(y, "Relu");
    std::optional<uint16_t> clip_hi;  // a Clip(0, hi) after it: the ReLU fused, then min(., hi)
    std::string clip_out;
    if (relu >= 0) {
      f["activation"] = "relu";
      label += " + " + Label(relu);
      fused_.insert(relu);
      y = g_.node(relu).output(0);
    } else if (const int clip = SoleConsumer(y, "Clip"); clip >= 0 && ClipBoundsKnown(clip)) {
      const auto [lo, hi] = ClipBounds(clip);
      if (lo && *lo == 0) {
        f["activation"] = "relu";
        label += " + " + Label(clip);
        fused_.insert(clip);
        clip_hi = hi;
        clip_out = g_.node(clip).output(0);
        y = hi ? Temp(clip_out) : clip_out;
      }
    }
    const bool one_d = sp == 1;
    f["stride"] = Pair(one_d ? 1 : strides[0], strides[sp - 1]);
    f["dilation"] = Pair(one_d ? 1 : dil[0], dil[sp - 1]);
    YAML::Node pad;
    for (int64_t p : one_d ? std::vector<int64_t>{0, 0, pads[0], pads[1]}
                           : std::vector<int64_t>{pads[0], pads[2], pads[1], pads[3]}) {
      if (p < 0) Refuse(i, "negative pads");
      pad.push_back(p);
    }
    f["padding"] = pad;
    f["groups"] = group;
    std::vector<std::pair<std::string, std::string>> bind;
    const std::string xv = one_d ? View(i, label, x, {xi.shape[0], xi.shape[1], 1, xi.shape[2]}) : x;
    const std::string wvn = one_d ? View(i, label, wsrc, {wv.shape[0], wv.shape[1], 1, wv.shape[2]}) : wsrc;
    bind.emplace_back("x", xv);
    bind.emplace_back("w", wvn);
    if (!scale.empty()) bind.emplace_back("scale", Vector(i, label, "scale", scale));
    if (!bias.empty()) bind.emplace_back("bias", b.empty() || bn_bias ? Vector(i, label, "bias", bias) : b);
    const std::string y4 = one_d ? Temp(y) : y;
    if (group == 1 && cout > kMaxCoreOutputs) {
      // more output channels than the core's plan takes (1023 per group): convolutions of a
      // share of the kernels each, concatenated (every output channel is its own reduction)
      const int64_t parts = (cout + kMaxCoreOutputs - 1) / kMaxCoreOutputs, per = (cout + parts - 1) / parts;
      std::vector<std::string> outs;
      for (int64_t c0 = 0; c0 < cout; c0 += per) {
        const int64_t c1 = std::min(cout, c0 + per);
        std::vector<std::pair<std::string, std::string>> part;
        for (const auto& [name, v] : bind) part.emplace_back(name, name == "x" ? v : Rows(i, label, v, c0, c1));
        outs.push_back(Temp(y));
        EmitOp(i, fmt::format("{} (output channels {} .. {})", label, c0, c1 - 1), f, part, outs.back());
      }
      EmitMove(
          i, label, fmt::format("concat {} parts on the channel axis", outs.size()),
          [](const std::vector<const Value*>& a) { return Concat(a, 1); }, outs, y4, Step::MoveKind::kConcat, 1);
    } else {
      EmitOp(i, label, f, bind, y4);
    }
    if (one_d) {
      const std::vector<int64_t> s4 = InfoOf(i, y4).shape;
      View(i, label, y4, {s4[0], s4[1], s4[3]}, y);
    }
    if (clip_hi) {
      const std::string c = Temp(label + ".max");
      plan_.constants[c] = Fp16Const({1}, {*clip_hi});
      info_[c] = {ValueType::kFp16, {1}};
      Binary(i, label, "min", y, c, clip_out);
    }
  }

  // Items c0 .. c1 - 1 of axis 0 of a constant (folded).
  std::string Rows(int i, const std::string& label, const std::string& v, int64_t c0, int64_t c1) {
    const std::vector<int64_t> shape = InfoOf(i, v).shape;
    std::vector<int64_t> b(shape.size(), 0), e = shape, st(shape.size(), 1);
    b[0] = c0;
    e[0] = c1;
    const std::string o = Temp(v);
    EmitMove(
        i, label, fmt::format("items {} .. {} of {}", c0, c1 - 1, Shape(shape)),
        [b, e, st](const std::vector<const Value*>& a) { return Sliced(*a[0], b, e, st); }, {v}, o);
    return o;
  }

  // ConvTranspose as the convolution that computes it: x with stride - 1 zeros between its
  // elements and the kernel's reach (less the pads) of zeros around it (data movement), the
  // kernels flipped and their channel axes swapped (folded), one conv2d of stride 1.
  void LowerConvTranspose(int i) {
    KnownAttrs(i,
               {"auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape", "pads", "strides"});
    const NodeProto& n = g_.node(i);
    const std::string label = Label(i);
    const std::string& x = n.input(0);
    const Info& xi = InfoOf(i, x);
    const size_t rank = xi.shape.size();
    if (rank != 3 && rank != 4) Refuse(i, fmt::format("a {}-D input: 1-D and 2-D transposed convolutions only", rank));
    const size_t sp = rank - 2;
    const Value& wv = Const(i, n.input(1), "the weights W");
    if (wv.type != ValueType::kFp16 || wv.shape.size() != rank)
      Refuse(i, "the weights must be floating point of the input's rank");
    const int64_t group = AttrInt(i, "group", 1);
    const int64_t cin = xi.shape[1], coutg = wv.shape[1], cout = coutg * group;
    if (wv.shape[0] != cin || cin % group != 0)
      Refuse(i, fmt::format("weights {} for {} input channels in {} groups", Shape(wv.shape), cin, group));
    const std::vector<int64_t> k(wv.shape.begin() + 2, wv.shape.end());
    const std::vector<int64_t> s = AttrInts(i, "strides", std::vector<int64_t>(sp, 1));
    const std::vector<int64_t> d = AttrInts(i, "dilations", std::vector<int64_t>(sp, 1));
    const std::vector<int64_t> op = AttrInts(i, "output_padding", std::vector<int64_t>(sp, 0));
    std::vector<int64_t> pads = AttrInts(i, "pads", std::vector<int64_t>(2 * sp, 0));
    if (s.size() != sp || d.size() != sp || op.size() != sp || pads.size() != 2 * sp) {
      Refuse(i, "strides, dilations, output_padding or pads of the wrong length");
    }
    const std::string ap = AttrString(i, "auto_pad", "NOTSET");
    std::vector<int64_t> out_shape = AttrInts(i, "output_shape", {});
    if (out_shape.size() > sp) out_shape.erase(out_shape.begin(), out_shape.end() - long(sp));
    if (out_shape.empty() && (ap == "SAME_UPPER" || ap == "SAME_LOWER")) {
      for (size_t a = 0; a < sp; ++a) out_shape.push_back(xi.shape[2 + a] * s[a]);
    }
    if (ap == "VALID") pads.assign(2 * sp, 0);
    if (!out_shape.empty()) {
      if (out_shape.size() != sp) Refuse(i, "output_shape of the wrong length");
      for (size_t a = 0; a < sp; ++a) {
        const int64_t total = s[a] * (xi.shape[2 + a] - 1) + op[a] + (k[a] - 1) * d[a] + 1 - out_shape[a];
        const bool upper = ap == "SAME_UPPER";
        const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);  // floor(total / 2), as ONNX's reference
        pads[a] = upper ? half : total - half;
        pads[a + sp] = upper ? total - half : half;
      }
    }
    // the input as the convolution sees it
    std::vector<int64_t> step(rank, 1), before(rank, 0), after(rank, 0);
    for (size_t a = 0; a < sp; ++a) {
      step[2 + a] = s[a];
      before[2 + a] = d[a] * (k[a] - 1) - pads[a];
      after[2 + a] = d[a] * (k[a] - 1) - pads[a + sp] + op[a];
    }
    const std::string z = Temp(x);
    EmitMove(
        i, label, fmt::format("{} with stride - 1 zeros between elements, the kernel's reach around", Shape(xi.shape)),
        [step, before, after](const std::vector<const Value*>& a) { return Dilated(*a[0], step, before, after); }, {x},
        z);
    // W [Cin, Cout / g, k...] -> [Cout, Cin / g, k...] flipped
    const int64_t cing = cin / group;
    const std::vector<int64_t> kshape = {cout, cing, sp == 2 ? k[0] : 1, k[sp - 1]};
    const std::string wt = Temp(n.input(1));
    EmitMove(
        i, label, "the kernels flipped, their channel axes swapped",
        [group, cing, coutg, kshape](const std::vector<const Value*>& a) {
          const Value& w = *a[0];
          Value o;
          o.shape = kshape;
          const int64_t kh = kshape[2], kw = kshape[3], plane = kh * kw;
          o.fp16.resize(size_t(kshape[0] * cing * plane));
          for (int64_t g = 0; g < group; ++g) {
            for (int64_t co = 0; co < coutg; ++co) {
              for (int64_t ci = 0; ci < cing; ++ci) {
                for (int64_t p = 0; p < plane; ++p) {
                  const int64_t src = ((g * cing + ci) * coutg + co) * plane + (plane - 1 - p);
                  o.fp16[size_t(((g * coutg + co) * cing + ci) * plane + p)] = w.fp16[size_t(src)];
                }
              }
            }
          }
          return o;
        },
        {n.input(1)}, wt);
    YAML::Node f;
    f["op"] = "conv2d";
    f["dilation"] = Pair(sp == 2 ? d[0] : 1, d[sp - 1]);
    f["groups"] = group;
    const Info zi = InfoOf(i, z);
    const std::string z4 = sp == 1 ? View(i, label, z, {zi.shape[0], zi.shape[1], 1, zi.shape[2]}) : z;
    std::vector<std::pair<std::string, std::string>> bind{{"x", z4}, {"w", wt}};
    if (!In(i, 2).empty()) bind.emplace_back("bias", In(i, 2));
    const std::string y = n.output(0);
    if (sp == 2) return EmitOp(i, label, f, bind, y);
    const std::string y4 = Temp(y);
    EmitOp(i, label, f, bind, y4);
    const std::vector<int64_t> s4 = InfoOf(i, y4).shape;
    View(i, label, y4, {s4[0], s4[1], s4[3]}, y);
  }

  // A constant fp16 vector of fp64 values rounded once (RNE).
  std::string Vector(int i, const std::string& label, const char* what, const std::vector<double>& v) {
    std::vector<uint16_t> codes;
    for (double d : v) {
      if (std::isnan(d)) Refuse(i, fmt::format("the folded {} has a NaN", what));
      codes.push_back(oracle::DoubleToFp16(d));
    }
    const std::string name = Temp(label + "." + what);
    plan_.constants[name] = Fp16Const({int64_t(codes.size())}, codes);
    info_[name] = {ValueType::kFp16, {int64_t(codes.size())}};
    return name;
  }

  void AutoPad(int i, const std::vector<int64_t>& xs, const std::vector<int64_t>& k, const std::vector<int64_t>& s,
               const std::vector<int64_t>& d, std::vector<int64_t>* pads) const {
    const std::string ap = AttrString(i, "auto_pad", "NOTSET");
    const size_t sp = k.size();
    if (ap == "NOTSET") return;
    if (ap == "VALID") {
      pads->assign(2 * sp, 0);
      return;
    }
    if (ap != "SAME_UPPER" && ap != "SAME_LOWER") Refuse(i, fmt::format("auto_pad '{}' is not supported", ap));
    for (size_t a = 0; a < sp; ++a) {
      const int64_t in = xs[2 + a];
      const int64_t out = (in + s[a] - 1) / s[a];
      const int64_t total = std::max<int64_t>(0, (out - 1) * s[a] + (k[a] - 1) * d[a] + 1 - in);
      const int64_t small = total / 2, big = total - small;
      (*pads)[a] = ap == "SAME_UPPER" ? small : big;
      (*pads)[a + sp] = ap == "SAME_UPPER" ? big : small;
    }
  }

  bool BatchNormFoldable(int bn) const {
    const NodeProto& n = g_.node(bn);
    if (AttrInt(bn, "training_mode", 0) != 0) return false;
    for (int k = 1; k < 5; ++k) {
      if (k >= n.input_size() || !IsConst(n.input(k))) return false;
    }
    for (int k = 1; k < n.output_size(); ++k) {
      if (!n.output(k).empty() && uses_.count(n.output(k))) return false;
    }
    return true;
  }
  // y = x s + t per channel: s = gamma / sqrt(var + eps), t = beta - mean s (fp64).
  void BatchNormParams(int bn, int64_t channels, std::vector<double>* s, std::vector<double>* t) const {
    KnownAttrs(bn, {"epsilon", "momentum", "training_mode", "spatial", "is_test", "consumed_inputs"});
    if (AttrInt(bn, "spatial", 1) == 0) Refuse(bn, "spatial = 0 (parameters per element) is not supported");
    const NodeProto& n = g_.node(bn);
    const double eps = AttrFloat(bn, "epsilon", 1e-5f);
    const std::vector<double> gamma = Doubles(bn, n.input(1), "scale"), beta = Doubles(bn, n.input(2), "B"),
                              mean = Doubles(bn, n.input(3), "input_mean"), var = Doubles(bn, n.input(4), "input_var");
    for (const auto* p : {&gamma, &beta, &mean, &var}) {
      if (int64_t(p->size()) != channels) {
        Refuse(bn, fmt::format("a parameter has {} values for {} channels", p->size(), channels));
      }
    }
    for (int64_t c = 0; c < channels; ++c) {
      const double sc = gamma[size_t(c)] / std::sqrt(var[size_t(c)] + eps);
      s->push_back(sc);
      t->push_back(beta[size_t(c)] - mean[size_t(c)] * sc);
    }
  }

  // BatchNormalization alone: (x - mean) s + beta per channel, s = gamma / sqrt(var + eps), as the
  // planar engine's add_multiply and add (the ONNX formula's order: the mean subtracted first).
  void LowerBatchNorm(int i) {
    KnownAttrs(i, {"epsilon", "momentum", "training_mode", "spatial", "is_test", "consumed_inputs"});
    const NodeProto& n = g_.node(i);
    if (AttrInt(i, "training_mode", 0) != 0 || AttrInt(i, "is_test", 1) == 0)
      Refuse(i, "training_mode is on; the ANE runs inference");
    OnlyFirstOutput(i);
    const Info& x = InfoOf(i, n.input(0));
    if (x.shape.size() < 2 || x.shape.size() > 4)
      Refuse(i, fmt::format("input {}: [N, C], [N, C, L] or [N, C, H, W]", Shape(x.shape)));
    for (int k = 1; k < 5; ++k) Const(i, In(i, k), "a parameter");
    const int64_t c = x.shape[1];
    std::vector<double> s, t;
    BatchNormParams(i, c, &s, &t);
    const std::vector<double> mean = Doubles(i, In(i, 3), "input_mean"), beta = Doubles(i, In(i, 2), "B");
    std::vector<double> neg_mean;
    for (double m : mean) neg_mean.push_back(-m);
    const std::string label = Label(i);
    plan_.notes.push_back(
        fmt::format("{}: (x - mean) scale + B with scale = gamma / sqrt(var + eps) in fp64, rounded "
                    "once to fp16 (the planar engine's add_multiply, then add)",
                    label));
    // per image [C, ...] against [C, 1, ...]
    std::vector<int64_t> per(x.shape.size() - 1, 1);
    per[0] = c;
    const std::string sv = View(i, label, Vector(i, label, "scale", s), per);
    const std::string mv = View(i, label, Vector(i, label, "-mean", neg_mean), per);
    const std::string bv = View(i, label, Vector(i, label, "B", beta), per);
    PerItem(i, label, n.input(0), n.output(0), [&](const std::string& item) {
      YAML::Node f;
      f["op"] = "elementwise";
      f["function"] = "add_multiply";
      const std::string o1 = Temp(n.output(0)), o2 = Temp(n.output(0));
      EmitOp(i, label, f, {{"a", item}, {"b", mv}, {"c", sv}}, o1);
      YAML::Node g;
      g["op"] = "elementwise";
      g["function"] = "add";
      EmitOp(i, label, g, {{"a", o1}, {"b", bv}}, o2);
      return o2;
    });
  }

  void LowerGemm(int i) {
    KnownAttrs(i, {"alpha", "beta", "transA", "transB", "broadcast"});
    const NodeProto& n = g_.node(i);
    const std::string label = Label(i);
    std::string a = n.input(0), b = n.input(1);
    const std::string c = In(i, 2);
    if (InfoOf(i, a).shape.size() != 2 || InfoOf(i, b).shape.size() != 2) Refuse(i, "A and B must be 2-D");
    if (AttrInt(i, "transA", 0)) a = Transpose(i, label, a, {1, 0});
    if (AttrInt(i, "transB", 0)) b = Transpose(i, label, b, {1, 0});
    const int64_t m = InfoOf(i, a).shape[0], nn = InfoOf(i, b).shape[1];
    const double alpha = AttrFloat(i, "alpha", 1.0f), beta = AttrFloat(i, "beta", 1.0f);
    YAML::Node f;
    f["op"] = "matmul";
    std::vector<std::pair<std::string, std::string>> bind{{"a", a}, {"b", b}};
    if (alpha != 1.0) {
      bind.emplace_back("scale", Vector(i, label, "alpha", std::vector<double>(size_t(nn), alpha)));
      plan_.notes.push_back(fmt::format("{}: alpha {} is the post-processor's scale (fp16 {})", label, alpha,
                                        oracle::Fp16ToDouble(oracle::DoubleToFp16(alpha))));
    }
    std::string add;  // C added after, by the planar engine
    if (!c.empty() && beta != 0.0) {
      const std::vector<int64_t> cs = InfoOf(i, c).shape;
      const bool row = Prod(cs) == nn && (cs.size() <= 1 || cs[cs.size() - 2] == 1 || cs.size() == 1);
      const bool scalar = Prod(cs) == 1;
      if (IsConst(c) && (row || scalar)) {
        const std::vector<double> cv = Doubles(i, c, "C");
        std::vector<double> bias;
        for (int64_t j = 0; j < nn; ++j) bias.push_back(beta * cv[scalar ? 0 : size_t(j)]);
        bind.emplace_back("bias", Vector(i, label, "bias", bias));
      } else if (beta == 1.0) {
        add = c;
      } else {
        Refuse(i, "C computed at run time or of shape [M, N] with beta other than 1 is not supported");
      }
    }
    const std::string y = n.output(0);
    // a fully connected layer: a 1x1 convolution (the core takes up to 1023 input channels per
    // group; a longer one runs on the MAC array)
    const bool linear = IsConst(b) && InfoOf(i, b).shape[0] <= kMaxCoreOutputs;
    const std::string t = add.empty() ? y : Temp(y);
    if (linear) {
      bind.erase(bind.begin(), bind.begin() + 2);
      LinearAsConv(i, label, a, b, bind, t);
    } else {
      EmitOp(i, label, f, bind, t);
    }
    (void)m;
    if (!add.empty()) Binary(i, label, "add", t, add, y);
  }

  // A [M, K] x B [K, N] with B a constant of the model, as the ANE's compiler runs a fully
  // connected layer (fc_bias.hwx: a convolution TD with the bias in its kernel blocks): a 1x1
  // convolution on the neural-engine core of K input channels and N kernels (B's columns), the
  // M rows of A as M pixels of one image row; `post`: the conv2d's scale and bias inputs.
  void LinearAsConv(int i, const std::string& label, const std::string& a, const std::string& b,
                    const std::vector<std::pair<std::string, std::string>>& post, const std::string& y) {
    const std::vector<int64_t> as = InfoOf(i, a).shape, bs = InfoOf(i, b).shape;
    const int64_t m = as[0], k = as[1], nn = bs[1];
    const std::string w = View(i, label, Transpose(i, label, b, {1, 0}), {nn, k, 1, 1});
    const std::string x =
        m == 1 ? View(i, label, a, {1, k, 1, 1}) : View(i, label, Transpose(i, label, a, {1, 0}), {1, k, 1, m});
    YAML::Node f;
    f["op"] = "conv2d";
    std::vector<std::pair<std::string, std::string>> bind{{"x", x}, {"w", w}};
    bind.insert(bind.end(), post.begin(), post.end());
    const std::string y4 = Temp(y);
    EmitOp(i, label + " (as a 1x1 convolution)", f, bind, y4);
    if (m == 1) {
      View(i, label, y4, {1, nn}, y);
      return;
    }
    View(i, label, Transpose(i, label, View(i, label, y4, {nn, m}), {1, 0}), {m, nn}, y);
  }

  void LowerMatMul(int i) {
    KnownAttrs(i, {});
    const NodeProto& n = g_.node(i);
    const std::string label = Label(i);
    const std::string a = n.input(0), b = n.input(1), y = n.output(0);
    const std::vector<int64_t> as = InfoOf(i, a).shape, bs = InfoOf(i, b).shape;
    YAML::Node f;
    f["op"] = "matmul";
    if (as.size() <= 2 && bs.size() == 2 && IsConst(b) && bs[0] <= kMaxCoreOutputs) {  // a fully connected layer
      if (as.size() == 2) return LinearAsConv(i, label, a, b, {}, y);
      const std::string t = Temp(y);
      LinearAsConv(i, label, View(i, label, a, {1, as[0]}), b, {}, t);
      View(i, label, t, {bs[1]}, y);
      return;
    }
    if (as.size() <= 2 && bs.size() <= 2) return EmitOp(i, label, f, {{"a", a}, {"b", b}}, y);
    // batched: a [..., M, K] and b [..., K, N] (a 1-D side as a row / column), batch axes broadcast
    const std::string a3 = as.size() == 1 ? View(i, label, a, {1, as[0]}) : a;
    const std::string b3 = bs.size() == 1 ? View(i, label, b, {bs[0], 1}) : b;
    const std::vector<int64_t> am = InfoOf(i, a3).shape, bm = InfoOf(i, b3).shape;
    const std::vector<int64_t> ab(am.begin(), am.end() - 2), bb(bm.begin(), bm.end() - 2);
    bool ok = false;
    const std::vector<int64_t> batch = BroadcastShape(ab, bb, &ok);
    if (!ok) Refuse(i, fmt::format("batch axes {} and {} do not broadcast", Shape(ab), Shape(bb)));
    const int64_t mm = am[am.size() - 2], k = am.back(), nn = bm.back();
    std::vector<int64_t> full_a = batch, full_b = batch;
    full_a.insert(full_a.end(), {mm, k});
    full_b.insert(full_b.end(), {k, nn});
    const int64_t nb = Prod(batch);
    const std::string af = View(i, label, Expand(i, label, a3, full_a), {nb, mm, k});
    const std::string bf = View(i, label, Expand(i, label, b3, full_b), {nb, k, nn});
    std::vector<std::string> parts;
    for (int64_t q = 0; q < nb; ++q) {
      const std::string o = Temp(y);
      EmitOp(i, label, f, {{"a", Take(i, label, af, q)}, {"b", Take(i, label, bf, q)}}, o);
      parts.push_back(o);
    }
    const std::string st = Temp(y);
    Stack(i, label, parts, st);
    std::vector<int64_t> ys = batch;
    if (as.size() > 1) ys.push_back(mm);
    if (bs.size() > 1) ys.push_back(nn);
    View(i, label, st, ys, y);
  }

  // Clip(x, lo, hi) = min(max(x, lo), hi) with constant bounds: the planar engine's max and
  // min against a broadcast scalar (relu when lo is 0); an absent bound is no operation.
  // Clip's bounds (fp16; nullopt: none), constants of the model.
  bool ClipBoundsKnown(int i) const {
    if (opset_ < 11) return true;
    for (int k = 1; k <= 2; ++k) {
      if (!In(i, k).empty() && !IsConst(In(i, k))) return false;
    }
    return true;
  }
  std::pair<std::optional<uint16_t>, std::optional<uint16_t>> ClipBounds(int i) const {
    KnownAttrs(i, {"min", "max"});
    auto bound = [&](int k, const char* attr) -> std::optional<uint16_t> {
      if (opset_ < 11) {
        if (!Attr(i, attr)) return std::nullopt;
        const float f = AttrFloat(i, attr, 0.0f);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        return oracle::Fp32ToFp16(u);
      }
      if (In(i, k).empty()) return std::nullopt;
      const Value& c = Const(i, In(i, k), attr);
      if (c.type != ValueType::kFp16 || c.Count() != 1)
        Refuse(i, fmt::format("{} must be one floating-point value", attr));
      return c.fp16[0];
    };
    return {bound(1, "min"), bound(2, "max")};
  }

  void LowerClip(int i) {
    const NodeProto& n = g_.node(i);
    const std::string label = Label(i);
    const auto [lo, hi] = ClipBounds(i);
    std::string x = n.input(0);
    const std::string& y = n.output(0);
    if (lo) {
      const std::string out = hi ? Temp(y) : y;
      YAML::Node f;
      f["op"] = "elementwise";
      if (*lo == 0) {
        f["function"] = "relu";
        EmitOp(i, label, f, {{"x", x}}, out);
      } else {
        const std::string c = Temp(label + ".min");
        plan_.constants[c] = Fp16Const({1}, {*lo});
        info_[c] = {ValueType::kFp16, {1}};
        Binary(i, label, "max", x, c, out);
      }
      x = out;
    }
    if (hi) {
      const std::string c = Temp(label + ".max");
      plan_.constants[c] = Fp16Const({1}, {*hi});
      info_[c] = {ValueType::kFp16, {1}};
      Binary(i, label, "min", x, c, y);
    }
    if (!lo && !hi) View(i, label, x, InfoOf(i, x).shape, y);
  }

  // MaxPool / AveragePool on the planar engine's pooling path, image by image.
  void LowerPool(int i, bool max) {
    KnownAttrs(i, {"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "strides",
                   "storage_order"});
    OnlyFirstOutput(i);
    const NodeProto& n = g_.node(i);
    const std::string label = Label(i);
    const Info& xi = InfoOf(i, n.input(0));
    const size_t rank = xi.shape.size();
    if (rank != 3 && rank != 4) Refuse(i, fmt::format("a {}-D input: pooling is 1-D or 2-D", rank));
    const size_t sp = rank - 2;
    const std::vector<int64_t> k = AttrInts(i, "kernel_shape", {});
    if (k.size() != sp) Refuse(i, "kernel_shape must name every spatial axis");
    const std::vector<int64_t> s = AttrInts(i, "strides", std::vector<int64_t>(sp, 1));
    const std::vector<int64_t> d = AttrInts(i, "dilations", std::vector<int64_t>(sp, 1));
    for (int64_t v : d) {
      if (v != 1) Refuse(i, "dilated pooling is not supported");
    }
    std::vector<int64_t> pads = AttrInts(i, "pads", std::vector<int64_t>(2 * sp, 0));
    if (s.size() != sp || pads.size() != 2 * sp) Refuse(i, "strides or pads of the wrong length");
    AutoPad(i, xi.shape, k, s, d, &pads);
    const bool ceil = AttrInt(i, "ceil_mode", 0) != 0;
    const bool include = !max && AttrInt(i, "count_include_pad", 0) != 0;
    // 2-D view: [N, C, H, W]
    std::vector<int64_t> x4 = xi.shape;
    std::vector<int64_t> kk = k, ss = s, pb(pads.begin(), pads.begin() + long(sp)),
                         pe(pads.begin() + long(sp), pads.end());
    if (sp == 1) {
      x4 = {xi.shape[0], xi.shape[1], 1, xi.shape[2]};
      kk.insert(kk.begin(), 1);
      ss.insert(ss.begin(), 1);
      pb.insert(pb.begin(), 0);
      pe.insert(pe.begin(), 0);
    }
    std::vector<int64_t> out(2), extra(2);
    for (int a = 0; a < 2; ++a) {
      const int64_t span = x4[size_t(2 + a)] + pb[size_t(a)] + pe[size_t(a)] - kk[size_t(a)];
      if (span < 0) Refuse(i, "the window is larger than the padded input");
      out[size_t(a)] = (ceil ? (span + ss[size_t(a)] - 1) / ss[size_t(a)] : span / ss[size_t(a)]) + 1;
      extra[size_t(a)] = std::max<int64_t>(0, (out[size_t(a)] - 1) * ss[size_t(a)] + kk[size_t(a)] -
                                                  (x4[size_t(2 + a)] + pb[size_t(a)] + pe[size_t(a)]));
    }
    std::string x = View(i, label, n.input(0), x4);
    std::vector<int64_t> pt = {pb[0], pe[0] + extra[0], pb[1], pe[1] + extra[1]};
    if (include && (pb[0] || pb[1] || pe[0] || pe[1])) {
      // the padding's zeros counted in the mean: padded by data movement first
      const std::vector<int64_t> before = {0, 0, pb[0], pb[1]}, after = {0, 0, pe[0], pe[1]};
      const std::string o = Temp(n.input(0));
      EmitMove(
          i, label, fmt::format("pad {} with +0 (count_include_pad)", Shape(x4)),
          [before, after](const std::vector<const Value*>& v) { return Padded(*v[0], before, after, 0, 0); }, {x}, o);
      x = o;
      pt = {0, extra[0], 0, extra[1]};
    }
    YAML::Node f;
    f["op"] = "pool";
    f["function"] = max ? "max" : "mean";
    f["kernel"] = Pair(kk[0], kk[1]);
    f["stride"] = Pair(ss[0], ss[1]);
    YAML::Node pad;
    for (int64_t p : pt) pad.push_back(p);
    f["padding"] = pad;
    const std::string y = n.output(0);
    const std::string y4 = sp == 1 ? Temp(y) : y;
    PerItem(i, label, x, y4, [&](const std::string& item) {
      const std::string o = Temp(y);
      EmitOp(i, label, f, {{"x", item}}, o);
      return o;
    });
    if (sp == 1) View(i, label, y4, {xi.shape[0], xi.shape[1], out[1]}, y);
  }

  void LowerGlobalPool(int i, bool max) {
    KnownAttrs(i, {});
    const NodeProto& n = g_.node(i);
    const std::string label = Label(i);
    const Info& xi = InfoOf(i, n.input(0));
    if (xi.shape.size() < 3) Refuse(i, "the input needs [N, C, ...]");
    const int64_t nimg = xi.shape[0], c = xi.shape[1], plane = Prod(xi.shape, 2);
    std::vector<int64_t> ys = {nimg, c};
    ys.resize(xi.shape.size(), 1);
    const int64_t h = xi.shape.size() == 4 ? xi.shape[2] : 1, w = xi.shape.size() == 4 ? xi.shape[3] : plane;
    const std::string x = View(i, label, n.input(0), {nimg, c, h, w});
    const std::string y = n.output(0), y2 = Temp(y);
    if (!max && h <= 8 && w <= 8) {  // one pooling window over the plane: the edge-correct mean
      YAML::Node f;
      f["op"] = "pool";
      f["function"] = "mean";
      f["kernel"] = Pair(h, w);
      PerItem(i, label, x, y2, [&](const std::string& item) {
        const std::string o = Temp(y);
        EmitOp(i, label, f, {{"x", item}}, o);
        return o;
      });
      View(i, label, y2, ys, y);
      return;
    }
    YAML::Node f;
    f["op"] = "reduce";
    f["function"] = max ? "max" : "sum";
    f["axis"] = "planes";
    PerItem(i, label, x, y2, [&](const std::string& item) {
      const std::string o = Temp(y);
      EmitOp(i, label, f, {{"x", item}}, o);
      return o;
    });
    if (max) {
      View(i, label, y2, ys, y);
      return;
    }
    MeanScale(i, label, y2, plane, ys, y);
  }

  // sum / n as the sum times the fp16 nearest 1/n (the planar engine's multiply), then shape.
  void MeanScale(int i, const std::string& label, const std::string& sum, int64_t count,
                 const std::vector<int64_t>& shape, const std::string& out) {
    const std::string r = Vector(i, label, "1/n", {1.0 / double(count)});
    const std::string t = Temp(out);
    Binary(i, label, "mul", sum, r, t);
    View(i, label, t, shape, out);
    plan_.notes.push_back(fmt::format(
        "{}: the mean of {} elements is their sum times fp16(1/{}) (two roundings; a pooling window of at most 8 x 8 "
        "gives the exactly rounded mean)",
        label, count, count));
  }

  void LowerReduce(int i) {
    KnownAttrs(i, {"axes", "keepdims", "noop_with_empty_axes"});
    const NodeProto& n = g_.node(i);
    const std::string label = Label(i);
    const std::string& t = n.op_type();
    const Info& xi = InfoOf(i, n.input(0));
    const size_t r = xi.shape.size();
    std::vector<int64_t> axes = AttrInts(i, "axes", {});
    if (n.input_size() > 1 && !n.input(1).empty()) axes = Ints(i, n.input(1), "axes");
    const bool keep = AttrInt(i, "keepdims", 1) != 0;
    if (axes.empty() && AttrInt(i, "noop_with_empty_axes", 0)) {
      View(i, label, n.input(0), xi.shape, n.output(0));
      return;
    }
    std::set<int64_t> red;
    for (int64_t a : axes) red.insert(Axis(i, a, r));
    if (axes.empty()) {
      for (size_t a = 0; a < r; ++a) red.insert(int64_t(a));
    }
    std::vector<int64_t> perm, kept, out;
    for (size_t a = 0; a < r; ++a) {
      if (!red.count(int64_t(a))) {
        perm.push_back(int64_t(a));
        kept.push_back(xi.shape[a]);
      }
      out.push_back(red.count(int64_t(a)) ? 1 : xi.shape[a]);
    }
    for (int64_t a : red) perm.push_back(a);
    if (!keep) out = kept;
    bool in_order = true;
    for (size_t k = 0; k < perm.size(); ++k) in_order &= perm[k] == int64_t(k);
    const std::string x = in_order ? n.input(0) : Transpose(i, label, n.input(0), perm);
    const int64_t outer = Prod(kept), count = Prod(xi.shape) / std::max<int64_t>(outer, 1);
    const std::string y = n.output(0), y2 = Temp(y);
    if (t == "ReduceMean" && count <= 8) {
      YAML::Node f;
      f["op"] = "pool";
      f["function"] = "mean";
      f["kernel"] = Pair(1, count);
      EmitOp(i, label, f, {{"x", View(i, label, x, {outer, 1, count})}}, y2);
      View(i, label, y2, out, y);
      return;
    }
    YAML::Node f;
    f["op"] = "reduce";
    f["function"] = t == "ReduceMax" ? "max" : t == "ReduceMin" ? "min" : "sum";
    f["axis"] = "rows";
    EmitOp(i, label, f, {{"x", View(i, label, x, {outer, count})}}, y2);
    if (t == "ReduceMean") return MeanScale(i, label, y2, count, out, y);
    View(i, label, y2, out, y);
  }

  void LowerSoftmax(int i) {
    KnownAttrs(i, {"axis"});
    const NodeProto& n = g_.node(i);
    const std::string label = Label(i);
    const Info& xi = InfoOf(i, n.input(0));
    const size_t r = xi.shape.size();
    const int64_t axis = Axis(i, AttrInt(i, "axis", opset_ < 13 ? 1 : -1), r);
    YAML::Node f;
    f["op"] = "softmax";
    std::vector<int64_t> view;
    if (opset_ < 13) {  // the input coerced to 2-D [before axis, from axis on]
      view = {Prod(xi.shape, 0, size_t(axis)), Prod(xi.shape, size_t(axis))};
      f["axis"] = "rows";
    } else {
      const int64_t before = Prod(xi.shape, 0, size_t(axis)), len = xi.shape[size_t(axis)],
                    after = Prod(xi.shape, size_t(axis) + 1);
      if (after == 1) {
        view = {before, len};
        f["axis"] = "rows";
      } else {
        view = {before, len, after};
        f["axis"] = "columns";
      }
    }
    const std::string y = n.output(0), y2 = Temp(y);
    EmitOp(i, label, f, {{"x", View(i, label, n.input(0), view)}}, y2);
    View(i, label, y2, xi.shape, y);
  }

  const onnx::ModelProto& m_;
  const onnx::GraphProto& g_;
  std::string file_;
  cli::Engine engine_;
  const std::map<std::string, onnx::TensorProto>& frozen_;
  int64_t opset_ = 0;
  Plan plan_;
  std::map<std::string, Info> info_;
  std::map<std::string, const onnx::ValueInfoProto*> declared_;
  std::map<std::string, int> uses_;
  std::map<std::string, std::vector<double>> f64_;
  std::set<int> fused_;
  std::vector<std::string> folded_;  // "node 'bn1' (BatchNormalization) into node 'conv1' (Conv)"
  int temps_ = 0;
  int rounded_ = 0;

 public:
  bool note_div_ = false;
};

}  // namespace

Plan Lower(const onnx::ModelProto& model, const std::string& file, cli::Engine engine,
           const std::map<std::string, onnx::TensorProto>& frozen) {
  Lowering l(model, file, engine, frozen);
  Plan p = l.Go();
  if (l.note_div_) {
    p.notes.push_back(
        "Div is a x recip(b): the post-processor's reciprocal table (N-5), then the planar engine's "
        "multiply (N-4.1)");
  }
  return p;
}

std::string CheckFeeds(const Plan& plan, const std::map<std::string, Value>& feeds) {
  for (const auto& [name, shape] : plan.inputs) {
    auto it = feeds.find(name);
    if (it == feeds.end()) return fmt::format("input '{}' ({}) is not given", name, Shape(shape));
    if (it->second.type != ValueType::kFp16) return fmt::format("input '{}' must be floating point", name);
    if (it->second.shape != shape) {
      return fmt::format("input '{}' is {}, the model takes {}", name, Shape(it->second.shape), Shape(shape));
    }
  }
  for (const auto& [name, v] : feeds) {
    bool known = false;
    for (const auto& in : plan.inputs) known |= in.first == name;
    if (!known) return fmt::format("the model has no input '{}'", name);
  }
  return "";
}

namespace {

std::string RtlLine(const Step& s, const cli::RtlRun& r) {
  if (r.conv) {
    return fmt::format("{}: core {} cycles, {} MACs, utilization {:.1f}%", s.node, r.conv->cycles, r.conv->macs,
                       100.0 * r.conv->utilization);
  }
  if (r.matmul) return fmt::format("{}: MAC array {} cycles", s.node, r.matmul->cycles);
  if (r.engine) return fmt::format("{}: planar engine {} cycles", s.node, r.engine->cycles);
  if (r.post) return fmt::format("{}: post-processor {} cycles", s.node, r.post->cycles);
  return s.node + ": RTL";
}

}  // namespace

RunResult Run(const Plan& plan, const std::map<std::string, Value>& feeds, cli::Engine engine) {
  std::map<std::string, Value> vals = plan.constants;
  for (const auto& [k, v] : feeds) vals[k] = v;
  RunResult res;
  for (const Step& s : plan.steps) {
    if (!s.is_op) {
      std::vector<const Value*> args;
      for (const std::string& a : s.args) args.push_back(&vals.at(a));
      vals[s.out] = s.move(args);
      continue;
    }
    cli::Operation op = s.op;
    for (const auto& [name, v] : s.bind) op.inputs.at(name).tensor = ToTensor(vals.at(v));
    const cli::Evaluation e = cli::Evaluate(op, engine, {});
    vals[s.out] = FromTensor(e.outputs.at("y"));
    if (e.rtl) res.rtl_lines.push_back(RtlLine(s, *e.rtl));
    if (e.mismatch) {
      res.mismatches.push_back(fmt::format("{} ({}): {} of {} outputs differ; first {}: rtl {}, oracle {}", s.node,
                                           s.Text(), e.mismatch->count, e.mismatch->total, e.mismatch->element,
                                           e.mismatch->rtl, e.mismatch->oracle));
    }
  }
  for (const std::string& o : plan.outputs) res.outputs[o] = vals.at(o);
  return res;
}

}  // namespace ane::onnx_in
