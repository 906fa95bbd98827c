#!/usr/bin/env python3
"""tools/check_layers.py refuses what breaks src/layers.txt: a tree of empty
layers (the real table's) with one deliberately wrong include (between layers,
or between the folders of a layer split into libraries), an unknown layer or
folder, or a table naming no layer fails, naming the file and line; the same
tree with allowed includes passes."""
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

    def test_a_folder_including_a_later_folder_of_its_layer_fails(self):
        r = self.tree({"server/http/s.cc": '#include "server/api/served_trace.h"\n'
                                           '#include "server/timeline/tiles.h"\n'
                                           '#include "server/api.gen.h"\n',
                       "server/api/a.cc": '#include "server/api/a.h"\n'
                                          '#include "store/trace_store.h"\n'})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        r = self.tree({"server/timeline/t.cc": '#include "server/timeline/t.h"\n'
                                               '#include "server/http/server.h"\n'})
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("server/timeline/t.cc:2: server/timeline includes server/http", r.stdout)
        self.assertIn("include only: nothing", r.stdout)

    def test_a_folder_of_a_split_layer_missing_from_the_table_fails(self):
        r = self.tree({"server/gpu/g.cc": '#include "server/api/a.h"\n'})
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("folder 'server/gpu'", r.stdout)
        table = open(TABLE).read().replace("server/api: server/timeline",
                                           "server/api: server/timeline server/nowhere")
        r = self.tree({}, table)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("'server/nowhere', which is no folder", r.stdout)


if __name__ == "__main__":
    unittest.main()
