#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The neural-engine core's area and Fmax: the 8-lane core as synthesized, scaled to 256 lanes.

  core_estimate.py --update docs/results.md [--synth out/synth] [--lanes 256]

Reads out/synth/<label>/summary.json (OSU 0.18 um, Yosys + ABC, OpenSTA, written by
scripts/synth.sh) of the whole core at 8 lanes (`ane_core NumLanes=8` in constraints/tops.txt,
gate-level checked like every top) and of the blocks that repeat per lane, and writes the text
between <!-- core-estimate:begin --> and <!-- core-estimate:end --> of the results file.

Method (docs/core.md, "Synthesis of the whole core"):
  - The 8-lane core has everything of the 256-lane one at full size except what repeats per
    lane: the two 512-byte banks, the 64-byte ports, the loader, the kernel reader and extract,
    the router, the MAC control unit and the output writer are the same.
  - What repeats per lane: one MAC datapath as the core has it (ane_mac_dp ReadPort=0
    Fp16Port=0), a quarter of a post-processor lane (the core has NumLanes / 4 of them,
    ane_core PpLanes; one is ane_postproc NumLanes=1, which also holds one copy of the
    post-processor's shared registers: an over-count) and one lane of the shifter's gather
    (ane_shifter NumLanes=16 / 16: its bank and control counted per lane: an over-count).
  - area(N) = area(8-lane core) + (N - 8) x (those three), an upper bound of the cells.
  - Fmax: the 8-lane core's, with its paths between blocks. At N lanes the per-lane logic has the
    same depth (the gather selects from the same banks); what grows is the fan-out of the nets
    every lane reads (kernel coefficients, the control unit's commands), which the flow buffers
    (scripts/synth/fanout.py: at most 8 loads per buffer), so a path from such a net gets
    log8(N / 8) more buffer levels: 256 lanes, 2 levels of the Liberty's BUFX4 (its delay at
    0.1 ns slew and 0.18 pF load).
"""
import argparse
import glob
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "synth"))
from results_section import update  # noqa: E402

BEGIN = "<!-- core-estimate:begin -->"
END = "<!-- core-estimate:end -->"
LIB = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
CORE = "ane_core__NumLanes_8"
CORE_LANES = 8


def find(synth, prefix):
    """The summary of the top whose label is `prefix` or starts with `prefix__`."""
    for path in sorted(glob.glob(os.path.join(synth, prefix + "*", "summary.json"))):
        label = os.path.basename(os.path.dirname(path))
        if label == prefix or label.startswith(prefix + "__"):
            return label, json.load(open(path))
    return None, None


def buffer_delay_ns():
    """BUFX4's delay at 0.1 ns input slew and 0.18 pF load (about 8 gate inputs and their wire):
    the larger of cell_rise and cell_fall at index_1 = 0.1, index_2 = 0.18 of the Liberty table."""
    try:
        text = open(LIB).read()
    except OSError:
        return None
    m = re.search(r"cell\s*\(\s*BUFX4\s*\)(.*?)\n\s*cell\s*\(", text, flags=re.S)
    if not m:
        return None
    worst = None
    for t in re.finditer(r"cell_(?:rise|fall)\s*\([^)]*\)\s*\{(.*?)\}", m.group(1), flags=re.S):
        body = t.group(1)
        i1 = [float(v) for v in re.search(r'index_1\s*\("([^"]*)"', body).group(1).split(",")]
        i2 = [float(v) for v in re.search(r'index_2\s*\("([^"]*)"', body).group(1).split(",")]
        rows = [[float(v) for v in r.split(",")] for r in re.findall(r'"([^"]*)"', body.split("values", 1)[1])]
        if 0.1 in i1 and 0.18 in i2:
            v = rows[i1.index(0.1)][i2.index(0.18)]
            worst = v if worst is None else max(worst, v)
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--update", required=True, metavar="FILE")
    ap.add_argument("--synth", default="out/synth")
    ap.add_argument("--lanes", type=int, default=256)
    a = ap.parse_args()
    n = a.lanes
    per_lane = [  # (label prefix, share per lane, role)
        ("ane_mac_dp__ReadPort_1_b0__Fp16Port_1_b0", 1.0,
         "MAC lane datapath as the core has it (no read port, no fp16 port)"),
        ("ane_postproc__NumLanes_1", 0.25,
         "post-processor lane (a 1-lane post-processor: with its shared registers), one per 4 MAC lanes"),
        ("ane_shifter__NumLanes_16", 1.0 / 16, "shifter: 1/16 of the 16-lane shifter (with its banks and control)"),
    ]
    out = [BEGIN, f"### Neural-engine core: the 8-lane core synthesized, scaled to {n} lanes", ""]
    out.append("Produced by `scripts/core_estimate.py` (run by `make results` after `make synth`) from the "
               "figures above; do not edit between the markers. The 8-lane core (`ane_core` `NumLanes=8`) "
               "is synthesized, timed and gate-level checked as one top: its Fmax includes the paths "
               "between its blocks. It has the 256-lane core's banks, ports, loader, kernel reader and "
               "extract, router, MAC control unit and writer at full size; the logic that repeats per "
               "lane is added for the other lanes (method: docs/core.md, \"Synthesis of the whole core\").")
    out.append("")
    label, core = find(a.synth, CORE)
    rows, missing, slice_area = [], [], 0.0
    for prefix, share, role in per_lane:
        lab, s = find(a.synth, prefix)
        if s is None or s.get("area_um2") is None:
            missing.append(prefix)
            continue
        slice_area += s["area_um2"] * share
        rows.append(f"| `{lab}` | {role} | {share:g} | {s['cells']:,} | {s['area_um2'] / 1e6:.3f} | "
                    f"{s['area_um2'] * share / 1e6:.3f} | {s.get('osu_fmax_mhz', 'n/a')} |")
    if core is None or core.get("area_um2") is None:
        missing.insert(0, CORE)
    if missing:
        out.append("Missing figures (run `make synth`): " + ", ".join(f"`{m}`" for m in missing) + ".")
        out.append("")
    if core is not None and core.get("area_um2") is not None:
        rec = core.get("gate_level_stimulus_cycles", 0)
        gl = (f"{core.get('gate_level', 'n/a')} ({core.get('gate_level_cycles', '?')} random cycles"
              + (f" after {rec} recorded" if rec else "")
              + (", gate-level simulator" if core.get("gate_level_engine") == "gatesim" else "")
              + f", output bits toggled {core.get('gate_level_output_bits_toggled', '?')})")
        out.append("| Top | Cells | Flops | Area (mm2) | OSU Fmax (MHz) | Critical path | Gate-level check |")
        out.append("|---|---:|---:|---:|---:|---|---|")
        out.append(f"| `{label}` | {core['cells']:,} | {core.get('flops', 'n/a')} | {core['area_um2'] / 1e6:.2f} | "
                   f"{core.get('osu_fmax_mhz', 'n/a')} | `{core.get('critical_path', '')}` | {gl} |")
        out.append("")
    out.append("The logic that repeats per lane:")
    out.append("")
    out.append("| Block | Role | Per lane | Cells (block) | Area of block (mm2) | Area per lane (mm2) | OSU Fmax (MHz) |")
    out.append("|---|---|---:|---:|---:|---:|---:|")
    out += rows
    out.append("")
    if not missing:
        total = core["area_um2"] + (n - CORE_LANES) * slice_area
        f8 = core.get("osu_fmax_mhz")
        levels = max(0, math.ceil(math.log(n / CORE_LANES, 8) - 1e-9))
        tb = buffer_delay_ns()
        if f8 and tb:
            fn = 1000.0 / (1000.0 / f8 + levels * tb)
            fmax = (f"{fn:.1f} MHz (the 8-lane core's {f8} MHz with {levels} more BUFX4 levels of "
                    f"{tb:.3f} ns on a path from a net every lane reads)")
        else:
            fmax = f"n/a (8-lane core: {f8} MHz)"
        out.append(f"**{n}-lane core: at most {total / 1e6:.1f} mm2 of OSU 0.18 um cells "
                   f"({core['area_um2'] / 1e6:.2f} mm2 for the 8-lane core + {n - CORE_LANES} x "
                   f"{slice_area / 1e6:.3f} mm2 per lane); Fmax {fmax}.**")
        out.append("")
    out.append(END)
    update(a.update, "\n".join(out) + "\n", BEGIN, END)


if __name__ == "__main__":
    main()
