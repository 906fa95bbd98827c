#!/usr/bin/env python3
"""Turns benchmark JSON output into the tables of docs/PERFORMANCE.md.

  report.py OUT.md capture.json format.json ... [mpi_overhead.json] [viewer.json] [interop.json]

Takes Google Benchmark JSON files, the JSON of bench/mpi_overhead.py and that
of web/e2e/first_paint_bench.mjs and bench/interop_bench.cc (told apart by their
"kind"). Rewrites the part of OUT.md between
'<!-- BEGIN GENERATED -->' and '<!-- END GENERATED -->' and prints the same
tables.
"""
import json
import sys
import time

BEGIN, END = "<!-- BEGIN GENERATED -->", "<!-- END GENERATED -->"


def replace_between(path, begin, end, text):
    """Rewrites what lies between the lines `begin` and `end` of the file at
    `path` with `text`; exits naming the file when a marker is missing. The
    benchmark scripts each keep their tables between markers of their own."""
    with open(path) as f:
        doc = f.read()
    if begin not in doc or end not in doc:
        sys.exit(f"{path}: markers {begin} / {end} not found")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + text.rstrip("\n") + "\n" + end + tail)


def publish(text, markers, md=None, json_path=None, result=None):
    """Prints a benchmark's table `text`; writes `result` as JSON to
    `json_path` and the table between `markers` (begin, end) of `md`, each
    when given."""
    print(text)
    if json_path:
        with open(json_path, "w") as f:
            json.dump(result, f, indent=2)
    if md:
        replace_between(md, *markers, text)


def load(paths):
    """Benchmark rows, their context, the MPI overhead JSON, the rows of
    analysis_bench and server_bench (kept apart: they measure another trace)
    and the viewer benchmark's JSON."""
    rows, context, mpi, analysis, server, viewer, interop = [], {}, None, [], [], None, None
    for p in paths:
        with open(p) as f:
            data = json.load(f)
        if data.get("kind") == "mpi_overhead":
            mpi = data
            continue
        if data.get("kind") == "interop":
            interop = data
            continue
        if data.get("kind") == "viewer":
            viewer = data
            continue
        context = data.get("context", context)
        target = rows
        if p.endswith("analysis_bench.json"):
            target = analysis
        elif p.endswith("server_bench.json"):
            target = server
        for b in data["benchmarks"]:
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            target.append(b)
    return rows, context, mpi, analysis, server, viewer, interop


def interop_table(data):
    """Export and import throughput per format (bench/interop_bench.cc), with
    the peer tool reading the same file."""
    if not data:
        return ""
    events = data["events"]
    out = [f"Other formats (`bench/interop_bench.cc`): the synthetic MPI trace of "
           f"{data['records'] / 1e6:.1f} M records ({events / 1e6:.1f} M events: a slice is an "
           f"enter and a leave), loaded into the model in {data['load_s']:.2f} s, then written "
           "in each format and read back into a .plx file; one run each, one core.",
           "",
           "| format | file | export | export rate | import | import rate | peer tool reading it |",
           "|---|---:|---:|---:|---:|---:|---|"]

    def rate(n, seconds):
        return f"{n / seconds / 1e6:.2f} M events/s" if seconds > 0 else ""

    for f in data["formats"]:
        size = f["bytes"]
        mbs = lambda s: f", {size / s / 1e6:.0f} MB/s" if s > 0 else ""
        exp = f"{f['export_s']:.2f} s"
        imp = f"{f['import_s']:.2f} s" if f["import_s"] >= 0 else "(write only)"
        imp_rate = rate(f["imported_events"], f["import_s"]) + mbs(f["import_s"]) if f["import_s"] > 0 else ""
        peer = ""
        if f["peer"]:
            peer = f"{f['peer']}: {f['peer_s']:.2f} s" if f["peer_s"] >= 0 else f"{f['peer']}: failed"
        out.append(f"| {f['format']} | {size / 1e6:.0f} MB | {exp} | {rate(events, f['export_s'])}"
                   f"{mbs(f['export_s'])} | {imp} | {imp_rate} | {peer} |")
    out.append("")
    return "\n".join(out)


