// Reading and checking an operation (operation.h): the part of the `ane` command that turns an
// op file into an Operation, without the engines (operation.cc), so that it links without the
// Verilated models.
#include "tb/cli/operation.h"

#include <fmt/format.h>

#include <algorithm>

#include "tb/cli/operation_internal.h"

namespace ane::cli {

namespace internal {

MatrixShape AsMatrix(const Tensor& t, bool is_b) {
  if (t.shape.size() == 2) return {t.shape[0], t.shape[1]};
  return is_b ? MatrixShape{t.shape[0], 1} : MatrixShape{1, t.shape[0]};
}

oracle::ChannelParams Channel(const Operation& op, int64_t col) {
  oracle::ChannelParams ch;
  if (op.inputs.count("scale")) ch.scale = uint16_t(op.inputs.at("scale").tensor.bits[size_t(col)]);
  if (op.inputs.count("bias")) {
    ch.bias = oracle::Fp16ToFp32(uint16_t(op.inputs.at("bias").tensor.bits[size_t(col)]));
  }
  return ch;
}

oracle::Tensor3 As3(const Tensor& x) {
  oracle::Tensor3 t;
  const size_t r = x.shape.size();
  t.w = int(x.shape[r - 1]);
  t.h = r >= 2 ? int(x.shape[r - 2]) : 1;
  t.c = r >= 3 ? int(x.shape[0]) : 1;
  t.codes.assign(x.bits.begin(), x.bits.end());
  return t;
}

}  // namespace internal

namespace {

using internal::As3;
using internal::AsMatrix;
using internal::Channel;
using internal::MatrixShape;

void CheckMatmulInput(const Tensor& t, const Field& where) {
  if (t.dtype != DType::kFp16 && t.dtype != DType::kInt8) {
    where.Fail(fmt::format("wrong dtype: {} ('{}'); matmul inputs are fp16 ('<f2') or int8 ('|i1')",
                           DTypeName(t.dtype), NpyDescr(t.dtype)));
  }
  if (t.shape.size() != 1 && t.shape.size() != 2) {
    where.Fail(fmt::format("matmul needs a 2-D matrix or a 1-D vector, got shape {}",
                           ShapeString(t.shape)));
  }
  if (ElementCount(t.shape) == 0) {
    where.Fail(fmt::format("empty tensor (shape {})", ShapeString(t.shape)));
  }
}

// The scale and bias inputs (fp16 [n], one per `per`) and the activation (relu or a table) of
// matmul and conv2d post-processing: checks them and sets scale_en, bias_en, act and table.
void ReadScaleBiasActivation(const Operation& op, const std::map<std::string, Field>& where,
                             const std::optional<Field>& activation, int64_t n, const char* per,
                             oracle::PostConfig* cfg) {
  for (const char* name : {"scale", "bias"}) {
    if (!op.inputs.count(name)) continue;
    const Tensor& t = op.inputs.at(name).tensor;
    if (t.dtype != DType::kFp16 || t.shape.size() != 1 || t.shape[0] != n) {
      where.at(name).Fail(fmt::format("{} must be fp16 with shape [{}] (one value per {}), got {} {}", name, n, per,
                                      DTypeName(t.dtype), ShapeString(t.shape)));
    }
  }
  cfg->scale_en = op.inputs.count("scale") > 0;
  cfg->bias_en = op.inputs.count("bias") > 0;
  if (activation) {
    const std::string name = activation->Scalar();
    oracle::ActFn fn;
    if (name == "relu") {
      cfg->act = oracle::PostAct::kRelu;
    } else if (oracle::ParseActFn(name, &fn)) {
      cfg->act = oracle::PostAct::kTable;
      cfg->table = oracle::DefaultActTable(fn);
    } else {
      activation->Fail(fmt::format("unknown activation '{}' (relu or an activation function)", name));
    }
  }
}

// The matmul post-processing options: checks them and sets op->post and op->outputs.
void ReadMatmulPost(Operation* op, const std::map<std::string, Field>& where,
                    const std::optional<Field>& activation, const std::optional<Field>& shift) {
  const bool has_scale = op->inputs.count("scale") > 0, has_bias = op->inputs.count("bias") > 0;
  if (!activation && !shift && !has_scale && !has_bias) return;
  TensorType& y = op->outputs.at("y");
  const int64_t n = y.shape.empty() ? 1 : (op->inputs.at("b").tensor.shape.size() == 2
                                                ? op->inputs.at("b").tensor.shape[1]
                                                : 1);
  oracle::PostConfig cfg;
  cfg.gen = op->generation;
  ReadScaleBiasActivation(*op, where, activation, n, "output column", &cfg);
  if (y.dtype == DType::kInt32) {
    if (!shift) {
      (activation ? *activation : where.at(has_scale ? "scale" : "bias"))
          .Fail("int8 x int8 post-processing needs `shift` (requantization to int8, N-3.3)");
    }
    cfg.int_acc = true;
    cfg.shift = int(shift->Integer(0, 31));
    cfg.store = oracle::PostStore::kInt8;
    if (has_scale || has_bias || cfg.act == oracle::PostAct::kTable) {
      (has_scale ? where.at("scale") : has_bias ? where.at("bias") : *activation)
          .Fail("an int8 store takes only `shift` and `activation: relu` (N-3.3)");
    }
    y.dtype = DType::kInt8;
  } else if (shift) {
    shift->Fail("`shift` requantizes int8 x int8 results; this matmul gives fp16");
  }
  const std::string err = oracle::ValidatePostConfig(cfg);
  if (!err.empty()) throw CliError(fmt::format("{}: post-processing: {}", op->file, err));
  op->post = cfg;
}


// [rows, columns] of a conv2d option: two integers in lo..hi, or one for both.
std::pair<int, int> ConvPair(const Field& f, int64_t lo, int64_t hi) {
  if (f.IsScalar()) {
    const int v = int(f.Integer(lo, hi));
    return {v, v};
  }
  const std::vector<Field> items = f.Items();
  if (items.size() != 2) f.Fail("expected an integer or a list of two integers [rows, columns]");
  return {int(items[0].Integer(lo, hi)), int(items[1].Integer(lo, hi))};
}

// conv2d's own fields: stride, padding, dilation, groups, mapping, sparse (the kernel and the
// input's shape come from w and x in InferOutputs).
void ReadConvFields(Fields& fields, Operation* op) {
  oracle::ConvGeometry& g = op->conv.geom;
  if (const std::optional<Field> f = fields.Optional("stride")) std::tie(g.stride_y, g.stride_x) = ConvPair(*f, 1, 4);
  if (const std::optional<Field> f = fields.Optional("dilation")) {
    std::tie(g.dilation_y, g.dilation_x) = ConvPair(*f, 1, 4);
  }
  if (const std::optional<Field> pd = fields.Optional("padding")) {
    if (pd->IsScalar()) {
      g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = int(pd->Integer(0, 56));
    } else {
      const std::vector<Field> items = pd->Items();
      if (items.size() == 2) {
        g.pad_top = g.pad_bottom = int(items[0].Integer(0, 56));
        g.pad_left = g.pad_right = int(items[1].Integer(0, 56));
      } else if (items.size() == 4) {
        g.pad_top = int(items[0].Integer(0, 56));
        g.pad_bottom = int(items[1].Integer(0, 56));
        g.pad_left = int(items[2].Integer(0, 56));
        g.pad_right = int(items[3].Integer(0, 56));
      } else {
        pd->Fail("expected an integer, [rows, columns] or [top, bottom, left, right]");
      }
    }
  }
  if (const std::optional<Field> f = fields.Optional("groups")) op->conv.groups = int(f->Integer(1, 1023));
  if (const std::optional<Field> f = fields.Optional("mapping")) {
    const std::string m = f->Scalar();
    if (m == "auto") {
      op->conv_rtl.mapping = harness::ConvMapping::kAuto;
    } else if (m == "broadcast") {
      op->conv_rtl.mapping = harness::ConvMapping::kBroadcast;
    } else if (m == "two_kernel") {
      op->conv_rtl.mapping = harness::ConvMapping::kTwoKernel;
    } else if (m == "four_kernel") {
      op->conv_rtl.mapping = harness::ConvMapping::kFourKernel;
    } else if (m == "depthwise") {
      op->conv_rtl.mapping = harness::ConvMapping::kDepthwise;
    } else {
      f->Fail(fmt::format("unknown mapping '{}' (expected auto, broadcast, two_kernel, four_kernel or depthwise)", m));
    }
  }
  if (const std::optional<Field> f = fields.Optional("sparse")) {
    const std::string v = f->Scalar();
    if (v != "true" && v != "false") f->Fail("expected true or false");
    op->conv_rtl.sparse = v == "true";
  }
}

// conv2d's post-processing (N-3): scale and bias inputs (fp16 [Cout]), activation (relu or a
// table), and for int8 x int8 layers the requantization `shift` with `store: int8` (default) or
// `store: fp16`. Sets op->conv.post, op->conv.channel and y's dtype, then checks the whole layer.
void ReadConvPost(Operation* op, const std::map<std::string, Field>& where, const std::optional<Field>& activation,
                  const std::optional<Field>& shift, const std::optional<Field>& store) {
  oracle::ConvLayer& l = op->conv;
  oracle::PostConfig& cfg = l.post;
  cfg = oracle::PostConfig{};
  cfg.gen = op->generation;
  l.gen = op->generation;
  ReadScaleBiasActivation(*op, where, activation, l.cout, "output channel", &cfg);
  TensorType& y = op->outputs.at("y");
  if (l.mode == oracle::MacMode::kInt8) {
    if (!shift) {
      where.at("w").Fail("an int8 x int8 conv2d needs `shift` (the requantization of N-3.3)");
    }
    cfg.int_acc = true;
    cfg.shift = int(shift->Integer(0, 31));
    cfg.store = oracle::PostStore::kInt8;
    if (store) {
      if (store->Scalar() == "fp16") {
        cfg.store = oracle::PostStore::kFp16;
      } else if (store->Scalar() != "int8") {
        store->Fail(fmt::format("unknown store '{}' (expected int8 or fp16)", store->Scalar()));
      }
    }
    y.dtype = cfg.store == oracle::PostStore::kInt8 ? DType::kInt8 : DType::kFp16;
  } else {
    if (shift) shift->Fail("`shift` requantizes int8 x int8 layers; this conv2d is fp16");
    if (store && store->Scalar() != "fp16") store->Fail("an fp16 conv2d stores fp16 (store: int8 needs int8 inputs)");
  }
  for (int64_t co = 0; co < l.cout; ++co) l.channel.push_back(Channel(*op, co));
  const std::string bad = oracle::CheckConvLayer(l);
  if (!bad.empty()) throw CliError(fmt::format("{}: conv2d: {}", op->file, bad));
}

}  // namespace

oracle::Generation ReadGeneration(const Field& f) {
  oracle::Generation g;
  if (!oracle::ParseGeneration(f.Scalar(), &g)) {
    f.Fail(fmt::format("unknown generation '{}' (expected m1 or m5)", f.Scalar()));
  }
  return g;
}

std::string Operation::Describe() const {
  std::string in;
  for (const auto& [name, t] : inputs) {
    in += fmt::format("{}{} {}", in.empty() ? "" : " x ", DTypeName(t.tensor.dtype),
                      ShapeString(t.tensor.shape));
  }
  if (op == "conv2d") {  // x and w first, in that order
    in.clear();
    for (const char* name : {"x", "w", "scale", "bias"}) {
      if (!inputs.count(name)) continue;
      const Tensor& t = inputs.at(name).tensor;
      in += fmt::format("{}{} {} {}", in.empty() ? "" : ", ", name, DTypeName(t.dtype), ShapeString(t.shape));
    }
  }
  std::string out;
  for (const auto& [name, t] : outputs) {
    out +=
        fmt::format("{}{} {}", out.empty() ? "" : ", ", DTypeName(t.dtype), ShapeString(t.shape));
  }
  std::string fn;
  if (op == "activation") fn = fmt::format(" {}", oracle::ActFnName(function));
  if (op == "reduce") fn = fmt::format(" {} over {}", oracle::ReduceOpName(reduce), oracle::ReduceAxisName(axis));
  if (op == "softmax") fn = fmt::format(" over {}", oracle::ReduceAxisName(axis));
  if (op == "pool") {
    fn = fmt::format(" {} {}x{} stride [{}, {}] padding [{}, {}, {}, {}]", oracle::PoolOpName(pool),
                     window.kernel_h, window.kernel_w, window.stride_y, window.stride_x, window.pad_top,
                     window.pad_bottom, window.pad_left, window.pad_right);
  }
  if (op == "conv2d") {
    const oracle::ConvGeometry& g = conv.geom;
    fn = fmt::format(" {}x{} stride [{}, {}] padding [{}, {}, {}, {}]", g.kernel_h, g.kernel_w, g.stride_y,
                     g.stride_x, g.pad_top, g.pad_bottom, g.pad_left, g.pad_right);
    if (g.dilation_y != 1 || g.dilation_x != 1) fn += fmt::format(" dilation [{}, {}]", g.dilation_y, g.dilation_x);
    if (conv.groups != 1) fn += fmt::format(" groups {}", conv.groups);
  }
  if (op == "elementwise") {
    for (const EwFunction& f : EwFunctions()) {
      if (f.op == ew) fn = fmt::format(" {}", f.name);
    }
  }
  return fmt::format("{}{} {} -> {}, {}", op, fn, in, out, oracle::GenerationName(generation));
}

const std::vector<EwFunction>& EwFunctions() {
  using harness::PeEwOp;
  static const std::vector<EwFunction> f = {
      {"add", PeEwOp::kAdd, 2},          {"sub", PeEwOp::kSub, 2},
      {"mul", PeEwOp::kMul, 2},          {"max", PeEwOp::kMax, 2},
      {"min", PeEwOp::kMin, 2},          {"compare", PeEwOp::kCompare, 2},
      {"abs", PeEwOp::kAbs, 1},          {"neg", PeEwOp::kNeg, 1},
      {"relu", PeEwOp::kRelu, 1},        {"square", PeEwOp::kSquare, 1},
      {"multiply_add", PeEwOp::kMultiplyAdd, 3}, {"add_multiply", PeEwOp::kAddMultiply, 3},
  };
  return f;
}

Operation ReadOperation(Fields& fields, const TensorOptions& options) {
  Operation op;
  op.file = fields.map().file();
  const Field op_field = fields.Required("op");
  op.op = op_field.Scalar();
  if (op.op != "matmul" && op.op != "activation" && op.op != "elementwise" && op.op != "reduce" &&
      op.op != "pool" && op.op != "softmax" && op.op != "conv2d") {
    op_field.Fail(fmt::format(
        "unknown operation '{}' (supported: conv2d, matmul, activation, elementwise, reduce, pool, softmax)",
        op.op));
  }
  if (const std::optional<Field> g = fields.Optional("generation")) {
    op.generation = ReadGeneration(*g);
  }
  if (op.op == "activation") {
    const Field fn = fields.Required("function");
    if (!oracle::ParseActFn(fn.Scalar(), &op.function)) {
      std::string names;
      for (oracle::ActFn f : oracle::kAllActFns) {
        names += std::string(names.empty() ? "" : ", ") + oracle::ActFnName(f);
      }
      fn.Fail(fmt::format("unknown function '{}' (supported: {}, swish)", fn.Scalar(), names));
    }
  }

  int ew_arity = 0;
  if (op.op == "elementwise") {
    const Field fn = fields.Required("function");
    std::string names;
    for (const EwFunction& f : EwFunctions()) {
      names += std::string(names.empty() ? "" : ", ") + f.name;
      if (fn.Scalar() == f.name) {
        op.ew = f.op;
        ew_arity = f.arity;
      }
    }
    if (ew_arity == 0) fn.Fail(fmt::format("unknown function '{}' (supported: {})", fn.Scalar(), names));
  }

  if (op.op == "reduce") {
    const Field fn = fields.Required("function");
    if (!oracle::ParseReduceOp(fn.Scalar(), &op.reduce)) {
      fn.Fail(fmt::format("unknown function '{}' (supported: sum, max, min)", fn.Scalar()));
    }
    const Field ax = fields.Required("axis");
    if (!oracle::ParseReduceAxis(ax.Scalar(), &op.axis)) {
      ax.Fail(fmt::format("unknown axis '{}' (supported: rows, columns, planes, channels)", ax.Scalar()));
    }
  }
  if (op.op == "softmax") {
    op.axis = oracle::ReduceAxis::kRows;  // the last axis, W
    if (const std::optional<Field> ax = fields.Optional("axis")) {
      if (!oracle::ParseReduceAxis(ax->Scalar(), &op.axis)) {
        ax->Fail(fmt::format("unknown axis '{}' (supported: rows, columns, planes, channels)", ax->Scalar()));
      }
    }
  }
  if (op.op == "pool") {
    const Field fn = fields.Required("function");
    if (!oracle::ParsePoolOp(fn.Scalar(), &op.pool)) {
      fn.Fail(fmt::format("unknown function '{}' (supported: max, min, mean)", fn.Scalar()));
    }
    auto pair = [](const Field& f, int64_t lo, int64_t hi) {
      const std::vector<Field> items = f.Items();
      if (items.size() != 2) f.Fail("expected a list of two integers [rows, columns]");
      return std::pair<int, int>(int(items[0].Integer(lo, hi)), int(items[1].Integer(lo, hi)));
    };
    const Field k = fields.Required("kernel");
    std::tie(op.window.kernel_h, op.window.kernel_w) = pair(k, 1, 8);
    op.window.stride_y = op.window.kernel_h;
    op.window.stride_x = op.window.kernel_w;
    if (const std::optional<Field> st = fields.Optional("stride")) {
      std::tie(op.window.stride_y, op.window.stride_x) = pair(*st, 1, 8);
    }
    if (const std::optional<Field> pd = fields.Optional("padding")) {
      const std::vector<Field> items = pd->Items();
      if (items.size() == 2) {
        op.window.pad_top = op.window.pad_bottom = int(items[0].Integer(0, 7));
        op.window.pad_left = op.window.pad_right = int(items[1].Integer(0, 7));
      } else if (items.size() == 4) {
        op.window.pad_top = int(items[0].Integer(0, 7));
        op.window.pad_bottom = int(items[1].Integer(0, 7));
        op.window.pad_left = int(items[2].Integer(0, 7));
        op.window.pad_right = int(items[3].Integer(0, 7));
      } else {
        pd->Fail("expected [rows, columns] or [top, bottom, left, right]");
      }
    }
  }

  if (op.op == "conv2d") ReadConvFields(fields, &op);
  std::optional<Field> activation, shift, store;
  if (op.op == "matmul" || op.op == "conv2d") {
    activation = fields.Optional("activation");
    shift = fields.Optional("shift");
  }
  if (op.op == "conv2d") store = fields.Optional("store");

  Fields inputs(fields.Required("inputs"));
  std::map<std::string, Field> where;
  std::vector<const char*> names =
      (op.op == "activation" || op.op == "reduce" || op.op == "pool" || op.op == "softmax")
          ? std::vector<const char*>{"x"}
                                                                      : std::vector<const char*>{"a", "b"};
  if (op.op == "conv2d") names = {"x", "w"};
  if (op.op == "elementwise") {
    names = ew_arity == 1 ? std::vector<const char*>{"x"}
            : ew_arity == 2 ? std::vector<const char*>{"a", "b"}
                            : std::vector<const char*>{"a", "b", "c"};
  }
  for (const char* name : names) {
    const Field f = inputs.Required(name);
    where.emplace(name, f);
    op.inputs.emplace(name, LoadTensor(f, options));
  }
  if (op.op == "matmul" || op.op == "conv2d") {
    for (const char* name : {"scale", "bias"}) {
      if (const std::optional<Field> f = inputs.Optional(name)) {
        where.emplace(name, *f);
        op.inputs.emplace(name, LoadTensor(*f, options));
      }
    }
  }
  inputs.Finish();
  InferOutputs(&op, where);
  // An output can be far larger than the inputs: a matmul of a [65536, 1] column by a
  // [1, 65536] row has 2^32 elements, a 1x1 conv2d with many output channels likewise. The
  // engines would fail to allocate it (exit 3) or take the machine's memory, so it is bad input
  // under the same bound as an input tensor.
  for (const auto& [name, type] : op.outputs) {
    int64_t count = 1;  // stops just past the bound, so it cannot overflow
    for (int64_t d : type.shape) {
      count = d > 0 && count > kMaxElements / d ? kMaxElements + 1 : count * d;
    }
    if (count > kMaxElements) {
      inputs.map().Fail(fmt::format("the output {} would be {} {}, more than 2^{} elements", name,
                                    DTypeName(type.dtype), ShapeString(type.shape), kMaxElementsLog2));
    }
  }
  if (op.op == "matmul") ReadMatmulPost(&op, where, activation, shift);
  if (op.op == "conv2d") ReadConvPost(&op, where, activation, shift, store);

  if (const std::optional<Field> outputs_field = fields.Optional("outputs")) {
    Fields outputs(*outputs_field);
    for (const auto& [name, type] : op.outputs) {
      if (const std::optional<Field> f = outputs.Optional(name)) {
        f->Path();  // checks it is a non-empty path
        op.output_fields.emplace(name, *f);
      }
    }
    outputs.Finish();
  }
  return op;
}

void InferOutputs(Operation* op, const std::map<std::string, Field>& where) {
  if (op->op == "conv2d") {
    const Tensor& x = op->inputs.at("x").tensor;
    const Tensor& w = op->inputs.at("w").tensor;
    for (const char* name : {"x", "w"}) {
      const Tensor& t = op->inputs.at(name).tensor;
      if (t.dtype != DType::kFp16 && t.dtype != DType::kInt8) {
        where.at(name).Fail(fmt::format("wrong dtype: {} ('{}'); conv2d inputs are fp16 ('<f2') or int8 ('|i1')",
                                        DTypeName(t.dtype), NpyDescr(t.dtype)));
      }
      if (ElementCount(t.shape) == 0 || t.shape.empty()) {
        where.at(name).Fail(fmt::format("empty tensor (shape {})", ShapeString(t.shape)));
      }
    }
    if (w.dtype != x.dtype) {
      where.at("w").Fail(fmt::format("w is {} but x is {} (conv2d takes fp16 x fp16 or int8 x int8)",
                                     DTypeName(w.dtype), DTypeName(x.dtype)));
    }
    if (x.shape.size() != 3 && x.shape.size() != 4) {
      where.at("x").Fail(fmt::format("shape {}: conv2d takes x [C, H, W] or [N, C, H, W]", ShapeString(x.shape)));
    }
    if (w.shape.size() != 4) {
      where.at("w").Fail(fmt::format("shape {}: conv2d takes w [Cout, Cin / groups, KH, KW]", ShapeString(w.shape)));
    }
    const size_t r = x.shape.size();
    oracle::ConvLayer& l = op->conv;
    oracle::ConvGeometry& g = l.geom;
    op->batch = r == 4 ? x.shape[0] : 0;
    const int64_t cin = x.shape[r - 3];
    if (x.shape[r - 2] > 4095 || x.shape[r - 1] > 4095 || cin > 65535) {
      where.at("x").Fail(fmt::format("shape {}: H and W at most 4095, C at most 65535", ShapeString(x.shape)));
    }
    if (w.shape[0] > 65535) where.at("w").Fail(fmt::format("shape {}: Cout at most 65535", ShapeString(w.shape)));
    g.height = int(x.shape[r - 2]);
    g.width = int(x.shape[r - 1]);
    g.kernel_h = int(std::min<int64_t>(w.shape[2], 99));
    g.kernel_w = int(std::min<int64_t>(w.shape[3], 99));
    l.cout = int(w.shape[0]);
    if (cin % l.groups != 0 || w.shape[1] != cin / l.groups) {
      where.at("w").Fail(fmt::format("shape {}: x has {} channels and groups is {}, so w needs shape [Cout, {}, KH, KW]",
                                     ShapeString(w.shape), cin, l.groups,
                                     cin % l.groups == 0 ? fmt::format("{}", cin / l.groups) : std::string("?")));
    }
    if (l.cout % l.groups != 0) {
      where.at("w").Fail(fmt::format("shape {}: Cout {} is not a multiple of groups {}", ShapeString(w.shape), l.cout,
                                     l.groups));
    }
    g.channels = int(cin / l.groups);
    l.mode = x.dtype == DType::kInt8 ? oracle::MacMode::kInt8 : oracle::MacMode::kFp16;
    const std::string bad = oracle::CheckConvGeometry(g, oracle::kMaxLayerKernel);
    if (!bad.empty()) {
      where.at("x").Fail(fmt::format("x {} with w {}: {}", ShapeString(x.shape), ShapeString(w.shape), bad));
    }
    std::vector<int64_t> y;
    if (r == 4) y.push_back(op->batch);
    y.insert(y.end(), {int64_t(l.cout), int64_t(g.OutHeight()), int64_t(g.OutWidth())});
    op->outputs = {{"y", TensorType{DType::kFp16, y}}};
    return;
  }
  if (op->op == "reduce" || op->op == "pool") {
    const Tensor& x = op->inputs.at("x").tensor;
    const Field& f = where.at("x");
    if (x.dtype != DType::kFp16) {
      f.Fail(fmt::format("wrong dtype: {} ('{}'); {} inputs are fp16 ('<f2')", DTypeName(x.dtype),
                         NpyDescr(x.dtype), op->op));
    }
    const size_t rank = x.shape.size();
    if (rank < (op->op == "pool" ? 2u : 1u) || rank > 3 || ElementCount(x.shape) == 0) {
      f.Fail(fmt::format("shape {}: {} takes {} with no empty dimension", ShapeString(x.shape), op->op,
                         op->op == "pool" ? "[H, W] or [C, H, W]" : "[W], [H, W] or [C, H, W]"));
    }
    const oracle::Tensor3 v = As3(x);
    std::vector<int64_t> y;
    if (op->op == "pool") {
      op->window.channels = v.c;
      op->window.height = v.h;
      op->window.width = v.w;
      const std::string bad = oracle::CheckPoolGeometry(op->window);
      if (!bad.empty()) f.Fail(bad);
      if (rank == 3) y.push_back(v.c);
      y.push_back(op->window.OutHeight());
      y.push_back(op->window.OutWidth());
    } else {
      // rank 3 [C, H, W]: rows [C, H], columns [C, W], planes [C], channels [H, W];
      // rank 2 [H, W]: [H], [W], [], [H, W]; rank 1 [W]: [], [W], [], [W].
      const int64_t c = v.c, h = v.h, w = v.w;
      switch (op->axis) {
        case oracle::ReduceAxis::kRows: y = rank == 3 ? std::vector<int64_t>{c, h} : rank == 2 ? std::vector<int64_t>{h} : std::vector<int64_t>{}; break;
        case oracle::ReduceAxis::kColumns: y = rank == 3 ? std::vector<int64_t>{c, w} : std::vector<int64_t>{w}; break;
        case oracle::ReduceAxis::kPlanes: y = rank == 3 ? std::vector<int64_t>{c} : std::vector<int64_t>{}; break;
        case oracle::ReduceAxis::kChannels: y = rank == 1 ? std::vector<int64_t>{w} : std::vector<int64_t>{h, w}; break;
      }
    }
    op->outputs = {{"y", TensorType{DType::kFp16, y}}};
    return;
  }
  if (op->op == "softmax") {
    const Tensor& x = op->inputs.at("x").tensor;
    const Field& f = where.at("x");
    if (x.dtype != DType::kFp16) {
      f.Fail(fmt::format("wrong dtype: {} ('{}'); softmax inputs are fp16 ('<f2')", DTypeName(x.dtype),
                         NpyDescr(x.dtype)));
    }
    if (x.shape.empty() || x.shape.size() > 3 || ElementCount(x.shape) == 0) {
      f.Fail(fmt::format("shape {}: softmax takes [W], [H, W] or [C, H, W] with no empty dimension",
                         ShapeString(x.shape)));
    }
    op->outputs = {{"y", TensorType{DType::kFp16, x.shape}}};
    return;
  }
  if (op->op == "elementwise") {
    const std::string first = where.count("x") ? "x" : "a";
    const Tensor& x0 = op->inputs.at(first).tensor;
    for (const auto& [name, f] : where) {
      const Tensor& t = op->inputs.at(name).tensor;
      if (t.dtype != DType::kFp16) {
        f.Fail(fmt::format("wrong dtype: {} ('{}'); elementwise inputs are fp16 ('<f2')",
                           DTypeName(t.dtype), NpyDescr(t.dtype)));
      }
      if (t.shape != x0.shape) {
        f.Fail(fmt::format("shape mismatch: {} is {} but {} is {} (elementwise inputs have one shape)",
                           name, ShapeString(t.shape), first, ShapeString(x0.shape)));
      }
    }
    if (ElementCount(x0.shape) == 0) {
      where.at(first).Fail(fmt::format("empty tensor (shape {})", ShapeString(x0.shape)));
    }
    op->outputs = {{"y", TensorType{DType::kFp16, x0.shape}}};
    return;
  }
  if (op->op == "activation") {
    const Tensor& x = op->inputs.at("x").tensor;
    if (x.dtype != DType::kFp16) {
      where.at("x").Fail(fmt::format("wrong dtype: {} ('{}'); activation inputs are fp16 ('<f2')",
                                     DTypeName(x.dtype), NpyDescr(x.dtype)));
    }
    if (ElementCount(x.shape) == 0) {
      where.at("x").Fail(fmt::format("empty tensor (shape {})", ShapeString(x.shape)));
    }
    op->outputs = {{"y", TensorType{DType::kFp16, x.shape}}};
    return;
  }
  const Tensor& a = op->inputs.at("a").tensor;
  const Tensor& b = op->inputs.at("b").tensor;
  CheckMatmulInput(a, where.at("a"));
  CheckMatmulInput(b, where.at("b"));
  const MatrixShape ma = AsMatrix(a, false);
  const MatrixShape mb = AsMatrix(b, true);
  if (ma.cols != mb.rows) {
    where.at("b").Fail(fmt::format("shape mismatch: a is {} so b needs {} rows (K), got shape {}",
                                   ShapeString(a.shape), ma.cols, ShapeString(b.shape)));
  }
  TensorType y;
  y.dtype = a.dtype == DType::kInt8 && b.dtype == DType::kInt8 ? DType::kInt32 : DType::kFp16;
  if (a.shape.size() == 2) y.shape.push_back(ma.rows);
  if (b.shape.size() == 2) y.shape.push_back(mb.cols);
  op->outputs = {{"y", y}};
}
}  // namespace ane::cli
