#!/usr/bin/env python3
"""What tracing with libparallax-mpi.so adds to an MPI program's run time.

  mpi_overhead.py [--build DIR] [--runs N] [--quick] [--json OUT] [--check]

Runs bench/mpi/pingpong (8-byte MPI_Send/MPI_Recv round trips) and
bench/mpi/compute_allreduce (fixed floating-point work, then MPI_Allreduce) on
two ranks in three modes, each --runs times, alternating the modes within a
round (in a rotating order) so that drift of the machine hits all three alike:

  untraced   the program alone
  preloaded  LD_PRELOAD=libparallax-mpi.so with PLX_TRACE=0: interposition only
  traced     LD_PRELOAD=libparallax-mpi.so recording to a trace

Each program times its own loop (MPI_Init, MPI_Finalize and the merge of the
trace are outside it) and says how many MPI calls each rank made in it. From
the median of each mode, and again from its fastest run: added ns per MPI call
= (mode - untraced) / calls per rank, and overhead % = (mode - untraced) /
untraced. The targets are judged by the fastest runs: other processes and
other guests of the host only ever add time. Prints a table and writes
JSON (--json) that bench/report.py renders into docs/PERFORMANCE.md. --check
reads the JSON back and fails unless it has every key report.py uses.

The ranks busy-poll on every core, so any other process running slows them
down. Before each run the script waits for an idle machine (--wait-idle), and
a run during which other processes took more than --max-foreign % of the CPU
(from /proc/stat less the runs' own CPU time) is run again (--retries), for
at most --patience seconds in all.
"""
import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (bench/report.py renders the tables)

MODES = ("untraced", "preloaded", "traced")
# name: (default arguments, --quick arguments); see the programs' comments.
PROGRAMS = {
    "pingpong": (["500000", "50000"], ["2000", "200"]),
    "compute_allreduce": (["500", "2000"], ["5", "50"]),
}
PROGRAM_KEYS = ("args", "calls_per_rank", "modes")
MODE_KEYS = ("seconds", "best_seconds", "runs", "spread_pct")
DERIVED_KEYS = ("added_ns_per_call", "overhead_pct", "added_ns_per_call_best", "overhead_pct_best")


