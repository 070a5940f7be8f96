#include "tb/cli/operation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "tb/oracle/mac.h"

namespace ane::cli {

namespace {

// A matmul operand as a matrix: a 1-D a is a row [1, K], a 1-D b a column [K, 1]
// (numpy.matmul's rule; the output drops that dimension again).
struct MatrixShape {
  int64_t rows = 0;
  int64_t cols = 0;
};
MatrixShape AsMatrix(const Tensor& t, bool is_b) {
  if (t.shape.size() == 2) return {t.shape[0], t.shape[1]};
  return is_b ? MatrixShape{t.shape[0], 1} : MatrixShape{1, t.shape[0]};
}

oracle::Matrix ToOracle(const Tensor& t, bool is_b) {
  oracle::Matrix m;
  m.type = t.dtype == DType::kInt8 ? oracle::ElemType::kInt8 : oracle::ElemType::kFp16;
  const MatrixShape s = AsMatrix(t, is_b);
  m.rows = s.rows;
  m.cols = s.cols;
  m.codes.assign(t.bits.begin(), t.bits.end());
  return m;
}

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

// The value of one input element for the fp64 reference (after the N-1 input boundary).
double ReferenceValue(uint32_t bits, DType dtype) {
  if (dtype == DType::kInt8) return int8_t(uint8_t(bits));
  return oracle::Fp16ToDouble(oracle::InputBoundary(uint16_t(bits)));
}

oracle::Exact DoubleToExact(double v) {
  if (std::isinf(v)) return oracle::Exact::Infinity(v < 0);
  if (v == 0) return oracle::Exact();
  int e = 0;
  const double m = std::frexp(std::fabs(v), &e);  // v = m * 2^e, 0.5 <= m < 1
  return oracle::Exact::FromInt(v < 0, uint64_t(std::ldexp(m, 53)), e - 53);
}

}  // namespace

std::optional<Engine> ParseEngine(const std::string& text) {
  if (text == "oracle") return Engine::kOracle;
  if (text == "rtl") return Engine::kRtl;
  if (text == "both") return Engine::kBoth;
  return std::nullopt;
}

const char* EngineName(Engine e) {
  switch (e) {
    case Engine::kOracle:
      return "oracle";
    case Engine::kRtl:
      return "rtl";
    case Engine::kBoth:
      return "both";
  }
  return "?";
}

void CheckEngine(Engine engine, const std::string& op) {
  if (engine == Engine::kOracle || op == "matmul" || op == "activation") return;
  throw CliError(fmt::format("--engine {}: there is no RTL engine for {} yet; use --engine oracle",
                             EngineName(engine), op));
}

harness::DataFault FaultFromEnvironment() {
  const char* env = std::getenv("ANE_FAULT");
  if (env == nullptr) return {};
  const std::string text(env);
  const size_t comma = text.find(',');
  const auto number = [](const std::string& s) {
    return !s.empty() && s.size() < 12 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (comma == std::string::npos || !number(text.substr(0, comma)) ||
      !number(text.substr(comma + 1))) {
    throw CliError(fmt::format("ANE_FAULT={}: expected ROW,K (two non-negative integers)", text));
  }
  return {std::stoll(text.substr(0, comma)), std::stoll(text.substr(comma + 1))};
}

std::string ValueText(uint32_t bits, DType dtype) {
  return dtype == DType::kFp16 ? fmt::format("{} (0x{:04x})", FormatValue(bits, dtype), bits)
                               : FormatValue(bits, dtype);
}

std::string ElementName(const std::string& output, int64_t index, const Tensor& t) {
  return t.bits.size() == 1 ? output : output + IndexString(index, t.shape);
}

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
  std::string out;
  for (const auto& [name, t] : outputs) {
    out +=
        fmt::format("{}{} {}", out.empty() ? "" : ", ", DTypeName(t.dtype), ShapeString(t.shape));
  }
  const std::string fn = op == "activation" ? fmt::format(" {}", oracle::ActFnName(function)) : "";
  return fmt::format("{}{} {} -> {}, {}", op, fn, in, out, oracle::GenerationName(generation));
}

Operation ReadOperation(Fields& fields, const TensorOptions& options) {
  Operation op;
  op.file = fields.map().file();
  const Field op_field = fields.Required("op");
  op.op = op_field.Scalar();
  if (op.op != "matmul" && op.op != "activation") {
    op_field.Fail(fmt::format("unknown operation '{}' (supported: matmul, activation)", op.op));
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

  Fields inputs(fields.Required("inputs"));
  std::map<std::string, Field> where;
  const std::vector<const char*> names =
      op.op == "activation" ? std::vector<const char*>{"x"} : std::vector<const char*>{"a", "b"};
  for (const char* name : names) {
    const Field f = inputs.Required(name);
    where.emplace(name, f);
    op.inputs.emplace(name, LoadTensor(f, options));
  }
  inputs.Finish();
  InferOutputs(&op, where);

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

namespace {

Tensor OutputTensor(const Operation& op, const oracle::MatmulResult& r) {
  Tensor y;
  y.dtype = op.outputs.at("y").dtype;
  y.shape = op.outputs.at("y").shape;
  if (r.is_int) {
    for (int32_t v : r.int32) y.bits.push_back(uint32_t(v));
  } else {
    y.bits.assign(r.fp16.begin(), r.fp16.end());
  }
  return y;
}

}  // namespace

namespace {

Evaluation EvaluateActivation(const Operation& op, Engine engine) {
  const Tensor& x = op.inputs.at("x").tensor;
  const oracle::ActTable& table = oracle::DefaultActTable(op.function);
  std::vector<uint16_t> codes(x.bits.begin(), x.bits.end());
  Tensor want{DType::kFp16, x.shape, {}};
  if (engine != Engine::kRtl) {
    for (uint16_t c : codes) want.bits.push_back(oracle::EvalActTable(table, c));
  }
  Evaluation e;
  if (engine == Engine::kOracle) {
    e.outputs.emplace("y", std::move(want));
    return e;
  }
  harness::RtlPostStats stats;
  const std::vector<uint16_t> got = harness::RtlActivation(table, codes, &stats);
  e.rtl = RtlRun{{}, stats};
  Tensor y{DType::kFp16, x.shape, std::vector<uint32_t>(got.begin(), got.end())};
  if (engine == Engine::kBoth) {
    for (size_t i = 0; i < y.bits.size(); ++i) {
      if (y.bits[i] == want.bits[i]) continue;
      if (!e.mismatch) {
        EngineMismatch m;
        m.element = ElementName("y", int64_t(i), y);
        m.rtl = ValueText(y.bits[i], y.dtype);
        m.oracle = ValueText(want.bits[i], want.dtype);
        m.total = int64_t(y.bits.size());
        m.stage = {"activation table (N-5.1)",
                   fmt::format("input x = {}", ValueText(x.bits[i], DType::kFp16))};
        e.mismatch = m;
      }
      ++e.mismatch->count;
    }
  }
  e.outputs.emplace("y", std::move(y));
  return e;
}

}  // namespace

Evaluation Evaluate(const Operation& op, Engine engine, const harness::DataFault& fault) {
  if (op.op == "activation") return EvaluateActivation(op, engine);
  const oracle::Matrix a = ToOracle(op.inputs.at("a").tensor, false);
  const oracle::Matrix b = ToOracle(op.inputs.at("b").tensor, true);
  Evaluation e;
  std::optional<oracle::MatmulResult> want;
  if (engine != Engine::kRtl) want = oracle::Matmul(a, b, op.generation);
  if (engine == Engine::kOracle) {
    e.saturated = want->saturated_count;
    e.outputs.emplace("y", OutputTensor(op, *want));
    return e;
  }
  harness::RtlMatmulOptions options;
  options.fault = fault;
  const harness::RtlMatmulResult got = harness::RtlMatmul(a, b, op.generation, options);
  e.saturated = got.y.saturated_count;
  e.rtl = RtlRun{got.stats, std::nullopt};
  Tensor y = OutputTensor(op, got.y);
  if (want) {
    const Tensor ref = OutputTensor(op, *want);
    for (size_t i = 0; i < y.bits.size(); ++i) {
      if (y.bits[i] == ref.bits[i]) continue;
      if (!e.mismatch) {
        EngineMismatch m;
        m.element = ElementName("y", int64_t(i), y);
        m.rtl = ValueText(y.bits[i], y.dtype);
        m.oracle = ValueText(ref.bits[i], ref.dtype);
        m.total = int64_t(y.bits.size());
        m.stage = harness::LocateMismatch(a, b, op.generation, int64_t(i) / b.cols,
                                          int64_t(i) % b.cols, fault);
        e.mismatch = m;
      }
      ++e.mismatch->count;
    }
    if (!e.mismatch && got.y.saturated_count != want->saturated_count) {
      e.mismatch = EngineMismatch{"y (saturation count)", std::to_string(got.y.saturated_count),
                                  std::to_string(want->saturated_count), 1, 1,
                                  {"accumulate (N-2.8)", "the int32 saturation flags differ"}};
    }
  }
  e.outputs.emplace("y", std::move(y));
  return e;
}

TensorMap Reference(const Operation& op) {
  if (op.op == "activation") {
    const Tensor& x = op.inputs.at("x").tensor;
    Tensor y{DType::kFp16, x.shape, {}};
    for (uint32_t c : x.bits) {
      const double v = oracle::ActReference(op.function, ReferenceValue(c, DType::kFp16));
      y.bits.push_back(std::isnan(v) ? 0u : oracle::RoundToFp16(DoubleToExact(v)));
    }
    return {{"y", y}};
  }
  const Tensor& a = op.inputs.at("a").tensor;
  const Tensor& b = op.inputs.at("b").tensor;
  const MatrixShape ma = AsMatrix(a, false);
  const MatrixShape mb = AsMatrix(b, true);
  Tensor y;
  y.dtype = op.outputs.at("y").dtype;
  y.shape = op.outputs.at("y").shape;
  for (int64_t r = 0; r < ma.rows; ++r) {
    for (int64_t c = 0; c < mb.cols; ++c) {
      double sum = 0;
      for (int64_t k = 0; k < ma.cols; ++k) {
        const double x = ReferenceValue(a.bits[size_t(r * ma.cols + k)], a.dtype);
        const double w = ReferenceValue(b.bits[size_t(k * mb.cols + c)], b.dtype);
        const double p = (x == 0 || w == 0) ? 0.0 : x * w;  // exact: 11 x 11 significand bits
        sum = (std::isinf(sum) && std::isinf(p) && sum != p) ? 0.0 : sum + p;
      }
      if (y.dtype == DType::kInt32) {
        y.bits.push_back(uint32_t(int32_t(std::clamp(sum, double(INT32_MIN), double(INT32_MAX)))));
      } else {
        y.bits.push_back(oracle::RoundToFp16(DoubleToExact(sum)));
      }
    }
  }
  return {{"y", y}};
}

Difference Compare(const Tensor& got, const Tensor& want) {
  Difference d;
  for (size_t i = 0; i < got.bits.size(); ++i) {
    const int64_t diff =
        std::llabs(OrderedValue(got.bits[i], got.dtype) - OrderedValue(want.bits[i], want.dtype));
    if (diff == 0) continue;
    ++d.count;
    if (diff > d.max) {
      d.max = diff;
      d.worst = int64_t(i);
    }
  }
  return d;
}

}  // namespace ane::cli
