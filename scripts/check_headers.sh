#!/usr/bin/env bash
# Compiles the public API the way a strict consumer of the installed package
# would, in seconds:
#   1. every header of include/invert/ on its own (a .cc that includes only
#      it, twice, so a missing include guard fails too);
#   2. every ```cpp block of README.md and docs/analysis.md, each as one
#      translation unit, exactly as the text stands (so each block must be
#      complete: its #includes, then declarations or functions);
# with g++ and, when installed, clang++ (which compiles the headers in one
# translation unit: both use libstdc++, so "compiles alone" is the same for
# both, and only the warnings differ), under CONSUMER_FLAGS below, against
# include/, the build's generated include/ (invert/version.h) and the system
# Abseil: what `find_package(invert)` hands a consumer. Also refuses Abseil
# containers in public headers (their layout is one Abseil build's ABI).
#
#   bash scripts/check_headers.sh [--build DIR]   DIR: a configured build
#                                                 (default build/release)
# Exit status 0 iff everything compiled without a warning.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build/release
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="${2:?--build needs a directory}"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "check_headers.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [[ ! -f "$build/include/invert/version.h" ]]; then
  echo "check_headers.sh: $build/include/invert/version.h is missing: configure first" \
       "(cmake --preset release) or pass --build DIR" >&2
  exit 2
fi

# The issue's three (-Wall -Wextra -Wpedantic) and what strict projects add;
# all hold for inline code in our headers, so a consumer may use any of them.
CONSUMER_FLAGS=(-std=c++20 -Wall -Wextra -Wpedantic -Werror -Wshadow -Wconversion
                -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast)
includes=(-I include -I "$build/include")

compilers=(g++)
if command -v clang++ >/dev/null; then compilers+=(clang++); fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0

# Abseil containers in a public header tie its ABI to one Abseil build.
if grep -nE 'absl/container/|absl::(flat|node)_hash_(map|set)|absl::btree_|absl::InlinedVector|absl::FixedArray' \
     include/invert/*.h; then
  echo "FAIL: Abseil containers in public headers (above); use standard containers" >&2
  failed=1
fi

# Jobs: compiler, source, and the name a failure is reported under.
jobs=()
labels=()
add_job() { jobs+=("$1" "$2"); labels+=("$3"); }
# 1. One translation unit per header (g++), and all of them in one (clang++).
all_headers="$work/all_headers.cc"
for header in include/invert/*.h "$build"/include/invert/*.h; do
  name="$(basename "$header")"
  source="$work/header_${name%.h}.cc"
  printf '#include "invert/%s"\n#include "invert/%s"\n' "$name" "$name" >"$source"
  printf '#include "invert/%s"\n' "$name" >>"$all_headers"
  add_job g++ "$source" "invert/$name alone"
done
for cxx in "${compilers[@]:1}"; do add_job "$cxx" "$all_headers" "all public headers"; done
# 2. One translation unit per ```cpp block.
for doc in README.md docs/analysis.md; do
  prefix="$work/snippet_$(echo "$doc" | tr '/.' '__')_line"
  awk -v prefix="$prefix" '
    /^```cpp[[:space:]]*$/ { inside = 1; file = prefix NR ".cc"; printf "" > file; next }
    /^```/ && inside { inside = 0; close(file); next }
    inside { print > file }
  ' "$doc"
  for source in "$prefix"*.cc; do
    [[ -e "$source" ]] || continue
    line="${source#"$prefix"}"
    for cxx in "${compilers[@]}"; do add_job "$cxx" "$source" "$doc:${line%.cc} (cpp block)"; done
  done
done

# Compile everything in parallel; a job that fails leaves its diagnostics in
# SOURCE.COMPILER.log.
printf '%s\0' "${jobs[@]}" | xargs -0 -n 2 -P "$(nproc 2>/dev/null || echo 2)" bash -c '
  flags=("${@:1:$#-2}"); cxx="${@: -2:1}"; source="${@: -1}"
  log="$source.$cxx.log"
  "$cxx" "${flags[@]}" -fsyntax-only "$source" >"$log" 2>&1 && rm -f "$log"
  exit 0
' compile_one "${CONSUMER_FLAGS[@]}" "${includes[@]}"

for i in "${!labels[@]}"; do
  cxx="${jobs[$((2 * i))]}"
  log="${jobs[$((2 * i + 1))]}.$cxx.log"
  [[ -f "$log" ]] || continue
  failed=1
  echo "FAIL ($cxx): ${labels[$i]}" >&2
  sed 's/^/  /' "$log" | head -30 >&2
done
count="${#labels[@]}"

if [[ "$failed" -ne 0 ]]; then
  echo "check_headers.sh: failures above (flags: ${CONSUMER_FLAGS[*]})" >&2
  exit 1
fi
echo "check_headers.sh: $count compilations clean (${compilers[*]}; ${CONSUMER_FLAGS[*]})"
