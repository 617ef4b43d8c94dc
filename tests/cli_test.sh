#!/usr/bin/env bash
# End-to-end test of the command-line tools (CTest: CliTest.IndexCheckDump).
#   * invert-index on a small input with malformed lines (wrong field count,
#     invalid UTF-8) skips exactly those (a 40 KB word is split by the
#     analyzer, as Lucene's does, so it is no error); JSON lines with an
#     immense id term are skipped too; the index passes invert-check and
#     invert-dump finds a term; damaging a file makes invert-check fail.
#   * Strict flags: unknown flags, malformed and out-of-range values and
#     conflicting flags are usage errors (exit 2) naming the flag and range.
#   * Open modes: an existing index is refused without --append/--overwrite;
#     both work; --append --overwrite is a usage error; a schema mismatch
#     (--term-vectors) is refused before anything is added.
#   * --max-docs counts documents added; input that is not line documents
#     (UTF-16, binary, no TABs) is refused; a date that is not UTF-8 makes a
#     bad line; --strict reports what was rolled back, never "indexed".
#   * invert-dump escapes control bytes (a NUL does not cut the output),
#     --docs and --ids; invert-check names the cause of an unreadable commit.
#   * invert-merge: two halves of a sample merged hold its documents and pass
#     invert-check; --force-merge 1 leaves one segment with the one-pass
#     index's field statistics; bad flags, missing inputs, OUT as an input, an
#     existing OUT and a disagreeing schema are refused. invert-index
#     --update-key (twice over the sample: one pass's documents), --delete-ids,
#     --merge-policy and --force-merge (a commit first, then the forced merge
#     and another commit), and the report's merge lines (with merge CPU time).
#   * Threads: one and two threads index the same documents, bad lines,
#     postings and term statistics (and, merged, the same terms); --strict
#     stops at the first bad line and --max-docs adds the first N documents
#     with either; --update-key with --threads 2 keeps the last of the lines
#     with the same id.
#   * invert-search: hits in score order with the stored title (OR, --and,
#     +must, -not, phrases exact and sloppy, prefixes, field:word), --json,
#     --explain; a syntax error points at the character (exit 2), an unknown
#     field is named with the index's fields (exit 1).
#   cli_test.sh BIN_DIR
set -euo pipefail
bin="$1"
index_bin="$bin/index/invert-index"
check_bin="$bin/check/invert-check"
dump_bin="$bin/dump/invert-dump"
gen_bin="$bin/gen/invert-gen"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout:" >&2; cat "$work/out" >&2 || true
  echo "--- stderr:" >&2; cat "$work/err" >&2 || true
  exit 1
}
# run STATUS CMD...: runs CMD with stdout/stderr in $work/out, $work/err and
# checks its exit status.
run() {
  local want="$1"; shift
  local got=0
  "$@" >"$work/out" 2>"$work/err" || got=$?
  [ "$got" -eq "$want" ] || fail "exit status $got, expected $want: $*"
}
err_has() { grep -qF -- "$1" "$work/err" || fail "stderr lacks: $1"; }
out_has() { grep -qF -- "$1" "$work/out" || fail "stdout lacks: $1"; }
out_lacks() { ! grep -qF -- "$1" "$work/out" || fail "stdout has: $1"; }
# json_check PYTHON_EXPR: evaluates the expression with r = the JSON on stdout.
json_check() {
  python3 - "$work/out" "$1" <<'PY' || fail "JSON check: $1"
import json, sys
r = json.loads(open(sys.argv[1]).read())
if not eval(sys.argv[2]):
    print("not true:", sys.argv[2], "in", r, file=sys.stderr)
    sys.exit(1)
PY
}

input="$work/in.lines"
{
  printf 'FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\n'
  printf 'First title\t01-JAN-2020 00:00:00.000\tThe quick brown fox jumps\n'
  printf 'Only two fields\tno body here\n'
  printf 'Bad bytes\t01-JAN-2020 00:00:00.000\tinvalid \xC3\x28 sequence\n'
  printf 'Immense\t01-JAN-2020 00:00:00.000\t%s\n' "$(head -c 40000 /dev/zero | tr '\0' 'x')"
  printf 'Second title\t02-JAN-2020 00:00:00.000\tthe lazy dog sleeps, the fox runs\n'
} > "$input"

# ---- The main path.
run 0 "$index_bin" "$input" --index "$work/idx" --ram-mb 8 --json
json_check 'r["docs"] == 3 and r["skipped"] == 2 and r["ok"] is True'
json_check 'r["committed"] is True and r["rolled_back_docs"] == 0 and r["index_docs"] == 3'
run 0 "$check_bin" "$work/idx"
out_has 'OK: every checksum and invariant holds'
run 0 "$check_bin" "$work/idx" --json
json_check 'r["ok"] is True and r["docs"] == 3'
run 0 "$dump_bin" "$work/idx" --field body --term fox
out_has 'doc freq 2, total term freq 2'
out_has 'title: Second title'

