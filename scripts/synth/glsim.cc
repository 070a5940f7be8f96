// SPDX-License-Identifier: Apache-2.0
// Cycle-based two-state gate-level simulator: see glsim.h.
#include "glsim.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace glsim {
namespace {

[[noreturn]] void Fail(const std::string& msg) { throw std::runtime_error(msg); }

bool Pol(char c, const std::string& type, const std::string& where) {
  if (c == 'P' || c == '1') return true;
  if (c == 'N' || c == '0') return false;
  Fail(where + ": cell type " + type + " has an unknown polarity or value letter '" + c + "'");
}

// "name[3]" -> ("name", 3); "name" -> ("name", -1)
std::pair<std::string, int> SplitBit(const std::string& s) {
  if (s.size() >= 3 && s.back() == ']') {
    const std::size_t open = s.rfind('[');
    if (open != std::string::npos && open > 0 && open + 2 < s.size()) {
      const std::string digits = s.substr(open + 1, s.size() - open - 2);
      if (std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        return {s.substr(0, open), std::stoi(digits)};
    }
  }
  return {s, -1};
}

}  // namespace

int Netlist::Net(const std::string& name) {
  if (name == "$false" || name == "$undef") return 0;
  if (name == "$true") return 1;
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  const int id = static_cast<int>(net_names_.size());
  net_names_.push_back(name);
  ids_.emplace(name, id);
  return id;
}

void Netlist::AddCell(const std::string& type, const std::vector<std::pair<std::string, std::string>>& pins,
                      const std::string& where) {
  auto pin = [&](const char* p, bool required = true) -> int {
    for (const auto& kv : pins)
      if (kv.first == p) return Net(kv.second);
    if (required) Fail(where + ": cell " + type + " has no pin " + p);
    return -1;
  };
  static const struct {
    const char* name;
    Op op;
    int inputs;
  } kComb[] = {{"$_BUF_", kBuf, 1},     {"$_NOT_", kNot, 1},       {"$_AND_", kAnd, 2},     {"$_NAND_", kNand, 2},
               {"$_OR_", kOr, 2},       {"$_NOR_", kNor, 2},       {"$_XOR_", kXor, 2},     {"$_XNOR_", kXnor, 2},
               {"$_ANDNOT_", kAndNot, 2}, {"$_ORNOT_", kOrNot, 2}, {"$_MUX_", kMux, 3},     {"$_NMUX_", kNmux, 3},
               {"$_AOI3_", kAoi3, 3},   {"$_OAI3_", kOai3, 3},     {"$_AOI4_", kAoi4, 4},   {"$_OAI4_", kOai4, 4}};
  for (const auto& c : kComb) {
    if (type != c.name) continue;
    Comb g{c.op, pin("Y"), pin("A"), -1, -1, -1};
    if (c.op == kMux || c.op == kNmux) {
      g.b = pin("B");
      g.c = pin("S");
    } else {
      if (c.inputs >= 2) g.b = pin("B");
      if (c.inputs >= 3) g.c = pin("C");
      if (c.inputs >= 4) g.d = pin("D");
    }
    comb_.push_back(g);
    return;
  }
  // Flip-flops and latches: the letters after the cell family name are, in order, the
  // polarities and values Yosys's cell library documents for it.
  auto letters = [&](const std::string& family) -> std::string {
    if (type.compare(0, family.size(), family) != 0 || type.back() != '_') return "";
    return type.substr(family.size(), type.size() - family.size() - 1);
  };
  std::string l;
  if (!(l = letters("$_DLATCH_")).empty() && (l.size() == 1 || l.size() == 3)) {
    Latch t{pin("E"), pin("D"), pin("Q"), Pol(l[0], type, where)};
    if (l.size() == 3) {
      t.arst = pin("R");
      t.arst_pol = Pol(l[1], type, where);
      t.arst_val = Pol(l[2], type, where);
    }
    latches_.push_back(t);
    return;
  }
  Flop f{};  // the member initializers: no control, every previous net value 0
  bool known = false;
  if (!(l = letters("$_DFF_")).empty() && (l.size() == 1 || l.size() == 3)) {
    known = true;
    if (l.size() == 3) {
      f.arst = pin("R");
      f.arst_pol = Pol(l[1], type, where);
      f.arst_val = Pol(l[2], type, where);
    }
  } else if (!(l = letters("$_DFFE_")).empty() && (l.size() == 2 || l.size() == 4)) {
    known = true;
    f.en = pin("E");
    f.en_pol = Pol(l.back(), type, where);
    if (l.size() == 4) {
      f.arst = pin("R");
      f.arst_pol = Pol(l[1], type, where);
      f.arst_val = Pol(l[2], type, where);
    }
  } else if (!(l = letters("$_SDFF_")).empty() && l.size() == 3) {
    known = true;
    f.srst = pin("R");
    f.srst_pol = Pol(l[1], type, where);
    f.srst_val = Pol(l[2], type, where);
  } else if ((!(l = letters("$_SDFFE_")).empty() || !(l = letters("$_SDFFCE_")).empty()) && l.size() == 4) {
    known = true;
    f.srst = pin("R");
    f.srst_pol = Pol(l[1], type, where);
    f.srst_val = Pol(l[2], type, where);
    f.en = pin("E");
    f.en_pol = Pol(l[3], type, where);
    f.srst_needs_en = type.compare(0, 8, "$_SDFFCE") == 0;
  } else if ((!(l = letters("$_DFFSR_")).empty() && l.size() == 3) ||
             (!(l = letters("$_DFFSRE_")).empty() && l.size() == 4)) {
    known = true;
    f.aset = pin("S");
    f.aset_pol = Pol(l[1], type, where);
    f.arst = pin("R");
    f.arst_pol = Pol(l[2], type, where);
    f.arst_val = 0;
    if (l.size() == 4) {
      f.en = pin("E");
      f.en_pol = Pol(l[3], type, where);
    }
  }
  if (!known) Fail(where + ": cell type " + type + " is not one the gate-level simulator knows");
  f.clk = pin("C");
  f.clk_pol = Pol(l[0], type, where);
  f.d = pin("D");
  f.q = pin("Q");
  flops_.push_back(f);
}

Netlist::Netlist(const std::string& path) {
  std::ifstream in(path);
  if (!in) Fail(path + ": cannot open");
  net_names_ = {"$false", "$true"};
  std::vector<std::string> inputs, outputs;
  std::string line, logical;
  long lineno = 0, models = 0;
  std::vector<std::string> names_pending;  // a .names directive waiting for its cover
  std::string names_where;
  bool names_has_cover = false;
  auto finish_names = [&]() {
    if (names_pending.empty()) return;
    if (names_pending.size() == 1 && !names_has_cover)  // constant 0
      comb_.push_back({kBuf, Net(names_pending[0]), 0, -1, -1, -1});
    names_pending.clear();
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    if (!line.empty() && line.back() == '\\') {
      line.pop_back();
      logical += line + " ";
      continue;
    }
    logical += line;
    std::istringstream ss(logical);
    logical.clear();
    std::vector<std::string> tok;
    for (std::string t; ss >> t;) tok.push_back(t);
    if (tok.empty()) continue;
    const std::string where = path + ":" + std::to_string(lineno);
    if (tok[0][0] != '.') {  // a cover line of the pending .names
      if (names_pending.empty()) Fail(where + ": a line that is neither a directive nor a .names cover");
      if (names_pending.size() == 2 && tok.size() == 2 && tok[0] == "1" && tok[1] == "1" && !names_has_cover) {
        comb_.push_back({kBuf, Net(names_pending[1]), Net(names_pending[0]), -1, -1, -1});
      } else if (names_pending.size() == 1 && tok.size() == 1 && tok[0] == "1" && !names_has_cover) {
        comb_.push_back({kBuf, Net(names_pending[0]), 1, -1, -1, -1});
      } else {
        Fail(where + ": a .names cover other than a buffer or a constant (write the BLIF with -icells)");
      }
      names_has_cover = true;
      continue;
    }
    finish_names();
    const std::string& d = tok[0];
    if (d == ".model") {
      if (++models > 1) Fail(where + ": more than one .model (flatten the design first)");
    } else if (d == ".inputs") {
      inputs.insert(inputs.end(), tok.begin() + 1, tok.end());
    } else if (d == ".outputs") {
      outputs.insert(outputs.end(), tok.begin() + 1, tok.end());
    } else if (d == ".names") {
      if (tok.size() < 2 || tok.size() > 3) Fail(where + ": a .names with " + std::to_string(tok.size() - 1) +
                                                 " nets (only buffers and constants are expected)");
      names_pending.assign(tok.begin() + 1, tok.end());
      names_has_cover = false;
      names_where = where;
    } else if (d == ".subckt" || d == ".gate") {
      if (tok.size() < 2) Fail(where + ": .subckt without a cell type");
      std::vector<std::pair<std::string, std::string>> pins;
      for (std::size_t i = 2; i < tok.size(); ++i) {
        const std::size_t eq = tok[i].find('=');
        if (eq == std::string::npos) Fail(where + ": pin connection '" + tok[i] + "' is not PIN=NET");
        pins.emplace_back(tok[i].substr(0, eq), tok[i].substr(eq + 1));
      }
      AddCell(tok[1], pins, where);
    } else if (d == ".end") {
    } else {
      Fail(where + ": unknown BLIF directive " + d);
    }
  }
  finish_names();
  if (models != 1) Fail(path + ": no .model");

  // ports: "name[i]" bits grouped by name, in declaration order of their first bit
  auto add_ports = [&](const std::vector<std::string>& bits, bool output) {
    for (const std::string& b : bits) {
      const auto nb = SplitBit(b);
      PortInfo* p = nullptr;
      for (auto& q : ports_)
        if (q.name == nb.first) p = &q;
      if (!p) {
        ports_.push_back({nb.first, output, {}});
        p = &ports_.back();
      } else if (p->output != output) {
        Fail(path + ": port " + nb.first + " is both an input and an output");
      }
      const int idx = nb.second < 0 ? 0 : nb.second;
      if (static_cast<int>(p->nets.size()) <= idx) p->nets.resize(idx + 1, -1);
      if (p->nets[idx] != -1) Fail(path + ": port bit " + b + " declared twice");
      p->nets[idx] = Net(b);
    }
  };
  add_ports(inputs, false);
  add_ports(outputs, true);
  for (const auto& p : ports_)
    for (std::size_t i = 0; i < p.nets.size(); ++i)
      if (p.nets[i] < 0) Fail(path + ": port " + p.name + " has no bit " + std::to_string(i));
  Levelize(path);
  v_.assign(net_names_.size(), 0);
  v_[1] = 1;
  ids_.clear();
}

void Netlist::Levelize(const std::string& path) {
  const int n = static_cast<int>(net_names_.size());
  // driver of each net: -2 none (a source), -1 a state element or an input, >= 0 a comb cell
  std::vector<int> driver(n, -2);
  auto drive = [&](int net, int who, const char* what) {
    if (net <= 1) Fail(path + ": a " + std::string(what) + " drives a constant net");
    if (driver[net] != -2) Fail(path + ": net " + net_names_[net] + " has more than one driver");
    driver[net] = who;
  };
  for (const auto& p : ports_)
    if (!p.output)
      for (int b : p.nets) drive(b, -1, "input port");
  for (const auto& f : flops_) drive(f.q, -1, "flip-flop");
  for (const auto& t : latches_) drive(t.q, -1, "latch");
  for (std::size_t i = 0; i < comb_.size(); ++i) drive(comb_[i].y, static_cast<int>(i), "cell");
  // Kahn's algorithm over the comb cells
  const std::size_t m = comb_.size();
  std::vector<int> pending(m, 0);
  std::vector<std::vector<int>> fanout(n);
  for (std::size_t i = 0; i < m; ++i) {
    const Comb& g = comb_[i];
    for (int in : {g.a, g.b, g.c, g.d}) {
      if (in < 0 || driver[in] < 0) continue;
      ++pending[i];
      fanout[in].push_back(static_cast<int>(i));
    }
  }
  std::vector<int> order;
  order.reserve(m);
  for (std::size_t i = 0; i < m; ++i)
    if (pending[i] == 0) order.push_back(static_cast<int>(i));
  for (std::size_t k = 0; k < order.size(); ++k) {
    const int y = comb_[order[k]].y;
    for (int j : fanout[y])
      if (--pending[j] == 0) order.push_back(j);
  }
  if (order.size() != m) {
    for (std::size_t i = 0; i < m; ++i)
      if (pending[i]) Fail(path + ": combinational loop through net " + net_names_[comb_[i].y]);
  }
  std::vector<Comb> sorted;
  sorted.reserve(m);
  for (int i : order) sorted.push_back(comb_[i]);
  comb_.swap(sorted);
}

int Netlist::Port(const std::string& name, int width, bool output) const {
  for (std::size_t i = 0; i < ports_.size(); ++i) {
    const PortInfo& p = ports_[i];
    if (p.name != name) continue;
    if (p.output != output || static_cast<int>(p.nets.size()) != width)
      Fail("netlist port " + name + " is " + (p.output ? "an output" : "an input") + " of " +
           std::to_string(p.nets.size()) + " bits, expected " + (output ? "an output" : "an input") + " of " +
           std::to_string(width));
    return static_cast<int>(i);
  }
  Fail("the netlist has no port " + name);
}

std::vector<std::string> Netlist::PortNames() const {
  std::vector<std::string> out;
  for (const auto& p : ports_) out.push_back(p.name);
  return out;
}

void Netlist::Set(int port, const uint32_t* words) {
  const PortInfo& p = ports_[port];
  for (std::size_t i = 0; i < p.nets.size(); ++i) v_[p.nets[i]] = (words[i / 32] >> (i % 32)) & 1u;
}

void Netlist::Get(int port, uint32_t* words) const {
  const PortInfo& p = ports_[port];
  for (std::size_t i = 0; i < (p.nets.size() + 31) / 32; ++i) words[i] = 0;
  for (std::size_t i = 0; i < p.nets.size(); ++i) words[i / 32] |= static_cast<uint32_t>(v_[p.nets[i]]) << (i % 32);
}

void Netlist::RunComb() {
  uint8_t* v = v_.data();
  for (const Comb& g : comb_) {
    uint8_t r;
    switch (g.op) {
      case kBuf: r = v[g.a]; break;
      case kNot: r = v[g.a] ^ 1; break;
      case kAnd: r = v[g.a] & v[g.b]; break;
      case kNand: r = (v[g.a] & v[g.b]) ^ 1; break;
      case kOr: r = v[g.a] | v[g.b]; break;
      case kNor: r = (v[g.a] | v[g.b]) ^ 1; break;
      case kXor: r = v[g.a] ^ v[g.b]; break;
      case kXnor: r = v[g.a] ^ v[g.b] ^ 1; break;
      case kAndNot: r = v[g.a] & (v[g.b] ^ 1); break;
      case kOrNot: r = v[g.a] | (v[g.b] ^ 1); break;
      case kMux: r = v[g.c] ? v[g.b] : v[g.a]; break;
      case kNmux: r = (v[g.c] ? v[g.b] : v[g.a]) ^ 1; break;
      case kAoi3: r = ((v[g.a] & v[g.b]) | v[g.c]) ^ 1; break;
      case kOai3: r = ((v[g.a] | v[g.b]) & v[g.c]) ^ 1; break;
      case kAoi4: r = ((v[g.a] & v[g.b]) | (v[g.c] & v[g.d])) ^ 1; break;
      default: r = ((v[g.a] | v[g.b]) & (v[g.c] | v[g.d])) ^ 1; break;  // kOai4
    }
    v[g.y] = r;
  }
}

// One pass over the state elements after RunComb: flip-flop events, latches. Returns whether
// any state net changed.
//
// A flip-flop acts on an event, as the Verilog of Yosys's cell library does (`always @(posedge
// C or negedge R)`, simcells.v), and as the Verilated RTL it is compared with: its clock net
// changing to the active level, or an asynchronous set or reset net changing to its active
// level. Then the reset, if active, wins; else the set; else, on a clock event, D (with the
// enable and the synchronous reset). A reset held from the start is therefore not applied
// until a clock edge, exactly as in the RTL's simulation. Every D is the value of this pass
// (before any flip-flop changes); all flip-flops change at once. A latch follows D while its
// enable is active (`always @*`).
bool Netlist::UpdateState() {
  uint8_t* v = v_.data();
  bool changed = false;
  captured_.clear();
  for (std::size_t i = 0; i < flops_.size(); ++i) {
    Flop& f = flops_[i];
    const uint8_t c = v[f.clk];
    const bool clk_event = c != f.prev_clk && c == f.clk_pol;
    f.prev_clk = c;
    bool rst_on = false, set_on = false, async_event = false;
    if (f.arst >= 0) {
      const uint8_t r = v[f.arst];
      rst_on = r == f.arst_pol;
      async_event |= rst_on && r != f.prev_arst;
      f.prev_arst = r;
    }
    if (f.aset >= 0) {
      const uint8_t r = v[f.aset];
      set_on = r == f.aset_pol;
      async_event |= set_on && r != f.prev_aset;
      f.prev_aset = r;
    }
    if (!clk_event && !async_event) continue;
    if (rst_on) {
      captured_.emplace_back(static_cast<int>(i), f.arst_val);
    } else if (set_on) {
      captured_.emplace_back(static_cast<int>(i), 1);
    } else if (clk_event) {
      const bool en = f.en < 0 || v[f.en] == f.en_pol;
      const bool srst = f.srst >= 0 && v[f.srst] == f.srst_pol && (en || !f.srst_needs_en);
      if (srst)
        captured_.emplace_back(static_cast<int>(i), f.srst_val);
      else if (en)
        captured_.emplace_back(static_cast<int>(i), v[f.d]);
    }
  }
  for (const auto& c : captured_) {
    uint8_t& q = v[flops_[c.first].q];
    if (q != c.second) {
      q = c.second;
      changed = true;
    }
  }
  for (const Latch& t : latches_) {
    uint8_t& q = v[t.q];
    uint8_t nq = q;
    if (t.arst >= 0 && v[t.arst] == t.arst_pol)
      nq = t.arst_val;
    else if (v[t.en] == t.en_pol)
      nq = v[t.d];
    if (nq != q) {
      q = nq;
      changed = true;
    }
  }
  return changed;
}

void Netlist::Eval() {
  for (int pass = 0;; ++pass) {
    if (pass == 1000) Fail("the netlist does not settle (1000 passes): a loop through latches or a clock");
    RunComb();
    if (!UpdateState()) return;
  }
}

}  // namespace glsim
