// GET /series: per row (thread, or process) and per time bucket, the time
// spent in a set of states (names, name prefixes ending in '*', or a
// category): the source of the viewer's derived series ("time in MPI per
// rank over time"). Each bucket is a selection [edge b, edge b+1] of the
// window (integer ns edges) given to the statistics engine /stats uses with
// from, to and rows, so a row's buckets add up exactly to what /stats
// answers for that row over the window: self (exclusive) time by default,
// inclusive (total) time with time=inclusive. One statistics pass per
// bucket (over the model, or over the chunks of the rows from the file).
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/state_stats.h"
#include "server/api/api_handlers.h"
#include "server/timeline/store_timeline.h"

namespace plx::server::handlers {
namespace {

constexpr int64_t kMaxSeriesBuckets = 1024;

// The states `states` (comma separated names, 'prefix*' patterns) or
// `category` names, as a mask by state index; InvalidArgument when neither
// or both are given, or a name matches nothing.
StatusOr<std::vector<uint8_t>> StateMask(const model::Trace& t, const QueryParams& q) {
  const auto states = q.Get("states");
  const auto category = q.Get("category");
  if (states.has_value() == category.has_value())
    return InvalidArgument("parameters 'states' and 'category': give exactly one");
  std::vector<uint8_t> mask(t.states.size(), 0);
  if (category) {
    bool found = false;
    for (size_t i = 0; i < t.states.size(); ++i) {
      const uint32_t c = t.states[i].category;
      if (c < t.categories.size() && t.categories[c].name == *category) mask[i] = 1, found = true;
    }
    if (!found)
      return InvalidArgument("parameter 'category': no state of category '" +
                             std::string(*category) + "'");
    return mask;
  }
  std::string_view rest = *states;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view name = rest.substr(0, comma);
    if (name.empty()) return InvalidArgument("parameter 'states': an empty state name");
    const bool prefix = name.back() == '*';
    const std::string_view stem = prefix ? name.substr(0, name.size() - 1) : name;
    bool found = false;
    for (size_t i = 0; i < t.states.size(); ++i) {
      const std::string_view s = t.states[i].name;
      if (prefix ? s.substr(0, stem.size()) == stem : s == stem) mask[i] = 1, found = true;
    }
    if (!found)
      return InvalidArgument("parameter 'states': no state matches '" + std::string(name) + "'");
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return mask;
}

}  // namespace

ApiResponse Series(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto mask = StateMask(t, q);
  if (!mask.ok()) return StatusResponse(mask.status());
  const auto from = q.Number("from", 0, -1e18, 1e18);
  if (!from.ok()) return StatusResponse(from.status());
  const auto to = q.Number("to", std::max(TraceTime(t, t.end_ns), 1.0), -1e18, 1e18);
  if (!to.ok()) return StatusResponse(to.status());
  if (*to <= *from) return ErrorResponse(400, "parameter 'to': must be greater than 'from'");
  const auto buckets = q.Integer("buckets", 100, 1, kMaxSeriesBuckets);
  if (!buckets.ok()) return StatusResponse(buckets.status());
  const auto unit = q.Choice("unit", "thread", {"thread", "process"});
  if (!unit.ok()) return StatusResponse(unit.status());
  const auto time = q.Choice("time", "self", {"self", "inclusive"});
  if (!time.ok()) return StatusResponse(time.status());
  const auto rows = q.IndexList("rows", UINT32_MAX - 1, false);
  if (!rows.ok()) return StatusResponse(rows.status());
  std::vector<uint8_t> chosen(t.threads.size(), rows->empty() ? 1 : 0);
  for (uint32_t row : *rows) {
    if (row >= t.threads.size())
      return ErrorResponse(400, "parameter 'rows': no row " + std::to_string(row) +
                                    " (the trace has " + std::to_string(t.threads.size()) + ")");
    chosen[row] = 1;
  }
  // The window as /stats takes it; integer edges that split it exactly.
  const int64_t begin = ClampedModelTime(t, *from, false), end = ClampedModelTime(t, *to, false);
  const int64_t n = *buckets, span = end - begin, whole = span / n, part = span % n;
  std::vector<int64_t> edges;
  for (int64_t b = 0; b <= n; ++b)
    edges.push_back(begin + whole * b + part * b / n);

  // The answer's rows: the chosen threads, or their processes.
  const bool processes = *unit == "process";
  std::vector<uint32_t> out_rows;
  std::vector<int64_t> slot(processes ? t.processes.size() : t.threads.size(), -1);
  for (uint32_t th = 0; th < t.threads.size(); ++th) {
    if (!chosen[th]) continue;
    const uint32_t r = processes ? t.threads[th].process : th;
    if (r >= slot.size() || slot[r] >= 0) continue;
    slot[r] = static_cast<int64_t>(out_rows.size());
    out_rows.push_back(r);
  }
  std::vector<std::vector<int64_t>> values(out_rows.size(),
                                           std::vector<int64_t>(static_cast<size_t>(n), 0));
  const bool inclusive = *time == "inclusive";
  for (int64_t b = 0; b < n; ++b) {
    analysis::Selection s;
    s.from = edges[static_cast<size_t>(b)];
    s.to = edges[static_cast<size_t>(b) + 1];
    s.threads = chosen;
    const analysis::StateStatsReport report = served.SelectionStats(s, false).report;
    for (uint32_t th = 0; th < report.threads.size() && th < t.threads.size(); ++th) {
      if (!chosen[th]) continue;
      const uint32_t r = processes ? t.threads[th].process : th;
      if (r >= slot.size() || slot[r] < 0) continue;
      int64_t& cell = values[static_cast<size_t>(slot[r])][static_cast<size_t>(b)];
      for (const analysis::StateStats& st : report.threads[th].states)
        if (st.state < mask->size() && (*mask)[st.state] != 0)
          cell += inclusive ? st.total_ns : st.self_ns;
    }
  }

  Json states = Json::array(), labels = Json::array(), trace_edges = Json::array();
  for (size_t i = 0; i < mask->size(); ++i)
    if ((*mask)[i] != 0) states.push_back(t.states[i].name);
  for (uint32_t r : out_rows)
    labels.push_back(processes ? ProcessLabel(t.processes[r]) : RowLabel(t, r));
  for (int64_t e : edges)
    trace_edges.push_back(TraceTime(t, e));
  return JsonResponse(Json{{"from", TraceTime(t, begin)},
                           {"to", TraceTime(t, end)},
                           {"buckets", n},
                           {"unit", *unit},
                           {"time", *time},
                           {"states", std::move(states)},
                           {"edges", std::move(trace_edges)},
                           {"rows", out_rows},
                           {"labels", std::move(labels)},
                           {"values", values}});
}

}  // namespace plx::server::handlers
