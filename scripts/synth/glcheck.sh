#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Gate-level check of one top: Verilate the RTL and one or more synthesized netlists side by
# side, drive all of them with the same seeded random stimulus and compare every output port
# every cycle. Ports are discovered from the RTL (Verilator XML, ports.json from synth.sh) and
# each netlist's own port list (yosys write_json); both must agree.
#
#   glcheck.sh --top T --ports PORTS.json --out DIR --cycles N --seed S [--cache DIR]
#              [--param NAME=VALUE]... [--netlist TAG:MODULE:FILE.v]... [--gatesim TAG:FILE.blif]...
#              [--stim FILE] -- RTL_SOURCES...
#
# --netlist: a Verilog netlist, Verilated beside the RTL. --gatesim: a flat BLIF netlist of
# Yosys's internal cells (osu018.tcl writes gl.blif and glmap.blif), run by the project's own
# cycle-based gate-level simulator (glsim.h), for netlists too large to Verilate: the 8-lane
# core's 357,000 cells come to 681 files of C++ that would take hours to compile.
# --stim FILE: recorded inputs (constraints/glstim/, format in glcheck.py), replayed and compared
# before the N random cycles.
#
# --cache DIR keeps the compiled Verilator runtime (verilated.o, verilated_threads.o: 7 of the
# ~10 s of a small build) for the next check with the same Verilator, compiler and flags.
#
# Exit 0 when every comparison matches, 1 on the first mismatch (cycle, port and values are
# printed), 2 when the check itself cannot be built.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

top="" ports="" out="" cycles=2000 seed=1 cache="" stim=""
params=() netlists=() gatesims=()
while [ $# -gt 0 ]; do
  case "$1" in
    --top) top="$2"; shift 2 ;;
    --ports) ports="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --cycles) cycles="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --cache) cache="$2"; shift 2 ;;
    --stim) stim="$2"; shift 2 ;;
    --param) params+=("$2"); shift 2 ;;
    --netlist) netlists+=("$2"); shift 2 ;;
    --gatesim) gatesims+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "glcheck.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