# Human-readable report lists the bad lines with their numbers.
run 0 "$index_bin" "$input" --index "$work/idx2" --ram-mb 8
out_has 'indexed      3 docs'
out_has 'skipped      2 malformed line(s)'
out_has 'line 3: expected 3 tab-separated fields, found 2'
out_has 'line 4: field "body" is not valid UTF-8 at byte 8'

# Standard input.
run 0 bash -c "cat '$input' | '$index_bin' - --index '$work/stdin-idx' --ram-mb 8 --json"
json_check 'r["docs"] == 3'

# JSON lines: the id is a keyword field, so a 40 KB id is an immense term.
json="$work/in.jsonl"
{
  printf '{"id": 1, "title": "A", "date": "d", "body": "alpha beta"}\n'
  printf '{"id": "%s", "title": "B", "date": "d", "body": "gamma"}\n' "$(head -c 40000 /dev/zero | tr '\0' 'y')"
  printf '{"id": 3, "title": "C", "body": "delta"}\n'
  printf '{"id": 4, "title": "D"}\n'
} > "$json"
run 0 "$index_bin" "$json" --index "$work/jidx" --ram-mb 8 --json
json_check 'r["docs"] == 2 and r["skipped"] == 2'
run 0 "$check_bin" "$work/jidx"

# ---- Usage errors: exit 2, naming the flag (and its range).
run 2 "$index_bin" "$input" --index "$work/u" --bogus
err_has '--bogus'
run 2 "$index_bin" "$input" --index "$work/u" --ram-mb inf
err_has 'invert-index: --ram-mb: value inf not in range [4 - 1048576]'
run 2 "$index_bin" "$input" --index "$work/u" --ram-mb 1e12
err_has '--ram-mb: value 1e12 not in range [4 - 1048576]'
run 2 "$index_bin" "$input" --index "$work/u" --ram-mb nan
err_has '--ram-mb: value nan not in range'
run 2 "$index_bin" "$input" --index "$work/u" --max-docs abc
err_has '--max-docs: value abc is not an integer in [0 - 18446744073709551615]'
run 2 "$index_bin" "$input" --index "$work/u" --max-docs -1
err_has '--max-docs'
run 2 "$index_bin" "$input" --index "$work/u" --threads 0
err_has '--threads: value 0 not in range [1 - 256]'
run 2 "$index_bin" "$input" --index "$work/u" --threads 1000
err_has '--threads: value 1000 not in range [1 - 256]'
run 2 "$index_bin" "$input" --index "$work/u" --layout diagonal
err_has '--layout'
run 2 "$index_bin" "$input"
err_has '--index'
run 2 "$index_bin" "$input" --index "$work/u" --append --overwrite
err_has '--append'
err_has '--overwrite'
run 2 "$index_bin" "$input" --index "$work/u" --recover
err_has '--recover'
[ ! -e "$work/u" ] || fail "a usage error created the index directory"
run 0 "$index_bin" --help
out_has '--ram-mb'
out_has '--append'
run 2 "$check_bin" "$work/idx" --bogus
run 2 "$check_bin"
run 0 "$check_bin" --help
run 2 "$dump_bin" "$work/idx" --field body
err_has '--term'
run 2 "$dump_bin" "$work/idx" --docs --ids
run 2 "$dump_bin" "$work/idx" --docs --limit x
err_has '--limit'
run 2 "$gen_bin" --docs abc
err_has '--docs'
run 2 "$gen_bin" --docs 5 --bytes 1K
run 2 "$gen_bin" --zipf-tail-exponent 1
err_has '--zipf-tail-exponent: value 1 not in range (1 - 100]'
run 0 "$gen_bin" --docs 30 --quiet --seed 7 -o "$work/gen.lines"
[ "$(wc -l < "$work/gen.lines")" -eq 31 ] || fail "invert-gen --docs 30 wrote $(wc -l < "$work/gen.lines") lines"

# ---- Open modes. idx holds 3 documents in generation 1 (or more: the
# generation is whatever the writer numbered its first commit).
run 0 "$dump_bin" "$work/idx" --ids
cp "$work/out" "$work/ids-before"
[ "$(wc -l < "$work/ids-before")" -eq 3 ] || fail "expected 3 ids"
run 1 "$index_bin" "$input" --index "$work/idx" --ram-mb 8
err_has "$work/idx already holds an index (generation "
err_has ', 3 documents); use --append to add to it or --overwrite to replace it'
run 0 "$dump_bin" "$work/idx" --ids
cmp -s "$work/out" "$work/ids-before" || fail "the refused run changed the index"
run 0 "$index_bin" "$input" --index "$work/idx" --ram-mb 8 --append --json
json_check 'r["docs"] == 3 and r["index_docs"] == 6 and r["created"] is False'
run 0 "$check_bin" "$work/idx"
run 0 "$dump_bin" "$work/idx" --ids
[ "$(wc -l < "$work/out")" -eq 6 ] || fail "expected 6 ids after --append"
run 0 "$index_bin" "$input" --index "$work/idx" --ram-mb 8 --overwrite --json
json_check 'r["docs"] == 3 and r["index_docs"] == 3 and r["created"] is True'
run 0 "$check_bin" "$work/idx"
run 1 "$index_bin" "$input" --index "$work/fresh" --ram-mb 8 --append
[ ! -e "$work/fresh/segments_1" ] || fail "--append created an index"

