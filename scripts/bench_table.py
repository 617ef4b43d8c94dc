#!/usr/bin/env python3
"""Prints the terms-hash comparison table from Google Benchmark JSON.

Reads the JSON that invert_terms_hash_benchmark writes (with repetitions),
takes the median ns/token of each cell over its repetitions, and prints one
row per (bench, workload, size, add mode) with every layout side by side, the
shared -> separate delta, the best layout against the flat_hash_map baseline,
and the seed's Lucene figure with our speedup over it. The coefficient of
variation (stddev / mean over repetitions) says how far to trust a cell.

With --lucene (scripts/bench_terms_hash.sh --with-lucene), the Lucene
columns are Lucene 8.8 measured in the same run on the same token streams
(benchmarks/peers/LuceneTermsHash.java, one JSON line per fork): the median of
the forks' medians, cv over the forks' medians; for indexSegmentAndSort,
Lucene's time is add + IndexWriter.flush (sort and write the whole segment),
a superset of invert's add + sort in the token/doc rows, and the same work
as invert's add + FlushTo in the chain rows. --tokens (invert_dump_workload's JSON
lines) adds the check that both sides indexed identical streams. Several
RESULTS.json files (one per round) are merged.

usage: bench_table.py RESULTS.json [MORE.json ...] [--lucene LUCENE.jsonl]
                      [--tokens TOKENS.jsonl] [--markdown]
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


def load(paths):
    samples = defaultdict(list)
    extra = defaultdict(dict)  # name -> counter -> last value (distinct_terms, stream_hash32, ram)
    context = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        context = data.get("context", context)
        for b in data["benchmarks"]:
            if b.get("run_type") != "iteration":
                continue
            name = b.get("run_name", b["name"]).replace("/real_time", "")
            samples[name].append(b["ns_per_token"] * 1e9 if b["ns_per_token"] < 1e-3 else b["ns_per_token"])
            for k in ("distinct_terms", "stream_hash32", "ram_bytes_per_token"):
                if k in b:
                    extra[name][k] = b[k]
            if "flush_ns_per_token" in b:
                extra[name].setdefault("flush", []).append(b["flush_ns_per_token"])
    return context, samples, extra


def load_jsonl(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def lucene_cells(rows):
    """(workload, size) -> {add, flush, add_flush, ram: (median of fork medians, cv, forks)}."""
    forks = defaultdict(list)
    for r in rows:
        forks[tuple(r["label"].split("/"))].append(r)
    out = {}
    for key, rs in forks.items():
        cell = {}
        for k in ("add", "flush", "add_flush"):
            cell[k] = stats([r[k + "_median"] for r in rs]) + (len(rs),)
        cell["ram"] = statistics.median(r["ram_bytes_per_token"] for r in rs)
        cell["rows"] = rs
        out[key] = cell
    return out


def stats(values):
    med = statistics.median(values)
    cv = statistics.pstdev(values) / statistics.mean(values) if len(values) > 1 else 0.0
    return med, cv


def main():
    args = sys.argv[1:]
    opts = {}
    for opt in ("--lucene", "--tokens"):
        if opt in args:
            i = args.index(opt)
            opts[opt] = args[i + 1]
            del args[i:i + 2]
    paths = [a for a in args if not a.startswith("--")]
    if not paths:
        print(__doc__)
        return 2
    context, samples, extra = load(paths)
    lucene = lucene_cells(load_jsonl(opts["--lucene"])) if "--lucene" in opts else None
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
    md = {"token": 0, "doc": 1, "chain": 2}
    keys = sorted(cells, key=lambda k: (order[k[0]], sz[k[2]], md.get(k[3], 9), wl.get(k[1], 9)))
    # Columns in one fixed order, whatever order the runs listed the layouts in.
    layouts.sort(key=lambda l: {"shared": 0, "separate": 1}.get(l, 2))
    if lucene is not None:
        header = ["bench", "skew", "size", "add"] + [f"invert {l} ns (cv)" for l in layouts] + [
            "Lucene 8.8 ns (cv)", "flat_hash_map ns (cv)", "Lucene/invert best", "best/flat",
            "shared→separate"]
    else:
        header = ["bench", "skew", "size", "add"] + [f"{l} ns (cv)" for l in layouts] + [
            "shared→separate", "flat_hash_map ns", "best/flat", "seed Lucene ns (another machine)",
            "Lucene/best"]
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
        delta = (f"{(meds['separate'] / meds['shared'] - 1) * 100:+.1f}%"
                 if "shared" in meds and "separate" in meds else "-")
        best = min(meds.values()) if meds else None
        base = baseline.get((workload, size))
        if lucene is not None:
            cell = lucene.get((workload, size))
            luc = cell["add" if bench == "indexSegment" else "add_flush"] if cell else None
            row.append(f"{luc[0]:.1f} ({luc[1]*100:.0f}%)" if luc else "-")
            row.append(f"{base[0]:.1f} ({base[1]*100:.0f}%)" if base else "-")
            row.append(f"{luc[0] / best:.2f}x" if luc and best else "-")
            row.append(f"{best / base[0]:.2f}x" if base and best else "-")
            row.append(delta)
            rows.append(row)
            continue
        row.append(delta)
        row.append(f"{base[0]:.1f} ({base[1]*100:.0f}%)" if base else "-")
        row.append(f"{best / base[0]:.2f}x" if base and best else "-")
        seed = LUCENE.get((bench, workload, size))
        row.append(f"{seed:.1f}" if seed else "-")
        row.append(f"{seed / best:.2f}x" if seed and best else "-")
        rows.append(row)
    markdown = "--markdown" in sys.argv
    print_table(header, rows, markdown)
    if floor:
        print("\nhashOnly (xxHash of every token's bytes, no table): " + ", ".join(
            f"{w}/{z} {m:.1f} ns ({cv*100:.0f}%)" for (w, z), (m, cv) in
            sorted(floor.items(), key=lambda kv: (sz.get(kv[0][1], 9), wl.get(kv[0][0], 9)))))
    reps = max((len(v) for v in samples.values()), default=0)
    print(f"\ninvert: median of {reps} repetitions per cell, ns per token; cv = stddev/mean over repetitions;"
          f" host: {context.get('num_cpus', '?')} cpus @ {context.get('mhz_per_cpu', '?')} MHz")
    print_layout_verdicts(cells, extra, keys)
    status = 0
    if lucene is not None:
        forks = max((c["add"][2] for c in lucene.values()), default=0)
        r0 = next(iter(lucene.values()))["rows"][0] if lucene else {}
        print(f"Lucene {r0.get('lucene_version', '?')} (Java {r0.get('java', '?')}): median of {forks}"
              f" forks' medians ({r0.get('warmup', '?')} warm-up + {r0.get('iterations', '?')}"
              " measured segments per fork), cv over the forks' medians. Lucene's cells run its"
              " indexing chain (addDocument of pre-analyzed tokens); its indexSegmentAndSort is"
              " add + IndexWriter.flush. invert's token/doc rows are its terms hash alone"
              " (indexSegmentAndSort = add + sort), its chain rows the whole chain"
              " (InMemorySegment; indexSegmentAndSort = add + FlushTo): compare like with like")
        print()
        print_flush_ram(lucene, cells, extra, markdown, sz, wl)
        status = check_identity(lucene, extra, opts.get("--tokens"), markdown)
    return status


def print_layout_verdicts(cells, extra, keys):
    """The cells where one layout is slower than the other by more than both
    cells' cvs (each cell's cv taken as its noise), and the flush alone: the
    test of issue 14's "in no cell is the default layout worse beyond cv"."""
    pairs = []  # (label, shared (median, cv), separate (median, cv))
    for k in keys:
        if "shared" in cells[k] and "separate" in cells[k]:
            pairs.append(("/".join(k), cells[k]["shared"][:2], cells[k]["separate"][:2]))
    for k in keys:
        bench, workload, size, mode = k
        if bench != "indexSegmentAndSort" or mode != "chain":
            continue
        flush = [extra.get(f"{bench}/{workload}/{size}/{l}/chain", {}).get("flush")
                 for l in ("shared", "separate")]
        if all(f and len(f) > 1 for f in flush):
            pairs.append((f"flush/{workload}/{size}", stats(flush[0]), stats(flush[1])))
    slower = {"shared": [], "separate": []}
    for label, (m_sh, cv_sh), (m_se, cv_se) in pairs:
        delta = m_se / m_sh - 1
        if delta > max(cv_sh, cv_se):
            slower["separate"].append(f"{label} {delta * 100:+.0f}%")
        elif -delta / (1 + delta) > max(cv_sh, cv_se):
            slower["shared"].append(f"{label} {(m_sh / m_se - 1) * 100:+.0f}%")
    print(f"\nlayouts: of {len(pairs)} cells compared (flush alone included), one layout is slower"
          " than the other by more than both cells' cvs in:")
    for layout in ("shared", "separate"):
        print(f"  {layout} slower ({len(slower[layout])}): " + (", ".join(slower[layout]) or "none"))


