// GET /stats: per-state statistics of the whole trace, a process or a
// thread, and for a live trace what its history window dropped; with from,
// to or rows, of that window and those rows only (an area selected in the
// viewer), made for the request.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/api/api_handlers.h"
#include "server/timeline/store_timeline.h"

namespace plx::server::handlers {
namespace {

Json StatsRowJson(const model::Trace& t, const analysis::StateStats& s, bool with_callsite) {
  Json row{{"state", s.state},
           {"name", t.states[s.state].name},
           {"callsite", with_callsite ? CallsiteJson(t, s.callsite) : Json(nullptr)},
           {"count", s.count},
           {"total", s.total_ns},
           {"self", s.self_ns},
           {"mean", s.mean_ns},
           {"min", s.min_ns},
           {"max", s.max_ns},
           {"stddev", s.stddev_ns},
           {"share", s.share}};
  return row;
}

// StatsResult.dropped: by total descending, then name.
Json DroppedJson(const live::WindowDropped& d) {
  std::vector<std::pair<std::string, live::WindowDropped::State>> states(d.states.begin(),
                                                                         d.states.end());
  std::stable_sort(states.begin(), states.end(), [](const auto& a, const auto& b) {
    return a.second.total_ns > b.second.total_ns;
  });
  Json list = Json::array();
  for (const auto& [name, s] : states)
    list.push_back(Json{{"name", name}, {"count", s.count}, {"total", s.total_ns}});
  return Json{{"records", d.records},
              {"sends", d.sends},
              {"receives", d.receives},
              {"bytes_sent", d.bytes_sent},
              {"states", std::move(list)}};
}

}  // namespace

ApiResponse Stats(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto process = q.Integer("process", -1, -1, static_cast<int64_t>(t.processes.size()) - 1);
  if (!process.ok()) return StatusResponse(process.status());
  const auto thread = q.Integer("thread", -1, -1, static_cast<int64_t>(t.threads.size()) - 1);
  if (!thread.ok()) return StatusResponse(thread.status());
  const auto callsites = q.Bool("callsites", false);
  if (!callsites.ok()) return StatusResponse(callsites.status());
  if (*process >= 0 && *thread >= 0)
    return ErrorResponse(400, "parameters 'process' and 'thread': give at most one");
  if (*callsites && (*process >= 0 || *thread >= 0))
    return ErrorResponse(400, "parameter 'callsites': only for the whole trace");
  const auto selection = SelectionParams(t, q);
  if (!selection.ok()) return StatusResponse(selection.status());
  std::optional<store::StreamedStateStats> selected;
  if (*selection) selected = served.SelectionStats(**selection, *callsites);
  const analysis::StateStatsReport& report = selected ? selected->report : served.stats();
  const analysis::StateStatsScope* scope = &report.all;
  std::string name = "all";
  if (*process >= 0) {
    scope = &report.processes[static_cast<size_t>(*process)];
    name = "process " + std::to_string(*process);
  } else if (*thread >= 0) {
    scope = &report.threads[static_cast<size_t>(*thread)];
    name = "thread " + std::to_string(*thread);
  }
  std::vector<analysis::StateStats> rows = !*callsites ? scope->states
                                           : selected  ? selected->callsites
                                                       : served.callsite_stats();
  analysis::SortStateStats(t, analysis::StateOrder::kTotal, &rows);
  Json list = Json::array();
  for (const auto& row : rows)
    list.push_back(StatsRowJson(t, row, *callsites));
  const live::WindowDropped* d = name == "all" && !selected ? served.dropped() : nullptr;
  return JsonResponse(
      Json{{"scope", name},
           {"thread_time", scope->thread_time_ns},
           {"rows", std::move(list)},
           {"dropped", d != nullptr ? DroppedJson(*d) : Json(nullptr)},
           {"selection", *selection ? SelectionJson(t, **selection) : Json(nullptr)}});
}

}  // namespace plx::server::handlers
