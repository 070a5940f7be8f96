#!/usr/bin/env python3
"""Hierarchical Verilation of one wide model into a fixed set of unity C++ files.

Usage: verilate_hier.py OUT_DIR PREFIX N_UNITS [--blocks N_BLOCKS] [--private] -- VERILATOR_ARGS...

Why: Verilator 5.006 emits one copy of a submodule's code per instance (inlined, or per-scope
functions when not inlined), so the 256-lane MAC array is 140-270 MB of C++. With
`--hierarchical` and a `hier_block` (rtl/ane_hier.vlt) the lane is its own model, built once
and called by every instance: about 11 MB, two minutes of compilation on two cores.

CMake's verilate() does not support --hierarchical, and the generated file names carry hashes
unknown at configure time. This script runs Verilator, then writes OUT_DIR/unity_<i>.cpp
(i < N_UNITS), each #including a size-balanced share of the top model's generated sources, and
OUT_DIR/unity_block.cpp with the hierarchical block's sources and its DPI wrapper (each
model's main file has file-static helpers, so two models never share a unit). With
--blocks N (N hier_block modules, e.g. the core's MAC lane and post-processor lane) the blocks
go to unity_block.cpp, unity_block1.cpp, ... in the order of their directory names.
--private renames the blocks' generated identifiers (ane_mac_lane_2 -> ane_mac_lane_2_<PREFIX>,
in every generated file and file name): two models with the same block (the 256-lane array and
the 256-lane core both have the m1 MAC lane) then link into one program. The Verilator
runtime is not included: the ane_rtl library compiles it once for every model.
"""
import os
import re
import shutil
import subprocess
import sys


def classes_mk_sources(mk_path):
    """The .cpp files a Verilator *_classes.mk lists in its CLASSES and SUPPORT variables."""
    text = open(mk_path).read().replace("\\\n", " ")
    names = []
    for var in ("VM_CLASSES_FAST", "VM_CLASSES_SLOW", "VM_SUPPORT_FAST", "VM_SUPPORT_SLOW"):
        for m in re.finditer(r"^" + var + r"\s*\+=\s*(.*)$", text, re.M):
            names += m.group(1).split()
    base = os.path.dirname(mk_path)
    return [os.path.join(base, n + ".cpp") for n in names]


def make_private(out_dir, prefix):
    """Suffixes every hierarchical block's generated name with the model's prefix."""
    names = []
    for entry in os.listdir(out_dir):
        if os.path.isdir(os.path.join(out_dir, entry)) and entry.startswith("V") and \
                os.path.exists(os.path.join(out_dir, entry, entry + "_classes.mk")):
            names.append(entry[1:])  # ane_mac_lane_2
    if not names:
        return
    suffix = "_" + prefix[1:] if prefix.startswith("V") else "_" + prefix
    pattern = re.compile("(" + "|".join(re.escape(n) for n in names) + r")(?![0-9A-Za-z])")
    for root, dirs, files in os.walk(out_dir, topdown=False):
        for name in files:
            if not name.endswith((".cpp", ".h", ".mk", ".sv")):
                continue
            path = os.path.join(root, name)
            text = open(path, errors="surrogateescape").read()
            new = pattern.sub(lambda m: m.group(1) + suffix, text)
            newname = pattern.sub(lambda m: m.group(1) + suffix, name)
            if new != text or newname != name:
                with open(os.path.join(root, newname), "w", errors="surrogateescape") as f:
                    f.write(new)
                if newname != name:
                    os.remove(path)
        for name in dirs:
            newname = pattern.sub(lambda m: m.group(1) + suffix, name)
            if newname != name:
                os.rename(os.path.join(root, name), os.path.join(root, newname))


def main(argv):
    n_blocks = 1
    private = False
    while len(argv) > 4 and argv[4] in ("--blocks", "--private"):
        if argv[4] == "--blocks":
            n_blocks = int(argv[5])
            argv = argv[:4] + argv[6:]
        else:
            private = True
            argv = argv[:4] + argv[5:]
    if len(argv) < 5 or argv[4] != "--":
        sys.exit("usage: verilate_hier.py OUT_DIR PREFIX N_UNITS [--blocks N] -- VERILATOR_ARGS...")
    out_dir, prefix, n_units = os.path.abspath(argv[1]), argv[2], int(argv[3])
    vargs = argv[5:]
    os.makedirs(out_dir, exist_ok=True)
    if private:
        # the renamed blocks of an earlier run: Verilator writes them again under their own names
        suffix = "_" + (prefix[1:] if prefix.startswith("V") else prefix)
        for entry in os.listdir(out_dir):
            if entry.endswith(suffix) and os.path.isdir(os.path.join(out_dir, entry)):
                shutil.rmtree(os.path.join(out_dir, entry))
    cmd = ["verilator", "--cc", "--hierarchical", "--prefix", prefix, "-Mdir", out_dir] + vargs
    done = subprocess.run(cmd)
    if done.returncode != 0:
        sys.exit(f"verilate_hier.py: Verilator failed for {prefix}")

    if private:
        make_private(out_dir, prefix)
    sources = classes_mk_sources(os.path.join(out_dir, prefix + "_classes.mk"))
    blocks = []
    for entry in sorted(os.listdir(out_dir)):
        sub = os.path.join(out_dir, entry)
        mk = os.path.join(sub, entry + "_classes.mk")
        if os.path.isdir(sub) and os.path.exists(mk):
            block = classes_mk_sources(mk)
            # The DPI wrapper that lets the parent call the block (its name drops the V prefix).
            wrapper = os.path.join(sub, entry[1:] + ".cpp")
            if not os.path.exists(wrapper):
                sys.exit(f"verilate_hier.py: no DPI wrapper {wrapper}")
            block.append(wrapper)
            blocks.append(block)
    if len(blocks) != n_blocks:
        sys.exit(f"verilate_hier.py: {len(blocks)} hierarchical blocks built, {n_blocks} expected")
    missing = [s for s in sources + sum(blocks, []) if not os.path.exists(s)]
    if missing or not sources:
        sys.exit(f"verilate_hier.py: missing generated sources: {missing[:3]}")

    # Greedy size balancing, biggest first, so the units compile in parallel in similar times.
    units = [[] for _ in range(n_units)]
    load = [0] * n_units
    for src in sorted(sources, key=os.path.getsize, reverse=True):
        i = load.index(min(load))
        units[i].append(src)
        load[i] += os.path.getsize(src)
    named = [(f"unity_{i}.cpp", unit) for i, unit in enumerate(units)]
    named += [("unity_block.cpp" if i == 0 else f"unity_block{i}.cpp", b) for i, b in enumerate(blocks)]
    for name, unit in named:
        text = "// Generated by scripts/verilate_hier.py; do not edit.\n"
        text += "".join(f'#include "{s}"\n' for s in sorted(unit))
        path = os.path.join(out_dir, name)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
        else:
            os.utime(path)  # newer than its inputs, so the custom command is up to date


if __name__ == "__main__":
    main(sys.argv)
