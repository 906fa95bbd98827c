#!/usr/bin/env python3
"""`parallax cut` on a large trace: time and peak memory.

  cut_bench.py --build DIR --trace T [--trace T2 ...] [--md FILE] [--json OUT]

For each trace (its index present): a 1 s window from the middle of the run
(the middle half when the run is shorter), every process; then the same
window of 4 processes. Each cut is a `parallax cut` run of its own (wall time
of the whole command, peak resident memory from /usr/bin/time). Every cut is
checked: per state, `parallax stats` of the cut must give the count and total
of the original's slices over the window clipped to it (`parallax query` on
the original). With --md, rewrites the table between the CUT markers.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (bench/report.py)

BEGIN, END = "<!-- BEGIN CUT -->", "<!-- END CUT -->"


def run(cmd):
    """(wall seconds, stdout, peak KB)."""
    with tempfile.NamedTemporaryFile() as rss:
        begin = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-o", rss.name, "-f", "%M"] + cmd,
                           capture_output=True, text=True, timeout=7200)
        wall = time.monotonic() - begin
        if p.returncode != 0:
            sys.exit(f"cut_bench.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
        return wall, p.stdout, int(open(rss.name).read().split()[-1])


def output(cmd):
    return subprocess.run(cmd, capture_output=True, check=True, text=True).stdout


def check(parallax, trace, cut, a, b, ranks):
    """The cut's per-state count and total against the original's clipped slices."""
    where = f" AND rank IN ({', '.join(map(str, ranks))})" if ranks else ""
    clip = f"min(end, {b}) - max(begin, {a})"
    expected = {}
    for line in output([parallax, "query", trace,
                        f"SELECT state, count(*), sum({clip}) FROM slices WHERE end >= {a} "
                        f"AND begin <= {b}{where} GROUP BY state", "--csv"]).splitlines()[1:]:
        state, n, total = line.rsplit(",", 2)
        expected[state] = (int(n), int(total))
    got = {s["name"]: (s["count"], s["total_ns"])
           for s in json.loads(output([parallax, "stats", cut, "--json"]))["states"]}
    if got != expected:
        sys.exit(f"cut_bench.py: {cut} does not hold the window:\n{got}\n{expected}")


def measure(build, trace, work):
    parallax = f"{build}/src/cli/parallax"
    subprocess.run([parallax, "stats", trace], capture_output=True, check=True)  # the index
    info = json.loads(output([parallax, "info", "--json", "--quick", trace]))
    span = int(output([parallax, "query", trace, "SELECT max(end) FROM threads",
                       "--csv"]).split()[1])
    width = min(1_000_000_000, span // 2)
    a = span // 2 - width // 2
    b = a + width
    rows = []
    for ranks in ([], [0, 1, 2, 3]):
        out = os.path.join(work, "cut.plx")
        cmd = [parallax, "cut", trace, out, "--from", str(a), "--to", str(b)]
        if ranks:
            cmd += ["--processes", ",".join(map(str, ranks))]
        wall, printed, peak = run(cmd)
        records = json.loads(output([parallax, "info", "--json", "--quick", out]))["events"]
        check(parallax, trace, out, a, b, ranks)
        rows.append({"trace": os.path.basename(trace), "events": info.get("events", 0),
                     "window_ns": width, "processes": len(ranks) or "all",
                     "records": records, "bytes": os.path.getsize(out), "seconds": wall,
                     "peak_kb": peak})
        print(f"  {os.path.basename(trace)} {width / 1e9:g} s, processes "
              f"{rows[-1]['processes']}: {records:,} records, {wall:.1f} s, "
              f"{peak / 1024:.0f} MiB", flush=True)
        os.remove(out)
    return rows


def table(rows, cpus):
    out = [f"Measured {datetime.date.today()} on {cpus} CPUs (`bench/cut_bench.py`; one run "
           "each; index present; the whole `parallax cut` run, peak resident memory of the "
           "process; every cut checked against the original's slices over the window).", "",
           "| trace | events | window | processes | records in the cut | time | peak memory |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['trace']} | {r['events'] / 1e6:,.0f} M | {r['window_ns'] / 1e9:g} s | "
                   f"{r['processes']} | {r['records'] / 1e6:,.1f} M | {r['seconds']:.1f} s | "
                   f"{r['peak_kb'] / 1024:,.0f} MiB |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--trace", required=True, action="append")
    ap.add_argument("--md")
    ap.add_argument("--json")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(a.trace[0]))) as work:
        for trace in a.trace:
            rows += measure(os.path.abspath(a.build), os.path.abspath(trace), work)
    report.publish(table(rows, os.cpu_count()), (BEGIN, END), a.md, a.json, rows)


if __name__ == "__main__":
    main()
