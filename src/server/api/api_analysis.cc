// The analysis endpoints: histograms, anomalies, the mountain range,
// matrices, the critical path and the diagnostics panel (statistics:
// api_stats.cc).
#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/concurrency_profile.h"
#include "analysis/finding_severity.h"
#include "analysis/histogram.h"
#include "base/strings.h"
#include "server/api/api_handlers.h"

namespace plx::server::handlers {
namespace {

// The most processes /matrix answers for: its cells are sent densely, and
// 2048^2 cells three times over are already ~100 MB of JSON.
constexpr size_t kMaxMatrixProcesses = 2048;

Json AnomalyRefJson(const SliceRefs& refs, const analysis::Anomaly& a) {
  return Json{{"slice", refs.Ref(a.slice)}, {"duration", a.duration_ns},
              {"median", a.median_ns},      {"limit", a.limit_ns},
              {"score", a.score},           {"method", analysis::AnomalyMethodName(a.method)}};
}

StatusOr<analysis::AnomalyOptions> AnomalyOptionsOf(const QueryParams& q) {
  analysis::AnomalyOptions options;
  PLX_ASSIGN_OR_RETURN(const std::string method,
                       q.Choice("method", "robust", {"robust", "percentile"}));
  PLX_ASSIGN_OR_RETURN(options.percentile, q.Number("percentile", 99, 1e-9, 100 - 1e-9));
  options.method =
      method == "robust" ? analysis::AnomalyMethod::kRobust : analysis::AnomalyMethod::kPercentile;
  return options;
}

std::string RankOrRow(const model::Trace& t, uint32_t thread) {
  const model::Thread& th = t.threads[thread];
  const model::Process& p = t.processes[th.process];
  const bool single =
      std::count_if(t.threads.begin(), t.threads.end(),
                    [&](const model::Thread& o) { return o.process == th.process; }) == 1;
  return single ? ProcessLabel(p) : RowLabel(t, thread);
}

std::string StateName(const model::Trace& t, uint32_t state) {
  return state < t.states.size() ? t.states[state].name : "?";
}

// `cost_ns`: the time the finding lost (what the panel ranks by), 0 when it is not time.
Json FindingJson(const model::Trace& t, std::string kind, std::string severity, std::string text,
                 uint32_t thread, int64_t begin_ns, int64_t end_ns, uint32_t slice,
                 double cost_ns = 0) {
  const bool placed = thread != model::kNone;
  return Json{{"kind", std::move(kind)},
              {"severity", std::move(severity)},
              {"text", std::move(text)},
              {"cost", std::llround(cost_ns)},
              {"row", placed ? static_cast<int64_t>(thread) : -1},
              {"begin", placed ? TraceTime(t, begin_ns) : 0.0},
              {"end", placed ? TraceTime(t, end_ns) : 0.0},
              {"slice", slice == model::kNone ? int64_t{-1} : static_cast<int64_t>(slice)}};
}

std::string RankList(const std::vector<int64_t>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size(); ++i)
    out += (i ? ", " : "") + std::to_string(ranks[i]);
  return out;
}

std::string WaitText(const model::Trace& t, const SliceRefs& refs,
                     const analysis::WaitInstance& w) {
  std::string cause =
      w.cause_thread < t.threads.size() ? " for " + RankOrRow(t, w.cause_thread) : "";
  const char* what = w.kind == analysis::WaitKind::kLateSender     ? "late sender"
                     : w.kind == analysis::WaitKind::kLateReceiver ? "late receiver"
                                                                   : "collective wait";
  return std::string(what) + ": " + RankOrRow(t, w.thread) + " waited " +
         FormatDuration(w.wait_ns) + " in " + refs.Name(w.slice) + cause;
}

Json WaitTotalsJson(const analysis::WaitTotals& w) {
  return Json{{"late_sender", w.late_sender_ns},
              {"late_receiver", w.late_receiver_ns},
              {"collective", w.collective_ns},
              {"total", w.total_ns()},
              {"count", w.count}};
}

}  // namespace