def print_table(header, rows, markdown):
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


def print_flush_ram(lucene, cells, extra, markdown, sz, wl):
    """Lucene's flush alone against invert's sort alone, and RAM per token."""
    header = ["skew", "size", "Lucene flush ns (cv)", "invert flush ns, shared (cv)",
              "invert flush ns, separate (cv)", "Lucene/invert best",
              "invert sort ns (AndSort - Segment, doc, best)", "Lucene RAM B/token",
              "invert RAM B/token (chain shared, separate)"]
    rows = []
    for (workload, size) in sorted(lucene, key=lambda k: (sz.get(k[1], 9), wl.get(k[0], 9))):
        c = lucene[(workload, size)]
        seg = cells.get(("indexSegment", workload, size, "doc"), {})
        srt = cells.get(("indexSegmentAndSort", workload, size, "doc"), {})
        sort = "-"
        if seg and srt:
            sort = f"{min(v[0] for v in srt.values()) - min(v[0] for v in seg.values()):.1f}"
        ram = [extra.get(f"indexSegment/{workload}/{size}/{l}/chain", {}).get("ram_bytes_per_token")
               for l in ("shared", "separate")]
        flush = []
        for l in ("shared", "separate"):
            v = extra.get(f"indexSegmentAndSort/{workload}/{size}/{l}/chain", {}).get("flush")
            flush.append(stats(v) if v else None)
        best = min((f[0] for f in flush if f), default=None)
        rows.append([workload, size, f"{c['flush'][0]:.1f} ({c['flush'][1]*100:.0f}%)"] +
                    [f"{f[0]:.1f} ({f[1]*100:.0f}%)" if f else "-" for f in flush] +
                    [f"{c['flush'][0] / best:.2f}x" if best else "-", sort, f"{c['ram']:.1f}",
                     ", ".join(f"{r:.1f}" if r else "-" for r in ram)])
    print_table(header, rows, markdown)
    print()


