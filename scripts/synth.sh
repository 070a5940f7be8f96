#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis flow for every RTL top in constraints/tops.txt (docs/flow.md explains it).
#
#   scripts/synth.sh [--smoke] [--out DIR] [--seed N] [--only LABEL] [--reuse] [--skip LABEL]...
#
# Per top, in DIR/<label>/ (default DIR: out/synth):
#   1. Verilator elaborates the RTL (ports and parameter values for the steps below)
#   2. Yosys 0.23: read_verilog -sv, synth, generic netlist for the gate-level check,
#      dfflibmap + abc -liberty on OSU 0.18um, stat -liberty           (scripts/synth/osu018.tcl)
#   3. OpenSTA on the mapped netlist with constraints/osu018.sdc       (scripts/synth/sta.tcl)
#   4. iCE40: synth_ice40 + nextpnr-ice40 (not in --smoke)             (scripts/synth/ice40.tcl)
#   5. gate-level check (last: a failed check leaves the netlists for --reuse): RTL vs generic
#      netlist vs Liberty-mapped netlist, seeded random stimulus (after
#      constraints/glstim/<label>.stim, recorded inputs, when there is one), every output every
#      cycle; the netlists Verilated beside the RTL, or, above GATESIM_MIN_CELLS mapped cells,
#      run by the project's gate-level simulator (scripts/synth/glcheck.sh, glsim.h)
#   6. summary.json                                                    (scripts/synth/collect.py)
# The flow fails (exit 1, "synth FAIL <label>: <reason>") on: a latch, a yosys warning about an
# implicitly declared identifier, a net with no driver, conflicting drivers, a logic loop or a
# resized cell port (an expression Yosys sized differently from the port it drives),
# a gate-level mismatch, or any tool error.
# --smoke: 2000 check cycles instead of 20000, no iCE40 step, never touches docs/. Without
#          --smoke, docs/results.md's synth section is rewritten. Every run but --only ends with
#          scripts/synth/selftest.sh (the flow's own checks must catch known faults);
#          --no-selftest leaves it out (make test's smoke run: the self-test is 135 s of CPU).
# --seed N: stimulus seed of the gate-level check (default 1). --only LABEL: one top, no docs.
# --glcheck auto|verilator|gatesim: how the gate-level check simulates the netlists (default:
#          gatesim with --smoke, where compiling the netlists was most of the run's time; else
#          auto: Verilator up to GATESIM_MIN_CELLS mapped cells, the gate-level simulator above).
# --skip LABEL: leave one top out (repeatable); docs/results.md names the tops left out.
# --reuse: keep a top's previous run (out DIR/<label>/) when its fingerprint matches: the sha256
#          of the mode, the top's line, every source file, every script of scripts/synth/ but the
#          gate-level check's, the constraints and the tool versions. Same inputs, same tools,
#          same netlists and figures (every step is deterministic: fixed seeds, no wall-clock
#          inputs). The gate-level check is kept too when its own fingerprint matches (its
#          scripts, seed, cycles, engine and recorded stimulus); else it alone runs again.
# Internal (used by the self-test): --tops FILE --rtl DIR --no-selftest --no-docs.
set -euo pipefail
orig="$(pwd)"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"
abs() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$orig/$1" ;; esac; }

smoke=0 out="$root/out/synth" tops_file="$root/constraints/tops.txt" rtl_dir="$root/rtl"
seed=1 only="" selftest=1 docs=1 reuse=0 glengine=""
# Above this many mapped cells the netlists' C++ takes too long to compile (the 8-lane core:
# 357,000 cells, 681 files, hours at -O0); the gate-level simulator reads them in seconds.
GATESIM_MIN_CELLS=100000
skips=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1; shift ;;
    --out) out="$(abs "$2")"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --only) only="$2"; docs=0; shift 2 ;;
    --tops) tops_file="$(abs "$2")"; docs=0; shift 2 ;;
    --rtl) rtl_dir="$(abs "$2")"; shift 2 ;;
    --no-selftest) selftest=0; shift ;;
    --no-docs) docs=0; shift ;;
    --reuse) reuse=1; shift ;;
    --skip) skips+=("$2"); shift 2 ;;
    --glcheck) glengine="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "synth.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "synth.sh: --seed wants a number" >&2; exit 2; }
[ -n "$glengine" ] || { if [ $smoke -eq 1 ]; then glengine=gatesim; else glengine=auto; fi; }
case "$glengine" in auto|verilator|gatesim) ;; *) echo "synth.sh: --glcheck wants auto, verilator or gatesim" >&2; exit 2 ;; esac

