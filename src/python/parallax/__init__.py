"""Parallax traces from Python (docs/python.md).

    import parallax
    t = parallax.open("run.plx")
    df = t.df("SELECT state, count(*) AS n, sum(dur) AS total FROM slices GROUP BY state")
    t.slices(where="rank = 0 AND dur > 1e6")      # a table as a DataFrame
    t.wait_states()                              # the analyses as DataFrames

Every table of `parallax query` (docs/query-tables.md) can be read; a trace is
read where it lies, the way the command-line tools read it (nothing is loaded
whole), and results are copied once out of SQLite into numpy arrays.
"""
from ._parallax import Trace as _Trace

__all__ = ["open", "Trace"]


class Trace:
    """An open trace (a .plx file)."""

    def __init__(self, path, threads=0):
        self._t = _Trace(str(path), threads)
        self.path = str(path)

    def query(self, sql, timeout_ms=0):
        """The rows of the last statement of `sql`: {column: numpy array}.

        Integer columns are int64 (float64 with NaN where NULLs are), reals
        float64, text and mixed columns object arrays (None for NULL)."""
        return self._t.query(sql, timeout_ms)

    def df(self, sql, timeout_ms=0):
        """The same as a pandas DataFrame."""
        import pandas
        columns = self.query(sql, timeout_ms)
        return pandas.DataFrame(columns, columns=list(columns))

    def table(self, name, where=None, columns="*"):
        """Table `name` (optionally only rows matching the SQL `where`)."""
        if name not in self._t.tables():
            raise ValueError(f"no table named {name!r} (there are: {', '.join(self._t.tables())})")
        sql = f"SELECT {columns} FROM {name}" + (f" WHERE {where}" if where else "")
        return self.df(sql)

    def tables(self):
        return self._t.tables()

    # The tables as methods: t.slices(where="rank = 0"), t.wait_states(), ...
    def slices(self, where=None):
        return self.table("slices", where)

    def messages(self, where=None):
        return self.table("messages", where)

    def threads(self):
        return self.table("threads")

    def processes(self):
        return self.table("processes")

    def wait_states(self, where=None):
        return self.table("wait_states", where)

    def critical_path(self):
        return self.table("critical_path")

    def anomalies(self, where=None):
        return self.table("anomalies", where)

    def stats(self):
        """Per state: count, total, self, min, max and mean duration (ns)."""
        return self.df("SELECT state, count(*) AS count, sum(dur) AS total_ns, "
                       "sum(self) AS self_ns, min(dur) AS min_ns, max(dur) AS max_ns, "
                       "avg(dur) AS mean_ns FROM slices GROUP BY state ORDER BY total_ns DESC")

    @property
    def duration_ns(self):
        return self._t.duration_ns


def open(path, threads=0):  # noqa: A001 (the module's verb, like io.open)
    """Opens a trace; `threads`: workers (0: every core)."""
    return Trace(path, threads)
