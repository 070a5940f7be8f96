#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turn the per-top synthesis summaries into the Markdown synth section of docs/results.md.

  results_section.py SUMMARY.json...                  print the section (markers included)
  results_section.py --update FILE SUMMARY.json...    rewrite the text between
                                                      <!-- synth:begin --> and <!-- synth:end -->
                                                      in FILE; nothing outside them changes.
                                                      A missing FILE is created with a title line;
                                                      a FILE without the markers gets them appended.
Summaries are the summary.json files scripts/synth.sh writes (out/synth/<top>/summary.json).
"""
import argparse
import json
import os
import sys

BEGIN = "<!-- synth:begin -->"
END = "<!-- synth:end -->"
TITLE = "# Results\n"


def fmt(v, nd=None):
    if v is None:
        return "n/a"
    if nd is not None and isinstance(v, float):
        return f"{v:.{nd}f}"
    return str(v)


def section(summaries):
    out = [BEGIN, "## Synthesis", ""]
    out.append("Produced by `make synth` (`scripts/synth.sh`); do not edit between the markers. "
               "How the figures are made: [docs/flow.md](flow.md).")
    out.append("")
    if summaries:
        s0 = summaries[0]
        period = s0.get("osu_period_ns")
        ice_dev = next((s["ice40"] for s in summaries if s.get("ice40_lcs") is not None), "not run")
        out.append(f"OSU 0.18um (osu018_stdcells, typical corner), clock period {fmt(period)} ns, "
                   "0 ns input/output delay, BUFX2 input drive, 4x INVX1 output load; "
                   "Fmax = 1000 / (period - worst setup slack). "
                   f"iCE40: {ice_dev}, nextpnr-ice40 with unconstrained pins; Fmax is nextpnr's "
                   "clk_i figure for clocked tops and 1 / (worst pad-to-pad delay) for combinational ones.")
        out.append("")
    out.append("| Top | Kind | Cells | Area (um2) | OSU path (ns) | OSU Fmax (MHz) | Critical path "
               "| iCE40 LCs | iCE40 Fmax (MHz) | Gate-level check |")
    out.append("|---|---|---:|---:|---:|---:|---|---:|---:|---|")
    for s in summaries:
        name = f"`{s['top']}`" + (" " + " ".join(f"`{p}`" for p in s["params"]) if s["params"] else "")
        # A top with a clock port and no flip-flop (a Pipe = 0 stage test) is combinational: it is
        # judged by the pipeline stage it sits in.
        kind = (f"clocked, {s.get('flops', 0)} flops" if s["clocked"] and s.get("flops", 0)
                else "combinational (clock port unused)" if s["clocked"] else "combinational")
        ice_lcs = fmt(s.get("ice40_lcs")) if s.get("ice40_lcs") is not None else s.get("ice40", "n/a")
        ice_f = fmt(s.get("ice40_fmax_mhz"), 1)
        rec = s.get("gate_level_stimulus_cycles", 0)
        gl = (f"{s['gate_level']} ({s['gate_level_cycles']} cycles"
              f"{f' after {rec} recorded' if rec else ''}, seed {s['gate_level_seed']}, "
              f"{'+'.join(s['gate_level_netlists'])}"
              + (", gate-level simulator" if s.get("gate_level_engine") == "gatesim" else "") + ")")
        path = f"`{s['critical_path']}`" if s.get("critical_path") else "n/a"
        out.append(f"| {name} | {kind} | {fmt(s['cells'])} | {fmt(s['area_um2'], 0)} | "
                   f"{fmt(s.get('osu_crit_path_ns'), 3)} | {fmt(s.get('osu_fmax_mhz'), 1)} | {path} | "
                   f"{ice_lcs} | {ice_f} | {gl} |")
    out.append("")
    slow = [s for s in summaries if s["clocked"] and s.get("flops", 0)
            and s.get("osu_fmax_mhz") is not None and s["osu_fmax_mhz"] < 200.0]
    out.append("Clock target: every clocked top at 200 MHz or more on OSU 0.18um; a "
               "combinational top is judged by the pipeline stage it sits in. Clocked tops below it: "
               + (", ".join(f"`{s['label']}` ({fmt(s['osu_fmax_mhz'], 1)} MHz)" for s in slow) or "none") + ".")
    out.append("")
    if summaries:
        v = summaries[0].get("versions", {})
        out.append("Tools: " + "; ".join(f"{k} `{val}`" for k, val in v.items()) + ".")
        out.append("")
    out.append(END)
    return "\n".join(out) + "\n"


def update(path, text, begin=BEGIN, end=END):
    """Replace the text from `begin` to `end` (markers included; `text` carries its own) in path.

    Shared marker-section writer: scripts/bench_section.py uses it with its own markers.
    """
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    else:
        old = TITLE
    b, e = old.find(begin), old.find(end)
    if b >= 0 and e > b:
        new = old[:b] + text.rstrip("\n") + old[e + len(end):]
    elif b < 0 and e < 0:
        new = old + ("" if old.endswith("\n") else "\n") + "\n" + text
    else:
        sys.exit(f"results_section: {path} has only one of the markers {begin} / {end}; fix it by hand")
    if new != old:
        with open(path, "w") as f:
            f.write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--update", metavar="FILE")
    ap.add_argument("summaries", nargs="+")
    a = ap.parse_args()
    summaries = [json.load(open(p)) for p in a.summaries]
    text = section(summaries)
    if a.update:
        update(a.update, text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
