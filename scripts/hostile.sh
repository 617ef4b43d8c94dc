#!/usr/bin/env bash
# Runs the hostile-operations harness (scripts/hostile.py: random killed,
# concurrent and refused writers, damaged commit points and foreign files
# against one index, checked after every step). Builds invert-index,
# invert-check and invert-dump with the release preset first, unless --bin
# names the tools already built. Arguments go to the harness:
#   bash scripts/hostile.sh                     # 200 cycles, random seed
#   bash scripts/hostile.sh --cycles 1000 --seed 7 --keep
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
  case "$arg" in
    --bin|--bin=*) exec python3 scripts/hostile.py "$@" ;;
  esac
done
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc 2>/dev/null || echo 2)" \
  --target invert-index invert-check invert-dump >/dev/null
exec python3 scripts/hostile.py --bin build/release/tools "$@"