srcs=("$@")
[ -n "$top" ] && [ -n "$ports" ] && [ -n "$out" ] && [ $((${#netlists[@]} + ${#gatesims[@]})) -gt 0 ] \
  && [ ${#srcs[@]} -gt 0 ] \
  || { echo "glcheck.sh: missing arguments (see the header of $0)" >&2; exit 2; }

mkdir -p "$out"
out="$(cd "$out" && pwd)"
abspath() { local f; for f in "$@"; do (cd "$(dirname "$f")" && echo "$(pwd)/$(basename "$f")"); done; }
mapfile -t srcs < <(abspath "${srcs[@]}")
[ -z "$stim" ] || stim="$(abspath "$stim")"
gen_args=(--ports "$ports" --outdir "$out")
for p in "${params[@]+"${params[@]}"}"; do gen_args+=(--param "$p"); done
nl_files=()
for spec in "${netlists[@]+"${netlists[@]}"}"; do
  tag="${spec%%:*}"; rest="${spec#*:}"; module="${rest%%:*}"; file="$(abspath "${rest#*:}")"
  # the netlist's own port list, as yosys reads it back (-lib: the modules' interfaces only, the
  # same ports, directions and widths without elaborating the cells: seconds instead of most of
  # an hour for the 8-lane core's netlists)
  yosys -q -p "read_verilog -lib $file; write_json $out/$tag.ports.json" > "$out/$tag.ports.log" 2>&1 \
    || { echo "glcheck ERROR $top: yosys cannot read netlist $file (log: $out/$tag.ports.log)" >&2; exit 2; }
  gen_args+=(--netlist "$tag:$module:$out/$tag.ports.json")
  nl_files+=("$file")
done
for spec in "${gatesims[@]+"${gatesims[@]}"}"; do
  tag="${spec%%:*}"; file="$(abspath "${spec#*:}")"
  [ -f "$file" ] || { echo "glcheck ERROR $top: no netlist $file" >&2; exit 2; }
  gen_args+=(--gatesim "$tag:$file")
done
python3 "$here/glcheck.py" gen "${gen_args[@]}" || exit $?

# -O2 without two optimisations: Verilator 5.006 mis-simulates some Yosys netlists. Its V3Gate
# pass evaluates a vector whose bits feed other bits of the same vector through alias wires in
# the wrong order (stale values after an input change; scripts/synth/selftest/vl_gate_bug_gl.v,
# kept covered by selftest.sh): -fno-gate. Its DFG optimiser gave false mismatches on the
# ABC-mapped netlist of the 16-lane ane_shifter (the same netlist and stimulus pass with
# -fno-dfg, and at -O0): -fno-dfg. -O0 itself is no option: g++ runs out of memory on the
# unoptimised code of the lane's netlists.
# Style warnings on yosys netlists mean nothing here and go to build.log. The C++ is compiled at
# -O0: the run takes milliseconds, the compile is the cost (about a third less than at -Os).
vflags=(-O2 -fno-gate -fno-dfg -j 2 --x-assign 0 --x-initial 0 -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0"
        -Wno-fatal -Wno-lint -Wno-style -Wno-UNOPTFLAT)
runtime=(verilated.o verilated_threads.o)
rm -rf "$out/obj"
mkdir -p "$out/obj"
cache_root="$cache"
if [ -n "$cache" ]; then
  key="$( { verilator --version; "${CXX:-c++}" --version | head -1; echo "${vflags[*]}"; } | sha1sum | cut -c1-16)"
  cache="$cache/$key"
  if [ -f "$cache/verilated_threads.o" ]; then
    # make would rebuild them (they depend on the freshly generated .mk): `make -o` says don't
    for o in "${runtime[@]}"; do cp -p "$cache/$o" "$out/obj/$o"; vflags+=(-MAKEFLAGS "-o $o"); done
  fi
fi
if [ ${#gatesims[@]} -gt 0 ]; then
  # the simulator itself is small and runs the whole netlist every pass: compiled at -O2, once
  # per version of its source and compiler when there is a cache (after the runtime's key: the
  # flags below name this check's folder)
  gkey="$( { cat "$here/glsim.cc" "$here/glsim.h"; "${CXX:-c++}" --version | head -1; } | sha1sum | cut -c1-16)"
  gobj="$out/obj/glsim_lib.o"
  if [ -n "$cache_root" ] && [ -f "$cache_root/glsim-$gkey.o" ]; then
    cp -p "$cache_root/glsim-$gkey.o" "$gobj"
  else
    "${CXX:-c++}" -std=c++17 -O2 -c "$here/glsim.cc" -o "$gobj" > "$out/glsim_build.log" 2>&1 \
      || { echo "glcheck ERROR $top: cannot compile glsim.cc (log: $out/glsim_build.log)" >&2; exit 2; }
    if [ -n "$cache_root" ]; then
      mkdir -p "$cache_root" && cp -p "$gobj" "$cache_root/glsim-$gkey.o.tmp.$$" \
        && mv -f "$cache_root/glsim-$gkey.o.tmp.$$" "$cache_root/glsim-$gkey.o" || true
    fi
  fi
  vflags+=(-CFLAGS "-I$here" -LDFLAGS "$gobj")
fi
if ! verilator --cc --exe --build "${vflags[@]}" \
      --top-module glcheck_top -Mdir "$out/obj" -o glcheck \
      "${srcs[@]}" "${nl_files[@]+"${nl_files[@]}"}" "$out/glcheck_top.sv" "$out/tb.cpp" > "$out/build.log" 2>&1; then
  echo "glcheck ERROR $top: Verilator build failed (log: $out/build.log)" >&2
  grep -E '%Error' "$out/build.log" | head -5 >&2 || tail -5 "$out/build.log" >&2
  exit 2
fi
if [ -n "$cache" ] && [ ! -f "$cache/verilated_threads.o" ]; then
  tmp="$(mktemp -d "${cache%/*}.tmp.XXXXXX" 2>/dev/null || true)"
  if [ -n "$tmp" ]; then
    for o in "${runtime[@]}"; do cp -p "$out/obj/$o" "$tmp/$o"; done
    mkdir -p "${cache%/*}"
    mv -T "$tmp" "$cache" 2>/dev/null || rm -rf "$tmp"  # another check may have filled it first
  fi
fi

set +e
"$out/obj/glcheck" --cycles "$cycles" --seed "$seed" ${stim:+--stim "$stim"} > "$out/run.log" 2>&1
rc=$?
set -e
cat "$out/run.log"
if [ $rc -ne 0 ]; then
  [ $rc -eq 1 ] || echo "glcheck FAIL $top: the check binary exited with $rc" >&2
  exit 1
fi
exit 0
