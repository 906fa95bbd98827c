#!/usr/bin/env python3
"""Checks the counts files of one run of an MPI test program (tests/mpi/programs).

  check_counts.py DIR NP [--program NAME] [--jobs N] [--same-as DIR2] [--ltrace LTDIR]

DIR holds counts-<rank>.txt for ranks 0..NP-1 (format: programs/count.h). Checks
that every file is there and well formed, that the messages sent and received
agree (the multiset of (src, dst, tag, bytes) from msg lines equals that from
rcv lines), and a few facts per program. --same-as compares with another run
of the same program (equal transfers and counts, except the calls that loop
until done). --ltrace compares the call counts with `ltrace -c -e 'MPI_*'`
summaries ltrace-<rank>.txt of the same run (an independent count).
Prints what it checked; exits 1 on the first run of problems.
"""

import argparse
import collections
import os
import re
import sys

# Calls in loops that run until something completes: their number varies.
VARIABLE_CALLS = {"MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome", "MPI_Waitsome",
                  "MPI_Iprobe"}


class Counts:
    def __init__(self):
        self.calls = {}  # name -> calls made while recording was on
        self.transfers = []  # ("msg" | "rcv", peer, tag, bytes) or ("rma", op, target, bytes)
        self.off_calls = None
        self.after = {}  # name -> count, or "*"


def parse(path, nprocs, problems):
    counts = Counts()
    names = []
    with open(path, encoding="ascii") as f:
        for number, line in enumerate(f, 1):
            where = f"{path}:{number}"
            fields = line.split()
            if not fields:
                problems.append(f"{where}: empty line")
            elif re.fullmatch(r"MPI_[A-Z][a-z0-9_]*", fields[0]) and len(fields) == 2:
                if fields[0] in counts.calls:
                    problems.append(f"{where}: {fields[0]} twice")
                if not fields[1].isdigit() or int(fields[1]) < 1:
                    problems.append(f"{where}: bad call count '{fields[1]}'")
                    continue
                counts.calls[fields[0]] = int(fields[1])
                names.append(fields[0])
            elif fields[0] in ("msg", "rcv") and len(fields) == 4:
                try:
                    peer, tag, size = (int(x) for x in fields[1:])
                except ValueError:
                    problems.append(f"{where}: bad numbers")
                    continue
                if not 0 <= peer < nprocs or tag < 0 or size < 0:
                    problems.append(f"{where}: out of range: {line.strip()}")
                counts.transfers.append((fields[0], peer, tag, size))
            elif fields[0] == "rma" and len(fields) == 4:
                op, target, size = fields[1], int(fields[2]), int(fields[3])
                if op not in ("put", "get", "acc") or not 0 <= target < nprocs or size <= 0:
                    problems.append(f"{where}: bad rma line: {line.strip()}")
                counts.transfers.append(("rma", op, target, size))
            elif fields[0] == "pcontrol_off_calls" and len(fields) == 2:
                counts.off_calls = int(fields[1])
            elif fields[0] == "after" and len(fields) == 3 and fields[1].startswith("MPI_"):
                counts.after[fields[1]] = "*" if fields[2] == "*" else int(fields[2])
            else:
                problems.append(f"{where}: cannot read '{line.rstrip()}'")
    if names != sorted(names):
        problems.append(f"{path}: call names not sorted")
    return counts


def check_messages(runs, problems):
    sent = collections.Counter()
    received = collections.Counter()
    for rank, counts in enumerate(runs):
        for kind, peer, tag, size in (t for t in counts.transfers if t[0] != "rma"):
            if kind == "msg":
                sent[(rank, peer, tag, size)] += 1
            else:
                received[(peer, rank, tag, size)] += 1
    for key in sorted((sent - received) + (received - sent)):
        problems.append(f"(src {key[0]}, dst {key[1]}, tag {key[2]}, {key[3]} B): "
                        f"sent {sent[key]} times, received {received[key]} times")
    return sum(sent.values())


def check_program(name, runs, args, problems):
    nprocs = len(runs)
    init = [c.calls.get("MPI_Init", 0) + c.calls.get("MPI_Init_thread", 0) for c in runs]
    if any(n != 1 for n in init):
        problems.append(f"MPI_Init/MPI_Init_thread per rank: {init}")
    if name == "pcontrol":
        if any(c.off_calls is None or c.off_calls < 1 for c in runs):
            problems.append("pcontrol: a rank lacks pcontrol_off_calls")
        if any(20 <= t[2] < 30 for c in runs for t in c.transfers):
            problems.append("pcontrol: a message of the unrecorded phase (tags 21-23) is listed")
    if name == "rma":
        for rank, c in enumerate(runs):
            ops = collections.Counter(t[1] for t in c.transfers if t[0] == "rma")
            if ops != {"put": 2, "get": 2, "acc": 5}:
                problems.append(f"rma: rank {rank} lists {dict(ops)}")
    if name == "farm" and args.jobs is not None:
        jobs = sum(1 for t in runs[0].transfers if t[0] == "msg" and t[2] == 1)
        results = sum(1 for t in runs[0].transfers if t[0] == "rcv")
        if jobs != args.jobs or results != args.jobs:
            problems.append(f"farm: {jobs} jobs sent, {results} results, expected {args.jobs}")
        stops = sum(1 for t in runs[0].transfers if t[0] == "msg" and t[2] == 2)
        if stops != nprocs - 1:
            problems.append(f"farm: {stops} stops for {nprocs - 1} workers")
    if name in ("abort", "sigterm") and any(not c.after for c in runs):
        problems.append(f"{name}: a rank has no `after` line")