def check_identity(lucene, extra, tokens_path, markdown):
    """Both sides indexed the same stream: the dump tool's count, distinct terms
    and hash; the benchmark's distinct terms and low 32 hash bits; the Java
    side's recomputed hash; the terms and tokens of Lucene's flushed segment."""
    dumps = {}
    if tokens_path:
        for r in load_jsonl(tokens_path):
            dumps[(r["workload"], r["size"])] = r
    header = ["skew", "size", "tokens", "distinct", "hash (dump)", "invert benchmark",
              "Lucene file hash", "Lucene segment terms/tokens", "identical"]
    rows = []
    ok_all = True
    for key in sorted(lucene):
        workload, size = key
        d = dumps.get(key)
        bench = extra.get(f"indexSegment/{workload}/{size}/shared/doc", {})
        ok = d is not None
        inv = "-"
        if bench and d:
            h32 = int(d["hash"], 16) & 0xffffffff
            same = int(bench.get("stream_hash32", -1)) == h32 and int(bench.get("distinct_terms", -1)) == d["distinct"]
            inv = "same" if same else f"DIFFERENT ({bench})"
            ok = ok and same
        luc = []
        for r in lucene[key]["rows"]:
            good = (d is not None and r["hash"] == d["hash"] and r["tokens"] == d["tokens"]
                    and r["segment_terms"] == d["distinct"] and r["segment_tokens"] == d["tokens"])
            ok = ok and good
            luc.append(r)
        r = luc[0]
        rows.append([workload, size, str(d["tokens"]) if d else "-", str(d["distinct"]) if d else "-",
                     d["hash"] if d else "-", inv,
                     f"{r['hash']} ({len(luc)} forks)", f"{r['segment_terms']}/{r['segment_tokens']}",
                     "yes" if ok else "NO"])
        ok_all = ok_all and ok
    print("token streams (invert_dump_workload, the invert benchmark's counters, the Lucene peer):")
    print_table(header, rows, markdown)
    if not ok_all:
        print("ERROR: the two sides did not index identical token streams", file=sys.stderr)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
