#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The source list of an RTL module, from the one description of every module (rtl/modules.txt).

rtl/modules.txt names each module (or package) once, with the modules and packages it uses
directly; module M lives in DIR/M.sv. A module's sources are itself and everything it uses,
transitively, in the order of the file (which lists a module after everything it uses, so
packages come first). CMake (rtl/CMakeLists.txt), lint (scripts/lint.sh) and synthesis
(scripts/synth/tops.sh) all take their source lists from here; constraints/tops.txt names
modules only.

  rtl_sources.py [--rtl DIR] MODULE...   the sources of each MODULE, one line per module,
                                         space-separated absolute paths
  rtl_sources.py [--rtl DIR] --cmake     CMake: set(ANE_SOURCES_<module> <file names>) for
                                         every module, relative to DIR
  rtl_sources.py [--rtl DIR] --check     the description is whole and true: every module's file
                                         exists, lists a module after what it uses, and names
                                         exactly the modules it instantiates and the packages it
                                         reads (found in its source); every .sv file in DIR is
                                         described. With --selftest, also checks that copies of
                                         DIR with one fault each fail the check.

Errors: one line naming the file, the line and what is wrong; exit code 2.
"""
import argparse
import os
import re
import sys


def die(msg):
    print(f"rtl_sources: {msg}", file=sys.stderr)
    sys.exit(2)


def read_modules(rtl):
    path = os.path.join(rtl, "modules.txt")
    if not os.path.isfile(path):
        die(f"no module description at {path}")
    order, deps = [], {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            name, uses = words[0], words[1:]
            for w in words:
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", w):
                    die(f"{path}:{lineno}: '{w}' is not a module name")
            if name in deps:
                die(f"{path}:{lineno}: {name} is described twice")
            for u in uses:
                if u not in deps:
                    die(f"{path}:{lineno}: {name} uses {u}, which is not described above it")
            if len(set(uses)) != len(uses):
                die(f"{path}:{lineno}: {name} names a module twice")
            if not os.path.isfile(os.path.join(rtl, name + ".sv")):
                die(f"{path}:{lineno}: no source {os.path.join(rtl, name + '.sv')}")
            order.append(name)
            deps[name] = uses
    if not order:
        die(f"{path} describes no module")
    return order, deps


def sources(module, order, deps):
    if module not in deps:
        die(f"module {module} is not described in modules.txt")
    need, todo = set(), [module]
    while todo:
        m = todo.pop()
        if m not in need:
            need.add(m)
            todo.extend(deps[m])
    return [m for m in order if m in need]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def used_in_source(path, names):
    """The described modules a source instantiates and the packages it reads."""
    text = strip_comments(open(path).read())
    found = set(re.findall(r"\b([A-Za-z_]\w*)::", text))
    for m in re.finditer(r"^\s*([A-Za-z_]\w*)\s+(?:#\s*\(|[A-Za-z_]\w*\s*\()", text, flags=re.M):
        if m.group(1) in names:
            found.add(m.group(1))
    return found


def check(rtl, order, deps):
    names = set(order)
    bad = []
    for m in order:
        path = os.path.join(rtl, m + ".sv")
        found = used_in_source(path, names) - {m}
        listed = set(deps[m])
        for u in sorted(found - listed):
            bad.append(f"{path}: uses {u}, which modules.txt does not list for {m}")
        for u in sorted(listed - found):
            bad.append(f"modules.txt: {m} lists {u}, which {path} does not use")
    for f in sorted(os.listdir(rtl)):
        if f.endswith(".sv") and f[:-3] not in names:
            bad.append(f"{os.path.join(rtl, f)}: not described in modules.txt")
    for b in bad:
        print(f"rtl_sources: {b}", file=sys.stderr)
    if bad:
        sys.exit(2)
    print(f"rtl_sources: {len(order)} modules described, each with exactly what it uses")


def selftest(rtl):
    """Each fault in a copy of DIR must make --check fail with a line naming it."""
    import shutil
    import subprocess
    import tempfile
    order, deps = read_modules(rtl)
    user = next(m for m in order if deps[m])  # the first module that uses another
    text = open(os.path.join(rtl, "modules.txt")).read()
    line = next(l for l in text.splitlines() if l.split() and l.split()[0] == user)
    dropped = deps[user][-1]
    extra_dep = next(m for m in order[:order.index(user)] if m not in deps[user])  # described, unused
    cases = [
        (f"{user} without {dropped}", text.replace(line, " ".join(line.split()[:-1])), None,
         f"uses {dropped}, which modules.txt does not list for {user}"),
        (f"{user} listing {extra_dep} too", text.replace(line, line + " " + extra_dep), None,
         f"lists {extra_dep}, which"),
        ("an undescribed source", text, "zz_undescribed.sv", "not described in modules.txt"),
        (f"{user} listed first", line + "\n" + text.replace(line, ""), None, "not described above it"),
    ]
    bad = 0
    for name, mtext, extra, want in cases:
        with tempfile.TemporaryDirectory() as d:
            for f in os.listdir(rtl):
                if f.endswith(".sv"):
                    shutil.copy(os.path.join(rtl, f), d)
            open(os.path.join(d, "modules.txt"), "w").write(mtext)
            if extra:
                open(os.path.join(d, extra), "w").write("module zz_undescribed; endmodule\n")
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--rtl", d, "--check"],
                               capture_output=True, text=True)
            if r.returncode != 2 or want not in r.stderr:
                print(f"rtl_sources: selftest: {name}: exit {r.returncode}, want 2 and '{want}': {r.stderr.strip()}",
                      file=sys.stderr)
                bad += 1
    if bad:
        sys.exit(1)
    print(f"rtl_sources: selftest: {len(cases)} faulty copies each fail the check")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rtl", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rtl"))
    ap.add_argument("--cmake", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("modules", nargs="*")
    a = ap.parse_args()
    rtl = os.path.abspath(a.rtl)
    order, deps = read_modules(rtl)
    if a.check:
        check(rtl, order, deps)
        if a.selftest:
            selftest(rtl)
    elif a.cmake:
        for m in order:
            print(f"set(ANE_SOURCES_{m} {' '.join(s + '.sv' for s in sources(m, order, deps))})")
    elif a.modules:
        out = [" ".join(os.path.join(rtl, s + ".sv") for s in sources(m, order, deps)) for m in a.modules]
        print("\n".join(out))
    else:
        die("name a module, or --cmake or --check")


if __name__ == "__main__":
    main()