ApiResponse Histogram(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto state = q.RequiredInteger("state", 0, static_cast<int64_t>(t.states.size()) - 1);
  if (!state.ok()) return StatusResponse(state.status());
  const auto bins = q.Integer("bins", 20, 1, 1000);
  if (!bins.ok()) return StatusResponse(bins.status());
  const auto log = q.Bool("log", false);
  if (!log.ok()) return StatusResponse(log.status());
  const auto limit = q.Limit("limit", 1000);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto options = AnomalyOptionsOf(q);
  if (!options.ok()) return StatusResponse(options.status());
  const auto area = SelectionParams(t, q);
  if (!area.ok()) return StatusResponse(area.status());
  const analysis::Selection* in = *area ? &**area : nullptr;
  analysis::HistogramOptions h;
  h.state = static_cast<uint32_t>(*state);
  h.bins = static_cast<size_t>(*bins);
  h.logarithmic = *log;
  h.area = in;
  StatusOr<analysis::Histogram> histogram = Status::Ok();
  if (served.from_store()) {
    // A pass over the file (the range is the state's statistics), or two
    // over the area's rows.
    histogram = served.store_timeline().Histogram(h.state, h.bins, h.logarithmic, in);
  } else {
    histogram = analysis::ComputeDurationHistogram(t, h);
  }
  if (!histogram.ok()) return StatusResponse(histogram.status());
  options->state = h.state;
  std::vector<analysis::Anomaly> selected;
  if (options->method == analysis::AnomalyMethod::kRobust) {
    for (const auto& a : served.anomalies())
      if (a.state == h.state) selected.push_back(a);
  } else if (served.from_store()) {
    selected = *served.store_timeline_held()->Anomalies(*options);  // two passes over the file
  } else {
    selected = analysis::FindAnomalies(t, *options);
  }
  // With an area, the anomalous slices it covers (judged against the whole trace).
  if (in != nullptr)
    std::erase_if(selected, [in](const analysis::Anomaly& a) {
      return !in->Has(a.thread) || a.begin_ns > in->to || a.begin_ns + a.duration_ns < in->from;
    });
  std::stable_sort(selected.begin(), selected.end(),
                   [](const auto& a, const auto& b) { return a.duration_ns > b.duration_ns; });
  Json selection = Json::array();
  const SliceRefs refs(served);
  for (size_t i = 0; i < selected.size() && i < static_cast<size_t>(*limit); ++i)
    selection.push_back(AnomalyRefJson(refs, selected[i]));
  return JsonResponse(Json{{"state", h.state},
                           {"edges", histogram->edges},
                           {"counts", histogram->counts},
                           {"total", histogram->total},
                           {"min", histogram->min_ns},
                           {"max", histogram->max_ns},
                           {"selection", std::move(selection)},
                           {"selected", selected.size()},
                           {"area", in != nullptr ? SelectionJson(t, *in) : Json(nullptr)}});
}

ApiResponse Anomalies(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  auto options = AnomalyOptionsOf(q);
  if (!options.ok()) return StatusResponse(options.status());
  const auto limit = q.Limit("limit", 1000);
  if (!limit.ok()) return StatusResponse(limit.status());
  std::vector<analysis::Anomaly> computed;
  const std::vector<analysis::Anomaly>* list = &served.anomalies();
  if (options->method == analysis::AnomalyMethod::kPercentile) {
    // From the file: two passes over it (the kept analyses are robust's).
    computed = served.from_store() ? *served.store_timeline_held()->Anomalies(*options)
                                   : analysis::FindAnomalies(t, *options);
    list = &computed;
  }
  Json out = Json::array();
  const SliceRefs refs(served);
  for (size_t i = 0; i < list->size() && i < static_cast<size_t>(*limit); ++i)
    out.push_back(AnomalyRefJson(refs, (*list)[i]));
  return JsonResponse(Json{{"method", analysis::AnomalyMethodName(options->method)},
                           {"anomalies", std::move(out)},
                           {"total", list->size()}});
}

