#!/usr/bin/env python3
"""Turns Google Benchmark JSON output into the tables of docs/PERFORMANCE.md.

  report.py OUT.md capture.json format.json ...

Rewrites the part of OUT.md between '<!-- BEGIN GENERATED -->' and
'<!-- END GENERATED -->' and prints the same tables.
"""
import json
import sys
import time

BEGIN, END = "<!-- BEGIN GENERATED -->", "<!-- END GENERATED -->"


def load(paths):
    rows, context = [], {}
    for p in paths:
        with open(p) as f:
            data = json.load(f)
        context = data.get("context", context)
        for b in data["benchmarks"]:
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            rows.append(b)
    return rows, context


def per_item_ns(b):
    ips = b.get("items_per_second")
    return 1e9 / ips if ips else None


def name(b):
    n = b.get("run_name", b["name"])
    return n.replace("/iterations:1", "")


def tables(rows, context):
    by = {name(b): b for b in rows}
    out = [f"Measured {time.strftime('%Y-%m-%d')} on {context.get('num_cpus', '?')} CPUs at "
           f"{context.get('mhz_per_cpu', '?')} MHz (`make bench`; CPU time, median of repetitions).", ""]
    out += ["| benchmark | ns per item | items/s | notes |", "|---|---:|---:|---|"]
    for b in rows:
        ns = per_item_ns(b)
        ips = b.get("items_per_second")
        notes = ", ".join(f"{k}={b[k]:.4g}" for k in ("records", "slices", "bytes", "bytes_per_record")
                          if k in b)
        if not ns and b.get("cpu_time") and name(b) != "DemoTraceSize":
            notes = f"{b['cpu_time']:.1f} {b.get('time_unit', 'ns')} per run" + (", " + notes if notes else "")
        out.append(f"| {name(b)} | {ns:.2f} | {ips/1e6:.1f} M | {notes} |" if ns else
                   f"| {name(b)} | | | {notes} |")
    out.append("")
    checks = []
    floor = by.get("FloorTwoTscTwoStores/threads:1")
    el = by.get("StateEnterLeave/threads:1")
    if floor and el:
        r = per_item_ns(el) / per_item_ns(floor)
        checks.append(f"| state enter+leave vs floor | {r:.2f}x | <= 2x | {'met' if r <= 2 else 'MISSED'} |")
    size = by.get("DemoTraceSize")
    if size and "bytes_per_record" in size:
        v = size["bytes_per_record"]
        checks.append(f"| bytes per record, demo trace | {v:.2f} | <= 4 | {'met' if v <= 4 else 'MISSED'} |")
    rd = by.get("ReadDecode")
    if rd:
        v = rd["items_per_second"] / 1e6
        checks.append(f"| read (decode), one core | {v:.1f} M records/s | >= 50 M | {'met' if v >= 50 else 'MISSED'} |")
    lm = by.get("LoadModel")
    if lm:
        v = lm["items_per_second"] / 1e6
        checks.append(f"| load into the model, one core | {v:.1f} M records/s | >= 50 M | {'met' if v >= 50 else 'MISSED'} |")
    if checks:
        out += ["| target | measured | goal | |", "|---|---:|---:|---|"] + checks + [""]
    return "\n".join(out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out_md, paths = sys.argv[1], sys.argv[2:]
    rows, context = load(paths)
    text = tables(rows, context)
    print(text)
    with open(out_md) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"{out_md}: markers {BEGIN} / {END} not found")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(out_md, "w") as f:
        f.write(head + BEGIN + "\n" + text + "\n" + END + tail)


if __name__ == "__main__":
    main()
