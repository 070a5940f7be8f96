#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Coverage of the RTL by the test suite (make coverage; docs/verification.md).

  coverage.py run --build build-cov --out out/coverage [--shard I/N] [-j J]
      Runs every test of every RTL test binary (build-cov/rtl_*_test; one job per test, shard I
      of N takes every N-th test) and the default suite on both engines (`ane regress --shard I/N`)
      with ANE_COVERAGE_DIR set, so that every simulation writes its counters; merges them into
      OUT/shard-I.dat (each binary's files as soon as it ends). With --only JOB[,JOB], runs those
      jobs again and adds their counters to the existing OUT/shard-I.dat (after a test was added).
  coverage.py report --out out/coverage [--update docs/results.md] [--check]
      Merges the shards' data (OUT/shard-*.dat) into OUT/merged.dat, writes OUT/line.info (lcov)
      and OUT/html (genhtml), and a table per block: line %, toggle %, functional bins hit. With
      --update, the table goes into docs/results.md between its coverage markers; with --check,
      the exit code is 1 when a block misses its goal (95 % line, 90 % toggle, every bin).

Data: Verilator's coverage files (.dat, one per simulation). A point's key holds its file (f),
line (l), column (n), kind (page: v_line/..., v_branch/..., v_toggle/..., v_user/...), comment
(o) and instance (h); a point counted in several instances or parameterizations is one point
here, hit when any instance hit it.
"""
import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOAL_LINE, GOAL_TOGGLE = 95.0, 90.0
BEGIN, END = "<!-- coverage:begin -->", "<!-- coverage:end -->"


def fail(msg):
    print(f"coverage: error: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text or "1/1")
    if not m or not (1 <= int(m.group(1)) <= int(m.group(2))):
        fail(f"--shard {text}: expected I/N with 1 <= I <= N")
    return int(m.group(1)), int(m.group(2))


# ---------------------------------------------------------------- reading .dat files

def read_points(path):
    """Yields (fields dict, count) for each point record of a Verilator coverage file."""
    with open(path, "rb") as f:
        for raw in f:
            if not raw.startswith(b"C '"):
                continue
            end = raw.rindex(b"'")
            key = raw[3:end].decode("utf-8", "replace")
            count = int(raw[end + 1:].strip() or b"0")
            fields = {}
            for part in key.split("\x01")[1:]:
                k, _, v = part.partition("\x02")
                fields[k] = v
            yield fields, count


def kind_of(page):
    # v_line/ane_x, v_branch/ane_x, v_toggle/ane_x, v_user/ane_x (a parameterized copy: ane_x__...)
    return page.split("/", 1)[0].replace("v_", "") if page.startswith("v_") else page


def bin_name(fields):
    """A cover point's name: its path inside the bound cover module (u_cov; u_rst for the
    reset-in-every-state bins of a module that has both), which keeps a
    generate loop's index (g_seg[3].N5_1_segment); the label alone where there is no such path."""
    h = fields.get("h", "")
    for inst in (".u_cov.", ".u_rst."):
        if inst in h:
            return h.split(inst, 1)[1]
    return fields.get("o", "")


def merge_points(paths):
    """Points keyed by (kind, file, line, column, comment), counts summed over instances (the
    lanes of an array, the parameterizations of a module); a cover point's comment is its
    bin_name, so a generate loop's bins stay apart."""
    points = collections.Counter()
    for p in paths:
        for fields, count in read_points(p):
            kind = kind_of(fields.get("page", ""))
            key = (kind, os.path.basename(fields.get("f", "")), int(fields.get("l", "0")), fields.get("n", ""),
                   bin_name(fields) if kind == "user" else fields.get("o", ""))
            points[key] += count
    return points


def target_file(f):
    """The RTL file a bins file (rtl/cov/<module>_cov.sv, <module>_rst_cov.sv) is bound to."""
    for tail in ("_rst_cov.sv", "_cov.sv"):
        if f.endswith(tail):
            return f[:-len(tail)] + ".sv"
    return f


