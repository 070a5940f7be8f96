#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make results: regenerate docs/results.md. Every figure there comes from a command run here:
#   the oracle and RTL benchmarks (Google Benchmark)   -> section "bench"
#   make synth (Yosys, OpenSTA, nextpnr)                -> section "synth"
#   the core's area and Fmax from its blocks' figures    -> section "core-estimate"
# scripts/results.sh [BUILD_DIR] [--bench-only] skips the synthesis (about 60 minutes from scratch;
# tops whose inputs did not change since the last run in out/synth are reused: synth.sh --reuse).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
bench_only=0
for arg in "$@"; do
  case "$arg" in
    --bench-only) bench_only=1 ;;
    *) build=$arg ;;
  esac
done
out=out/results
mkdir -p "$out"
echo "results: oracle benchmark"
"$build/oracle_bench" --benchmark_min_time=0.5 --benchmark_format=json --benchmark_out="$out/oracle_bench.json" \
  --benchmark_out_format=json > /dev/null
echo "results: RTL benchmark (256-lane MAC array and neural-engine core, block cycle figures; about 10 minutes)"
"$build/rtl_bench" --benchmark_min_time=0.5 --benchmark_format=json --benchmark_out="$out/rtl_bench.json" \
  --benchmark_out_format=json > /dev/null
python3 scripts/bench_section.py --update docs/results.md "$out/oracle_bench.json" "$out/rtl_bench.json"
if [ "$bench_only" = 1 ]; then
  echo "results: docs/results.md bench section updated (synthesis skipped)"
  exit 0
fi
echo "results: synthesis (make synth)"
scripts/synth.sh --reuse
python3 scripts/core_estimate.py --update docs/results.md
echo "results: docs/results.md updated"
