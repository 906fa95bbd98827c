"""The `parallax` Python module on real recorded traces: the MPI farm on 4
ranks (recorded with `parallax record`, as scripts/demo-trace does) and the
thread farm (recorded by the runtime in the program), compared with what
the `parallax` command prints as JSON for the same traces.

Run by ctest (python_module) with PLX_BUILD set to the build directory and
the build's python/ directory on PYTHONPATH.
"""
import json
import os
import subprocess

import numpy
import pandas
import pytest

import parallax

BUILD = os.environ["PLX_BUILD"]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(BUILD, "src", "cli", "parallax")


def cli_json(*args):
    out = subprocess.run([CLI, *args, "--json"], capture_output=True, check=True, text=True)
    return json.loads(out.stdout)


@pytest.fixture(scope="session")
def mpi_trace(tmp_path_factory):
    if not os.path.exists(os.path.join(BUILD, "examples", "mpi", "mpi_farm")):
        pytest.skip("no MPI farm in this build (MPI not found)")
    out = tmp_path_factory.mktemp("mpi")
    p = subprocess.run([os.path.join(SOURCE, "scripts", "demo-trace"), BUILD, str(out)],
                       capture_output=True, text=True, check=True, cwd=SOURCE)
    return p.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="session")
def thread_trace(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("threads") / "farm.plx")
    subprocess.run([os.path.join(BUILD, "examples", "thread_farm"), "--workers", "3", "--jobs",
                    "200", "--work-us", "100"], env={**os.environ, "PLX_OUTPUT": path},
                   check=True, capture_output=True)
    return path


@pytest.fixture(params=["mpi", "threads"])
def trace(request, mpi_trace, thread_trace):
    return mpi_trace if request.param == "mpi" else thread_trace


def test_stats_are_those_of_the_command(trace):
    t = parallax.open(trace)
    expected = {s["name"]: (s["count"], s["total_ns"], s["self_ns"], s["max_ns"])
                for s in cli_json("stats", trace)["states"]}
    df = t.stats()
    assert isinstance(df, pandas.DataFrame)
    got = {r.state: (r.count, r.total_ns, r.self_ns, r.max_ns) for r in df.itertuples()}
    assert got == expected


def test_columns_are_numpy_arrays_of_the_right_kind(trace):
    t = parallax.open(trace)
    c = t.query("SELECT id, dur, state, 1.5 * dur AS scaled FROM slices ORDER BY id")
    assert list(c) == ["id", "dur", "state", "scaled"]
    assert c["id"].dtype == numpy.int64 and c["dur"].dtype == numpy.int64
    assert c["scaled"].dtype == numpy.float64
    assert c["state"].dtype == object and isinstance(c["state"][0], str)
    assert (c["id"] == numpy.arange(len(c["id"]))).all()
    assert (c["scaled"] == 1.5 * c["dur"]).all()
    threads = cli_json("info", trace)["streams"]
    assert list(t.threads()["tid"]) == [th["tid"] for th in threads]
    # NULLs: an integer column with some becomes float64 with NaN.
    r = t.query("SELECT CASE WHEN id % 2 = 0 THEN id END AS even FROM slices ORDER BY id LIMIT 4")
    assert r["even"].dtype == numpy.float64
    assert numpy.isnan(r["even"][1]) and r["even"][2] == 2


def test_waits_messages_and_path_are_those_of_the_commands(mpi_trace):
    t = parallax.open(mpi_trace)
    waits = cli_json("waits", mpi_trace)
    w = t.wait_states()
    assert len(w) == waits["count"]
    assert int(w["dur"].sum()) == waits["wait_ns"]
    matrix = cli_json("matrix", mpi_trace)
    m = t.messages(where="send_thread IS NOT NULL AND recv_thread IS NOT NULL")
    assert len(m) == matrix["messages"]
    assert int(m["bytes"].sum()) == matrix["bytes"]
    path = cli_json("critical-path", mpi_trace)
    p = t.critical_path()
    assert len(p) == path["segment_count"]
    assert int(p["dur"].sum()) == path["length_ns"]
    assert len(t.anomalies()) == cli_json("anomalies", mpi_trace)["total"]


def test_a_window_of_some_ranks(mpi_trace):
    t = parallax.open(mpi_trace)
    a, b = t.duration_ns // 3, t.duration_ns // 2
    df = t.slices(where=f"rank IN (1, 2) AND end >= {a} AND begin <= {b}")
    every = t.slices()
    expected = every[every["rank"].isin([1, 2]) & (every["end"] >= a) & (every["begin"] <= b)]
    assert list(df["id"]) == list(expected["id"])
    assert len(df) > 0


def test_errors_are_one_line(trace, tmp_path):
    t = parallax.open(trace)
    with pytest.raises(RuntimeError, match=r"^query: no such column: nope$"):
        t.query("SELECT nope FROM slices")
    with pytest.raises(RuntimeError, match=r"^query: only statements that read are allowed"):
        t.query("CREATE TABLE x(a)")
    with pytest.raises(ValueError, match="no table named 'nowhere'"):
        t.table("nowhere")
    missing = str(tmp_path / "missing.plx")
    with pytest.raises(RuntimeError, match="missing.plx"):
        parallax.open(missing)


def test_queries_from_several_python_threads(mpi_trace):
    import concurrent.futures
    t = parallax.open(mpi_trace)
    sql = "SELECT state, count(*) AS n, sum(dur) AS total FROM slices GROUP BY state ORDER BY state"
    expected = t.df(sql)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for df in pool.map(lambda _: t.df(sql), range(8)):
            assert df.equals(expected)
