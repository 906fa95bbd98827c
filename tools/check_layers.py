#!/usr/bin/env python3
"""Checks that every #include "LAYER/..." under src/ is one its layer may use.

  check_layers.py [--src DIR] [--table FILE]

The table (src/layers.txt) lists, per layer of src/, the layers it may include.
A layer whose folders are libraries of their own lists them too, as
`layer/folder: the folders of that layer it may include` (for example
`server/api: server/timeline`): a file in one of them may include
"layer/FOLDER/..." only for its own folder and those. Prints one line per
include that breaks it (file:line: what and why) and exits 1; a layer or
folder missing from the table, or a table line naming an unknown one, is an
error too. Exits 0 and prints a one-line summary when the tree keeps to it.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_]+)/(?:([A-Za-z0-9_]+)/)?')
SOURCES = (".h", ".hpp", ".cc", ".cpp", ".c", ".inc")


def read_table(path):
    allowed = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                raise SystemExit(f"{path}:{number}: expected 'layer: layers it may include'")
            layer, uses = line.split(":", 1)
            layer = layer.strip()
            if layer in allowed:
                raise SystemExit(f"{path}:{number}: layer '{layer}' listed twice")
            allowed[layer] = set(uses.split())
    return allowed


def check(src, table):
    entries = read_table(table)
    allowed = {k: v for k, v in entries.items() if "/" not in k}
    folders = {k: v for k, v in entries.items() if "/" in k}  # "layer/folder" -> set
    layers = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    problems = []
    for layer in layers:
        if layer not in allowed:
            problems.append(f"{table}: layer '{layer}' (src/{layer}) is not in the table")
    known = set(layers) | {"parallax"}
    for layer, uses in sorted(allowed.items()):
        for used in sorted(uses - known):
            problems.append(f"{table}: '{layer}' may include '{used}', which is no layer")
    # Layers split into folders: each folder listed, each listing names folders.
    split = {key.split("/", 1)[0] for key in folders}
    for layer in sorted(split):
        subdirs = {f"{layer}/{d}" for d in os.listdir(os.path.join(src, layer))
                   if os.path.isdir(os.path.join(src, layer, d))} if layer in layers else set()
        for key in sorted(subdirs - set(folders)):
            problems.append(f"{table}: folder '{key}' (src/{key}) is not in the table")
        for key in sorted(k for k in folders if k.startswith(layer + "/")):
            if key not in subdirs:
                problems.append(f"{table}: '{key}' is no folder of src/{layer}")
            for used in sorted(folders[key] - subdirs):
                problems.append(f"{table}: '{key}' may include '{used}', which is no folder")
    includes = 0
    for layer in layers:
        may = allowed.get(layer, set()) | {layer}
        for root, _, files in os.walk(os.path.join(src, layer)):
            rel = os.path.relpath(root, src).split(os.sep)
            folder = "/".join(rel[:2]) if len(rel) > 1 and layer in split else None
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(root, name)
                with open(path, errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        includes += 1
                        used = m.group(1)
                        what = line.strip()[len('#include '):]
                        if used in known and used not in may:
                            problems.append(
                                f"{path}:{number}: {layer} includes {used} "
                                f"(\"{what}\"); {table} lets "
                                f"{layer} include only: {' '.join(sorted(may - {layer})) or 'nothing'}")
                            continue
                        target = f"{used}/{m.group(2)}" if m.group(2) else None
                        if (folder is None or used != layer or target not in folders
                                or target == folder):
                            continue
                        if target not in folders.get(folder, set()):
                            mine = folders.get(folder, set())
                            problems.append(
                                f"{path}:{number}: {folder} includes {target} "
                                f"(\"{what}\"); {table} lets {folder} include only: "
                                f"{' '.join(sorted(mine)) or 'nothing'}")
    return problems, includes, len(layers)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default=os.path.join(here, "..", "src"))
    ap.add_argument("--table")
    a = ap.parse_args()
    table = os.path.relpath(a.table or os.path.join(a.src, "layers.txt"))
    problems, includes, layers = check(os.path.relpath(a.src), table)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) break the layering", file=sys.stderr)
        return 1
    print(f"check_layers: {includes} includes in {layers} layers keep to {table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
