#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The repository stands on its own (ctest flow.repo).

  scripts/check_repo.py            check; one line per problem, exit 1 when there is any
  scripts/check_repo.py --fix      add the SPDX line to every source file that lacks it

Two rules, over every file below the repository root except build and output folders:
  1. Every source file (code, build and constraint files, the register description) carries
     the line `SPDX-License-Identifier: Apache-2.0` as a comment in its first three lines
     (after a shebang or a `verilator_config` line). Data (op files, .npy, the Apple-compiled
     programs in sim/hwx/, fuzz corpora, GTKWave save files) and prose carry none.
  2. No file names a path outside the repository: the project's documents and data live in it.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SKIP_DIRS = {".git", "out"}  # and every top-level build* folder (the .gitignore's /build-*/)
SPDX = "SPDX-License-Identifier: Apache-2.0"

# comment leader by file name or extension
SLASH = {".cc", ".h", ".inc", ".def", ".sv", ".v", ".vlt"}
HASH = {".py", ".sh", ".tcl", ".sdc", ".conf"}
HASH_NAMES = {"CMakeLists.txt", "Makefile", "run", "tops.txt", "modules.txt", "ane_regs.yaml", ".gitignore"}
# files that are source by their folder but data by their role
DATA_PREFIXES = ("tb/fuzz/corpus/", "tb/fuzz/regressions/", "tb/fuzz/dict/", "scripts/synth/selftest/")

# A path outside the repository: the parent folder's shared documents, or an absolute path
# into this machine's work area.
OUTSIDE = re.compile(r"\.\./shared\b|\bshared/(design|seeds|hwx)\b|/work/")
TEXT_EXT = SLASH | HASH | {".md", ".yaml", ".txt", ".json", ".gtkw", ".xml", ".stim", ""}


def leader(rel):
    name = os.path.basename(rel)
    # a template (X.in, filled in by CMake's configure_file) is source of X's kind
    ext = os.path.splitext(name[:-3] if name.endswith(".in") else name)[1]
    if rel.startswith(DATA_PREFIXES):
        return None
    if ext in SLASH:
        return "//"
    if ext in HASH:
        return "#"
    if name in HASH_NAMES and (name != "run" or rel == os.path.join(".ci", "run")):
        return "#"
    return None


def files():
    for d, dirs, names in os.walk(ROOT):
        rel_d = os.path.relpath(d, ROOT)
        dirs[:] = sorted(x for x in dirs
                         if not (rel_d == "." and (x in SKIP_DIRS or x.startswith("build"))) and x != ".git")
        for n in sorted(names):
            rel = os.path.normpath(os.path.join(rel_d, n))
            yield rel, os.path.join(ROOT, rel)


def has_spdx(lines):
    return any(SPDX in ln for ln in lines[:3])


def add_spdx(path, lead):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines(keepends=True)
    at = 0
    if lines and (lines[0].startswith("#!") or lines[0].startswith("`verilator_config")):
        at = 1
    lines.insert(at, f"{lead} {SPDX}\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(lines))


def main():
    fix = "--fix" in sys.argv[1:]
    problems = []
    sources = 0
    for rel, path in files():
        ext = os.path.splitext(rel)[1]
        lead = leader(rel)
        if lead is None and ext not in TEXT_EXT:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        if lead is not None:
            sources += 1
            if not has_spdx(text.splitlines()):
                if fix:
                    add_spdx(path, lead)
                else:
                    problems.append(f"{rel}: no '{SPDX}' line in its first three lines")
        if rel == "scripts/check_repo.py":
            continue
        for k, ln in enumerate(text.splitlines(), 1):
            m = OUTSIDE.search(ln)
            if m:
                problems.append(f"{rel}:{k}: names a path outside the repository ('{m.group(0)}')")
    for p in problems:
        print(p)
    if problems:
        print(f"check_repo: {len(problems)} problem(s) in {sources} source files")
        return 1
    print(f"check_repo: {sources} source files carry the SPDX line; no file names a path outside the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
