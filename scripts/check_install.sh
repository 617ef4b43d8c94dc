#!/usr/bin/env bash
# Installs invert as a user would and builds a program against the install:
# for a static and then a shared library, it configures and builds the library
# alone (tests, benchmarks, tools off), installs it into a clean temporary
# prefix, then
#   - builds examples/basic with find_package(invert CONFIG REQUIRED) and
#     -Wall -Wextra -Wpedantic -Werror, and runs it (shared: through the RPATH
#     CMake gives the build tree);
#   - compiles the same program with only `pkg-config --cflags --libs invert`
#     (--static for the static library) and runs it;
#   - checks the library does not depend on liburing, and (shared) that it
#     exports only the public API: every exported symbol is in namespace
#     invert and names something declared in the installed headers.
#
#   scripts/check_install.sh [--jobs J] [--keep] [--static-from DIR]
#     --jobs J            build jobs (default 2)
#     --keep              keep the temporary directory (printed) for a look
#                         afterwards
#     --static-from DIR   install the static library from DIR, an existing
#                         top-level Release build tree with the default
#                         options (CI passes build/release, which scripts/test.sh
#                         has just built), instead of compiling it again
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

jobs=2
keep=0
static_from=""
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --static-from) static_from="$2"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "check_install.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

bash scripts/setup.sh

work="$(mktemp -d "${TMPDIR:-/tmp}/invert-install-check.XXXXXX")"
if [ "$keep" -eq 0 ]; then trap 'rm -rf "$work"' EXIT; else echo "check_install: keeping $work"; fi

fail() { echo "check_install: FAILED: $*" >&2; exit 1; }
warn_flags=(-Wall -Wextra -Wpedantic -Werror)

