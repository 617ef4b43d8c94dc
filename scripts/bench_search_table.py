#!/usr/bin/env python3
"""Tables of scripts/bench_search.sh: one per query class.

  scripts/bench_search_table.py RESULTS

RESULTS lines: ROUND ENGINE MODE CLASS K N MEDIAN_US P99_US QPS HITS [DOCS_SCORED]
(the bench modes of invert_search_benchmark and LuceneSearch, prefixed with
the round). Each cell is the median over the rounds. Ratios: invert pruned QPS
over Lucene's, and invert pruned over invert exhaustive.
"""
import statistics
import sys


def main():
    rows = {}
    classes = []
    for line in open(sys.argv[1], encoding="utf-8"):
        f = line.split()
        if len(f) < 10:
            continue
        rnd, engine, mode, cls = f[0], f[1], f[2], f[3]
        key = ("%s %s" % (engine, mode), cls)
        if cls not in classes:
            classes.append(cls)
        rows.setdefault(key, []).append(
            (float(f[6]), float(f[7]), float(f[8]), f[9], f[10] if len(f) > 10 else "-", int(f[4])))
    engines = ["invert pruned", "invert exhaustive", "lucene default"]
    print("| class | engine | median µs | P99 µs | QPS | hits | docs scored | QPS vs Lucene |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    summary = []
    for cls in classes:
        lqps = None
        if ("lucene default", cls) in rows:
            lqps = statistics.median(r[2] for r in rows[("lucene default", cls)])
        qps = {}
        for e in engines:
            rs = rows.get((e, cls))
            if not rs:
                continue
            med = statistics.median(r[0] for r in rs)
            p99 = statistics.median(r[1] for r in rs)
            q = statistics.median(r[2] for r in rs)
            qps[e] = q
            ratio = "%.2fx" % (q / lqps) if lqps else "-"
            print("| %s | %s | %.0f | %.0f | %.0f | %s | %s | %s |" % (
                cls, e, med, p99, q, rs[-1][3], rs[-1][4], ratio))
        summary.append((cls, qps))
    print()
    print("| class | invert pruned / Lucene QPS | invert exhaustive / Lucene | pruned / exhaustive |")
    print("|---|---:|---:|---:|")
    for cls, q in summary:
        l = q.get("lucene default")
        p = q.get("invert pruned")
        x = q.get("invert exhaustive")
        fmt = lambda a, b: "%.2fx" % (a / b) if a and b else "-"
        print("| %s | %s | %s | %s |" % (cls, fmt(p, l), fmt(x, l), fmt(p, x)))


if __name__ == "__main__":
    main()
