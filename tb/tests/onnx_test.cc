// SPDX-License-Identifier: Apache-2.0
// ONNX models in (docs/onnx.md): the lowering's fusions and refusals, a small network bit-exact
// on the RTL against the oracle, and `ane run MODEL.onnx` end to end (outputs against host
// fp64 / _Float16 arithmetic, bad input refused with one line and nothing written). ONNX's own
// backend tests run as ctest onnx.conformance.* (tb/onnx/conformance.h).
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "tb/onnx/lower.h"
#include "tb/onnx/model.h"
#include "tb/onnx/networks.h"
#include "tb/oracle/formats.h"
#include "tb/tests/cli_fixture.h"

namespace ane {
namespace {

using onnx_in::Plan;
using onnx_in::Value;

// ---------------------------------------------------------------- building models

struct ModelBuilder {
  onnx::ModelProto m;
  onnx::GraphProto* g;
  explicit ModelBuilder(int opset = 13) {
    m.set_ir_version(8);
    m.set_producer_name("onnx_test");
    auto* o = m.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    g = m.mutable_graph();
    g->set_name("g");
  }
  void Input(const std::string& name, const std::vector<int64_t>& shape) {
    auto* v = g->add_input();
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) t->mutable_shape()->add_dim()->set_dim_value(d);
  }
  void Output(const std::string& name, const std::vector<int64_t>& shape) {
    auto* v = g->add_output();
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) t->mutable_shape()->add_dim()->set_dim_value(d);
  }
  void Init(const std::string& name, const std::vector<int64_t>& shape, const std::vector<float>& values) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) t->add_dims(d);
    for (float f : values) t->add_float_data(f);
  }
  onnx::NodeProto* Node(const std::string& type, const std::vector<std::string>& in,
                        const std::vector<std::string>& out, const std::string& name) {
    auto* n = g->add_node();
    n->set_op_type(type);
    n->set_name(name);
    for (const auto& s : in) n->add_input(s);
    for (const auto& s : out) n->add_output(s);
    return n;
  }
  static void Ints(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  static void Float(onnx::NodeProto* n, const std::string& name, float v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  // Written to `path` and read back through LoadModel (checker, shape inference).
  onnx::ModelProto Save(const std::string& path) const {
    std::ofstream f(path, std::ios::binary);
    m.SerializeToOstream(&f);
    f.close();
    return onnx_in::LoadModel(path);
  }
};

std::vector<float> Ramp(size_t n, float scale, float offset) {
  std::vector<float> v;
  for (size_t i = 0; i < n; ++i) v.push_back(offset + scale * float(int(i * 7919 % 17) - 8));
  return v;
}

uint16_t HostFp16(double v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

std::string TempPath(const std::string& name) { return (std::filesystem::temp_directory_path() / name).string(); }

// Conv 3 -> 4 (3x3, pad 1) + BatchNormalization + Relu, then MaxPool 2x2, Conv 4 -> 4 (stride 2),
// GlobalAveragePool, Flatten, Gemm 4 -> 3 and Softmax: a small network of every block.
ModelBuilder SmallCnn() {
  ModelBuilder b;
  b.Input("x", {1, 3, 8, 8});
  b.Init("w1", {4, 3, 3, 3}, Ramp(108, 0.0625f, 0.0f));
  b.Init("b1", {4}, {0.5f, -0.25f, 0.125f, 0.0f});
  b.Init("gamma", {4}, {1.0f, 0.5f, 2.0f, 1.5f});
  b.Init("beta", {4}, {0.1f, -0.2f, 0.3f, 0.0f});
  b.Init("mean", {4}, {0.2f, 0.0f, -0.1f, 0.4f});
  b.Init("var", {4}, {1.0f, 0.25f, 4.0f, 0.5f});
  b.Init("w2", {4, 4, 3, 3}, Ramp(144, 0.03125f, 0.01f));
  b.Init("wf", {3, 4}, Ramp(12, 0.125f, 0.0f));
  b.Init("bf", {3}, {0.0f, 0.5f, -0.5f});
  auto* c1 = b.Node("Conv", {"x", "w1", "b1"}, {"c1"}, "conv1");
  ModelBuilder::Ints(c1, "pads", {1, 1, 1, 1});
  b.Node("BatchNormalization", {"c1", "gamma", "beta", "mean", "var"}, {"n1"}, "bn1");
  b.Node("Relu", {"n1"}, {"r1"}, "relu1");
  auto* p = b.Node("MaxPool", {"r1"}, {"p1"}, "pool1");
  ModelBuilder::Ints(p, "kernel_shape", {2, 2});
  ModelBuilder::Ints(p, "strides", {2, 2});
  auto* c2 = b.Node("Conv", {"p1", "w2"}, {"c2"}, "conv2");
  ModelBuilder::Ints(c2, "pads", {1, 1, 1, 1});
  ModelBuilder::Ints(c2, "strides", {2, 2});
  b.Node("GlobalAveragePool", {"c2"}, {"g"}, "gap");
  b.Node("Flatten", {"g"}, {"f"}, "flat");
  auto* gm = b.Node("Gemm", {"f", "wf", "bf"}, {"z"}, "fc");
  gm->add_attribute()->set_name("transB");
  gm->mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
  gm->mutable_attribute(0)->set_i(1);
  b.Node("Softmax", {"z"}, {"y"}, "softmax");
  b.Output("y", {1, 3});
  return b;
}

Value Fp16Input(const std::vector<int64_t>& shape, uint64_t seed) {
  Value v;
  v.shape = shape;
  uint64_t s = seed;
  for (int64_t i = 0; i < v.Count(); ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v.fp16.push_back(HostFp16(double(int((s >> 33) % 33) - 16) / 8.0));
  }
  return v;
}

// ---------------------------------------------------------------- the lowering

// N-3: the BatchNormalization after a Conv folds into the convolution: its scale
// gamma / sqrt(var + eps) into the weights (w s, rounded once to fp16), its shift into the
// post-processor's per-channel bias (beta + (B - mean) s, rounded once), the Relu into its
// activation: one conv2d for three nodes, with no per-channel scale. The expected codes come from
// host long double arithmetic and _Float16's rounding of the model's fp32 numbers.
TEST(OnnxLower, N3_BatchNormAndReluFoldIntoTheConvolution) {
  const ModelBuilder b = SmallCnn();
  const std::string path = TempPath("onnx_test_fold.onnx");
  const Plan plan = onnx_in::Lower(b.Save(path), path, cli::Engine::kOracle);
  ASSERT_FALSE(plan.steps.empty());
  const onnx_in::Step* conv = nullptr;
  for (const auto& s : plan.steps) {
    if (s.is_op && s.op.op == "conv2d" && !conv) conv = &s;
  }
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->node, "node 'conv1' (Conv) + node 'bn1' (BatchNormalization) + node 'relu1' (Relu)");
  EXPECT_EQ(conv->op.conv.post.act, oracle::PostAct::kRelu);
  EXPECT_EQ(conv->op.inputs.count("scale"), 0u) << "the scale is in the weights";
  const float gamma[] = {1.0f, 0.5f, 2.0f, 1.5f}, beta[] = {0.1f, -0.2f, 0.3f, 0.0f},
              mean[] = {0.2f, 0.0f, -0.1f, 0.4f}, var[] = {1.0f, 0.25f, 4.0f, 0.5f},
              bias[] = {0.5f, -0.25f, 0.125f, 0.0f};
  const std::vector<float> w1 = Ramp(108, 0.0625f, 0.0f);
  const cli::Tensor& wt = conv->op.inputs.at("w").tensor;
  const cli::Tensor& bi = conv->op.inputs.at("bias").tensor;
  ASSERT_EQ(wt.bits.size(), w1.size());
  for (int c = 0; c < 4; ++c) {
    const long double s = (long double)gamma[c] / std::sqrt((long double)var[c] + (long double)1e-5f);
    const long double t = (long double)beta[c] + ((long double)bias[c] - (long double)mean[c]) * s;
    EXPECT_EQ(bi.bits[size_t(c)], HostFp16(double(t))) << "bias of channel " << c;
    for (int k = 0; k < 27; ++k) {
      const size_t at = size_t(c * 27 + k);
      EXPECT_EQ(wt.bits[at], HostFp16(double((long double)w1[at] * s))) << "weight " << k << " of channel " << c;
    }
  }
  int ops = 0;
  for (const auto& s : plan.steps) ops += s.is_op;
  // conv1 (+bn +relu), pool, conv2, the global pool, the Gemm and the softmax
  EXPECT_EQ(ops, 6);
}

// A node the model cannot lower is refused before anything runs, naming the node and why.
TEST(OnnxLower, RefusalsNameTheNodeAndWhy) {
  {
    ModelBuilder b;
    b.Input("x", {1, 4});
    b.Node("Einsum", {"x"}, {"y"}, "e1")->add_attribute()->set_name("equation");
    b.g->mutable_node(0)->mutable_attribute(0)->set_type(onnx::AttributeProto::STRING);
    b.g->mutable_node(0)->mutable_attribute(0)->set_s("ij->ji");
    b.Output("y", {4, 1});
    const std::string path = TempPath("onnx_test_einsum.onnx");
    try {
      onnx_in::Lower(b.Save(path), path, cli::Engine::kOracle);
      ADD_FAILURE() << "Einsum lowered";
    } catch (const onnx_in::OnnxError& e) {
      EXPECT_EQ(std::string(e.what()),
                path +
                    ": node 'e1' (Einsum): operator Einsum is not supported (docs/onnx.md lists the operators the "
                    "model lowers)");
    }
  }
  {
    ModelBuilder b;  // a dynamic batch
    auto* v = b.g->add_input();
    v->set_name("x");
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_param("batch");
    t->mutable_shape()->add_dim()->set_dim_value(4);
    b.Node("Relu", {"x"}, {"y"}, "r");
    b.Output("y", {4});
    auto* ys = b.g->mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
    ys->mutable_dim(0)->set_dim_param("batch");
    ys->add_dim()->set_dim_value(4);
    const std::string path = TempPath("onnx_test_dynamic.onnx");
    EXPECT_THROW(
        {
          try {
            onnx_in::Lower(b.Save(path), path, cli::Engine::kOracle);
          } catch (const onnx_in::OnnxError& e) {
            EXPECT_NE(std::string(e.what()).find("dynamic dimension 'batch'"), std::string::npos) << e.what();
            throw;
          }
        },
        onnx_in::OnnxError);
  }
  {
    ModelBuilder b;  // a Conv whose weights come at run time
    b.Input("x", {1, 1, 4, 4});
    b.Input("w", {1, 1, 3, 3});
    b.Node("Conv", {"x", "w"}, {"y"}, "c");
    b.Output("y", {1, 1, 2, 2});
    const std::string path = TempPath("onnx_test_runtime_w.onnx");
    try {
      onnx_in::Lower(b.Save(path), path, cli::Engine::kOracle);
      ADD_FAILURE() << "a run-time kernel lowered";
    } catch (const onnx_in::OnnxError& e) {
      EXPECT_NE(std::string(e.what()).find("node 'c' (Conv): the weights W ('w') is computed at run time"),
                std::string::npos)
          << e.what();
    }
  }
}

// N-2, N-3, N-4, N-5: the small network on engine both: every operation (the core's two
// convolutions, the planar engine's pooling, reduction and softmax, the MAC array's Gemm) bit
// for bit the oracle's, for a few inputs.
TEST(OnnxRun, N2_N3_N4_SmallNetworkOnTheRtlBitExact) {
  const ModelBuilder b = SmallCnn();
  const std::string path = TempPath("onnx_test_cnn.onnx");
  const Plan plan = onnx_in::Lower(b.Save(path), path, cli::Engine::kBoth);
  for (uint64_t seed : {1u, 2u}) {
    const onnx_in::RunResult r = onnx_in::Run(plan, {{"x", Fp16Input({1, 3, 8, 8}, seed)}}, cli::Engine::kBoth);
    EXPECT_TRUE(r.mismatches.empty()) << "seed " << seed << ": " << r.mismatches.front();
    const Value& y = r.outputs.at("y");
    ASSERT_EQ(y.shape, (std::vector<int64_t>{1, 3}));
    double sum = 0;
    for (uint16_t h : y.fp16) sum += oracle::Fp16ToDouble(h);
    EXPECT_NEAR(sum, 1.0, 0.01) << "softmax's outputs sum to 1";
    EXPECT_GE(r.rtl_lines.size(), 6u);
  }
}

// N-2 .. N-6 on whole networks: the ResNet-18- and MobileNet-v2-shaped models (networks.h) at
// 32 x 32, width 8, 10 classes, on engine both (every operation bit for bit: the core's 7x7 stem,
// 3x3, 1x1 and depthwise convolutions with folded normalizations, the planar engine's pooling,
// residual adds and ReLU6, the MAC array's classifier); the oracle engine's run (the fast MAC
// path) gives the same outputs.
TEST(OnnxRun, N2_N3_N4_ResNet18AndMobileNetV2ShapedNetworksOnTheRtlBitExact) {
  onnx_in::NetworkOptions o;
  o.resolution = 32;
  o.width = 8;
  o.classes = 10;
  for (const auto& [name, built] :
       {std::pair{"resnet18", onnx_in::ResNet18(o)}, std::pair{"mobilenetv2", onnx_in::MobileNetV2(o)}}) {
    onnx::ModelProto m = built;
    onnx_in::CheckModel(&m, name);
    const Plan plan = onnx_in::Lower(m, name, cli::Engine::kBoth);
    const std::map<std::string, Value> feeds{{"x", Fp16Input({1, 3, 32, 32}, 7)}};
    const onnx_in::RunResult both = onnx_in::Run(plan, feeds, cli::Engine::kBoth);
    EXPECT_TRUE(both.mismatches.empty()) << name << ": " << both.mismatches.front();
    const onnx_in::RunResult oracle = onnx_in::Run(plan, feeds, cli::Engine::kOracle);
    EXPECT_EQ(oracle.outputs.at("y").fp16, both.outputs.at("y").fp16) << name;
    int finite = 0;
    for (uint16_t h : both.outputs.at("y").fp16) finite += (h & 0x7C00) != 0x7C00;
    EXPECT_EQ(finite, 10) << name << ": the logits are finite";
    std::printf("%s: %zu steps, %zu operations on the RTL\n", name, plan.steps.size(), both.rtl_lines.size());
  }
}

// ---------------------------------------------------------------- ane run MODEL.onnx

class OnnxCli : public cli::test::CliTest {
 protected:
  // `ane args...` exits 2 with one line on stderr ("ane: error: ..." naming `what`), prints
  // nothing and writes nothing at `not_written`.
  void ExpectRefused(const std::vector<std::string>& args, const std::string& what, const std::string& not_written) {
    const cli::test::Result r = Ane(args);
    EXPECT_EQ(r.exit_code, 2) << what << ": " << r.out << r.err;
    EXPECT_EQ(r.out, "") << what;
    const std::vector<std::string> lines = cli::test::Lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_EQ(lines[0].rfind("ane: error: ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(what), std::string::npos) << lines[0];
    EXPECT_FALSE(std::filesystem::exists(work_ / not_written)) << what;
  }
  // y = Relu(x + c): x [2, 3] fp32, c an initializer.
  void WriteAddRelu() {
    ModelBuilder b;
    b.Input("x", {2, 3});
    b.Init("c", {3}, {0.5f, -1.0f, 0.25f});
    b.Node("Add", {"x", "c"}, {"s"}, "add");
    b.Node("Relu", {"s"}, {"y"}, "relu");
    b.Output("y", {2, 3});
    b.Save((work_ / "m.onnx").string());
  }
  // An fp32 .npy ('<f4') of x.
  void WriteFp32(const std::string& name, const std::vector<int64_t>& shape, const std::vector<float>& v) const {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    for (int64_t d : shape) header += std::to_string(d) + ", ";
    header += "), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string bytes = "\x93NUMPY";
    bytes += char(1);
    bytes += char(0);
    bytes += char(header.size() & 0xFF);
    bytes += char(header.size() >> 8);
    bytes += header;
    bytes.append(reinterpret_cast<const char*>(v.data()), v.size() * 4);
    Write(name, bytes);
  }
};

// The outputs are written as fp16 .npy files; x arrives as fp32 and is rounded to fp16 first
// (N-1), then y = RNE16(x + c) (N-4.1) and ReLU: checked against host fp64 and _Float16.
TEST_F(OnnxCli, N1_N4_1_RunWritesTheOutputsOfTheModel) {
  WriteAddRelu();
  const std::vector<float> x = {1.0f, 0.3f, -2.0f, 0.1f, 2.5f, -0.2f};
  WriteFp32("x.npy", {2, 3}, x);
  const cli::test::Result r = Ane({"run", "m.onnx", "--input", "x=x.npy", "--out-dir", "out"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("input       x fp16 [2, 3]  (x.npy, rounded from fp32)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("node 'add' (Add): elementwise"), std::string::npos) << r.out;
  const cli::Tensor y = cli::ReadNpy(work_ / "out" / "y.npy");
  ASSERT_EQ(y.shape, (std::vector<int64_t>{2, 3}));
  const float c[] = {0.5f, -1.0f, 0.25f};
  for (size_t i = 0; i < 6; ++i) {
    const double xs = double(static_cast<_Float16>(x[i]));  // the input boundary: RNE to fp16
    const double cs = double(static_cast<_Float16>(c[i % 3]));
    const double sum = double(static_cast<_Float16>(xs + cs));  // fp16 values add exactly in fp64
    EXPECT_EQ(y.bits[i], HostFp16(sum > 0 ? sum : 0.0)) << "y[" << i << "]";
  }
}

// Bad input: one line on stderr, exit 2, nothing written.
TEST_F(OnnxCli, BadInputIsRefusedWithOneLineAndNothingWritten) {
  WriteAddRelu();
  WriteFp32("x.npy", {2, 3}, {1, 2, 3, 4, 5, 6});
  WriteFp32("x_bad.npy", {3, 2}, {1, 2, 3, 4, 5, 6});
  Write("junk.onnx", "this is not a protobuf model");
  const struct {
    std::vector<std::string> args;
    std::string what;
  } cases[] = {
      {{"run", "m.onnx", "--out-dir", "out"}, "input 'x' ([2, 3]) is not given"},
      {{"run", "m.onnx", "--input", "x=x_bad.npy", "--out-dir", "out"}, "input 'x' is [3, 2], the model takes [2, 3]"},
      {{"run", "m.onnx", "--input", "q=x.npy", "--out-dir", "out"}, "input 'x' ([2, 3]) is not given"},
      {{"run", "junk.onnx", "--input", "x=x.npy", "--out-dir", "out"}, "not a serialized ONNX model"},
      {{"run", "m.onnx", "--input", "x=missing.npy", "--out-dir", "out"}, "missing.npy"},
      {{"run", "m.onnx", "--input", "x=x.npy", "--engine", "fast"}, "--engine fast: unknown engine"},
  };
  for (const auto& c : cases) ExpectRefused(c.args, c.what, "out");
}

// fuzz_onnx's findings (tb/fuzz/README.md): a ConvTranspose input of two axes and a pooling
// stride of 0 crashed inside Debian's libonnx shape inference, an input of enormous dimensions
// took all the memory; each is now refused with one line, exit 2.
TEST_F(OnnxCli, InputHandlingFuzzFindingsExitTwoWithOneLine) {
  const struct {
    const char* file;
    const char* what;
  } cases[] = {{"convtranspose_rank2_input.onnx", "(ConvTranspose): input 'X' has 2 axes"},
               {"pool_stride_zero.onnx", "each must be 1 or more"},
               {"input_of_huge_dimensions.onnx", "elements"}};
  for (const auto& c : cases) {
    const cli::test::Result r = Ane({"run", std::string(ANE_SOURCE_DIR) + "/tb/fuzz/regressions/onnx/" + c.file});
    EXPECT_EQ(r.exit_code, 2) << c.file << ": " << r.err;
    EXPECT_EQ(r.out, "") << c.file;
    const std::vector<std::string> lines = cli::test::Lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << c.file << ": " << r.err;
    EXPECT_NE(lines[0].find(c.what), std::string::npos) << lines[0];
  }
}

// ---------------------------------------------------------------- ane compile MODEL.onnx

class OnnxCompile : public OnnxCli {
 protected:
  // Compiles m.onnx to m.hwx, runs it with `inputs` on `engine` and the model itself on the
  // oracle, and expects every output bit for bit the same. Returns the compile's stdout.
  std::string ExpectCompiledRunsLikeTheModel(const std::vector<std::string>& inputs,
                                             const std::vector<std::string>& outputs, const std::string& engine) {
    const cli::test::Result c = Ane({"compile", "m.onnx", "-o", "m.hwx"});
    EXPECT_EQ(c.exit_code, 0) << c.err;
    std::vector<std::string> hwx = {"run", "m.hwx", "--out-dir", "hwx", "--engine", engine};
    std::vector<std::string> onnx = {"run", "m.onnx", "--out-dir", "onnx", "--engine", "oracle"};
    for (const std::string& in : inputs) {
      for (auto* a : {&hwx, &onnx}) {
        a->push_back("--input");
        a->push_back(in + "=" + in + ".npy");
      }
    }
    const cli::test::Result h = Ane(hwx);
    EXPECT_EQ(h.exit_code, 0) << h.out << h.err;
    if (engine == "both") {
      EXPECT_EQ(h.out.find("MISMATCH"), std::string::npos) << h.out;
    }
    const cli::test::Result o = Ane(onnx);
    EXPECT_EQ(o.exit_code, 0) << o.err;
    for (const std::string& name : outputs) {
      const cli::Tensor a = cli::ReadNpy(work_ / "hwx" / (name + ".npy"));
      const cli::Tensor b = cli::ReadNpy(work_ / "onnx" / (name + ".npy"));
      EXPECT_EQ(a.bits.size(), b.bits.size()) << name;
      if (a.bits.size() != b.bits.size()) continue;
      int64_t differ = 0, first = -1;
      for (size_t i = 0; i < a.bits.size(); ++i) {
        if (a.bits[i] != b.bits[i]) {
          if (first < 0) first = int64_t(i);
          ++differ;
        }
      }
      EXPECT_EQ(differ, 0) << name << ": " << differ << " of " << a.bits.size() << " differ, first [" << first
                           << "]: program 0x" << std::hex << (first >= 0 ? a.bits[size_t(first)] : 0u) << ", model 0x"
                           << (first >= 0 ? b.bits[size_t(first)] : 0u);
    }
    return c.out;
  }
  void WriteFp16(const std::string& name, const std::vector<int64_t>& shape, const std::vector<uint16_t>& v) const {
    WriteNpy(name, cli::Tensor{cli::DType::kFp16, shape, std::vector<uint32_t>(v.begin(), v.end())});
  }
};

// N-4.1 (A18): each elementwise operation the compiler maps onto a planar TD (add; sub as
// source 0 scaled by -1; mul; max; min; relu as max with +0; neg; constants from the weights,
// a broadcast scalar and a per-channel vector) gives, for every fp16 code of x (NaNs, infinities,
// -0 and subnormals included) against a shuffled set of every code, the bits the model's own
// run gives (both through the planar engine's result converter, x 1.0 + 0).
TEST_F(OnnxCompile, N4_1_EveryPlanarOperationOnEveryCodeGivesTheModelsBits) {
  ModelBuilder b;
  b.Input("x", {1, 256, 16, 16});
  b.Input("z", {1, 256, 16, 16});
  b.Init("k", {1}, {-1.5f});
  std::vector<float> per(256);
  for (int c = 0; c < 256; ++c) per[size_t(c)] = float(c - 128) / 16.0f;
  b.Init("v", {256, 1, 1}, per);
  const std::vector<std::pair<const char*, std::vector<std::string>>> nodes = {
      {"Add", {"x", "z"}}, {"Sub", {"x", "z"}}, {"Mul", {"x", "z"}}, {"Max", {"x", "z"}}, {"Min", {"x", "z"}},
      {"Relu", {"x"}},     {"Neg", {"x"}},      {"Add", {"x", "k"}}, {"Mul", {"v", "x"}}, {"Sub", {"k", "z"}}};
  std::vector<std::string> outs;
  for (size_t k = 0; k < nodes.size(); ++k) {
    outs.push_back("y" + std::to_string(k));
    b.Node(nodes[k].first, nodes[k].second, {outs.back()}, std::string("n") + std::to_string(k));
    b.Output(outs.back(), {1, 256, 16, 16});
  }
  b.Save((work_ / "m.onnx").string());
  std::vector<uint16_t> x(65536), z(65536);
  for (uint32_t i = 0; i < 65536; ++i) {
    x[i] = uint16_t(i);
    z[i] = uint16_t(i * 40503u + 12345u);  // odd multiplier: a permutation of every code
  }
  WriteFp16("x.npy", {1, 256, 16, 16}, x);
  WriteFp16("z.npy", {1, 256, 16, 16}, z);
  const std::string out = ExpectCompiledRunsLikeTheModel({"x", "z"}, outs, "oracle");
  EXPECT_NE(out.find("TD 9    node 'n9' (Sub): planar add"), std::string::npos) << out;
}

// Conv (+ BatchNormalization) (+ Relu / Clip(0, 6)), depthwise and strided, a residual add, a
// concat of two convolutions written in place, a flatten that keeps the layout and a Gemm with a
// bias (a 1x1 convolution): compiled, the program runs on the RTL front end (engine both: every
// TD bit for bit the oracle's) and gives the bits `ane run MODEL.onnx` gives.
TEST_F(OnnxCompile, N2_N3_N4_ASmallNetworkCompiledRunsOnTheRtlBitExact) {
  ModelBuilder b;
  b.Input("x", {1, 3, 8, 8});
  auto bn = [&](const std::string& name, const std::string& in, const std::string& out, int c) {
    std::vector<float> g(static_cast<size_t>(c)), be(g), m(g), v(g);
    for (int k = 0; k < c; ++k) {
      g[size_t(k)] = 0.5f + 0.125f * float(k);
      be[size_t(k)] = 0.1f * float(k % 3) - 0.1f;
      m[size_t(k)] = 0.05f * float(k);
      v[size_t(k)] = 1.0f + 0.25f * float(k % 4);
    }
    b.Init(name + ".g", {c}, g);
    b.Init(name + ".b", {c}, be);
    b.Init(name + ".m", {c}, m);
    b.Init(name + ".v", {c}, v);
    b.Node("BatchNormalization", {in, name + ".g", name + ".b", name + ".m", name + ".v"}, {out}, name);
  };
  b.Init("w1", {8, 3, 3, 3}, Ramp(216, 0.03125f, -0.02f));
  ModelBuilder::Ints(b.Node("Conv", {"x", "w1"}, {"c1"}, "conv1"), "pads", {1, 1, 1, 1});
  bn("bn1", "c1", "n1", 8);
  b.Node("Relu", {"n1"}, {"r1"}, "relu1");
  b.Init("w2", {8, 1, 3, 3}, Ramp(72, 0.0625f, 0.01f));
  auto* c2 = b.Node("Conv", {"r1", "w2"}, {"c2"}, "dw2");
  ModelBuilder::Ints(c2, "pads", {1, 1, 1, 1});
  ModelBuilder::Ints(c2, "strides", {2, 2});
  auto* g2 = c2->add_attribute();
  g2->set_name("group");
  g2->set_type(onnx::AttributeProto::INT);
  g2->set_i(8);
  bn("bn2", "c2", "n2", 8);
  b.Init("lo", {}, {0.0f});
  b.Init("hi", {}, {6.0f});
  b.Node("Clip", {"n2", "lo", "hi"}, {"r2"}, "relu6");
  b.Init("w3", {8, 8, 1, 1}, Ramp(64, 0.0625f, -0.03f));
  b.Node("Conv", {"r2", "w3"}, {"c3"}, "pw3");
  bn("bn3", "c3", "n3", 8);
  b.Node("Add", {"n3", "r2"}, {"s"}, "residual");
  b.Node("Relu", {"s"}, {"r3"}, "relu3");
  b.Init("w4", {4, 8, 1, 1}, Ramp(32, 0.125f, 0.0f));
  b.Init("w5", {4, 8, 1, 1}, Ramp(32, -0.0625f, 0.05f));
  b.Node("Conv", {"r3", "w4"}, {"c4"}, "half_a");
  b.Node("Conv", {"r3", "w5"}, {"c5"}, "half_b");
  b.Node("Concat", {"c4", "c5"}, {"cat"}, "concat")->add_attribute()->set_name("axis");
  b.g->mutable_node(b.g->node_size() - 1)->mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
  b.g->mutable_node(b.g->node_size() - 1)->mutable_attribute(0)->set_i(1);
  b.Init("w6", {10, 8, 4, 4}, Ramp(1280, 0.015625f, -0.01f));
  b.Node("Conv", {"cat", "w6"}, {"c6"}, "head");
  b.Node("Flatten", {"c6"}, {"f"}, "flatten");
  b.Init("wf", {10, 5}, Ramp(50, 0.125f, -0.1f));
  b.Init("bf", {5}, {0.5f, -0.5f, 0.25f, 0.0f, 1.0f});
  b.Node("Gemm", {"f", "wf", "bf"}, {"y"}, "fc");
  b.Output("y", {1, 5});
  b.Output("cat", {1, 8, 4, 4});
  b.Save((work_ / "m.onnx").string());
  for (uint64_t seed : {3u, 4u}) {
    const Value x = Fp16Input({1, 3, 8, 8}, seed);
    WriteFp16("x.npy", {1, 3, 8, 8}, x.fp16);
    const std::string out = ExpectCompiledRunsLikeTheModel({"x"}, {"y", "cat"}, "both");
    EXPECT_NE(out.find("node 'dw2' (Conv) + node 'bn2' (BatchNormalization) + node 'relu6' (Clip)"), std::string::npos)
        << out;
    EXPECT_NE(out.find("concat 2 inputs on axis 1 (no TD: each part written at its place in the result)"),
              std::string::npos)
        << out;
  }
}

// What has no TD is refused with one line naming the node and why (exit 2), and no program is
// written: pooling, a transpose, a convolution of a batch of two, an output that is an input;
// -o is required.
TEST_F(OnnxCompile, WhatNoTaskDescriptorRunsIsRefusedWithOneLine) {
  auto model = [&](const std::string& file, const std::string& type, const std::vector<int64_t>& in,
                   const std::vector<int64_t>& out) {
    ModelBuilder b;
    b.Input("x", in);
    if (type == "Conv") b.Init("w", {4, 4, 1, 1}, Ramp(16, 0.125f, 0.0f));
    auto* n = b.Node(type, type == "Conv" ? std::vector<std::string>{"x", "w"} : std::vector<std::string>{"x"}, {"y"},
                     "the_node");
    if (type == "MaxPool") {
      ModelBuilder::Ints(n, "kernel_shape", {2, 2});
      ModelBuilder::Ints(n, "strides", {2, 2});
    }
    if (type == "Transpose") ModelBuilder::Ints(n, "perm", {0, 1, 3, 2});
    b.Output("y", out);
    b.Save((work_ / file).string());
  };
  model("pool.onnx", "MaxPool", {1, 4, 8, 8}, {1, 4, 4, 4});
  model("transpose.onnx", "Transpose", {1, 4, 8, 6}, {1, 4, 6, 8});
  model("batch.onnx", "Conv", {2, 4, 8, 8}, {2, 4, 8, 8});
  model("identity.onnx", "Identity", {1, 4, 8, 8}, {1, 4, 8, 8});
  const struct {
    std::vector<std::string> args;
    std::string what;
  } cases[] = {
      {{"compile", "pool.onnx", "-o", "p.hwx"},
       "node 'the_node' (MaxPool): pool on the planar engine: no task descriptor"},
      {{"compile", "transpose.onnx", "-o", "p.hwx"}, "node 'the_node' (Transpose): transpose"},
      {{"compile", "batch.onnx", "-o", "p.hwx"}, "(Conv): a batch of more than one is not compiled"},
      {{"compile", "identity.onnx", "-o", "p.hwx"}, "output 'y': it is a graph input"},
      {{"compile", "pool.onnx"}, "needs -o FILE.hwx"},
      {{"compile", "missing.onnx", "-o", "p.hwx"}, "missing.onnx"},
  };
  for (const auto& c : cases) ExpectRefused(c.args, c.what, "p.hwx");
}

}  // namespace
}  // namespace ane
