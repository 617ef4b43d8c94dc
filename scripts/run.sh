#!/usr/bin/env bash
# The main job: builds invert and runs a short terms-hash benchmark (light
# sizes, 3 interleaved repetitions), printing the shared-vs-separate table.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/bench_terms_hash.sh --quick "$@"
