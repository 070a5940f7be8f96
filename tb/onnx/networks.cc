// SPDX-License-Identifier: Apache-2.0
#include "tb/onnx/networks.h"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <vector>

namespace ane::onnx_in {
namespace {

// splitmix64: the same numbers on every machine.
class Draw {
 public:
  explicit Draw(uint64_t seed) : s_(seed) {}
  double Uniform() {  // [0, 1)
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }
  double In(double lo, double hi) { return lo + (hi - lo) * Uniform(); }

 private:
  uint64_t s_;
};

class Builder {
 public:
  Builder(const std::string& name, const NetworkOptions& o) : draw_(o.seed), o_(o) {
    m_.set_ir_version(8);
    m_.set_producer_name("ane_networks");
    m_.set_producer_version(name);
    auto* op = m_.add_opset_import();
    op->set_domain("");
    op->set_version(13);
    g_ = m_.mutable_graph();
    g_->set_name(name);
    Value("x", {1, 3, o.resolution, o.resolution}, g_->add_input());
  }

  // conv (k x k, stride, groups, no bias) + BatchNormalization (+ Relu or ReLU6)
  std::string ConvBn(const std::string& x, int cin, int cout, int k, int stride, int groups, const char* act) {
    const std::string n = fmt::format("conv{}", ++convs_);
    const int fan_in = cin / groups * k * k;
    const double a = std::sqrt(6.0 / fan_in);  // He-uniform: activations stay of order 1
    std::vector<float> w;
    for (int i = 0; i < cout * fan_in; ++i) w.push_back(float(draw_.In(-a, a)));
    Init(n + ".w", {cout, cin / groups, k, k}, w);
    auto* c = Node("Conv", {x, n + ".w"}, {n}, n);
    Ints(c, "kernel_shape", {k, k});
    Ints(c, "strides", {stride, stride});
    Ints(c, "pads", {k / 2, k / 2, k / 2, k / 2});
    Int(c, "group", groups);
    std::vector<float> gamma, beta, mean, var;
    for (int i = 0; i < cout; ++i) {
      gamma.push_back(float(draw_.In(0.5, 1.5)));
      beta.push_back(float(draw_.In(-0.1, 0.1)));
      mean.push_back(float(draw_.In(-0.1, 0.1)));
      var.push_back(float(draw_.In(0.5, 1.5)));
    }
    Init(n + ".gamma", {cout}, gamma);
    Init(n + ".beta", {cout}, beta);
    Init(n + ".mean", {cout}, mean);
    Init(n + ".var", {cout}, var);
    Node("BatchNormalization", {n, n + ".gamma", n + ".beta", n + ".mean", n + ".var"}, {n + ".bn"}, n + ".bn");
    std::string y = n + ".bn";
    if (act == std::string("relu")) {
      Node("Relu", {y}, {n + ".relu"}, n + ".relu");
      y = n + ".relu";
    } else if (act == std::string("relu6")) {
      Node("Clip", {y, "zero", "six"}, {n + ".relu6"}, n + ".relu6");
      y = n + ".relu6";
    }
    return y;
  }

  std::string Add(const std::string& a, const std::string& b, bool relu) {
    const std::string n = fmt::format("add{}", ++adds_);
    Node("Add", {a, b}, {n}, n);
    if (!relu) return n;
    Node("Relu", {n}, {n + ".relu"}, n + ".relu");
    return n + ".relu";
  }

  std::string MaxPool(const std::string& x) {
    auto* p = Node("MaxPool", {x}, {"pool"}, "pool");
    Ints(p, "kernel_shape", {3, 3});
    Ints(p, "strides", {2, 2});
    Ints(p, "pads", {1, 1, 1, 1});
    return "pool";
  }

  // The classifier over the whole map of `size` x `size` as one convolution: kernel = W / size^2
  // for each position (global average pooling and the fully connected layer folded), then Flatten.
  // The pool-free head: the global average as a depthwise size x size convolution of weights
  // 1 / size^2 (one output position per channel), then the classifier as a 1x1 convolution. As
  // one size x size convolution of every channel to every class it was a layer of one output
  // position and classes x channels x size^2 MACs, which the core's lanes (one output position
  // each) run one MAC per cycle: 25 M cycles at 224 x 224.
  onnx::ModelProto ConvHead(const std::string& x, int channels, int size) {
    const double a = std::sqrt(6.0 / channels);
    const int area = size * size;
    Init("avg.w", {channels, 1, size, size}, std::vector<float>(size_t(channels) * size_t(area), 1.0f / float(area)));
    Int(Node("Conv", {x, "avg.w"}, {"avg"}, "avg"), "group", channels);
    std::vector<float> w, b;
    for (int i = 0; i < o_.classes * channels; ++i) w.push_back(float(draw_.In(-a, a)));
    for (int i = 0; i < o_.classes; ++i) b.push_back(float(draw_.In(-0.1, 0.1)));
    Init("fc.w", {o_.classes, channels, 1, 1}, w);
    Init("fc.b", {o_.classes}, b);
    Node("Conv", {"avg", "fc.w", "fc.b"}, {"fc"}, "fc");
    Node("Flatten", {"fc"}, {"y"}, "flat");
    Value("y", {1, o_.classes}, g_->add_output());
    return m_;
  }

