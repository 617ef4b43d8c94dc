#!/usr/bin/env bash
# Peak RSS over the RAM buffer: how much memory invert-index holds beyond
# what its RAM counter governs. Runs
#   * one 60 MB document (30M one-letter tokens) with --ram-mb 16, and
#   * a generated Wikipedia-like corpus at --ram-mb 16, 64, 256 with 1 and 2
#     threads,
# and prints one row per run: peak RSS, the buffer, their difference, and the
# highest RAM the writer counted. RSS is the process' (getrusage ru_maxrss),
# so it includes the reader's buffers and the documents being indexed.
#
#   scripts/bench_rss.sh [--corpus-mb 300] [--keep DIR] [--bin BUILD_TOOLS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

corpus_mb=300
work=""
bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus-mb) corpus_mb="$2"; shift 2 ;;
    --keep) work="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    *) echo "usage: $0 [--corpus-mb N] [--keep DIR] [--bin DIR]" >&2; exit 2 ;;
  esac
done

if [ -z "$bin" ]; then
  bash scripts/setup.sh
  cmake --preset release >/dev/null
  cmake --build --preset release -j "$(nproc)" --target invert-index invert-gen >/dev/null
  bin=build/release/tools
fi
index_bin="$(find "$bin" -name invert-index -type f | head -1)"
gen_bin="$(find "$bin" -name invert-gen -type f | head -1)"

if [ -z "$work" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

# One 60 MB document: 30M tokens of one letter and a space.
python3 - "$work/huge.lines" <<'EOF'
import random, sys
rng = random.Random(60)
letters = "abcdefghijklmnopqrstuvwxyz"
with open(sys.argv[1], "w") as f:
    f.write("huge\t2026-01-01\t")
    chunk = " ".join(rng.choice(letters) for _ in range(1 << 20)) + " "
    written = 0
    while written < 60_000_000:
        f.write(chunk)
        written += len(chunk)
    f.write("\n")
EOF

"$gen_bin" --bytes $((corpus_mb * 1000000)) --seed 7 --quiet -o "$work/corpus.lines"

run() {  # label ram threads input
  local label="$1" ram="$2" threads="$3" input="$4"
  rm -rf "$work/index"
  local out
  out="$("$index_bin" "$input" --index "$work/index" --ram-mb "$ram" --threads "$threads" --json 2>"$work/stderr" || true)"
  python3 - "$label" "$ram" "$threads" "$out" "$work/stderr" <<'EOF'
import json, sys
label, ram, threads, out, err = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
try:
    r = json.loads(out.strip().splitlines()[-1])
except Exception:
    print(f"{label}: no report; stderr: {open(err).read().strip()[:300]}")
    sys.exit(0)
rss = r["peak_rss_bytes"] / 2**20
counted = r["peak_ram_buffer_bytes"] / 2**20
skipped = r.get("skipped", 0)
print(f"| {label:<28} | {threads:>7} | {ram:>6.0f} | {rss:>9.1f} | {rss - ram:>+10.1f} | {counted:>11.1f} | {r['docs']:>7} | {skipped:>7} |")
EOF
}

echo "| input                        | threads | buffer | peak RSS  | RSS-buffer | peak counted | docs    | skipped |"
echo "|------------------------------|---------|--------|-----------|------------|--------------|---------|---------|"
run "one 60 MB document" 16 1 "$work/huge.lines"
run "one 60 MB document" 256 1 "$work/huge.lines"
for ram in 16 64 256; do
  for threads in 1 2; do
    run "generated ${corpus_mb} MB corpus" "$ram" "$threads" "$work/corpus.lines"
  done
done
