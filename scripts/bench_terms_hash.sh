#!/usr/bin/env bash
# Runs the terms-hash benchmark matrix and prints the comparison table.
#   scripts/bench_terms_hash.sh [--quick] [--filter REGEX] [--repetitions N] [--out FILE.json]
#                               [--build-dir DIR] [--with-lucene [--rounds N] [--scaled]]
# --quick: light sizes only, 3 repetitions (what scripts/run.sh uses); with
#   --with-lucene a smoke run: 1 round, forks of 1 warm-up + 2 segments,
#   invert's doc and chain rows only (about 2 minutes on a quiet machine;
#   Lucene is under-warmed there: check that it runs, do not quote it).
# Repetitions are randomly interleaved across cells so that drift on a noisy
# machine spreads over all cells instead of biasing one.
# --build-dir DIR: configure and build there (Release) instead of the release
#   preset's build/release.
#
# --with-lucene: Lucene 8.8 in the same run, on the same token streams
# (benchmarks/peers/LuceneTermsHash.java; Java and Debian's liblucene8-java,
# installed by benchmarks/peers/build.sh --install). invert_dump_workload
# writes the streams to files that the Java side loads; then N rounds
# (--rounds, default 5) alternate one invert run of every cell (repetitions
# per round: --repetitions, default 1) with one Lucene fork (a JVM launch,
# -Xms = -Xmx, -XX:+AlwaysPreTouch, warm-up + measured segments) per
# workload, in a shuffled order. The table has invert's layouts, Lucene, the
# flat_hash_map floor and the ratios per cell, a flush/RAM table and the
# identity check of the streams (exit 1 if they differ). Light size only
# unless --scaled (scaled only: V = 2M, 16M tokens; much longer). Everything
# is kept under build/terms_hash_lucene/.
set -euo pipefail
cd "$(dirname "$0")/.."

filter=""
reps=""
out=""
build=""
lucene=0
quick=0
rounds=5
size=light
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --filter) filter="$2"; shift ;;
    --repetitions) reps="$2"; shift ;;
    --out) out="$2"; shift ;;
    --build-dir) build="$2"; shift ;;
    --with-lucene) lucene=1 ;;
    --rounds) rounds="$2"; shift ;;
    --scaled) size=scaled ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

bash scripts/setup.sh
if [ -n "$build" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
else
  cmake --preset release >/dev/null
  build=build/release
fi
targets=(invert_terms_hash_benchmark)
[ $lucene -eq 1 ] && targets+=(invert_dump_workload)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >/dev/null
bench="$build/benchmarks/invert_terms_hash_benchmark"

if [ $lucene -eq 0 ]; then
  if [ $quick -eq 1 ]; then
    filter="${filter:-/light/}"
    reps="${reps:-3}"
  fi
  filter="${filter:-.}"
  reps="${reps:-5}"
  out="${out:-build/terms_hash_benchmark.json}"
  "$bench" \
    --benchmark_filter="$filter" \
    --benchmark_repetitions="$reps" \
    --benchmark_enable_random_interleaving=true \
    --benchmark_min_time=0.2 \
    --benchmark_out="$out" --benchmark_out_format=json >/dev/null
  python3 scripts/bench_table.py "$out"
  echo "raw results: $out"
  exit 0
fi

# --- invert and Lucene, alternating ---------------------------------------
bash benchmarks/peers/build.sh --install
peers=build/peers
jar="$(cat "$peers/lucene-core.jar.path")"
dir=build/terms_hash_lucene
rm -rf "$dir"
mkdir -p "$dir/tokens"
warmup=4
iterations=5
min_time=0.2
default_filter="^(indexSegment|indexSegmentAndSort|flatHashMapFind|hashOnly)/.*/$size/"
if [ $quick -eq 1 ]; then
  # A smoke run: one round, short forks, invert's doc and chain rows only.
  rounds=1
  warmup=1
  iterations=2
  min_time=0.05
  default_filter="^((indexSegment|indexSegmentAndSort)/.*/$size/.*/(doc|chain)|flatHashMapFind/.*/$size/)"
fi
reps="${reps:-1}"
filter="${filter:-$default_filter}"
heap=2g
[ "$size" = scaled ] && heap=8g

{
  echo "start: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "uptime at start: $(uptime)"
  echo "rounds $rounds, invert repetitions per round $reps, Lucene fork: $warmup warm-up + $iterations measured segments, heap $heap"
} | tee "$dir/machine.txt"
"$build/benchmarks/invert_dump_workload" "$dir/tokens" "$size" >"$dir/tokens.jsonl"
cat "$dir/tokens.jsonl"

workloads=(1.0 3.0 6.0 uuid)
for round in $(seq 1 "$rounds"); do
  echo "round $round/$rounds: invert ($(uptime | sed 's/.*load/load/'))" >&2
  "$bench" \
    --benchmark_filter="$filter" \
    --benchmark_repetitions="$reps" \
    --benchmark_enable_random_interleaving=true \
    --benchmark_min_time="$min_time" \
    --benchmark_out="$dir/invert-round$round.json" --benchmark_out_format=json >/dev/null
  for w in $(printf '%s\n' "${workloads[@]}" | shuf); do
    echo "round $round/$rounds: Lucene $w/$size ($(uptime | sed 's/.*load/load/'))" >&2
    java "-Xms$heap" "-Xmx$heap" -XX:+AlwaysPreTouch -cp "$peers/classes:$jar" LuceneTermsHash \
      "$dir/tokens/$w-$size.tokens" --warmup "$warmup" --iterations "$iterations" \
      --fork "$round" --label "$w/$size" >>"$dir/lucene.jsonl"
  done
done
echo "end: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), uptime: $(uptime)" | tee -a "$dir/machine.txt"
rm -rf "$dir/tokens"  # large; invert_dump_workload rewrites them identically
python3 scripts/bench_table.py "$dir"/invert-round*.json --lucene "$dir/lucene.jsonl" \
  --tokens "$dir/tokens.jsonl" | tee "$dir/table.txt"
python3 scripts/bench_table.py "$dir"/invert-round*.json --lucene "$dir/lucene.jsonl" \
  --tokens "$dir/tokens.jsonl" --markdown >"$dir/table.md"
echo "raw results: $dir/ (invert-round*.json, lucene.jsonl, tokens.jsonl, machine.txt, table.md)"
