#!/usr/bin/env python3
"""`parallax query` on a large trace, against copying its slices into SQLite.

  query_bench.py --build DIR --trace T [--md FILE] [--json OUT]

Two questions, each asked by its own `parallax query` run (wall time of the
whole command, index present, peak resident memory from /usr/bin/time):
  - a per-state aggregate over every slice (GROUP BY state);
  - the slices of 4 ranks in a 1 ms window at 40% of the run.
Then the same two on a copy: one shell session copies the slices into an
SQLite temporary table held in memory (as a trace processor that imports a
trace into its own tables does), indexes it by (rank, begin), and asks both
questions there (`.timer on` times each statement). Both ways must give the
same answers. With --md, rewrites the table between the QUERY markers.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (bench/report.py)

BEGIN, END = "<!-- BEGIN QUERY -->", "<!-- END QUERY -->"
AGGREGATE = "SELECT state, count(*) AS n, sum(dur) AS total FROM {t} GROUP BY state ORDER BY state"
WINDOW = ("SELECT count(*) AS n, sum(dur) AS total FROM {t} WHERE rank IN (0, 1, 2, 3) "
          "AND end >= {a} AND begin <= {b}")


def run(cmd, stdin=None):
    """(wall seconds, stdout, peak KB)."""
    with tempfile.NamedTemporaryFile() as rss:
        begin = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-o", rss.name, "-f", "%M"] + cmd, input=stdin,
                           capture_output=True, text=True, timeout=7200)
        wall = time.monotonic() - begin
        if p.returncode != 0:
            sys.exit(f"query_bench.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
        return wall, p.stdout, int(open(rss.name).read().split()[-1])


def measure(build, trace):
    parallax = f"{build}/src/cli/parallax"
    subprocess.run([parallax, "stats", trace], capture_output=True, check=True)  # the index
    info = json.loads(subprocess.run([parallax, "info", "--json", "--quick", trace],
                                     capture_output=True, check=True, text=True).stdout)
    span = int(subprocess.run([parallax, "query", trace, "SELECT max(end) FROM threads", "--csv"],
                              capture_output=True, check=True, text=True).stdout.split()[1])
    a = span * 4 // 10
    window = WINDOW.format(t="slices", a=a, b=a + 1_000_000)
    rows = []
    wall, agg, peak = run([parallax, "query", trace, AGGREGATE.format(t="slices"), "--csv"])
    rows.append({"question": "per-state aggregate, every slice", "way": "parallax query",
                 "seconds": wall, "peak_kb": peak})
    print(f"  aggregate: {wall:.2f} s, {peak / 1024:.0f} MiB", flush=True)
    wall, win, peak = run([parallax, "query", trace, window, "--csv"])
    rows.append({"question": "4 ranks, 1 ms window", "way": "parallax query",
                 "seconds": wall, "peak_kb": peak})
    print(f"  window: {wall * 1000:.0f} ms, {peak / 1024:.0f} MiB", flush=True)
    script = "\n".join([
        "PRAGMA temp_store = MEMORY;", ".timer on",
        "CREATE TEMP TABLE copy AS SELECT id, thread, rank, state, begin, end, dur, self, depth "
        "FROM slices;",
        "CREATE INDEX copy_rank_begin ON copy(rank, begin);", ".mode csv",
        AGGREGATE.format(t="copy") + ";", WINDOW.format(t="copy", a=a, b=a + 1_000_000) + ";", ""])
    wall, out, peak = run([parallax, "query", trace], stdin=script)
    times = [float(x) / 1000 for x in re.findall(r"^time: ([0-9.]+) ms$", out, re.M)]
    if len(times) != 4:
        sys.exit(f"query_bench.py: the copy session printed:\n{out}")
    answers = [s.replace("\r", "").strip() for s in re.split(r"^time: [0-9.]+ ms$", out, flags=re.M)]
    if answers[2] != agg.replace("\r", "").strip() or answers[3] != win.replace("\r", "").strip():
        sys.exit("query_bench.py: the copy answered otherwise:\n" + out + "\n" + agg + "\n" + win)
    rows.append({"question": "copy the slices into SQLite, then index them", "way": "copy",
                 "seconds": times[0] + times[1], "peak_kb": peak})
    rows.append({"question": "per-state aggregate, every slice", "way": "copy",
                 "seconds": times[2], "peak_kb": peak})
    rows.append({"question": "4 ranks, 1 ms window", "way": "copy",
                 "seconds": times[3], "peak_kb": peak})
    print(f"  copy: {times[0] + times[1]:.1f} s, then {times[2]:.2f} s and "
          f"{times[3] * 1000:.1f} ms; {peak / 1024:.0f} MiB", flush=True)
    return {"trace": os.path.basename(trace), "events": info.get("events", 0),
            "slices": sum(int(r.split(",")[1]) for r in agg.strip().splitlines()[1:]),
            "rows": rows}


def table(result, cpus):
    out = [f"Measured {datetime.date.today()} on {cpus} CPUs (`bench/query_bench.py`; one run "
           f"each; trace {result['trace']}, {result['slices'] / 1e6:,.1f} M slices, index "
           "present). *parallax query*: each question a run of its own, from the start of the "
           "program to its end. *copy*: one session copies the slices into an SQLite table in "
           "memory and indexes it, then asks the same questions there (statement times); "
           "peak memory is the session's.", "",
           "| question | way | time | peak memory |", "|---|---|---:|---:|"]
    for r in result["rows"]:
        t = r["seconds"]
        shown = f"{t:.2f} s" if t >= 1 else f"{t * 1000:.1f} ms"
        out.append(f"| {r['question']} | {r['way']} | {shown} | {r['peak_kb'] / 1024:,.0f} MiB |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--md")
    ap.add_argument("--json")
    a = ap.parse_args()
    result = measure(os.path.abspath(a.build), os.path.abspath(a.trace))
    report.publish(table(result, os.cpu_count()), (BEGIN, END), a.md, a.json, result)


if __name__ == "__main__":
    main()
