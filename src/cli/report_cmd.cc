// `parallax report FILE`: one page that answers "where does the time go, and
// what is wrong?" — the trace at a glance, what stands out, then the top
// states, load imbalance, MPI wait states, the critical path, anomalous
// durations, deadlocks and the causal repair that preceded them. Every
// number comes from the analysis engine the single-purpose commands use,
// after the same causal repair (`parallax check`).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/critical_path.h"
#include "analysis/deadlock.h"
#include "analysis/imbalance.h"
#include "analysis/mpi_calls.h"
#include "analysis/state_stats.h"
#include "analysis/wait_states.h"
#include "base/strings.h"
#include "cli/analysis_json.h"
#include "cli/command.h"
#include "cli/model_text.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/table.h"
#include "cli/trace_input.h"
#include "distributed/group.h"
#include "distributed/spread_report.h"
#include "store/stream_report.h"
#include "time/causal_repair.h"

namespace plx::cli {

namespace {

using nlohmann::ordered_json;

struct ReportOptions {
  std::string path;
  bool json = false;
  size_t top = 10;  // rows per table and list; 0 = all
};

// Everything the report shows, computed once.
struct Findings {
  uint64_t records = 0;
  time::RepairReport repair;
  analysis::StateStatsReport stats;
  std::vector<analysis::StateStats> states;  // all threads, by self time
  analysis::ImbalanceReport imbalance;
  analysis::WaitStatesReport waits;
  analysis::DeadlockReport deadlocks;
  analysis::CriticalPath path;
  std::vector<analysis::Anomaly> anomalies;
};

size_t Cut(size_t n, size_t top) {
  return top == 0 ? n : std::min(n, top);
}

double Fraction(double part, double whole) {
  return whole > 0 ? part / whole : 0.0;
}

std::string UnitName(const model::Trace& t, bool by_thread, uint32_t unit) {
  return by_thread ? ThreadText(t, unit) : ProcessText(t.processes[unit]);
}

// Imbalance worth a line among the findings: in the program's own work (an
// MPI call's imbalance is its waiting, which the wait finding reports), over
// 2+ units, the slowest at least 20 % above the mean, losing at least 1 % of
// the run.
bool Notable(const model::Trace& t, const analysis::ImbalanceRow& row, int64_t span_ns) {
  return analysis::ClassifyMpiCall(t.states[row.state].name) == 0 && row.units >= 2 &&
         row.percent >= 20 && row.lost_ns >= 0.01 * static_cast<double>(span_ns);
}

// The few sentences at the top: the problems, most serious first.
std::vector<std::string> Headlines(const model::Trace& t, const Findings& f) {
  std::vector<std::string> lines;
  for (const analysis::Deadlock& d : f.deadlocks.deadlocks)
    lines.push_back(
        fmt::format("DEADLOCK: ranks {} wait for each other and never return "
                    "(see Deadlocks below)",
                    RankList(d.ranks)));
  if (!f.deadlocks.not_in_cycle.empty())
    lines.push_back(fmt::format("{} MPI call(s) were still blocked when the trace ended",
                                f.deadlocks.not_in_cycle.size()));
  const int64_t span = t.end_ns - t.begin_ns;
  const double thread_time = static_cast<double>(f.stats.all.thread_time_ns);
  const analysis::WaitTotals& w = f.waits.all;
  if (w.total_ns() > 0 && Fraction(static_cast<double>(w.total_ns()), thread_time) >= 0.01) {
    const char* biggest = "late senders";
    int64_t most = w.late_sender_ns;
    if (w.late_receiver_ns > most) biggest = "late receivers", most = w.late_receiver_ns;
    if (w.collective_ns > most) biggest = "other members of collectives", most = w.collective_ns;
    lines.push_back(fmt::format(
        "MPI calls spend {} ({} of all thread time) waiting, mostly for {}",
        FormatDuration(w.total_ns()),
        FormatShare(Fraction(static_cast<double>(w.total_ns()), thread_time)), biggest));
  }
  size_t shown = 0;
  for (const analysis::ImbalanceRow& row : f.imbalance.rows) {
    if (!Notable(t, row, span) || shown == 3) continue;
    ++shown;
    lines.push_back(
        fmt::format("'{}' is imbalanced: {} spends {} in it, the mean is {} "
                    "({:.0f} % more; {} lost)",
                    t.states[row.state].name, UnitName(t, f.imbalance.by_thread, row.max_unit),
                    FormatDuration(row.max_ns), FormatDuration(std::llround(row.mean_ns)),
                    row.percent, FormatDuration(std::llround(row.lost_ns))));
  }
  if (!f.anomalies.empty()) {
    const analysis::Anomaly& a = f.anomalies.front();
    lines.push_back(fmt::format(
        "{} slice(s) took far longer than usual; the worst: '{}' on {} took {} (median {})",
        f.anomalies.size(), t.states[a.state].name, ThreadText(t, a.thread),
        FormatDuration(a.duration_ns), FormatDuration(std::llround(a.median_ns))));
  }
  if (f.repair.violations_before > 0)
    lines.push_back(
        fmt::format("{} message(s) or collective call(s) arrived before they were "
                    "sent after clock correction; repaired ({} left)",
                    f.repair.violations_before, f.repair.violations_after));
  return lines;
}

void PrintStates(const model::Trace& t, const Findings& f, size_t top) {
  const auto right = Table::Align::kRight;
  Table table({{"state"},
               {"count", right},
               {"self", right},
               {"share", right},
               {"mean", right},
               {"max", right}});
  for (size_t i = 0; i < Cut(f.states.size(), top); ++i) {
    const analysis::StateStats& s = f.states[i];
    table.AddRow({t.states[s.state].name, FormatCount(s.count), FormatDuration(s.self_ns),
                  FormatShare(s.share), FormatDuration(std::llround(s.mean_ns)),
                  FormatDuration(s.max_ns)});
  }
  fmt::print(
      "\nWhere the time goes (self time: not counting nested states; share of all "
      "thread time)\n{}",
      table.rows() ? table.Render() : "  (no states)\n");
}

void PrintImbalance(const model::Trace& t, const Findings& f, size_t top) {
  const bool by_thread = f.imbalance.by_thread;
  fmt::print("\nLoad imbalance (time in each state compared over the {} that enter it)\n",
             by_thread ? "threads" : "processes");
  const auto right = Table::Align::kRight;
  Table table({{"state"},
               {"most"},
               {"max", right},
               {"mean", right},
               {"min", right},
               {"imbalance", right},
               {"lost", right}});
  for (size_t i = 0; i < f.imbalance.rows.size() && (top == 0 || table.rows() < top); ++i) {
    const analysis::ImbalanceRow& row = f.imbalance.rows[i];
    if (row.units < 2) continue;
    table.AddRow({t.states[row.state].name, UnitName(t, by_thread, row.max_unit),
                  FormatDuration(row.max_ns), FormatDuration(std::llround(row.mean_ns)),
                  FormatDuration(row.min_ns), FormatShare(row.imbalance),
                  FormatDuration(std::llround(row.lost_ns))});
  }
  fmt::print("{}", table.rows() ? table.Render() : "  (no state is shared by two or more)\n");
  fmt::print("  imbalance = (max - mean) / max; lost = max - mean, what the others would wait\n");
}

void PrintWaits(const model::Trace& t, const Findings& f) {
  const analysis::WaitTotals& w = f.waits.all;
  fmt::print("\nMPI wait states (time a call was held by another process)\n");
  if (w.count == 0) {
    fmt::print("  none\n");
    return;
  }
  fmt::print("  late sender {}, late receiver {}, collectives {}; {} waits\n",
             FormatDuration(w.late_sender_ns), FormatDuration(w.late_receiver_ns),
             FormatDuration(w.collective_ns), FormatCount(w.count));
  const auto right = Table::Align::kRight;
  Table table({{"process"},
               {"late sender", right},
               {"late receiver", right},
               {"collective", right},
               {"total", right}});
  for (size_t i = 0; i < t.processes.size(); ++i) {
    const analysis::WaitTotals& x = f.waits.processes[i];
    if (x.total_ns() == 0) continue;
    table.AddRow({ProcessText(t.processes[i]), FormatDuration(x.late_sender_ns),
                  FormatDuration(x.late_receiver_ns), FormatDuration(x.collective_ns),
                  FormatDuration(x.total_ns())});
  }
  fmt::print("{}", table.Render());
}

void PrintCriticalPath(const model::Trace& t, const Findings& f, size_t top) {
  const analysis::CriticalPath& p = f.path;
  fmt::print("\nCritical path (the chain of work the end of the run waited for): {}\n",
             FormatDuration(p.length_ns));
  const double length = static_cast<double>(p.length_ns);
  std::string states;
  for (size_t i = 0; i < Cut(p.states.size(), std::min<size_t>(top, 5)); ++i) {
    const analysis::PathStateTime& s = p.states[i];
    states += fmt::format("{}{} {}", states.empty() ? "" : ", ",
                          s.state == model::kNone ? "(no state)" : t.states[s.state].name,
                          FormatShare(Fraction(static_cast<double>(s.ns), length)));
  }
  if (!states.empty()) fmt::print("  in states: {}\n", states);
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < p.processes.size(); ++i)
    if (p.processes[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return p.processes[a] > p.processes[b]; });
  std::string processes;
  for (size_t i = 0; i < Cut(order.size(), std::min<size_t>(top, 5)); ++i)
    processes +=
        fmt::format("{}{} {}", processes.empty() ? "" : ", ", ProcessText(t.processes[order[i]]),
                    FormatShare(Fraction(static_cast<double>(p.processes[order[i]]), length)));
  if (!processes.empty()) fmt::print("  on: {}\n", processes);
}

void PrintAnomalies(const model::Trace& t, const ReportOptions& o, const Findings& f) {
  const size_t top = o.top;
  fmt::print("\nAnomalies (slices far longer than the median of their state and call site)\n");
  if (f.anomalies.empty()) {
    fmt::print("  none\n");
    return;
  }
  const auto right = Table::Align::kRight;
  Table table({{"state"}, {"where"}, {"at", right}, {"duration", right}, {"median", right}});
  for (size_t i = 0; i < Cut(f.anomalies.size(), top); ++i) {
    const analysis::Anomaly& a = f.anomalies[i];
    table.AddRow({t.states[a.state].name, ThreadText(t, a.thread),
                  FormatDuration(a.begin_ns - t.begin_ns), FormatDuration(a.duration_ns),
                  FormatDuration(std::llround(a.median_ns))});
  }
  fmt::print("{}", table.Render());
  if (Cut(f.anomalies.size(), top) < f.anomalies.size())
    fmt::print("  ({} more: parallax anomalies {})\n",
               f.anomalies.size() - Cut(f.anomalies.size(), top), o.path);
}

void PrintDeadlocks(const model::Trace& t, const Findings& f) {
  const analysis::DeadlockReport& d = f.deadlocks;
  fmt::print("\nDeadlocks\n");
  if (d.blocked.empty()) {
    fmt::print("  none: no MPI call was still blocked at the end of the trace\n");
    return;
  }
  auto describe = [&](const analysis::BlockedCall& b) {
    std::string s = fmt::format("{} in {} since {}", ProcessText(t.processes[b.process]),
                                t.states[b.state].name, FormatDuration(b.since_ns - t.begin_ns));
    if (!b.waits_for.empty()) s += ", waiting for rank " + RankList(b.waits_for);
    if (b.tag >= 0) s += fmt::format(" (tag {})", b.tag);
    return s;
  };
  for (const analysis::Deadlock& x : d.deadlocks) {
    fmt::print("  ranks {} wait for each other:\n", RankList(x.ranks));
    for (uint32_t c : x.calls)
      fmt::print("    {}\n", describe(d.blocked[c]));
  }
  if (!d.not_in_cycle.empty()) fmt::print("  blocked at the end, in no cycle:\n");
  for (uint32_t c : d.not_in_cycle)
    fmt::print("    {}\n", describe(d.blocked[c]));
}

void PrintText(const model::Trace& t, const ReportOptions& o, const Findings& f) {
  size_t ranks = 0;
  for (const model::Process& p : t.processes)
    ranks += p.rank >= 0;
  fmt::print("{}: {} process(es){}, {} thread(s), {} records over {}\n", o.path, t.processes.size(),
             ranks ? fmt::format(" ({} MPI ranks)", ranks) : "", t.threads.size(),
             FormatCount(f.records), FormatDuration(t.end_ns - t.begin_ns));
  const std::vector<std::string> headlines = Headlines(t, f);
  fmt::print("\nWhat stands out\n");
  if (headlines.empty()) fmt::print("  nothing: no deadlock, waiting, imbalance or anomaly\n");
  for (const std::string& line : headlines)
    fmt::print("  - {}\n", line);
  PrintStates(t, f, o.top);
  PrintImbalance(t, f, o.top);
  PrintWaits(t, f);
  PrintCriticalPath(t, f, o.top);
  PrintAnomalies(t, o, f);
  PrintDeadlocks(t, f);
  const time::RepairReport& r = f.repair;
  fmt::print(
      "\nClocks: {} violation(s) of causality after clock correction, {} after repair; "
      "largest shift {}\n",
      r.violations_before, r.violations_after, FormatDuration(r.max_shift_ns));
  fmt::print("\nMore: parallax stats | waits | critical-path | anomalies | matrix | check {}\n",
             o.path);
}

ordered_json Json(const model::Trace& t, const ReportOptions& o, const Findings& f) {
  ordered_json j;
  j["file"] = o.path;
  j["trace"] = {{"processes", t.processes.size()},
                {"threads", t.threads.size()},
                {"records", f.records},
                {"begin_ns", t.begin_ns},
                {"end_ns", t.end_ns},
                {"duration_ns", t.end_ns - t.begin_ns},
                {"thread_time_ns", f.stats.all.thread_time_ns}};
  j["findings"] = Headlines(t, f);
  j["states"] = ordered_json::array();
  for (size_t i = 0; i < Cut(f.states.size(), o.top); ++i)
    j["states"].push_back(StateRowJson(t, f.states[i]));
  j["imbalance"] = ImbalanceJson(t, f.imbalance, o.top);
  j["waits"] = WaitsJson(t, f.waits, f.deadlocks, o.top);
  j["critical_path"] = CriticalPathJson(t, f.path, o.top);
  j["anomalies_total"] = f.anomalies.size();
  j["anomalies"] = ordered_json::array();
  for (size_t i = 0; i < Cut(f.anomalies.size(), o.top); ++i)
    j["anomalies"].push_back(AnomalyJson(t, f.anomalies[i]));
  j["deadlocks"] = DeadlocksJson(t, f.deadlocks);
  j["repair"] = RepairSummaryJson(f.repair);
  return j;
}

void Print(const model::Trace& trace, const ReportOptions& o, const Findings& f) {
  if (o.json) {
    fmt::print("{}\n",
               Json(trace, o, f).dump(2, ' ', false, ordered_json::error_handler_t::replace));
  } else {
    PrintText(trace, o, f);
  }
}

// Above --memory (and always under parallax-mpi): every finding from the
// trace store.
Status ReportFromStore(const ReportOptions& o, const GlobalOptions& global,
                       const format::TraceFile& file) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> st, OpenStore(file, global));
  StatusOr<store::StreamedReport> streamed = [&] {
    StepProgress progress(global.progress, "analysing", 3);
    const auto step = [&](std::string_view name) { progress.Step(name); };
    // parallax-mpi: every pass spread over the processes.
    if (global.group != nullptr) return distributed::SpreadReport(*st, *global.group, {}, step);
    return store::StreamReport(*st, {}, step);
  }();
  PLX_ASSIGN_OR_RETURN(store::StreamedReport r, std::move(streamed));
  if (global.group != nullptr && global.group->rank() != 0) return Status::Ok();
  Findings f;
  f.records = file.total_records();
  f.repair = std::move(r.repair);
  f.stats = std::move(r.stats);
  f.states = f.stats.all.states;
  analysis::SortStateStats(r.trace, analysis::StateOrder::kSelf, &f.states);
  f.imbalance = analysis::ComputeImbalance(r.trace, f.stats);
  f.waits = std::move(r.waits);
  f.deadlocks = std::move(r.deadlocks);
  f.path = std::move(r.path);
  f.anomalies = std::move(r.anomalies);
  Print(r.trace, o, f);
  return Status::Ok();
}

