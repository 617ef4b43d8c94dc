#!/usr/bin/env python3
"""Table of the end-to-end benchmark (scripts/bench_e2e.sh results JSON).

    scripts/bench_e2e_table.py RESULTS.json [--markdown]

Prints, per configuration (ENGINE[-LAYOUT]-tTHREADS[-MERGES]), the medians
over repetitions of: docs/s to the committed index (and its min..max),
documents per CPU-second of the whole process (user+sys, forced merge and
JIT/GC threads included: steadier than docs/s on a shared machine), seconds, force-merge seconds, merges done, merge MB/s (bytes the merges
wrote / seconds inside merges), write amplification (bytes written / final
index bytes, as the engine counts them, and "WA fs" from the kernel's count
of the process's file writes), final segments and index MB, peak RSS from
/usr/bin/time, user and system CPU seconds, and "others": how many CPUs the
rest of the machine kept busy during the run (noise; 0 on a quiet machine).
With perf counters also IPC and misses per document.

Then where the time went (indexing to the commit, the commit, the forced
merge, "sec+FM": start to a committed index of at most N segments, which
does not depend on whether an engine commits before or after its forced
merge; close; seconds inside merges and their CPU; flushing), and ratios of
medians: invert / Lucene for every figure (each merge mode, thread count and
layout), N threads / the fewest (each engine and layout) and separate /
shared. A docs/s ratio above 1.00 means invert is faster; a seconds, RSS,
WA or index ratio above 1.00 means invert's is larger.

Last, the targets of issue 12, each "met" or "NOT met" (or "not measured"):
merges on, invert >= 3x Lucene's docs/s at 1 thread; ForceMerge(1) >= 2x
faster than Lucene's; merges off, invert at 2 threads >= 1.8x its 1 thread.
"""
import json
import re
import statistics
import sys

CONFIG = re.compile(r"^(invert|lucene)(?:-(shared|separate))?-t(\d+)(?:-(on|off))?$")

# Figures taken from the engine's own JSON line (kept whole under "result").
RESULT_KEYS = ("commit_seconds", "close_seconds", "flush_seconds", "merge_cpu_seconds",
               "merges_indexing", "merges_force_merge", "gc_seconds")


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def parse_config(config):
    m = CONFIG.match(config)
    if not m:
        return None
    return {"engine": m.group(1), "layout": m.group(2), "threads": int(m.group(3)),
            "merges": m.group(4)}


def config_name(engine, layout, threads, merges):
    name = engine + (f"-{layout}" if layout else "") + f"-t{threads}"
    return name + (f"-{merges}" if merges else "")


def summarize(runs, configs):
    summary = {}
    for config in configs:
        ok = [r for r in runs if r["config"] == config and not r.get("failed")]
        failed = sum(1 for r in runs if r["config"] == config and r.get("failed"))
        s = {"n": len(ok), "failed": failed}
        for key in ("docs", "docs_per_s", "gb_per_hour", "seconds", "wall_s", "user_s", "sys_s",
                    "peak_rss_bytes", "index_bytes", "segments", "segments_at_commit",
                    "force_merge_seconds", "merges", "merge_seconds", "merge_bytes_written",
                    "merge_mb_per_s", "bytes_written", "write_amplification", "fs_write_bytes",
                    "fs_write_amplification", "docs_per_cpu_s", "total_seconds"):
            s[key] = median([r.get(key) for r in ok])
        for key in RESULT_KEYS:
            s[key] = median([r.get("result", {}).get(key) for r in ok])
        s["cpu_s"] = median([r["user_s"] + r["sys_s"] for r in ok
                             if r.get("user_s") is not None and r.get("sys_s") is not None])
        s["other_cpus"] = median([r["other_busy_s"] / r["wall_s"] for r in ok
                                  if r.get("other_busy_s") is not None and r.get("wall_s")])
        dps = [r["docs_per_s"] for r in ok if r.get("docs_per_s")]
        s["dps_min"] = min(dps) if dps else None
        s["dps_max"] = max(dps) if dps else None
        perf = [r["perf"] for r in ok if r.get("perf")]
        if perf:
            docs = s["docs"] or 1
            s["ipc"] = median([p.get("ipc") for p in perf])
            s["instr_per_doc"] = median([p.get("instructions", 0) / docs for p in perf])
            s["llc_per_doc"] = median([p.get("LLC-load-misses", 0) / docs for p in perf])
            s["dtlb_per_doc"] = median([p.get("dTLB-load-misses", 0) / docs for p in perf])
        summary[config] = s
    return summary


