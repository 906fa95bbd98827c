#!/usr/bin/env python3
"""The cost model of `parallax-mpi matrix` (docs/distributed.md) against
measurements: steps, bytes exchanged and gathered, time and memory per
process, with 1, 2 and 4 processes on synthetic traces of 16 to 16,384
processes.

  spread_cost.py --build DIR [--events 20000000] [--ranks 16 1024 16384]
                 [--processes 1 2 4] [--md FILE] [--json OUT]

Each trace is written once by bench/write_mpi_trace into $PLX_BENCH_DIR (or
the system's temporary directory). `parallax matrix` answers first (and
builds the index; text, as the JSON's dense grids of 16,384 x 16,384 cells
would not fit in memory); then each `mpirun -np N parallax-mpi matrix
--threads 1` must print the same, with PLX_GROUP_STATS set so that every
process reports its steps and bytes (src/distributed/mpi_group.h) and
/usr/bin/time its peak memory. The model's numbers come from the trace
alone: L = ceil(records / (4 M x N)) slabs, 4 L + 9 steps, and the send
records whose receiver is decoded by another process (the paired
messages between processes of different shares, counted by `parallax
query`, the shares cut as evenly as the synthetic ranks are) at 88 bytes each, plus two 8-byte counts per pair of
processes per slab. With --md, rewrites the table between the SPREAD COST
markers of that file.
"""
import argparse
import datetime
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_runs  # noqa: E402  (bench/mpi_runs.py)
import report  # noqa: E402  (bench/report.py)

BEGIN, END = "<!-- BEGIN SPREAD COST -->", "<!-- END SPREAD COST -->"
SLAB_RECORDS = 4_000_000  # store::MessagePassOptions::slab_records, per process
SEND_BYTES = 88  # sizeof(store::MessageSide)


def run(cmd, env=None):
    begin = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, env=env, timeout=3600)
    if p.returncode != 0:
        sys.exit(f"spread_cost.py: {' '.join(cmd)} failed ({p.returncode}):\n"
                 f"{p.stderr.decode(errors='replace')}")
    return time.monotonic() - begin, p.stdout


def model(info, pairs, processes):
    """The cost model's steps and exchanged bytes for `processes` processes;
    `pairs`: (sender, receiver, messages) by process index."""
    records = info["events"]
    slabs = max(1, math.ceil(records / (SLAB_RECORDS * processes)))
    n = len(info["processes"])
    share = [p * processes // n for p in range(n)]  # even shares of the ranks
    crossing = sum(count for s, r, count in pairs if share[s] != share[r])
    exchanged = crossing * SEND_BYTES + 16 * processes * (processes - 1) * slabs
    return {"slabs": slabs, "steps": 4 * slabs + 9, "crossing_sends": crossing,
            "exchanged_bytes": exchanged}


def measure(build, events, ranks, process_counts):
    bench_dir = os.environ.get("PLX_BENCH_DIR", tempfile.gettempdir())
    env = dict(os.environ, PLX_BENCH_DIR=bench_dir)
    _, out = run([f"{build}/bench/write_mpi_trace", str(events), str(ranks)], env)
    trace = out.decode().strip().splitlines()[-1]
    _, out = run([f"{build}/src/cli/parallax", "info", "--json", trace])
    info = json.loads(out)
    _, alone = run([f"{build}/src/cli/parallax", "matrix", trace])
    digest = hashlib.sha256(alone).hexdigest()
    _, out = run([f"{build}/src/cli/parallax", "query", "--csv", trace,
                  "SELECT sender, receiver, count(*) FROM messages GROUP BY sender, receiver"])
    pairs = [tuple(int(x) for x in line.split(","))
             for line in out.decode().splitlines()[1:] if line.strip()]
    rows = []
    for n in process_counts:
        with tempfile.TemporaryDirectory() as work:
            stats = os.path.join(work, "group.jsonl")
            cmd = mpi_runs.parallax_mpi(build, n, ["matrix", trace, "--threads", "1"], work)
            wall, out = run(cmd, dict(os.environ, PLX_GROUP_STATS=stats))
            if hashlib.sha256(out).hexdigest() != digest:
                sys.exit(f"spread_cost.py: -np {n} printed another matrix than parallax")
            with open(stats) as f:
                group = [json.loads(line) for line in f if line.strip()]
            peak = mpi_runs.take_peak_kb(work)
        row = {"processes": n, "seconds": wall, "peak_kb": peak,
               "steps": max(g["steps"] for g in group),
               "exchanged_bytes": sum(g["exchanged_sent"] for g in group),
               "gathered_bytes": sum(g["gathered_sent"] for g in group),
               "seconds_waiting": max(g["seconds_waiting"] for g in group),
               "model": model(info, pairs, n)}
        rows.append(row)
        print(f"  {ranks} ranks, -np {n}: {wall:.1f} s, {row['steps']} steps "
              f"(model {row['model']['steps']}), {row['exchanged_bytes']} bytes exchanged "
              f"(model {row['model']['exchanged_bytes']})", flush=True)
    return {"ranks": ranks, "events": info["events"], "messages": info["messages"],
            "rows": rows}


def mb(b):
    return f"{b / 1e6:.2f} MB" if b >= 1e4 else f"{b:,} B"


def table(results, cpus):
    out = [f"Measured {datetime.date.today()} on {cpus} CPUs (`bench/spread_cost.py`; one run "
           "each; Open MPI, oversubscribed, one thread per process; every output is "
           "`parallax matrix`'s). *Steps*: the collective steps of the process with the "
           "most; *exchanged*: the records sent to other processes, summed over the "
           "processes; *gathered*: the matrices sent to process 0; *waiting*: the longest "
           "a process spent in its steps. Model: docs/distributed.md, \"Cost\".", "",
           "| trace | processes | wall | peak memory per process | steps (model) | "
           "exchanged (model) | gathered | waiting |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        name = (f"{r['events'] / 1e6:.0f} M events, {r['ranks']:,} ranks, "
                f"{r['messages'] / 1e6:.2f} M messages")
        for row in r["rows"]:
            m = row["model"]
            out.append(f"| {name} | {row['processes']} | {row['seconds']:.1f} s | "
                       f"{row['peak_kb'] / 1024:.0f} MiB | {row['steps']} ({m['steps']}) | "
                       f"{mb(row['exchanged_bytes'])} ({mb(m['exchanged_bytes'])}) | "
                       f"{mb(row['gathered_bytes'])} | {row['seconds_waiting']:.2f} s |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--events", type=int, default=20_000_000)
    ap.add_argument("--ranks", type=int, nargs="+", default=[16, 1024, 16384])
    ap.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--md")
    ap.add_argument("--json")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    results = [measure(build, a.events, ranks, a.processes) for ranks in a.ranks]
    report.publish(table(results, os.cpu_count()), (BEGIN, END), a.md, a.json, results)


if __name__ == "__main__":
    main()
