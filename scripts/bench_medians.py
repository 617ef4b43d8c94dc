#!/usr/bin/env python3
"""Prints the median (and coefficient of variation) of chosen counters of
every benchmark in a Google Benchmark JSON file with repetitions.

usage: bench_medians.py RESULTS.json COUNTER [COUNTER ...] [--markdown] [--prefix=P]

Only benchmarks that have at least one of the counters are listed (and, with
--prefix, only those whose name starts with P); rows are sorted by name.
"""
import json
import statistics
import sys
from collections import defaultdict


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv
    prefix = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--prefix=")), "")
    if len(args) < 2:
        print(__doc__)
        return 2
    path, counters = args[0], args[1:]
    data = json.load(open(path))
    runs = defaultdict(list)
    order = []
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = b.get("run_name", b["name"]).replace("/real_time", "")
        if not name.startswith(prefix) or not any(c in b for c in counters):
            continue
        if name not in runs:
            order.append(name)
        runs[name].append(b)
    header = ["benchmark"] + [f"{c} (cv)" for c in counters]
    rows = []
    for name in sorted(order):
        row = [name]
        for c in counters:
            values = [r[c] for r in runs[name] if c in r]
            if not values:
                row.append("-")
                continue
            med = statistics.median(values)
            cv = statistics.pstdev(values) / statistics.mean(values) if len(values) > 1 and statistics.mean(values) else 0
            row.append(f"{med:,.1f} ({cv*100:.0f}%)" if med >= 10 else f"{med:.3f} ({cv*100:.0f}%)")
        rows.append(row)
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    n = max((len(v) for v in runs.values()), default=0)
    print(f"\nmedian of {n} repetitions; cv = stddev/mean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
