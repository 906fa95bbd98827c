// JSON shapes shared by the analysis commands and `parallax report`.
#include "cli/analysis_json.h"

#include <algorithm>
#include <string>
#include <utility>

#include "cli/json_fields.h"

namespace plx::cli {

namespace {

using nlohmann::ordered_json;

std::string CategoryName(const model::Trace& t, uint32_t state) {
  const uint32_t category = t.states[state].category;
  return category < t.categories.size() ? t.categories[category].name : "";
}

ordered_json Totals(const analysis::WaitTotals& x) {
  return {{"late_sender_ns", x.late_sender_ns},
          {"late_receiver_ns", x.late_receiver_ns},
          {"collective_ns", x.collective_ns},
          {"wait_ns", x.total_ns()},
          {"count", x.count}};
}

ordered_json BlockedCallJson(const model::Trace& t, const analysis::BlockedCall& b) {
  return {{"rank", b.rank},
          {"process", t.processes[b.process].file_id},
          {"stream", t.threads[b.thread].file_stream},
          {"call", t.states[b.state].name},
          {"since_ns", b.since_ns},
          {"waits_for", b.waits_for},
          {"communicator", b.comm == model::kNone ? "" : t.communicators[b.comm].name},
          {"tag", b.tag}};
}

double Share(int64_t ns, int64_t of) {
  return of > 0 ? static_cast<double>(ns) / static_cast<double>(of) : 0.0;
}

// "<prefix>_process", "<prefix>_rank" (and "<prefix>_stream" for a thread) of
// an imbalance unit.
void AddUnit(const model::Trace& t, bool by_thread, uint32_t unit, const std::string& prefix,
             ordered_json* e) {
  const uint32_t process = by_thread ? t.threads[unit].process : unit;
  (*e)[prefix + "_process"] = t.processes[process].file_id;
  (*e)[prefix + "_rank"] = t.processes[process].rank;
  if (by_thread) (*e)[prefix + "_stream"] = t.threads[unit].file_stream;
}

}  // namespace

ordered_json CallsiteJson(const model::Trace& t, uint32_t callsite) {
  if (callsite >= t.callsites.size()) return nullptr;
  const model::Callsite& c = t.callsites[callsite];
  return {{"file", c.file}, {"line", c.line}, {"function", c.function}};
}

ordered_json StateRowJson(const model::Trace& t, const analysis::StateStats& s,
                          bool with_callsite) {
  ordered_json row = {{"name", t.states[s.state].name},
                      {"category", CategoryName(t, s.state)},
                      {"count", s.count},
                      {"total_ns", s.total_ns},
                      {"self_ns", s.self_ns},
                      {"mean_ns", s.mean_ns},
                      {"min_ns", s.min_ns},
                      {"max_ns", s.max_ns},
                      {"stddev_ns", s.stddev_ns},
                      {"share", s.share}};
  if (with_callsite) row["callsite"] = CallsiteJson(t, s.callsite);
  return row;
}

ordered_json AnomalyJson(const model::Trace& t, const analysis::Anomaly& a) {
  const model::Process& p = t.processes[a.process];
  const model::Thread& th = t.threads[a.thread];
  return {{"state", t.states[a.state].name},
          {"process", p.file_id},
          {"rank", p.rank},
          {"thread", th.file_stream},
          {"tid", th.tid},
          {"begin_ns", a.begin_ns},
          {"duration_ns", a.duration_ns},
          {"median_ns", a.median_ns},
          {"mad_ns", a.mad_ns},
          {"limit_ns", a.limit_ns},
          {"group_size", a.group_size},
          {"group", a.by_callsite ? "callsite" : "state"},
          {"score", a.score},
          {"method", analysis::AnomalyMethodName(a.method)},
          {"callsite", CallsiteJson(t, a.callsite)}};
}

ordered_json WaitsJson(const model::Trace& t, const analysis::WaitStatesReport& w,
                       const analysis::DeadlockReport& d, size_t top_callsites) {
  ordered_json j = Totals(w.all);
  j["processes"] = ordered_json::array();
  for (size_t i = 0; i < t.processes.size(); ++i) {
    ordered_json e = ProcessIdentity(t.processes[i]);
    e.update(Totals(w.processes[i]));
    j["processes"].push_back(std::move(e));
  }
  j["callsites"] = ordered_json::array();
  for (size_t i = 0; i < w.callsites.size() && (top_callsites == 0 || i < top_callsites); ++i) {
    const analysis::CallsiteWaits& c = w.callsites[i];
    ordered_json e = {{"call", t.states[c.state].name}};
    const bool known = c.callsite < t.callsites.size();
    e["file"] = known ? t.callsites[c.callsite].file : "";
    e["line"] = known ? t.callsites[c.callsite].line : 0;
    e.update(Totals(c.totals));
    j["callsites"].push_back(std::move(e));
  }
  j["deadlocks"] = DeadlocksJson(t, d);
  j["blocked"] = ordered_json::array();
  for (uint32_t c : d.not_in_cycle)
    j["blocked"].push_back(BlockedCallJson(t, d.blocked[c]));
  return j;
}

ordered_json DeadlocksJson(const model::Trace& t, const analysis::DeadlockReport& d) {
  ordered_json out = ordered_json::array();
  for (const analysis::Deadlock& x : d.deadlocks) {
    ordered_json calls = ordered_json::array();
    for (uint32_t c : x.calls)
      calls.push_back(BlockedCallJson(t, d.blocked[c]));
    out.push_back({{"processes", x.ranks}, {"calls", std::move(calls)}});
  }
  return out;
}

std::vector<analysis::PathSegment> LongestSegments(const analysis::CriticalPath& p, size_t top) {
  std::vector<analysis::PathSegment> s = p.segments;
  if (top == 0) return s;
  std::stable_sort(s.begin(), s.end(),
                   [](const analysis::PathSegment& a, const analysis::PathSegment& b) {
                     return a.length_ns() > b.length_ns();
                   });
  if (s.size() > top) s.resize(top);
  return s;
}

ordered_json CriticalPathJson(const model::Trace& t, const analysis::CriticalPath& p, size_t top) {
  ordered_json j;
  j["length_ns"] = p.length_ns;
  j["begin_ns"] = t.begin_ns;
  j["end_ns"] = t.end_ns;
  j["segment_count"] = p.segments.size();
  j["states"] = ordered_json::array();
  for (const analysis::PathStateTime& s : p.states) {
    const bool known = s.state != model::kNone;
    j["states"].push_back({{"name", known ? t.states[s.state].name : ""},
                           {"category", known ? CategoryName(t, s.state) : ""},
                           {"ns", s.ns},
                           {"share", Share(s.ns, p.length_ns)}});
  }
  j["processes"] = ordered_json::array();
  for (size_t i = 0; i < t.processes.size(); ++i) {
    ordered_json e = ProcessIdentity(t.processes[i]);
    e["ns"] = p.processes[i];
    e["share"] = Share(p.processes[i], p.length_ns);
    j["processes"].push_back(std::move(e));
  }
  j["segments"] = ordered_json::array();
  for (const analysis::PathSegment& s : LongestSegments(p, top)) {
    const model::Thread& th = t.threads[s.thread];
    j["segments"].push_back({{"process", t.processes[th.process].file_id},
                             {"stream", th.file_stream},
                             {"begin_ns", s.begin_ns},
                             {"end_ns", s.end_ns},
                             {"length_ns", s.length_ns()}});
  }
  return j;
}

ordered_json ImbalanceJson(const model::Trace& t, const analysis::ImbalanceReport& r, size_t top) {
  ordered_json out = ordered_json::array();
  for (size_t i = 0; i < r.rows.size() && (top == 0 || i < top); ++i) {
    const analysis::ImbalanceRow& row = r.rows[i];
    ordered_json e = {{"state", t.states[row.state].name},
                      {"category", CategoryName(t, row.state)},
                      {"by", r.by_thread ? "thread" : "process"},
                      {"units", row.units},
                      {"max_ns", row.max_ns},
                      {"min_ns", row.min_ns},
                      {"mean_ns", row.mean_ns},
                      {"imbalance", row.imbalance},
                      {"percent", row.percent},
                      {"lost_ns", row.lost_ns}};
    AddUnit(t, r.by_thread, row.max_unit, "max", &e);
    AddUnit(t, r.by_thread, row.min_unit, "min", &e);
    out.push_back(std::move(e));
  }
  return out;
}

ordered_json RepairSummaryJson(const time::RepairReport& r) {
  return {{"violations_before", r.violations_before},
          {"violations_after", r.violations_after},
          {"before", {{"messages", r.before.messages}, {"collectives", r.before.collectives}}},
          {"after", {{"messages", r.after.messages}, {"collectives", r.after.collectives}}},
          {"constraints", r.constraints},
          {"converged", r.converged},
          {"events_moved", r.events_moved},
          {"max_shift_ns", r.max_shift_ns},
          {"max_duration_change_ns", r.max_duration_change_ns},
          {"max_relative_change", r.max_relative_change},
          {"repairs_total", r.repairs.size()}};
}

}  // namespace plx::cli