LIB=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
[ -f "$LIB" ] || { echo "synth.sh: no Liberty file $LIB (qflow-tech-osu018)" >&2; exit 1; }
# shellcheck source=../constraints/ice40.conf
source constraints/ice40.conf
# shellcheck source=synth/tops.sh
source scripts/synth/tops.sh
ane_read_tops "$tops_file" "$rtl_dir"

if [ $smoke -eq 1 ]; then mode=smoke cycles=2000; else mode=full cycles=20000; fi
mkdir -p "$out"
S="$root/scripts/synth"
# compiled Verilator runtime shared by every gate-level check build (glcheck.sh --cache)
export ANE_VLCACHE="${ANE_VLCACHE:-$out/.vlcache}"

python3 - "$out/versions.json" <<'EOF'
import json, subprocess, sys
def first(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        return ((r.stdout or r.stderr).strip().splitlines() or ["?"])[0]
    except OSError:
        return "missing"
v = {"yosys": first(["yosys", "-V"]), "verilator": first(["verilator", "--version"]),
     "opensta": first(["sta", "-version"]), "nextpnr-ice40": first(["nextpnr-ice40", "--version"])}
json.dump(v, open(sys.argv[1], "w"), indent=1)
EOF

# fail LABEL REASON [detail file/lines on stdin]
fail() { echo "synth FAIL $1: $2"; }

# fingerprints (see --reuse): what a top's synthesis and timing depend on, and what its
# gate-level check depends on besides (the check's scripts, seed, cycles, engine, stimulus)
CHECK_SCRIPTS=(glcheck.py glcheck.sh glsim.cc glsim.h)
is_check_script() { local n; for n in "${CHECK_SCRIPTS[@]}"; do [ "$1" = "$S/$n" ] && return 0; done; return 1; }
fingerprint() {
  local i="$1" f
  {
    printf 'mode %s\n' "$mode"
    printf 'top %s srcs %s params %s noshare %s\n' "${TOP_MODULES[$i]}" "${TOP_SRCS[$i]}" "${TOP_PARAMS[$i]}" "${TOP_NOSHARE[$i]}"
    for f in ${TOP_SRCS[$i]}; do sha256sum "$f"; done
    while IFS= read -r -d '' f; do is_check_script "$f" || sha256sum "$f"; done \
      < <(find "$S" -type f ! -path '*/selftest/*' -print0 | sort -z)
    sha256sum "$root"/constraints/*.sdc "$root/constraints/ice40.conf"
    cat "$out/versions.json"
  } | sed "s#$root/##g" | sha256sum | cut -d' ' -f1  # paths relative: a clone elsewhere matches
}
check_fingerprint() {
  local i="$1" f
  {
    printf 'seed %s cycles %s glcheck %s\n' "$seed" "$cycles" "$glengine"
    for f in "${CHECK_SCRIPTS[@]}"; do sha256sum "$S/$f"; done
    [ ! -f "$root/constraints/glstim/${TOP_LABELS[$i]}.stim" ] || sha256sum "$root/constraints/glstim/${TOP_LABELS[$i]}.stim"
  } | sed "s#$root/##g" | sha256sum | cut -d' ' -f1
}

# top_vars I: the top's module, label, sources and parameter arguments into the caller's
# top, label, srcs and pargs (declared local there)
top_vars() {
  local i="$1" p
  top="${TOP_MODULES[$i]}" label="${TOP_LABELS[$i]}"
  read -r -a srcs <<< "${TOP_SRCS[$i]}"
  read -r -a params <<< "${TOP_PARAMS[$i]}" || true
  pargs=()
  for p in "${params[@]+"${params[@]}"}"; do pargs+=(--param "$p"); done
}

# gate_check I DIR: the gate-level check of the netlists in DIR against the RTL
gate_check() {
  local i="$1" dir="$2" top label rc
  local -a srcs params pargs
  top_vars "$i"
  rm -rf "$dir/glcheck" "$dir/glcheck.log"
  mkdir -p "$dir/glcheck"
  local engine="$glengine" ncells nlargs
  if [ "$engine" = auto ]; then
    ncells=$(grep -oE 'Number of cells: +[0-9]+' "$dir/stat_osu018.txt" | tail -n 1 | grep -oE '[0-9]+$')
    engine=verilator
    [ "${ncells:-0}" -le "$GATESIM_MIN_CELLS" ] || engine=gatesim
  fi
  if [ "$engine" = gatesim ]; then
    nlargs=(--gatesim "gl:$dir/gl.blif" --gatesim "glmap:$dir/glmap.blif")
  else
    nlargs=(--netlist "gl:${top}_gl:$dir/gl.v" --netlist "glmap:${top}_glmap:$dir/glmap.v")
  fi
  # recorded stimulus of this top, replayed before the random cycles (tb/tools/core_glstim.cc)
  local stim="$root/constraints/glstim/$label.stim"
  [ -f "$stim" ] && nlargs+=(--stim "$stim")
  set +e
  "$S/glcheck.sh" --top "$top" --ports "$dir/ports.json" --out "$dir/glcheck" --cycles "$cycles" \
    --seed "$seed" --cache "$ANE_VLCACHE" "${pargs[@]+"${pargs[@]}"}" "${nlargs[@]}" \
    -- "${srcs[@]}" > "$dir/glcheck.log" 2>&1
  rc=$?
  set -e
  if [ $rc -ne 0 ]; then
    fail "$label" "gate-level check failed (seed $seed, $cycles cycles; $dir/glcheck/)"
    sed 's/^/    /' "$dir/glcheck.log" | head -20
    return 1
  fi
}

# collect_top I DIR CFP NOTE: the summary line and JSON of DIR, and the check's fingerprint
collect_top() {
  local i="$1" dir="$2" cfp="$3" note="$4" top label line
  local -a srcs params pargs
  top_vars "$i"
  if ! line="$(python3 "$S/collect.py" "$dir" --label "$label" --top "$top" --mode "$mode" --seed "$seed" \
       --cycles "$cycles" "${pargs[@]+"${pargs[@]}"}" --ice40 "$(cat "$dir/ice40_skip.txt")" \
       --ice40-device "$ICE40_DEVICE-$ICE40_PACKAGE" --versions "$out/versions.json")"; then
    fail "$label" "cannot collect the reports"
    return 1
  fi
  printf '%s\n' "$line" > "$dir/summary.line"
  printf '%s\n' "$cfp" > "$dir/check_fingerprint"
  echo "synth ok   $label$note: $line"
  if [ -s "$dir/yosys_warnings.txt" ]; then
    echo "    note: $(wc -l < "$dir/yosys_warnings.txt") other yosys warning(s), see $dir/yosys_warnings.txt"
  fi
}

# synth_steps I DIR FP: steps 1 to 4 into a fresh DIR (elaborate, Yosys, OpenSTA, iCE40), then
# the fingerprint FP that lets --reuse keep them
synth_steps() {
  local i="$1" dir="$2" fp="$3" top label chparams rc
  local -a srcs params pargs
  top_vars "$i"
  rm -rf "$dir"
  mkdir -p "$dir"
  printf '%s\n' "${TOP_SRCS[$i]}" > "$dir/srcs.txt"
  printf '%s\n' "${TOP_PARAMS[$i]}" > "$dir/params.txt"

  # 1. elaborate the RTL as Verilator sees it: ports, widths, evaluated parameters
  # (run_top runs under `if`, where set -e is off: every step checks its own status)
  python3 "$S/glcheck.py" shell --top "$top" "${pargs[@]+"${pargs[@]}"}" --out "$dir/glcheck_shell.sv" \
    || { fail "$label" "bad parameter override"; return 1; }
  if ! verilator --xml-only --xml-output "$dir/rtl.xml" -Wno-fatal -Wno-PINMISSING \
       "${srcs[@]}" "$dir/glcheck_shell.sv" --top-module glcheck_shell > "$dir/elaborate.log" 2>&1; then
    fail "$label" "Verilator cannot elaborate the RTL ($dir/elaborate.log)"
    grep -m5 '%Error' "$dir/elaborate.log" | sed 's/^/    /'
    return 1
  fi
  python3 "$S/glcheck.py" ports --xml "$dir/rtl.xml" --top "$top" --out "$dir/ports.json" \
    || { fail "$label" "cannot read the ports of $top"; return 1; }
  chparams="$(python3 "$S/glcheck.py" chparams --ports "$dir/ports.json")" \
    || { fail "$label" "cannot turn the parameter values into yosys -chparam"; return 1; }

  # 2. yosys: generic synth, checks, netlists, OSU mapping
  set +e
  ANE_TOP="$top" ANE_SRCS="${TOP_SRCS[$i]}" ANE_CHPARAMS="$chparams" ANE_LIB="$LIB" ANE_OUTDIR="$dir" \
    ANE_NOSHARE="${TOP_NOSHARE[$i]}" yosys -q -l "$dir/yosys.log" -c "$S/osu018.tcl" > /dev/null 2>&1
  rc=$?
  set -e
  grep -E '(^|: )Warning:' "$dir/yosys.log" | grep -v '^ABC:' | sort -u > "$dir/yosys_warnings.txt" || true
  if grep -q 'Latch inferred' "$dir/yosys.log"; then
    fail "$label" "latch inferred"
    grep 'Latch inferred' "$dir/yosys.log" | sed 's/^/    /'
    return 1
  fi
  if [ $rc -ne 0 ]; then
    fail "$label" "yosys failed ($dir/yosys.log)"
    grep -m5 -A3 'ERROR' "$dir/yosys.log" | sed 's/^/    /'
    return 1
  fi
  if grep -qE 'implicitly declared|has no driver|multiple conflicting drivers|logic loop|Resizing cell port' "$dir/yosys_warnings.txt"; then
    fail "$label" "yosys warnings that the flow does not allow ($dir/yosys.log)"
    grep -E 'implicitly declared|has no driver|multiple conflicting drivers|logic loop|Resizing cell port' \
      "$dir/yosys_warnings.txt" | head -20 | sed 's/^/    /'
    return 1
  fi

  # 3. OpenSTA
  local sdc="$root/constraints/osu018.sdc"
  [ -f "$root/constraints/$label.osu018.sdc" ] && sdc="$root/constraints/$label.osu018.sdc"
  if ! ANE_LIB="$LIB" ANE_NETLIST="$dir/mapped.v" ANE_TOP="$top" ANE_SDC="$sdc" \
       sta -no_splash -exit "$S/sta.tcl" > "$dir/sta.log" 2>&1 \
     || ! python3 "$S/sta_warnings.py" "$dir/sta.log" "$dir/mapped.v" > "$dir/sta_warnings.txt" \
     || ! grep -q '^ANE_STA worst_slack_ns' "$dir/sta.log"; then
    fail "$label" "OpenSTA failed or warned ($dir/sta.log)"
    head -5 "$dir/sta_warnings.txt" | sed 's/^/    /'
    return 1
  fi

  # 4. iCE40
  local ice40_skip="" io_bits luts=0
  io_bits=$(python3 -c "import json,sys; p=json.load(open(sys.argv[1])); print(p['input_bits']+p['output_bits'])" "$dir/ports.json") \
    || { fail "$label" "cannot read $dir/ports.json"; return 1; }
  if [ $smoke -eq 1 ]; then
    ice40_skip="skipped (--smoke)"
  elif [ "$io_bits" -gt "$ICE40_MAX_IO" ]; then
    ice40_skip="n/a ($io_bits port bits > $ICE40_MAX_IO pins)"
  else
    if ! ANE_TOP="$top" ANE_SRCS="${TOP_SRCS[$i]}" ANE_CHPARAMS="$chparams" ANE_OUTDIR="$dir" \
         yosys -q -l "$dir/yosys_ice40.log" -c "$S/ice40.tcl" > /dev/null 2>&1; then
      fail "$label" "yosys synth_ice40 failed ($dir/yosys_ice40.log)"
      grep -m5 -A3 'ERROR' "$dir/yosys_ice40.log" | sed 's/^/    /'
      return 1
    fi
    luts=$(awk '/SB_LUT4/ {print $2}' "$dir/stat_ice40.txt" | tail -n 1)
    luts=${luts:-0}
  fi
  if [ -z "$ice40_skip" ] && [ "$luts" -gt "$ICE40_MAX_LCS" ]; then
    ice40_skip="n/a (does not fit: $luts LUT4 > $ICE40_MAX_LCS LCs of $ICE40_DEVICE)"
  elif [ -z "$ice40_skip" ]; then
    if ! nextpnr-ice40 "--$ICE40_DEVICE" --package "$ICE40_PACKAGE" --json "$dir/ice40.json" \
         --asc "$dir/ice40.asc" --pcf-allow-unconstrained --freq "$ICE40_FREQ_MHZ" --seed "$ICE40_SEED" \
         --timing-allow-fail --report "$dir/nextpnr.json" -q -l "$dir/nextpnr.log" > /dev/null 2>&1; then
      fail "$label" "nextpnr-ice40 failed ($dir/nextpnr.log)"
      grep -m5 -E 'ERROR|Error' "$dir/nextpnr.log" | sed 's/^/    /'
      return 1
    fi
  fi

  printf '%s\n' "$ice40_skip" > "$dir/ice40_skip.txt"
  printf '%s\n' "$fp" > "$dir/fingerprint"  # synthesis, timing and iCE40 done: reusable
}

run_top() {
  local i="$1" top label dir fp cfp note=""
  local -a srcs params pargs
  top_vars "$i"
  dir="$out/$label"
  fp="$(fingerprint "$i")" || { fail "$label" "cannot compute the fingerprint"; return 1; }
  cfp="$(check_fingerprint "$i")" || { fail "$label" "cannot compute the check's fingerprint"; return 1; }
  # --reuse: the netlists and figures are kept when the fingerprint matches (written once
  # synthesis, timing and iCE40 are done); the gate-level check too when its own matches
  if [ $reuse -eq 1 ] && [ -f "$dir/fingerprint" ] && [ -f "$dir/ice40_skip.txt" ] \
     && [ "$(cat "$dir/fingerprint")" = "$fp" ]; then
    if [ -f "$dir/check_fingerprint" ] && [ "$(cat "$dir/check_fingerprint")" = "$cfp" ] \
       && [ -f "$dir/summary.json" ] && [ -f "$dir/summary.line" ]; then
      echo "synth ok   $label (reused: inputs unchanged): $(cat "$dir/summary.line")"
      return 0
    fi
    rm -f "$dir/summary.line" "$dir/summary.json" "$dir/check_fingerprint"
    note=" (netlists and timing reused; gate-level check run again)"
  else
    synth_steps "$i" "$dir" "$fp" || return 1
  fi

  # 5. gate-level check (last: a failed check leaves the netlists for --reuse to check again)
  gate_check "$i" "$dir" || return 1

  # 6. summary
  collect_top "$i" "$dir" "$cfp" "$note"
}

start=$SECONDS
echo "synth: $mode mode, ${#TOP_MODULES[@]} top(s) from ${tops_file#$root/}, out $out, gate-level seed $seed, $cycles cycles"
failed=() summaries=() skipped=()
for i in "${!TOP_MODULES[@]}"; do
  [ -z "$only" ] || [ "$only" = "${TOP_LABELS[$i]}" ] || continue
  skip_this=0
  for k in "${skips[@]+"${skips[@]}"}"; do [ "$k" = "${TOP_LABELS[$i]}" ] && skip_this=1; done
  if [ $skip_this -eq 1 ]; then
    echo "synth skip ${TOP_LABELS[$i]}: --skip"
    skipped+=("${TOP_LABELS[$i]}")
    continue
  fi
  if [ "${TOP_LINTONLY[$i]}" = 1 ]; then
    echo "synth skip ${TOP_LABELS[$i]}: lint-only (too big to synthesize; make lint covers it)"
    continue
  fi
  if [ $smoke -eq 1 ] && [ -z "$only" ] && [ "${TOP_FULLONLY[$i]}" = 1 ]; then
    echo "synth skip ${TOP_LABELS[$i]}: full-only (make synth covers it)"
    continue
  fi
  if run_top "$i"; then
    summaries+=("$out/${TOP_LABELS[$i]}/summary.json")
  else
    failed+=("${TOP_LABELS[$i]}")
  fi
done
[ -z "$only" ] || [ ${#summaries[@]} -gt 0 ] || [ ${#failed[@]} -gt 0 ] || { echo "synth: no top $only" >&2; exit 2; }

if [ $selftest -eq 1 ] && [ -z "$only" ]; then
  if "$S/selftest.sh" --out "$out/selftest" --from "$out"; then :; else failed+=("selftest"); fi
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "synth: FAILED: ${failed[*]} ($((SECONDS - start)) s)"
  exit 1
fi

python3 "$S/results_section.py" "${summaries[@]}" > "$out/results_section.md"
if [ $smoke -eq 0 ] && [ $docs -eq 1 ]; then
  python3 "$S/results_section.py" --update "$root/docs/results.md" "${summaries[@]}"
  if [ ${#skipped[@]} -gt 0 ]; then
    # name the tops left out under the table (results_section.py is part of every top's
    # fingerprint, so the note is added here)
    python3 - "$root/docs/results.md" "${skipped[@]}" <<'PYEOF'
import sys
path, labels = sys.argv[1], sys.argv[2:]
text = open(path).read()
note = ("Not in this run (`scripts/synth.sh --skip`; a later `make synth` covers them): "
        + ", ".join(f"`{t}`" for t in labels) + ".\n\n")
end = text.index("<!-- synth:end -->")
tools = text.rfind("Tools: ", 0, end)
at = tools if tools >= 0 else end
open(path, "w").write(text[:at] + note + text[at:])
PYEOF
  fi
  echo "synth: rewrote the synth section of docs/results.md"
fi
echo "synth: all ${#summaries[@]} top(s) passed ($((SECONDS - start)) s)"
