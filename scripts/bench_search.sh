#!/usr/bin/env bash
# Search benchmark, invert against Lucene 8.8 side by side in one run (issue
# 13; method and results in docs/benchmarks-search.md). Not a test.
#   scripts/bench_search.sh [--build DIR] [--docs N] [--seed S] [--query-seed Q]
#                           [--per-class N] [--k K] [--rounds R] [--passes P]
#                           [--invert-modes pruned,exhaustive]
# Defaults: build/release, 1,000,000 documents of invert-gen seed 1, query
# seed 3, 50 queries per class (10 classes: terms of high, medium and low
# doc frequency; OR and AND of 2 and 3 terms; exact 2- and 3-word phrases;
# sloppy phrases), k 10, 2 rounds of 3 measured passes. About 12 minutes on
# a 2-core machine the first time (corpus and both indexes are built once and
# cached in build/bench_search/<docs>-<seed>/; then about 5 minutes).
# Steps:
#   1. the corpus, pre-lowercased as scripts/search_vs_lucene.sh does, and
#      both indexes (one segment each, same tokens: whitespace analyzers);
#   2. the query set (invert_search_benchmark queries --set bench);
#   3. R rounds, each: invert (each pass runs all queries pruned, then all
#      exhaustive; 1 warm-up pass + P measured) then Lucene (IndexSearcher, one
#      thread, query cache off, 3 warm-up passes for the JIT + P measured),
#      so both engines see the same machine state;
#   4. one table per class: median and P99 latency, QPS (the median over the
#      rounds of each), mean hits (Lucene: TotalHits.value, a lower bound
#      past 1,000 marked +) and the QPS ratios.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build/release
docs=1000000
seed=1
qseed=3
per_class=50
k=10
rounds=2
invert_modes=pruned,exhaustive
passes=3
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --docs) docs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --query-seed) qseed="$2"; shift 2 ;;
    --per-class) per_class="$2"; shift 2 ;;
    --k) k="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --passes) passes="$2"; shift 2 ;;
    --invert-modes) invert_modes="$2"; shift 2 ;;
    *) echo "bench_search: unknown argument $1" >&2; exit 2 ;;
  esac
done

benchmarks/peers/build.sh --install
cmake --build "$build" --target invert_search_benchmark invert-gen -j2 >/dev/null
bench="$build/benchmarks/invert_search_benchmark"
if grep -q 'CMAKE_BUILD_TYPE:STRING=Release' "$build/CMakeCache.txt" 2>/dev/null; then :; else
  echo "bench_search: WARNING: $build is not a Release build; numbers are not representative" >&2
fi

cache="build/bench_search/$docs-$seed"
mkdir -p "$cache"
if [ ! -f "$cache/corpus.done" ]; then
  avail_kb=$(df -Pk "$cache" | awk 'NR==2 {print $4}')
  need_kb=$((docs * 4))  # ~1 KB of text per document, ~3 KB with both indexes
  if [ "$avail_kb" -lt "$need_kb" ]; then
    echo "bench_search: need about $((need_kb / 1024)) MB free in $cache, have $((avail_kb / 1024))" >&2
    exit 1
  fi
  "$build/tools/gen/invert-gen" --docs "$docs" --seed "$seed" --no-header --quiet |
    LC_ALL=C tr 'A-Z' 'a-z' | LC_ALL=C tr '!-/:-@[-`{-~' ' ' >"$cache/corpus.lines"
  touch "$cache/corpus.done"
  rm -f "$cache/invert.done" "$cache/lucene.done"
fi
if [ ! -f "$cache/invert.done" ]; then
  "$bench" index "$cache/corpus.lines" --index "$cache/invert" | tee "$cache/invert.index.txt"
  touch "$cache/invert.done"
fi
if [ ! -f "$cache/lucene.done" ]; then
  JAVA_OPTS="-Xms2g -Xmx2g" build/peers/lucene-search index "$cache/corpus.lines" --index "$cache/lucene" \
    --ram-mb 1024 | tee "$cache/lucene.index.txt"
  touch "$cache/lucene.done"
fi

run="build/bench_search/run-$docs-$seed-q$qseed-k$k"
mkdir -p "$run"
"$bench" queries --index "$cache/invert" --lines "$cache/corpus.lines" --set bench \
  --seed "$qseed" --per-class "$per_class" -o "$run/queries.txt"

echo "bench_search: $docs docs (seed $seed), $(grep -vc '^#' "$run/queries.txt") queries (seed $qseed), k $k, $rounds rounds"
echo "bench_search: $(nproc) CPUs, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$run/results.txt"
for r in $(seq 1 "$rounds"); do
  "$bench" bench --index "$cache/invert" --queries "$run/queries.txt" --k "$k" --warmup 1 \
    --passes "$passes" --modes "$invert_modes" | sed "s/^invert/$r invert/" | grep -v '^#' >>"$run/results.txt"
  JAVA_OPTS="-Xms2g -Xmx2g" build/peers/lucene-search bench --index "$cache/lucene" \
    --queries "$run/queries.txt" --k "$k" --warmup 3 --passes "$passes" |
    sed "s/^lucene/$r lucene/" | grep -v '^#' >>"$run/results.txt"
  echo "bench_search: round $r done, load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
python3 scripts/bench_search_table.py "$run/results.txt" | tee "$run/table.md"
