#!/usr/bin/env bash
# End-to-end indexing benchmark, luceneutil style (design notes, benchmarks
# section 2; method in docs/benchmarks-e2e.md): invert-index and Lucene 8.8
# index the same line-docs file in the same run.
#
#   scripts/bench_e2e.sh [--corpus FILE | --generate-mb N [--seed S]]
#                        [--repetitions R] [--threads "1 2"] [--ram-mb M]
#                        [--merges on|off|both] [--force-merge N]
#                        [--term-vectors] [--max-docs N] [--only invert|lucene]
#                        [--no-build] [--keep-index] [--out FILE.json]
#
# Configurations: invert --layout shared and separate, and Lucene, each with
# every thread count of --threads (default "1 2") and merge mode of --merges
# (default on): "on" is each engine's tiered merge policy with background
# merges, "off" no merges while indexing; either way --force-merge N (default
# 1; 0: none) then merges to N segments, timed apart from the indexing.
# A configuration is named ENGINE[-LAYOUT]-tTHREADS-MERGES, e.g.
# invert-shared-t2-on, lucene-t1-off. Repetitions (default 3) run
# round-robin, A B C ... A B C ..., the starting configuration rotating by one
# each round, so that drift on a shared machine spreads over all of them.
# Each run starts from an empty index directory and runs under
# `/usr/bin/time -v` (peak RSS, user/sys CPU, wall), and under `perf stat`
# (cycles, instructions, LLC and dTLB load misses) where perf counters work.
# Results: one JSON file (--out, default build/bench_e2e/results.json), then
# the table of medians and ratios from scripts/bench_e2e_table.py.
#
# Per run it records both engines' docs/s to the committed index, force-merge
# seconds, merges (count, MB/s), bytes written and write amplification (bytes
# written / final index bytes; also from the kernel's count of the process's
# file-system writes), final segments and index bytes, peak RSS, CPU user/sys.
# An invert-index without --merge-policy/--force-merge runs the "off"
# configurations only, as it always did (no merges, no forced merge).
#
# Environment: INVERT_INDEX (default build/release/tools/index/invert-index),
# INVERT_GEN (default build/release/tools/gen/invert-gen), LUCENE_JAVA_OPTS
# (replaces the default JVM flags: -Xms=-Xmx = RAM buffer + 1024 MB).
# When invert-index is missing or does not build, says so and runs Lucene
# alone. Installs what the Lucene peer needs itself (liblucene8-java,
# openjdk-17-jdk-headless) and `time`; none of it is in scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=""
generate_mb=""
seed=1
reps=3
threads_list="1 2"
ram_mb=2048
merges=on
force_merge=1
term_vectors=0
max_docs=""
only=""
build=1
keep_index=0
work=build/bench_e2e
out=""
usage() { sed -n '6,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus) corpus="$2"; shift ;;
    --generate-mb) generate_mb="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --repetitions) reps="$2"; shift ;;
    --threads) threads_list="$2"; shift ;;
    --ram-mb) ram_mb="$2"; shift ;;
    --merges) merges="$2"; shift ;;
    --force-merge) force_merge="$2"; shift ;;
    --term-vectors) term_vectors=1 ;;
    --max-docs) max_docs="$2"; shift ;;
    --only) only="$2"; shift ;;
    --no-build) build=0 ;;
    --keep-index) keep_index=1 ;;
    --out) out="$2"; shift ;;
    -h|--help) usage ;;
    *) echo "bench_e2e: unknown argument: $1" >&2; usage ;;
  esac
  shift
done
case "$only" in ""|invert|lucene) ;; *) echo "bench_e2e: --only invert|lucene" >&2; exit 2 ;; esac
case "$merges" in on|off) merge_modes="$merges" ;; both) merge_modes="on off" ;;
  *) echo "bench_e2e: --merges on|off|both" >&2; exit 2 ;; esac
