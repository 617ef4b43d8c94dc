#!/usr/bin/env bash
# Compares invert's BM25 (src/search/bm25.h) and norm encoding with Lucene
# 8.8's own BM25Similarity and SmallFloat, bit for bit. A developer's check,
# not run by CI (CI has no Java). Result and method: docs/scoring.md.
#   scripts/bm25_vs_lucene.sh [BUILD_DIR] [N] [SEED]
# BUILD_DIR: a configured build of invert (default build/release); N random
# inputs (default 20000), SEED for Java's Random (default 8).
# Steps: benchmarks/peers/build.sh --install (Java and Debian's Lucene jar),
# javac LuceneBm25.java, Lucene scores N random inputs and prints its norm
# tables, then invert_tests' Bm25LuceneTest reads both files and prints
# "identical / differing" counts.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
n="${2:-20000}"
seed="${3:-8}"

benchmarks/peers/build.sh --install
jar="$(cat build/peers/lucene-core.jar.path)"
classes=build/peers/bm25-classes
mkdir -p "$classes"
javac -nowarn -encoding UTF-8 --release 11 -cp "$jar" -d "$classes" benchmarks/peers/LuceneBm25.java

out=build/peers/bm25
mkdir -p "$out"
java -cp "$classes:$jar" LuceneBm25 random "$n" "$seed" >"$out/scores.txt"
java -cp "$classes:$jar" LuceneBm25 norms >"$out/norms.txt"
echo "bm25_vs_lucene: $(wc -l <"$out/scores.txt") Lucene scores (seed $seed), $(wc -l <"$out/norms.txt") norm lines" >&2

cmake --build "$build" --target invert_tests >/dev/null
INVERT_BM25_LUCENE_FILE="$out/scores.txt" INVERT_NORMS_LUCENE_FILE="$out/norms.txt" \
  "$build/tests/invert_tests" --gtest_filter='Bm25LuceneTest.*'