def viewer_table(server, viewer):
    """Tile latency in the server process (server_bench) and over HTTP, and the
    viewer's first paint (first_paint_bench.mjs), with the targets."""
    if not server and not viewer:
        return ""
    out = []
    build = next((b for b in server if b["name"].startswith("BuildIndex")), None)
    tiles = {}
    for b in server:
        if b["name"].startswith("Tile/") and "rows16:0" in b["name"]:
            zoom = int(b["name"].split("zoom:")[1].split("/")[0])
            tiles[zoom] = b
    http = {t["level"]: t for t in (viewer or {}).get("tiles", [])}
    events = (viewer or {}).get("events") or (build or {}).get("events", 0)
    out.append(f"Viewer on the synthetic MPI trace of {events / 1e6:.1f} M event records, every row, "
               "1600 px wide tiles (`bench/server_bench.cc` in the server process, 25 windows per "
               "zoom level; `web/e2e/first_paint_bench.mjs` over HTTP, 10 windows per level).")
    out.append("")
    if build:
        out.append(f"Timeline index: built in {build['real_time'] / 1000:.2f} s, "
                   f"{build.get('index_MB', 0):.0f} MB.")
        out.append("")
    worst = 0.0
    out += ["| zoom | span | in process: median | worst | over HTTP: median | worst |",
            "|---:|---:|---:|---:|---:|---:|"]
    for zoom in sorted(set(tiles) | set(http)):
        b, h = tiles.get(zoom, {}), http.get(zoom, {})
        span = b.get("span_ns") or h.get("span_ns", 0)
        cells = [f"{b['median_ms']:.1f} ms" if b else "", f"{b['worst_ms']:.1f} ms" if b else "",
                 f"{h['median_ms']:.1f} ms" if h else "", f"{h['worst_ms']:.1f} ms" if h else ""]
        worst = max([worst, b.get("worst_ms", 0), h.get("worst_ms", 0)])
        out.append(f"| {zoom} | {span / 1e9:.3g} s | " + " | ".join(cells) + " |")
    out.append("")
    checks = [f"| every tile query (worst) | {worst:.1f} ms | < 50 ms | {'met' if worst < 50 else 'MISSED'} |"]
    if viewer:
        fp = viewer["first_paint_ms"]
        checks.insert(0, f"| first paint after the server loaded the trace (worst of "
                         f"{len(fp['runs'])}) | {fp['worst']:.0f} ms (median {fp['median']:.0f} ms) "
                         f"| < 2000 ms | {'met' if fp['worst'] < 2000 else 'MISSED'} |")
        checks.append(f"| server: load, repair, index (not a target) | {viewer['server_load_s']:.1f} s | | |")
    out += ["| target | measured | goal | |", "|---|---:|---:|---|"] + checks + [""]
    return "\n".join(out)


def analysis_table(rows):
    if not rows:
        return ""
    events = rows[0].get("events", 0)
    out = [f"Analysis engine on a synthetic MPI trace of {events / 1e6:.1f} M event records "
           "(`bench/analysis_bench.cc`; one run each, one core; items = the trace's events).", "",
           "| benchmark | time | events/s | notes |", "|---|---:|---:|---|"]
    for b in rows:
        unit = b.get("time_unit", "ns")
        t = b["cpu_time"] / 1000 if unit == "ms" else b["cpu_time"]
        time_text = f"{t:.2f} s" if unit == "ms" else f"{b['cpu_time']:.1f} {unit}"
        ips = b.get("items_per_second")
        notes = f"violations before repair: {b['violations']:.0f}" if "violations" in b else ""
        out.append(f"| {name(b)} | {time_text} | {ips / 1e6:.1f} M | {notes} |")
    return "\n".join(out + [""])


def per_item_ns(b):
    ips = b.get("items_per_second")
    return 1e9 / ips if ips else None


def name(b):
    n = b.get("run_name", b["name"])
    return n.replace("/iterations:1", "")


