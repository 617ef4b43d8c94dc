#!/usr/bin/env bash
# Runs the terms-hash benchmark matrix and prints the comparison table.
#   scripts/bench_terms_hash.sh [--quick] [--filter REGEX] [--repetitions N] [--out FILE.json]
# --quick: light sizes only, 3 repetitions (what scripts/run.sh uses).
# Repetitions are randomly interleaved across cells so that drift on a noisy
# machine spreads over all cells instead of biasing one.
set -euo pipefail
cd "$(dirname "$0")/.."

filter="."
reps=5
out="build/terms_hash_benchmark.json"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) filter="/light/"; reps=3 ;;
    --filter) filter="$2"; shift ;;
    --repetitions) reps="$2"; shift ;;
    --out) out="$2"; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target invert_terms_hash_benchmark >/dev/null
build/release/benchmarks/invert_terms_hash_benchmark \
  --benchmark_filter="$filter" \
  --benchmark_repetitions="$reps" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_min_time=0.2 \
  --benchmark_out="$out" --benchmark_out_format=json >/dev/null
python3 scripts/bench_table.py "$out"
echo "raw results: $out"
