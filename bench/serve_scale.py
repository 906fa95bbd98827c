#!/usr/bin/env python3
"""Serving large traces from the file: how long `parallax serve` takes to be
ready on the first open (index built), on the second (index reused) and on
the third (statistics and analyses read from the index too), its
peak resident memory, and tile latency over HTTP at 10 zoom levels
(docs/memory.md, "Serving from the file").

  serve_scale.py --build BUILD --dir DIR [--traces EVENTS:RANKS ...]
                 [--md OUT.md] [--json OUT.json]
  serve_scale.py --tables-from OUT.json [--md OUT.md]

Each trace (bench/write_mpi_trace writes it into DIR once) is served twice
with the default --memory: first with its index deleted, then again. Ready
is when /api/v1/traces says so: on the first open, the timeline on the
recorded times, served while the causal repair runs; *repaired* is when the
summary stops saying `repairing` (the repaired timeline replaced it), and
five tiles asked meanwhile (whole trace, then zoomed in) give the latency
while the repair keeps the cores busy. Tiles of the second open are asked after /stats has answered
(the statistics pass runs right after ready) while the analyses are made
(*analyses ready*: when /waits answers; the server keeps them in the index,
and the third open reads them), 1600 px wide, for the first
16 rows (what a screen shows), 25 windows per level at spread positions,
level z spanning duration / 10^(6 z / 9): coarse to fine at the same
positions (as zooming in), then fine to coarse half a step away (cold). Peak memory is the server's VmHWM
after the tiles.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (bench/report.py)
import urllib.error
import urllib.request

from scale import gb  # bench/scale.py, beside this file

BEGIN, END = "<!-- BEGIN SERVE -->", "<!-- END SERVE -->"
LEVELS, WINDOWS, WIDTH = 10, 25, 1600


def get(url):
    with urllib.request.urlopen(url, timeout=600) as r:
        return r.read()


def serve(cli, trace):
    """Starts the server; returns (process, base API url, token query)."""
    p = subprocess.Popen([cli, "serve", "--no-browser", "--port", "0", trace],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline()
    url = line.split(" at ", 1)[1].strip()  # http://127.0.0.1:PORT/?token=T
    base, token = url.split("/?token=")
    return p, base + "/api/v1", "token=" + token


def wait_ready(api, token, start):
    while True:
        entry = json.loads(get(f"{api}/traces?{token}"))["traces"][0]
        if entry["status"] == "ready":
            return time.monotonic() - start, entry["id"]
        if entry["status"] == "failed":
            sys.exit(f"serve_scale.py: the trace failed to load: {entry['error']}")
        time.sleep(0.05)


def wait_answer(url):
    """Asks until the answer is not 503 (made behind the timeline)."""
    while True:
        try:
            return get(url)
        except urllib.error.HTTPError as e:
            if e.code != 503:
                raise
        time.sleep(0.2)


def hwm(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def zoom_tiles(api, token, tid, duration, rows):
    """Tile latency at every zoom level, zooming in then cold."""
    levels = []
    rows_arg = f"rows={rows}&width={WIDTH}"

    def tile_ms(lo, span):
        t0 = time.monotonic()
        get(f"{api}/traces/{tid}/tile?{token}&{rows_arg}&from={lo}&to={lo + span}")
        return (time.monotonic() - t0) * 1e3

    # Zooming in: coarse to fine at the same positions (a finer level
    # finds the chunks a coarser one decoded); then fine to coarse at
    # positions half a step away, so every fine tile decodes anew.
    for z in range(LEVELS):
        span = duration / 10 ** (z * 6 / (LEVELS - 1))
        times = [tile_ms((duration - span) * w / (WINDOWS - 1), span) for w in range(WINDOWS)]
        levels.append({"level": z, "span_ns": span, "median_ms": statistics.median(times),
                       "worst_ms": max(times)})
    for z in reversed(range(LEVELS)):
        span = duration / 10 ** (z * 6 / (LEVELS - 1))
        times = [tile_ms((duration - span) * (w + 0.5) / WINDOWS, span)
                 for w in range(WINDOWS)]
        levels[z]["cold_median_ms"] = statistics.median(times)
        levels[z]["cold_worst_ms"] = max(times)
    for t in levels:
        print(f"   level {t['level']}: median {t['median_ms']:.1f} ms, worst "
              f"{t['worst_ms']:.1f} ms; cold median {t['cold_median_ms']:.1f} ms, worst "
              f"{t['cold_worst_ms']:.1f} ms", flush=True)
    return levels


def measure(build, trace, events, ranks):
    cli = f"{build}/src/cli/parallax"
    r = {"events": events, "ranks": ranks}
    index = trace + "i"
    if os.path.exists(index):
        os.unlink(index)
    for run in ("first", "second", "third"):
        print(f"== {trace}: serve, {run} open", flush=True)
        start = time.monotonic()
        p, api, token = serve(cli, trace)
        r[f"{run}_ready_s"], tid = wait_ready(api, token, start)
        r[f"{run}_ready_rss"] = hwm(p.pid)
        if run == "first":
            summary = json.loads(get(f"{api}/traces/{tid}/summary?{token}"))
            duration, during = summary["duration"], []
            for z in range(5):
                span = duration / 10 ** z
                t0 = time.monotonic()
                get(f"{api}/traces/{tid}/tile?{token}&rows=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
                    f"&width={WIDTH}&from={(duration - span) / 2}&to={(duration + span) / 2}")
                during.append((time.monotonic() - t0) * 1e3)
            r["repairing_worst_tile_ms"] = max(during)
            while summary["repairing"]:
                time.sleep(0.2)
                summary = json.loads(get(f"{api}/traces/{tid}/summary?{token}"))
            r["first_repaired_s"] = time.monotonic() - start
            r["first_peak_rss"] = hwm(p.pid)
            r["index_bytes"] = os.path.getsize(index)
            p.send_signal(signal.SIGINT)
            p.wait()
            continue
        if run == "third":
            # The statistics and analyses the second open kept in the index.
            get(f"{api}/traces/{tid}/stats?{token}")
            r["third_stats_s"] = time.monotonic() - start
            wait_answer(f"{api}/traces/{tid}/waits?{token}")
            r["third_analyses_s"] = time.monotonic() - start
            # Tiles with nothing running behind them.
            summary = json.loads(get(f"{api}/traces/{tid}/summary?{token}"))
            rows = ",".join(str(i) for i in range(min(16, len(summary["threads"]))))
            r["steady_tiles"] = zoom_tiles(api, token, tid, summary["duration"], rows)
            r["third_peak_rss"] = hwm(p.pid)
            r["index_kept_bytes"] = os.path.getsize(index)
            p.send_signal(signal.SIGINT)
            p.wait()
            continue
        summary = json.loads(get(f"{api}/traces/{tid}/summary?{token}"))
        duration = summary["duration"]
        rows = ",".join(str(i) for i in range(min(16, len(summary["threads"]))))
        get(f"{api}/traces/{tid}/stats?{token}")
        r["stats_s"] = time.monotonic() - start
        r["tiles"] = zoom_tiles(api, token, tid, duration, rows)
        # The analyses panels' answers are made after the statistics (the
        # tiles above were asked meanwhile); 503 until they are.
        wait_answer(f"{api}/traces/{tid}/waits?{token}")
        r["analyses_s"] = time.monotonic() - start
        r["peak_rss"] = hwm(p.pid)
        p.send_signal(signal.SIGINT)
        p.wait()
    return r


def table(results, cpus):
    out = [f"Measured {time.strftime('%Y-%m-%d')} on {cpus} CPUs (`bench/serve_scale.py`; one "
           "run each; default --memory, so these traces are served from the file). *First "
           "open*: no index; ready when the timeline on the recorded times is served (skeletons "
           "and its summary built), *repaired* when the causal repair and the summary on its "
           "times are built and kept and replace it (worst of 5 tiles asked meanwhile); "
           "*second open*: the index read. Tiles over HTTP, 1600 px wide, the first 16 rows, "
           "25 windows per zoom level, after the statistics pass that follows ready, while the "
           "analyses (wait states, critical path, anomalies, matrix) are made; *analyses "
           "ready*: when /waits answers; they are then kept in the index (its size after them "
           "in parentheses). *Third open*: ready, then statistics and analyses read from the "
           "index, then the same tiles with nothing running behind them (*steady*). Peak "
           "memory: the largest of the three opens.", "",
           "| trace | index | first open: ready | repaired | tile meanwhile | second open | "
           "statistics ready | analyses ready | worst tile | third open: statistics, analyses "
           "| worst tile, steady | peak memory |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        worst = max(max(t["worst_ms"], t["cold_worst_ms"]) for t in r["tiles"])
        steady = max(max(t["worst_ms"], t["cold_worst_ms"]) for t in r["steady_tiles"])
        out.append(f"| {r['events'] / 1e6:,.0f} M events, {r['ranks']} ranks | "
                   f"{r['index_bytes'] / 1e6:,.0f} MB ({r['index_kept_bytes'] / 1e6:,.0f} MB) | "
                   f"{r['first_ready_s']:.1f} s | "
                   f"{r['first_repaired_s']:.1f} s | {r['repairing_worst_tile_ms']:.1f} ms | "
                   f"{r['second_ready_s']:.1f} s | {r['stats_s']:.1f} s | "
                   f"{r['analyses_s']:.1f} s | {worst:.1f} ms | {r['third_ready_s']:.1f} s: "
                   f"{r['third_stats_s']:.1f} s, {r['third_analyses_s']:.1f} s | "
                   f"{steady:.1f} ms | "
                   f"{gb(max(r['peak_rss'], r['first_peak_rss'], r['third_peak_rss']))} |")
    out += ["", "Tile latency per zoom level, median / worst in ms: zooming in (coarse to "
            "fine at the same 25 positions, so finer levels find chunks decoded for coarser "
            "ones), then cold (fine to coarse, positions half a step away: every chunk a fine "
            "tile needs is decoded for it)."]
    for key, what in (("tiles", "while the analyses are made (second open)"),
                      ("steady_tiles", "steady (third open)")):
        out += ["", f"Tiles {what}:", "",
                "| zoom | " + " | ".join(f"{r['events'] / 1e6:,.0f} M, {r['ranks']} ranks"
                                          for r in results) + " |",
                "|---|" + "---:|" * len(results)]
        for z in range(LEVELS):
            cells = [f"{r[key][z]['median_ms']:.1f} / {r[key][z]['worst_ms']:.1f}; cold "
                     f"{r[key][z]['cold_median_ms']:.1f} / {r[key][z]['cold_worst_ms']:.1f}"
                     for r in results]
            out.append(f"| {z} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build")
    ap.add_argument("--dir")
    ap.add_argument("--traces", nargs="*", default=["1000000000:16", "1000000000:1024"])
    ap.add_argument("--md")
    ap.add_argument("--json")
    ap.add_argument("--tables-from")
    a = ap.parse_args()
    if a.tables_from:
        with open(a.tables_from) as f:
            data = json.load(f)
    else:
        if not a.build or not a.dir:
            ap.error("--build and --dir are needed to measure")
        results = []
        for spec in a.traces:
            events, ranks = (int(x) for x in spec.split(":"))
            env = dict(os.environ, PLX_BENCH_DIR=a.dir)
            trace = subprocess.run([f"{a.build}/bench/write_mpi_trace", str(events), str(ranks)],
                                   env=env, check=True, capture_output=True,
                                   text=True).stdout.strip()
            results.append(measure(a.build, trace, events, ranks))
        data = {"cpus": os.cpu_count(), "results": results}
        if a.json:
            with open(a.json, "w") as f:
                json.dump(data, f, indent=1)
    text = table(data["results"], data["cpus"])
    print(text)
    if a.md:
        report.replace_between(a.md, BEGIN, END, text)


if __name__ == "__main__":
    main()
