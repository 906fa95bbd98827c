// The numbers `parallax diff` compares, gathered from one trace with SQL
// over its store (src/query): every statement aggregates in SQLite (GROUP BY,
// window functions; its sorter spills to disk), so only per-process and
// per-state sums come back, never the trace's rows.
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "cli/diff.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/query_output.h"
#include "cli/trace_input.h"
#include "query/query_engine.h"

namespace plx::cli::diff {

namespace {

using query::Value;
using Values = std::vector<Value>;

/// A sink that hands each row to a function.
class RowFunction : public query::RowSink {
 public:
  explicit RowFunction(std::function<void(const Values&)> f) : f_(std::move(f)) {}
  void Begin(const std::vector<std::string>&) override {}
  void Row(const std::vector<Value>& values) override { f_(values); }

 private:
  std::function<void(const Values&)> f_;
};

int64_t Int(const Value& v) {
  int64_t i = 0;
  return v.AsInt(&i) ? i : 0;
}
double Real(const Value& v) {
  return v.kind == Value::kReal ? v.d : static_cast<double>(Int(v));
}
bool IsNull(const Value& v) {
  return v.kind == Value::kNull;
}

// Per-process sums of squares are taken as REAL: an integer sum of squared
// durations passes 2^63 (SQLite's error) from about 3 s per instance.
constexpr char kProcessesSql[] = "SELECT id, rank FROM processes";
constexpr char kSpanSql[] = "SELECT min(begin), max(end) FROM threads";
// A thread's position in its process: threads match across traces by it.
constexpr char kThreadsSql[] =
    "SELECT id, process, row_number() OVER (PARTITION BY process ORDER BY id) - 1 FROM threads";
constexpr char kStatesSql[] =
    "SELECT process, state, count(*), sum(dur), sum(CAST(dur AS REAL) * dur), sum(self), "
    "sum(CAST(self AS REAL) * self) FROM slices GROUP BY process, state";
// The gaps between consecutive outermost slices of a thread: time the
// program spent outside every traced state (its own computation, mostly).
constexpr char kGapsSql[] =
    "WITH g AS (SELECT thread, begin - lag(end) OVER (PARTITION BY thread ORDER BY begin, id) "
    "AS gap FROM slices WHERE depth = 0) "
    "SELECT thread, count(gap), sum(max(gap, 0)), sum(CAST(max(gap, 0) AS REAL) * max(gap, 0)) "
    "FROM g WHERE gap IS NOT NULL GROUP BY thread";
constexpr char kCallsitesSql[] =
    "SELECT state, callsite, count(*), sum(dur), sum(CAST(dur AS REAL) * dur) FROM slices "
    "WHERE callsite IS NOT NULL GROUP BY state, callsite";
constexpr char kMessagesSql[] =
    "SELECT sender, receiver, count(*), sum(bytes) FROM messages "
    "WHERE sender IS NOT NULL AND receiver IS NOT NULL GROUP BY sender, receiver";
constexpr char kWaitsSql[] =
    "SELECT process, kind, count(*), sum(dur), sum(CAST(dur AS REAL) * dur) FROM wait_states "
    "GROUP BY process, kind";
constexpr char kCriticalPathSql[] = "SELECT process, sum(dur) FROM critical_path GROUP BY process";

/// Gathers into `out` with one engine; process numbers become keys.
class Gatherer {
 public:
  Gatherer(query::QueryEngine& engine, TraceNumbers& out) : engine_(engine), out_(out) {}

  Status Run() {
    PLX_RETURN_IF_ERROR(Processes());
    PLX_RETURN_IF_ERROR(Query(kSpanSql, [&](const Values& r) {
      out_.begin_ns = Int(r[0]);
      out_.end_ns = Int(r[1]);
    }));
    PLX_RETURN_IF_ERROR(Threads());
    PLX_RETURN_IF_ERROR(States());
    PLX_RETURN_IF_ERROR(Gaps());
    PLX_RETURN_IF_ERROR(Callsites());
    PLX_RETURN_IF_ERROR(Messages());
    // The analyses need MPI records; a trace without them has empty tables.
    PLX_RETURN_IF_ERROR(Waits());
    PLX_RETURN_IF_ERROR(CriticalPath());
    Imbalance();
    return Status::Ok();
  }

 private:
  Status Query(const char* sql, std::function<void(const Values&)> f) {
    RowFunction sink(std::move(f));
    return engine_.Run(sql, sink);
  }

