// SPDX-License-Identifier: Apache-2.0
// Cycle-based two-state simulator of a flat gate-level netlist, for the gate-level check of tops
// too large to Verilate (scripts/synth/glcheck.sh --gatesim; docs/flow.md, "Gate-level check").
//
// The netlist is the BLIF that `yosys write_blif -icells -impltf` writes of a flattened design
// made only of Yosys's fine-grained internal cells ($_AND_, $_MUX_, $_DFFE_PN0P_, $_DLATCH_N_,
// ...): the generic netlist after `synth`, or the mapped netlist with each library cell replaced
// by its Liberty function (scripts/synth/osu018.tcl writes both). Every net holds 0 or 1; nets
// start at 0, as the RTL model's state does under Verilator's --x-initial 0, and undriven nets
// read 0 ($undef included), as under --x-assign 0.
//
// eval() settles the netlist after its inputs changed, the way a Verilated model's eval() does:
// the combinational cells in topological order, then the state elements: a flip-flop acts on an
// event, its clock net or an asynchronous set or reset net changing to its active level, with
// the Verilog semantics of Yosys's cell library (the reset wins, then the set, then on a clock
// event D with the enable and synchronous reset; a reset held from time 0 acts at the first
// clock edge, as in the Verilated RTL), all flip-flops at once with the D values of that pass;
// transparent latches follow D. Repeated until nothing changes. Clock nets may be gated (a latch
// and an AND, as scripts/synth/clockgate.py builds them): an edge is a change of the net a
// flip-flop's clock pin is connected to.
#ifndef ANE_GLSIM_H_
#define ANE_GLSIM_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace glsim {

class Netlist {
 public:
  // Reads PATH; throws std::runtime_error (one line, naming the file and what is wrong) on a
  // cell type it does not know, a net with two drivers, a combinational loop, or bad syntax.
  explicit Netlist(const std::string& path);

  // The index of port NAME, which must exist with this width and direction (throws otherwise).
  int Port(const std::string& name, int width, bool output) const;
  // Names of all ports, inputs and outputs, as the netlist declares them.
  std::vector<std::string> PortNames() const;

  void Set(int port, const uint32_t* words);  // bit i of the port is bit i % 32 of words[i / 32]
  void Get(int port, uint32_t* words) const;
  void Eval();

  std::size_t comb_cells() const { return comb_.size(); }
  std::size_t flops() const { return flops_.size(); }
  std::size_t latches() const { return latches_.size(); }

 private:
  enum Op : uint8_t { kBuf, kNot, kAnd, kNand, kOr, kNor, kXor, kXnor, kAndNot, kOrNot, kMux, kNmux,
                      kAoi3, kOai3, kAoi4, kOai4 };
  struct Comb {
    Op op;
    int y, a, b, c, d;
  };
  // A flip-flop: every optional control is a net index or -1; `*_pol` is the active level.
  struct Flop {
    int clk = -1, d = -1, q = -1;
    uint8_t clk_pol = 1;
    uint8_t prev_clk = 0, prev_arst = 0, prev_aset = 0;  // the nets' values in the last pass
    int en = -1;
    uint8_t en_pol = 1;
    int arst = -1;  // asynchronous reset to arst_val (a $_DFFSR_'s R: to 0)
    uint8_t arst_pol = 1, arst_val = 0;
    int aset = -1;  // asynchronous set to 1 (a $_DFFSR_'s S; R wins over S)
    uint8_t aset_pol = 1;
    int srst = -1;  // synchronous reset to srst_val
    uint8_t srst_pol = 1, srst_val = 0;
    bool srst_needs_en = false;  // $_SDFFCE_: the reset only acts when the enable does
  };
  struct Latch {
    int en, d, q;
    uint8_t en_pol;
    int arst = -1;
    uint8_t arst_pol = 1, arst_val = 0;
  };
  struct PortInfo {
    std::string name;
    bool output;
    std::vector<int> nets;  // bit 0 first
  };

  int Net(const std::string& name);
  void AddCell(const std::string& type, const std::vector<std::pair<std::string, std::string>>& pins,
               const std::string& where);
  void Levelize(const std::string& path);
  void RunComb();
  bool UpdateState();

  std::unordered_map<std::string, int> ids_;  // net name -> index, while reading
  std::vector<std::string> net_names_;
  std::vector<uint8_t> v_;
  std::vector<Comb> comb_;
  std::vector<Flop> flops_;
  std::vector<Latch> latches_;
  std::vector<PortInfo> ports_;
  std::vector<std::pair<int, uint8_t>> captured_;  // scratch for UpdateState
};

}  // namespace glsim

#endif  // ANE_GLSIM_H_