def compare_runs(name, runs, others, problems):
    if name == "farm":  # who gets which job varies; the messages of each kind do not
        def kinds(run):
            return collections.Counter((t[0], t[2], t[3]) for c in run for t in c.transfers)
        if kinds(runs) != kinds(others):
            problems.append("farm: the messages differ between the runs")
        return
    for rank, (a, b) in enumerate(zip(runs, others)):
        if collections.Counter(a.transfers) != collections.Counter(b.transfers):
            problems.append(f"rank {rank}: the transfers differ between the runs")
        for call in sorted(set(a.calls) | set(b.calls)):
            if call not in VARIABLE_CALLS and a.calls.get(call) != b.calls.get(call):
                problems.append(f"rank {rank}: {call} {a.calls.get(call)} vs {b.calls.get(call)}")
        if a.off_calls != b.off_calls:
            problems.append(f"rank {rank}: pcontrol_off_calls {a.off_calls} vs {b.off_calls}")


def read_ltrace(path):
    """{name: calls} from an `ltrace -c` summary; Fortran's mpi_comm_rank_ is MPI_Comm_rank."""
    calls = {}
    with open(path, encoding="ascii", errors="replace") as f:
        for line in f:
            fields = line.split()
            if len(fields) != 5 or not fields[3].isdigit():
                continue
            name = fields[4]
            if name.startswith("mpi_") and name.endswith("_"):
                name = "MPI_" + name[4:-1].capitalize()
            if name.startswith("MPI_"):
                calls[name] = calls.get(name, 0) + int(fields[3])
    return calls


def compare_ltrace(runs, ltrace_dir, problems):
    for rank, counts in enumerate(runs):
        path = os.path.join(ltrace_dir, f"ltrace-{rank}.txt")
        if not os.path.exists(path):
            problems.append(f"{path} is missing")
            continue
        traced = read_ltrace(path)
        for name, n in counts.after.items():
            if n != "*":
                traced[name] = traced.get(name, 0) - n
        traced = {k: v for k, v in traced.items() if v}
        off = counts.off_calls or 0
        extra = {k: traced.get(k, 0) - counts.calls.get(k, 0) for k in set(traced) | set(counts.calls)}
        if any(v < 0 for v in extra.values()) or sum(extra.values()) != off:
            diff = {k: v for k, v in sorted(extra.items()) if v}
            problems.append(f"rank {rank}: ltrace - counts = {diff} (calls while off: {off})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("nprocs", type=int)
    parser.add_argument("--program", default="", help="p2p, farm, collectives, rma, ...")
    parser.add_argument("--jobs", type=int, help="farm: JOBS given to the program")
    parser.add_argument("--same-as", help="counts directory of another run to compare with")
    parser.add_argument("--ltrace", help="directory of ltrace-<rank>.txt summaries")
    args = parser.parse_args()

    problems = []
    paths = [os.path.join(args.dir, f"counts-{r}.txt") for r in range(args.nprocs)]
    missing = [p for p in paths if not os.path.exists(p)]
    extra = sorted(set(os.listdir(args.dir)) - {os.path.basename(p) for p in paths})
    extra = [e for e in extra if e.startswith("counts-")]
    if missing or extra:
        print(f"FAIL {args.dir}: missing {missing}, unexpected {extra}")
        return 1
    runs = [parse(p, args.nprocs, problems) for p in paths]
    messages = check_messages(runs, problems)
    check_program(args.program, runs, args, problems)
    if args.same_as:
        others = [parse(os.path.join(args.same_as, f"counts-{r}.txt"), args.nprocs, problems)
                  for r in range(args.nprocs)]
        compare_runs(args.program, runs, others, problems)
    if args.ltrace:
        compare_ltrace(runs, args.ltrace, problems)
    label = f"{args.program or 'program'} np={args.nprocs}"
    if problems:
        print(f"FAIL {label} ({args.dir}):")
        for p in problems[:40]:
            print("  " + p)
        return 1
    calls = sum(sum(c.calls.values()) for c in runs)
    rma = sum(1 for c in runs for t in c.transfers if t[0] == "rma")
    checks = " + same as the other run" if args.same_as else ""
    checks += " + ltrace agrees" if args.ltrace else ""
    print(f"ok   {label}: {calls} calls, {messages} messages matched, {rma} rma{checks}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
