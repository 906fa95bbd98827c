#!/usr/bin/env python3
"""The compiler holds src/ to src/layers.txt: each layer's files compile with
include paths (cmake/layers.cmake) on which only the layers it may reach are
found.

  layer_includes_test.py --build DIR   (a configured and built build directory)

For every include path a layer's files are compiled with (from the build's
compile_commands.json), a probe of one header per layer, per folder of a split
layer, of the public API and of each generated header is preprocessed with
__has_include: the layers the table lets it reach must be found, all others
not. And a real compile with plx_base's flags fails on "store/trace_store.h"
and passes on "base/status.h".

Reach is the layer, its line of the table and, in turn, what those reach: a
header of an allowed layer must compile where it is included.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SRC = os.path.join(ROOT, "src")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from check_layers import read_table  # noqa: E402

BUILD = None  # set by main()
# Layers whose libraries the build may leave out (no MPI found; no Python
# module in sanitizer builds or without python3-dev and pybind11).
OPTIONAL = {"mpi", "python"}


def table():
    entries = read_table(os.path.join(SRC, "layers.txt"))
    split = {k.split("/", 1)[0] for k in entries if "/" in k}
    return entries, split


def reach(entries, start):
    """start, its line of the table and what those reach in turn."""
    seen, todo = {start}, [start]
    while todo:
        for used in entries.get(todo.pop(), ()):
            if used not in seen:
                seen.add(used)
                todo.append(used)
    return seen


def may_find(entries, split, key, header_key):
    """Whether files of KEY (a layer, or layer/folder) may find HEADER_KEY's headers."""
    mine = key.split("/", 1)[0]
    layers = reach(entries, mine)
    if "/" in header_key:
        layer, _ = header_key.split("/", 1)
        if layer == mine and key in entries and "/" in key:
            return header_key in reach(entries, key)
        return layer in layers
    return header_key in layers


def probe_headers(split):
    """(key, header) pairs: one header of each layer, of each folder of a split
    layer, the public API, and every generated header of the build."""
    found = [("parallax", "parallax/parallax.h")]
    for layer in sorted(os.listdir(SRC)):
        if not os.path.isdir(os.path.join(SRC, layer)):
            continue
        dirs = [layer]
        if layer in split:
            dirs = [f"{layer}/{d}" for d in sorted(os.listdir(os.path.join(SRC, layer)))
                    if os.path.isdir(os.path.join(SRC, layer, d))]
        for d in dirs:
            headers = sorted(n for n in os.listdir(os.path.join(SRC, d)) if n.endswith(".h"))
            if headers:
                found.append((d, f"{d}/{headers[0]}"))
    gen = os.path.join(BUILD, "gen")
    for root, _, files in os.walk(gen):
        for name in sorted(files):
            if name.endswith(".h"):
                rel = os.path.relpath(os.path.join(root, name), gen).replace(os.sep, "/")
                parts = rel.split("/")
                # server/api.gen.h belongs to the server layer, not to a folder.
                key = "/".join(parts[:2]) if len(parts) > 2 and parts[0] in split else parts[0]
                found.append((key, rel))
    return found


def include_flags(args):
    """The compiler and what decides where #include looks, from a compile command."""
    keep = [args[0]]
    i = 1
    while i < len(args):
        a = args[i]
        if a in ("-I", "-isystem", "-iquote", "-idirafter"):
            keep += args[i:i + 2]
            i += 2
            continue
        if a.startswith(("-I", "-isystem", "-iquote", "-idirafter", "-std=", "-nostdinc")):
            keep.append(a)
        i += 1
    return keep


def layer_compiles():
    """[(key, flags, source)] for the build's compiles of layer code: files of
    src/ compiled by a target of src/, and generated sources compiled there."""
    with open(os.path.join(BUILD, "compile_commands.json")) as f:
        entries = json.load(f)
    _, split = table()
    found = []
    for e in entries:
        args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        if "-o" not in args:
            continue
        out = os.path.normpath(os.path.join(e["directory"], args[args.index("-o") + 1]))
        out_rel = os.path.relpath(out, BUILD).split(os.sep)
        if out_rel[0] != "src":
            continue  # tests, benchmarks: they see all of src/
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        if path.startswith(SRC + os.sep):
            rel = os.path.relpath(path, SRC).split(os.sep)
        else:
            rel = out_rel[1:]  # a generated source: the layer of its target
        key = "/".join(rel[:2]) if rel[0] in split else rel[0]
        found.append((key, tuple(include_flags(args)), path))
    return found


class LayerIncludesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="plx-layer-includes-")
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", self.dir]))

    def run_compiler(self, flags, text, *extra):
        probe = os.path.join(self.dir, "probe.cc")
        with open(probe, "w") as f:
            f.write(text)
        return subprocess.run(list(flags) + list(extra) + [probe, "-o", os.devnull],
                              capture_output=True, text=True)

    def test_each_layer_finds_only_what_the_table_lets_it_reach(self):
        entries, split = table()
        groups = {}
        for key, flags, source in layer_compiles():
            groups.setdefault((key, flags), source)
        headers = probe_headers(split)
        self.assertIn(("format", "format/records.gen.h"), headers, "build the tree first")
        keys = {key for key, _ in groups}
        wanted = {k for k in entries if k not in split and k not in OPTIONAL}
        self.assertFalse(wanted - keys, f"no compiles of these in the build: {wanted - keys}")
        problems = []
        for (key, flags), source in sorted(groups.items()):
            lines, expected = [], {}
            for header_key, header in headers:
                want = may_find(entries, split, key, header_key)
                expected[header] = want
                lines += [f'#if {"!" if want else ""}__has_include("{header}")',
                          f'#error "PLX {header} {"not found" if want else "found"}"',
                          "#endif"]
            r = self.run_compiler(flags, "\n".join(lines) + "\n", "-E")
            where = f"{key} (compiled as {os.path.relpath(source, ROOT)})"
            wrong = sorted(set(re.findall(r'"PLX ([^"]+)"', r.stderr)))
            problems += [f"{where}: {w}" for w in wrong]
            if r.returncode != 0 and not wrong:
                problems.append(f"{where}: {r.stderr}")
            # Both ways tried, so the probe can tell.
            self.assertTrue(any(expected.values()) and not all(expected.values()), key)
        self.assertEqual(problems, [], "include paths that break src/layers.txt")

    def test_the_compiler_refuses_an_include_the_table_forbids(self):
        base = [flags for key, flags, source in layer_compiles()
                if source == os.path.join(SRC, "base", "status.cc")]
        self.assertEqual(len(base), 1, "no compile of src/base/status.cc in the build")
        r = self.run_compiler(base[0], '#include "store/trace_store.h"\n', "-fsyntax-only")
        self.assertNotEqual(r.returncode, 0, "base may not include store, yet it compiled")
        # Not found itself (gcc, clang), not some header it would include.
        self.assertRegex(r.stderr, r"store/trace_store\.h: No such file|"
                                   r"'store/trace_store\.h' file not found")
        r = self.run_compiler(base[0], '#include "base/status.h"\n', "-fsyntax-only")
        self.assertEqual(r.returncode, 0, r.stderr)


def main():
    global BUILD
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    a, rest = ap.parse_known_args()
    BUILD = os.path.abspath(a.build)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
