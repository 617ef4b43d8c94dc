#!/usr/bin/env python3
"""Compares the `agree` outputs of LuceneSearch and invert_search_benchmark.

  scripts/search_compare.py QUERIES LUCENE_OUT INVERT_OUT

Each output line: N<TAB>CLASS<TAB>COUNT<TAB>id:score ... (the top 10). A query
agrees when the counts are equal, the top-10 ids are the same in the same
order and every score is within 1e-5 relative. Prints the agreement rate, the
scores that are bit-identical (the %.8e texts, 9 significant digits, read
back as the same float; the texts themselves can differ in the last digit
when the float is exactly halfway, as Java rounds half up and C half to
even), per class counts, and every disagreement with a diagnosis. Exit
status 0 when every query agrees, 1 otherwise.
"""
import struct
import sys

REL = 1e-5


def read(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t")
            hits = []
            if len(parts) > 3 and parts[3]:
                for h in parts[3].split(" "):
                    i, s = h.rsplit(":", 1)
                    hits.append((i, s))
            rows.append((parts[1], int(parts[2]), hits))
    return rows


def queries(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            out.append(line.rstrip("\n").split("\t", 1)[1])
    return out


def f32(text):
    return struct.pack("<f", float(text))


def close(a, b):
    return abs(a - b) <= REL * max(abs(a), abs(b))


def diagnose(luc, inv):
    (_, lc, lh), (_, ic, ih) = luc, inv
    if lc != ic:
        return "match sets differ: count lucene %d, invert %d" % (lc, ic)
    lid = [i for i, _ in lh]
    iid = [i for i, _ in ih]
    if len(lid) != len(iid):
        return "different number of hits"
    ls = {i: float(s) for i, s in lh}
    is_ = {i: float(s) for i, s in ih}
    for i in set(lid) & set(iid):
        if not close(ls[i], is_[i]):
            return "score of doc %s differs: lucene %s, invert %s" % (i, ls[i], is_[i])
    if set(lid) == set(iid):
        return "same documents, order differs among scores equal within 1e-5 (tie broken by a last-bit difference)"
    # Different documents: at the cut-off?
    last = min(float(lh[-1][1]), float(ih[-1][1]))
    extra = [i for i in lid if i not in iid] + [i for i in iid if i not in lid]
    scores = [ls.get(i, is_.get(i)) for i in extra]
    if all(close(s, last) for s in scores):
        return "different documents at the rank-10 cut-off, all scoring %s within 1e-5 (a tie)" % last
    return "different documents: %s" % extra


def main():
    qs = queries(sys.argv[1])
    luc = read(sys.argv[2])
    inv = read(sys.argv[3])
    if not (len(qs) == len(luc) == len(inv)):
        print("search_compare: %d queries, %d Lucene lines, %d invert lines" % (len(qs), len(luc), len(inv)))
        return 1
    agree = 0
    scores = identical = 0
    per_class = {}
    bad = []
    for n, (q, l, i) in enumerate(zip(qs, luc, inv), 1):
        ok = l[1] == i[1] and [h for h, _ in l[2]] == [h for h, _ in i[2]] and all(
            close(float(a), float(b)) for (_, a), (_, b) in zip(l[2], i[2]))
        for (_, a), (_, b) in zip(l[2], i[2]):
            scores += 1
            identical += f32(a) == f32(b)
        c = per_class.setdefault(l[0], [0, 0])
        c[0] += 1
        if ok:
            agree += 1
            c[1] += 1
        else:
            bad.append((n, l[0], q, diagnose(l, i)))
    total = len(qs)
    print("agreement: %d of %d queries (%.2f%%): same count, same top-10 ids in the same order, "
          "scores within 1e-5 relative" % (agree, total, 100.0 * agree / total))
    print("scores compared: %d, bit-identical floats: %d" % (scores, identical))
    print("per class (agree/queries): " + ", ".join(
        "%s %d/%d" % (c, v[1], v[0]) for c, v in per_class.items()))
    for n, c, q, why in bad:
        print("DISAGREE query %d [%s] %s: %s" % (n, c, q, why))
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