def mb(v, spec):
    return fmt(v and v / 1e6, spec) if v is not None else "-"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    doc = json.load(open(args[0]))
    configs = [c for c in doc["configs"] if parse_config(c)]
    summary = summarize(doc["runs"], configs)

    corpus = doc["corpus"]
    fm = doc.get("force_merge")
    print(f"corpus: {corpus['path']} ({corpus['bytes'] / 1e6:.1f} MB); "
          f"{doc['repetitions']} repetitions, RAM buffer {doc['ram_mb']:g} MB"
          f"{', term vectors' if doc.get('term_vectors') else ''}"
          f"{', max docs ' + str(doc['max_docs']) if doc.get('max_docs') else ''}"
          f"{'' if fm is None else (', force merge to ' + str(fm) if fm else ', no force merge')}; "
          f"{doc['machine']['cpus']} CPUs ({doc['machine']['cpu']}); {doc.get('date', '')}")
    if doc.get("java"):
        print(f"java: {doc['java']['version']}; {doc['java']['opts']}")
    if doc.get("invert_merge_flags") is False:
        print("invert-index had no --merge-policy/--force-merge: invert ran merges off only")
    has_perf = any("ipc" in s for s in summary.values())

    # ---- medians ----
    cols = ["config", "docs", "docs/s", "min..max", "docs/cpu-s", "sec", "FM s", "merges",
            "merge MB/s", "WA", "WA fs", "segs", "index MB", "RSS MB", "user s", "sys s", "others"]
    if has_perf:
        cols += ["IPC", "instr/doc", "LLC/doc", "dTLB/doc"]
    rows = []
    for config in configs:
        s = summary[config]
        row = [config + (f" ({s['failed']} failed)" if s["failed"] else ""),
               fmt(s["docs"], ".0f"), fmt(s["docs_per_s"], ",.0f"),
               f"{fmt(s['dps_min'], ',.0f')}..{fmt(s['dps_max'], ',.0f')}",
               fmt(s["docs_per_cpu_s"], ",.0f"),
               fmt(s["seconds"], ".2f"), fmt(s["force_merge_seconds"], ".2f"),
               fmt(s["merges"], ".0f"), fmt(s["merge_mb_per_s"], ".1f"),
               fmt(s["write_amplification"], ".2f"), fmt(s["fs_write_amplification"], ".2f"),
               fmt(s["segments"], ".0f"),
               fmt(s["index_bytes"] and s["index_bytes"] / 2**20, ",.1f"),
               fmt(s["peak_rss_bytes"] and s["peak_rss_bytes"] / 2**20, ",.0f"),
               fmt(s["user_s"], ".2f"), fmt(s["sys_s"], ".2f"), fmt(s["other_cpus"], ".2f")]
        if has_perf:
            row += [fmt(s.get("ipc"), ".2f"), fmt(s.get("instr_per_doc"), ",.0f"),
                    fmt(s.get("llc_per_doc"), ".1f"), fmt(s.get("dtlb_per_doc"), ".1f")]
        rows.append(row)
    print_table(cols, rows, markdown)
    doc_counts = {s["docs"] for s in summary.values() if s["docs"] is not None}
    if len(doc_counts) > 1:
        print("WARNING: the configurations indexed different numbers of documents: "
              + ", ".join(f"{c} {summary[c]['docs']:.0f}" for c in configs
                          if summary[c]["docs"] is not None))

    # ---- where the time went ----
    trows = []
    for config in configs:
        s = summary[config]
        if all(s.get(k) is None for k in ("force_merge_seconds", "merge_seconds",
                                            "close_seconds", "flush_seconds")):
            continue
        trows.append([config, fmt(s["seconds"], ".2f"), fmt(s["commit_seconds"], ".2f"),
                      fmt(s["segments_at_commit"], ".0f"), fmt(s["force_merge_seconds"], ".2f"),
                      fmt(s["total_seconds"], ".2f"),
                      fmt(s["close_seconds"], ".2f"), fmt(s["merge_seconds"], ".2f"),
                      fmt(s["merge_cpu_seconds"], ".2f"), fmt(s["flush_seconds"], ".2f"),
                      mb(s["merge_bytes_written"], ",.0f"), mb(s["bytes_written"], ",.0f"),
                      mb(s["fs_write_bytes"], ",.0f"), fmt(s["cpu_s"], ".2f")])
    if trows:
        print()
        print_table(["config", "sec", "commit s", "segs@commit", "FM s", "sec+FM", "close s",
                     "merge s",
                     "merge CPU s", "flush s", "merged MB", "written MB", "fs written MB",
                     "user+sys"], trows, markdown)

    # ---- ratios of medians ----
    def ratio(a, b, key):
        if a not in summary or b not in summary:
            return None
        x, y = summary[a].get(key), summary[b].get(key)
        return x / y if x is not None and y else None

    parsed = {c: parse_config(c) for c in configs}
    modes = sorted({p["merges"] for p in parsed.values()}, key=lambda m: (m is None, m != "on"))
    threads = sorted({p["threads"] for p in parsed.values()})
    rkeys = [("docs/s", "docs_per_s"), ("docs/cpu-s", "docs_per_cpu_s"),
             ("FM s", "force_merge_seconds"),
             ("sec+FM", "total_seconds"),
             ("merge MB/s", "merge_mb_per_s"), ("WA", "write_amplification"),
             ("WA fs", "fs_write_amplification"), ("segs", "segments"), ("index", "index_bytes"),
             ("RSS", "peak_rss_bytes"), ("user", "user_s"), ("sys", "sys_s")]
    pairs = []
    for m in modes:
        for t in threads:
            for layout in ("shared", "separate"):
                pairs.append((config_name("invert", layout, t, m), config_name("lucene", None, t, m)))
        for t in threads:
            pairs.append((config_name("invert", "separate", t, m),
                          config_name("invert", "shared", t, m)))
        if len(threads) > 1:
            lo = threads[0]
            for t in threads[1:]:
                for engine, layout in (("invert", "shared"), ("invert", "separate"),
                                       ("lucene", None)):
                    pairs.append((config_name(engine, layout, t, m),
                                  config_name(engine, layout, lo, m)))
    rrows = []
    for a, b in pairs:
        if ratio(a, b, "docs_per_s") is None:
            continue
        rrows.append([f"{a} / {b}"] + [fmt(ratio(a, b, key), ".2f") for _, key in rkeys])
    if rrows:
        print()
        print_table(["ratio (medians)"] + [name for name, _ in rkeys], rrows, markdown)

    # ---- targets (issue 12) ----
    print()
    targets = check_targets(summary, parsed, threads, doc.get("force_merge"))
    print_table(["target (issue 12)", "measured", "status"], targets, markdown)


