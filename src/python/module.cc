// The `parallax` Python module: a trace opened as the trace store (the
// file is the store; nothing is loaded whole) and SQL over its tables
// (src/query), results as numpy arrays, one copy out of SQLite. The pandas
// side (DataFrames) is Python, in parallax/__init__.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/thread_pool.h"
#include "format/trace_file.h"
#include "query/query_engine.h"
#include "query/schema.h"
#include "store/trace_store.h"

namespace py = pybind11;

namespace plx::python {

namespace {

// Every value of every column of one statement's rows.
class Columns : public query::RowSink {
 public:
  void Begin(const std::vector<std::string>& columns) override {
    names = columns;
    values.assign(columns.size(), {});
  }
  void Row(const std::vector<query::Value>& row) override {
    for (size_t i = 0; i < row.size(); ++i)
      values[i].push_back(row[i]);
  }
  std::vector<std::string> names;
  std::vector<std::vector<query::Value>> values;
};

// A column as numpy: int64 when every value is an integer; float64 when
// they are numbers, or integers with NULLs (NaN); else objects (str, int,
// float, None).
py::object ToArray(const std::vector<query::Value>& v) {
  bool ints = true, numbers = true, nulls = false;
  for (const query::Value& x : v) {
    if (x.kind == query::Value::kNull) nulls = true;
    if (x.kind == query::Value::kText) ints = numbers = false;
    if (x.kind == query::Value::kReal) ints = false;
  }
  if (ints && !nulls) {
    py::array_t<int64_t> a(static_cast<py::ssize_t>(v.size()));
    auto* out = a.mutable_data();
    for (size_t i = 0; i < v.size(); ++i)
      out[i] = v[i].i;
    return a;
  }
  if (numbers) {
    py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
    auto* out = a.mutable_data();
    for (size_t i = 0; i < v.size(); ++i)
      out[i] = v[i].kind == query::Value::kNull  ? std::numeric_limits<double>::quiet_NaN()
               : v[i].kind == query::Value::kInt ? static_cast<double>(v[i].i)
                                                 : v[i].d;
    return a;
  }
  py::list items(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    switch (v[i].kind) {
      case query::Value::kInt:
        items[i] = py::int_(v[i].i);
        break;
      case query::Value::kReal:
        items[i] = py::float_(v[i].d);
        break;
      case query::Value::kText:
        items[i] = py::str(v[i].s);
        break;
      default:
        items[i] = py::none();
    }
  }
  return py::module_::import("numpy").attr("array")(items, py::arg("dtype") = "object");
}

[[noreturn]] void Raise(const Status& s) {
  throw std::runtime_error(s.message());
}

}  // namespace

// An open trace: the file, its store and a query engine over it.
class Trace {
 public:
  Trace(const std::string& path, size_t threads) : pool_(threads) {
    auto file = format::TraceFile::Open(path);
    if (!file.ok()) Raise(file.status());  // it names the file
    file_ = std::move(*file);
    store::StoreOptions options;
    options.pool = &pool_;
    auto s = store::TraceStore::Open(*file_, options);
    if (!s.ok()) Raise(s.status().WithContext(path));
    store_ = std::move(*s);
    auto e = query::QueryEngine::Open(*store_);
    if (!e.ok()) Raise(e.status());
    engine_ = std::move(*e);
  }

  // {column: numpy array} of the last statement of `sql` that returns rows.
  py::dict Query(const std::string& sql, int64_t timeout_ms) {
    Columns sink;
    query::QueryLimits limits;
    limits.timeout_ms = timeout_ms;
    Status status;
    {
      // Other Python threads run meanwhile; queries of one trace, one at a time.
      py::gil_scoped_release unlocked;
      std::lock_guard<std::mutex> one(run_mu_);
      status = engine_->Run(sql, sink, limits);
    }
    if (!status.ok()) Raise(status);
    py::dict out;
    for (size_t i = 0; i < sink.names.size(); ++i)
      out[py::str(sink.names[i])] = ToArray(sink.values[i]);
    return out;
  }

  std::vector<std::string> Tables() const {
    std::vector<std::string> names;
    for (const query::TableSpec& t : query::Tables())
      names.emplace_back(t.name);
    return names;
  }

  const model::Trace& model() const { return store_->trace(); }

 private:
  ThreadPool pool_;
  std::unique_ptr<format::TraceFile> file_;
  std::unique_ptr<store::TraceStore> store_;
  std::unique_ptr<query::QueryEngine> engine_;
  std::mutex run_mu_;
};

}  // namespace plx::python

PYBIND11_MODULE(_parallax, m) {
  using plx::python::Trace;
  m.doc() = "Parallax traces from Python: SQL over a trace's tables (docs/python.md)";
  py::class_<Trace>(m, "Trace")
      .def(py::init<const std::string&, size_t>(), py::arg("path"), py::arg("threads") = 0)
      .def("query", &Trace::Query, py::arg("sql"), py::arg("timeout_ms") = 0,
           "Runs SQL; the rows of its last statement as {column: numpy array}")
      .def("tables", &Trace::Tables, "The tables SQL can read")
      .def_property_readonly("processes", [](const Trace& t) { return t.model().processes.size(); })
      .def_property_readonly("threads", [](const Trace& t) { return t.model().threads.size(); })
      .def_property_readonly("duration_ns",
                             [](const Trace& t) { return t.model().end_ns - t.model().begin_ns; });
}