ApiResponse Mountain(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const double duration = TraceTime(t, t.end_ns);
  const auto from = q.Number("from", 0, -1e18, 1e18);
  if (!from.ok()) return StatusResponse(from.status());
  const auto to = q.Number("to", std::max(duration, 1.0), -1e18, 1e18);
  if (!to.ok()) return StatusResponse(to.status());
  const auto buckets = q.Integer("buckets", 200, 1, 8192);
  if (!buckets.ok()) return StatusResponse(buckets.status());
  const auto unit = q.Choice("unit", "thread", {"thread", "process"});
  if (!unit.ok()) return StatusResponse(unit.status());
  if (*to <= *from) return ErrorResponse(400, "parameter 'to': must be greater than 'from'");
  analysis::ConcurrencyOptions options;
  options.from_ns = ModelTime(t, *from);
  options.to_ns = std::max(ModelTime(t, *to), options.from_ns + 1);
  options.buckets = static_cast<size_t>(*buckets);
  options.processes = *unit == "process";
  const auto held = served.from_store() ? served.store_timeline_held() : nullptr;
  const std::optional<StatusOr<analysis::ConcurrencyProfile>> made =
      held ? held->Mountain(options) : analysis::ComputeConcurrencyProfile(t, options);
  if (!made) {
    ApiResponse r =
        ErrorResponse(503, "trace '" + served.id() + "': /mountain waits for the statistics pass");
    r.retry_after = true;
    return r;
  }
  const StatusOr<analysis::ConcurrencyProfile>& profile = *made;
  if (!profile.ok()) return StatusResponse(profile.status());
  const std::vector<double>& values = options.processes ? profile->processes : profile->threads;
  Json rows = Json::array();
  for (size_t i = 0; i < profile->states.size(); ++i) {
    const auto first = values.begin() + static_cast<std::ptrdiff_t>(i * profile->buckets);
    rows.push_back(
        std::vector<double>(first, first + static_cast<std::ptrdiff_t>(profile->buckets)));
  }
  return JsonResponse(Json{{"from", TraceTime(t, profile->from_ns)},
                           {"to", TraceTime(t, profile->to_ns)},
                           {"buckets", profile->buckets},
                           {"unit", *unit},
                           {"states", profile->states},
                           {"values", std::move(rows)}});
}

ApiResponse Matrix(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto kind = q.Choice("kind", "messages", {"messages", "rma"});
  if (!kind.ok()) return StatusResponse(kind.status());
  const auto selection = SelectionParams(t, q);
  if (!selection.ok()) return StatusResponse(selection.status());
  if (*selection && *kind == "rma")
    return ErrorResponse(400, "parameter 'kind': rma covers the whole trace (no from, to, rows)");
  // The answer is dense: n x n cells three times over.
  if (t.processes.size() > kMaxMatrixProcesses)
    return ErrorResponse(400, "matrix: " + std::to_string(t.processes.size()) +
                                  " processes are more than this answer's dense matrix holds (" +
                                  std::to_string(kMaxMatrixProcesses) + ")");
  // An area's messages: a pass over the file, or the pairs in memory.
  std::optional<analysis::CommMatrix> area;
  if (*selection)
    area = served.from_store() ? served.store_timeline().SelectionMatrix(**selection)
                               : analysis::ComputeCommMatrix(t, served.pairs(), &**selection);
  const analysis::CommMatrix& messages = area ? *area : served.comm_matrix();
  Json labels = Json::array(), count = Json::array(), bytes = Json::array(),
       latency = Json::array();
  for (const model::Process& p : t.processes)
    labels.push_back(ProcessLabel(p));
  const size_t n = t.processes.size();
  uint64_t total_count = 0, total_bytes = 0;
  for (size_t from = 0; from < n; ++from) {
    Json c = Json::array(), b = Json::array(), l = Json::array();
    for (size_t to = 0; to < n; ++to) {
      if (*kind == "messages") {
        const analysis::CommCell& cell = messages.at(from, to);
        c.push_back(cell.count);
        b.push_back(cell.bytes);
        l.push_back(cell.mean_latency_ns);
      } else {
        const analysis::RmaCell& cell = served.rma_matrix().at(from, to);
        c.push_back(cell.count);
        b.push_back(cell.bytes);
        l.push_back(0);
      }
    }
    count.push_back(std::move(c));
    bytes.push_back(std::move(b));
    latency.push_back(std::move(l));
  }
  if (*kind == "messages") {
    total_count = messages.messages;
    total_bytes = messages.bytes;
  } else {
    total_count = served.rma_matrix().operations;
    total_bytes = served.rma_matrix().bytes;
  }
  return JsonResponse(Json{{"kind", *kind},
                           {"labels", std::move(labels)},
                           {"count", std::move(count)},
                           {"bytes", std::move(bytes)},
                           {"latency", std::move(latency)},
                           {"total_count", total_count},
                           {"total_bytes", total_bytes},
                           {"selection", area ? SelectionJson(t, **selection) : Json(nullptr)}});
}

