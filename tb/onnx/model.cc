// SPDX-License-Identifier: Apache-2.0
#include "tb/onnx/model.h"

#include <fmt/format.h>
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "tb/oracle/formats.h"

namespace ane::onnx_in {

const char* ValueTypeName(ValueType t) { return t == ValueType::kFp16 ? "fp16" : "int64"; }

int64_t Value::Count() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

namespace {

using TP = onnx::TensorProto;

const char* ElemName(int type) {
  switch (type) {
    case TP::FLOAT: return "float";
    case TP::UINT8: return "uint8";
    case TP::INT8: return "int8";
    case TP::UINT16: return "uint16";
    case TP::INT16: return "int16";
    case TP::INT32: return "int32";
    case TP::INT64: return "int64";
    case TP::STRING: return "string";
    case TP::BOOL: return "bool";
    case TP::FLOAT16: return "float16";
    case TP::DOUBLE: return "double";
    case TP::UINT32: return "uint32";
    case TP::UINT64: return "uint64";
    case TP::COMPLEX64: return "complex64";
    case TP::COMPLEX128: return "complex128";
    case TP::BFLOAT16: return "bfloat16";
    default: return "an undefined type";
  }
}

// Little-endian element `i` of raw_data (the only byte order ONNX writes).
template <class T>
T RawAt(const std::string& raw, int64_t i) {
  T v;
  std::memcpy(&v, raw.data() + size_t(i) * sizeof(T), sizeof(T));
  return v;
}

uint16_t DoubleToInputFp16(double d) {
  // the ANE's input boundary (N-1) takes fp32; a double is first the nearest fp32 (what an
  // fp32 model would have held), then fp16 through the boundary
  const float f = float(d);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return oracle::Fp32ToFp16(u);
}

}  // namespace

Converted FromTensorProto(const onnx::TensorProto& t, const std::string& what) {
  Converted c;
  c.from = ElemName(t.data_type());
  if (t.data_location() == TP::EXTERNAL || t.external_data_size() > 0) {
    throw OnnxError(fmt::format("{}: tensor data in an external file is not supported", what));
  }
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0) throw OnnxError(fmt::format("{}: negative dimension {}", what, d));
    if (d > 0 && n > (int64_t(1) << 31) / d) throw OnnxError(fmt::format("{}: more than 2^31 elements", what));
    n *= d;
    c.value.shape.push_back(d);
  }
  const bool raw = t.has_raw_data();
  auto need = [&](int64_t have, const char* field) {
    if (have != n) {
      throw OnnxError(fmt::format("{}: {} holds {} elements, the shape {} needs {}", what, field, have,
                                  fmt::join(c.value.shape, "x"), n));
    }
  };
  auto raw_need = [&](size_t bytes) {
    if (t.raw_data().size() != size_t(n) * bytes) {
      throw OnnxError(
          fmt::format("{}: raw_data holds {} bytes, the shape needs {}", what, t.raw_data().size(), size_t(n) * bytes));
    }
  };
  Value& v = c.value;
  switch (t.data_type()) {
    case TP::FLOAT16:
      v.type = ValueType::kFp16;
      if (raw) {
        raw_need(2);
        for (int64_t i = 0; i < n; ++i) v.fp16.push_back(RawAt<uint16_t>(t.raw_data(), i));
      } else {
        need(t.int32_data_size(), "int32_data");
        for (int32_t x : t.int32_data()) v.fp16.push_back(uint16_t(x));
      }
      return c;
    case TP::FLOAT:
      v.type = ValueType::kFp16;
      c.rounded = true;
      if (raw) {
        raw_need(4);
        for (int64_t i = 0; i < n; ++i) v.fp16.push_back(oracle::Fp32ToFp16(RawAt<uint32_t>(t.raw_data(), i)));
      } else {
        need(t.float_data_size(), "float_data");
        for (float f : t.float_data()) {
          uint32_t u;
          std::memcpy(&u, &f, 4);
          v.fp16.push_back(oracle::Fp32ToFp16(u));
        }
      }
      return c;
    case TP::DOUBLE:
      v.type = ValueType::kFp16;
      c.rounded = true;
      if (raw) {
        raw_need(8);
        for (int64_t i = 0; i < n; ++i) v.fp16.push_back(DoubleToInputFp16(RawAt<double>(t.raw_data(), i)));
      } else {
        need(t.double_data_size(), "double_data");
        for (double d : t.double_data()) v.fp16.push_back(DoubleToInputFp16(d));
      }
      return c;
    case TP::INT64:
      v.type = ValueType::kInt64;
      if (raw) {
        raw_need(8);
        for (int64_t i = 0; i < n; ++i) v.i64.push_back(RawAt<int64_t>(t.raw_data(), i));
      } else {
        need(t.int64_data_size(), "int64_data");
        v.i64.assign(t.int64_data().begin(), t.int64_data().end());
      }
      return c;
    case TP::INT32:
    case TP::INT16:
    case TP::INT8:
    case TP::UINT16:
    case TP::UINT8:
    case TP::BOOL: {
      v.type = ValueType::kInt64;
      const int type = t.data_type();
      if (raw) {
        const size_t bytes = type == TP::INT32 ? 4 : (type == TP::INT16 || type == TP::UINT16) ? 2 : 1;
        raw_need(bytes);
        for (int64_t i = 0; i < n; ++i) {
          switch (type) {
            case TP::INT32: v.i64.push_back(RawAt<int32_t>(t.raw_data(), i)); break;
            case TP::INT16: v.i64.push_back(RawAt<int16_t>(t.raw_data(), i)); break;
            case TP::UINT16: v.i64.push_back(RawAt<uint16_t>(t.raw_data(), i)); break;
            case TP::INT8: v.i64.push_back(RawAt<int8_t>(t.raw_data(), i)); break;
            default: v.i64.push_back(RawAt<uint8_t>(t.raw_data(), i)); break;
          }
        }
      } else {
        need(t.int32_data_size(), "int32_data");
        v.i64.assign(t.int32_data().begin(), t.int32_data().end());
      }
      return c;
    }
    default:
      throw OnnxError(
          fmt::format("{}: element type {} is not supported (fp16 values: float16, float, double; "
                      "integers: int64, int32, int16, int8, uint16, uint8, bool)",
                      what, c.from));
  }
}

