#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Print the OpenSTA warnings that fail the flow; exit 1 if there are any.

  sta_warnings.py STA_LOG MAPPED_NETLIST

Every Error/Warning line of the log counts, with one exception: "There is/are N unconstrained
endpoints." is accepted when every endpoint it lists is an output bit that the mapped netlist
ties to a constant (`assign port[hi:lo] = N'b...;`) or the D pin of a flip-flop whose D the
netlist ties to a constant (`.D(1'b0)`: a register bit that only ever holds its reset or
constant value, such as the always-zero low significand bits of an integer operand register in
the core's kernel extract):
such a pin has no timing path at all.
"""
import re
import sys


def constant_bits(netlist):
    """{(port, bit)} tied to constants by assign statements; bit None for a whole scalar."""
    tied = set()
    pat = re.compile(r"^\s*assign\s+(\w+)(?:\[(\d+)(?::(\d+))?\])?\s*=\s*\d+'[bhd][0-9a-fA-FxXzZ_]+\s*;")
    for line in netlist.splitlines():
        m = pat.match(line)
        if not m:
            continue
        name, hi, lo = m.group(1), m.group(2), m.group(3)
        if hi is None:
            tied.add((name, None))
        else:
            hi, lo = int(hi), int(lo if lo is not None else hi)
            for b in range(min(hi, lo), max(hi, lo) + 1):
                tied.add((name, b))
    return tied


def constant_d_pins(netlist):
    """{"INSTANCE/D"} for every cell instance whose D pin is connected to a constant."""
    pins = set()
    inst = None
    head = re.compile(r"^\s*\w+\s+(\\\S+|\w+)\s*\($")
    dpin = re.compile(r"^\s*\.D\(\s*1'b[01]\s*\)")
    for line in netlist.splitlines():
        m = head.match(line)
        if m:
            inst = m.group(1).lstrip("\\")
            continue
        if inst and dpin.match(line):
            pins.add(f"{inst}/D")
    return pins


def main():
    log = open(sys.argv[1]).read().splitlines()
    text = open(sys.argv[2]).read()
    tied = constant_bits(text)
    const_d = constant_d_pins(text)
    bad = []
    i = 0
    while i < len(log):
        line = log[i]
        if re.match(r"^(Error|Warning)", line):
            m = re.match(r"^Warning: There (?:is|are) \d+ unconstrained endpoints?\.", line)
            if m:
                endpoints = []
                j = i + 1
                while j < len(log) and log[j].startswith("  "):
                    endpoints.append(log[j].strip())
                    j += 1
                untied = []
                for ep in endpoints:
                    em = re.match(r"^(\w+)(?:\[(\d+)\])?$", ep)
                    key = (em.group(1), int(em.group(2)) if em and em.group(2) else None) if em else None
                    if key not in tied and ep not in const_d:
                        untied.append(ep)
                if untied:
                    bad.append(f"{line} (not tied to a constant: {' '.join(untied)})")
                i = j
                continue
            bad.append(line)
        i += 1
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
