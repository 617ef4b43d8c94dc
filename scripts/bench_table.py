#!/usr/bin/env python3
"""Prints the terms-hash comparison table from Google Benchmark JSON.

Reads the JSON that invert_terms_hash_benchmark writes (with repetitions),
takes the median ns/token of each cell over its repetitions, and prints one
row per (bench, workload, size, add mode) with every layout side by side, the
shared -> separate delta, the best layout against the flat_hash_map baseline,
and the seed's Lucene figure with our speedup over it. The coefficient of
variation (stddev / mean over repetitions) says how far to trust a cell.

usage: bench_table.py RESULTS.json [--markdown]
"""
import json
import statistics
import sys
from collections import defaultdict

# Seed figures (Lucene, JMH, 1 thread, c5.4xlarge, ns/op): shared layout.
LUCENE = {
    ("indexSegment", "1.0", "light"): 259.5, ("indexSegment", "3.0", "light"): 230.2,
    ("indexSegment", "6.0", "light"): 193.8, ("indexSegment", "uuid", "light"): 315.6,
    ("indexSegmentAndSort", "1.0", "light"): 269.1,
    ("indexSegmentAndSort", "3.0", "light"): 243.1,
    ("indexSegmentAndSort", "6.0", "light"): 197.6,
    ("indexSegmentAndSort", "uuid", "light"): 620.8,
    ("indexSegment", "1.0", "scaled"): 678.7, ("indexSegment", "3.0", "scaled"): 651.7,
    ("indexSegment", "6.0", "scaled"): 518.4, ("indexSegment", "uuid", "scaled"): 442.4,
    ("indexSegmentAndSort", "1.0", "scaled"): 717.6,
    ("indexSegmentAndSort", "3.0", "scaled"): 680.9,
    ("indexSegmentAndSort", "6.0", "scaled"): 557.2,
    ("indexSegmentAndSort", "uuid", "scaled"): 1016.3,
}


def load(path):
    with open(path) as f:
        data = json.load(f)
    samples = defaultdict(list)
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = b.get("run_name", b["name"]).replace("/real_time", "")
        samples[name].append(b["ns_per_token"] * 1e9 if b["ns_per_token"] < 1e-3 else b["ns_per_token"])
    return data.get("context", {}), samples


def stats(values):
    med = statistics.median(values)
    cv = statistics.pstdev(values) / statistics.mean(values) if len(values) > 1 else 0.0
    return med, cv


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    context, samples = load(sys.argv[1])
    cells = defaultdict(dict)  # (bench, workload, size, mode) -> layout -> (median, cv, n)
    baseline = {}
    floor = {}
    layouts = []
    for name, values in samples.items():
        parts = name.split("/")
        if len(parts) != 5:
            continue
        bench, workload, size, layout, mode = parts
        med, cv = stats(values)
        if bench == "flatHashMapFind":
            baseline[(workload, size)] = (med, cv)
            continue
        if bench == "hashOnly":  # hashing the term bytes alone: the floor
            floor[(workload, size)] = (med, cv)
            continue
        if layout not in layouts:
            layouts.append(layout)
        cells[(bench, workload, size, mode)][layout] = (med, cv, len(values))
    order = {"indexSegment": 0, "indexSegmentAndSort": 1}
    wl = {"1.0": 0, "3.0": 1, "6.0": 2, "uuid": 3}
    sz = {"light": 0, "scaled": 1}
    md = {"token": 0, "doc": 1}
    keys = sorted(cells, key=lambda k: (order[k[0]], sz[k[2]], md.get(k[3], 9), wl.get(k[1], 9)))
    header = ["bench", "skew", "size", "add"] + [f"{l} ns (cv)" for l in layouts] + [
        "shared→separate", "flat_hash_map ns", "best/flat", "Lucene ns", "Lucene/best"]
    rows = []
    for k in keys:
        bench, workload, size, mode = k
        row = [bench, workload, size, mode]
        meds = {}
        for l in layouts:
            if l in cells[k]:
                med, cv, n = cells[k][l]
                meds[l] = med
                row.append(f"{med:.1f} ({cv*100:.0f}%)")
            else:
                row.append("-")
        if "shared" in meds and "separate" in meds:
            row.append(f"{(meds['separate'] / meds['shared'] - 1) * 100:+.1f}%")
        else:
            row.append("-")
        best = min(meds.values()) if meds else None
        base = baseline.get((workload, size))
        row.append(f"{base[0]:.1f} ({base[1]*100:.0f}%)" if base else "-")
        row.append(f"{best / base[0]:.2f}x" if base and best else "-")
        lucene = LUCENE.get((bench, workload, size))
        row.append(f"{lucene:.1f}" if lucene else "-")
        row.append(f"{lucene / best:.2f}x" if lucene and best else "-")
        rows.append(row)
    markdown = "--markdown" in sys.argv
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
                  for i, h in enumerate(header)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    if floor:
        print("\nhashOnly (xxHash of every token's bytes, no table): " + ", ".join(
            f"{w}/{z} {m:.1f} ns ({cv*100:.0f}%)" for (w, z), (m, cv) in
            sorted(floor.items(), key=lambda kv: (sz.get(kv[0][1], 9), wl.get(kv[0][0], 9)))))
    reps = max((len(v) for v in samples.values()), default=0)
    print(f"\nmedian of {reps} repetitions per cell, ns per token; cv = stddev/mean over repetitions;"
          f" host: {context.get('num_cpus', '?')} cpus @ {context.get('mhz_per_cpu', '?')} MHz")
    return 0


if __name__ == "__main__":
    sys.exit(main())
