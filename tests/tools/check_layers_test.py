#!/usr/bin/env python3
"""tools/check_layers.py refuses what breaks src/layers.txt: a tree of empty
layers (the real table's) with one deliberately wrong include, an unknown layer,
or a table naming no layer fails, naming the file and line; the same tree with
allowed includes passes."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(ROOT, "tools", "check_layers.py")
TABLE = os.path.join(ROOT, "src", "layers.txt")


def layers():
    with open(TABLE) as f:
        return [line.split(":", 1)[0].strip() for line in f
                if line.split("#", 1)[0].strip()]


class CheckLayersTest(unittest.TestCase):
    def tree(self, files, table=None):
        d = tempfile.mkdtemp(prefix="plx-layers-")
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", d]))
        for layer in layers():
            os.makedirs(os.path.join(d, layer))
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
            with open(os.path.join(d, path), "w") as f:
                f.write(text)
        with open(os.path.join(d, "layers.txt"), "w") as f:
            f.write(table if table is not None else open(TABLE).read())
        return subprocess.run([sys.executable, SCRIPT, "--src", d], capture_output=True,
                              text=True)

    def test_allowed_includes_pass(self):
        r = self.tree({"store/a.cc": '#include "store/a.h"\n#include "model/trace.h"\n',
                       "capture/b.cc": '#include "parallax/parallax.h"\n#include <vector>\n'})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("3 includes", r.stdout)

    def test_a_lower_layer_including_a_higher_one_fails(self):
        r = self.tree({"capture/runtime.cc": '#include "capture/runtime.h"\n'
                                             '  #  include "counters/sampler.h"\n'})
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("capture/runtime.cc:2: capture includes counters", r.stdout)
        r = self.tree({"model/trace.h": '#include "server/api.h"\n'})
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("model/trace.h:1: model includes server", r.stdout)

    def test_a_layer_not_in_the_table_fails(self):
        r = self.tree({"gpu/x.cc": '#include "base/status.h"\n'})
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("layer 'gpu'", r.stdout)

    def test_a_table_naming_no_layer_fails(self):
        table = open(TABLE).read() + "\n"
        table = table.replace("format: base", "format: base nowhere")
        r = self.tree({}, table)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("'nowhere', which is no layer", r.stdout)


if __name__ == "__main__":
    unittest.main()
