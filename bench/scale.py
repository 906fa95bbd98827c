#!/usr/bin/env python3
"""Large traces from the file: wall time and peak memory of parallax commands
on synthetic MPI traces of 10^8 and 10^9 events (docs/memory.md).

  scale.py --build BUILD --dir DIR [--traces EVENTS:RANKS ...] [--md OUT.md]
           [--json OUT.json] [--otf2]
  scale.py --tables-from OUT.json [--md OUT.md]

For each trace (bench/write_mpi_trace writes it into DIR once) it measures,
each command one run as a child process (wall clock, peak resident memory
from wait4):

- the first open: `stats --json` with no index (the index is built), on one
  thread and on two, then the same again with the index;
- `report --json` on the first run (it computes the causal repair and keeps
  it in the index), then with --threads 1 and --threads 2 side by side (the
  repair read from the index);
- with --otf2 (10^8 only): the OTF2 export of the trace read by `otf2-print`
  next to `parallax dump --json` and `stats --json` on the .plx file.

With --md it rewrites the part of OUT.md between '<!-- BEGIN SCALE -->' and
'<!-- END SCALE -->'; --tables-from JSON makes the tables of an earlier run's
--json without measuring. Best on an otherwise idle machine.
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (bench/report.py)

BEGIN, END = "<!-- BEGIN SCALE -->", "<!-- END SCALE -->"


def run(cmd, stdout=subprocess.DEVNULL):
    """Runs cmd; returns (seconds, peak resident bytes). Fails loudly."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.monotonic() - start
    err = p.stderr.read().decode(errors="replace")
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"scale.py: {' '.join(cmd)} failed ({p.returncode}): {err.strip()}")
    return seconds, usage.ru_maxrss * 1024


def trace_path(build, bench_dir, events, ranks):
    env = dict(os.environ, PLX_BENCH_DIR=bench_dir)
    out = subprocess.run([f"{build}/bench/write_mpi_trace", str(events), str(ranks)],
                         env=env, check=True, capture_output=True, text=True)
    return out.stdout.strip()


def index_of(trace):
    return trace + "i" if trace.endswith(".plx") else trace + ".plxi"


def measure(build, trace, events, ranks, otf2):
    cli = f"{build}/src/cli/parallax"
    r = {"events": events, "ranks": ranks, "file_bytes": os.path.getsize(trace)}
    index = index_of(trace)
    for threads in (1, 2):
        if os.path.exists(index):
            os.unlink(index)
        print(f"== {trace}: stats --threads {threads}, first open (builds the index)",
              flush=True)
        s, rss = run([cli, "--threads", str(threads), "stats", "--json", trace])
        r[f"stats_cold_t{threads}_s"], r[f"stats_cold_t{threads}_rss"] = s, rss
    r["index_bytes"] = os.path.getsize(index)
    print("== stats, index reused", flush=True)
    r["stats_warm_s"], r["stats_warm_rss"] = run([cli, "stats", "--json", trace])
    print("== report, first run (repairs, keeps the repair in the index)", flush=True)
    r["report_first_s"], r["report_first_rss"] = run([cli, "report", "--json", trace])
    r["index_repair_bytes"] = os.path.getsize(index)
    for threads in (1, 2):
        print(f"== report --threads {threads}", flush=True)
        s, rss = run([cli, "--threads", str(threads), "report", "--json", trace])
        r[f"report_t{threads}_s"], r[f"report_t{threads}_rss"] = s, rss
    if otf2 and shutil.which("otf2-print"):
        archive = trace[:-4] + "-otf2"
        if not os.path.exists(archive + "/traces.otf2"):
            print("== convert to OTF2", flush=True)
            run([cli, "convert", trace, archive + "/traces.otf2"])
        print("== otf2-print", flush=True)
        r["otf2_print_s"], r["otf2_print_rss"] = run(["otf2-print", archive + "/traces.otf2"])
        print("== parallax dump --json", flush=True)
        r["dump_s"], r["dump_rss"] = run([cli, "dump", "--json", trace])
    return r


def gb(b):
    return f"{b / 2**30:.2f} GiB" if b >= 2**30 else f"{b / 2**20:.0f} MiB"


