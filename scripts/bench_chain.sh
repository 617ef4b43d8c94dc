#!/usr/bin/env bash
# The whole in-memory indexing chain on the sample corpus (or $INVERT_CORPUS):
# docs/s, tokens/s, MB/s and RAM bytes per token for both layouts, analyzed
# and pre-analyzed input, with and without term vectors.
#   scripts/bench_chain.sh [--repetitions N] [--filter REGEX]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=5
filter="."
while [ $# -gt 0 ]; do
  case "$1" in
    --repetitions) reps="$2"; shift ;;
    --filter) filter="$2"; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target invert_chain_benchmark >/dev/null
out=build/chain_benchmark.json
build/release/benchmarks/invert_chain_benchmark --benchmark_filter="$filter" \
  --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
  --benchmark_min_time=0.3 --benchmark_out="$out" --benchmark_out_format=json >/dev/null
python3 scripts/bench_medians.py "$out" docs_per_s tokens_per_s MB_per_s ram_bytes_per_token "$@"
echo
echo "flush alone (sort + write every file of the segment to a temp folder):"
python3 scripts/bench_medians.py "$out" real_time cpu_time MB_written_per_s ms_per_million_terms \
  segment_bytes terms --prefix=flush/ "$@"
