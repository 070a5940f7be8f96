#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Self-test of the flow: proves that lint, synth and the gate-level check can fail, and that a
# clocked top with parameter overrides goes through. Run at the end of every `scripts/synth.sh`
# run but --only and --no-selftest (make synth, make synth-smoke).
#
#   scripts/synth/selftest.sh [--out DIR] [--from SYNTH_OUT_DIR]
#
#   1 lint      selftest/tops_ok.txt lints clean; selftest/tops_bad.txt fails
#   2 clocked   selftest/tops_ok.txt (fx_acc: clk_i/rst_ni, valid/ready, enum override,
#               struct and 70-bit ports) passes synth --smoke, gate-level check included
#   3 failures  selftest/tops_bad.txt: latch, undriven net, implicit net, and a real Yosys 0.23
#               miscompile (packed array of structs) each fail synth for the right reason
#   4 mutant    a project top's netlist with one output bit inverted fails the check
#   5 mutant    the clocked fixture's netlist with one output bit inverted fails the check
#   6 verilator the Verilator 5.006 gate-optimisation bug shape passes with the check's flags
#   7 clockgate the clocked fixture synthesized with one clock gate left out of its flip-flops'
#               clock (clockgate.py --mutant) fails the gate-level check of the mapped netlist
#   8 gatesim   the check's own gate-level simulator (glsim.h, for tops too large to Verilate):
#               the clocked fixture passes, and its clock-gating mutant, an inverted output bit
#               and the two Yosys miscompile fixtures fail, as they do Verilated
# Prints one line per test, exits 1 when any test does not behave as expected.
set -euo pipefail
orig="$(pwd)"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root="$(pwd)"
S="$root/scripts/synth"
T="$S/selftest"
abs() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$orig/$1" ;; esac; }

out="$root/out/synth/selftest" from=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$(abs "$2")"; shift 2 ;;
    --from) from="$(abs "$2")"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "selftest.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
rm -rf "$out"
mkdir -p "$out"
export ANE_VLCACHE="${ANE_VLCACHE:-$out/.vlcache}"  # shared with the synth.sh runs below
bad=0
ok() { echo "selftest ok    $1"; }
no() { echo "selftest FAIL  $1"; shift; for l in "$@"; do echo "    $l"; done; bad=1; }
# run NAME LOG CMD...: run CMD, keep its output in LOG, set RC
run() { local log="$1"; shift; set +e; "$@" > "$log" 2>&1; RC=$?; set -e; }
has() { grep -qF -- "$2" "$1"; }

mutant_test() {  # NAME DIR: invert one output bit of DIR/gl.v, expect a mismatch
  local name="$1" dir="$2" top srcs params=() m="$out/mutant_$1"
  top="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["top"])' "$dir/ports.json")"
  mkdir -p "$m"
  # sources and overrides of that run (synth.sh keeps them in srcs.txt and params.txt)
  read -r -a srcs <<< "$(cat "$dir/srcs.txt")"
  read -r -a params <<< "$(cat "$dir/params.txt")" || true
  local pargs=()
  for p in "${params[@]+"${params[@]}"}"; do pargs+=(--param "$p"); done
  yosys -q -p "read_verilog $dir/gl.v; proc; write_json $m/gl.json" > "$m/yosys.log" 2>&1
  python3 "$S/glcheck.py" mutant --netlist "$dir/gl.v" --json "$m/gl.json" --module "${top}_gl" --out "$m/mutant.v" \
    > "$m/mutant.txt"
  run "$m/glcheck.log" "$S/glcheck.sh" --top "$top" --ports "$dir/ports.json" --out "$m/glcheck" --cycles 2000 \
    --seed 1 --cache "$ANE_VLCACHE" "${pargs[@]+"${pargs[@]}"}" --netlist "gl:${top}_gl:$m/mutant.v" -- "${srcs[@]}"
  if [ $RC -eq 1 ] && has "$m/glcheck.log" "glcheck FAIL $top: netlist gl differs from the RTL"; then
    ok "$name mutant ($(cat "$m/mutant.txt" | sed 's/^mutant: //')) caught: $(grep -o 'at cycle.*' "$m/glcheck.log" | head -1)"
  else
    no "$name mutant not caught: exit $RC ($m/glcheck.log)" "$(head -5 "$m/glcheck.log")"
  fi
}

