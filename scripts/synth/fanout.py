#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Buffer the high-fanout nets of a Liberty-mapped netlist (Yosys JSON), as placement would.

    fanout.py IN.json OUT.json TOP [--limit N] [--per-buffer M] [--buffer CELL] [--skip PORT]...

ABC (scripts/synth/osu018.tcl) buffers the nets inside the logic it maps, but not the nets that
enter it: the module's input ports and the outputs of the flip-flops, which dfflibmap placed
before ABC ran. A flip-flop or a port driving a few hundred gates unbuffered is a netlist no
placement tool would leave, and it dominates the timing of any block with wide selects or
enables. This step gives every net with more than N loads (default 12) a tree of buffer cells
with at most M loads each (default 8), whatever drives it. Clock and reset ports (--skip) are
left alone: the clock is ideal in the timing constraints and the reset is a false path. So are
the gated clocks scripts/synth/clockgate.py made (nets driven by its `$clockgate$` cells).

Prints one line: how many nets were buffered and how many buffers were added.
"""
import argparse
import json
import sys
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("top")
    ap.add_argument("--limit", type=int, default=12)
    ap.add_argument("--per-buffer", type=int, default=8)
    ap.add_argument("--buffer", default="BUFX4")
    ap.add_argument("--skip", action="append", default=[])
    a = ap.parse_args()

    d = json.load(open(a.inp))
    if a.top not in d["modules"]:
        sys.exit(f"fanout.py: no module {a.top} in {a.inp}")
    m = d["modules"][a.top]

    skip = set()
    port_loads = defaultdict(int)
    next_bit = 2
    for name, p in m["ports"].items():
        for b in p["bits"]:
            if isinstance(b, int):
                next_bit = max(next_bit, b + 1)
                if name in a.skip:
                    skip.add(b)
                if p["direction"] == "output":
                    port_loads[b] += 1
    loads = defaultdict(list)  # bit -> [(cell name, pin, index)]
    for cname, c in m["cells"].items():
        for pin, bits in c["connections"].items():
            for i, b in enumerate(bits):
                if not isinstance(b, int):
                    continue
                next_bit = max(next_bit, b + 1)
                if c.get("port_directions", {}).get(pin) == "input":
                    loads[b].append((cname, pin, i))
                elif cname.startswith("$clockgate$"):
                    skip.add(b)  # a clock net (clockgate.py)
    for n in m["netnames"].values():
        for b in n["bits"]:
            if isinstance(b, int):
                next_bit = max(next_bit, b + 1)

    nets = buffers = 0
    for b in sorted(loads):
        items = loads[b]
        if b in skip or len(items) + port_loads[b] <= a.limit:
            continue
        nets += 1
        # Build the tree from the leaves up: groups of at most per_buffer loads each get a
        # buffer; the buffers are grouped again until the net drives at most per_buffer of them.
        level = items
        while len(level) + port_loads[b] > a.per_buffer:
            groups = [level[i:i + a.per_buffer] for i in range(0, len(level), a.per_buffer)]
            nxt = []
            for g in groups:
                y = next_bit
                next_bit += 1
                name = f"$fanout${b}${buffers}"
                buffers += 1
                m["cells"][name] = {
                    "hide_name": 1, "type": a.buffer, "parameters": {}, "attributes": {},
                    "port_directions": {"A": "input", "Y": "output"},
                    "connections": {"A": [b], "Y": [y]},
                }
                for (cname, pin, i) in g:
                    m["cells"][cname]["connections"][pin][i] = y
                nxt.append((name, "A", 0))
            level = nxt
    # only the top: the cells' blackbox modules (read from the Liberty file for their port
    # directions) are read again from the Liberty file
    d["modules"] = {a.top: m}
    json.dump(d, open(a.out, "w"))
    print(f"fanout: {nets} nets buffered with {buffers} {a.buffer} cells "
          f"(nets with more than {a.limit} loads, at most {a.per_buffer} per buffer)")


if __name__ == "__main__":
    main()
