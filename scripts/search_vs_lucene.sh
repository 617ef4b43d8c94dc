#!/usr/bin/env bash
# Search results against Lucene 8.8 itself (issue 13; method and result in
# docs/benchmarks-search.md). A developer's check, not run by CI (CI has no
# Java; tests/search/lucene_agreement_test.cc compares with a committed
# sample made by --sample).
#   scripts/search_vs_lucene.sh [--build DIR] [--docs N] [--seed S]
#                               [--query-seed Q] [--per-class N] [--sample]
#                               [--no-pruned] [--bench-cache]
# Defaults: build/release, 20000 documents of invert-gen seed 13, query seed
# 29, 75 queries per class (17 classes: 1,275 queries of mixed types).
# Steps, in build/search_vs_lucene/:
#   1. invert-gen --docs N --seed S --no-header, then pre-lowercased: ASCII
#      A-Z to a-z, every other printable ASCII byte that is not a letter or
#      digit to a space (TABs and non-ASCII bytes kept), so that both
#      engines' whitespace analyzers see the same tokens;
#   2. both indexes: invert_search_benchmark index and LuceneSearch index
#      (one segment each, doc d = line d + 1);
#   3. invert_search_benchmark queries --set agree (from the invert index's
#      body statistics and phrases of the documents);
#   4. the top 10 and the count of every query on both (agree modes; invert
#      with pruning off, then on), compared by scripts/search_compare.py.
# --no-pruned: compare invert with pruning off only.
# --bench-cache: use the corpus and both indexes scripts/bench_search.sh
# cached for --docs/--seed (build/bench_search/<docs>-<seed>/; e.g.
# --docs 1000000 --seed 1 after a default benchmark run) instead of building
# them.
# --sample: also writes the CI sample, tests/data/lucene88_search/ (corpus
# options, the queries, Lucene's output), which the CI test checks invert
# against without Java. The committed sample was made with
#   scripts/search_vs_lucene.sh --docs 4000 --seed 11 --query-seed 17 --per-class 24 --sample
set -euo pipefail
cd "$(dirname "$0")/.."

build=build/release
docs=20000
seed=13
qseed=29
per_class=75
sample=0
pruned=1
bench_cache=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --docs) docs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --query-seed) qseed="$2"; shift 2 ;;
    --per-class) per_class="$2"; shift 2 ;;
    --sample) sample=1; shift ;;
    --no-pruned) pruned=0; shift ;;
    --bench-cache) bench_cache=1; shift ;;
    *) echo "search_vs_lucene: unknown argument $1" >&2; exit 2 ;;
  esac
done

benchmarks/peers/build.sh --install
cmake --build "$build" --target invert_search_benchmark invert-gen -j2 >/dev/null
bench="$build/benchmarks/invert_search_benchmark"
export JAVA_OPTS="${JAVA_OPTS:--Xms1g -Xmx1g}"

work=build/search_vs_lucene
rm -rf "$work"
mkdir -p "$work"
corpus="$work/corpus.lines"
inv="$work/invert"
luc="$work/lucene"
if [ $bench_cache -eq 1 ]; then
  cache="build/bench_search/$docs-$seed"
  for f in corpus.done invert.done lucene.done; do
    [ -f "$cache/$f" ] || { echo "search_vs_lucene: no $cache/$f (run scripts/bench_search.sh --docs $docs --seed $seed)" >&2; exit 1; }
  done
  corpus="$cache/corpus.lines"
  inv="$cache/invert"
  luc="$cache/lucene"
else
  "$build/tools/gen/invert-gen" --docs "$docs" --seed "$seed" --no-header --quiet -o "$work/raw.lines"
  LC_ALL=C tr 'A-Z' 'a-z' <"$work/raw.lines" | LC_ALL=C tr '!-/:-@[-`{-~' ' ' >"$corpus"
  rm "$work/raw.lines"
  "$bench" index "$corpus" --index "$inv"
  build/peers/lucene-search index "$corpus" --index "$luc"
fi
"$bench" queries --index "$inv" --lines "$corpus" --set agree \
  --seed "$qseed" --per-class "$per_class" -o "$work/queries.txt"
build/peers/lucene-search agree --index "$luc" --queries "$work/queries.txt" >"$work/lucene.out"
"$bench" agree --index "$inv" --queries "$work/queries.txt" >"$work/invert.out"
[ $pruned -eq 0 ] ||
  "$bench" agree --index "$inv" --queries "$work/queries.txt" --prune 1 >"$work/invert-pruned.out"

echo "search_vs_lucene: $docs docs (invert-gen seed $seed), $(grep -vc '^#' "$work/queries.txt") queries (seed $qseed)"
status=0
echo "== invert exhaustive (prune off) vs Lucene"
python3 scripts/search_compare.py "$work/queries.txt" "$work/lucene.out" "$work/invert.out" || status=1
if [ $pruned -eq 1 ]; then
  echo "== invert pruned (prune on) vs Lucene"
  python3 scripts/search_compare.py "$work/queries.txt" "$work/lucene.out" "$work/invert-pruned.out" || status=1
fi

if [ $sample -eq 1 ]; then
  out=tests/data/lucene88_search
  mkdir -p "$out"
  printf 'docs %s\nseed %s\nquery_seed %s\nper_class %s\n' "$docs" "$seed" "$qseed" "$per_class" >"$out/corpus.txt"
  cp "$work/queries.txt" "$out/queries.txt"
  cp "$work/lucene.out" "$out/lucene.out"
  echo "search_vs_lucene: wrote the CI sample to $out"
fi
exit $status
