#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Gather the reports of one top (in its out dir) into summary.json and print a one-line summary.

  collect.py DIR --label L --top T --mode smoke|full --seed S --cycles N [--param NAME=VALUE]...
             [--ice40 skipped-reason] --versions VERSIONS.json

Reads DIR/ports.json, stat_generic.txt, stat_osu018.txt, sta.log, glcheck/run.log,
yosys_warnings.txt and, when the iCE40 step ran, nextpnr.json and stat_ice40.txt.
"""
import argparse
import json
import os
import re
import sys


def register_name(d, point):
    """A flop instance on the critical path (`_58904_`) named by the register its Q drives."""
    if not re.fullmatch(r"_\d+_", point):
        return point  # a port
    try:
        netlist = open(f"{d}/mapped.v").read()
    except OSError:
        return point
    m = re.search(r"\n\s*DFF\w*\s+" + re.escape(point) + r"\s*\((.*?)\);", netlist, flags=re.S)
    q = re.search(r"\.Q\(\s*\\?([^\s)]+(?:\s*\[\d+\])?)\s*\)", m.group(1)) if m else None
    return q.group(1).replace(" ", "") if q else point


def read(path):
    with open(path) as f:
        return f.read()


def stat_cells(text):
    m = re.findall(r"Number of cells:\s+(\d+)", text)
    return int(m[-1]) if m else None


def stat_cell_types(text):
    block = text.split("Number of cells:")[-1]
    types = {}
    for line in block.splitlines()[1:]:
        m = re.match(r"\s+(\S+)\s+(\d+)\s*$", line)
        if m:
            types[m.group(1)] = int(m.group(2))
        elif line.strip():
            break
    return types


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--label", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--mode", required=True)
    ap.add_argument("--seed", required=True)
    ap.add_argument("--cycles", type=int, required=True)
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--ice40", default="")
    ap.add_argument("--ice40-device", default="")
    ap.add_argument("--versions", required=True)
    a = ap.parse_args()
    d = a.dir
    ports = json.load(open(f"{d}/ports.json"))
    s = {"top": a.top, "label": a.label, "params": a.param, "mode": a.mode,
         "clocked": ports["clock"] is not None,
         "input_bits": ports["input_bits"], "output_bits": ports["output_bits"]}

    gen = read(f"{d}/stat_generic.txt")
    s["generic_cells"] = stat_cells(gen)
    osu = read(f"{d}/stat_osu018.txt")
    s["cells"] = stat_cells(osu)
    s["cell_types"] = stat_cell_types(osu)
    s["flops"] = sum(n for t, n in s["cell_types"].items() if t.startswith("DFF"))
    m = re.search(r"Chip area for module .*?:\s+([0-9.]+)", osu)
    s["area_um2"] = round(float(m.group(1)), 1) if m else None

    sta = read(f"{d}/sta.log")
    kv = dict(re.findall(r"^ANE_STA (\S+) (\S+)$", sta, flags=re.M))
    period = float(kv["period_ns"])
    slack = float(kv["worst_slack_ns"])
    s["osu_period_ns"] = period
    s["osu_worst_slack_ns"] = round(slack, 3) if abs(slack) < 1e20 else None
    s["osu_fmax_mhz"] = round(1000.0 / (period - slack), 1) if abs(slack) < 1e20 and period - slack > 0 else None
    s["osu_crit_path_ns"] = round(period - slack, 3) if abs(slack) < 1e20 else None
    m = re.search(r"Startpoint: (\S+).*?\nEndpoint: (\S+).*?Path Type: max", sta, flags=re.S)
    s["critical_path"] = (f"{register_name(d, m.group(1))} -> {register_name(d, m.group(2))}"
                          if m else None)
    hold = float(kv.get("worst_hold_slack_ns", "nan"))
    s["osu_worst_hold_slack_ns"] = round(hold, 3) if abs(hold) < 1e20 else None

    run = read(f"{d}/glcheck/run.log")
    m = re.search(r"glcheck PASS .*?: (\d+) cycles, (\d+) comparisons, seed (\d+), netlists (.*?), "
                  r"RTL output bits toggled (\d+)/(\d+)", run)
    if not m:
        print(f"collect: no PASS line in {d}/glcheck/run.log", file=sys.stderr)
        sys.exit(1)
    s["gate_level"] = "pass"
    s["gate_level_cycles"] = int(m.group(1))
    s["gate_level_seed"] = int(m.group(3))
    s["gate_level_netlists"] = m.group(4).split()
    # how the netlists were simulated: Verilated beside the RTL, or by scripts/synth/glsim.h
    s["gate_level_engine"] = "gatesim" if re.search(r"^gatesim ", run, re.M) else "verilator"
    s["gate_level_output_bits_toggled"] = f"{m.group(5)}/{m.group(6)}"
    rec = re.search(r"^glcheck stimulus (\S+): (\d+) cycles replayed", run, re.M)
    s["gate_level_stimulus_cycles"] = int(rec.group(2)) if rec else 0

    warn_file = f"{d}/yosys_warnings.txt"
    s["yosys_warnings"] = [w for w in read(warn_file).splitlines() if w] if os.path.exists(warn_file) else []

    if a.ice40:
        s["ice40"] = a.ice40
        s["ice40_lcs"] = s["ice40_fmax_mhz"] = None
    else:
        rep = json.load(open(f"{d}/nextpnr.json"))
        s["ice40"] = a.ice40_device
        util = rep.get("utilization", {})
        s["ice40_lcs"] = util.get("ICESTORM_LC", {}).get("used")
        s["ice40_io"] = util.get("SB_IO", {}).get("used")
        s["ice40_ram"] = util.get("ICESTORM_RAM", {}).get("used")
        fmax = rep.get("fmax", {})
        if fmax:
            s["ice40_fmax_mhz"] = round(min(v["achieved"] for v in fmax.values()), 1)
            s["ice40_fmax_kind"] = "clock (reg-to-reg)"
        else:
            delays = [sum(p.get("delay", 0.0) for p in cp["path"]) for cp in rep.get("critical_paths", [])
                      if cp.get("from") == "<async>" and cp.get("to") == "<async>"]
            s["ice40_fmax_mhz"] = round(1000.0 / max(delays), 1) if delays else None
            s["ice40_path_ns"] = round(max(delays), 2) if delays else None
            s["ice40_fmax_kind"] = "pad to pad"
    s["versions"] = json.load(open(a.versions))
    with open(f"{d}/summary.json", "w") as f:
        json.dump(s, f, indent=1)
        f.write("\n")

    fmt = lambda v, unit="": "n/a" if v is None else f"{v}{unit}"
    ice = (f"iCE40 {s['ice40_lcs']} LCs, {fmt(s['ice40_fmax_mhz'], ' MHz')}" if not a.ice40
           else f"iCE40 {a.ice40}")
    print(f"{s['cells']} cells, {s['area_um2']} um2, OSU Fmax {fmt(s['osu_fmax_mhz'], ' MHz')} "
          f"({s['critical_path']}), {ice}, gate-level pass ({s['gate_level_cycles']} cycles"
          f"{' after ' + str(s['gate_level_stimulus_cycles']) + ' recorded' if s['gate_level_stimulus_cycles'] else ''}, "
          f"seed {s['gate_level_seed']}, {' '.join(s['gate_level_netlists'])}, {s['gate_level_engine']})")
    tog, total = s["gate_level_output_bits_toggled"].split("/")
    if tog != total:
        print(f"    note: only {tog}/{total} RTL output bits toggled during the gate-level check; "
              "the bits that never moved were compared at one value only")


if __name__ == "__main__":
    main()