Status RunReport(const ReportOptions& o, const GlobalOptions& global) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  if (global.group != nullptr || !FitsInMemory(*file, global))
    return ReportFromStore(o, global, *file);
  PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(*file, global));
  Findings f;
  f.records = file->total_records();
  {
    StepProgress progress(global.progress, "analysing", 7);
    progress.Step("causal repair");
    PLX_ASSIGN_OR_RETURN(f.repair, time::RepairCausality(&trace));
    progress.Step("state statistics");
    f.stats = analysis::ComputeStateStats(trace);
    f.states = f.stats.all.states;
    analysis::SortStateStats(trace, analysis::StateOrder::kSelf, &f.states);
    progress.Step("imbalance");
    f.imbalance = analysis::ComputeImbalance(trace, f.stats);
    progress.Step("wait states");
    f.waits = analysis::ComputeWaitStates(trace);
    progress.Step("deadlocks");
    f.deadlocks = analysis::DetectDeadlocks(trace);
    progress.Step("critical path");
    f.path = analysis::ComputeCriticalPath(trace, f.waits);
    progress.Step("anomalies");
    f.anomalies = analysis::FindAnomalies(trace);
  }
  Print(trace, o, f);
  return Status::Ok();
}

}  // namespace

Command AddReportCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* app = parent.add_subcommand(
      "report",
      "One page: where the time goes, imbalance, waiting, critical path, anomalies, "
      "deadlocks");
  app->footer(
      "Repairs causality first (as parallax check does), then runs every analysis on the\n"
      "repaired times: state statistics, load imbalance, MPI wait states, the critical path,\n"
      "anomalous durations (the robust method of parallax anomalies) and deadlocks. Opens\n"
      "with the findings that stand out; each section names the command that shows more.\n"
      "\n"
      "Examples:\n"
      "  parallax report run.plx\n"
      "  parallax report run.plx --top 20\n"
      "  parallax report run.plx --json");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print one JSON object instead of text (see docs/cli.md)");
  app->add_option("--top", o->top, "Rows per table and list (0 = all)")
      ->check(CLI::NonNegativeNumber)
      ->default_str("10");
  return {app, [o, &global] { return RunReport(*o, global); }};
}

}  // namespace plx::cli