check() {
  local kind="$1" shared="$2"
  local build="$work/$kind/build" prefix="$work/$kind/prefix"
  if [ "$shared" = OFF ] && [ -n "$static_from" ]; then
    echo "== $kind: install the library from $static_from"
    from_tree "$static_from"
    mkdir -p "$work/$kind"
    cmake --build "$static_from" -j "$jobs" --target invert >"$work/$kind/build.log" 2>&1 ||
      { tail -n 40 "$work/$kind/build.log"; fail "$kind library build in $static_from"; }
    cmake --install "$static_from" --prefix "$prefix" >/dev/null
  else
    echo "== $kind: build and install the library alone"
    # -O1: this build checks the package (files, exports, consumers), not
    # speed, and compiles in about half the time of the default -O3.
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS="$shared" \
      "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
      -DINVERT_BUILD_TESTS=OFF -DINVERT_BUILD_BENCHMARKS=OFF -DINVERT_BUILD_TOOLS=OFF \
      -DINVERT_BUILD_FUZZERS=OFF -DINVERT_INSTALL=ON -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
    cmake --build "$build" -j "$jobs" >"$work/$kind/build.log" 2>&1 ||
      { tail -n 40 "$work/$kind/build.log"; fail "$kind library build"; }
    cmake --install "$build" >/dev/null
  fi

  local libdir
  libdir="$(dirname "$(find "$prefix" -name 'invert.pc' -path '*/pkgconfig/*' | head -n 1)")/.."
  libdir="$(cd "$libdir" && pwd)"
  local lib="$libdir/libinvert.a"
  if [ "$shared" = ON ]; then lib="$libdir/libinvert.so"; fi
  [ -e "$lib" ] || fail "$kind: no $lib installed"
  [ -f "$libdir/cmake/invert/invertConfig.cmake" ] || fail "$kind: no invertConfig.cmake"
  [ -f "$libdir/cmake/invert/invertConfigVersion.cmake" ] || fail "$kind: no invertConfigVersion.cmake"
  [ -f "$prefix/include/invert/version.h" ] || fail "$kind: no generated invert/version.h"
  # Installed headers are exactly the public ones.
  diff <({ cd include/invert && ls ./*.h | sed 's|^\./||'; echo version.h; } | sort) \
       <(cd "$prefix/include/invert" && ls | sort) ||
    fail "$kind: installed headers differ from include/invert/*.h + version.h"

  # The version check: before 1.0 only the same 0.MINOR is compatible.
  local version want ok
  version="$(sed -n 's/^#define INVERT_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/invert/version.h")"
  for want in "${version%.*}:TRUE" "${version%%.*}.$(( $(echo "$version" | cut -d. -f2) + 1 )):FALSE" "1.0:FALSE"; do
    cat >"$work/version_check.cmake" <<'CMAKE'
set(PACKAGE_FIND_VERSION ${V})
string(REPLACE "." ";" parts ${V})
list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
set(PACKAGE_FIND_VERSION_COUNT 2)
include(${F})
if(PACKAGE_VERSION_COMPATIBLE)
  message("TRUE")
else()
  message("FALSE")
endif()
CMAKE
    ok="$(cmake -DV="${want%%:*}" -DF="$libdir/cmake/invert/invertConfigVersion.cmake" \
      -P "$work/version_check.cmake" 2>&1)"
    [ "$ok" = "${want##*:}" ] || fail "$kind: find_package(invert ${want%%:*}) compatible=$ok against $version"
  done
  echo "   find_package(invert ${version%.*}) accepts $version; 0.next and 1.0 do not"

  echo "== $kind: no liburing in the library or its package"
  if grep -rqi uring "$libdir/cmake/invert" "$libdir/pkgconfig/invert.pc"; then
    fail "$kind: the installed package mentions liburing"
  fi
  if [ "$shared" = ON ]; then
    readelf -d "$lib" | grep -i 'NEEDED.*uring' && fail "libinvert.so needs liburing"
    echo "   NEEDED: $(readelf -d "$lib" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
    echo "   SONAME: $(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')"
  else
    # Captured before grep -q: under pipefail, grep leaving at its first
    # match would kill the writer with SIGPIPE and fail the pipeline.
    local undefined
    undefined="$(nm -u "$lib" 2>/dev/null || true)"
    grep -q io_uring <<<"$undefined" && fail "libinvert.a references io_uring"
  fi

  if [ "$shared" = ON ]; then
    echo "== shared: exported symbols"
    nm -D --defined-only -C "$lib" | cut -d' ' -f3- >"$work/exports.txt"
    # The name after "invert::" (a class or a function) of every exported
    # symbol, e.g. IndexReader for "vtable for invert::IndexReader".
    local foreign public_names unknown
    foreign="$(grep -v 'invert::' "$work/exports.txt" || true)"
    [ -z "$foreign" ] || { echo "$foreign" | head -n 20; fail "symbols exported outside namespace invert"; }
    public_names="$(cat "$prefix"/include/invert/*.h | grep -o '[A-Za-z_][A-Za-z0-9_]*' | sort -u)"
    unknown="$(sed -n 's/.*invert::\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$work/exports.txt" | sort -u |
      grep -vxF -f <(echo "$public_names") || true)"
    [ -z "$unknown" ] || { echo "$unknown"; fail "libinvert.so exports names not in the public headers"; }
    echo "   $(wc -l <"$work/exports.txt") symbols exported, all in namespace invert, naming" \
         "$(sed -n 's/.*invert::\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$work/exports.txt" | sort -u | wc -l)" \
         "public names"
  fi

  echo "== $kind: examples/basic with find_package(invert)"
  local ex="$work/$kind/example"
  cmake -S examples/basic -B "$ex" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_FLAGS="${warn_flags[*]}" >"$work/$kind/example.log" 2>&1 ||
    { cat "$work/$kind/example.log"; fail "$kind: configuring the example"; }
  cmake --build "$ex" -j "$jobs" >>"$work/$kind/example.log" 2>&1 ||
    { tail -n 40 "$work/$kind/example.log"; fail "$kind: building the example"; }
  if [ "$shared" = ON ]; then
    local loaded
    loaded="$(ldd "$ex/invert_basic")"  # not piped into grep -q: see nm -u above
    grep -qF "$libdir/libinvert.so" <<<"$loaded" || { echo "$loaded"; fail "the example does not load the installed libinvert.so"; }
  fi
  "$ex/invert_basic" "$work/$kind/index" >"$work/$kind/run.txt" || { cat "$work/$kind/run.txt"; fail "$kind: the example failed"; }
  grep -q '^commit 1: 3 documents' "$work/$kind/run.txt" || { cat "$work/$kind/run.txt"; fail "$kind: unexpected output"; }
  sed -n '1,3p' "$work/$kind/run.txt" | sed 's/^/   /'

  echo "== $kind: the same program with pkg-config"
  local pc=(pkg-config)
  if [ "$shared" = OFF ]; then pc+=(--static); fi
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  local flags
  flags="$("${pc[@]}" --cflags --libs invert)" || fail "$kind: pkg-config --cflags --libs invert"
  echo "   ${pc[*]} --cflags --libs invert: ok"
  # shellcheck disable=SC2086
  g++ -std=c++20 "${warn_flags[@]}" -O1 examples/basic/main.cc -o "$work/$kind/basic_pc" $flags ||
    fail "$kind: compiling with the pkg-config flags"
  LD_LIBRARY_PATH="$libdir" "$work/$kind/basic_pc" "$work/$kind/index-pc" >/dev/null ||
    fail "$kind: the pkg-config build failed to run"
  unset PKG_CONFIG_PATH
}

# DIR must be a build tree of this source, configured Release as a static,
# installable library; its other options (tests, tools) do not reach the
# install.
from_tree() {
  local cache="$1/CMakeCache.txt"
  [ -f "$cache" ] || fail "--static-from $1: no CMakeCache.txt there"
  value() { sed -n "s/^$1:[A-Z]*=//p" "$cache"; }
  [ "$(cd "$(value CMAKE_HOME_DIRECTORY)" && pwd -P)" = "$(pwd -P)" ] ||
    fail "--static-from $1: configured from another source tree"
  [ "$(value CMAKE_BUILD_TYPE)" = Release ] || fail "--static-from $1: not a Release build"
  case "$(value BUILD_SHARED_LIBS)" in ""|OFF|FALSE|0) ;; *) fail "--static-from $1: BUILD_SHARED_LIBS is on" ;; esac
  case "$(value INVERT_INSTALL)" in ON|TRUE|1) ;; *) fail "--static-from $1: INVERT_INSTALL is off" ;; esac
}

start=$SECONDS
check static OFF
check shared ON
echo "check_install: static and shared installs OK ($((SECONDS - start)) s)"
