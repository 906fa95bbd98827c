// /waits-window (/waits, in api_analysis.cc, answers for the whole run): the
// waits that overlap a time window on some rows, for the timeline's waits
// overlay, and how much of the window each row spent waiting, compared over
// the rows with analysis::SummarizeUnits (the imbalance analysis' measures).
#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/imbalance.h"
#include "analysis/wait_states.h"
#include "server/api/api_handlers.h"

namespace plx::server::handlers {

ApiResponse WaitsWindow(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto area = SelectionParams(t, q);  // none: the whole trace
  if (!area.ok()) return StatusResponse(area.status());
  const auto limit = q.Limit("limit", 1000);
  if (!limit.ok()) return StatusResponse(limit.status());
  analysis::Selection whole;
  whole.from = t.begin_ns;
  whole.to = t.end_ns;
  const analysis::Selection s = area->value_or(whole);
  const size_t spans = static_cast<size_t>(*limit);
  const analysis::WaitStatesReport& w = served.waits();
  // Every row's wait in the window (the comparison needs the rows not asked
  // for too), and the waits on the rows asked for.
  analysis::ImbalanceRow waiting;
  waiting.time_ns.assign(t.threads.size(), 0);
  std::vector<const analysis::WaitInstance*> in;
  for (const analysis::WaitInstance& wi : w.instances) {
    if (wi.thread >= t.threads.size() || wi.begin_ns > s.to || wi.end_ns() < s.from) continue;
    waiting.time_ns[wi.thread] += s.Clip(wi.begin_ns, wi.end_ns());
    if (s.Has(wi.thread)) in.push_back(&wi);
  }
  // Compared over the rows that wait somewhere in the run: the MPI ranks'
  // threads, not helper threads that never enter MPI.
  std::vector<bool> present(t.threads.size(), false);
  for (size_t i = 0; i < t.threads.size() && i < w.threads.size(); ++i)
    present[i] = w.threads[i].count > 0;
  analysis::SummarizeUnits(waiting, present);

  const size_t keep = std::min(spans, in.size());
  std::partial_sort(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(keep), in.end(),
                    [](auto* a, auto* b) { return analysis::LongerWait(*a, *b); });
  const SliceRefs refs(served);
  Json list = Json::array();
  for (size_t i = 0; i < keep; ++i) {
    const analysis::WaitInstance& wi = *in[i];
    list.push_back(Json{
        {"row", wi.thread},
        {"kind", analysis::WaitKindName(wi.kind)},
        {"begin", TraceTime(t, wi.begin_ns)},
        {"end", TraceTime(t, wi.end_ns())},
        {"slice", refs.Ref(wi.slice)},
        {"cause_row", wi.cause_thread < t.threads.size() ? static_cast<int64_t>(wi.cause_thread)
                                                         : int64_t{-1}}});
  }
  Json rows = Json::array();
  for (uint32_t r = 0; r < t.threads.size(); ++r) {
    if (!s.Has(r)) continue;
    const int64_t run = r < w.threads.size() ? w.threads[r].total_ns() : 0;
    rows.push_back(Json{{"row", r}, {"wait", waiting.time_ns[r]}, {"run_wait", run}});
  }
  const auto row_or_none = [&](uint32_t unit) {
    return waiting.units > 0 ? static_cast<int64_t>(unit) : int64_t{-1};
  };
  Json out = SelectionJson(t, s);
  out["waits"] = std::move(list);
  out["matched"] = in.size();
  out["complete"] = w.instances.size() == w.all.count;
  out["rows_waiting"] = std::move(rows);
  out["imbalance"] = Json{{"units", waiting.units},
                          {"max", waiting.max_ns},
                          {"min", waiting.min_ns},
                          {"mean", std::llround(waiting.mean_ns)},
                          {"max_row", row_or_none(waiting.max_unit)},
                          {"min_row", row_or_none(waiting.min_unit)},
                          {"imbalance", waiting.imbalance},
                          {"percent", waiting.percent}};
  return JsonResponse(out);
}

}  // namespace plx::server::handlers
