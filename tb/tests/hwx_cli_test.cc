// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of the front end for the ANE's own programs (docs/td.md): `ane run
// PROGRAM.hwx` on the seven programs Apple's compiler made (sim/hwx), with the results their
// README gives; random programs written by the encoder (chains of 1-4 TDs: shapes, kernels,
// strides, padding, groups, fp16 and int8, scale, bias, ReLU) run bit-exact on both engines and
// equal to `ane run` of the equivalent conv2d op files; `ane td decode --yaml` + `encode` give
// back the same bytes; broken files exit 2 with one line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "tb/cli/npy.h"
#include "tb/td/encode.h"
#include "tb/td/hwx.h"
#include "tb/tests/cli_fixture.h"
#include "tb/tests/test_seed.h"

namespace ane::cli {
namespace {

namespace fs = std::filesystem;
using test::CliTest;
using test::HostFp16;
using test::Lines;
using test::ReadText;
using test::Result;

const std::string kHwx = std::string(ANE_SOURCE_DIR) + "/sim/hwx/";

double HostDouble(uint32_t code) {
  const uint16_t b = uint16_t(code);
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return double(h);
}

class HwxTest : public CliTest {
 protected:
  Tensor Output(const std::string& name) const { return DecodeNpy(ReadText(work_ / name)); }
  // Exit 2, nothing on stdout, one line "ane: error: <what...>" naming `what`.
  void ExpectOneLine(const Result& r, const std::string& what) const {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    const std::vector<std::string> lines = Lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_EQ(lines[0].rfind("ane: error: ", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(what), std::string::npos) << lines[0];
  }
  void WriteBytes(const std::string& name, const std::vector<uint8_t>& b) const {
    Write(name, std::string(b.begin(), b.end()));
  }
  std::vector<uint8_t> Bytes(const std::string& path) const {
    const std::string s = ReadText(path);
    return std::vector<uint8_t>(s.begin(), s.end());
  }
};

TEST_F(HwxTest, N3_ReluProgramGivesItsKnownResultOnEveryEngine) {
  // README: [-1, 1, -2, 2, ...] -> [0, 1, 0, 2, ...]; the rest of the 16 elements exercise -0,
  // the smallest denormal, the largest finite values and infinities (relu(-inf) = +0).
  const std::vector<double> in = {-1,     1,        -2,        2,   -0.0, 5.96e-8, -5.96e-8, 65504,
                                  -65504, INFINITY, -INFINITY, 0.5, -0.5, 3,       -3,       0};
  Tensor x{DType::kFp16, {16}, {}};
  for (double v : in) x.bits.push_back(HostFp16(v));
  WriteNpy("x.npy", x);
  for (const char* engine : {"oracle", "rtl", "both"}) {
    SCOPED_TRACE(engine);
    const Result r = Ane({"run", kHwx + "relu.hwx", "--input", "image=x.npy", "--out-dir", ".", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Tensor y = Output("probs@output.npy");
    ASSERT_EQ(y.shape, (std::vector<int64_t>{1, 1, 1, 16}));
    for (size_t i = 0; i < in.size(); ++i) {
      // On the M1 the MAC path flushes denormal inputs to +0 (N-2.3), so relu(2^-24) = +0.
      const double want = in[i] > 0 && std::fabs(in[i]) >= 0x1p-14 ? in[i] : 0.0;
      EXPECT_EQ(y.bits[i], HostFp16(want)) << "element " << i << " = " << in[i];
    }
    if (std::string(engine) == "both") {
      EXPECT_NE(r.out.find("bit-identical (16 outputs)"), std::string::npos) << r.out;
    }
  }
}

TEST_F(HwxTest, N2_ConvTwosProgramGivesItsKnownResultOnEveryEngine) {
  // README: 1x1 convolution 3 -> 3 channels, every weight 2.0: [1, 2, 3] -> [12, 12, 12]; and
  // a second input whose sums are exact in fp16: [0.5, -4, 100] -> 2 (0.5 - 4 + 100) = 193.
  for (const auto& [in, want] : {std::pair<std::vector<double>, double>{{1, 2, 3}, 12}, {{0.5, -4, 100}, 193}}) {
    WriteNpy("x.npy", Tensor{DType::kFp16, {3, 1, 1}, {HostFp16(in[0]), HostFp16(in[1]), HostFp16(in[2])}});
    for (const char* engine : {"oracle", "rtl", "both"}) {
      SCOPED_TRACE(engine);
      const Result r =
          Ane({"run", kHwx + "conv_twos.hwx", "--input", "image=x.npy", "--out-dir", ".", "--engine", engine});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const Tensor y = Output("probs@output.npy");
      ASSERT_EQ(y.shape, (std::vector<int64_t>{1, 3, 1, 1}));
      for (int c = 0; c < 3; ++c) EXPECT_EQ(y.bits[size_t(c)], HostFp16(want)) << "channel " << c;
    }
  }
}

// README: an inner product 3 -> 2, every weight 3.0, bias 1.0 (each kernel block holds its
// channel's bias first, NE.MACCfg.BiasMode 1, A19): [1337, 0, 0] -> [4012, 4012]; and a second
// input whose sums are exact: [0.5, -4, 100] -> 1 + 3 (96.5) = 290.5.
TEST_F(HwxTest, N2_N3_FcBiasProgramGivesItsKnownResultOnEveryEngine) {
  for (const auto& [in, want] : {std::pair<std::vector<double>, double>{{1337, 0, 0}, 4012}, {{0.5, -4, 100}, 290.5}}) {
    WriteNpy("x.npy", Tensor{DType::kFp16, {3}, {HostFp16(in[0]), HostFp16(in[1]), HostFp16(in[2])}});
    for (const char* engine : {"oracle", "rtl", "both"}) {
      SCOPED_TRACE(engine);
      const Result r =
          Ane({"run", kHwx + "fc_bias.hwx", "--input", "image=x.npy", "--out-dir", ".", "--engine", engine});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const Tensor y = Output("probs@output.npy");
      ASSERT_EQ(y.shape, (std::vector<int64_t>{1, 2, 1, 1}));
      for (int c = 0; c < 2; ++c) EXPECT_EQ(y.bits[size_t(c)], HostFp16(want)) << "channel " << c;
      EXPECT_NE(r.out.find("per-channel bias"), std::string::npos) << r.out;
    }
  }
}

// README: C = A B with both operands run-time inputs (the kernel DMA reads A, Header[9].KBase0 =
// 4, the newer container's tensor commands name the tensors): [[22, 28], [49, 64]].
TEST_F(HwxTest, N2_MatmulProgramGivesItsKnownResultOnEveryEngine) {
  WriteNpy(
      "a.npy",
      Tensor{DType::kFp16, {2, 3}, {HostFp16(1), HostFp16(2), HostFp16(3), HostFp16(4), HostFp16(5), HostFp16(6)}});
  WriteNpy(
      "b.npy",
      Tensor{DType::kFp16, {3, 2}, {HostFp16(1), HostFp16(2), HostFp16(3), HostFp16(4), HostFp16(5), HostFp16(6)}});
  for (const char* engine : {"oracle", "rtl", "both"}) {
    SCOPED_TRACE(engine);
    const Result r = Ane(
        {"run", kHwx + "matmul.hwx", "--input", "A=a.npy", "--input", "B=b.npy", "--out-dir", ".", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Tensor y = Output("matmul_0@output.npy");
    ASSERT_EQ(y.shape, (std::vector<int64_t>{1, 1, 2, 2}));
    EXPECT_EQ(y.bits, (std::vector<uint32_t>{HostFp16(22), HostFp16(28), HostFp16(49), HostFp16(64)}));
    EXPECT_NE(r.out.find("kernels from buffer 4 (input A), read when the TD runs"), std::string::npos) << r.out;
  }
}

// README: two chained TDs, each a per-element pass of one input, the second writing 0x400 bytes
// (16 channels x 64) into the same output: out = [input_0, input_1] along the channels.
TEST_F(HwxTest, N2_ConcatProgramGivesItsKnownResultOnEveryEngine) {
  Tensor a{DType::kFp16, {16}, {}}, b{DType::kFp16, {1, 16, 1, 1}, {}};
  for (int i = 0; i < 16; ++i) {
    a.bits.push_back(HostFp16(i * 0.25 - 1));
    b.bits.push_back(HostFp16(-100 - 3 * i));
  }
  WriteNpy("a.npy", a);
  WriteNpy("b.npy", b);
  for (const char* engine : {"oracle", "rtl", "both"}) {
    SCOPED_TRACE(engine);
    const Result r = Ane({"run", kHwx + "concat.hwx", "--input", "input_0=a.npy", "--input", "input_1=b.npy",
                          "--out-dir", ".", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Tensor y = Output("output@output.npy");
    ASSERT_EQ(y.shape, (std::vector<int64_t>{1, 32, 1, 1}));
    std::vector<uint32_t> want = a.bits;
    want.insert(want.end(), b.bits.begin(), b.bits.end());
    EXPECT_EQ(y.bits, want);
  }
}

// README: a ScaledElementWise add of two [1, 64, 1, 1] inputs on the planar engine (the neural
// engine off): out = image + image2, element by element (N-4.1: one fp16 add, RNE, N-1 on each
// operand), here with sums that round, NaN (entering as +inf), inf - inf (+0, N-4.2), -0.
TEST_F(HwxTest, N4_1_SumProgramGivesItsKnownResultOnEveryEngine) {
  Tensor a{DType::kFp16, {64}, {}}, b{DType::kFp16, {64}, {}};
  std::vector<double> want;
  for (int i = 0; i < 64; ++i) {
    const double x = (i - 30) * 0.3, y = 1000.0 / (i + 1);
    a.bits.push_back(HostFp16(x));
    b.bits.push_back(HostFp16(y));
    want.push_back(double(_Float16(HostDouble(HostFp16(x)) + HostDouble(HostFp16(y)))));
  }
  a.bits[60] = 0x7E00;  // NaN + 1000/61 = +inf
  want[60] = INFINITY;
  a.bits[61] = 0x7C00;  // inf + -inf = +0
  b.bits[61] = 0xFC00;
  want[61] = 0;
  a.bits[62] = 0x8000;  // -0 + -0 = +0
  b.bits[62] = 0x8000;
  want[62] = 0;
  WriteNpy("a.npy", a);
  WriteNpy("b.npy", b);
  for (const char* engine : {"oracle", "rtl", "both"}) {
    SCOPED_TRACE(engine);
    const Result r = Ane({"run", kHwx + "sum.hwx", "--input", "image=a.npy", "--input", "image2=b.npy", "--out-dir",
                          ".", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Tensor y = Output("probs@output.npy");
    ASSERT_EQ(y.shape, (std::vector<int64_t>{1, 64, 1, 1}));
    for (int i = 0; i < 64; ++i) EXPECT_EQ(y.bits[size_t(i)], HostFp16(want[size_t(i)])) << "element " << i;
    EXPECT_NE(r.out.find("planar add, fp16 [64, 1, 1] and [64, 1, 1] -> fp16 [64, 1, 1] (buffers 6 and 5 -> buffer 4)"),
              std::string::npos)
        << r.out;
    if (std::string(engine) != "oracle") {
      EXPECT_NE(r.out.find("rtl: from the TD bytes (ane_td_ctrl + ane_planar, 16 lanes)"), std::string::npos) << r.out;
    }
  }
}

TEST_F(HwxTest, N5_SigmoidProgramIsWithinItsTablesErrorOnEveryEngine) {
  // 77 inputs over [-10, 10] (the table's domain [-8, 8] and both clamps): every output within
  // the table's error bound of the exact sigmoid (0.00374, derived in td_test.cc
  // N5_3_SigmoidProgramTableIsWithinTheChaptersErrorOnEveryInput) by the host's libm.
  Tensor x{DType::kFp16, {77}, {}};
  for (int i = 0; i < 77; ++i) x.bits.push_back(HostFp16(double(_Float16(-10.0 + 20.0 * i / 76))));
  WriteNpy("x.npy", x);
  std::vector<uint32_t> first;
  for (const char* engine : {"oracle", "rtl", "both"}) {
    SCOPED_TRACE(engine);
    const Result r = Ane({"run", kHwx + "sigmoid.hwx", "--input", "image=x.npy", "--out-dir", ".", "--engine", engine});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Tensor y = Output("probs@output.npy");
    ASSERT_EQ(y.bits.size(), 77u);
    for (size_t i = 0; i < 77; ++i) {
      const double v = HostDouble(x.bits[i]);
      EXPECT_LE(std::fabs(HostDouble(y.bits[i]) - 1.0 / (1.0 + std::exp(-v))), 0.00374) << "x = " << v;
    }
    if (first.empty()) first = y.bits;
    if (std::string(engine) == "both") {  // and with the waveforms of the front end and the core
      const Result w =
          Ane({"run", kHwx + "sigmoid.hwx", "--input", "image=x.npy", "--engine", engine, "--wave", "s.fst"});
      ASSERT_EQ(w.exit_code, 0) << w.err;
      EXPECT_TRUE(fs::exists(work_ / "s.fst"));
      EXPECT_TRUE(fs::exists(work_ / "s.2.fst"));
      EXPECT_NE(
          w.out.find("wave        s.fst (every TD, top ane_td_ctrl): open with  gtkwave s.fst sim/ane_td_ctrl.gtkw"),
          std::string::npos)
          << w.out;
      EXPECT_NE(
          w.out.find("wave        s.2.fst (every TD, top ane_core): open with  gtkwave s.2.fst sim/ane_core.gtkw"),
          std::string::npos)
          << w.out;
    }
    EXPECT_EQ(y.bits, first) << "every engine gives the same bits";
  }
}

// Every fp16 code through the sigmoid program's own table (its weights section, loaded as the
// program loads it) on both engines: a per-element pass over [1, 32, 2048] written by the
// encoder with sigmoid.hwx's table blob. Oracle and RTL agree on every code, and every finite
// input is within the table's bound of libm's sigmoid; +-inf give 1 / 0, NaN enters as +inf
// (N-1.1).
TEST_F(HwxTest, N1_N5_EveryFp16CodeThroughTheProgramsTableOnBothEngines) {
  const std::vector<uint8_t> prog = Bytes(kHwx + "sigmoid.hwx");
  const std::vector<uint8_t> blob(prog.begin() + 0x4280, prog.begin() + 0x4280 + 0x80);
  td::LayerSpec s;
  s.pass = true;
  s.cin = s.cout = 1;
  s.h = s.oh = 32;
  s.w = s.ow = 2048;
  s.nonlinear = regs::td::Nonlinear::kTable;
  for (int i = 0; i <= 32; ++i) s.knots.push_back(uint16_t(blob[8 + 2 * size_t(i)] | blob[9 + 2 * size_t(i)] << 8));
  s.below = uint16_t(blob[4] | blob[5] << 8);
  s.above = uint16_t(blob[6] | blob[7] << 8);
  const td::Encoded e = td::EncodeLayers({s});
  td::HwxSpec spec;
  spec.tds = e.chain;
  spec.weights = e.weights;
  for (int role = 1; role <= 2; ++role) {
    td::HwxTensor t;
    t.name = role == 1 ? "x" : "y@output";
    t.role = td::TensorRole(role);
    t.type = 5;
    const uint32_t dims[5] = {1, 1, 32, 2048, 1};
    const uint64_t strides[5] = {131072, 131072, 4096, 2, 131072};
    std::copy(dims, dims + 5, t.dims);
    std::copy(strides, strides + 5, t.strides);
    t.bytes = 131072;
    spec.tensors.push_back(t);
  }
  WriteBytes("all.hwx", td::WriteHwx(&spec));
  Tensor x{DType::kFp16, {32, 2048}, {}};
  for (uint32_t c = 0; c < 65536; ++c) x.bits.push_back(c);
  WriteNpy("x.npy", x);
  const Result r = Ane({"run", "all.hwx", "--input", "x=x.npy", "--out-dir", ".", "--engine", "both"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rtl vs oracle: bit-identical (65536 outputs)"), std::string::npos) << r.out;
  const Tensor y = Output("y@output.npy");
  ASSERT_EQ(y.bits.size(), 65536u);
  double worst = 0;
  for (uint32_t c = 0; c < 65536; ++c) {
    const double v = HostDouble(c);
    if (std::isnan(v)) {
      EXPECT_EQ(y.bits[c], 0x3C00u) << "NaN enters as +inf (N-1.1)";
    } else if (std::isinf(v)) {
      EXPECT_EQ(y.bits[c], v > 0 ? 0x3C00u : 0x0000u);
    } else {
      worst = std::max(worst, std::fabs(HostDouble(y.bits[c]) - 1.0 / (1.0 + std::exp(-v))));
    }
  }
  EXPECT_LE(worst, 0.00374);
}

TEST_F(HwxTest, N2_DecodeToYamlAndEncodeGiveBackTheSameBytes) {
  for (const char* name : {"relu", "sigmoid", "conv_twos"}) {
    SCOPED_TRACE(name);
    const std::string prog = kHwx + name + ".hwx";
    const Result d = Ane({"td", "decode", prog, "--yaml"});
    ASSERT_EQ(d.exit_code, 0) << d.err;
    Write("td.yaml", d.out);
    ASSERT_EQ(Ane({"td", "encode", "td.yaml", "-o", "td.bin"}).exit_code, 0);
    const std::vector<uint8_t> file = Bytes(prog);
    EXPECT_EQ(Bytes((work_ / "td.bin").string()), std::vector<uint8_t>(file.begin() + 0x4000, file.begin() + 0x4274));
    ASSERT_EQ(Ane({"td", "encode", "td.yaml", "--hwx", prog, "-o", "again.hwx"}).exit_code, 0);
    EXPECT_EQ(Bytes((work_ / "again.hwx").string()), file);
    // The raw blob decodes too, to the same YAML (but for the file name in its first line).
    const Result d2 = Ane({"td", "decode", "td.bin", "--yaml"});
    ASSERT_EQ(d2.exit_code, 0) << d2.err;
    EXPECT_EQ(d2.out.substr(d2.out.find('\n')), d.out.substr(d.out.find('\n')));
  }
  // An edit takes effect: NonlinearMode 1 -> 0 turns relu.hwx into the identity.
  std::string y = Ane({"td", "decode", kHwx + "relu.hwx", "--yaml"}).out;
  const size_t at = y.find("NE.MACCfg.NonlinearMode: 1");
  ASSERT_NE(at, std::string::npos);
  y.replace(at, 26, "NE.MACCfg.NonlinearMode: 0");
  Write("id.yaml", y);
  ASSERT_EQ(Ane({"td", "encode", "id.yaml", "--hwx", kHwx + "relu.hwx", "-o", "id.hwx"}).exit_code, 0);
  WriteNpy("x.npy", Tensor{DType::kFp16, {16}, std::vector<uint32_t>(16, HostFp16(-1.5))});
  ASSERT_EQ(Ane({"run", "id.hwx", "--input", "image=x.npy", "--out-dir", "."}).exit_code, 0);
  EXPECT_EQ(Output("probs@output.npy").bits, std::vector<uint32_t>(16, HostFp16(-1.5)));
  // An --out-dir that does not exist yet is made.
  ASSERT_EQ(Ane({"run", "id.hwx", "--input", "image=x.npy", "--out-dir", "made/here"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(work_ / "made" / "here" / "probs@output.npy"));
  // The decode names every field (a line each), --nonzero only those that are not zero.
  const Result t = Ane({"td", "decode", kHwx + "relu.hwx"});
  EXPECT_NE(t.out.find("Common.InDim.Win"), std::string::npos);
  EXPECT_NE(t.out.find("NE.MACCfg.BiasMode"), std::string::npos) << "a zero field";
  const Result nz = Ane({"td", "decode", kHwx + "relu.hwx", "--nonzero"});
  EXPECT_NE(nz.out.find("Common.InDim.Win"), std::string::npos);
  EXPECT_EQ(nz.out.find("NE.MACCfg.BiasMode"), std::string::npos) << "a zero field";
  EXPECT_NE(t.out.find("per-element pass, fp16 [1, 1, 16] -> fp16, ReLU"), std::string::npos) << t.out;
}

TEST_F(HwxTest, N2_MalformedFilesExitTwoWithOneLine) {
  const std::vector<uint8_t> relu = Bytes(kHwx + "relu.hwx");
  WriteNpy("x.npy", Tensor{DType::kFp16, {16}, std::vector<uint32_t>(16, 0)});
  auto both = [&](const std::string& file, const std::string& what) {
    SCOPED_TRACE(file + ": " + what);
    ExpectOneLine(Ane({"td", "decode", file}), what);
    ExpectOneLine(Ane({"run", file, "--input", "image=x.npy", "--out-dir", "."}), what);
    EXPECT_FALSE(fs::exists(work_ / "probs@output.npy"));
  };
  auto put = [](std::vector<uint8_t> b, size_t at, uint32_t v) {
    std::memcpy(b.data() + at, &v, 4);
    return b;
  };
  WriteBytes("cut.hwx", std::vector<uint8_t>(relu.begin(), relu.begin() + 0x900));
  both("cut.hwx", "load commands (3560 bytes) run past the end of the file");
  WriteBytes("head.hwx", std::vector<uint8_t>(relu.begin(), relu.begin() + 16));
  both("head.hwx", "truncated Mach-O header");
  WriteBytes("tdcut.hwx", std::vector<uint8_t>(relu.begin(), relu.begin() + 0x4200));
  both("tdcut.hwx", "segment __TEXT file data 0x4000+0x8000 runs past the end of the file (0x4200 bytes)");
  WriteBytes("count.hwx", put(relu, 0x4000 + 0x23c, 0xFC00C800));
  both("count.hwx", "overruns the TD");
  WriteBytes("format.hwx", put(relu, 0x4000 + 0x130, 0x23));
  ExpectOneLine(Ane({"run", "format.hwx", "--input", "image=x.npy"}), "Common.ChCfg.InFmt = 3: unknown format code");
  // A chain that loops: EON 0, NextPointer 0 (the TD itself).
  WriteBytes("loop.hwx", put(relu, 0x4000, 0));
  both("loop.hwx", "the chain loops: NextPointer 0x0 leads back to TD 0");
  // A tensor whose byte stride would wrap the offsets (C stride 2^64 - 1, dims from the thread).
  {
    std::vector<uint8_t> b = relu;
    const uint32_t c_stride_at = 0xb30 + 16 + 4 * 18;  // input tensor thread, state word 18 (C stride)
    b = put(b, c_stride_at, 0xFFFFFFFFu);
    b = put(b, c_stride_at + 4, 0xFFFFFFFFu);
    b = put(b, 0xb30 + 16 + 4 * 7, 2);  // C = 2
    WriteBytes("stride.hwx", b);
    ExpectOneLine(Ane({"run", "stride.hwx", "--input", "image=x.npy"}),
                  "byte stride 18446744073709551615 of dimension 1");
  }
  // A raw TD blob that stops inside the L2 stream.
  WriteBytes("short.td", std::vector<uint8_t>(relu.begin() + 0x4000, relu.begin() + 0x4200));
  ExpectOneLine(Ane({"td", "decode", "short.td"}), "stream L2 at TD+0x1dc runs past the end of the buffer");
  // Inputs: missing, unknown, wrong shape, wrong dtype.
  ExpectOneLine(Ane({"run", kHwx + "relu.hwx"}), "input tensor 'image' needs --input image=FILE.npy");
  ExpectOneLine(Ane({"run", kHwx + "relu.hwx", "--input", "img=x.npy"}), "the program has no input tensor 'img'");
  WriteNpy("x15.npy", Tensor{DType::kFp16, {15}, std::vector<uint32_t>(15, 0)});
  ExpectOneLine(Ane({"run", kHwx + "relu.hwx", "--input", "image=x15.npy"}), "shape [15] but input 'image' is");
  WriteNpy("i8.npy", Tensor{DType::kInt8, {16}, std::vector<uint32_t>(16, 0)});
  ExpectOneLine(Ane({"run", kHwx + "relu.hwx", "--input", "image=i8.npy"}), "dtype int8 but input 'image' is fp16");
  // YAML: an unknown field, a value too wide.
  Write("bad.yaml", "tds:\n  - fields: {Common.InDim.Wide: 3}\n");
  ExpectOneLine(Ane({"td", "encode", "bad.yaml", "-o", "o.bin"}), "Common.InDim.Wide");
  Write("wide.yaml", "tds:\n  - fields: {Common.InDim.Win: 0x10000}\n");
  ExpectOneLine(Ane({"td", "encode", "wide.yaml", "-o", "o.bin"}), "does not fit the field's 15 bits");
  EXPECT_FALSE(fs::exists(work_ / "o.bin"));
}

// ------------------------------------------------------------------ random programs

// A host tensor of a written program: [1, c, h, w] with rows rounded up to 64 bytes.
td::HwxTensor HostTensor(const std::string& name, td::TensorRole role, int c, int h, int w, td::ElemFormat f) {
  td::HwxTensor t;
  t.name = name;
  t.role = role;
  t.type = f == td::ElemFormat::kFp16 ? 5 : 2;
  const uint64_t row = td::PackedRow(w, f), plane = row * uint64_t(h);
  const uint32_t dims[5] = {1, uint32_t(c), uint32_t(h), uint32_t(w), 1};
  const uint64_t strides[5] = {plane * uint64_t(c), plane, row, uint64_t(td::ElemBytes(f)), plane * uint64_t(c)};
  std::copy(dims, dims + 5, t.dims);
  std::copy(strides, strides + 5, t.strides);
  t.bytes = uint32_t(plane * uint64_t(c));
  return t;
}

// A 9x9 convolution (above the core's 7x7 window): the oracle runs it; the RTL's TD set-up does
// not split kernels, and `ane run` says so before anything runs (exit 2, one line, no output).
TEST_F(HwxTest, N2_KernelsAbove7x7RunOnTheOracleAndTheRtlRefusesThemWithOneLine) {
  td::LayerSpec s;
  s.cin = 2;
  s.cout = 3;
  s.h = s.w = s.oh = s.ow = 9;
  s.kh = s.kw = 9;
  s.py = s.px = 4;
  s.src_bar = 5;
  s.dst_bar = 4;
  s.weights.assign(3, std::vector<uint16_t>(2 * 81, 0x3C00));
  const td::Encoded e = td::EncodeLayers({s});
  td::HwxSpec spec;
  spec.tds = e.chain;
  spec.td_count = 1;
  spec.weights = e.weights;
  spec.tensors.push_back(HostTensor("image", td::TensorRole::kInput, 2, 9, 9, td::ElemFormat::kFp16));
  spec.tensors.push_back(HostTensor("y@output", td::TensorRole::kOutput, 3, 9, 9, td::ElemFormat::kFp16));
  WriteBytes("k9.hwx", td::WriteHwx(&spec));
  WriteNpy("x.npy", Tensor{DType::kFp16, {2, 9, 9}, std::vector<uint32_t>(162, 0x3C00)});
  const Result o = Ane({"run", "k9.hwx", "--input", "image=x.npy", "--out-dir", "."});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const Tensor y = Output("y@output.npy");
  ASSERT_EQ(y.bits.size(), 243u);
  EXPECT_EQ(y.bits[4 * 9 + 4], 0x5910u) << "the centre sums 2 x 81 ones: 162";
  fs::remove(work_ / "y@output.npy");
  for (const char* engine : {"rtl", "both"}) {
    ExpectOneLine(Ane({"run", "k9.hwx", "--input", "image=x.npy", "--out-dir", ".", "--engine", engine}),
                  "TD 0: a 9x9 kernel: the RTL's TD set-up runs kernels up to 7x7");
    EXPECT_FALSE(fs::exists(work_ / "y@output.npy")) << engine;
  }
}

struct RandomProgram {
  std::vector<td::LayerSpec> layers;
  Tensor x;  // the input, [C, H, W]
};

uint16_t SmallFp16(std::mt19937_64& rng) {
  // Values in about [-2, 2] with 5 fraction bits: products and short sums stay finite.
  const int m = int(rng() % 64) - 32;
  return uint16_t(HostFp16(m / 16.0));
}

RandomProgram MakeProgram(std::mt19937_64& rng) {
  RandomProgram p;
  const int n = 1 + int(rng() % 4);
  bool int8 = rng() % 4 == 0;
  int c = 1 + int(rng() % 4), h = 1 + int(rng() % 6), w = 1 + int(rng() % 12);
  p.x = Tensor{int8 ? DType::kInt8 : DType::kFp16, {c, h, w}, {}};
  for (int i = 0; i < c * h * w; ++i) p.x.bits.push_back(int8 ? uint32_t(rng() & 0xFF) : SmallFp16(rng));
  for (int i = 0; i < n; ++i) {
    td::LayerSpec s;
    s.in = int8 ? td::ElemFormat::kInt8 : td::ElemFormat::kFp16;
    s.cin = c;
    s.h = h;
    s.w = w;
    s.pass = rng() % 4 == 0;
    if (s.pass) {
      s.cout = c;
      s.oh = h;
      s.ow = w;
    } else {
      s.groups = (c % 2 == 0 && rng() % 3 == 0) ? 2 : (rng() % 5 == 0 ? c : 1);
      s.cout = s.groups * (1 + int(rng() % (s.groups == c ? 2 : 4)));
      s.kh = 1 + int(rng() % std::min(h + 1, 4));
      s.kw = 1 + int(rng() % std::min(w + 1, 5));
      s.sy = 1 + int(rng() % 2);
      s.sx = 1 + int(rng() % 2);
      s.py = int(rng() % uint64_t(s.kh));
      s.px = int(rng() % uint64_t(s.kw));
      int pb = int(rng() % uint64_t(s.kh)), pr = int(rng() % uint64_t(s.kw));
      if (h + s.py + pb < s.kh) pb = s.kh - h - s.py;
      if (w + s.px + pr < s.kw) pr = s.kw - w - s.px;
      if (pb >= s.kh || pr >= s.kw || pb < 0 || pr < 0) {  // too small for this kernel: 1x1
        s.kh = s.kw = 1;
        s.py = s.px = pb = pr = 0;
      }
      s.oh = (h + s.py + pb - s.kh) / s.sy + 1;
      s.ow = (w + s.px + pr - s.kw) / s.sx + 1;
      s.kernel_channels = 1 + int(rng() % 3);
      const int steps = c / s.groups * s.kh * s.kw;
      for (int co = 0; co < s.cout; ++co) {
        std::vector<uint16_t> k;
        for (int j = 0; j < steps; ++j) {
          k.push_back(int8 ? uint16_t((int(rng() % 9) - 4) & 0xFF) : SmallFp16(rng));
        }
        s.weights.push_back(k);
      }
    }
    if (int8) {
      s.shift = int(rng() % 4);
      s.out = rng() % 3 == 0 ? td::ElemFormat::kFp16 : td::ElemFormat::kInt8;
      if (s.pass) s.out = td::ElemFormat::kInt8;
      s.nonlinear = regs::td::Nonlinear(rng() % 2);
    } else {
      s.out = td::ElemFormat::kFp16;
      s.nonlinear = regs::td::Nonlinear(rng() % 2);
      if (rng() % 2) s.scale = SmallFp16(rng) | 0x0400;  // nonzero
      s.bias = !s.pass && rng() % 2;                     // each channel's, in its kernel block
      for (int co = 0; co < s.cout && s.bias; ++co) s.biases.push_back(SmallFp16(rng));
    }
    c = s.cout;
    h = s.oh;
    w = s.ow;
    int8 = s.out == td::ElemFormat::kInt8;
    p.layers.push_back(s);
  }
  return p;
}

TEST_F(HwxTest, N2_N3_RandomProgramsRunBitExactOnBothEnginesAndEqualTheirOpFiles) {
  const uint64_t seed = ane::test::TestSeed(2020);
  std::mt19937_64 rng(seed);
  const int programs = int(40 * ane::test::SoakFactor());
  for (int iter = 0; iter < programs; ++iter) {
    SCOPED_TRACE(ane::test::SeedNote(seed) + ", program " + std::to_string(iter));
    RandomProgram p = MakeProgram(rng);
    const size_t n = p.layers.size();
    // Buffers as WriteHwx assigns them: 4 the output, 5 the input, 6.. the intermediates.
    for (size_t i = 0; i < n; ++i) {
      p.layers[i].src_bar = i == 0 ? 5 : int(5 + i);
      p.layers[i].dst_bar = i + 1 == n ? 4 : int(6 + i);
      if (i > 0) p.layers[i].src_base = p.layers[i - 1].dst_base;
      if (i + 1 < n) p.layers[i].dst_base = 64 * (rng() % 3);
    }
    const td::Encoded e = td::EncodeLayers(p.layers);
    td::HwxSpec spec;
    spec.tds = e.chain;
    spec.td_count = uint32_t(n);
    spec.weights = e.weights;
    spec.scratch = int(n) - 1;
    const td::LayerSpec &first = p.layers.front(), &last = p.layers.back();
    spec.tensors.push_back(HostTensor("image", td::TensorRole::kInput, first.cin, first.h, first.w, first.in));
    spec.tensors.push_back(HostTensor("y@output", td::TensorRole::kOutput, last.cout, last.oh, last.ow, last.out));
    WriteBytes("p.hwx", td::WriteHwx(&spec));
    ASSERT_EQ(spec.tensors[0].bar, 5);
    ASSERT_EQ(spec.tensors[1].bar, 4);
    WriteNpy("x.npy", p.x);
    const Result r = Ane({"run", "p.hwx", "--input", "image=x.npy", "--out-dir", ".", "--engine", "both"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    size_t identical = 0;
    for (size_t at = 0; (at = r.out.find("rtl vs oracle: bit-identical", at)) != std::string::npos; ++at) ++identical;
    EXPECT_EQ(identical, n) << r.out;
    const Tensor got = Output("y@output.npy");

    // The same chain as conv2d op files, each fed the previous one's output.
    std::string x = "x.npy";
    for (size_t i = 0; i < n; ++i) {
      const td::LayerSpec& s = p.layers[i];
      const bool i8 = s.in == td::ElemFormat::kInt8;
      const int groups = s.pass ? s.cin : s.groups;
      const int cg = s.cin / groups, kh = s.pass ? 1 : s.kh, kw = s.pass ? 1 : s.kw;
      Tensor w{i8 ? DType::kInt8 : DType::kFp16, {s.cout, cg, kh, kw}, {}};
      for (int co = 0; co < s.cout; ++co) {
        for (int k = 0; k < cg * kh * kw; ++k) {
          w.bits.push_back(s.pass ? (i8 ? 1u : 0x3C00u) : uint32_t(s.weights[size_t(co)][size_t(k)]));
        }
      }
      const std::string wn = "w" + std::to_string(i) + ".npy", yn = "y" + std::to_string(i) + ".npy";
      WriteNpy(wn, w);
      const int pb = std::max(0, (s.oh - 1) * s.sy + kh - s.h - s.py),
                pr = std::max(0, (s.ow - 1) * s.sx + kw - s.w - s.px);
      std::string op = fmt::format(
          "{{op: conv2d, generation: m1, stride: [{}, {}], padding: [{}, {}, {}, {}], groups: {}", s.pass ? 1 : s.sy,
          s.pass ? 1 : s.sx, s.pass ? 0 : s.py, s.pass ? 0 : pb, s.pass ? 0 : s.px, s.pass ? 0 : pr, groups);
      if (s.nonlinear == regs::td::Nonlinear::kRelu) op += ", activation: relu";
      if (i8) op += fmt::format(", shift: {}, store: {}", s.shift, s.out == td::ElemFormat::kInt8 ? "int8" : "fp16");
      op += fmt::format(", inputs: {{x: {}, w: {}", x, wn);
      if (s.scale != 0x3C00) {
        WriteNpy("s" + std::to_string(i) + ".npy",
                 Tensor{DType::kFp16, {s.cout}, std::vector<uint32_t>(size_t(s.cout), s.scale)});
        op += fmt::format(", scale: s{}.npy", i);
      }
      if (s.bias) {
        WriteNpy("b" + std::to_string(i) + ".npy",
                 Tensor{DType::kFp16, {s.cout}, std::vector<uint32_t>(s.biases.begin(), s.biases.end())});
        op += fmt::format(", bias: b{}.npy", i);
      }
      op += fmt::format("}}, outputs: {{y: {}}}}}\n", yn);
      Write("l" + std::to_string(i) + ".yaml", op);
      const Result ry = Ane({"run", "l" + std::to_string(i) + ".yaml"});
      ASSERT_EQ(ry.exit_code, 0) << op << ry.err;
      x = yn;
    }
    const Tensor want = Output(x);
    EXPECT_EQ(got.bits, want.bits) << "the program's output differs from its op files' " << r.out;
    EXPECT_EQ(got.dtype, want.dtype);
  }
}

}  // namespace
}  // namespace ane::cli