# ---- One writer at a time: a second one fails at open, naming the lock.
{ ( python3 -c "
for i in range(3000): print(f't{i}\td\tbody words {i} ' + 'x' * 30)"; sleep 2 ) |
  "$index_bin" - --index "$work/locked" --ram-mb 8 > "$work/first.out" 2>&1; } &
first=$!
for _ in $(seq 50); do [ -e "$work/locked/write.lock" ] && break; sleep 0.1; done
run 1 "$index_bin" "$input" --index "$work/locked" --ram-mb 8 --append
err_has "invert-index: cannot open the index in $work/locked: "
grep -qi 'lock' "$work/err" || fail "the lock is not named"
wait "$first" || { cat "$work/first.out" >&2; fail "the first writer failed"; }
grep -qF 'indexed      3,000 docs' "$work/first.out" || fail "first writer: $(cat "$work/first.out")"

# ---- An unreadable newest commit point: --append fails with the cause and
# changes nothing; --append --recover continues from the older commit.
run 0 "$index_bin" "$input" --index "$work/rec" --ram-mb 8
run 0 "$index_bin" "$input" --index "$work/rec" --ram-mb 8 --append
newest=$(ls "$work/rec" | grep '^segments_' | sort -t_ -k2 -n | tail -1)
head -c 20 "$work/rec/$newest" > "$work/rec.short"  # its header stays: still a commit point
mv "$work/rec.short" "$work/rec/$newest"
run 1 "$index_bin" "$input" --index "$work/rec" --ram-mb 8 --append
err_has "invert-index: cannot open the index in $work/rec: "
err_has "$newest"
run 0 "$index_bin" "$input" --index "$work/rec" --ram-mb 8 --append --recover --json
err_has 'invert-index: warning: '
json_check 'r["index_docs"] == 6 and r["committed"] is True'
run 0 "$check_bin" "$work/rec"

# ---- Schema check: idx has no body term vectors.
run 1 "$index_bin" "$input" --index "$work/idx" --ram-mb 8 --append --term-vectors
err_has "the index's \"body\" field has no term vectors; this run would add it with term vectors (positions+offsets): drop --term-vectors to append, or --overwrite"
run 0 "$index_bin" "$input" --index "$work/tv" --ram-mb 8 --term-vectors
run 1 "$index_bin" "$input" --index "$work/tv" --ram-mb 8 --append
err_has "the index's \"body\" field has term vectors (positions+offsets); this run would add it without term vectors: pass --term-vectors to append, or --overwrite"
run 0 "$dump_bin" "$work/idx" --ids
cmp -s "$work/out" "$work/ids-before" || fail "a refused --append changed the index"
# --overwrite starts a new schema.
run 0 "$index_bin" "$input" --index "$work/tv" --ram-mb 8 --overwrite
run 0 "$check_bin" "$work/tv"

# ---- --max-docs counts documents added, not lines read (bad lines between).
mixed="$work/mixed.lines"
for i in $(seq 1 30); do
  if [ $((i % 3)) -eq 0 ]; then
    printf 'bad line %d without enough fields\tx\n' "$i"
  else
    printf 'title %d\tdate\tbody number %d\n' "$i" "$i"
  fi
done > "$mixed"
for threads in 1 3; do
  run 0 "$index_bin" "$mixed" --index "$work/max$threads" --ram-mb 16 --max-docs 7 \
    --threads "$threads" --json
  json_check 'r["docs"] == 7 and r["index_docs"] == 7'
  run 0 "$dump_bin" "$work/max$threads" --ids
  [ "$(wc -l < "$work/out")" -eq 7 ] || fail "--max-docs 7 --threads $threads added $(wc -l < "$work/out")"
done
run 0 "$index_bin" "$mixed" --index "$work/max0" --ram-mb 8 --max-docs 0 --json
json_check 'r["docs"] == 0'

# ---- Input that is not line documents: refused before any index is made.
python3 -c "
import sys
open(sys.argv[1], 'wb').write('t\tdate\tbody\n'.encode('utf-16'))
open(sys.argv[2], 'wb').write('t\tdate\tbody\n'.encode('utf-16-le'))
" "$work/bom16.lines" "$work/le16.lines"
run 1 "$index_bin" "$work/bom16.lines" --index "$work/nope"
err_has 'does not look like line documents (UTF-16 little-endian byte order mark at byte 0); convert it to UTF-8'
run 1 "$index_bin" "$work/le16.lines" --index "$work/nope"
err_has 'does not look like line documents (looks like UTF-16 little-endian'
printf 't1\td\tb\nt2\td\tb\0\0\0\n' > "$work/nul.lines"
run 1 "$index_bin" "$work/nul.lines" --index "$work/nope"
err_has 'does not look like line documents (NUL bytes in line 2)'
gzip -c "$input" > "$work/in.lines.gz"
run 1 "$index_bin" "$work/in.lines.gz" --index "$work/nope"
err_has '(gzip-compressed data)'
cp "$json" "$work/json.txt"
run 1 "$index_bin" "$work/json.txt" --index "$work/nope"
err_has '(no TAB in the first 4 lines); line documents are title<TAB>date<TAB>body'
err_has '--format json'
run 0 "$index_bin" "$work/json.txt" --index "$work/nope" --format json --ram-mb 8
[ -e "$work/nope" ] && rm -rf "$work/nope"

# ---- Every stored field is checked as UTF-8; date is never analyzed.
printf 'ok\t2020\tfine\nbad date\t20\xff20\tfine too\nok again\t2021\tfine\n' > "$work/date.lines"
run 0 "$index_bin" "$work/date.lines" --index "$work/date" --ram-mb 8
out_has 'indexed      2 docs'
out_has 'line 2: field "date" is not valid UTF-8 at byte 2'

# ---- --strict: the report says what was rolled back, never "indexed".
run 1 "$index_bin" "$input" --index "$work/idx3" --ram-mb 8 --strict
out_has 'rolled back: 1 document added in this run was discarded'
out_lacks 'indexed'
err_has 'line 3: expected 3 tab-separated fields, found 2'
run 1 "$index_bin" "$input" --index "$work/idx3" --ram-mb 8 --strict --json
json_check 'r["ok"] is False and r["committed"] is False and r["rolled_back_docs"] == 1 and r["docs"] == 0'
run 1 "$index_bin" "$input" --index "$work/idx" --ram-mb 8 --strict --append
out_has 'rolled back: 1 document added in this run was discarded; the index still holds its last commit (generation '
out_has ', 3 documents)'
out_lacks 'indexed'
run 0 "$dump_bin" "$work/idx" --ids
cmp -s "$work/out" "$work/ids-before" || fail "a rolled-back run changed the index"

# ---- invert-dump escapes what it prints; --docs and --ids.
{
  printf '{"id": "b", "title": "nul\\u0000here\\u0001ctl\\\\back caf\\u00e9", "date": "d", "body": "escape test"}\n'
  printf '{"id": "a", "title": "tab\\there", "date": "d2", "body": "second doc"}\n'
  printf '{"id": "c", "title": "plain", "body": "third escape"}\n'
} > "$work/esc.jsonl"
run 0 "$index_bin" "$work/esc.jsonl" --index "$work/esc" --ram-mb 8
run 0 "$dump_bin" "$work/esc" --docs
out_has "$(printf 'doc 0\tid=b\ttitle=nul\\x00here\\x01ctl\\\\back caf\xc3\xa9\tdate=d')"
out_has "$(printf 'doc 1\tid=a\ttitle=tab\\there\tdate=d2')"
[ "$(wc -l < "$work/out")" -eq 3 ] || fail "--docs printed $(wc -l < "$work/out") lines"
run 0 "$dump_bin" "$work/esc" --docs --limit 1
[ "$(wc -l < "$work/out")" -eq 1 ] || fail "--docs --limit 1 printed $(wc -l < "$work/out") lines"
run 0 "$dump_bin" "$work/esc" --ids
[ "$(cat "$work/out")" = "$(printf 'a\nb\nc')" ] || fail "--ids not the sorted ids"
run 0 "$dump_bin" "$work/esc" --field body --term escape
out_has 'doc freq 2'
out_has 'title: nul\x00here\x01ctl\\back'

# A stored-fields block that cannot be read is reported, and exit status 1.
run 0 "$index_bin" "$work/gen.lines" --index "$work/fdt" --ram-mb 8
fdt=$(ls "$work/fdt"/*.fdt | head -1)
size=$(stat -c %s "$fdt")
printf '\x55\x55\x55\x55\x55\x55\x55\x55' | dd of="$fdt" bs=1 seek=$((size / 2)) conv=notrunc status=none
run 1 "$dump_bin" "$work/fdt" --docs
out_has "$(printf 'doc 0\t<stored fields unreadable: ')"
run 1 "$dump_bin" "$work/fdt" --field id --term 2
out_has '<stored fields unreadable: '
run 1 "$dump_bin" "$work/fdt" --ids
err_has 'stored fields unreadable: '

# ---- Damage: flip a byte in the middle of the postings; the checker fails.
doc=$(ls "$work/idx2"/*.doc | head -1)
size=$(stat -c %s "$doc")
printf '\x55' | dd of="$doc" bs=1 seek=$((size / 2)) conv=notrunc status=none
run 1 "$check_bin" "$work/idx2"
out_has 'BROKEN'
# An unreadable commit point: the cause is printed, with the file.
commit=$(ls "$work/jidx" | grep '^segments_' | sort -t_ -k2 -n | tail -1)
head -c 20 "$work/jidx/$commit" > "$work/jidx/$commit.short"
mv "$work/jidx/$commit.short" "$work/jidx/$commit"
run 1 "$check_bin" "$work/jidx"
err_has "invert-check: cannot read the index in $work/jidx: "
err_has "$commit"
run 1 "$check_bin" "$work/no-such-index"
# ---- Merges, updates, deletes (issue 12). The sample: 200 generated line
# documents with an id column (d1 ... d200), and its two halves.
merge_bin="$bin/merge/invert-merge"
run 0 "$gen_bin" --docs 200 --quiet --seed 11 -o "$work/sample.raw"
sample="$work/sample.lines"
awk -F'\t' 'NR == 1 { print "FIELDS_HEADER_INDICATOR###\tid\tdoctitle\tdocdate\tbody"; next }
  { print "d" (NR - 1) "\t" $0 }' "$work/sample.raw" > "$sample"
{ head -1 "$sample"; sed -n '2,101p' "$sample"; } > "$work/half1.lines"
{ head -1 "$sample"; sed -n '102,201p' "$sample"; } > "$work/half2.lines"
run 0 "$index_bin" "$sample" --index "$work/full" --ram-mb 8 --json
json_check 'r["docs"] == 200 and r["merge_policy"] == "tiered" and r["final_segments"] == 1'
json_check 'r["write_amplification"] > 0 and r["deleted_docs"] == 0 and r["update_key"] is None'
run 0 "$check_bin" "$work/full" --json
cp "$work/out" "$work/full.check"
run 0 "$index_bin" "$work/half1.lines" --index "$work/h1" --ram-mb 8 --merge-policy none
out_has 'merges       0 done (none policy): 0.00 MB read, 0.00 MB written, 0.00 s merging (0.00 s CPU)'
out_has 'deletes      0 documents deleted'
out_has 'final        1 segment, '
run 0 "$index_bin" "$work/half2.lines" --index "$work/h2" --ram-mb 8

# invert-merge: the halves merged hold the sample's 200 documents.
run 0 "$merge_bin" "$work/m" "$work/h1" "$work/h2" --merge-policy none --json
json_check 'r["ok"] is True and r["input_docs"] == 200 and r["inputs"] == 2 and r["created"] is True'
json_check 'r["docs"] == 200 and r["segments"] == 2 and r["merges"] == 0'
json_check 'r["merge_seconds"] == 0 and r["merge_cpu_seconds"] == 0'
run 0 "$check_bin" "$work/m" --json
json_check 'r["ok"] is True and r["docs"] == 200 and r["segments"] == 2'
run 0 "$dump_bin" "$work/m" --ids
[ "$(sort -u "$work/out" | wc -l)" -eq 200 ] || fail "invert-merge: not the 200 ids"
# --force-merge 1: one segment, with exactly the one-pass index's terms and
# postings (field statistics from invert-check).
run 0 "$merge_bin" "$work/m1" "$work/h1" "$work/h2" --force-merge 1
out_has 'inputs       2 indexes: 200 documents in 2 segments'
out_has 'force-merge  to at most 1 segment in '
grep -qE '^merges       1 done \(tiered policy\): [0-9.]+ MB read, [0-9.]+ MB written, [0-9.]+ s merging \([0-9.]+ s CPU\)$' "$work/out" \
  || fail "invert-merge: no merge line with its CPU time"
out_has 'after        generation '
run 0 "$check_bin" "$work/m1" --json
json_check 'r["ok"] is True and r["docs"] == 200 and r["segments"] == 1'
python3 - "$work/out" "$work/full.check" <<'PY' || fail "force-merged fields differ from the one-pass index's"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a["fields"] == b["fields"] else 1)
PY
run 0 "$dump_bin" "$work/m1" --ids
[ "$(sort -u "$work/out" | wc -l)" -eq 200 ] || fail "--force-merge 1: not the 200 ids"
# OUT exists: refused without --append; with it, the documents add up.
run 0 "$dump_bin" "$work/m" --ids
cp "$work/out" "$work/m-ids"
run 1 "$merge_bin" "$work/m" "$work/h1"
err_has "$work/m already holds an index (generation "
err_has 'use --append to add to it or --overwrite to replace it'
run 0 "$merge_bin" "$work/m" "$work/h1" --append --json
json_check 'r["docs_before"] == 200 and r["docs"] == 300 and r["created"] is False'
run 0 "$check_bin" "$work/m" --json
json_check 'r["ok"] is True and r["docs"] == 300'
# Usage errors and bad inputs: nothing is created.
run 2 "$merge_bin" "$work/m2"
err_has 'IN'
run 2 "$merge_bin" "$work/m2" "$work/h1" --force-merge 0
err_has '--force-merge: value 0 not in range [1 - 1000000]'
run 2 "$merge_bin" "$work/m2" "$work/h1" --merge-policy lazy
err_has '--merge-policy'
run 2 "$merge_bin" "$work/m2" "$work/h1" --append --overwrite
run 1 "$merge_bin" "$work/m2" "$work/h1" "$work/no-such"
err_has "invert-merge: input index $work/no-such is not a directory"
run 1 "$merge_bin" "$work/m2" "$work/h1" "$work/gen.lines"
err_has "is not a directory"
mkdir "$work/empty"
run 1 "$merge_bin" "$work/m2" "$work/empty"
err_has "cannot read the input index $work/empty: "
run 1 "$merge_bin" "$work/h1" "$work/h1" --append
err_has "is OUT itself"
[ ! -e "$work/m2" ] || fail "a refused invert-merge created its output"
# A schema that disagrees (body with term vectors): refused, OUT unchanged.
run 0 "$index_bin" "$work/half1.lines" --index "$work/htv" --ram-mb 8 --term-vectors
run 1 "$merge_bin" "$work/m1" "$work/htv" --append
err_has 'body'
run 0 "$check_bin" "$work/m1" --json
json_check 'r["ok"] is True and r["docs"] == 200 and r["segments"] == 1'

# --update-key: indexing the sample twice leaves one pass's documents; within
# one run a later document replaces an earlier one (still in RAM).
run 0 "$index_bin" "$sample" --index "$work/up" --ram-mb 8 --update-key id --json
json_check 'r["docs"] == 200 and r["index_docs"] == 200 and r["update_key"] == "id"'
run 0 "$index_bin" "$sample" --index "$work/up" --ram-mb 8 --update-key id --append --json
json_check 'r["docs"] == 200 and r["index_docs"] == 200 and r["deleted_docs"] == 200'
run 0 "$check_bin" "$work/up" --json
json_check 'r["ok"] is True and r["docs"] == 200'
run 0 "$dump_bin" "$work/up" --ids
[ "$(sort -u "$work/out" | wc -l)" -eq 200 ] || fail "--update-key: not the 200 ids"
[ "$(wc -l < "$work/out")" -eq 200 ] || fail "--update-key: an id appears twice"
{
  printf 'FIELDS_HEADER_INDICATOR###\tid\tdoctitle\tdocdate\tbody\n'
  printf 'x\told title\td\tfirst body\n'
  printf 'y\tother\td\tanother body\n'
  printf 'x\tnew title\td\tsecond body\n'
} > "$work/dup.lines"
run 0 "$index_bin" "$work/dup.lines" --index "$work/dup" --ram-mb 8 --update-key id --threads 1
out_has 'deletes      1 document deleted (replaced by --update-key id)'
out_has 'the index holds 2 documents'
run 0 "$dump_bin" "$work/dup" --docs
out_has 'title=new title'
out_lacks 'title=old title'
run 2 "$index_bin" "$sample" --index "$work/u" --update-key title
err_has 'invert-index: --update-key "title" is analyzed text'
err_has 'use a keyword field: id'
run 2 "$index_bin" "$sample" --index "$work/u" --update-key date
err_has '"date" is stored only, not indexed'
run 2 "$index_bin" "$sample" --index "$work/u" --update-key nope
err_has '"nope" is not a field of line documents (id, title, date, body)'

# --delete-ids: deletes by id (CRLF and empty lines allowed; an id that
# matches nothing is no error), then commits.
printf 'd1\nd2\r\n\nd3\nnot-there\n' > "$work/ids.txt"
run 0 "$index_bin" --delete-ids "$work/ids.txt" --index "$work/up" --json
json_check 'r["deleted_docs"] == 3 and r["index_docs"] == 197 and r["delete_ids"] == 4'
json_check 'r["ok"] is True and r["committed"] is True and r["docs"] == 0'
run 0 "$check_bin" "$work/up" --json
json_check 'r["ok"] is True and r["docs"] == 197'
run 0 "$dump_bin" "$work/up" --ids
! grep -qxE 'd1|d2|d3' "$work/out" || fail "--delete-ids left a deleted id"
[ "$(wc -l < "$work/out")" -eq 197 ] || fail "--delete-ids: expected 197 ids"
printf 'd4\n' > "$work/ids2.txt"
run 0 "$index_bin" --delete-ids "$work/ids2.txt" --index "$work/up" --force-merge 1
out_has 'deleted      1 document matching 1 value read from '
out_has 'the index holds 196 documents'
out_has 'force-merge  to at most 1 segment in '
run 0 "$check_bin" "$work/up" --json
json_check 'r["ok"] is True and r["docs"] == 196 and r["segments"] == 1'
printf 'd5\n\xff\xfe\n' > "$work/bad-ids.txt"
run 1 "$index_bin" --delete-ids "$work/bad-ids.txt" --index "$work/up"
err_has 'line 2 is not valid UTF-8 at byte 0'
out_has 'rolled back: the deletes of this run (1 value) were discarded'
run 0 "$check_bin" "$work/up" --json
json_check 'r["docs"] == 196'
run 2 "$index_bin" "$sample" --index "$work/up" --delete-ids "$work/ids.txt"
err_has 'INPUT'
err_has '--delete-ids'
run 2 "$index_bin" --delete-ids "$work/ids.txt" --index "$work/up" --overwrite
err_has '--overwrite'
run 2 "$index_bin" --index "$work/up"
err_has 'INPUT is required (or --delete-ids FILE to delete documents)'
run 1 "$index_bin" --delete-ids "$work/no-such-ids" --index "$work/up"
err_has "--delete-ids: cannot open $work/no-such-ids"
run 1 "$index_bin" --delete-ids "$work/ids.txt" --index "$work/no-such-index"
err_has "cannot open the index in $work/no-such-index"
[ ! -e "$work/no-such-index/segments_1" ] || fail "--delete-ids created an index"

# --merge-policy and --force-merge in invert-index: two appends without
# merges make two segments; a third with --force-merge 1 leaves one.
run 0 "$index_bin" "$work/half1.lines" --index "$work/fm" --ram-mb 8 --merge-policy none
run 0 "$index_bin" "$work/half2.lines" --index "$work/fm" --ram-mb 8 --merge-policy none --append
run 0 "$check_bin" "$work/fm" --json
json_check 'r["segments"] == 2'
generation_before=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["generation"])' "$work/out")
# The run commits first, then force-merges and commits again: two new
# commit generations (merging before the only commit would make one; Close()
# writes none when nothing changed). Merge CPU time: the one merge thread's,
# inside merges (at most their wall time, up to the rounding).
run 0 "$index_bin" "$work/half1.lines" --index "$work/fm" --ram-mb 8 --append --force-merge 1 --json
json_check 'r["force_merge"] == 1 and r["final_segments"] == 1 and r["index_docs"] == 300'
json_check 'r["merges"] >= 1 and r["merge_bytes_written"] > 0 and r["force_merge_seconds"] >= 0'
json_check "r[\"commit_generation\"] >= $generation_before + 2"
json_check '0 <= r["merge_cpu_seconds"] <= r["merge_seconds"] + 0.002 and r["merge_seconds"] > 0'
run 0 "$check_bin" "$work/fm" --json
json_check 'r["ok"] is True and r["segments"] == 1 and r["docs"] == 300'
run 0 "$index_bin" "$work/half2.lines" --index "$work/fm" --ram-mb 8 --append --force-merge 1
grep -qE '^merges       1 done \(tiered policy\): [0-9.]+ MB read, [0-9.]+ MB written, [0-9.]+ s merging \([0-9.]+ s CPU\)$' "$work/out" \
  || fail "invert-index: no merge line with its CPU time"
out_has 'force-merge  to at most 1 segment in '
run 0 "$check_bin" "$work/fm" --json
json_check 'r["ok"] is True and r["segments"] == 1 and r["docs"] == 400'
run 2 "$index_bin" "$sample" --index "$work/u" --merge-policy lazy
err_has '--merge-policy'
run 2 "$index_bin" "$sample" --index "$work/u" --force-merge 0
err_has '--force-merge: value 0 not in range [1 - 1000000]'
[ ! -e "$work/u" ] || fail "a usage error created the index directory"
# ---- Threads: two threads index what one does. A generated input of ~3 MB
# (three blocks a thread takes at once) with a bad line every 300 lines:
# the same documents (stored fields, body included), the same bad lines
# listed in input order, the same postings and positions per field and the
# same statistics of a few terms; merged into one segment, the same number
# of terms.
run 0 "$gen_bin" --bytes 3M --quiet --seed 7 -o "$work/par.raw"
awk 'NR > 8 && NR % 300 == 0 { print "bad line " NR " without tabs" } { print }' \
  "$work/par.raw" > "$work/par.lines"
for threads in 1 2; do
  run 0 "$index_bin" "$work/par.lines" --index "$work/par$threads" --threads "$threads" \
    --store-body --ram-mb 64 --merge-policy none
  grep -E '^(indexed|skipped|  )' "$work/out" | sed 's/ in [0-9.]* s:.*//' > "$work/par$threads.report"
  run 0 "$dump_bin" "$work/par$threads" --docs
  cut -f2- "$work/out" | LC_ALL=C sort > "$work/par$threads.docs"
  run 0 "$check_bin" "$work/par$threads" --json
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["docs"], {f: (s["postings"], s["positions"]) for f, s in sorted(r["fields"].items())})
' "$work/out" > "$work/par$threads.stats"
  for term in es aku hoha imb bur doz; do
    run 0 "$dump_bin" "$work/par$threads" --field body --term "$term" --limit 0
    head -1 "$work/out" >> "$work/par$threads.stats"
  done
done
grep -q '^  line 300: expected 3 tab-separated fields, found 1$' "$work/par2.report" \
  || fail "--threads 2 did not list the first bad line: $(cat "$work/par2.report")"
[ "$(wc -l < "$work/par1.docs")" -gt 2000 ] || fail "the threads input made too few documents"
# The reports (documents added, bad lines counted and listed) are equal: the
# thread that finds the end of the input must not stop the other, which still
# holds a block (that lost the last block's tail once). The settings line,
# which names the thread count, is not compared.
cmp -s "$work/par1.report" "$work/par2.report" || fail "1 and 2 threads: reports differ: $(diff "$work/par1.report" "$work/par2.report")"
cmp -s "$work/par1.docs" "$work/par2.docs" || fail "1 and 2 threads: stored documents differ"
cmp -s "$work/par1.stats" "$work/par2.stats" || fail "1 and 2 threads: statistics differ: $(diff "$work/par1.stats" "$work/par2.stats")"
run 0 "$merge_bin" "$work/par2m" "$work/par2" --force-merge 1 --json
for index in par1 par2m; do
  run 0 "$check_bin" "$work/$index" --json
  json_check 'r["ok"] is True and r["segments"] == 1'
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fields"])' "$work/out" \
    > "$work/$index.fields"
done
cmp -s "$work/par1.fields" "$work/par2m.fields" || fail "1 and 2 threads: terms differ after merging"

# --strict with threads stops at the first bad line of the input.
run 1 "$index_bin" "$work/par.lines" --index "$work/parstrict" --threads 2 --strict --ram-mb 64
err_has 'invert-index: line 300: expected 3 tab-separated fields, found 1'
out_has 'skipped      1 malformed line(s)'

# --max-docs with threads adds the first N documents of the input.
for threads in 1 2; do
  run 0 "$index_bin" "$work/par.lines" --index "$work/parmax$threads" --threads "$threads" \
    --max-docs 1500 --ram-mb 64 --json
  json_check 'r["docs"] == 1500 and r["index_docs"] == 1500'
  run 0 "$dump_bin" "$work/parmax$threads" --ids
  LC_ALL=C sort "$work/out" > "$work/parmax$threads.ids"
done
cmp -s "$work/parmax1.ids" "$work/parmax2.ids" || fail "--max-docs: other documents with 2 threads"

# --update-key with --threads 2: documents go in input order (one thread), so
# the last of the lines with the same id wins.
{
  printf 'FIELDS_HEADER_INDICATOR###\tid\tdoctitle\tdocdate\tbody\n'
  for version in 1 2 3 4; do
    for key in $(seq 1 300); do
      printf 'k%d\tversion %d\td\tbody of k%d, version %d\n' "$key" "$version" "$key" "$version"
    done
  done
} > "$work/versions.lines"
run 0 "$index_bin" "$work/versions.lines" --index "$work/versions" --update-key id --threads 2 \
  --ram-mb 8 --json
err_has 'note: --update-key adds the documents in input order from one thread'
json_check 'r["docs"] == 1200 and r["index_docs"] == 300 and r["threads"] == 1'
run 0 "$dump_bin" "$work/versions" --docs
[ "$(grep -c 'title=version 4' "$work/out")" -eq 300 ] || fail "--update-key: not the last versions"

# invert-search over six documents.
search_bin="$bin/search/invert-search"
{
  printf 'FIELDS_HEADER_INDICATOR###\tid\tdoctitle\tdocdate\tbody\n'
  printf 's0\tQuick brown fox\td\tthe quick brown fox\n'
  printf 's1\tLazy dog\td\tthe lazy dog\n'
  printf 's2\tTwo foxes\td\tquick fox quick fox\n'
  printf 's3\tJumping\td\tbrown the quick fox jumps\n'
  printf 's4\tDogs\td\tdog eat dog\n'
  printf 's5\tReversed\td\tfox brown quick\n'
} > "$work/search.lines"
run 0 "$index_bin" "$work/search.lines" --index "$work/search"
run 0 "$search_bin" "$work/search" 'quick fox' --k 2
out_has '4 hits'
out_has 'Two foxes'
run 0 "$search_bin" "$work/search" 'quick dog' --and --json
json_check 'r["total_hits"] == 0 and r["hits"] == []'
run 0 "$search_bin" "$work/search" 'quick fox' --k 2 --json --no-prune
json_check 'r["total_hits"] == 4 and r["total_hits_exact"] == True and r["docs_scored"] == 4 and len(r["hits"]) == 2'
run 0 "$search_bin" "$work/search" '"quick fox"' --json
json_check '[h["title"] for h in r["hits"]] == ["Two foxes", "Jumping"] and r["hits"][0]["score"] > r["hits"][1]["score"]'
run 0 "$search_bin" "$work/search" '"quick brown"~2 -title:quick' --json
json_check '[h["title"] for h in r["hits"]] == ["Reversed"]'
run 0 "$search_bin" "$work/search" '+do* title:dogs' --json
json_check '[h["title"] for h in r["hits"]] == ["Dogs", "Lazy dog"] and r["total_hits"] == 2'
run 0 "$search_bin" "$work/search" 'LAZY' --explain
out_has 'weight(body:lazy in 1) [BM25]'
out_has 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:'
run 2 "$search_bin" "$work/search" 'fox "quick brown'
err_has 'syntax error at character 5: unterminated phrase'
err_has '      ^'
run 2 "$search_bin" "$work/search" 'fox "a b"~x'
err_has "syntax error at character 11: '~' must be followed by the slop"
run 1 "$search_bin" "$work/search" 'colour:red'
err_has 'field "colour" of query colour:red is not in the index; its fields: "id", "title", "date", "body"'
run 2 "$search_bin" "$work/search" fox --k 0
err_has '--k'

echo "cli test passed"
