#!/usr/bin/env bash
# make results: regenerate docs/results.md. Every figure there comes from a command run here:
#   the oracle benchmark (Google Benchmark)   -> section "bench"
#   make synth (Yosys, OpenSTA, nextpnr)      -> section "synth"
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=out/results
mkdir -p "$out"
echo "results: oracle benchmark"
"$build/oracle_bench" --benchmark_min_time=0.5 --benchmark_format=json --benchmark_out="$out/oracle_bench.json" \
  --benchmark_out_format=json > /dev/null
python3 scripts/bench_section.py --update docs/results.md "$out/oracle_bench.json"
echo "results: synthesis (make synth)"
scripts/synth.sh
echo "results: docs/results.md updated"