def check_targets(summary, parsed, threads, force_merge):
    def get(name, key):
        return summary.get(name, {}).get(key)

    def verdict(value, goal):
        return "not measured" if value is None else ("met" if value >= goal else "NOT met")

    rows = []
    for layout in ("shared", "separate"):
        a, b = get(f"invert-{layout}-t1-on", "docs_per_s"), get("lucene-t1-on", "docs_per_s")
        r = a / b if a and b else None
        rows.append([f"merges on, 1 thread, {layout}: invert docs/s >= 3x Lucene's",
                     "-" if r is None else f"{r:.2f}x ({a:,.0f} vs {b:,.0f} docs/s)",
                     verdict(r, 3.0)])
    for m in ("off", "on"):
        for t in threads:
            for layout in ("shared", "separate"):
                if force_merge != 1:
                    continue
                a = get(config_name("invert", layout, t, m), "force_merge_seconds")
                b = get(config_name("lucene", None, t, m), "force_merge_seconds")
                if a is None and b is None:
                    continue
                r = b / a if a and b else None
                rows.append([f"ForceMerge(1), merges {m}, {t} thread(s), {layout}: >= 2x faster "
                             "than Lucene's",
                             "-" if r is None else f"{r:.2f}x ({a:.2f} s vs {b:.2f} s)",
                             verdict(r, 2.0)])
    if force_merge != 1:
        rows.append(["ForceMerge(1) >= 2x faster than Lucene's", "run with --force-merge 1",
                     "not measured"])
    for layout in ("shared", "separate"):
        one = get(f"invert-{layout}-t1-off", "docs_per_s")
        two = get(f"invert-{layout}-t2-off", "docs_per_s")
        r = two / one if one and two else None
        rows.append([f"merges off, {layout}: invert 2 threads >= 1.8x 1 thread",
                     "-" if r is None else f"{r:.2f}x ({two:,.0f} vs {one:,.0f} docs/s)",
                     verdict(r, 1.8)])
    return rows


def print_table(cols, rows, markdown):
    if markdown:
        print("| " + " | ".join(cols) + " |")
        print("|" + "|".join("---" for _ in cols) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(str(x)) for x in [c] + [r[i] for r in rows]) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cols,
                                                                                       widths))))
    for row in rows:
        print("  ".join(x.ljust(w) if i == 0 else x.rjust(w)
                        for i, (x, w) in enumerate(zip(row, widths))))


if __name__ == "__main__":
    main()
