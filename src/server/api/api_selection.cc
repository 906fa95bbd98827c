// The area an answer covers (from, to, rows): what an area selected in the
// viewer asks /stats and /matrix for (analysis/selection.h).
#include <string>
#include <utility>

#include "server/api/api_handlers.h"

namespace plx::server::handlers {

StatusOr<std::optional<analysis::Selection>> SelectionParams(const model::Trace& t,
                                                             const QueryParams& q) {
  if (!q.Has("from") && !q.Has("to") && !q.Has("rows")) return std::optional<analysis::Selection>();
  analysis::Selection s;
  const auto from = q.Number("from", 0, -1e18, 1e18);
  if (!from.ok()) return from.status();
  const auto to = q.Number("to", TraceTime(t, t.end_ns), -1e18, 1e18);
  if (!to.ok()) return to.status();
  if (*to < *from) return InvalidArgument("parameter 'to': must not be less than 'from'");
  s.from = ClampedModelTime(t, *from, false);
  s.to = ClampedModelTime(t, *to, false);
  const auto rows = q.IndexList("rows", UINT32_MAX - 1, false);
  if (!rows.ok()) return rows.status();
  if (!rows->empty()) {
    s.threads.assign(t.threads.size(), 0);
    for (uint32_t row : *rows) {
      if (row >= t.threads.size())
        return InvalidArgument("parameter 'rows': no row " + std::to_string(row) +
                               " (the trace has " + std::to_string(t.threads.size()) + ")");
      s.threads[row] = 1;
    }
  }
  return std::optional<analysis::Selection>(std::move(s));
}

Json SelectionJson(const model::Trace& t, const analysis::Selection& s) {
  size_t threads = 0;
  for (uint32_t i = 0; i < t.threads.size(); ++i)
    threads += s.Has(i) ? 1 : 0;
  return Json{{"from", TraceTime(t, s.from)}, {"to", TraceTime(t, s.to)}, {"rows", threads}};
}

}  // namespace plx::server::handlers