def mpi_flavour(mpiexec):
    try:
        out = subprocess.run([mpiexec, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    first = out.strip().splitlines()[0] if out.strip() else "unknown"
    return first


def launcher(args):
    cmd = [args.mpiexec, "-n", str(args.np)]
    if "Open MPI" in args.flavour or "OpenRTE" in args.flavour:
        cmd += ["--oversubscribe"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd += ["--allow-run-as-root"]
    return cmd


def environment(mode, lib, trace):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLX_") and k != "LD_PRELOAD"}
    if mode != "untraced":
        env["LD_PRELOAD"] = lib
    if mode == "preloaded":
        env["PLX_TRACE"] = "0"
    if mode == "traced":
        env["PLX_OUTPUT"] = trace
    return env


def busy_cpu_seconds():
    """CPU seconds the whole machine spent busy so far (/proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def wait_until_idle(limit_s, busy_pct=10.0):
    """Waits (at most limit_s) for half a second in which the machine is mostly idle."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        b0, t0 = busy_cpu_seconds(), time.monotonic()
        time.sleep(0.5)
        b1, t1 = busy_cpu_seconds(), time.monotonic()
        if b0 is None or (b1 - b0) / ((t1 - t0) * os.cpu_count()) * 100 <= busy_pct:
            return


def run_once(args, name, prog_args, mode, trace):
    cmd = launcher(args) + [os.path.join(args.programs, name)] + prog_args
    if os.path.exists(trace):
        os.remove(trace)
    busy0, ours0 = busy_cpu_seconds(), children_cpu_seconds()
    begin = time.monotonic()
    proc = subprocess.run(cmd, env=environment(mode, args.lib, trace), capture_output=True,
                          text=True, timeout=args.timeout)
    wall = time.monotonic() - begin
    busy1, ours1 = busy_cpu_seconds(), children_cpu_seconds()
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if proc.returncode != 0 or not lines:
        sys.exit(f"mpi_overhead: {' '.join(cmd)} ({mode}) failed with {proc.returncode}\n"
                 f"{proc.stdout}{proc.stderr}")
    result = json.loads(lines[-1])
    result["wall_seconds"] = wall
    # CPU time other processes took meanwhile, as a share of the machine: the
    # programs busy-poll on every core, so anything else running slows them.
    foreign = 0.0 if busy0 is None else max(0.0, (busy1 - busy0) - (ours1 - ours0))
    result["foreign_cpu_pct"] = foreign / (wall * os.cpu_count()) * 100
    if mode == "traced":
        if not os.path.exists(trace):
            sys.exit(f"mpi_overhead: {name} traced wrote no {trace}\n{proc.stderr}")
        result["trace_bytes"] = os.path.getsize(trace)
        if not args.keep:
            os.remove(trace)
    return result


def undisturbed_run(args, name, prog_args, mode, trace, label, patience_end):
    """run_once, after waiting for an idle machine, again while other processes
    took too much CPU (until --retries or --patience runs out)."""
    for attempt in range(args.retries + 1):
        if args.wait_idle > 0 and time.monotonic() < patience_end:
            wait_until_idle(min(args.wait_idle, patience_end - time.monotonic()))
        result = run_once(args, name, prog_args, mode, trace)
        result["disturbed_runs"] = attempt
        again = (result["foreign_cpu_pct"] > args.max_foreign and attempt < args.retries and
                 time.monotonic() < patience_end)
        print(f"  {label}: {result['seconds'] * 1e3:.1f} ms, other processes "
              f"{result['foreign_cpu_pct']:.1f} % CPU" + (" (disturbed, again)" if again else ""),
              file=sys.stderr)
        if not again:
            return result
    return result


def summarize(name, prog_args, results):
    """results: mode -> list of the program's JSON lines."""
    calls = results["untraced"][0]["calls_per_rank"]
    out = {"args": prog_args, "calls_per_rank": calls, "modes": {}}
    for mode in MODES:
        rs = results[mode]
        if any(r["calls_per_rank"] != calls for r in rs):
            sys.exit(f"mpi_overhead: {name}: calls per rank differ between runs")
        secs = [r["seconds"] for r in rs]
        m = {"seconds": statistics.median(secs), "best_seconds": min(secs), "runs": secs,
             "spread_pct": (max(secs) - min(secs)) / statistics.median(secs) * 100
             if statistics.median(secs) > 0 else 0.0,
             "wall_seconds": statistics.median(r["wall_seconds"] for r in rs),
             "foreign_cpu_pct": max(r["foreign_cpu_pct"] for r in rs),
             "disturbed_runs": sum(r["disturbed_runs"] for r in rs)}
        for key in ("one_way_us", "compute_seconds"):
            if key in rs[0]:
                m[key] = statistics.median(r[key] for r in rs)
        if mode == "traced":
            m["trace_bytes"] = statistics.median(r["trace_bytes"] for r in rs)
        out["modes"][mode] = m
    # From the medians, and from the fastest runs (interference only ever adds time).
    for stat, suffix in (("seconds", ""), ("best_seconds", "_best")):
        base = out["modes"]["untraced"][stat]
        out["added_ns_per_call" + suffix] = {}
        out["overhead_pct" + suffix] = {}
        for mode in MODES[1:]:
            delta = out["modes"][mode][stat] - base
            out["added_ns_per_call" + suffix][mode] = delta / calls * 1e9 if calls else 0.0
            out["overhead_pct" + suffix][mode] = delta / base * 100 if base > 0 else 0.0
    return out


def spreads(data):
    """One line per program: (slowest - fastest) / median run of each mode."""
    return "\n".join(
        f"spread of runs, {name}: " +
        ", ".join(f"{mode} {p['modes'][mode]['spread_pct']:.1f} %" for mode in MODES)
        for name, p in data["programs"].items())


def check(path):
    """Fails unless the JSON at `path` has everything bench/report.py reads."""
    with open(path) as f:
        data = json.load(f)
    problems = []
    if data.get("kind") != "mpi_overhead":
        problems.append("kind")
    for key in ("date", "np", "runs", "mpi", "num_cpus"):
        if key not in data.get("context", {}):
            problems.append(f"context.{key}")
    for name in PROGRAMS:
        p = data.get("programs", {}).get(name)
        if p is None:
            problems.append(f"programs.{name}")
            continue
        problems += [f"{name}.{k}" for k in PROGRAM_KEYS if k not in p]
        for mode in MODES:
            m = p.get("modes", {}).get(mode)
            if m is None:
                problems.append(f"{name}.modes.{mode}")
                continue
            problems += [f"{name}.modes.{mode}.{k}" for k in MODE_KEYS if k not in m]
        for mode in MODES[1:]:
            for k in DERIVED_KEYS:
                if not isinstance(p.get(k, {}).get(mode), (int, float)):
                    problems.append(f"{name}.{k}.{mode}")
        if not p.get("calls_per_rank"):
            problems.append(f"{name}.calls_per_rank > 0")
    if "one_way_us" not in data.get("programs", {}).get("pingpong", {}).get("modes", {}).get(
            "untraced", {}):
        problems.append("pingpong.modes.untraced.one_way_us")
    if problems:
        sys.exit(f"mpi_overhead: {path}: missing or bad: {', '.join(problems)}")
    print(f"mpi_overhead: {path}: all keys present")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build", help="build directory (default: build)")
    ap.add_argument("--lib", help="libparallax-mpi.so (default: BUILD/src/mpi/libparallax-mpi.so)")
    ap.add_argument("--programs", help="folder of the programs (default: BUILD/bench/mpi)")
    ap.add_argument("--mpiexec", default=shutil.which("mpirun") or "mpiexec")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--runs", type=int, help="runs per mode (default 7; 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="few iterations: checks, not numbers")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--check", action="store_true", help="verify the keys of the --json file")
    ap.add_argument("--keep", action="store_true", help="keep the traces (in a temporary folder)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--max-foreign", type=float, default=3.0, metavar="PCT",
                    help="a run during which other processes took more than PCT %% of the "
                    "machine's CPU is disturbed and run again (default 3)")
    ap.add_argument("--retries", type=int, help="runs again per disturbed run (default 5; "
                    "0 with --quick)")
    ap.add_argument("--wait-idle", type=float, metavar="S", help="before each run wait up to "
                    "S seconds for an idle machine (default 30; 0 with --quick)")
    ap.add_argument("--patience", type=float, default=900, metavar="S",
                    help="stop waiting and repeating runs S seconds after the start (default 900)")
    args = ap.parse_args()
    args.lib = os.path.abspath(args.lib or os.path.join(args.build, "src/mpi/libparallax-mpi.so"))
    args.programs = os.path.abspath(args.programs or os.path.join(args.build, "bench/mpi"))
    args.runs = args.runs or (1 if args.quick else 7)
    if args.retries is None:
        args.retries = 0 if args.quick else 5
    if args.wait_idle is None:
        args.wait_idle = 0 if args.quick else 30
    patience_end = time.monotonic() + args.patience
    args.flavour = mpi_flavour(args.mpiexec)
    if not os.path.exists(args.lib):
        sys.exit(f"mpi_overhead: no {args.lib}")
    if args.check and not args.json:
        sys.exit("mpi_overhead: --check needs --json")

    tmp = tempfile.mkdtemp(prefix="plx-mpi-overhead-")
    data = {"kind": "mpi_overhead",
            "context": {"date": time.strftime("%Y-%m-%d"), "np": args.np, "runs": args.runs,
                        "quick": args.quick, "mpi": args.flavour, "num_cpus": os.cpu_count(),
                        "machine": platform.machine(), "library": args.lib,
                        "load_avg_before": os.getloadavg()[0]},
            "programs": {}}
    try:
        for name, (full, quick) in PROGRAMS.items():
            prog_args = quick if args.quick else full
            results = {mode: [] for mode in MODES}
            for r in range(args.runs):
                order = MODES[r % 3:] + MODES[:r % 3]
                for mode in order:
                    trace = os.path.join(tmp, f"{name}-{r}.plx")
                    label = f"{name} run {r + 1}/{args.runs} {mode}"
                    results[mode].append(
                        undisturbed_run(args, name, prog_args, mode, trace, label, patience_end))
            data["programs"][name] = summarize(name, prog_args, results)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"mpi_overhead: traces kept in {tmp}", file=sys.stderr)
    data["context"]["load_avg_after"] = os.getloadavg()[0]

    print(report.mpi_tables(data))
    print(spreads(data))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
        if args.check:
            check(args.json)


if __name__ == "__main__":
    main()
