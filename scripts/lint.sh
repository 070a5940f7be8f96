#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Verilator lint of every RTL top in constraints/tops.txt:
#   verilator --lint-only -Wall --assert rtl/ane.vlt <sources> --top-module <top>
# Zero warnings allowed: any output from Verilator fails the top. One line per top (ok/FAIL),
# exit 1 when any top fails. Waivers live only in rtl/ane.vlt, one reason each.
#
#   scripts/lint.sh [--tops FILE] [--rtl DIR]     (defaults: constraints/tops.txt, rtl/)
#
# A top with parameter overrides is linted through a one-line shell module that instantiates
# it with those overrides (Verilator's -G cannot set enum-typed parameters); only the shell's
# unconnected pins (PINMISSING) are waived for that run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"

tops_file=constraints/tops.txt
rtl_dir=rtl
while [ $# -gt 0 ]; do
  case "$1" in
    --tops) tops_file="$2"; shift 2 ;;
    --rtl) rtl_dir="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "lint.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

# shellcheck source=synth/tops.sh
source scripts/synth/tops.sh
ane_read_tops "$tops_file" "$rtl_dir"
vlt="$root/rtl/ane.vlt"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

failed=0
for i in "${!TOP_MODULES[@]}"; do
  top="${TOP_MODULES[$i]}" label="${TOP_LABELS[$i]}"
  read -r -a srcs <<< "${TOP_SRCS[$i]}"
  read -r -a params <<< "${TOP_PARAMS[$i]}" || true
  cmd=(verilator --lint-only -Wall --assert "$vlt" "${srcs[@]}")
  if [ ${#params[@]} -gt 0 ]; then
    pargs=()
    for p in "${params[@]}"; do pargs+=(--param "$p"); done
    mkdir -p "$tmp/$label"
    python3 scripts/synth/glcheck.py shell --top "$top" "${pargs[@]}" --out "$tmp/$label/glcheck_shell.sv"
    cmd+=("$tmp/$label/glcheck_shell.sv" --top-module glcheck_shell -Wno-PINMISSING)
  else
    cmd+=(--top-module "$top")
  fi
  set +e
  output="$("${cmd[@]}" 2>&1)"
  rc=$?
  set -e
  if [ $rc -eq 0 ] && [ -z "$output" ]; then
    printf 'lint ok    %s\n' "$label"
  else
    printf 'lint FAIL  %s  (%s)\n' "$label" "${cmd[*]}"
    printf '%s\n' "$output" | sed 's/^/    /'
    failed=1
  fi
done
exit $failed