group_a() {  # tests 1, 2, 5, 7
  # 1 lint
  run "$out/lint_ok.log" scripts/lint.sh --tops "$T/tops_ok.txt" --rtl "$T"
  if [ $RC -eq 0 ]; then ok "lint passes the clocked fixture"; else no "lint of tops_ok.txt: exit $RC" "$(cat "$out/lint_ok.log")"; fi
  run "$out/lint_bad.log" scripts/lint.sh --tops "$T/tops_bad.txt" --rtl "$T"
  n=$(grep -c '^lint FAIL' "$out/lint_bad.log" || true)
  if [ $RC -ne 0 ] && [ "$n" -ge 3 ]; then ok "lint fails latch/undriven/implicit fixtures ($n FAIL lines)"
  else no "lint of tops_bad.txt: exit $RC, $n FAIL lines (want non-zero, >= 3)"; fi

  # 2 clocked fixture through the whole smoke flow
  run "$out/clocked.log" scripts/synth.sh --smoke --no-selftest --glcheck verilator --tops "$T/tops_ok.txt" --rtl "$T" --out "$out/clocked"
  if [ $RC -eq 0 ] && has "$out/clocked.log" "synth ok   fx_acc"; then
    ok "clocked fixture passes: $(grep -o 'gate-level pass.*' "$out/clocked.log")"
  else
    no "clocked fixture: exit $RC" "$(tail -5 "$out/clocked.log")"
  fi

  # 5 mutant of the clocked fixture
  if [ -f "$out/clocked/fx_acc__Mode_fx_pkg__ModeXor/gl.v" ]; then
    mutant_test clocked "$out/clocked/fx_acc__Mode_fx_pkg__ModeXor"
  else
    no "clocked mutant: no fixture netlist (test 2 failed)"
  fi

  # 7 a clock-gating mistake in the mapped netlist is caught
  ANE_CLOCKGATE_ARGS=--mutant run "$out/cgmutant.log" scripts/synth.sh --smoke --no-selftest --glcheck verilator \
    --tops "$T/tops_ok.txt" --rtl "$T" --out "$out/cgmutant"
  if [ $RC -ne 0 ] && has "$out/cgmutant.log" "gate-level check failed" \
     && grep -q "MUTANT" "$out/cgmutant/fx_acc__Mode_fx_pkg__ModeXor/clockgate.txt" \
     && grep -q "netlist glmap differs" "$out/cgmutant/fx_acc__Mode_fx_pkg__ModeXor/glcheck.log"; then
    ok "clock-gating mutant caught: $(grep -o 'at cycle.*' "$out/cgmutant/fx_acc__Mode_fx_pkg__ModeXor/glcheck.log" | head -1)"
  else
    no "clock-gating mutant not caught: exit $RC ($out/cgmutant.log)" "$(tail -3 "$out/cgmutant.log")"
  fi

  # 8 the same fixture and clock-gating mutant through the gate-level simulator
  local fx=fx_acc__Mode_fx_pkg__ModeXor
  run "$out/gs_clocked.log" scripts/synth.sh --smoke --no-selftest --glcheck gatesim --tops "$T/tops_ok.txt" \
    --rtl "$T" --out "$out/gs_clocked"
  if [ $RC -eq 0 ] && has "$out/gs_clocked.log" "synth ok   fx_acc" && has "$out/gs_clocked.log" "gatesim)"; then
    ok "gatesim: clocked fixture passes: $(grep -o 'gate-level pass.*' "$out/gs_clocked.log")"
  else
    no "gatesim: clocked fixture: exit $RC" "$(tail -5 "$out/gs_clocked.log")"
  fi
  if [ -f "$out/gs_clocked/$fx/glmap.blif" ]; then
    local m="$out/gs_mutant" pargs=()
    mkdir -p "$m"
    for p in $(cat "$out/gs_clocked/$fx/params.txt"); do pargs+=(--param "$p"); done
    python3 "$S/glcheck.py" mutant-blif --netlist "$out/gs_clocked/$fx/glmap.blif" --out "$m/mutant.blif" > "$m/mutant.txt"
    run "$m/glcheck.log" "$S/glcheck.sh" --top fx_acc --ports "$out/gs_clocked/$fx/ports.json" --out "$m/glcheck" \
      --cycles 2000 --seed 1 --cache "$ANE_VLCACHE" "${pargs[@]}" --gatesim "glmap:$m/mutant.blif" \
      -- $(cat "$out/gs_clocked/$fx/srcs.txt")
    if [ $RC -eq 1 ] && has "$m/glcheck.log" "glcheck FAIL fx_acc: netlist glmap differs from the RTL"; then
      ok "gatesim: mutant ($(sed 's/^mutant: //' "$m/mutant.txt")) caught: $(grep -o 'at cycle.*' "$m/glcheck.log" | head -1)"
    else
      no "gatesim: mutant not caught: exit $RC ($m/glcheck.log)" "$(head -5 "$m/glcheck.log")"
    fi
  else
    no "gatesim: no fixture BLIF netlist"
  fi
  ANE_CLOCKGATE_ARGS=--mutant run "$out/gs_cgmutant.log" scripts/synth.sh --smoke --no-selftest --glcheck gatesim \
    --tops "$T/tops_ok.txt" --rtl "$T" --out "$out/gs_cgmutant"
  if [ $RC -ne 0 ] && has "$out/gs_cgmutant.log" "gate-level check failed" \
     && grep -q "netlist glmap differs" "$out/gs_cgmutant/$fx/glcheck.log"; then
    ok "gatesim: clock-gating mutant caught: $(grep -o 'at cycle.*' "$out/gs_cgmutant/$fx/glcheck.log" | head -1)"
  else
    no "gatesim: clock-gating mutant not caught: exit $RC ($out/gs_cgmutant.log)" "$(tail -3 "$out/gs_cgmutant.log")"
  fi
}

