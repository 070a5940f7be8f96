#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Mutation testing of the RTL (make mutate; docs/verification.md, "Mutation score").

  mutate.py run [--blocks B,..] [--per-block K] [--seed S] [--time-limit SEC] [--shard I/N]
                [--build DIR] [--out DIR] [-j J]
      Draws K single mutations per block (seeded: the same seed, the same mutants), applies each
      to a copy of its RTL file, rebuilds only the models of the block's tests that hold the
      file (a mutation build: the CMake variables ANE_MUTANT_FILE and ANE_MUTANT_MODELS, see
      rtl/CMakeLists.txt) and runs those tests. A mutant is killed when a test fails or runs
      past its time limit, survived when every test passes, not built when Verilator refuses it
      (a width the lint rejects, say). Shard I of N takes every N-th mutant; no mutant starts
      after the time limit. Results: OUT/shard-I.json.
  mutate.py report [--out DIR] [--update docs/results.md]
      Merges the shards: killed / survived per block, the score killed / (killed + survived),
      and every survivor with its mutation, marked when scripts/mutate_equivalent.txt explains
      it as an equivalent mutant.

Mutations (one per mutant, on one line of a block's RTL outside comments and `ifndef
SYNTHESIS` blocks): an operator swapped (+ -, & |, && ||, == !=, > >=, < >), a constant off by
one (a sized decimal literal N'dV to V + 1 or V - 1), a condition inverted (if (c) to
if (!(c)), c ? a : b to !(c) ? a : b), a register's reset value changed (in an `if (!rst_ni)`
branch: 0 to 1, '0 to '1, 1'b0 to 1'b1 and back).
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- mutation:begin -->", "<!-- mutation:end -->"

# Each block: its RTL files, and its tests with the models each test simulates (the models'
# CMake prefixes, tb/tests/*.cc); a mutant of file F runs the tests one of whose models holds F.
BLOCKS = {
    "mac_lane": {
        "files": ["ane_mac_ctrl", "ane_mac_dp", "ane_mac_mul", "ane_mac_add12", "ane_mac_acc_add",
                  "ane_mac_acc_exact", "ane_mac_out", "ane_mac_lane", "ane_mac_norm", "ane_sig_mul",
                  "ane_fp16_unpack"],
        "tests": {"rtl_mac_lane_test": ["Vane_mac_lane_m1", "Vane_mac_lane_m5"],
                  "rtl_mac_stages_test": ["Vane_mac_acc_add", "Vane_mac_acc_exact", "Vane_mac_add12",
                                          "Vane_mac_mul_m1", "Vane_mac_mul_m5", "Vane_mac_out_m1",
                                          "Vane_mac_out_m5", "Vane_mac_ref"]},
    },
    "postproc": {
        "files": ["ane_postproc", "ane_pp_lane", "ane_pp_round"],
        "tests": {"rtl_postproc_test": ["Vane_postproc8_m1", "Vane_postproc8_m5"]},
    },
    "planar": {
        "files": ["ane_planar", "ane_planar_walk", "ane_planar_rd", "ane_planar_wr", "ane_planar_patch",
                  "ane_planar_pack", "ane_planar_pool", "ane_pe_ew", "ane_pe_post", "ane_pe_fc", "ane_pe_pool",
                  "ane_pe_reduce", "ane_pe_linebuf", "ane_pe_vreduce", "ane_pe_node", "ane_pe_mean",
                  "ane_pe_widen", "ane_pe_transpose"],
        "tests": {"rtl_planar_engine_test": ["Vane_planar8"],
                  "rtl_planar_test": ["Vane_pe_ew16", "Vane_pe_mean", "Vane_pe_reduce", "Vane_pe_post4"],
                  "rtl_planar_fc_test": ["Vane_pe_fc16", "Vane_pe_transpose8"],
                  "rtl_planar_pool_test": ["Vane_pe_pool4"],
                  "rtl_planar_vreduce_test": ["Vane_pe_vreduce4"]},
    },
    "td": {
        "files": ["ane_td_fetch", "ane_td_setup", "ane_td_kdma", "ane_td_table", "ane_td_ctrl", "ane_td_rules"],
        "tests": {"rtl_td_fetch_test": ["Vane_td_fetch", "Vane_td_fetch_max8"],
                  "rtl_td_kdma_test": ["Vane_td_kdma"],
                  "rtl_td_table_test": ["Vane_td_table"],
                  "rtl_td_system_test": ["Vane_td_ctrl8"]},
    },
}


def fail(msg):
    print(f"mutate: error: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or not (1 <= int(m.group(1)) <= int(m.group(2))):
        fail(f"--shard {text}: expected I/N with 1 <= I <= N")
    return int(m.group(1)), int(m.group(2))


# ---------------------------------------------------------------- mutation sites

OPS = [  # (pattern, replacement, what): a binary operator with a space on each side
    (r" \+ ", " - ", "+ -> -"), (r" - ", " + ", "- -> +"),
    (r" & ", " | ", "& -> |"), (r" \| ", " & ", "| -> &"),
    (r" && ", " || ", "&& -> ||"), (r" \|\| ", " && ", "|| -> &&"),
    (r" == ", " != ", "== -> !="), (r" != ", " == ", "!= -> =="),
    (r" >= ", " > ", ">= -> >"), (r" > ", " >= ", "> -> >="),
    (r" < ", " > ", "< -> >"),
]
DECL = re.compile(r"^\s*(logic|wire|input|output|localparam|parameter|typedef|module|import|function|genvar|"
                  r"`|for \(genvar)")


def code_lines(text):
    """(index, line without its comment) of the lines a mutation may touch: not inside an
    `ifndef SYNTHESIS block, not a declaration, not blank."""
    out, skip = [], 0
    for i, line in enumerate(text.split("\n")):
        code = line.split("//", 1)[0]
        s = code.strip()
        if s.startswith("`ifndef SYNTHESIS"):
            skip += 1
            continue
        if skip and s.startswith("`endif"):
            skip -= 1
            continue
        if skip or not s or DECL.match(code):
            continue
        out.append((i, code))
    return out


def sites(path):
    """Every (line index, column, old text, new text, what) of one file."""
    text = open(path).read()
    lines = text.split("\n")
    found = []
    in_reset = False
    for i, code in code_lines(text):
        if re.search(r"if \(!rst_ni\)", code):
            in_reset = True
        elif in_reset and re.search(r"\bend\b", code):
            in_reset = False
        for pat, rep, what in OPS:
            for m in re.finditer(pat, code):
                # not the `<=` of a nonblocking assignment, nor a shift
                found.append((i, m.start(), m.group(0), rep, what))
        for m in re.finditer(r"(\d+)'d(\d+)\b", code):
            w, v = int(m.group(1)), int(m.group(2))
            new = v + 1 if v + 1 < (1 << w) else v - 1
            found.append((i, m.start(), m.group(0), f"{w}'d{new}", f"constant {v} -> {new}"))
        m = re.search(r"\bif \((.*)\)\s*(begin)?\s*$", code) or re.search(r"\bif \((.*?)\)\s+\w", code)
        if m and not in_reset:
            found.append((i, m.start(), f"if ({m.group(1)})", f"if (!({m.group(1)}))", "condition inverted"))
        m = re.search(r"=\s+([^=?;]+?)\s+\?\s", code)
        if m and "(" not in m.group(1) and ")" not in m.group(1):
            found.append((i, m.start(1), m.group(1) + " ?", f"!({m.group(1)}) ?", "condition inverted"))
        if in_reset:
            m = re.search(r"<=\s+('0|'1|1'b0|1'b1|\d+'d0)\s*;", code)
            if m:
                old = m.group(1)
                new = {"'0": "'1", "'1": "'0", "1'b0": "1'b1", "1'b1": "1'b0"}.get(old, old.replace("'d0", "'d1"))
                found.append((i, m.start(1), old, new, f"reset value {old} -> {new}"))
    del lines
    return found


def apply(path, site):
    i, col, old, new, _what = site
    lines = open(path).read().split("\n")
    line = lines[i]
    at = line.find(old, col)
    if at < 0:
        raise ValueError(f"{path}:{i + 1}: '{old}' not found")
    lines[i] = line[:at] + new + line[at + len(old):]
    return "\n".join(lines), line.strip(), lines[i].strip()


def draw_mutants(blocks, per_block, seed):
    """The seeded sample: per block, per_block sites drawn from all the block's sites."""
    rng = random.Random(seed)
    mutants = []
    for b in blocks:
        all_sites = []
        for f in BLOCKS[b]["files"]:
            path = os.path.join(ROOT, "rtl", f + ".sv")
            all_sites += [(f, s) for s in sites(path)]
        all_sites.sort(key=lambda x: (x[0], x[1][0], x[1][1], x[1][4]))
        for f, s in rng.sample(all_sites, min(per_block, len(all_sites))):
            mutants.append({"block": b, "file": f, "line": s[0] + 1, "site": s, "what": s[4]})
    for n, m in enumerate(mutants):
        m["id"] = n
    return mutants


# ---------------------------------------------------------------- the mutation build

def model_args(build):
    """{model prefix: its Verilator command as a list} from the build's records (verilator_args.txt:
    the command as a CMake list; the sources named relative to rtl/ or, for a mutant, by path)."""
    out = {}
    base = os.path.join(build, "rtl", "CMakeFiles")
    for root, _dirs, files in os.walk(base):
        if "verilator_args.txt" in files:
            args = open(os.path.join(root, "verilator_args.txt")).read().split(";")
            if "--prefix" in args:
                out[args[args.index("--prefix") + 1]] = args
    return out


def models_holding(build, rtl_file):
    """The model prefixes whose Verilator command reads rtl/<file>.sv."""
    name = f"{rtl_file}.sv"  # as rtl/ names it, or a mutant's path left by the mutant before
    return {p for p, args in model_args(build).items() if any(x == name or x.endswith("/" + name) for x in args)}


def configure(build, mutant_file="", models="^$"):
    r = subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                        f"-DANE_MUTANT_FILE={mutant_file}", f"-DANE_MUTANT_MODELS={models}"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode == 0, r.stdout


def build_targets(build, targets, jobs):
    r = subprocess.run(["ninja", "-C", build, f"-j{jobs}"] + targets, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return r.returncode == 0, r.stdout


def run_test(build, test, timeout):
    t0 = time.time()
    try:
        # the first failure kills the mutant: the rest of the binary need not run
        r = subprocess.run([os.path.join(build, test), "--gtest_fail_fast"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
        return ("pass" if r.returncode == 0 else "fail"), time.time() - t0, r.stdout[-2000:]
    except subprocess.TimeoutExpired:
        return "timeout", time.time() - t0, ""


def cmd_run(a):
    i, n = parse_shard(a.shard)
    blocks = a.blocks.split(",")
    for b in blocks:
        if b not in BLOCKS:
            fail(f"--blocks: unknown block '{b}' (known: {', '.join(BLOCKS)})")
    out = os.path.abspath(a.out)
    build = os.path.abspath(a.build)
    mdir = os.path.join(out, "mutants")
    os.makedirs(mdir, exist_ok=True)
    mutants = [m for m in draw_mutants(blocks, a.per_block, a.seed) if m["id"] % n == i - 1]
    ids = {int(x.lstrip("m")) for x in a.ids.split(",")} if a.ids else set()
    if ids:  # run these again; their results replace the shard's
        unknown = ids - {m["id"] for m in mutants}
        if unknown:
            fail(f"--ids: no mutant {', '.join(f'm{x:04d}' for x in sorted(unknown))} in shard {i}/{n}")
        mutants = [m for m in mutants if m["id"] in ids]
    tests = sorted({t for b in blocks for t in BLOCKS[b]["tests"]})
    start = time.time()
    print(f"mutate: shard {i}/{n}: {len(mutants)} mutants of {', '.join(blocks)} (seed {a.seed}); baseline build",
          flush=True)
    ok, log = configure(build)
    if not ok:
        fail("configuring the mutation build failed:\n" + log[-3000:])
    ok, log = build_targets(build, tests, a.jobs)
    if not ok:
        fail("building the tests failed:\n" + log[-3000:])
    base_time = {}
    for t in tests:
        status, secs, tail = run_test(build, t, None)
        if status != "pass":
            fail(f"{t} fails without a mutation:\n{tail}")
        base_time[t] = secs
        print(f"mutate: baseline {t} passes ({secs:.0f} s)", flush=True)
    results = []
    try:
        for m in mutants:
            if time.time() - start > a.time_limit:
                m["result"] = "not run"
                results.append(m)
                continue
            src = os.path.join(ROOT, "rtl", m["file"] + ".sv")
            text, before, after = apply(src, m["site"])
            m["before"], m["after"] = before, after
            mfile = os.path.join(mdir, f"m{m['id']:04d}", m["file"] + ".sv")
            os.makedirs(os.path.dirname(mfile), exist_ok=True)
            open(mfile, "w").write(text)
            holding = models_holding(build, m["file"])
            runs = {t: ms for t, ms in BLOCKS[m["block"]]["tests"].items() if holding & set(ms)}
            mset = {x for ms in runs.values() for x in ms if x in holding}
            models = "^(" + "|".join(sorted(mset)) + ")$"
            t0 = time.time()
            if not runs:
                m["result"] = "no test"
                m["seconds"] = 0
                del m["site"]
                results.append(m)
                print(f"mutate: m{m['id']:04d} {m['block']} {m['file']}.sv:{m['line']}: no test holds the file",
                      flush=True)
                continue
            ok, log = configure(build, mfile, models)
            if ok:
                ok, log = build_targets(build, sorted(runs), a.jobs)
            if ok:
                # the mutant must be what the models read, or every mutant would survive unseen
                args = model_args(build)
                wrong = sorted(p for p in mset if mfile not in args.get(p, []))
                if wrong:
                    fail(f"m{m['id']:04d}: the models {', '.join(wrong)} did not read {mfile}")
            if not ok:
                m["result"] = "not built"
                m["log"] = log[-1500:]
            else:
                m["result"] = "survived"
                for t in sorted(runs, key=lambda t: base_time[t]):  # the quickest first
                    status, _secs, tail = run_test(build, t, 3 * base_time[t] + 60)
                    if status != "pass":
                        m["result"] = "killed"
                        failed = re.findall(r"\[  FAILED  \] (\w+\.\w+)", tail)
                        m["by"] = f"{t} ({status}{': ' + failed[0] if failed else ''})"
                        break
            m["seconds"] = round(time.time() - t0)
            del m["site"]
            results.append(m)
            print(f"mutate: m{m['id']:04d} {m['block']} {m['file']}.sv:{m['line']} {m['what']}: {m['result']}"
                  f"{' by ' + m['by'] if 'by' in m else ''} ({m['seconds']} s)", flush=True)
        for m in results:
            m.pop("site", None)
    finally:
        configure(build)  # leave the build as the RTL is, also when stopped
    seconds = round(time.time() - start)
    path = os.path.join(out, f"shard-{i}.json")
    if ids:
        if not os.path.exists(path):
            fail(f"--ids: no {path} to update (run the whole shard first)")
        old = json.load(open(path))
        again = {m["id"]: m for m in results}
        results = [again.get(m["id"], m) for m in old["mutants"]]
        seconds += old["seconds"]
    json.dump({"seed": a.seed, "per_block": a.per_block, "shard": f"{i}/{n}", "blocks": blocks,
               "seconds": seconds, "mutants": results}, open(path, "w"), indent=1)
    print(f"mutate: wrote {os.path.join(out, f'shard-{i}.json')}")
    return 0


# ---------------------------------------------------------------- report

def equivalents():
    """scripts/mutate_equivalent.txt: `file.sv:line what | reason` per explained survivor."""
    path = os.path.join(ROOT, "scripts", "mutate_equivalent.txt")
    out = {}
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line and not line.startswith("#") and "|" in line:
                key, reason = line.split("|", 1)
                out[key.strip()] = reason.strip()
    return out


def cmd_report(a):
    out = os.path.abspath(a.out)
    shards = sorted(f for f in os.listdir(out) if re.fullmatch(r"shard-\d+\.json", f)) if os.path.isdir(out) else []
    if not shards:
        fail(f"no shard results in {a.out} (run `mutate.py run` first)")
    mutants, meta = [], []
    for s in shards:
        d = json.load(open(os.path.join(out, s)))
        mutants += d["mutants"]
        meta.append(d)
    eq = equivalents()
    blocks = sorted({m["block"] for m in mutants})
    md = ["| Block | Mutants | Killed | Survived (explained) | Not built | Not run | No test | Score |",
          "|---|---:|---:|---:|---:|---:|---:|---:|"]
    survivors = []
    for b in blocks:
        ms = [m for m in mutants if m["block"] == b]
        c = {k: sum(1 for m in ms if m["result"] == k) for k in ("killed", "survived", "not built", "not run",
                                                                   "no test")}
        expl = sum(1 for m in ms if m["result"] == "survived" and f"{m['file']}.sv:{m['line']} {m['what']}" in eq)
        judged = c["killed"] + c["survived"] - expl
        score = f"{100.0 * c['killed'] / judged:.1f} %" if judged else "-"
        md.append(f"| {b} | {len(ms)} | {c['killed']} | {c['survived']} ({expl}) | {c['not built']} | "
                  f"{c['not run']} | {c['no test']} | {score} |")
        survivors += [m for m in ms if m["result"] == "survived"]
    md += ["", "Score: killed / (killed + survived - explained equivalent mutants).", ""]
    if survivors:
        md += ["Survivors:", "", "| Mutant | Where | Mutation | Line after | Explained |", "|---|---|---|---|---|"]
        for m in sorted(survivors, key=lambda m: m["id"]):
            key = f"{m['file']}.sv:{m['line']} {m['what']}"
            md.append(f"| m{m['id']:04d} | `{m['file']}.sv:{m['line']}` | {m['what']} | "
                      f"`{m.get('after', '').replace('|', '¦')}` | {eq.get(key, 'no')} |")
    seeds = sorted({d["seed"] for d in meta})
    per = sorted({d["per_block"] for d in meta})
    secs = sum(d["seconds"] for d in meta)
    head = (f"{len(mutants)} mutants (seed {', '.join(map(str, seeds))}, {', '.join(map(str, per))} per block, "
            f"{len(meta)} shard(s), {secs} s of shard time)")
    table = head + "\n\n" + "\n".join(md) + "\n"
    print(table)
    open(os.path.join(out, "report.md"), "w").write(table)
    if a.update:
        doc = open(a.update).read()
        section = (f"{BEGIN}\n### Mutation score\n\nWritten by `python3 scripts/mutate.py report --update "
                   f"docs/results.md` after `make mutate`: {table}{END}")
        if BEGIN in doc:
            doc = doc[:doc.index(BEGIN)] + section + doc[doc.index(END) + len(END):]
        else:
            doc = doc.rstrip("\n") + "\n\n" + section + "\n"
        open(a.update, "w").write(doc)
    return 0


def cmd_list(a):
    for m in draw_mutants(a.blocks.split(","), a.per_block, a.seed):
        src = os.path.join(ROOT, "rtl", m["file"] + ".sv")
        _text, before, after = apply(src, m["site"])
        print(f"m{m['id']:04d} {m['block']} {m['file']}.sv:{m['line']} {m['what']}\n   - {before}\n   + {after}")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("run", "list"):
        r = sub.add_parser(name)
        r.add_argument("--blocks", default=",".join(BLOCKS))
        r.add_argument("--per-block", type=int, default=20)
        r.add_argument("--seed", type=int, default=1)
        if name == "run":
            r.add_argument("--time-limit", type=float, default=7200)
            r.add_argument("--shard", default="1/1")
            r.add_argument("--build", default="build-mut")
            r.add_argument("--out", default="out/mutate")
            r.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
            r.add_argument("--ids", help="comma-separated mutants (m0012,13) to run again, their results replacing "
                           "those in OUT/shard-I.json")
    q = sub.add_parser("report")
    q.add_argument("--out", default="out/mutate")
    q.add_argument("--update")
    a = p.parse_args()
    return {"run": cmd_run, "report": cmd_report, "list": cmd_list}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