def tables(rows, context):
    if not rows:
        return ""
    by = {name(b): b for b in rows}
    date = context.get("date", "")[:10] or time.strftime("%Y-%m-%d")
    out = [f"Measured {date} on {context.get('num_cpus', '?')} CPUs at "
           f"{context.get('mhz_per_cpu', '?')} MHz (`make bench`; CPU time, median of repetitions).", ""]
    out += ["| benchmark | ns per item | items/s | notes |", "|---|---:|---:|---|"]
    for b in rows:
        ns = per_item_ns(b)
        ips = b.get("items_per_second")
        notes = ", ".join(f"{k}={b[k]:.4g}" for k in ("records", "slices", "bytes", "bytes_per_record")
                          if k in b)
        if not ns and b.get("cpu_time") and name(b) != "DemoTraceSize":
            notes = f"{b['cpu_time']:.1f} {b.get('time_unit', 'ns')} per run" + (", " + notes if notes else "")
        out.append(f"| {name(b)} | {ns:.2f} | {ips/1e6:.1f} M | {notes} |" if ns else
                   f"| {name(b)} | | | {notes} |")
    out.append("")
    checks = []
    floor = by.get("FloorTwoTscTwoStores/threads:1")
    el = by.get("StateEnterLeave/threads:1")
    if floor and el:
        r = per_item_ns(el) / per_item_ns(floor)
        checks.append(f"| state enter+leave vs floor | {r:.2f}x | <= 2x | {'met' if r <= 2 else 'MISSED'} |")
    size = by.get("DemoTraceSize")
    if size and "bytes_per_record" in size:
        v = size["bytes_per_record"]
        checks.append(f"| bytes per record, demo trace | {v:.2f} | <= 4 | {'met' if v <= 4 else 'MISSED'} |")
    rd = by.get("ReadDecode")
    if rd:
        v = rd["items_per_second"] / 1e6
        checks.append(f"| read (decode), one core | {v:.1f} M records/s | >= 50 M | {'met' if v >= 50 else 'MISSED'} |")
    lm = by.get("LoadModel")
    if lm:
        v = lm["items_per_second"] / 1e6
        checks.append(f"| load into the model, one core | {v:.1f} M records/s | >= 50 M | {'met' if v >= 50 else 'MISSED'} |")
    if checks:
        out += ["| target | measured | goal | |", "|---|---:|---:|---|"] + checks + [""]
    return "\n".join(out)


MPI_MODES = (("untraced", "untraced"), ("preloaded", "preloaded, `PLX_TRACE=0`"),
             ("traced", "traced"))


def ns(v):
    return f"{v / 1e3:+.1f} µs" if abs(v) >= 1e4 else f"{v:+.0f} ns"


def mpi_tables(data):
    """The tables of bench/mpi_overhead.py's JSON: medians, and in brackets the
    fastest run of each mode, which the targets are judged by (on a shared
    machine other processes only ever add time)."""
    if not data:
        return ""
    c = data["context"]
    again = sum(m.get("disturbed_runs", 0) for p in data["programs"].values()
                for m in p["modes"].values())
    out = [f"MPI tracing overhead, measured {c['date']} with {c['mpi']} on {c['num_cpus']} CPUs, "
           f"{c['np']} ranks (`bench/mpi_overhead.py`; median of {c['runs']} runs per mode, "
           f"fastest run in brackets; {again} runs repeated because other processes were busy"
           + ("; QUICK RUN, not numbers to quote" if c.get("quick") else "") + ").", ""]
    out += ["| program | mode | loop time | one-way latency | added per MPI call | overhead |",
            "|---|---|---:|---:|---:|---:|"]
    for prog, p in data["programs"].items():
        for mode, label in MPI_MODES:
            m = p["modes"][mode]
            lat = f"{m['one_way_us']:.3f} µs" if "one_way_us" in m else ""
            added = pct = ""
            if mode != "untraced":
                added = (f"{ns(p['added_ns_per_call'][mode])} "
                         f"({ns(p['added_ns_per_call_best'][mode])})")
                pct = f"{p['overhead_pct'][mode]:+.2f} % ({p['overhead_pct_best'][mode]:+.2f} %)"
            out.append(f"| {prog} ({p['calls_per_rank']} calls/rank) | {label} | "
                       f"{m['seconds'] * 1e3:.1f} ms ({m['best_seconds'] * 1e3:.1f} ms) | {lat} | "
                       f"{added} | {pct} |")
    out.append("")
    checks = []
    pp = data["programs"].get("pingpong")
    if pp:
        v, med = pp["added_ns_per_call_best"]["traced"], pp["added_ns_per_call"]["traced"]
        checks.append(f"| added per MPI call, ping-pong traced | {v:.0f} ns (median {med:.0f} ns) "
                      f"| < 1000 ns | {'met' if v < 1000 else 'MISSED'} |")
    ca = data["programs"].get("compute_allreduce")
    if ca:
        v, med = ca["overhead_pct_best"]["traced"], ca["overhead_pct"]["traced"]
        checks.append(f"| overhead, compute+allreduce traced | {v:.2f} % (median {med:.2f} %) "
                      f"| < 3 % | {'met' if v < 3 else 'MISSED'} |")
    if checks:
        out += ["| target (fastest runs) | measured | goal | |", "|---|---:|---:|---|"] + checks
        out.append("")
    return "\n".join(out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out_md, paths = sys.argv[1], sys.argv[2:]
    rows, context, mpi, analysis, server, viewer, interop = load(paths)
    text = "\n".join(t for t in (tables(rows, context), analysis_table(analysis),
                                 viewer_table(server, viewer), interop_table(interop),
                                 mpi_tables(mpi)) if t)
    print(text)
    replace_between(out_md, BEGIN, END, text)


if __name__ == "__main__":
    main()
