#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build time of the Verilated 256-lane models, at two or more revisions of this repository.

  build_time.py [--update docs/results.md] [--work out/build_time] [--model Vane_core256_m1]...
                REV [REV ...]

For each REV: a clean clone checked out at REV under --work, configured with CMake (Ninja,
Release, the project's own flags), then the objects of each model built with `ninja -j1`. Two
things are timed for each model:

  verilate  Verilator itself: the model's Verilator command (from CMake's verilate(), or the
            custom command of a hierarchical build) run again, alone, on a clean output
            directory, so the time does not depend on how CMake scheduled it;
  compile   the sum over the model's object files of the compile times ninja logged
            (.ninja_log), one job at a time, so a 2-core machine and an 8-core one agree on
            the total CPU time rather than on the wall time.

Prints a table and, with --update, rewrites the text between <!-- build-time:begin --> and
<!-- build-time:end --> of the results file (the section is appended if the markers are
missing). The clones stay under --work for inspection; a second run reuses them.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "synth"))
from results_section import update  # noqa: E402

BEGIN = "<!-- build-time:begin -->"
END = "<!-- build-time:end -->"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def run(cmd, cwd=None, quiet=True):
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE if quiet else None,
                       stderr=subprocess.STDOUT if quiet else None, text=True)
    if r.returncode != 0:
        tail = (r.stdout or "")[-2000:]
        sys.exit(f"build_time: command failed ({r.returncode}): {' '.join(cmd)}\n{tail}")
    return r.stdout or ""


def checkout(work, rev):
    sha = run(["git", "-C", ROOT, "rev-parse", "--verify", rev + "^{commit}"]).strip()
    src = os.path.join(work, sha[:10])
    if not os.path.isdir(os.path.join(src, ".git")):
        run(["git", "clone", "-q", "--no-checkout", ROOT, src])
    run(["git", "-C", src, "checkout", "-q", "--force", sha])
    return sha, src


def verilator_command(build, model, obj):
    """The Verilator command ninja runs before the model's object `obj`: (cwd, command)."""
    text = run(["ninja", "-C", build, "-t", "commands", obj])
    for line in text.splitlines():
        if ("verilator_bin " in line or "verilate_hier.py" in line) and model in line:
            if line.startswith("cd "):
                cwd, _, cmd = line[3:].partition(" && ")
                return cwd, cmd
            return build, line
    sys.exit(f"build_time: no Verilator command for {model} in {build}")


def model_objects(build, model):
    text = run(["ninja", "-C", build, "-t", "targets", "all"])
    objs = sorted({line.split(":")[0] for line in text.splitlines()
                   if model in line and line.split(":")[0].endswith(".o")})
    if not objs:
        sys.exit(f"build_time: model {model} has no object files in {build}")
    return objs


def compile_seconds(build, objs):
    """Sum of the logged durations of the given outputs (ninja log v5: start end mtime path;
    an output built more than once counts with its last build)."""
    want, last = set(objs), {}
    with open(os.path.join(build, ".ninja_log")) as f:
        for line in f:
            parts = line.split("\t")
            if len(parts) < 4 or parts[3].strip() not in want:
                continue
            last[parts[3].strip()] = int(parts[1]) - int(parts[0])
    missing = want - set(last)
    if missing:
        sys.exit(f"build_time: ninja logged no build of {sorted(missing)[0]}")
    if any(os.path.basename(k).startswith("unity") for k in last):
        return sum(last.values()) / 1000.0, None  # a unity build mixes trace and model code
    trace = sum(v for k, v in last.items() if "__Trace__" in k)
    return sum(last.values()) / 1000.0, trace / 1000.0


def measure(work, rev, models):
    sha, src = checkout(work, rev)
    build = os.path.join(src, "b")
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"])
    rows = []
    for model in models:
        objs = model_objects(build, model)
        for o in objs:  # compile every object now, one job at a time
            p = os.path.join(build, o)
            if os.path.exists(p):
                os.remove(p)
        run(["ninja", "-C", build, "-j1"] + objs)
        comp, trace = compile_seconds(build, objs)
        cwd, cmd = verilator_command(build, model, objs[0])
        # Verilate again into a scratch directory: the same command, its output redirected.
        scratch = os.path.join(work, "scratch")
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch)
        argv = shlex.split(cmd)
        if "--Mdir" in argv:
            argv[argv.index("--Mdir") + 1] = scratch
        if "verilate_hier.py" in cmd:  # hierarchical build: the first argument is its output dir
            i = next(i for i, a in enumerate(argv) if a.endswith("verilate_hier.py"))
            argv[i + 1] = scratch
        t0 = time.monotonic()
        run(argv, cwd=cwd)
        ver = time.monotonic() - t0
        size = 0
        for dirpath, _, files in os.walk(scratch):
            size += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files
                        if f.endswith((".cpp", ".h")))
        rows.append((model, sha, len(objs), ver, comp, trace, size))
        print(f"build_time: {model} at {sha[:10]}: verilate {ver:.0f} s, compile {comp:.0f} s "
              f"(trace code {'n/a' if trace is None else f'{trace:.0f} s'}; {len(objs)} objects), C++ {size / 1e6:.1f} MB", flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("revs", nargs="+", metavar="REV")
    ap.add_argument("--work", default=os.path.join(ROOT, "out", "build_time"))
    ap.add_argument("--model", action="append", dest="models")
    ap.add_argument("--update", metavar="RESULTS_MD")
    a = ap.parse_args()
    models = a.models or ["Vane_core256_m1"]
    os.makedirs(a.work, exist_ok=True)
    rows = []
    for rev in a.revs:
        rows += measure(a.work, rev, models)
    revs = " ".join(a.revs)
    out = [BEGIN, "### Build time of the 256-lane models", "",
           f"Produced by `scripts/build_time.py --update docs/results.md {revs}`; do not edit "
           "between the markers. Each revision is a clean clone built with CMake + Ninja, Release "
           "(-O2). verilate: Verilator alone on the model (wall time); compile: the sum of the "
           "model's object compile times, one job at a time (CPU time on this machine, "
           f"{os.cpu_count()} cores), and of it the trace code's (`Trace__*.cpp`, what a "
           "waveform dump runs; a hierarchical block's internals are not in it); C++: the "
           "generated sources.", "",
           "| Model | Revision | Verilate (s) | Compile (s) | of it trace code (s) | Total (s) | Objects | C++ (MB) |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    for model, sha, n, ver, comp, trace, size in rows:
        subject = run(["git", "-C", ROOT, "log", "-1", "--format=%s", sha]).strip()
        out.append(f"| `{model}` | `{sha[:10]}` {subject[:60]}... | {ver:.0f} | {comp:.0f} | "
                   f"{'n/a (unity build)' if trace is None else f'{trace:.0f}'} | {ver + comp:.0f} | "
                   f"{n} | {size / 1e6:.1f} |")
    out += ["", END]
    text = "\n".join(out) + "\n"
    print(text)
    if a.update:
        update(a.update, text, BEGIN, END)


if __name__ == "__main__":
    main()
