#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer target of tb/fuzz: first every saved regression input
# (tb/fuzz/regressions/TARGET/*, each once), then a seeded fuzzing run from the seed corpus
# (tb/fuzz/corpus/TARGET) with the target's dictionary. Exits 0 when nothing was found and the
# run made all its executions; otherwise 1, with the end of the log.
#
#   tb/fuzz/run.sh BUILD_DIR TARGET RUNS [MAX_SECONDS]
#
# make fuzz runs it with RUNS=1000000 for every target; ctest (fuzz.TARGET) with a few thousand.
# Outputs, under BUILD_DIR: corpus/TARGET (the inputs the run added; fresh each run, so that a
# run is reproducible), findings/TARGET/ (the input of a crash, timeout or leak, with its kind
# as the file name prefix), logs/TARGET.log (libFuzzer's output).
set -uo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD_DIR TARGET RUNS [MAX_SECONDS]" >&2
  exit 2
fi
build=$1
target=$2
runs=$3
max_seconds=${4:-3600}
here=$(cd "$(dirname "$0")" && pwd)
bin="$build/fuzz_$target"
if [ ! -x "$bin" ]; then
  echo "fuzz.$target: $bin is missing (build it: make fuzz, or the main build with clang++-14)" >&2
  exit 1
fi
case $target in
  npy) dict=npy.dict ;;
  value) dict=value.dict ;;
  junit) dict=junit.dict ;;
  hwx) dict=hwx.dict ;;
  tdyaml) dict=tdyaml.dict ;;
  onnx) dict=onnx.dict ;;
  *) dict=yaml.dict ;;
esac

work="$build/corpus/$target"
findings="$build/findings/$target"
log="$build/logs/$target.log"
rm -rf "$work"
mkdir -p "$work" "$findings" "$(dirname "$log")"

# Readable reports: symbolized stacks when llvm-symbolizer is there, UBSan with its stack.
if [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

# -timeout: an input that takes longer is a hang (a finding); the readers take milliseconds.
# -rss_limit_mb: more memory than that is a finding too (the fuzz build caps tensors at 2^12
# elements, so no valid input needs much).
# The regression inputs are replayed whole (-max_len would cut them).
limits=(-timeout=10 -rss_limit_mb=2048 "-artifact_prefix=$findings/")

fail() {
  echo "fuzz.$target: FAILED: $1" >&2
  if [ -f "$log" ]; then
    echo "---- last lines of $log ----" >&2
    grep -v -E '^#[0-9]+.*(NEW|REDUCE|pulse)|NEW_FUNC' "$log" | tail -n 60 >&2
  fi
  exit 1
}

# 1. The regression inputs: each one that once crashed, hung or misbehaved must now pass.
regressions=()
if [ -d "$here/regressions/$target" ]; then
  while IFS= read -r -d '' f; do regressions+=("$f"); done \
    < <(find "$here/regressions/$target" -type f ! -name '*.md' -print0 | sort -z)
fi
if [ ${#regressions[@]} -gt 0 ]; then
  if ! "$bin" "${limits[@]}" "${regressions[@]}" > "$log" 2>&1; then
    fail "a regression input fails again"
  fi
  echo "fuzz.$target: ${#regressions[@]} regression inputs pass"
fi

# 2. The seeded run. The work corpus comes first: libFuzzer adds new inputs to the first folder
# only, so the seed corpus in the source tree is never written.
start=$(date +%s)
"$bin" "${limits[@]}" -max_len=4096 -seed=1 -runs="$runs" -max_total_time="$max_seconds" \
  -dict="$here/dict/$dict" -print_final_stats=1 "$work" "$here/corpus/$target" > "$log" 2>&1
status=$?
seconds=$(( $(date +%s) - start ))

# libFuzzer's figures: the last status line ("#N ... cov: C ft: F corp: K/Sb ...") and the
# final stats.
last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<< "$last")
[ $status -eq 0 ] || fail "libFuzzer reported a finding (exit $status); the input is in $findings/"
[ -n "$executed" ] || fail "no final statistics in the log"
echo "fuzz.$target: $executed executions in ${seconds} s, cov $cov, ft $ft, corpus $corp (inputs/bytes), no finding"
if [ "$executed" -lt "$runs" ]; then
  fail "stopped by the time guard (-max_total_time=$max_seconds) after $executed of $runs executions"
fi
