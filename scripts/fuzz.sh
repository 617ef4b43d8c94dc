#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ (clang, ASan + UBSan, assertions on)
# and runs each one for a short while from its seed corpus: the CI-sized
# fuzzing smoke test. Fails if any target crashes, times out, leaks or runs
# out of memory, or if a saved reproducer in fuzz/regressions/ fails.
#
#   scripts/fuzz.sh [--seconds N] [--jobs J] [TARGET...]
#
#   --seconds N  fuzzing time per target (default 10)
#   --jobs J     build jobs and targets fuzzed at once (default 2)
#   TARGET       e.g. postings segment (default: every target)
#
# Build directory build/fuzz; seeds are generated into build/fuzz/seeds/ by
# invert-fuzz-seeds (plus fuzz/corpus/<target>/ if present, for inputs worth
# keeping from longer runs), and what the runs add to the corpus is kept in
# build/fuzz/corpus/<target>/ (reused by the next run). Crash inputs land in
# build/fuzz/artifacts/<target>/. docs/fuzzing.md explains the targets.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=10
jobs=2
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

bash scripts/setup.sh

# clang and the libFuzzer runtime (Debian: clang, libclang-rt-dev).
cxx="${CXX:-clang++}"
probe_dir="$(mktemp -d)"
trap 'rm -rf "$probe_dir"' EXIT
have_libfuzzer() {
  command -v "$cxx" >/dev/null 2>&1 &&
    printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n' \
      >"$probe_dir/probe.cc" &&
    "$cxx" -fsanitize=fuzzer "$probe_dir/probe.cc" -o "$probe_dir/probe" >/dev/null 2>&1
}
if ! have_libfuzzer; then
  echo "fuzz.sh: installing clang and the libFuzzer runtime" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends clang libclang-rt-dev >/dev/null
  if ! have_libfuzzer; then
    echo "fuzz.sh: $cxx cannot link -fsanitize=fuzzer" >&2
    exit 1
  fi
fi
cc="${CC:-${cxx/clang++/clang}}"

build=build/fuzz
CC="$cc" CXX="$cxx" cmake -S . -B "$build" \
  -DINVERT_BUILD_FUZZERS=ON -DINVERT_SANITIZE=ON \
  -DINVERT_BUILD_TESTS=OFF -DINVERT_BUILD_BENCHMARKS=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" >/dev/null
cmake --build "$build" -j "$jobs" --target invert_fuzzers

all_targets=()
for f in fuzz/*_fuzzer.cc; do
  t="$(basename "$f" _fuzzer.cc)"
  all_targets+=("$t")
done
if [ ${#targets[@]} -eq 0 ]; then targets=("${all_targets[@]}"); fi
for t in "${targets[@]}"; do
  if [ ! -x "$build/fuzz/${t}_fuzzer" ]; then
    echo "fuzz.sh: no target $t (have: ${all_targets[*]})" >&2
    exit 2
  fi
done

rm -rf "$build/seeds" "$build/logs"
mkdir -p "$build/logs"
sample=()
if [ -f data/sample.lines ]; then sample=(data/sample.lines); fi
"$build/fuzz/invert-fuzz-seeds" "$build/seeds" "${sample[@]}" >/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# Extra libFuzzer flags per target.
extra_flags() {
  case "$1" in
    segment) echo "-max_len=1024" ;;  # up to ~200 edits; the seeds are tiny
    *) echo "" ;;
  esac
}

# Replays the saved reproducers, then fuzzes. Writes the log; returns the
# fuzzer's status.
run_target() {
  local t="$1"
  local bin="$build/fuzz/${t}_fuzzer"
  local log="$build/logs/$t.log"
  local corpus="$build/corpus/$t"
  local artifacts="$build/artifacts/$t/"
  mkdir -p "$corpus" "$artifacts"
  if compgen -G "fuzz/regressions/$t/*" >/dev/null; then
    "$bin" -timeout=25 fuzz/regressions/"$t"/* >"$log.regressions" 2>&1 || return
  fi
  local seeds=("$build/seeds/$t")
  if [ -d "fuzz/corpus/$t" ]; then seeds+=("fuzz/corpus/$t"); fi
  # shellcheck disable=SC2046
  "$bin" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -timeout=25 \
    -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$artifacts" \
    $(extra_flags "$t") >"$log" 2>&1
}

# Up to $jobs targets at once; each writes its status to logs/<target>.status.
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  (
    set +e
    run_target "$t"
    echo $? >"$build/logs/$t.status"
  ) &
done
wait
declare -A status=()
for t in "${targets[@]}"; do status[$t]="$(cat "$build/logs/$t.status" 2>/dev/null || echo 1)"; done

printf '%-17s %10s %8s %6s %7s %8s  %s\n' target execs exec/s cov ft corpus result
failed=0
for t in "${targets[@]}"; do
  log="$build/logs/$t.log"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" 2>/dev/null | tail -1)"
  last="$(grep -E '^#[0-9]+' "$log" 2>/dev/null | tail -1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
  corp="$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")"
  if [ "${status[$t]}" -eq 0 ]; then
    result=ok
  else
    result="FAILED (status ${status[$t]})"
    failed=1
  fi
  printf '%-17s %10s %8s %6s %7s %8s  %s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" \
    "${ft:--}" "${corp:--}" "$result"
done

if [ "$failed" -ne 0 ]; then
  for t in "${targets[@]}"; do
    [ "${status[$t]}" -eq 0 ] && continue
    echo
    if [ -f "$build/logs/$t.log.regressions" ] && ! [ -s "$build/logs/$t.log" ]; then
      echo "=== $t: a saved reproducer in fuzz/regressions/$t/ fails ($build/logs/$t.log.regressions)"
      tail -n 40 "$build/logs/$t.log.regressions"
    else
      echo "=== $t failed; log $build/logs/$t.log, inputs in $build/artifacts/$t/"
      grep -E -A 30 '^==[0-9]+==ERROR|runtime error|_fuzzer: |deadly signal|ALARM|out-of-memory' \
        "$build/logs/$t.log" | head -n 50 || tail -n 40 "$build/logs/$t.log"
    fi
  done
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, ${seconds}s each: no crashes"
