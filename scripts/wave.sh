#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make wave TEST=Suite.Name: reruns one GoogleTest with FST tracing and opens GTKWave with the
# save file sim/<top>.gtkw of the block the test drives. Without a display it prints the
# command to open the waveform instead.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
test_name=${2:-}
if [ -z "$test_name" ]; then
  echo "usage: make wave TEST=Suite.Name   (RTL tests: $(ls "$build"/rtl_*_test 2>/dev/null | xargs -n1 basename | tr '\n' ' '))" >&2
  exit 2
fi

binary=""
for b in "$build"/rtl_*_test; do
  [ -x "$b" ] || continue
  if "$b" --gtest_list_tests --gtest_filter="$test_name" | grep -q '^  '; then
    binary=$b
    break
  fi
done
if [ -z "$binary" ]; then
  echo "wave: no RTL test matches '$test_name' (list them with: $build/rtl_<name>_test --gtest_list_tests)" >&2
  exit 2
fi

wave_dir=out/wave
mkdir -p "$wave_dir"
rm -f "$wave_dir"/*.fst "$wave_dir"/*.top
echo "wave: running $(basename "$binary") --gtest_filter=$test_name with tracing into $wave_dir/"
ANE_WAVE_DIR=$wave_dir "$binary" --gtest_filter="$test_name" || echo "wave: the test failed; the waveform shows the failing run"

fst=$(ls -t "$wave_dir"/*.fst 2>/dev/null | head -n 1 || true)
if [ -z "$fst" ]; then
  echo "wave: the test wrote no waveform (is it an RTL test?)" >&2
  exit 1
fi
top=$(cat "${fst%.fst}.top")
save=sim/$top.gtkw
[ -f "$save" ] || { echo "wave: no save file $save for top $top" >&2; exit 1; }
echo "wave: $fst  (top $top, save file $save)"
if [ -n "${DISPLAY:-}" ] && command -v gtkwave >/dev/null; then
  exec gtkwave "$fst" "$save"
else
  echo "wave: no display; open it with:  gtkwave $fst $save"
fi
