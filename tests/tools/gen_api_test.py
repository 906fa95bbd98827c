#!/usr/bin/env python3
"""tools/gen_api.py keeps the viewer's tile columns to spec/api.toml: a field
added to a record (the spec's one edit) appears as a typed-array column filled
by its decoder, --check-ts then calls the committed files stale, and a spec
whose columns clash is refused."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(ROOT, "tools", "gen_api.py")
SPEC = os.path.join(ROOT, "spec", "api.toml")
PROTOCOL = os.path.join(ROOT, "web", "src", "protocol")
SLICE_FLAGS = '{ name = "flags", type = "u16", doc = "1 merged, 2 unclosed (never left)" },\n'


class GenApiTest(unittest.TestCase):
    def spec(self, old, new):
        d = tempfile.mkdtemp(prefix="plx-gen-api-")
        self.addCleanup(shutil.rmtree, d)
        with open(SPEC) as f:
            text = f.read()
        self.assertIn(old, text)
        path = os.path.join(d, "api.toml")
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))
        return d, path

    def run_gen(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_committed_files_are_current(self):
        r = self.run_gen(SPEC, "--check-ts", os.path.join(PROTOCOL, "api.gen.ts"))
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_a_new_field_is_a_new_column(self):
        # Eight bytes keep the record a multiple of 8.
        d, spec = self.spec(SLICE_FLAGS, SLICE_FLAGS +
                            '  { name = "self_time", type = "f64", doc = "x" },\n')
        r = self.run_gen(spec, "--ts", os.path.join(d, "api.gen.ts"))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(d, "api_columns.gen.ts")) as f:
            columns = f.read()
        self.assertIn("  selfTime: Float64Array;", columns)
        self.assertIn("    selfTime: new Float64Array(count),", columns)
        self.assertIn("    c.selfTime[i] = view.getFloat64(o + 32, true);", columns)
        with open(os.path.join(d, "api_records.gen.ts")) as f:
            self.assertIn("export const TILESLICE_SIZE = 40;", f.read())
        # The committed files no longer match the edited spec.
        r = self.run_gen(spec, "--check-ts", os.path.join(PROTOCOL, "api.gen.ts"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("is stale: run tools/gen_api.py", r.stderr)

    def test_a_column_array_can_be_chosen(self):
        d, spec = self.spec('{ name = "row", type = "u32", doc = "" },\n  { name = "state"',
                            '{ name = "row", type = "u32", array = "Int32Array", doc = "" },\n'
                            '  { name = "state"')
        r = self.run_gen(spec, "--ts", os.path.join(d, "api.gen.ts"))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(d, "api_columns.gen.ts")) as f:
            self.assertIn("  row: Int32Array;", f.read())

    def test_clashing_columns_are_refused(self):
        flags = '"flags", '
        for extra in ['column = "ref", ', 'column = "count", ', 'array = "Blob", ']:
            old, new = SLICE_FLAGS, SLICE_FLAGS.replace(flags, flags + extra)
            d, spec = self.spec(old, new)
            r = self.run_gen(spec, "--ts", os.path.join(d, "api.gen.ts"))
            self.assertEqual(r.returncode, 1, new)
            self.assertIn("record TileSlice", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "api_columns.gen.ts")))


if __name__ == "__main__":
    unittest.main()
