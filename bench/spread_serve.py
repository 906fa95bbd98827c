#!/usr/bin/env python3
"""Serving a large trace from MPI processes: `parallax serve` and `mpirun -np
N parallax-mpi serve` side by side on one trace served from its file, whose
index already holds the repair, summary, statistics and analyses (a third
open in bench/serve_scale.py's words: run that first, or open the trace
once with `parallax serve`).

  spread_serve.py --build BUILD --trace TRACE [--processes 1 2]
                  [--md OUT.md] [--json OUT.json]
  spread_serve.py --tables-from OUT.json [--md OUT.md]

For each server: ready (the trace listed as ready; for parallax-mpi also
every process loaded, as its log says), then the tiles of serve_scale.py
(1600 px, the first 16 rows, 25 windows per zoom level, zooming in then
cold), then a statistics request of an area selection (the first 16 rows over
the middle tenth of the trace: a pass over their chunks), and the peak
resident memory of each process (VmHWM). Under Open MPI's mpirun with
--bind-to none and the machine's cores dealt out between the processes
(--threads), as bench/spread_stats.py does.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (bench/report.py)
from scale import gb  # noqa: E402
from serve_scale import get, hwm, zoom_tiles  # noqa: E402

BEGIN, END = "<!-- BEGIN SPREAD SERVE -->", "<!-- END SPREAD SERVE -->"
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none"]


def children(root):
    """Every descendant process of `root`."""
    parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    stat = f.read()
                parent[int(name)] = int(stat[stat.rindex(")") + 2:].split()[1])
            except OSError:
                pass

    def below(pid):
        while pid > 1:
            if pid == root:
                return True
            pid = parent.get(pid, 0)
        return False

    return [p for p in parent if p != root and below(p)]


def measure(build, trace, processes):
    if processes == 0:
        command, name = [f"{build}/src/cli/parallax"], "parallax serve"
    else:
        threads = max(1, (os.cpu_count() or 1) // processes)
        command = MPIRUN + ["-np", str(processes), f"{build}/src/cli/parallax-mpi",
                            "--threads", str(threads)]
        name = f"parallax-mpi serve, {processes} × {threads}"
    print(f"== {name}", flush=True)
    start = time.monotonic()
    p = subprocess.Popen(command + ["serve", "--no-browser", "--port", "0", trace],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = p.stdout.readline().split(" at ", 1)[1].strip()
    base, token = url.split("/?token=")
    api, token = base + "/api/v1", "token=" + token
    if processes > 0:
        for line in p.stderr:
            if "every process has loaded" in line:
                break
            if "error" in line:
                sys.exit(f"spread_serve.py: {line.strip()}")
    while True:
        entry = json.loads(get(f"{api}/traces?{token}"))["traces"][0]
        if entry["status"] == "ready":
            break
        time.sleep(0.05)
    r = {"name": name, "processes": processes, "ready_s": time.monotonic() - start}
    summary = json.loads(get(f"{api}/traces/{entry['id']}/summary?{token}"))
    duration = summary["duration"]
    rows = ",".join(str(i) for i in range(min(16, len(summary["threads"]))))
    r["tiles"] = zoom_tiles(api, token, entry["id"], duration, rows)
    t0 = time.monotonic()
    get(f"{api}/traces/{entry['id']}/stats?{token}&rows={rows}"
        f"&from={duration * 0.45}&to={duration * 0.55}")
    r["selection_stats_s"] = time.monotonic() - t0
    pids = [p.pid] if processes == 0 else [c for c in children(p.pid)
                                           if "parallax-mpi" in open(f"/proc/{c}/cmdline").read()]
    r["peak_rss"] = sorted((hwm(c) for c in pids), reverse=True)
    p.send_signal(signal.SIGINT)
    p.wait()
    return r


def table(data):
    runs = data["runs"]
    lines = [
        f"Measured {data['date']} on {data['cpus']} CPUs (`bench/spread_serve.py`; one run "
        f"each) on {data['trace']}, served from its file with its index read (the third "
        "open of the table above). Tiles over HTTP as above (1600 px, the first 16 rows, "
        "25 windows per zoom level), median / worst in ms; *selection*: the statistics of the "
        "first 16 rows over the middle tenth of the trace (a pass over their chunks); peak "
        "memory of each process, largest first.",
        "",
        "| | " + " | ".join(r["name"] for r in runs) + " |",
        "|---|" + "---:|" * len(runs),
        "| ready | " + " | ".join(f"{r['ready_s']:.1f} s" for r in runs) + " |",
        "| selection statistics | " + " | ".join(f"{r['selection_stats_s']:.2f} s" for r in runs)
        + " |",
        "| peak memory per process | " + " | ".join(
            ", ".join(gb(b) for b in r["peak_rss"]) for r in runs) + " |",
    ]
    for z in range(len(runs[0]["tiles"])):
        cells = [f"{r['tiles'][z]['median_ms']:.1f} / {r['tiles'][z]['worst_ms']:.1f}; cold "
                 f"{r['tiles'][z]['cold_median_ms']:.1f} / {r['tiles'][z]['cold_worst_ms']:.1f}"
                 for r in runs]
        lines.append(f"| tiles, zoom {z} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build")
    ap.add_argument("--trace")
    ap.add_argument("--processes", nargs="*", type=int, default=[1, 2])
    ap.add_argument("--md")
    ap.add_argument("--json")
    ap.add_argument("--tables-from")
    a = ap.parse_args()
    if a.tables_from:
        with open(a.tables_from) as f:
            data = json.load(f)
    else:
        if not a.build or not a.trace:
            ap.error("--build and --trace are needed to measure")
        runs = [measure(a.build, a.trace, n) for n in [0] + a.processes]
        data = {"cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d"),
                "trace": os.path.basename(a.trace), "runs": runs}
    report.publish(table(data), (BEGIN, END), a.md, None if a.tables_from else a.json, data)


if __name__ == "__main__":
    main()
