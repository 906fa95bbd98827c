// /query and /query-cancel: SQL over the trace's tables (TraceQueries), the
// last statement's rows as JSON with the columns that hold slice ids.
#include <chrono>
#include <string>
#include <vector>

#include "server/api/api_handlers.h"
#include "server/api/trace_queries.h"

namespace plx::server::handlers {

namespace {

// The last statement's columns and rows, at most `limit` of them.
class JsonRows : public query::RowSink {
 public:
  void Origins(const std::vector<std::string>& origins) override {
    slice_columns = Json::array();
    for (size_t i = 0; i < origins.size(); ++i) {
      const std::string& o = origins[i];
      if (o == "slices.id" || o == "wait_states.slice" || o == "anomalies.slice" ||
          o == "messages.send_slice" || o == "messages.recv_slice")
        slice_columns.push_back(i);
    }
  }
  void Begin(const std::vector<std::string>& names) override {
    columns = names;
    rows = Json::array();
  }
  void Row(const std::vector<query::Value>& values) override {
    Json row = Json::array();
    for (const query::Value& v : values) {
      switch (v.kind) {
        case query::Value::kInt:
          row.push_back(v.i);
          break;
        case query::Value::kReal:
          row.push_back(v.d);
          break;
        case query::Value::kText:
          row.push_back(v.s);
          break;
        default:
          row.push_back(nullptr);
      }
    }
    rows.push_back(std::move(row));
  }
  void End(bool cut) override { truncated = cut; }

  std::vector<std::string> columns;
  Json rows = Json::array();
  Json slice_columns = Json::array();
  bool truncated = false;
};

}  // namespace

ApiResponse Query(ServedTrace& served, const QueryParams& q) {
  const auto sql = q.RequiredString("sql");
  if (!sql.ok()) return StatusResponse(sql.status());
  const auto limit = q.Integer("limit", 1000, 1, 100000);
  if (!limit.ok()) return StatusResponse(limit.status());
  const auto timeout = q.Integer("timeout_ms", 10000, 1, 60000);
  if (!timeout.ok()) return StatusResponse(timeout.status());
  TraceQueries* queries = served.queries();
  if (queries == nullptr)
    return ErrorResponse(501, "trace '" + served.id() + "' has no file to query (a live trace)");
  query::QueryLimits limits;
  limits.max_rows = static_cast<uint64_t>(*limit);
  limits.timeout_ms = *timeout;
  JsonRows sink;
  const auto begin = std::chrono::steady_clock::now();
  const Status status = queries->Run(*sql, q.String("id", ""), limits, sink);
  if (!status.ok()) return ErrorResponse(400, status.message());
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  return JsonResponse(Json{{"columns", sink.columns},
                           {"rows", std::move(sink.rows)},
                           {"slice_columns", std::move(sink.slice_columns)},
                           {"truncated", sink.truncated},
                           {"elapsed_ms", ms}});
}

ApiResponse QueryCancel(ServedTrace& served, const QueryParams& q) {
  const auto id = q.RequiredString("id");
  if (!id.ok()) return StatusResponse(id.status());
  TraceQueries* queries = served.queries();
  return JsonResponse(Json{{"cancelled", queries != nullptr && queries->Cancel(*id)}});
}

}  // namespace plx::server::handlers
