// SPDX-License-Identifier: Apache-2.0
// The gate-level check's own simulator (scripts/synth/glsim.h), on hand-written BLIF netlists:
// every combinational cell type against its truth table from Yosys's cell library
// (techlibs/common/simcells.v), each flip-flop and latch family's clock, enable, synchronous and
// asynchronous controls, a latch-gated clock, and the errors it must refuse with.
// Not a numerics clause: the flow's gate-level check (docs/flow.md), which every RTL block's
// synthesis relies on.
#include "glsim.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

namespace {

class Blif {
 public:
  explicit Blif(const std::string& text) {
    char tmpl[] = "/tmp/glsim_test_XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) throw std::runtime_error("mkstemp");
    close(fd);
    path_ = tmpl;
    std::ofstream(path_) << text;
  }
  ~Blif() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A netlist with 1-bit ports named as in the BLIF; Set/Get by name.
struct Sim {
  explicit Sim(const std::string& text) : blif(text), nl(blif.path()) {}
  void Set(const char* name, uint32_t v) { nl.Set(nl.Port(name, 1, false), &v); }
  uint32_t Get(const char* name) {
    uint32_t v = 0;
    nl.Get(nl.Port(name, 1, true), &v);
    return v;
  }
  // one clock cycle as the glcheck testbench drives it: inputs with clk low, then clk high
  void Cycle() {
    Set("clk", 0);
    nl.Eval();
    Set("clk", 1);
    nl.Eval();
  }
  Blif blif;
  glsim::Netlist nl;
};

std::string Header(const std::string& ins, const std::string& outs) {
  return ".model t\n.inputs " + ins + "\n.outputs " + outs + "\n";
}

TEST(GlsimTest, FLOW_EveryCombinationalCellMatchesItsTruthTable) {
  struct Case {
    const char* type;
    int inputs;
    std::function<int(int, int, int, int)> f;  // A, B, C (or S), D
  };
  const Case cases[] = {
      {"$_BUF_", 1, [](int a, int, int, int) { return a; }},
      {"$_NOT_", 1, [](int a, int, int, int) { return !a; }},
      {"$_AND_", 2, [](int a, int b, int, int) { return a && b; }},
      {"$_NAND_", 2, [](int a, int b, int, int) { return !(a && b); }},
      {"$_OR_", 2, [](int a, int b, int, int) { return a || b; }},
      {"$_NOR_", 2, [](int a, int b, int, int) { return !(a || b); }},
      {"$_XOR_", 2, [](int a, int b, int, int) { return a != b; }},
      {"$_XNOR_", 2, [](int a, int b, int, int) { return a == b; }},
      {"$_ANDNOT_", 2, [](int a, int b, int, int) { return a && !b; }},
      {"$_ORNOT_", 2, [](int a, int b, int, int) { return a || !b; }},
      {"$_MUX_", 3, [](int a, int b, int s, int) { return s ? b : a; }},
      {"$_NMUX_", 3, [](int a, int b, int s, int) { return !(s ? b : a); }},
      {"$_AOI3_", 3, [](int a, int b, int c, int) { return !((a && b) || c); }},
      {"$_OAI3_", 3, [](int a, int b, int c, int) { return !((a || b) && c); }},
      {"$_AOI4_", 4, [](int a, int b, int c, int d) { return !((a && b) || (c && d)); }},
      {"$_OAI4_", 4, [](int a, int b, int c, int d) { return !((a || b) && (c || d)); }},
  };
  for (const Case& c : cases) {
    const bool mux = std::string(c.type).find("MUX") != std::string::npos;
    std::string pins = " A=a";
    if (c.inputs >= 2) pins += " B=b";
    if (c.inputs >= 3) pins += mux ? " S=c" : " C=c";
    if (c.inputs >= 4) pins += " D=d";
    Sim s(Header("a b c d", "y") + ".subckt " + c.type + pins + " Y=y\n.end\n");
    for (int v = 0; v < 16; ++v) {
      s.Set("a", v & 1);
      s.Set("b", (v >> 1) & 1);
      s.Set("c", (v >> 2) & 1);
      s.Set("d", (v >> 3) & 1);
      s.nl.Eval();
      EXPECT_EQ(s.Get("y"), static_cast<uint32_t>(c.f(v & 1, (v >> 1) & 1, (v >> 2) & 1, (v >> 3) & 1)))
          << c.type << " inputs abcd=" << (v & 1) << ((v >> 1) & 1) << ((v >> 2) & 1) << ((v >> 3) & 1);
    }
  }
}

TEST(GlsimTest, FLOW_FlipFlopsTakeDOnTheirActiveEdgeOnly) {
  Sim s(Header("clk d", "qp qn") + ".subckt $_DFF_P_ C=clk D=d Q=qp\n.subckt $_DFF_N_ C=clk D=d Q=qn\n.end\n");
  s.Set("d", 1);
  s.Set("clk", 0);
  s.nl.Eval();
  EXPECT_EQ(s.Get("qp"), 0u);
  s.Set("clk", 1);
  s.nl.Eval();
  EXPECT_EQ(s.Get("qp"), 1u) << "rising edge";
  EXPECT_EQ(s.Get("qn"), 0u) << "a negative-edge flop ignores the rising edge";
  s.Set("d", 0);
  s.nl.Eval();
  EXPECT_EQ(s.Get("qp"), 1u) << "D changing while the clock is high";
  s.Set("d", 1);
  s.nl.Eval();
  EXPECT_EQ(s.Get("qn"), 0u);
  s.Set("clk", 0);
  s.nl.Eval();
  EXPECT_EQ(s.Get("qn"), 1u) << "falling edge";
  EXPECT_EQ(s.Get("qp"), 1u);
}

TEST(GlsimTest, FLOW_FlipFlopsSampleDBeforeTheEdgeAsAShiftRegister) {
  // q1 -> q2: on one edge q2 takes q1's value from before the edge
  Sim s(Header("clk d", "q1 q2") + ".subckt $_DFF_P_ C=clk D=d Q=q1\n.subckt $_DFF_P_ C=clk D=q1 Q=q2\n.end\n");
  s.Set("d", 1);
  s.Cycle();
  EXPECT_EQ(s.Get("q1"), 1u);
  EXPECT_EQ(s.Get("q2"), 0u);
  s.Set("d", 0);
  s.Cycle();
  EXPECT_EQ(s.Get("q1"), 0u);
  EXPECT_EQ(s.Get("q2"), 1u);
}

TEST(GlsimTest, FLOW_EnableAndSynchronousResetPrecedence) {
  // $_SDFFE_: the reset acts whatever the enable; $_SDFFCE_: only when enabled.
  Sim s(Header("clk d e r", "qe qce qde") +
        ".subckt $_SDFFE_PP0P_ C=clk D=d E=e R=r Q=qe\n"
        ".subckt $_SDFFCE_PP0P_ C=clk D=d E=e R=r Q=qce\n"
        ".subckt $_DFFE_PN_ C=clk D=d E=e Q=qde\n.end\n");
  s.Set("d", 1);
  s.Set("e", 1);
  s.Set("r", 0);
  s.Cycle();
  EXPECT_EQ(s.Get("qe"), 1u);
  EXPECT_EQ(s.Get("qce"), 1u);
  EXPECT_EQ(s.Get("qde"), 0u) << "$_DFFE_PN_ is enabled by E = 0";
  s.Set("e", 0);
  s.Set("r", 1);
  s.Cycle();
  EXPECT_EQ(s.Get("qe"), 0u) << "SDFFE: reset without enable";
  EXPECT_EQ(s.Get("qce"), 1u) << "SDFFCE: no reset without enable";
  EXPECT_EQ(s.Get("qde"), 1u);
}

TEST(GlsimTest, FLOW_AsynchronousSetAndResetActWithoutAClockAndResetWins) {
  Sim s(Header("clk d sn rn", "q qa") +
        ".subckt $_DFFSR_PNN_ C=clk D=d S=sn R=rn Q=q\n"
        ".subckt $_DFF_PN1_ C=clk D=d R=rn Q=qa\n.end\n");
  s.Set("d", 0);
  s.Set("sn", 1);
  s.Set("rn", 1);
  s.Cycle();
  EXPECT_EQ(s.Get("q"), 0u);
  s.Set("sn", 0);  // set, clock low: at once
  s.nl.Eval();
  EXPECT_EQ(s.Get("q"), 1u);
  s.Set("rn", 0);  // set and reset together: reset wins
  s.nl.Eval();
  EXPECT_EQ(s.Get("q"), 0u);
  EXPECT_EQ(s.Get("qa"), 1u) << "$_DFF_PN1_ resets to 1";
  s.Set("sn", 1);
  s.Set("d", 1);
  s.Cycle();
  EXPECT_EQ(s.Get("q"), 0u) << "held in reset through a clock edge";
  s.Set("rn", 1);
  s.Set("d", 0);
  s.Cycle();
  EXPECT_EQ(s.Get("qa"), 0u);
}

TEST(GlsimTest, FLOW_AsynchronousControlsActOnTheirEdgeAsInTheVerilogModel) {
  // always @(posedge C or negedge R): a reset low from time 0 has had no edge, so it acts at the
  // first clock edge only (as the Verilated RTL does); a set held while the reset releases acts
  // at the next clock edge, not at the release.
  Sim s(Header("clk d sn rn", "qa q") +
        ".subckt $_DFF_PN1_ C=clk D=d R=rn Q=qa\n"
        ".subckt $_DFFSR_PNN_ C=clk D=d S=sn R=rn Q=q\n.end\n");
  s.Set("d", 0);
  s.Set("sn", 0);
  s.Set("rn", 0);
  s.Set("clk", 0);
  s.nl.Eval();
  EXPECT_EQ(s.Get("qa"), 0u) << "no reset edge yet";
  s.Set("clk", 1);
  s.nl.Eval();
  EXPECT_EQ(s.Get("qa"), 1u) << "reset active at the clock edge";
  EXPECT_EQ(s.Get("q"), 0u) << "reset wins over set";
  s.Set("rn", 1);  // release with the set still active: no event
  s.nl.Eval();
  EXPECT_EQ(s.Get("q"), 0u);
  s.Cycle();
  EXPECT_EQ(s.Get("q"), 1u) << "the set acts at the clock edge";
  EXPECT_EQ(s.Get("qa"), 0u);
}

TEST(GlsimTest, FLOW_LatchGatedClockTakesTheEnableFromTheLowPhase) {
  // A clock gate as scripts/synth/clockgate.py builds it: a latch open while clk is low holds
  // the enable, and gclk = clk AND the held enable clocks the flip-flop.
  Sim s(Header("clk en d", "q") +
        ".subckt $_DLATCH_N_ E=clk D=en Q=held\n"
        ".subckt $_AND_ A=clk B=held Y=gclk\n"
        ".subckt $_DFF_P_ C=gclk D=d Q=q\n.end\n");
  s.Set("d", 1);
  s.Set("en", 0);
  s.Cycle();
  EXPECT_EQ(s.Get("q"), 0u) << "not enabled";
  s.Set("en", 1);  // enable arrives while the clock is high: the latch is closed, no edge
  s.nl.Eval();
  EXPECT_EQ(s.Get("q"), 0u);
  s.Cycle();
  EXPECT_EQ(s.Get("q"), 1u) << "enabled in the low phase, taken on the rising edge";
  s.Set("d", 0);
  s.Set("clk", 0);
  s.nl.Eval();
  s.Set("en", 0);  // enable drops in the low phase before the edge: no capture
  s.nl.Eval();
  s.Set("clk", 1);
  s.nl.Eval();
  EXPECT_EQ(s.Get("q"), 1u);
}

TEST(GlsimTest, FLOW_VectorPortsAndBufferAndConstantNames) {
  Sim s(Header("a[0] a[1] a[2]", "y[0] y[1] y[2] y[3] z") +
        ".names a[2] y[0]\n1 1\n.names a[0] y[2]\n1 1\n"
        ".subckt $_XOR_ A=a[1] B=$true Y=y[1]\n.names y[3]\n1\n.names z\n.end\n");
  const int a = s.nl.Port("a", 3, false), y = s.nl.Port("y", 4, true);
  uint32_t v = 0b110, out = 0;
  s.nl.Set(a, &v);
  s.nl.Eval();
  s.nl.Get(y, &out);
  EXPECT_EQ(out, 0b1001u);  // y0 = a2, y1 = !a1, y2 = a0, y3 = 1
  EXPECT_EQ(s.Get("z"), 0u);
}

TEST(GlsimTest, FLOW_RefusesWhatItCannotSimulateWithOneLine) {
  struct Bad {
    std::string text, want;
  };
  const Bad bad[] = {
      {Header("a", "y") + ".subckt $_ALDFF_PP_ C=a D=a L=a AD=a Q=y\n.end\n", "not one the gate-level simulator knows"},
      {Header("a", "y") + ".subckt $_NOT_ A=a Y=y\n.subckt $_BUF_ A=a Y=y\n.end\n", "more than one driver"},
      {Header("a", "y") + ".subckt $_AND_ A=a B=x Y=y\n.subckt $_NOT_ A=y Y=x\n.end\n", "combinational loop"},
      {Header("a", "y") + ".names a y\n0 1\n.end\n", "a .names cover other than a buffer or a constant"},
      {Header("a", "y") + ".subckt $_NOT_ A=a\n.end\n", "has no pin Y"},
      {Header("a", "y") + ".latch a y\n.end\n", "unknown BLIF directive .latch"},
  };
  for (const Bad& b : bad) {
    Blif f(b.text);
    try {
      glsim::Netlist nl(f.path());
      ADD_FAILURE() << "accepted: " << b.text;
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(b.want), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
    }
  }
  Blif ok(Header("a", "y") + ".subckt $_NOT_ A=a Y=y\n.end\n");
  glsim::Netlist nl(ok.path());
  EXPECT_THROW(nl.Port("a", 2, false), std::runtime_error) << "width";
  EXPECT_THROW(nl.Port("y", 1, false), std::runtime_error) << "direction";
  EXPECT_THROW(nl.Port("b", 1, false), std::runtime_error) << "missing";
}

}  // namespace
