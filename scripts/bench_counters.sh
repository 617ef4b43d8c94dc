#!/usr/bin/env bash
# Hardware-event view of the terms-hash benchmark, cell by cell.
#   scripts/bench_counters.sh [CELL_REGEX]   (default: light indexSegment cells)
# With a working `perf` (perf stat -e instructions true succeeds), prints
# cycles, instructions, IPC, LLC and dTLB misses per token. Otherwise (VMs
# without PMU access) it falls back to valgrind's callgrind with cache
# simulation, which counts instructions and simulated D1/LL misses per token
# exactly and repeatably (no cycles, no TLB), over the measured function only.
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-^indexSegment/.*/light/}"
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target invert_terms_hash_benchmark >/dev/null
bench=build/release/benchmarks/invert_terms_hash_benchmark
cells=$($bench --benchmark_list_tests=true --benchmark_filter="$filter" | sed 's|/real_time$||')

perf_probe=$(perf stat -e instructions true 2>&1 || true)
if command -v perf >/dev/null 2>&1 && [[ "$perf_probe" == *instructions* ]] &&
   [[ "$perf_probe" != *"not supported"* ]]; then
  printf "%-48s %12s %12s %6s %12s %12s\n" cell cycles/tok instr/tok IPC LLC-miss/tok dTLB-miss/tok
  for cell in $cells; do
    out=$(perf stat -x, -e cycles,instructions,LLC-load-misses,dTLB-load-misses \
      $bench --benchmark_filter="^${cell}(/real_time)?\$" --benchmark_min_time=0.5 \
      --benchmark_format=json 2>&1 >/tmp/invert_counters.json)
    tokens=$(python3 -c "import json;d=json.load(open('/tmp/invert_counters.json'));b=d['benchmarks'][0];print(b['items_per_second']*b['real_time']*b['iterations']/1e3)")
    python3 - "$cell" "$tokens" <<PY
import sys
cell, tokens = sys.argv[1], float(sys.argv[2])
vals = {}
for line in """$out""".splitlines():
    parts = line.split(",")
    if len(parts) > 2 and parts[0].replace(".", "").isdigit():
        vals[parts[2]] = float(parts[0])
c, i = vals.get("cycles", 0), vals.get("instructions", 0)
print(f"{cell:48s} {c/tokens:12.1f} {i/tokens:12.1f} {i/max(c,1):6.2f} "
      f"{vals.get('LLC-load-misses',0)/tokens:12.3f} {vals.get('dTLB-load-misses',0)/tokens:12.3f}")
PY
  done
  exit 0
fi

echo "perf counters are not available here; using callgrind (instructions and simulated"
echo "cache misses with a 48 KiB D1 and a 32 MiB LL as on the EPYC hosts, measured function only, one iteration)."
printf "%-44s %11s %11s %11s %11s\n" cell instr/tok D1-miss/tok LL-miss/tok LLrd-miss/tok
for cell in $cells; do
  case "$cell" in
    flatHashMapFind*) fn='*RunFlatHashMap*' ;;
    hashOnly*) fn='*RunHashOnly*' ;;
    *AndSort*) fn='*Run*' ;;
    *) fn='*RunIndexSegment*' ;;
  esac
  if [[ "$cell" == *scaled* ]]; then tokens=16000000; else tokens=2000000; fi
  # A chain cell indexes one untimed segment before its timed one, and the
  # measured function runs for both.
  if [[ "$cell" == */chain ]]; then tokens=$((tokens * 2)); fi
  out=$(valgrind --tool=callgrind --cache-sim=yes --D1=49152,12,64 --LL=33554432,16,64 --callgrind-out-file=/dev/null \
    --toggle-collect="$fn" $bench --benchmark_filter="^${cell}(/real_time)?\$" \
    --benchmark_min_time=0.000001 2>&1 | grep -E "Collected|D1  misses|LLd misses|LLd miss rate" || true)
  python3 - "$cell" "$tokens" <<PY
import re, sys
cell, tokens = sys.argv[1], float(sys.argv[2])
text = """$out"""
def num(pattern):
    m = re.search(pattern, text)
    return float(m.group(1).replace(",", "")) if m else 0.0
ir = num(r"Collected : ([\d,]+)")
d1 = num(r"D1  misses:\s+([\d,]+)")
lld = num(r"LLd misses:\s+([\d,]+)")
lldrd = num(r"LLd misses:\s+[\d,]+\s+\(\s*([\d,]+) rd")
print(f"{cell:44s} {ir/tokens:11.1f} {d1/tokens:11.3f} {lld/tokens:11.3f} {lldrd/tokens:11.3f}")
PY
done