  // global average pooling, flatten, the classifier
  onnx::ModelProto Head(const std::string& x, int channels) {
    Node("GlobalAveragePool", {x}, {"gap"}, "gap");
    Node("Flatten", {"gap"}, {"flat"}, "flat");
    const double a = std::sqrt(6.0 / channels);
    std::vector<float> w, b;
    for (int i = 0; i < o_.classes * channels; ++i) w.push_back(float(draw_.In(-a, a)));
    for (int i = 0; i < o_.classes; ++i) b.push_back(float(draw_.In(-0.1, 0.1)));
    Init("fc.w", {o_.classes, channels}, w);
    Init("fc.b", {o_.classes}, b);
    auto* fc = Node("Gemm", {"flat", "fc.w", "fc.b"}, {"y"}, "fc");
    Int(fc, "transB", 1);
    Value("y", {1, o_.classes}, g_->add_output());
    return m_;
  }

  void Relu6Bounds() {
    Init("zero", {}, {0.0f});
    Init("six", {}, {6.0f});
  }

 private:
  static void Value(const std::string& name, const std::vector<int64_t>& shape, onnx::ValueInfoProto* v) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) t->mutable_shape()->add_dim()->set_dim_value(d);
  }
  void Init(const std::string& name, const std::vector<int64_t>& shape, const std::vector<float>& v) {
    auto* t = g_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) t->add_dims(d);
    t->set_raw_data(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)));
  }
  onnx::NodeProto* Node(const std::string& type, const std::vector<std::string>& in,
                        const std::vector<std::string>& out, const std::string& name) {
    auto* n = g_->add_node();
    n->set_op_type(type);
    n->set_name(name);
    for (const auto& s : in) n->add_input(s);
    for (const auto& s : out) n->add_output(s);
    return n;
  }
  static void Ints(onnx::NodeProto* n, const char* name, const std::vector<int64_t>& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  static void Int(onnx::NodeProto* n, const char* name, int64_t v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }

  onnx::ModelProto m_;
  onnx::GraphProto* g_ = nullptr;
  Draw draw_;
  NetworkOptions o_;
  int convs_ = 0, adds_ = 0;
};

// MobileNet-v2's channel rounding: to a multiple of 8, never below 90 % of the value.
int Divisible(double v) {
  const int r = std::max(8, int(v + 4) / 8 * 8);
  return r < 0.9 * v ? r + 8 : r;
}

}  // namespace

onnx::ModelProto ResNet18(const NetworkOptions& o) {
  Builder b("resnet18", o);
  const int w = o.width;
  std::string x = b.ConvBn("x", 3, w, 7, 2, 1, "relu");
  x = o.pool_free ? b.ConvBn(x, w, w, 3, 2, w, "relu") : b.MaxPool(x);
  int cin = w;
  for (int stage = 0; stage < 4; ++stage) {
    const int cout = w << stage;
    for (int block = 0; block < 2; ++block) {
      const int stride = stage > 0 && block == 0 ? 2 : 1;
      const std::string h = b.ConvBn(x, cin, cout, 3, stride, 1, "relu");
      const std::string h2 = b.ConvBn(h, cout, cout, 3, 1, 1, "none");
      const std::string skip = stride != 1 || cin != cout ? b.ConvBn(x, cin, cout, 1, stride, 1, "none") : x;
      x = b.Add(h2, skip, true);
      cin = cout;
    }
  }
  if (o.pool_free) {
    int size = o.resolution;
    for (int k = 0; k < 5; ++k) size = (size + 1) / 2;  // the stem, its pool and three stride-2 stages
    return b.ConvHead(x, cin, size);
  }
  return b.Head(x, cin);
}

onnx::ModelProto MobileNetV2(const NetworkOptions& o) {
  Builder b("mobilenetv2", o);
  b.Relu6Bounds();
  const double scale = o.width / 32.0;
  int cin = Divisible(32 * scale);
  std::string x = b.ConvBn("x", 3, cin, 3, 2, 1, "relu6");
  // (expansion t, channels c, repeats n, first stride s): the paper's table 2
  const int settings[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                              {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  for (const auto& st : settings) {
    const int cout = Divisible(st[1] * scale);
    for (int i = 0; i < st[2]; ++i) {
      const int stride = i == 0 ? st[3] : 1;
      const int hidden = cin * st[0];
      std::string h = x;
      if (st[0] != 1) h = b.ConvBn(h, cin, hidden, 1, 1, 1, "relu6");
      h = b.ConvBn(h, hidden, hidden, 3, stride, hidden, "relu6");
      h = b.ConvBn(h, hidden, cout, 1, 1, 1, "none");
      x = stride == 1 && cin == cout ? b.Add(x, h, false) : h;
      cin = cout;
    }
  }
  const int last = Divisible(1280 * std::max(1.0, scale));
  x = b.ConvBn(x, cin, last, 1, 1, 1, "relu6");
  return b.Head(x, last);
}

}  // namespace ane::onnx_in