[[ "$force_merge" =~ ^[0-9]+$ ]] || { echo "bench_e2e: --force-merge N (0: none)" >&2; exit 2; }
[ -n "$corpus" ] && [ -n "$generate_mb" ] && { echo "bench_e2e: --corpus or --generate-mb, not both" >&2; exit 2; }
mkdir -p "$work/runs"
out="${out:-$work/results.json}"
log() { echo "bench_e2e: $*" >&2; }

apt_install() {  # Debian packages, only those missing
  local missing=() p
  for p in "$@"; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
    $sudo apt-get update -q >/dev/null
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  fi
}
[ -x /usr/bin/time ] || apt_install time
command -v python3 >/dev/null || apt_install python3

# ---- invert-index (and invert-gen) ----
invert_bin="${INVERT_INDEX:-build/release/tools/index/invert-index}"
gen_bin="${INVERT_GEN:-build/release/tools/gen/invert-gen}"
invert_build_failed=0
if [ $build -eq 1 ] && { [ "$only" != lucene ] || { [ -n "$generate_mb" ] && [ ! -x "$gen_bin" ]; }; }; then
  targets=()
  [ "$only" != lucene ] && [ -z "${INVERT_INDEX:-}" ] && targets+=(invert-index)
  [ -n "$generate_mb" ] && [ -z "${INVERT_GEN:-}" ] && targets+=(invert-gen)
  if [ ${#targets[@]} -gt 0 ]; then
    if bash scripts/setup.sh && cmake --preset release >"$work/build-configure.log" 2>&1; then
      for t in "${targets[@]}"; do
        if ! cmake --build --preset release -j "$(nproc)" --target "$t" >"$work/build-$t.log" 2>&1; then
          log "building $t failed (see $work/build-$t.log)"
          [ "$t" = invert-index ] && invert_build_failed=1
        fi
      done
    else
      log "setup or configure failed (see $work/build-configure.log)"
      invert_build_failed=1
    fi
  fi
fi
run_invert=1
if [ "$only" = lucene ]; then
  run_invert=0
elif [ $invert_build_failed -eq 1 ] && [ -z "${INVERT_INDEX:-}" ]; then
  log "invert-index did not build: running Lucene only (no stale binary)"
  run_invert=0
elif [ ! -x "$invert_bin" ]; then
  log "invert-index not found at $invert_bin: running Lucene only"
  run_invert=0
fi
invert_merges=0  # 1: invert-index takes --merge-policy and --force-merge
if [ $run_invert -eq 1 ]; then
  help=$("$invert_bin" --help 2>&1 || true)
  if [[ "$help" == *--merge-policy* ]] && [[ "$help" == *--force-merge* ]]; then
    invert_merges=1
  else
    log "this invert-index has no --merge-policy/--force-merge: invert runs the merges-off" \
        "configurations only, without a forced merge"
  fi
  # A copy, so that a rebuild during a long run cannot change the binary.
  mkdir -p "$work/bin"
  cp -f "$invert_bin" "$work/bin/invert-index"
  invert_bin="$work/bin/invert-index"
fi
run_lucene=1
[ "$only" = invert ] && run_lucene=0

# ---- corpus ----
if [ -n "$generate_mb" ]; then
  corpus="$work/gen-${generate_mb}mb-seed${seed}.lines"
  if [ ! -s "$corpus" ]; then
    [ -x "$gen_bin" ] || { log "invert-gen not found at $gen_bin"; exit 1; }
    log "generating $corpus"
    "$gen_bin" --bytes "${generate_mb}M" --seed "$seed" -o "$corpus.tmp"
    mv "$corpus.tmp" "$corpus"
  fi
fi
corpus="${corpus:-data/sample.lines}"
[ -r "$corpus" ] || { log "cannot read corpus $corpus"; exit 1; }
cat "$corpus" >/dev/null  # page cache: every run reads it warm

# ---- Lucene peer ----
heap_mb=$(python3 -c "import math;print(int(math.ceil($ram_mb)) + 1024)")
java_opts="${LUCENE_JAVA_OPTS:--Xms${heap_mb}m -Xmx${heap_mb}m}"
if [ $run_lucene -eq 1 ]; then
  bash benchmarks/peers/build.sh --install
fi

# ---- perf ----
perf_events=cycles,instructions,LLC-load-misses,dTLB-load-misses
use_perf=0
if command -v perf >/dev/null 2>&1; then
  probe=$(perf stat -e instructions true 2>&1 || true)
  if [[ "$probe" == *instructions* ]] && [[ "$probe" != *"not supported"* ]] &&
     [[ "$probe" != *"not counted"* ]]; then
    use_perf=1
  fi
fi
[ $use_perf -eq 1 ] || log "perf counters not available here: cycles/IPC/LLC/dTLB not collected"

# ---- configurations ----
configs=()
for m in $merge_modes; do
  for t in $threads_list; do
    if [ $run_invert -eq 1 ] && { [ $invert_merges -eq 1 ] || [ "$m" = off ]; }; then
      configs+=("invert-shared-t$t-$m" "invert-separate-t$t-$m")
    fi
    [ $run_lucene -eq 1 ] && configs+=("lucene-t$t-$m")
  done
done
[ ${#configs[@]} -gt 0 ] || { log "nothing to run"; exit 1; }

command_for() {  # config -> the command line (array in cmd)
  local config="$1" index="$2" m="${1##*-}" t="${1%-*}"
  t="${t##*-t}"
  local policy=none
  [ "$m" = on ] && policy=tiered
  cmd=()
  case "$config" in
    invert-shared-*|invert-separate-*)
      local layout="${config#invert-}"; layout="${layout%%-t*}"
      cmd=("$invert_bin" "$corpus" --index "$index" --threads "$t" --ram-mb "$ram_mb"
           --layout "$layout")
      if [ $invert_merges -eq 1 ]; then
        cmd+=(--merge-policy "$policy")
        [ "$force_merge" -gt 0 ] && cmd+=(--force-merge "$force_merge")
      fi
      ;;
    lucene-*)
      # shellcheck disable=SC2206
      cmd=(java $java_opts -cp "build/peers/classes:$(cat build/peers/lucene-core.jar.path)"
           LuceneIndexer "$corpus" --index "$index" --threads "$t" --ram-mb "$ram_mb"
           --merge-policy "$policy" --force-merge "$force_merge")
      ;;
  esac
  [ $term_vectors -eq 1 ] && cmd+=(--term-vectors)
  [ -n "$max_docs" ] && cmd+=(--max-docs "$max_docs")
  cmd+=(--json)
}

rm -f "$work"/runs/*
n=${#configs[@]}
log "corpus $corpus ($(stat -c %s "$corpus") bytes); ${reps} repetitions of: ${configs[*]}"
failed=0
for ((r = 0; r < reps; r++)); do
  for ((k = 0; k < n; k++)); do
    config="${configs[$(((k + r) % n))]}"
    index="$work/index/$config"
    rm -rf "$index"
    mkdir -p "$(dirname "$index")"
    command_for "$config" "$index"
    base="$work/runs/$config.rep$r"
    wrap=(/usr/bin/time -v -o "$base.time")
    [ $use_perf -eq 1 ] && wrap=(perf stat "-x," -o "$base.perf" -e "$perf_events" -- "${wrap[@]}")
    cut -d' ' -f1 /proc/loadavg >"$base.load" 2>/dev/null || true
    head -n 1 /proc/stat >"$base.stat" 2>/dev/null || true
    if "${wrap[@]}" "${cmd[@]}" >"$base.out" 2>"$base.err"; then
      head -n 1 /proc/stat >>"$base.stat" 2>/dev/null || true
      grep '^{' "$base.out" | tail -n 1 >"$base.json" || true
      if ! python3 - "$base.json" "$config" <<'PY' >&2 2>/dev/null; then
import json, sys
d = json.load(open(sys.argv[1]))
fm = d.get("force_merge_seconds")
fm = "" if fm is None else f", force merge {fm:.2f} s"
print(f"bench_e2e: {sys.argv[2]:22s} {d['docs']:>10} docs {d['seconds']:9.2f} s "
      f"{d['docs_per_s']:10.0f} docs/s {d['gb_per_hour']:7.2f} GB/h{fm}")
PY
        log "$config (repetition $r): no JSON line with docs, seconds, docs_per_s, gb_per_hour in its output ($base.out)"
        failed=1
      fi
    else
      log "$config (repetition $r) failed; stderr in $base.err"
      tail -n 5 "$base.err" >&2 || true
      failed=1
    fi
    [ $keep_index -eq 1 ] || rm -rf "$index"
  done
done

# ---- collect ----
java_version=""
[ $run_lucene -eq 1 ] && java_version=$(java -version 2>&1 | head -n 1)
python3 - "$out" "$work/runs" "$corpus" "$reps" "$ram_mb" "$term_vectors" "${max_docs:-}" \
  "$java_opts" "$java_version" "$use_perf" "$force_merge" "$invert_merges" "${configs[@]}" <<'PY'
import glob, json, os, platform, re, sys, time
out, runs_dir, corpus, reps, ram_mb, tv, max_docs, java_opts, java_version, use_perf = sys.argv[1:11]
force_merge, invert_merges = int(sys.argv[11]), sys.argv[12] == "1"
configs = sys.argv[13:]
CONFIG = re.compile(r"^(invert|lucene)(?:-(shared|separate))?-t(\d+)(?:-(on|off))?$")

# The engines' JSON keys for each recorded figure, first found wins (the
# Lucene peer's names first; the others are names invert-index may use).
ALIASES = {
    "force_merge_seconds": ("force_merge_seconds",),
    "merges": ("merges", "merges_done"),
    "merge_seconds": ("merge_seconds",),
    "merge_bytes_written": ("merge_bytes_written", "bytes_merged"),
    "bytes_written": ("bytes_written",),
    "write_amplification": ("write_amplification",),
    "segments": ("segments_at_end", "final_segments", "segments"),
    "segments_at_commit": ("segments_at_commit",),
}

def parse_time(path):
    res = {}
    if not os.path.exists(path):
        return res
    for line in open(path):
        line = line.strip()
        if line.startswith("Maximum resident set size (kbytes):"):
            res["peak_rss_bytes"] = int(line.rsplit(":", 1)[1]) * 1024
        elif line.startswith("User time (seconds):"):
            res["user_s"] = float(line.rsplit(":", 1)[1])
        elif line.startswith("System time (seconds):"):
            res["sys_s"] = float(line.rsplit(":", 1)[1])
        elif line.startswith("Elapsed (wall clock) time"):
            v = line.split("): ", 1)[1].split(":")
            s = 0.0
            for part in v:
                s = s * 60 + float(part)
            res["wall_s"] = s
        elif line.startswith("Major (requiring I/O) page faults:"):
            res["major_faults"] = int(line.rsplit(":", 1)[1])
        elif line.startswith("Minor (reclaiming a frame) page faults:"):
            res["minor_faults"] = int(line.rsplit(":", 1)[1])
        elif line.startswith("Involuntary context switches:"):
            res["involuntary_cs"] = int(line.rsplit(":", 1)[1])
        elif line.startswith("File system outputs:"):
            # 512-byte units of the kernel's write_bytes: every byte the
            # process wrote to files, those deleted before writeback too.
            res["fs_write_bytes"] = int(line.rsplit(":", 1)[1]) * 512
    return res

def machine_busy_s(path):
    """Non-idle CPU seconds of the whole machine between two /proc/stat lines."""
    try:
        lines = [l.split() for l in open(path) if l.startswith("cpu ")]
    except OSError:
        return None
    if len(lines) != 2:
        return None
    hz = os.sysconf("SC_CLK_TCK")
    def busy(f):  # user nice system idle iowait irq softirq steal ...
        v = [int(x) for x in f[1:9]]
        return v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
    return (busy(lines[1]) - busy(lines[0])) / hz

def parse_perf(path):
    res = {}
    if not os.path.exists(path):
        return res
    for line in open(path):
        parts = line.strip().split(",")
        if len(parts) > 2 and re.fullmatch(r"[\d.]+", parts[0]):
            res[parts[2].split(":")[0]] = float(parts[0])
    if res.get("cycles") and res.get("instructions"):
        res["ipc"] = res["instructions"] / res["cycles"]
    return res

runs = []
for config in configs:
    for r in range(int(reps)):
        base = os.path.join(runs_dir, f"{config}.rep{r}")
        m = CONFIG.match(config)
        engine, layout, threads, merges = m.group(1), m.group(2), int(m.group(3)), m.group(4)
        rec = {"config": config, "repetition": r, "engine": engine, "layout": layout,
               "threads": threads, "merges": merges,
               "force_merge": force_merge if engine == "lucene" or invert_merges else 0}
        if not os.path.exists(base + ".json"):
            rec["failed"] = True
            runs.append(rec)
            continue
        try:
            engine_json = json.load(open(base + ".json"))
        except ValueError:
            rec["failed"] = True
            runs.append(rec)
            continue
        rec["result"] = engine_json
        for k in ("docs", "seconds", "docs_per_s", "gb_per_hour", "index_bytes"):
            rec[k] = engine_json.get(k)
        for k, names in ALIASES.items():
            rec[k] = next((engine_json[n] for n in names if engine_json.get(n) is not None), None)
        rec["engine_peak_rss_bytes"] = engine_json.get("peak_rss_bytes")
        rec.update(parse_time(base + ".time"))
        if rec["force_merge"] == 0:
            rec["force_merge_seconds"] = None
        if rec["bytes_written"] is None and engine_json.get("flushed_bytes") is not None:
            # invert-index: flushed segment files + merged segment files
            rec["bytes_written"] = engine_json["flushed_bytes"] + (rec["merge_bytes_written"] or 0)
        # Start to a committed index of at most N segments, whatever order
        # the engine commits and force-merges in.
        if rec["seconds"] is not None:
            rec["total_seconds"] = rec["seconds"] + (rec["force_merge_seconds"] or 0)
        if rec.get("merge_bytes_written") is not None and rec.get("merge_seconds"):
            rec["merge_mb_per_s"] = rec["merge_bytes_written"] / 1e6 / rec["merge_seconds"]
        if rec["write_amplification"] is None and rec["bytes_written"] and rec["index_bytes"]:
            rec["write_amplification"] = rec["bytes_written"] / rec["index_bytes"]
        if rec.get("fs_write_bytes") is not None and rec["index_bytes"]:
            rec["fs_write_amplification"] = rec["fs_write_bytes"] / rec["index_bytes"]
        try:
            rec["loadavg_before"] = float(open(base + ".load").read())
        except (OSError, ValueError):
            pass
        busy = machine_busy_s(base + ".stat")
        if busy is not None and "user_s" in rec and "sys_s" in rec:
            # CPU time the rest of the machine used during the run: noise.
            rec["machine_busy_s"] = busy
            rec["other_busy_s"] = max(0.0, busy - rec["user_s"] - rec["sys_s"])
        if rec.get("docs") and rec.get("user_s") is not None:
            rec["docs_per_cpu_s"] = rec["docs"] / max(1e-9, rec["user_s"] + rec["sys_s"])
        perf = parse_perf(base + ".perf")
        if perf:
            rec["perf"] = perf
        runs.append(rec)

cpu = ""
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
except OSError:
    pass
doc = {
    "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    "corpus": {"path": corpus, "bytes": os.path.getsize(corpus)},
    "repetitions": int(reps),
    "ram_mb": float(ram_mb),
    "term_vectors": tv == "1",
    "max_docs": int(max_docs) if max_docs else None,
    "force_merge": force_merge,
    "invert_merge_flags": invert_merges,
    "configs": configs,
    "machine": {"cpu": cpu, "cpus": os.cpu_count(), "kernel": platform.release()},
    "java": {"version": java_version, "opts": java_opts} if java_version else None,
    "perf": use_perf == "1",
    "runs": runs,
}
os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
PY
python3 scripts/bench_e2e_table.py "$out"
log "raw results: $out"
exit $failed