ApiResponse Waits(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto limit_arg = q.Limit("limit", 100);
  if (!limit_arg.ok()) return StatusResponse(limit_arg.status());
  const size_t limit = static_cast<size_t>(*limit_arg);
  const analysis::WaitStatesReport& w = served.waits();
  Json processes = Json::array(), callsites = Json::array(), longest = Json::array();
  for (size_t p = 0; p < w.processes.size(); ++p)
    processes.push_back(Json{{"process", p}, {"waits", WaitTotalsJson(w.processes[p])}});
  for (size_t i = 0; i < w.callsites.size() && i < limit; ++i) {
    const analysis::CallsiteWaits& c = w.callsites[i];
    callsites.push_back(Json{{"state", c.state},
                             {"name", c.state < t.states.size() ? t.states[c.state].name : "?"},
                             {"callsite", CallsiteJson(t, c.callsite)},
                             {"waits", WaitTotalsJson(c.totals)}});
  }
  std::vector<const analysis::WaitInstance*> order;
  for (const auto& i : w.instances)
    order.push_back(&i);
  const size_t keep = std::min(limit, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                    [](auto* a, auto* b) { return analysis::LongerWait(*a, *b); });
  const SliceRefs refs(served);
  for (size_t i = 0; i < keep; ++i) {
    const analysis::WaitInstance& wi = *order[i];
    longest.push_back(Json{
        {"kind", analysis::WaitKindName(wi.kind)},
        {"slice", refs.Ref(wi.slice)},
        {"begin", TraceTime(t, wi.begin_ns)},
        {"end", TraceTime(t, wi.end_ns())},
        {"cause_row", wi.cause_thread < t.threads.size() ? static_cast<int64_t>(wi.cause_thread)
                                                         : int64_t{-1}}});
  }
  return JsonResponse(Json{{"total", WaitTotalsJson(w.all)},
                           {"processes", std::move(processes)},
                           {"callsites", std::move(callsites)},
                           {"longest", std::move(longest)}});
}

ApiResponse CriticalPathHandler(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto limit = q.Limit("limit", 100000);
  if (!limit.ok()) return StatusResponse(limit.status());
  const analysis::CriticalPath& path = served.critical_path();
  std::vector<analysis::PathSegment> segments = path.segments;
  if (segments.size() > static_cast<size_t>(*limit)) {
    std::nth_element(segments.begin(), segments.begin() + *limit, segments.end(),
                     [](const auto& a, const auto& b) { return a.length_ns() > b.length_ns(); });
    segments.resize(static_cast<size_t>(*limit));
    std::sort(segments.begin(), segments.end(),
              [](const auto& a, const auto& b) { return a.begin_ns < b.begin_ns; });
  }
  Json list = Json::array(), states = Json::array();
  for (const auto& s : segments)
    list.push_back(Json{
        {"row", s.thread}, {"begin", TraceTime(t, s.begin_ns)}, {"end", TraceTime(t, s.end_ns)}});
  for (const auto& s : path.states)
    states.push_back(Json{{"state", s.state}, {"ns", s.ns}});
  return JsonResponse(Json{{"length", path.length_ns},
                           {"segments", std::move(list)},
                           {"total_segments", path.segments.size()},
                           {"states", std::move(states)}});
}

