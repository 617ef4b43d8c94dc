#!/usr/bin/env bash
# The main job: builds invert, indexes the bundled sample corpus
# (data/sample.lines, Wikipedia-like line documents; or the file given as the
# first argument), verifies the index with invert-check, shows one term with
# invert-dump and searches it with invert-search. Extra arguments after the
# corpus go to invert-index (e.g. --threads 2 --layout shared --term-vectors).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target invert-index invert-check invert-dump \
  invert-search >/dev/null

corpus="${1:-data/sample.lines}"
[ $# -gt 0 ] && shift
index="build/sample-index"
rm -rf "$index"
bin=build/release/tools
echo "== invert-index $corpus"
"$bin/index/invert-index" "$corpus" --index "$index" "$@"
echo
echo "== invert-check $index"
"$bin/check/invert-check" "$index"
echo
echo "== invert-dump $index --field body --term bur"
"$bin/dump/invert-dump" "$index" --field body --term bur --limit 3
echo
echo "== invert-search $index 'bur +aku \"es dik\"~2' --k 5"
"$bin/search/invert-search" "$index" 'bur +aku "es dik"~2' --k 5
