#!/usr/bin/env python3
"""`parallax CMD` against `mpirun -np N parallax-mpi CMD` on the same trace.

  spread_stats.py --build DIR --trace T [--processes 1 2]
                  [--commands stats matrix check anomalies waits critical-path report]
                  [--md FILE] [--json OUT]

For each command (all seven above unless told), runs
`parallax CMD --json T` (every core), then for each N `mpirun -np N
parallax-mpi CMD --json T --threads C/N` (the machine's C cores dealt out),
each process under /usr/bin/time for its peak resident memory. An untimed
`parallax stats` first makes sure the trace's index exists, so every timed
run reads it. `check` keeps the causal repair it computes in the index, so
each run of it gets a copy of an index without one (built once by an
untimed `parallax info`) and computes the repair (so does `report`). Checks
that every output is the one-process output and reports wall seconds,
events per second and the largest peak memory of a process. With --md,
rewrites the table between the SPREAD markers of that file; the rows of
commands not measured in this run stay as they were.
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_runs  # noqa: E402  (bench/mpi_runs.py)
import report  # noqa: E402  (bench/report.py)

BEGIN, END = "<!-- BEGIN SPREAD -->", "<!-- END SPREAD -->"
REPAIRS = {"check", "report"}  # commands that keep the causal repair in the index
COMMANDS = ["stats", "matrix", "check", "anomalies", "waits", "critical-path", "report"]


def timed(cmd, work, env=None):
    """(wall seconds, stdout digest, largest peak KB of the /usr/bin/time files)."""
    begin = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, env=env, timeout=3600)
    wall = time.monotonic() - begin
    if p.returncode != 0:
        sys.exit(f"spread_stats.py: {' '.join(cmd)} failed ({p.returncode}):\n"
                 f"{p.stderr.decode(errors='replace')}")
    return wall, hashlib.sha256(p.stdout).hexdigest(), mpi_runs.take_peak_kb(work)


def measure(build, trace, processes, commands):
    cores = os.cpu_count() or 1
    events = json.loads(subprocess.run([f"{build}/src/cli/parallax", "info", "--json", trace],
                                       capture_output=True, check=True).stdout)["events"]
    subprocess.run([f"{build}/src/cli/parallax", "stats", trace], capture_output=True, check=True)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        rss = os.path.join(work, "rss.%p")
        base = os.path.join(work, "index")
        fresh = []  # the index copies given out

        def index_for(command):
            """Options that give `command` an index without a causal repair."""
            if command not in REPAIRS:
                return []
            if not os.path.isdir(base):
                subprocess.run([f"{build}/src/cli/parallax", "info", trace, "--index-dir", base],
                               capture_output=True, check=True)
            copy = os.path.join(work, f"index-{len(fresh)}")
            shutil.copytree(base, copy)
            fresh.append(copy)
            return ["--index-dir", copy]

        for command in commands:
            wall, digest, peak = timed(["/usr/bin/time", "-o", rss.replace("%p", "0"), "-f", "%M",
                                        f"{build}/src/cli/parallax", command, "--json", trace,
                                        *index_for(command)],
                                       work)
            rows.append({"command": command, "program": "parallax", "processes": 1,
                         "threads": cores, "seconds": wall, "peak_kb": peak})
            print(f"  {command}: {wall:.1f} s, {peak / 1024:.0f} MiB", flush=True)
            for n in processes:
                threads = max(1, cores // n)
                w, d, p = timed(mpi_runs.parallax_mpi(
                    build, n, [command, "--json", trace, "--threads", str(threads),
                               *index_for(command)], work), work)
                if d != digest:
                    sys.exit(f"spread_stats.py: -np {n} {command} printed another answer "
                             "than parallax")
                rows.append({"command": command, "program": "parallax-mpi", "processes": n,
                             "threads": threads, "seconds": w, "peak_kb": p})
                print(f"  {command} -np {n}: {w:.1f} s, {p / 1024:.0f} MiB per process at most",
                      flush=True)
    for r in rows:
        r["events_per_second"] = events / r["seconds"]
    return {"trace": os.path.basename(trace), "events": events, "rows": rows}


def kept_rows(md, measured):
    """The table rows of `md`'s SPREAD table whose command was not measured."""
    if not md or not os.path.exists(md):
        return []
    text = open(md, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        return []
    rows = []
    for line in text.split(BEGIN, 1)[1].split(END, 1)[0].splitlines():
        if line.startswith("| `") and line.split("`")[1].split()[-1] not in measured:
            rows.append(line)
    return rows


def table(result, cpus, kept=()):
    out = [f"Measured {datetime.date.today()} on {cpus} CPUs (`bench/spread_stats.py`; one run "
           f"each; trace {result['trace']}, {result['events'] / 1e6:,.0f} M events, index "
           "present; `check` and `report` compute the causal repair in every run; peak "
           "memory: the largest of the processes, mapped file pages included). "
           "Every output is the one-process output.", "",
           "| program | processes × threads | wall | events/s | peak memory per process |",
           "|---|---:|---:|---:|---:|"]
    for r in result["rows"]:
        out.append(f"| `{r['program']} {r['command']}` | {r['processes']} × {r['threads']} | "
                   f"{r['seconds']:.1f} s | {r['events_per_second'] / 1e6:.0f} M/s | "
                   f"{r['peak_kb'] / 1024:.0f} MiB |")
    # In the order of COMMANDS, each command's rows together.
    order = {c: i for i, c in enumerate(COMMANDS)}
    rows = out[4:] + list(kept)
    rows.sort(key=lambda line: order.get(line.split("`")[1].split()[-1], len(order)))
    return "\n".join(out[:4] + rows) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--commands", nargs="+", default=COMMANDS)
    ap.add_argument("--md")
    ap.add_argument("--json")
    a = ap.parse_args()
    result = measure(os.path.abspath(a.build), os.path.abspath(a.trace), a.processes,
                     a.commands)
    kept = kept_rows(a.md, set(a.commands))
    report.publish(table(result, os.cpu_count(), kept), (BEGIN, END), a.md, a.json, result)


if __name__ == "__main__":
    main()