ApiResponse DiagnosticsHandler(ServedTrace& served, const QueryParams& q) {
  const model::Trace& t = served.trace();
  const auto limit_arg = q.Limit("limit", 200);
  if (!limit_arg.ok()) return StatusResponse(limit_arg.status());
  const size_t limit = static_cast<size_t>(*limit_arg);
  Json findings = Json::array();

  const analysis::DeadlockReport& dead = served.deadlocks();
  for (size_t i = 0; i < dead.deadlocks.size() && i < limit; ++i) {
    const analysis::Deadlock& d = dead.deadlocks[i];
    std::string calls;
    for (uint32_t c : d.calls)
      calls += (calls.empty() ? "" : ", ") + StateName(t, dead.blocked[c].state);
    const analysis::BlockedCall& first = dead.blocked[d.calls.front()];
    findings.push_back(
        FindingJson(t, "deadlock", "error",
                    "deadlock: ranks " + RankList(d.ranks) + " wait for each other (" + calls + ")",
                    first.thread, first.since_ns, t.end_ns, first.slice,
                    static_cast<double>(t.end_ns - first.since_ns)));
  }
  for (size_t i = 0; i < dead.not_in_cycle.size() && i < limit; ++i) {
    const analysis::BlockedCall& b = dead.blocked[dead.not_in_cycle[i]];
    std::string text = RankOrRow(t, b.thread) + " never returned from " + StateName(t, b.state);
    if (!b.waits_for.empty()) text += ", waiting for ranks " + RankList(b.waits_for);
    findings.push_back(FindingJson(t, "blocked", "error", text, b.thread, b.since_ns, t.end_ns,
                                   b.slice, static_cast<double>(t.end_ns - b.since_ns)));
  }

  const analysis::WaitStatesReport& waits = served.waits();
  std::vector<const analysis::WaitInstance*> longest;
  for (const auto& w : waits.instances)
    longest.push_back(&w);
  const size_t keep_waits = std::min(limit, longest.size());
  std::partial_sort(longest.begin(), longest.begin() + static_cast<std::ptrdiff_t>(keep_waits),
                    longest.end(), [](auto* a, auto* b) { return analysis::LongerWait(*a, *b); });
  const SliceRefs refs(served);
  // Severity from what a finding cost against the run (finding_severity.h).
  const int64_t run_ns = t.end_ns - t.begin_ns;
  for (size_t i = 0; i < keep_waits; ++i) {
    const analysis::WaitInstance& w = *longest[i];
    const auto cost = static_cast<double>(w.wait_ns);
    findings.push_back(FindingJson(t, analysis::WaitKindName(w.kind),
                                   analysis::CostSeverity(cost, run_ns), WaitText(t, refs, w),
                                   w.thread, w.begin_ns, w.end_ns(), w.slice, cost));
  }

  const time::RepairReport& repair = served.repair();
  for (size_t i = 0; i < repair.repairs.size() && i < limit; ++i) {
    const time::Repair& r = repair.repairs[i];
    const std::string what =
        r.kind == time::CausalConstraints::Kind::kMessage ? "a receive" : "a collective's end";
    std::string text = "repair: moved " + what + " on " + RankOrRow(t, r.thread) + " by " +
                       FormatDuration(r.shift_ns);
    if (r.violation_ns > 0)
      text += " (it was " + FormatDuration(r.violation_ns) + " before its cause)";
    // The repaired event's time is the original plus its shift.
    const int64_t at = r.time_ns + r.shift_ns;
    findings.push_back(FindingJson(t, "repair", "info", text, r.thread, at, at, model::kNone));
  }

  for (size_t i = 0; i < served.anomalies().size() && i < limit; ++i) {
    const analysis::Anomaly& a = served.anomalies()[i];
    const double cost = std::max(0.0, static_cast<double>(a.duration_ns) - a.median_ns);
    findings.push_back(FindingJson(t, "anomaly", analysis::CostSeverity(cost, run_ns),
                                   t.states[a.state].name + " on " + RankOrRow(t, a.thread) +
                                       " took " + FormatDuration(a.duration_ns) + ", usually " +
                                       FormatDuration(std::llround(a.median_ns)),
                                   a.thread, a.begin_ns, a.begin_ns + a.duration_ns, a.slice,
                                   cost));
  }

  const analysis::ImbalanceReport& imbalance = served.imbalance();
  for (size_t i = 0; i < imbalance.rows.size() && i < limit; ++i) {
    const analysis::ImbalanceRow& r = imbalance.rows[i];
    if (r.units < 2 || r.percent < 10) continue;
    uint32_t thread = model::kNone;
    std::string who;
    if (imbalance.by_thread) {
      thread = r.max_unit;
      who = RowLabel(t, thread);
    } else {
      who = ProcessLabel(t.processes[r.max_unit]);
      for (uint32_t th = 0; th < t.threads.size() && thread == model::kNone; ++th)
        if (t.threads[th].process == r.max_unit) thread = th;
    }
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.0f%%", r.percent);
    findings.push_back(FindingJson(t, "imbalance", analysis::CostSeverity(r.lost_ns, run_ns),
                                   "imbalance: " + t.states[r.state].name + " takes " +
                                       FormatDuration(r.max_ns) + " on " + who + ", " + percent +
                                       " above the mean",
                                   thread, t.begin_ns, t.end_ns, model::kNone, r.lost_ns));
  }

  for (size_t i = 0; i < t.problems.size() && i < limit; ++i)
    findings.push_back(
        FindingJson(t, "problem", "warning", t.problems[i], model::kNone, 0, 0, model::kNone));

  return JsonResponse(Json{{"repair",
                            {{"violations_before", repair.violations_before},
                             {"violations_after", repair.violations_after},
                             {"events_moved", repair.events_moved},
                             {"max_shift", repair.max_shift_ns}}},
                           {"wait_total", waits.all.total_ns()},
                           {"findings", std::move(findings)}});
}

}  // namespace plx::server::handlers
