#!/usr/bin/env bash
# End-to-end test of the command-line tools: invert-index on a small input
# with malformed lines (wrong field count, invalid UTF-8) skips exactly
# those (a 40 KB word is split by the analyzer, as Lucene's does, so it is no
# error), JSON lines with an immense id term are skipped too, the index passes invert-check and invert-dump finds a
# term; --strict stops at the first bad line with exit status 1; damaging a
# file makes invert-check fail.
#   cli_test.sh BIN_DIR
set -euo pipefail
bin="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input="$work/in.lines"
{
  printf 'FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\n'
  printf 'First title\t01-JAN-2020 00:00:00.000\tThe quick brown fox jumps\n'
  printf 'Only two fields\tno body here\n'
  printf 'Bad bytes\t01-JAN-2020 00:00:00.000\tinvalid \xC3\x28 sequence\n'
  printf 'Immense\t01-JAN-2020 00:00:00.000\t%s\n' "$(head -c 40000 /dev/zero | tr '\0' 'x')"
  printf 'Second title\t02-JAN-2020 00:00:00.000\tthe lazy dog sleeps, the fox runs\n'
} > "$input"

out=$("$bin/index/invert-index" "$input" --index "$work/idx" --ram-mb 8 --json)
echo "$out"
python3 - "$out" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["docs"] == 3, r
assert r["skipped"] == 2, r
assert r["ok"] is True, r
PY
"$bin/check/invert-check" "$work/idx"
dump=$("$bin/dump/invert-dump" "$work/idx" --field body --term fox)
echo "$dump"
grep -q 'doc freq 2, total term freq 2' <<<"$dump"
grep -q 'title: Second title' <<<"$dump"

# Human-readable report lists the bad lines with their numbers.
report=$("$bin/index/invert-index" "$input" --index "$work/idx2" --ram-mb 8)
grep -q 'skipped      2 malformed line(s)' <<<"$report"
grep -q 'line 3' <<<"$report"

# JSON lines: the id is a keyword field, so a 40 KB id is an immense term.
json="$work/in.jsonl"
{
  printf '{"id": 1, "title": "A", "date": "d", "body": "alpha beta"}\n'
  printf '{"id": "%s", "title": "B", "date": "d", "body": "gamma"}\n' "$(head -c 40000 /dev/zero | tr '\0' 'y')"
  printf '{"id": 3, "title": "C", "body": "delta"}\n'
  printf '{"id": 4, "title": "D"}\n'
} > "$json"
out=$("$bin/index/invert-index" "$json" --index "$work/jidx" --ram-mb 8 --json)
echo "$out"
python3 - "$out" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["docs"] == 2 and r["skipped"] == 2, r
PY
"$bin/check/invert-check" "$work/jidx" >/dev/null

if "$bin/index/invert-index" "$input" --index "$work/idx3" --ram-mb 8 --strict >/dev/null 2>&1; then
  echo "--strict should have failed" >&2
  exit 1
fi

# Damage: flip a byte in the middle of the postings; the checker must fail.
doc=$(ls "$work/idx"/*.doc | head -1)
size=$(stat -c %s "$doc")
printf '\x55' | dd of="$doc" bs=1 seek=$((size / 2)) conv=notrunc status=none
if "$bin/check/invert-check" "$work/idx" >/dev/null; then
  echo "invert-check accepted a damaged index" >&2
  exit 1
fi
echo "cli test passed"