std::vector<double> FloatValues(const onnx::TensorProto& t, const std::string& what) {
  std::vector<double> v;
  const bool raw = t.has_raw_data();
  int64_t n = 1;
  for (int64_t d : t.dims()) n *= d;
  const size_t width = t.data_type() == onnx::TensorProto::DOUBLE ? 8 : 4;
  const int64_t have = raw                                          ? int64_t(t.raw_data().size() / width)
                       : t.data_type() == onnx::TensorProto::DOUBLE ? t.double_data_size()
                                                                    : t.float_data_size();
  if (t.data_type() != onnx::TensorProto::FLOAT16 && have != n) {
    throw OnnxError(fmt::format("{}: {} values for a shape of {}", what, have, n));
  }
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT:
      for (int64_t i = 0; i < n; ++i) {
        float f;
        if (raw) {
          std::memcpy(&f, t.raw_data().data() + 4 * i, 4);
        } else {
          f = t.float_data(int(i));
        }
        v.push_back(f);
      }
      return v;
    case onnx::TensorProto::DOUBLE:
      for (int64_t i = 0; i < n; ++i) {
        double d;
        if (raw) {
          std::memcpy(&d, t.raw_data().data() + 8 * i, 8);
        } else {
          d = t.double_data(int(i));
        }
        v.push_back(d);
      }
      return v;
    case onnx::TensorProto::FLOAT16: {
      const Converted c = FromTensorProto(t, what);
      for (uint16_t h : c.value.fp16) v.push_back(oracle::Fp16ToDouble(h));
      return v;
    }
    default: throw OnnxError(fmt::format("{}: not floating-point data", what));
  }
}

onnx::TensorProto ReadTensorFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw OnnxError(fmt::format("{}: cannot open", path));
  onnx::TensorProto t;
  if (!t.ParseFromIstream(&f)) throw OnnxError(fmt::format("{}: not a serialized ONNX TensorProto", path));
  return t;
}

onnx::ModelProto LoadModel(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw OnnxError(fmt::format("{}: cannot open", path));
  onnx::ModelProto m;
  if (!m.ParseFromIstream(&f)) throw OnnxError(fmt::format("{}: not a serialized ONNX model (ModelProto)", path));
  CheckModel(&m, path);
  return m;
}

void CheckModel(onnx::ModelProto* model, const std::string& name) {
  onnx::ModelProto& m = *model;
  auto one_line = [](std::string s) {
    for (char& ch : s) {
      if (ch == '\n' || ch == '\r') ch = ' ';
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  };
  try {
    onnx::checker::check_model(m);
  } catch (const std::exception& e) {
    throw OnnxError(fmt::format("{}: the ONNX checker refuses the model: {}", name, one_line(e.what())));
  }
  // Debian's libonnx 1.12 dereferences a missing dimension in the convolution shape inference
  // when an input of a Conv or ConvTranspose has fewer than 3 axes, and divides by a stride of 0
  // (both found by fuzz_onnx): the graph's own declared inputs, initializers and the nodes'
  // attributes are checked here first.
  std::map<std::string, int> rank;
  for (const auto& vi : m.graph().input()) {
    if (vi.type().has_tensor_type() && vi.type().tensor_type().has_shape()) {
      rank[vi.name()] = vi.type().tensor_type().shape().dim_size();
    }
  }
  for (const auto& t : m.graph().initializer()) rank[t.name()] = t.dims_size();
  for (const auto& n : m.graph().node()) {
    const std::string& op = n.op_type();
    if (op != "Conv" && op != "ConvTranspose" && op != "MaxPool" && op != "AveragePool" && op != "LpPool") continue;
    // and divides by a stride, dilation or group of 0 (a floating-point exception)
    for (const auto& a : n.attribute()) {
      const bool positive = a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape";
      for (int64_t v : a.ints()) {
        if (positive && v < 1) {
          throw OnnxError(
              fmt::format("{}: node '{}' ({}): {} holds {}; each must be 1 or more", name, n.name(), op, a.name(), v));
        }
      }
      if (a.name() == "group" && a.i() < 1) {
        throw OnnxError(fmt::format("{}: node '{}' ({}): group {}; it must be 1 or more", name, n.name(), op, a.i()));
      }
    }
    for (int k = 0; k < n.input_size() && k < 2; ++k) {
      auto r = rank.find(n.input(k));
      if (r != rank.end() && r->second < 3) {
        throw OnnxError(fmt::format("{}: node '{}' ({}): input '{}' has {} axes; it needs [N, C, ...]", name, n.name(),
                                    op, n.input(k), r->second));
      }
    }
  }
  try {
    onnx::ShapeInferenceOptions opt{/*check_type=*/true, /*error_mode=*/1, /*enable_data_propagation=*/true};
    onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(), opt);
  } catch (const std::exception& e) {
    throw OnnxError(fmt::format("{}: shape inference fails: {}", name, one_line(e.what())));
  }
  if (m.graph().output_size() == 0) throw OnnxError(fmt::format("{}: the graph has no output", name));
}

}  // namespace ane::onnx_in
