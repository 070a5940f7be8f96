#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ONNX's backend tests through the model (docs/onnx.md "Conformance"): runs
build/ane_onnx_conformance on each suite of Debian's libonnx-testdata and writes the table into
docs/results.md between <!-- onnx:begin --> and <!-- onnx:end -->.

    python3 scripts/onnx_section.py [--build build] [--engine oracle] [--update docs/results.md]

Without --update the section is printed. Exit 1 when a test fails (or an explained one passes).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = "/usr/share/libonnx-testdata/data"
SUITES = ["node", "pytorch-converted", "pytorch-operator", "simple"]
BEGIN, END = "<!-- onnx:begin -->", "<!-- onnx:end -->"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--engine", default="oracle")
    ap.add_argument("--update")
    a = ap.parse_args()
    tool = os.path.join(a.build, "ane_onnx_conformance")
    explained = os.path.join(ROOT, "tb/onnx/conformance_explained.txt")
    rows, totals, failed = [], collections.Counter(), False
    reasons = collections.Counter()
    t0 = time.time()
    for suite in SUITES:
        r = subprocess.run([tool, "--engine", a.engine, "--explained", explained, "--markdown",
                            os.path.join(DATA, suite)], capture_output=True, text=True)
        failed |= r.returncode != 0
        for line in r.stdout.splitlines():
            m = re.match(r"\| `([^`]*)` \| (\S+) \| (.*) \|$", line)
            if not m:
                continue
            name, verdict, detail = m.groups()
            totals[verdict] += 1
            rows.append((name, verdict, detail))
            if verdict == "refused":
                # the reason without the node's name: "operator X is not supported", ...
                reasons[re.sub(r"^node ('[^']*'|#\d+) \(([^)]*)\): ", r"\2: ", detail)] += 1
    seconds = time.time() - t0
    run = sum(totals.values())
    lines = [BEGIN, "### ONNX conformance", "",
             f"Written by `python3 scripts/onnx_section.py --update docs/results.md` (engine {a.engine}, "
             f"{seconds:.0f} s): ONNX's backend tests from Debian's libonnx-testdata ({', '.join(SUITES)}), "
             "each model lowered with its test inputs as constants and run, every output compared with the "
             "reference under the one rule of docs/onnx.md (`|y - r| <= (2^-7 + U 2^-10) |r| + 2^-8 max|r| + A`).",
             "",
             f"| Tests | Passed | Explained | Failed | Refused |", "|---:|---:|---:|---:|---:|",
             f"| {run} | {totals['pass']} | {totals['explained']} | {totals['FAIL']} | {totals['refused']} |", "",
             "Explained (`tb/onnx/conformance_explained.txt`):", "",
             "| Test | Why |", "|---|---|"]
    for name, verdict, detail in rows:
        if verdict == "explained":
            lines.append(f"| `{name}` | {detail} |")
    lines += ["", "Why the refused tests are refused (the operator and the reason, with the number of tests):", "",
              "| Tests | Reason |", "|---:|---|"]
    for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"| {n} | {reason} |")
    lines += ["", "<details><summary>Every test</summary>", "", "| Test | Result | Detail |", "|---|---|---|"]
    lines += [f"| `{n}` | {v} | {d} |" for n, v, d in rows]
    lines += ["", "</details>", END]
    section = "\n".join(lines)
    if a.update:
        with open(a.update) as f:
            doc = f.read()
        if BEGIN in doc:
            doc = doc[:doc.index(BEGIN)] + section + doc[doc.index(END) + len(END):]
        else:
            doc = doc.rstrip("\n") + "\n\n" + section + "\n"
        with open(a.update, "w") as f:
            f.write(doc)
        print(f"onnx_section: {run} tests, {totals['pass']} passed, {totals['explained']} explained, "
              f"{totals['FAIL']} failed, {totals['refused']} refused -> {a.update}")
    else:
        print(section)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
