// QueryEngine: statements are prepared one at a time from the text; an
// authorizer refuses ATTACH (which could create files) always and writes
// when read-only; a progress handler stops a statement at its deadline or
// on cancel.
#include "query/query_engine.h"

#include <sqlite3.h>

#include <chrono>

#include "query/record_tables.h"

namespace plx::query {

namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The statement's message as one line.
std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

Value ColumnValue(sqlite3_stmt* stmt, int i) {
  Value v;
  switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_INTEGER:
      v.kind = Value::kInt;
      v.i = sqlite3_column_int64(stmt, i);
      break;
    case SQLITE_FLOAT:
      v.kind = Value::kReal;
      v.d = sqlite3_column_double(stmt, i);
      break;
    case SQLITE_TEXT:
    case SQLITE_BLOB:
      v.kind = Value::kText;
      v.s.assign(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)),
                 sqlite3_column_bytes(stmt, i));
      break;
    default:
      break;
  }
  return v;
}

}  // namespace

QueryEngine::QueryEngine(const store::TraceStore& store) : context_(store) {}

QueryEngine::~QueryEngine() {
  if (db_ != nullptr) sqlite3_close(db_);
}

StatusOr<std::unique_ptr<QueryEngine>> QueryEngine::Open(const store::TraceStore& store,
                                                         Progress progress) {
  std::unique_ptr<QueryEngine> e(new QueryEngine(store));
  if (sqlite3_open_v2(":memory:", &e->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK)
    return Internal("cannot open an SQLite connection: " +
                    std::string(e->db_ ? sqlite3_errmsg(e->db_) : "out of memory"));
  sqlite3_db_config(e->db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(e->db_, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  for (auto& t : RecordTables(e->context_))
    e->tables_.push_back(std::move(t));
  for (auto& t : ResultTables(e->context_, std::move(progress)))
    e->tables_.push_back(std::move(t));
  for (auto& t : e->tables_)
    PLX_RETURN_IF_ERROR(RegisterTable(e->db_, t.get()));
  // Connected now, before the authorizer: connecting declares the table
  // with a CREATE TABLE, which a read-only authorizer would refuse. An
  // eponymous table stays connected while the connection lives.
  for (auto& t : e->tables_) {
    sqlite3_stmt* stmt = nullptr;
    const std::string sql = std::string("SELECT * FROM ") + t->spec().name;
    if (sqlite3_prepare_v2(e->db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      return Internal(std::string("cannot add table ") + t->spec().name + ": " +
                      sqlite3_errmsg(e->db_));
    sqlite3_finalize(stmt);
  }
  sqlite3_set_authorizer(e->db_, &QueryEngine::Authorize, e.get());
  sqlite3_progress_handler(e->db_, 1000, &QueryEngine::Tick, e.get());
  return e;
}

int QueryEngine::Authorize(void* self, int action, const char*, const char*, const char*,
                           const char*) {
  const auto* e = static_cast<QueryEngine*>(self);
  if (action == SQLITE_ATTACH || action == SQLITE_DETACH) return SQLITE_DENY;
  if (e->limits_ == nullptr || !e->limits_->read_only) return SQLITE_OK;
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    default:
      return SQLITE_DENY;
  }
}

int QueryEngine::Tick(void* self) {
  auto* e = static_cast<QueryEngine*>(self);
  if (e->limits_ == nullptr) return 0;
  if (e->limits_->cancel != nullptr && e->limits_->cancel->load(std::memory_order_relaxed))
    return 1;
  if (e->deadline_ns_ > 0 && NowNs() > e->deadline_ns_) {
    e->timed_out_ = true;
    return 1;
  }
  return 0;
}

bool QueryEngine::Complete(const std::string& sql) {
  return sqlite3_complete(sql.c_str()) != 0;
}

Status QueryEngine::Run(std::string_view sql, RowSink& sink, const QueryLimits& limits) {
  struct Scope {
    QueryEngine* e;
    ~Scope() { e->limits_ = nullptr; }
  } scope{this};
  limits_ = &limits;
  const char* at = sql.data();
  const char* end = sql.data() + sql.size();
  // SQLite reads a statement up to a NUL byte: one inside would end it
  // there (and the next prepare would start on it again and again).
  if (const size_t nul = sql.find('\0'); nul != std::string_view::npos)
    return InvalidArgument("query: the SQL holds a NUL byte at offset " + std::to_string(nul));
  while (at < end) {
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    timed_out_ = false;
    deadline_ns_ = limits.timeout_ms > 0 ? NowNs() + limits.timeout_ms * 1'000'000 : 0;
    if (sqlite3_prepare_v2(db_, at, static_cast<int>(end - at), &stmt, &tail) != SQLITE_OK) {
      const std::string message = sqlite3_errmsg(db_);
      if (message == "not authorized")
        return InvalidArgument(limits.read_only
                                   ? "query: only statements that read are allowed here"
                                   : "query: ATTACH and DETACH are not allowed");
      return InvalidArgument("query: " + OneLine(message));
    }
    if (tail == nullptr || tail <= at) tail = end;  // nothing more SQLite would read
    at = tail;
    if (stmt == nullptr) continue;  // whitespace or a comment
    const int n = sqlite3_column_count(stmt);
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i)
      names.push_back(sqlite3_column_name(stmt, i));
    if (n > 0) {
      std::vector<std::string> origins;
      for (int i = 0; i < n; ++i) {
        const char* table = sqlite3_column_table_name(stmt, i);
        const char* column = sqlite3_column_origin_name(stmt, i);
        origins.push_back(table && column ? std::string(table) + "." + column : "");
      }
      sink.Origins(origins);
      sink.Begin(names);
    }
    std::vector<Value> row(n);
    uint64_t rows = 0;
    bool truncated = false;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (limits.max_rows > 0 && rows == limits.max_rows) {
        truncated = true;
        break;
      }
      for (int i = 0; i < n; ++i)
        row[i] = ColumnValue(stmt, i);
      sink.Row(row);
      ++rows;
    }
    if (!truncated && rc != SQLITE_DONE) {
      std::string message = OneLine(sqlite3_errmsg(db_));
      sqlite3_finalize(stmt);
      if (rc == SQLITE_INTERRUPT)
        message =
            timed_out_ ? "stopped after " + std::to_string(limits.timeout_ms) + " ms" : "cancelled";
      return InvalidArgument("query: " + message);
    }
    sqlite3_finalize(stmt);
    if (n > 0) sink.End(truncated);
  }
  return Status::Ok();
}

}  // namespace plx::query