# ---------------------------------------------------------------- run

def verilator_merge(files, out_path, unlink):
    """verilator_coverage --write, in batches (argument lists stay short)."""
    if not files:
        return False
    parts = []
    for k in range(0, len(files), 300):
        part = f"{out_path}.part{k // 300}.dat"
        cmd = ["verilator_coverage", "--write", part] + (["--unlink"] if unlink else []) + files[k:k + 300]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        parts.append(part)
    subprocess.run(["verilator_coverage", "--write", out_path] + parts, check=True, stdout=subprocess.DEVNULL)
    for p in parts:
        os.remove(p)
    return True


def drop_settle_toggles(dat_dir):
    """A model's first evaluation (its .settle.dat, tb/harness/sim.h) counts the combinational
    blocks' unconditional lines, which later evaluations never count again; its toggles are
    the random power-up values against the first settled ones: not toggles of the design."""
    for path in glob.glob(os.path.join(dat_dir, "*.settle.dat")):
        with open(path, "rb") as f:
            lines = [l for l in f if b"\x01page\x02v_toggle/" not in l]
        with open(path, "wb") as f:
            f.writelines(lines)


def cmd_run(a):
    i, n = parse_shard(a.shard)
    build = os.path.abspath(a.build)
    if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
        fail(f"--build {a.build}: not a configured build directory")
    if "ANE_COVERAGE:BOOL=ON" not in open(os.path.join(build, "CMakeCache.txt")).read():
        fail(f"--build {a.build}: not configured with -DANE_COVERAGE=ON")
    out = os.path.abspath(a.out)
    dat = os.path.join(out, "dat", f"shard-{i}")
    shutil.rmtree(dat, ignore_errors=True)
    os.makedirs(dat)
    shard_dat = os.path.join(out, f"shard-{i}.dat")
    only = [x for x in (a.only or "").split(",") if x]
    if only and not os.path.isfile(shard_dat):
        fail(f"--only: no {shard_dat} to add to (run the whole shard first)")
    binaries = sorted(glob.glob(os.path.join(build, "rtl_*_test")))
    if not binaries:
        fail(f"--build {a.build}: no rtl_*_test binaries (build them first)")
    env = dict(os.environ, ANE_COVERAGE_DIR=dat)
    logs = os.path.join(out, "logs")
    os.makedirs(logs, exist_ok=True)

    def run_one(argv, name, extra_env=None):
        # Each job writes into a folder of its own, merged (and its files removed) as soon as
        # it ends: a test makes up to thousands of simulations, each with a file of counters.
        sub = os.path.join(dat, name)
        os.makedirs(sub)
        t0 = time.time()
        with open(os.path.join(logs, f"{name}.log"), "w") as log:
            rc = subprocess.run(argv, cwd=ROOT, env=dict(env, ANE_COVERAGE_DIR=sub, **(extra_env or {})),
                                stdout=log, stderr=subprocess.STDOUT).returncode
        seconds[name] = time.time() - t0
        drop_settle_toggles(sub)
        files = sorted(glob.glob(os.path.join(sub, "*.dat")))
        verilator_merge(files, os.path.join(dat, f"{name}.dat"), unlink=True)
        shutil.rmtree(sub, ignore_errors=True)
        if rc != 0:
            print(f"coverage: FAIL {name} (log: {os.path.join(logs, name + '.log')})", flush=True)
        return rc, len(files)

    # One job per test (GoogleTest's --gtest_filter), so that the two workers share the long
    # binaries (the reset tests alone take half an hour in this build); shard I of N takes every
    # N-th test of the sorted list, and the default suite's cases through `ane regress --shard`.
    tests = []
    for b in binaries:
        listing = subprocess.run([b, "--gtest_list_tests"], capture_output=True, text=True, check=True).stdout
        suite = None
        for line in listing.splitlines():
            if not line.strip() or line.startswith("Running main"):
                continue
            if not line.startswith(" "):
                suite = line.strip()
            else:
                tests.append((os.path.basename(b), b, suite + line.split("#")[0].strip()))
    tests.sort()
    mine = [t for k, t in enumerate(tests) if k % n == i - 1]
    # the longest first (the reset and system tests, then the rest), so that no long job starts last
    slow = ("rtl_reset_test", "rtl_planar_pool_test", "rtl_td_system_test", "rtl_postproc_test")
    mine.sort(key=lambda t: (slow.index(t[0]) if t[0] in slow else len(slow), t))
    jobs = [([path, f"--gtest_filter={test}"], f"{name}.{re.sub(r'[^A-Za-z0-9_.-]', '_', test)}")
            for name, path, test in mine]
    jobs.insert(0, ([os.path.join(build, "ane"), "regress", "sim/regress/default.yaml", "--engine", "both",
                     "--shard", f"{i}/{n}"], "default-suite"))
    if only:  # a binary (all its tests), one test (binary.Suite.Test), or default-suite
        def chosen(job_name, o):
            return job_name == o or job_name.startswith(o + ".")
        unknown = sorted(o for o in only if not any(chosen(j[1], o) for j in jobs))
        if unknown:
            fail(f"--only: no job named {', '.join(unknown)} (a binary, binary.Suite.Test, or default-suite)")
        jobs = [j for j in jobs if any(chosen(j[1], o) for o in only)]
    print(f"coverage: shard {i}/{n}: {len(jobs)} jobs ({len(mine)} tests of {len(binaries)} binaries, the default "
          f"suite), {a.jobs} at a time", flush=True)
    seconds = {}
    started = time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda j: run_one(*j), jobs))
    # each job's wall time, the longest first: where a shard's hour goes
    with open(os.path.join(out, f"timings-{i}.txt"), "w") as f:
        f.write(f"# shard {i}/{n}: {len(jobs)} jobs, {time.time() - started:.0f} s wall on {a.jobs} workers\n")
        for name, sec in sorted(seconds.items(), key=lambda kv: -kv[1]):
            f.write(f"{sec:8.1f}  {name}\n")
    files = sorted(glob.glob(os.path.join(dat, "*.dat")))
    if only:  # added to the shard's data: counts add up, hit or not and the percentages stay right
        keep = shard_dat + ".before.dat"
        os.replace(shard_dat, keep)
        files.append(keep)
    if not verilator_merge(files, shard_dat, unlink=True):
        fail("no coverage data was written (a build without coverage counters?)")
    print(f"coverage: {sum(r[1] for r in results)} simulations of {len(jobs)} jobs merged into {shard_dat}")
    if any(r[0] for r in results):
        print("coverage: some tests failed (logs in out/coverage/logs); the data is kept", file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------- report

def blocks_of_modules():
    """File -> block: the section comment above each module in rtl/modules.txt."""
    block, of = "packages", {}
    for line in open(os.path.join(ROOT, "rtl", "modules.txt")):
        line = line.rstrip()
        if line.startswith("# ") and not line.startswith("# SPDX"):
            block = line[2:].split(":")[0].strip()
        elif line and not line.startswith("#"):
            of[line.split()[0] + ".sv"] = block
    return of


def clause_of(label):
    """A bin's label: N<a>_<b>_<what> belongs to clause N-a.b, TD_<what> to the TD format's
    checks and states, RST_<what> to reset in every state."""
    m = re.match(r"N(\d+)_(\d+)_", label)
    if m:
        return f"N-{m.group(1)}.{m.group(2)}"
    return {"TD": "TD format", "RST": "reset in every state"}.get(label.split("_", 1)[0], "(no clause)")


def bins_by_clause(points):
    """User (SV cover) points by clause: (bin name, target file, line, hits)."""
    out = collections.defaultdict(list)
    for (kind, f, l, _n, name), count in points.items():
        if kind == "user":
            out[clause_of(name.split(".")[-1])].append((name, target_file(f), l, count))
    return out


def unreachable():
    """scripts/coverage_unreachable.txt: `bin name | reason` per bin no test can hit (logic kept
    for a parameterization or a protocol the tests' configurations do not reach)."""
    path = os.path.join(ROOT, "scripts", "coverage_unreachable.txt")
    out = {}
    if os.path.exists(path):
        for n, line in enumerate(open(path), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "|" not in line:
                fail(f"{path}:{n}: expected `bin name | reason`")
            name, reason = (x.strip() for x in line.split("|", 1))
            out[name] = reason
    return out


def pct(hit, total):
    return 100.0 * hit / total if total else 100.0


def cmd_report(a):
    out = os.path.abspath(a.out)
    shards = sorted(glob.glob(os.path.join(out, "shard-*.dat")))
    if not shards:
        fail(f"no shard data in {a.out} (run `coverage.py run` first)")
    merged = os.path.join(out, "merged.dat")
    subprocess.run(["verilator_coverage", "--write", merged] + shards, check=True, stdout=subprocess.DEVNULL)
    points = merge_points([merged])

    # lcov: line and branch points only (toggle points sit on declaration lines)
    line_dat = os.path.join(out, "line.dat")
    with open(merged, "rb") as src, open(line_dat, "wb") as dst:
        for raw in src:
            if not raw.startswith(b"C '") or b"\x01page\x02v_line/" in raw or b"\x01page\x02v_branch/" in raw:
                dst.write(raw)
    info = os.path.join(out, "line.info")
    subprocess.run(["verilator_coverage", "--write-info", info, line_dat], check=True, stdout=subprocess.DEVNULL)
    rtl = os.path.join(ROOT, "rtl")
    text = open(info).read()
    text = re.sub(r"^SF:(?!/)", f"SF:{rtl}/", text, flags=re.M)
    open(info, "w").write(text)
    if shutil.which("genhtml"):
        subprocess.run(["genhtml", "-q", "-o", os.path.join(out, "html"), "--legend", "--title",
                        "ANE RTL line coverage", info], check=True)

    of = blocks_of_modules()
    per_file = collections.defaultdict(lambda: collections.Counter())
    explained = unreachable()
    for (kind, f, l, _n, _o), count in points.items():
        if f.endswith("_cov.sv") and kind != "user":
            continue  # the bins' own statements and signals are not the design's
        f = target_file(f)
        if kind in ("line", "branch"):
            per_file[f]["line_total"] += 1
            per_file[f]["line_hit"] += count > 0
        elif kind == "toggle":
            per_file[f]["toggle_total"] += 1
            per_file[f]["toggle_hit"] += count > 0
        elif kind == "user":
            per_file[f]["bins_total"] += 1
            per_file[f]["bins_hit"] += count > 0
            per_file[f]["bins_explained"] += count == 0 and _o in explained
    rows, block_sum = [], collections.defaultdict(collections.Counter)
    for f in sorted(per_file):
        c = per_file[f]
        block_sum[of.get(f, "(not in modules.txt)")].update(c)
        rows.append((of.get(f, "?"), f, c))
    md = ["| Block | File | Line | Toggle | Bins hit (+ explained) |", "|---|---|---:|---:|---:|"]
    misses = []

    def bins_cell(c):
        return f"{c['bins_hit']} / {c['bins_total']}" + (f" (+{c['bins_explained']})" if c["bins_explained"] else "")

    for block, c in sorted(block_sum.items()):
        lp, tp = pct(c["line_hit"], c["line_total"]), pct(c["toggle_hit"], c["toggle_total"])
        ok = lp >= GOAL_LINE and tp >= GOAL_TOGGLE and c["bins_hit"] + c["bins_explained"] == c["bins_total"]
        if not ok:
            misses.append(block)
        md.append(f"| **{block}** | | **{lp:.1f} %** | **{tp:.1f} %** | **{bins_cell(c)}** |")
        for b, f, fc in rows:
            if b == block:
                md.append(f"| | `{f}` | {pct(fc['line_hit'], fc['line_total']):.1f} % "
                          f"({fc['line_hit']}/{fc['line_total']}) | {pct(fc['toggle_hit'], fc['toggle_total']):.1f} % "
                          f"({fc['toggle_hit']}/{fc['toggle_total']}) | {bins_cell(fc)} |")
    bins = bins_by_clause(points)
    md += ["", "Functional bins (SV `cover` points in rtl/cov/, bound to the modules they watch), by clause; "
           "every bin with its hits is in `out/coverage/bins.md`:", "",
           "| Clause | Bins hit | Not hit |", "|---|---:|---|"]
    full = ["# Functional bins and their hits", "", "| Clause | Bin | Module | Hits |", "|---|---|---|---:|"]
    why = []
    for clause in sorted(bins):
        items = sorted(bins[clause])
        missed = [f"`{f[:-3]}: {name}`" for name, f, _l, count in items if count == 0 and name not in explained]
        hit = sum(1 for _name, _f, _l, count in items if count > 0)
        expl = sum(1 for name, _f, _l, count in items if count == 0 and name in explained)
        md.append(f"| {clause} | {hit} / {len(items)}{f' (+{expl})' if expl else ''} | "
                  f"{', '.join(missed) if missed else '-'} |")
        for name, f, _l, count in items:
            full.append(f"| {clause} | `{name}` | `{f[:-3]}` | {count} |")
            if count == 0 and name in explained:
                why.append(f"| `{f[:-3]}: {name}` | {explained[name]} |")
    if why:
        md += ["", "Bins no test can hit, each with its reason (`scripts/coverage_unreachable.txt`; counted as "
               "\"+ explained\" above):", "", "| Bin | Why it is not reached |", "|---|---|"] + why
    stale = sorted(n for n in explained if not any(n == name and count == 0 for items in bins.values()
                                                    for name, _f, _l, count in items))
    if stale:
        print("coverage: explained as unreachable but hit or unknown: " + ", ".join(stale), file=sys.stderr)
        misses.append("scripts/coverage_unreachable.txt")
    table = "\n".join(md) + "\n"
    open(os.path.join(out, "coverage_section.md"), "w").write(table)
    open(os.path.join(out, "bins.md"), "w").write("\n".join(full) + "\n")
    print(table)
    if a.update:
        path = a.update
        doc = open(path).read()
        section = (f"{BEGIN}\n### RTL coverage\n\nWritten by `python3 scripts/coverage.py report --update "
                   f"docs/results.md` after `make coverage`; goals: {GOAL_LINE:.0f} % line, {GOAL_TOGGLE:.0f} % toggle "
                   f"and every bin hit per block.\n\n{table}{END}")
        if BEGIN in doc:
            doc = doc[:doc.index(BEGIN)] + section + doc[doc.index(END) + len(END):]
        else:
            doc = doc.rstrip("\n") + "\n\n" + section + "\n"
        open(path, "w").write(doc)
    if a.check and misses:
        print("coverage: below goal: " + ", ".join(misses), file=sys.stderr)
        return 1
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--build", default="build-cov")
    r.add_argument("--out", default="out/coverage")
    r.add_argument("--shard", default="1/1")
    r.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    r.add_argument("--only", help="comma-separated jobs to run again (a binary, binary.Suite.Test, or "
                   "default-suite), their data added to the shard's (after a test was added: the bins it "
                   "hits, without the whole run)")
    q = sub.add_parser("report")
    q.add_argument("--out", default="out/coverage")
    q.add_argument("--update")
    q.add_argument("--check", action="store_true")
    a = p.parse_args()
    return cmd_run(a) if a.cmd == "run" else cmd_report(a)


if __name__ == "__main__":
    sys.exit(main())
