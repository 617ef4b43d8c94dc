#!/usr/bin/env bash
# Builds invert and runs the whole test suite.
#   scripts/test.sh         release build (the README's test command)
#   scripts/test.sh asan    the same tests under AddressSanitizer + UBSan
#   scripts/test.sh tsan    the threaded tests under ThreadSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

preset="${1:-release}"
jobs="$(nproc 2>/dev/null || echo 2)"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
ctest --preset "$preset" -j "$jobs"
