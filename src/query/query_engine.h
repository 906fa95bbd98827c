// QueryEngine: SQL over one trace. Every table of schema.h is an SQLite
// virtual table reading the trace store (the file is the store: a scan
// decodes the chunks it needs, and the analyses run the first time a
// statement reads their table), in an in-memory SQLite connection that
// holds no copy of the trace.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "query/result_tables.h"
#include "query/trace_context.h"
#include "query/vtab.h"
#include "store/trace_store.h"

struct sqlite3;

namespace plx::query {

struct QueryLimits {
  /// Only statements that read (SELECT, WITH, EXPLAIN, ...): what the
  /// server allows. Off in the command's own shell (temporary tables).
  bool read_only = true;
  uint64_t max_rows = 0;                      // rows per statement at most (0: no limit)
  int64_t timeout_ms = 0;                     // a statement stops after this long (0: never)
  const std::atomic<bool>* cancel = nullptr;  // set: the statement stops
};

/// Where the results of a run go, statement by statement.
class RowSink {
 public:
  virtual ~RowSink() = default;
  /// Before Begin: where each column comes from, "table.column" (as
  /// `slices.id`), or "" for an expression.
  virtual void Origins(const std::vector<std::string>& origins) {}
  /// A statement that returns rows begins: its column names.
  virtual void Begin(const std::vector<std::string>& columns) = 0;
  virtual void Row(const std::vector<Value>& values) = 0;
  /// The statement ended; `truncated`: at QueryLimits::max_rows.
  virtual void End(bool truncated) {}
};

class QueryEngine {
 public:
  /// The store must outlive the engine.
  static StatusOr<std::unique_ptr<QueryEngine>> Open(const store::TraceStore& store,
                                                     Progress progress = {});
  ~QueryEngine();
  QueryEngine(const QueryEngine&) = delete;
  QueryEngine& operator=(const QueryEngine&) = delete;

  /// Runs every statement of `sql` in turn, each result into `sink`. An
  /// error (bad SQL, an unknown table or column, a write when read_only,
  /// the time limit, a cancel) is one line; the statements before it ran.
  Status Run(std::string_view sql, RowSink& sink, const QueryLimits& limits = {});

  /// Chunks decoded by the scans so far.
  uint64_t chunks_decoded() const { return context_.chunks_decoded.load(); }

  /// Whether `sql` ends with a whole statement (a shell reads on until it does).
  static bool Complete(const std::string& sql);

 private:
  explicit QueryEngine(const store::TraceStore& store);
  static int Authorize(void* self, int action, const char*, const char*, const char*, const char*);
  static int Tick(void* self);

  sqlite3* db_ = nullptr;
  TraceContext context_;
  std::vector<std::unique_ptr<VirtualTable>> tables_;
  const QueryLimits* limits_ = nullptr;  // of the statement running
  int64_t deadline_ns_ = 0;
  bool timed_out_ = false;
};

}  // namespace plx::query
