#!/usr/bin/env python3
"""Table of the end-to-end benchmark (scripts/bench_e2e.sh results JSON).

    scripts/bench_e2e_table.py RESULTS.json [--markdown]

Prints, per configuration, the medians over repetitions (docs/s, GB/hour of
input, seconds, peak RSS from /usr/bin/time, index size, segments; with perf
counters also IPC and misses per document) and the spread of docs/s
(min..max), documents per CPU-second of the process (user+sys; less
sensitive to other load than docs/s, but for Lucene it includes JIT and GC
threads) and "others": how many CPUs the rest of the machine kept busy during
the run (noise; 0 on a quiet machine). Then ratios of medians: invert vs Lucene (each layout, each thread
count), 2 threads vs 1 (each engine/layout) and separate vs shared (each thread
count). A docs/s ratio above 1.00 means the first is faster; an RSS or index
ratio above 1.00 means the first is larger.
"""
import json
import statistics
import sys


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    doc = json.load(open(args[0]))
    runs = doc["runs"]
    configs = doc["configs"]

    summary = {}
    for config in configs:
        ok = [r for r in runs if r["config"] == config and not r.get("failed")]
        failed = sum(1 for r in runs if r["config"] == config and r.get("failed"))
        s = {"n": len(ok), "failed": failed}
        for key in ("docs", "docs_per_s", "gb_per_hour", "seconds", "wall_s", "user_s", "sys_s",
                    "peak_rss_bytes", "index_bytes", "segments"):
            s[key] = median([r.get(key) for r in ok])
        s["docs_per_cpu_s"] = median([r.get("docs_per_cpu_s") for r in ok])
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

    corpus = doc["corpus"]
    print(f"corpus: {corpus['path']} ({corpus['bytes'] / 1e6:.1f} MB); "
          f"{doc['repetitions']} repetitions, RAM buffer {doc['ram_mb']:g} MB"
          f"{', term vectors' if doc.get('term_vectors') else ''}"
          f"{', max docs ' + str(doc['max_docs']) if doc.get('max_docs') else ''}; "
          f"{doc['machine']['cpus']} CPUs ({doc['machine']['cpu']})")
    if doc.get("java"):
        print(f"java: {doc['java']['version']}; {doc['java']['opts']}")
    has_perf = any("ipc" in s for s in summary.values())

    cols = ["config", "docs", "docs/s", "min..max", "GB/h", "sec", "wall", "user+sys",
            "docs/cpu-s", "others", "RSS MB", "index MB", "segs"]
    if has_perf:
        cols += ["IPC", "instr/doc", "LLC/doc", "dTLB/doc"]
    rows = []
    for config in configs:
        s = summary[config]
        cpu = (s["user_s"] + s["sys_s"]) if s["user_s"] is not None and s["sys_s"] is not None \
            else None
        row = [config + (f" ({s['failed']} failed)" if s["failed"] else ""),
               fmt(s["docs"], ".0f"), fmt(s["docs_per_s"], ",.0f"),
               f"{fmt(s['dps_min'], ',.0f')}..{fmt(s['dps_max'], ',.0f')}",
               fmt(s["gb_per_hour"], ".2f"), fmt(s["seconds"], ".2f"), fmt(s["wall_s"], ".2f"),
               fmt(cpu, ".2f"), fmt(s["docs_per_cpu_s"], ",.0f"), fmt(s["other_cpus"], ".2f"),
               fmt(s["peak_rss_bytes"] and s["peak_rss_bytes"] / 2**20, ",.0f"),
               fmt(s["index_bytes"] and s["index_bytes"] / 2**20, ",.1f"),
               fmt(s["segments"], ".0f")]
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

    # Ratios of medians.
    def ratio(a, b, key):
        if a not in summary or b not in summary:
            return None
        x, y = summary[a].get(key), summary[b].get(key)
        return x / y if x and y else None

    threads = sorted({int(c.rsplit("-t", 1)[1]) for c in configs})
    pairs = []
    for t in threads:
        for layout in ("shared", "separate"):
            pairs.append((f"invert-{layout}-t{t}", f"lucene-t{t}"))
    for t in threads:
        pairs.append((f"invert-separate-t{t}", f"invert-shared-t{t}"))
    if len(threads) > 1:
        lo = threads[0]
        for t in threads[1:]:
            for name in ("invert-shared", "invert-separate", "lucene"):
                pairs.append((f"{name}-t{t}", f"{name}-t{lo}"))
    rrows = []
    for a, b in pairs:
        r = ratio(a, b, "docs_per_s")
        if r is None:
            continue
        rrows.append([f"{a} / {b}", f"{r:.3f}", f"{(r - 1) * 100:+.1f}%",
                      fmt(ratio(a, b, "docs_per_cpu_s"), ".3f"),
                      fmt(ratio(a, b, "peak_rss_bytes"), ".2f"),
                      fmt(ratio(a, b, "index_bytes"), ".2f")])
    if rrows:
        print()
        print_table(["ratio (medians)", "docs/s", "change", "docs/cpu-s", "RSS", "index"], rrows, markdown)


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
