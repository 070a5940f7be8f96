#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Clock gating: turn groups of enable flip-flops into plain flip-flops on a gated clock.

    clockgate.py IN.json OUT.json TOP [--min-group N] [--latch CELL] [--and CELL] [--nor CELL]
                 [--inv CELL] [--mutant]

Runs on the generic netlist that `synth` leaves (Yosys JSON, internal $_DFFE_* cells), before
the flip-flops are mapped to the library. OSU 0.18um has no enable flip-flop: without this step
dfflibmap gives every enable flip-flop a hold multiplexer in front of its D pin (about one cell
per bit), although one enable usually drives a whole register (a pipeline stage's stall, a
slot's write enable). A synthesis tool for a real library inserts a clock gate instead (the
"insert clock gating" step of commercial flows), and so does this step, with the library's own
cells: every group of at least N (default 4) positive-edge flip-flops that share a clock and an
enable net gets one latch-based gate

    en_l = LATCH(D = enable, CLK = ~clk)      transparent while the clock is low
    gclk = AND2(clk, en_l)                    active-high enable
    gclk = NOR2(~clk, en_l)                   active-low enable (= clk & ~en_l)

and its flip-flops lose their enable: $_DFFE_PP_ -> $_DFF_P_, $_DFFE_PN0P_ -> $_DFF_PN0_, and
$_SDFFCE_* (synchronous reset that acts only when enabled) -> $_SDFF_*. The latch holds the
enable while the clock is high, so the gated clock cannot glitch. One inverter per clock net
(~clk) feeds the latches. Other flip-flops ($_SDFFE_*, whose reset overrides the enable;
negative-edge ones; groups under N) are left as they are.

New cells are named `$clockgate$...`; scripts/synth/fanout.py leaves the nets they drive alone
(clock nets: ideal in the timing constraints, as the top's clock port is). The gate-level check
simulates the mapped netlist (glmap.v), gates included, against the RTL.

--mutant (the flow's self-test only, scripts/synth/selftest.sh): the first group's flip-flops
lose their enable but stay on the ungated clock, a wrong netlist the gate-level check must catch.
The environment variable ANE_CLOCKGATE_ARGS (osu018.tcl) passes it.

Prints one line: how many gates were inserted and how many flip-flops they clock.
"""
import argparse
import json
import re
import sys
from collections import defaultdict

PREFIX = "$clockgate$"

# $_DFFE_<C><E>_ and $_DFFE_<C><R><V><E>_ (async reset), $_SDFFCE_<C><R><V><E>_
RE_DFFE = re.compile(r"^\$_DFFE_([NP])([NP])_$")
RE_ADFFE = re.compile(r"^\$_DFFE_([NP])([NP])([01])([NP])_$")
RE_SDFFCE = re.compile(r"^\$_SDFFCE_([NP])([NP])([01])([NP])_$")


def plain_type(t):
    """(ungated type, enable polarity) for a gateable enable flip-flop type, else None."""
    m = RE_DFFE.match(t)
    if m and m.group(1) == "P":
        return f"$_DFF_{m.group(1)}_", m.group(2)
    m = RE_ADFFE.match(t)
    if m and m.group(1) == "P":
        return f"$_DFF_{m.group(1)}{m.group(2)}{m.group(3)}_", m.group(4)
    m = RE_SDFFCE.match(t)
    if m and m.group(1) == "P":
        return f"$_SDFF_{m.group(1)}{m.group(2)}{m.group(3)}_", m.group(4)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("top")
    ap.add_argument("--min-group", type=int, default=4)
    ap.add_argument("--latch", default="LATCH")
    ap.add_argument("--and", dest="and_cell", default="AND2X2")
    ap.add_argument("--nor", default="NOR2X1")
    ap.add_argument("--inv", default="INVX1")
    ap.add_argument("--mutant", action="store_true")
    a = ap.parse_args()

    d = json.load(open(a.inp))
    if a.top not in d["modules"]:
        sys.exit(f"clockgate.py: no module {a.top} in {a.inp}")
    m = d["modules"][a.top]
    cells = m["cells"]

    next_bit = 2
    for p in m["ports"].values():
        next_bit = max([next_bit] + [b + 1 for b in p["bits"] if isinstance(b, int)])
    for c in cells.values():
        for bits in c["connections"].values():
            next_bit = max([next_bit] + [b + 1 for b in bits if isinstance(b, int)])
    for n in m["netnames"].values():
        next_bit = max([next_bit] + [b + 1 for b in n["bits"] if isinstance(b, int)])

    groups = defaultdict(list)  # (clock bit, enable bit, polarity) -> [cell name]
    for name, c in cells.items():
        pt = plain_type(c["type"])
        if pt is None:
            continue
        clk, en = c["connections"]["C"][0], c["connections"]["E"][0]
        if not isinstance(clk, int) or not isinstance(en, int):
            continue  # constant clock or enable: opt should have removed it; leave it
        groups[(clk, en, pt[1])].append(name)

    def new_bit(netname):
        nonlocal next_bit
        b = next_bit
        next_bit += 1
        m["netnames"][netname] = {"hide_name": 0, "bits": [b], "attributes": {}}
        return b

    def add_cell(name, typ, dirs, conns):
        cells[name] = {"hide_name": 0, "type": typ, "parameters": {}, "attributes": {},
                       "port_directions": dirs, "connections": conns}

    clkn = {}  # clock bit -> inverted clock bit
    n_gates = n_ffs = 0
    for (clk, en, pol), names in sorted(groups.items(), key=lambda kv: sorted(kv[1])[0]):
        if len(names) < a.min_group:
            continue
        if clk not in clkn:
            k = len(clkn)
            clkn[clk] = new_bit(f"{PREFIX}clkn{k}_y")
            add_cell(f"{PREFIX}clkn{k}", a.inv, {"A": "input", "Y": "output"},
                     {"A": [clk], "Y": [clkn[clk]]})
        g = n_gates
        en_l = new_bit(f"{PREFIX}g{g}_en_l")
        gclk = new_bit(f"{PREFIX}g{g}_clk")
        add_cell(f"{PREFIX}g{g}_latch", a.latch, {"D": "input", "CLK": "input", "Q": "output"},
                 {"D": [en], "CLK": [clkn[clk]], "Q": [en_l]})
        if pol == "P":
            add_cell(f"{PREFIX}g{g}_and", a.and_cell, {"A": "input", "B": "input", "Y": "output"},
                     {"A": [clk], "B": [en_l], "Y": [gclk]})
        else:
            add_cell(f"{PREFIX}g{g}_nor", a.nor, {"A": "input", "B": "input", "Y": "output"},
                     {"A": [clkn[clk]], "B": [en_l], "Y": [gclk]})
        for name in names:
            c = cells[name]
            c["type"] = plain_type(c["type"])[0]
            del c["connections"]["E"]
            c.get("port_directions", {}).pop("E", None)
            c["connections"]["C"] = [clk if (a.mutant and n_gates == 0) else gclk]
        n_gates += 1
        n_ffs += len(names)

    json.dump(d, open(a.out, "w"))
    total = sum(len(v) for v in groups.values())
    print(f"clockgate: {n_gates} clock gates on {n_ffs} of {total} enable flip-flops "
          f"(groups of at least {a.min_group})" + (" MUTANT: group 0 ungated" if a.mutant else ""))


if __name__ == "__main__":
    main()
