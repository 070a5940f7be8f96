#!/usr/bin/env python3
"""The 256-lane neural-engine core's area and Fmax, estimated from its blocks' syntheses.

  core_estimate.py --update docs/results.md [--synth out/synth] [--lanes 256]

The whole core is too large for the flow of scripts/synth.sh (ane_core is lint-only in
constraints/tops.txt), so this script adds up the blocks that make synth did synthesize, from
out/synth/<label>/summary.json (OSU 0.18 um, Yosys + ABC, OpenSTA):

  area ~ ane_mac_ctrl + lanes x ane_mac_dp as the core has it (ReadPort=0, Fp16Port=0; the
         MAC array: one control unit drives every lane's datapath) + ane_core_out (2 lanes) + (lanes - 2) x ane_postproc (1 lane)
         + ane_kernel_extract + ane_core_load + ane_core_kread + ane_core_route
         + ane_shifter (4 lanes)

It is a lower bound: the shifter is counted at 4 lanes (its 256-lane gather is larger), and
the core's top-level registers and wiring are not counted. Fmax: the lowest of the blocks'
OSU Fmax, an upper bound for the core (its paths between blocks are not timed). Rewrites the
text between <!-- core-estimate:begin --> and <!-- core-estimate:end --> of the results file.
"""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "synth"))
from results_section import update  # noqa: E402

BEGIN = "<!-- core-estimate:begin -->"
END = "<!-- core-estimate:end -->"


def find(synth, prefix):
    """The summary of the top whose label is `prefix` or starts with `prefix__`."""
    for path in sorted(glob.glob(os.path.join(synth, prefix + "*", "summary.json"))):
        label = os.path.basename(os.path.dirname(path))
        if label == prefix or label.startswith(prefix + "__"):
            return label, json.load(open(path))
    return None, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--update", required=True, metavar="FILE")
    ap.add_argument("--synth", default="out/synth")
    ap.add_argument("--lanes", type=int, default=256)
    a = ap.parse_args()
    n = a.lanes
    parts = [  # (label prefix, count, role)
        ("ane_mac_ctrl", 1, "MAC array control unit (one for all lanes)"),
        ("ane_mac_dp__ReadPort_1_b0__Fp16Port_1_b0", n,
         "MAC lane datapath as the core has it (no read port, no fp16 port)"),
        ("ane_core_out", 1, "result queue, parameter queue, post-processor (2 lanes), writer"),
        ("ane_postproc", n - 2, "post-processor lane (a 1-lane post-processor)"),
        ("ane_kernel_extract", 1, "kernel extract"),
        ("ane_core_load", 1, "work-unit loader"),
        ("ane_core_kread", 1, "kernel reader"),
        ("ane_core_route", 1, "operation router"),
        ("ane_shifter__NumLanes_4", 1, "input buffer and shifter, at 4 lanes (lower bound)"),
    ]
    rows, missing, total, fmax = [], [], 0.0, None
    for prefix, count, role in parts:
        label, s = find(a.synth, prefix)
        if s is None or s.get("area_um2") is None:
            missing.append(prefix)
            continue
        area = s["area_um2"] * count
        total += area
        f = s.get("osu_fmax_mhz")
        if f is not None and (fmax is None or f < fmax[0]):
            fmax = (f, label)
        rows.append(f"| `{label}` | {role} | {count} | {s['cells']:,} | {s['area_um2'] / 1e6:.3f} | "
                    f"{area / 1e6:.2f} | {f if f is not None else 'n/a'} |")
    out = [BEGIN, f"### Neural-engine core ({n} lanes): estimate from its blocks", ""]
    out.append("Produced by `scripts/core_estimate.py` (run by `make results` after `make synth`) from "
               "the blocks' figures above; do not edit between the markers. The whole core is "
               "lint-only in this flow (too large for Yosys and the gate-level check on this "
               "machine), so its area is the sum of its synthesized blocks: a lower bound, since the "
               "shifter is counted at 4 lanes and the core's own registers and wiring are not counted. "
               "Its Fmax is at most the slowest block's (paths between blocks are not timed).")
    out.append("")
    if missing:
        out.append("Missing block figures (run `make synth`): " + ", ".join(f"`{m}`" for m in missing) + ".")
        out.append("")
    out.append("| Block | Role | Count | Cells (one) | Area of one (mm2) | Area (mm2) | OSU Fmax (MHz) |")
    out.append("|---|---|---:|---:|---:|---:|---:|")
    out += rows
    out.append("")
    if not missing:
        out.append(f"**Core estimate: at least {total / 1e6:.1f} mm2 of OSU 0.18 um cells; Fmax at most "
                   f"{fmax[0]} MHz (`{fmax[1]}`).** The MAC lanes' datapaths are "
                   f"{100 * find(a.synth, 'ane_mac_dp__ReadPort_1_b0__Fp16Port_1_b0')[1]['area_um2'] * n / total:.0f}% of it.")
        out.append("")
    out.append(END)
    update(a.update, "\n".join(out) + "\n", BEGIN, END)


if __name__ == "__main__":
    main()
