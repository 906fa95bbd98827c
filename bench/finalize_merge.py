#!/usr/bin/env python3
"""What merging the ranks' parts at MPI_Finalize costs, and what leaving them costs later.

  finalize_merge.py --build DIR [--ranks 64 256] [--iterations N] [--md FILE] [--json OUT]
  finalize_merge.py --tables-from OUT [--md FILE]

Runs bench/mpi/finalize_ring (ring exchanges, then each rank times its
MPI_Finalize) under Open MPI's mpirun, oversubscribed, with libparallax-mpi.so
preloaded, for each rank count twice: PLX_MERGE=1 (rank 0 merges every part
into the trace) and PLX_MERGE=0 (the parts stay in TRACE.parts/). Reports rank
0's MPI_Finalize (the job ends when it does), that time per rank, the bytes
written, and for the parts left: the first `parallax info` on the directory
(which merges them once into a kept copy) and the second (which reuses it).
With --md, rewrites the table between the FINALIZE markers of that file.
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (bench/report.py)

BEGIN, END = "<!-- BEGIN FINALIZE -->", "<!-- END FINALIZE -->"


def size_of(path):
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))
    return os.path.getsize(path)


def run(build, ranks, iterations, merge, work):
    trace = os.path.join(work, "ring.plx")
    env = dict(os.environ, LD_PRELOAD=f"{build}/src/mpi/libparallax-mpi.so", PLX_OUTPUT=trace,
               PLX_MERGE=merge)
    mpirun = shutil.which("mpirun.openmpi") or "mpirun"
    cmd = [mpirun, "--oversubscribe", "--mca", "btl", "self,vader", "--mca",
           "mpi_yield_when_idle", "1", "-np", str(ranks), f"{build}/bench/mpi/finalize_ring",
           str(iterations)]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    begin = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
    wall = time.monotonic() - begin
    lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
    if p.returncode != 0 or not lines:
        sys.exit(f"finalize_merge.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    r = json.loads(lines[-1])
    r.update(merge=merge == "1", wall_seconds=wall)
    left = trace if merge == "1" else trace + ".parts"
    r["bytes"] = size_of(left)
    if merge == "0":
        for key in ("first_open_seconds", "second_open_seconds"):
            begin = time.monotonic()
            subprocess.run([f"{build}/src/cli/parallax", "info", left], check=True,
                           capture_output=True, env=dict(os.environ, XDG_CACHE_HOME=work))
            r[key] = time.monotonic() - begin
    shutil.rmtree(work)
    os.makedirs(work)
    print(f"  {ranks} ranks, PLX_MERGE={merge}: finalize {r['finalize_seconds']:.3f} s",
          file=sys.stderr)
    return r


def table(data):
    out = [f"Measured {data['date']} on {data['cpus']} CPUs (`bench/finalize_merge.py`; one run "
           f"each; Open MPI, oversubscribed; {data['iterations']} ring exchanges per rank). "
           "*Finalize*: rank 0's `MPI_Finalize`, which the job waits for; *per rank*: that "
           "divided by the ranks. Parts left: the first `parallax info` on the directory "
           "merges them into a kept copy, the second reuses it.",
           "",
           "| ranks | trace | merged at finalize | per rank | parts left: finalize | per rank "
           "| first open | second open |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    by = {}
    for r in data["results"]:
        by.setdefault(r["ranks"], {})["merged" if r["merge"] else "left"] = r
    for ranks in sorted(by):
        m, left = by[ranks]["merged"], by[ranks]["left"]
        out.append(f"| {ranks} | {m['bytes'] / 2**20:.1f} MiB | {m['finalize_seconds']:.2f} s | "
                   f"{m['finalize_seconds'] / ranks * 1e3:.1f} ms | "
                   f"{left['finalize_seconds']:.2f} s | "
                   f"{left['finalize_seconds'] / ranks * 1e3:.1f} ms | "
                   f"{left['first_open_seconds']:.2f} s | {left['second_open_seconds']:.2f} s |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build")
    ap.add_argument("--ranks", nargs="*", type=int, default=[64, 256])
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--md")
    ap.add_argument("--json")
    ap.add_argument("--tables-from")
    a = ap.parse_args()
    if a.tables_from:
        with open(a.tables_from) as f:
            data = json.load(f)
    else:
        if not a.build:
            ap.error("--build is needed to measure")
        work = tempfile.mkdtemp(prefix="plx-finalize-")
        try:
            results = [run(a.build, ranks, a.iterations, merge, work)
                       for ranks in a.ranks for merge in ("1", "0")]
        finally:
            shutil.rmtree(work, ignore_errors=True)
        data = {"date": datetime.date.today().isoformat(), "cpus": os.cpu_count(),
                "iterations": a.iterations, "results": results}
        if a.json:
            with open(a.json, "w") as f:
                json.dump(data, f, indent=1)
    text = table(data)
    print(text)
    if a.md:
        report.replace_between(a.md, BEGIN, END, text)


if __name__ == "__main__":
    main()