group_b() {  # tests 3, 4, 6
  # 3 each bad fixture fails for its reason
  run "$out/bad.log" scripts/synth.sh --smoke --no-selftest --glcheck verilator --tops "$T/tops_bad.txt" --rtl "$T" --out "$out/bad"
  for want in "synth FAIL fx_latch: latch inferred" \
              "synth FAIL fx_nodriver: yosys warnings" "is used but has no driver" \
              "synth FAIL fx_implicit: yosys warnings" "is implicitly declared" \
              "synth FAIL fx_pkdarr: gate-level check failed" "glcheck FAIL fx_pkdarr: netlist gl differs" \
              "synth FAIL fx_fieldrng: gate-level check failed" "glcheck FAIL fx_fieldrng: netlist gl differs"; do
    if [ $RC -ne 0 ] && has "$out/bad.log" "$want"; then ok "bad fixture: '$want'"
    else no "bad fixtures: exit $RC, no line '$want' ($out/bad.log)"; fi
  done
  # 8 the Yosys miscompiles are caught by the gate-level simulator too
  run "$out/gs_bad.log" scripts/synth.sh --smoke --no-selftest --glcheck gatesim --tops "$T/tops_bad.txt" --rtl "$T" \
    --out "$out/gs_bad"
  for want in "glcheck FAIL fx_pkdarr: netlist gl differs" "glcheck FAIL fx_fieldrng: netlist gl differs"; do
    if [ $RC -ne 0 ] && has "$out/gs_bad.log" "$want"; then ok "gatesim: bad fixture: '$want'"
    else no "gatesim: bad fixtures: exit $RC, no line '$want' ($out/gs_bad.log)"; fi
  done

  # 4 mutant of a project top: the one with the smallest netlist (the check of a large one, the
  # 8-lane core's, takes Yosys more than 20 minutes to read back)
  real=""
  if [ -n "$from" ]; then
    while read -r gl; do
      label="$(basename "$(dirname "$gl")")"
      if [ -f "$from/$label/ports.json" ]; then real="$from/$label"; break; fi
    done < <(ls -Sr "$from"/*/gl.v 2>/dev/null)
  fi
  if [ -z "$real" ]; then
    first="$(awk '{ sub(/#.*/, "") } NF { print $1; exit }' constraints/tops.txt)"  # no pipe: SIGPIPE
    run "$out/real.log" scripts/synth.sh --smoke --no-selftest --glcheck verilator --only "$first" --out "$out/real"
    real="$out/real/$first"
  fi
  mutant_test project "$real"

  # 6 Verilator 5.006 gate-optimisation bug shape must pass with glcheck.sh's flags
  v="$out/vl_gate_bug"
  mkdir -p "$v"
  python3 "$S/glcheck.py" shell --top vl_gate_bug --out "$v/glcheck_shell.sv"
  verilator --xml-only --xml-output "$v/rtl.xml" -Wno-fatal -Wno-PINMISSING "$T/vl_gate_bug.sv" "$v/glcheck_shell.sv" \
    --top-module glcheck_shell > "$v/elaborate.log" 2>&1
  python3 "$S/glcheck.py" ports --xml "$v/rtl.xml" --top vl_gate_bug --out "$v/ports.json"
  run "$v/glcheck.log" "$S/glcheck.sh" --top vl_gate_bug --ports "$v/ports.json" --out "$v/glcheck" --cycles 2000 \
    --cache "$ANE_VLCACHE" \
    --netlist "gl:vl_gate_bug_gl:$T/vl_gate_bug_gl.v" -- "$T/vl_gate_bug.sv"
  if [ $RC -eq 0 ]; then ok "Verilator V3Gate bug shape simulates right with the check's flags"
  else no "Verilator V3Gate bug shape: exit $RC (did glcheck.sh lose -fno-gate?)" "$(head -3 "$v/glcheck.log")"; fi
}

# The two groups are independent; run them side by side (2 cores) and print in order.
( group_a ) > "$out/group_a.txt" 2>&1 &
pid_a=$!
( group_b ) > "$out/group_b.txt" 2>&1 &
pid_b=$!
rc_a=0 rc_b=0
wait $pid_a || rc_a=$?
wait $pid_b || rc_b=$?
cat "$out/group_a.txt" "$out/group_b.txt"
if [ $rc_a -ne 0 ] || [ $rc_b -ne 0 ]; then
  echo "selftest: a test group stopped early (exit $rc_a/$rc_b)"; bad=1
fi
if grep -q '^selftest FAIL' "$out/group_a.txt" "$out/group_b.txt"; then bad=1; fi
if [ $bad -ne 0 ]; then echo "selftest: FAILED (logs in $out)"; exit 1; fi
echo "selftest: all passed"