  Status Processes() {
    std::vector<std::pair<int64_t, std::optional<int64_t>>> procs;
    PLX_RETURN_IF_ERROR(Query(kProcessesSql, [&](const Values& r) {
      procs.emplace_back(Int(r[0]), IsNull(r[1]) ? std::nullopt : std::optional(Int(r[1])));
    }));
    out_.mpi = !procs.empty() && std::all_of(procs.begin(), procs.end(),
                                             [](const auto& p) { return p.second.has_value(); });
    for (const auto& [id, rank] : procs) {
      key_[id] = out_.mpi ? *rank : id;
      out_.procs.insert(key_[id]);
    }
    return Status::Ok();
  }

  int64_t Key(const Value& process) const {
    auto it = key_.find(Int(process));
    return it == key_.end() ? Int(process) : it->second;
  }

  Status Threads() {
    return Query(kThreadsSql, [&](const Values& r) {
      const std::pair<int64_t, int64_t> t{Key(r[1]), Int(r[2])};
      thread_[Int(r[0])] = t;
      out_.threads.insert(t);
    });
  }

  Status States() {
    return Query(kStatesSql, [&](const Values& r) {
      const int64_t proc = Key(r[0]);
      const std::string state = r[1].s;
      out_.states.insert(state);
      const Measure m{Int(r[2]), Real(r[3]), Real(r[4])};
      out_.rows[{Kind::kState, proc, -1, -1, state, ""}] = m;
      // Self time is its own row only where it differs: nested states.
      const double self = Real(r[5]);
      if (self != m.total)
        out_.rows[{Kind::kSelf, proc, -1, -1, state, ""}] = {m.count, self, Real(r[6])};
    });
  }

  Status Gaps() {
    return Query(kGapsSql, [&](const Values& r) {
      auto it = thread_.find(Int(r[0]));
      if (it == thread_.end()) return;
      out_.rows[{Kind::kOutside, it->second.first, -1, it->second.second, kOutsideName, ""}] = {
          Int(r[1]), Real(r[2]), Real(r[3])};
    });
  }

  Status Callsites() {
    return Query(kCallsitesSql, [&](const Values& r) {
      out_.rows[{Kind::kCallsite, -1, -1, -1, r[0].s, r[1].s}] = {Int(r[2]), Real(r[3]),
                                                                  Real(r[4])};
    });
  }

  Status Messages() {
    return Query(kMessagesSql, [&](const Values& r) {
      const int64_t from = Key(r[0]), to = Key(r[1]);
      const int64_t n = Int(r[2]);
      out_.rows[{Kind::kMessages, from, to, -1, "", ""}] = {n, static_cast<double>(n), 0, false};
      out_.rows[{Kind::kBytes, from, to, -1, "", ""}] = {n, Real(r[3]), 0, false};
    });
  }

  Status Waits() {
    return Query(kWaitsSql, [&](const Values& r) {
      out_.rows[{Kind::kWaits, Key(r[0]), -1, -1, r[1].s, ""}] = {Int(r[2]), Real(r[3]),
                                                                  Real(r[4])};
    });
  }

  Status CriticalPath() {
    return Query(kCriticalPathSql, [&](const Values& r) {
      out_.rows[{Kind::kCriticalPath, Key(r[0]), -1, -1, "", ""}] = {0, Real(r[1]), 0, false};
    });
  }

  // From the per-process state rows: the time the most loaded process spends
  // in a state beyond the mean over all processes (those without it count 0).
  void Imbalance() {
    if (out_.procs.size() < 2) return;
    std::map<std::string, std::pair<double, double>> sum_max;
    for (const auto& [e, m] : out_.rows) {
      if (e.kind != Kind::kState) continue;
      auto& [sum, max] = sum_max[e.name];
      sum += m.total;
      max = std::max(max, m.total);
    }
    const double n = static_cast<double>(out_.procs.size());
    for (const auto& [state, s] : sum_max)
      out_.rows[{Kind::kImbalance, -1, -1, -1, state, ""}] = {0, s.second - s.first / n, 0, false};
  }

  query::QueryEngine& engine_;
  TraceNumbers& out_;
  std::map<int64_t, int64_t> key_;                         // process id -> key
  std::map<int64_t, std::pair<int64_t, int64_t>> thread_;  // thread id -> (key, position)
};

}  // namespace

StatusOr<TraceNumbers> Gather(const std::string& path, const GlobalOptions& global) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(path, global));
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
  PipelineProgress progress(global.progress);
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<query::QueryEngine> engine,
                       OpenQueryEngine(*store, progress));
  TraceNumbers out;
  out.path = path;
  Status s = Gatherer(*engine, out).Run();
  if (!s.ok()) return s.WithContext(path);
  return out;
}

}  // namespace plx::cli::diff