def table(results, cpus):
    out = [f"Measured {time.strftime('%Y-%m-%d')} on {cpus} CPUs (`bench/scale.py`; one run "
           "each; default --memory, so every trace here is analysed from the file; wall clock "
           "and peak resident memory). *First open*: `stats` with no index, which builds it. "
           "*First report*: computes the causal repair and keeps it in the index; the report "
           "columns after it read it from there.",
           "",
           "| trace | file | index (with repair) | first open, 1 thread | first open, 2 threads "
           "| stats, index reused | first report | report, 1 thread | report, 2 threads |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        out.append(
            f"| {r['events'] / 1e6:,.0f} M events, {r['ranks']} ranks | {gb(r['file_bytes'])} | "
            f"{r['index_bytes'] / 1e3:,.0f} KB ({r['index_repair_bytes'] / 1e6:,.1f} MB) | "
            f"{r['stats_cold_t1_s']:.1f} s, {gb(r['stats_cold_t1_rss'])} | "
            f"{r['stats_cold_t2_s']:.1f} s, {gb(r['stats_cold_t2_rss'])} | "
            f"{r['stats_warm_s']:.1f} s, {gb(r['stats_warm_rss'])} | "
            f"{r['report_first_s']:.1f} s, {gb(r['report_first_rss'])} | "
            f"{r['report_t1_s']:.1f} s, {gb(r['report_t1_rss'])} | "
            f"{r['report_t2_s']:.1f} s, {gb(r['report_t2_rss'])} |")
    out += ["", "Events per second per core (events / wall seconds / threads) and the speed-up "
            "of two threads over one:", "",
            "| trace | first open, 1 thread | 2 threads | speed-up | report, 1 thread | "
            "2 threads | speed-up |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        e = r["events"]
        c1, c2, t1, t2 = (r["stats_cold_t1_s"], r["stats_cold_t2_s"], r["report_t1_s"],
                          r["report_t2_s"])
        out.append(f"| {e / 1e6:,.0f} M events, {r['ranks']} ranks | {e / c1 / 1e6:.1f} M/s | "
                   f"{e / c2 / 2 / 1e6:.1f} M/s | {c1 / c2:.2f}x | {e / t1 / 1e6:.1f} M/s | "
                   f"{e / t2 / 2 / 1e6:.1f} M/s | {t1 / t2:.2f}x |")
    peers = [r for r in results if "otf2_print_s" in r]
    if peers:
        out += ["", "Reading every event: `otf2-print` on the trace's OTF2 export "
                "(`parallax convert`) next to `parallax dump --json` (prints every record as "
                "JSON) and `parallax stats` (reads every record) on the .plx file. A ratio above "
                "1 means Parallax took less time.", "",
                "| trace | otf2-print | parallax dump --json | otf2-print ÷ dump | "
                "parallax stats | otf2-print ÷ stats |",
                "|---|---:|---:|---:|---:|---:|"]
        for r in peers:
            o = r["otf2_print_s"]
            out.append(f"| {r['events'] / 1e6:,.0f} M events | {o:.1f} s | {r['dump_s']:.1f} s | "
                       f"{o / r['dump_s']:.2f} | {r['stats_warm_s']:.1f} s | "
                       f"{o / r['stats_warm_s']:.1f} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--dir", help="where the traces are kept (required unless --tables-from)")
    ap.add_argument("--traces", nargs="+",
                    default=["100000000:16", "1000000000:16", "1000000000:1024"],
                    help="EVENTS:RANKS of each synthetic trace")
    ap.add_argument("--otf2", action="store_true", help="compare with otf2-print (10^8 only)")
    ap.add_argument("--md")
    ap.add_argument("--json")
    ap.add_argument("--tables-from", metavar="JSON",
                    help="measure nothing: the tables of an earlier run's --json")
    a = ap.parse_args()
    if not a.tables_from and not a.dir:
        ap.error("--dir is required")
    if a.tables_from:
        with open(a.tables_from) as f:
            earlier = json.load(f)
        results, cpus = earlier["results"], earlier["cpus"]
    else:
        results = []
        for spec in a.traces:
            events, ranks = (int(x) for x in spec.split(":"))
            trace = trace_path(a.build, a.dir, events, ranks)
            results.append(measure(a.build, trace, events, ranks,
                                   a.otf2 and events <= 100_000_000))
        cpus = os.cpu_count()
    text = table(results, cpus)
    print(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"kind": "scale", "machine": platform.machine(), "cpus": cpus,
                       "results": results}, f, indent=1)
    if a.md:
        report.replace_between(a.md, BEGIN, END, text)


if __name__ == "__main__":
    main()
