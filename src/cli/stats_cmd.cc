// `parallax stats FILE`: per-state statistics (analysis/state_stats) as
// tables — over all processes, then per process, thread or call site — or as
// JSON; with --counter, each state's amount of a counter (analysis/state_counters).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "analysis/state_counters.h"
#include "analysis/state_stats.h"
#include "base/strings.h"
#include "cli/analysis_json.h"
#include "cli/command.h"
#include "cli/json_fields.h"
#include "cli/model_text.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/selection_arg.h"
#include "cli/table.h"
#include "cli/time_arg.h"
#include "cli/trace_input.h"
#include "distributed/group.h"
#include "distributed/spread_stats.h"
#include "store/stream_stats.h"

namespace plx::cli {

namespace {

using analysis::StateOrder;
using analysis::StateStats;
using analysis::StateStatsScope;
using nlohmann::ordered_json;

struct StatsOptions {
  std::string path;
  bool json = false;
  std::string by = "process";
  std::string sort_name = "total";
  size_t top = 0;  // 0 = all
  std::vector<std::string> counters;
  SelectionArgs selection;
};

// The --counter columns of one scope: a name and the scope's sums per state.
struct CounterColumn {
  const std::string* name;
  const analysis::StateCounterScope* sums;
};
using CounterColumns = std::vector<CounterColumn>;

// The columns of the reports for a scope picked by `scope_of`.
template <typename ScopeOf>
CounterColumns Columns(const std::vector<std::string>& names,
                       const std::vector<analysis::StateCounterReport>& reports, ScopeOf scope_of) {
  CounterColumns out;
  for (size_t i = 0; i < reports.size(); ++i)
    out.push_back({&names[i], &scope_of(reports[i])});
  return out;
}

// An amount of a counter: exact integers with separators, else 4 digits.
std::string FormatAmount(const analysis::StateCounterSums& s, double v) {
  if (s.measured == 0) return "-";
  if (std::fabs(v) < 9e15 && v == std::floor(v))
    return v < 0 ? "-" + FormatCount(static_cast<uint64_t>(-v))
                 : FormatCount(static_cast<uint64_t>(v));
  return fmt::format("{:.4g}", v);
}

const std::map<std::string, StateOrder> kOrders = {
    {"total", StateOrder::kTotal}, {"self", StateOrder::kSelf}, {"count", StateOrder::kCount},
    {"mean", StateOrder::kMean},   {"max", StateOrder::kMax},   {"name", StateOrder::kName}};

// The scope's rows sorted and cut to --top.
std::vector<StateStats> Rows(const model::Trace& t, const StatsOptions& o,
                             const StateStatsScope& scope) {
  std::vector<StateStats> rows = scope.states;
  analysis::SortStateStats(t, kOrders.at(o.sort_name), &rows);
  if (o.top > 0 && rows.size() > o.top) rows.resize(o.top);
  return rows;
}

// With `callsites` the rows are per (state, call site), shown in a second column.
std::string RenderTable(const model::Trace& t, const StatsOptions& o, const StateStatsScope& scope,
                        bool callsites = false, const CounterColumns& counters = {}) {
  const std::vector<StateStats> rows = Rows(t, o, scope);
  if (rows.empty()) return "  (no states)\n";
  const auto right = Table::Align::kRight;
  std::vector<Table::Column> columns = {{"state"}};
  if (callsites) columns.push_back({"callsite"});
  for (const char* title : {"count", "total", "self", "mean", "min", "max", "stddev", "share"})
    columns.push_back({title, right});
  for (const CounterColumn& c : counters) {
    columns.push_back({*c.name, right});
    columns.push_back({*c.name + " self", right});
  }
  Table table(std::move(columns));
  for (const StateStats& s : rows) {
    std::vector<std::string> cells = {t.states[s.state].name};
    if (callsites) cells.push_back(CallsiteText(t, s.callsite));
    cells.insert(cells.end(), {FormatCount(s.count), FormatDuration(s.total_ns),
                               FormatDuration(s.self_ns), FormatDuration(std::llround(s.mean_ns)),
                               FormatDuration(s.min_ns), FormatDuration(s.max_ns),
                               FormatDuration(std::llround(s.stddev_ns)), FormatShare(s.share)});
    for (const CounterColumn& c : counters) {
      const analysis::StateCounterSums& sums = (*c.sums)[s.state];
      cells.push_back(FormatAmount(sums, sums.total));
      cells.push_back(FormatAmount(sums, sums.self));
    }
    table.AddRow(std::move(cells));
  }
  std::string out = table.Render();
  if (rows.size() < scope.states.size())
    out += fmt::format("  ({} more not shown)\n", scope.states.size() - rows.size());
  return out;
}

std::string ProcessTitle(const model::Process& p) {
  std::string s = fmt::format("process {} (", p.file_id);
  if (p.rank >= 0) s += fmt::format("rank {}, ", p.rank);
  s += fmt::format("pid {}", p.pid);
  if (!p.host.empty()) s += ", " + p.host;
  return s + ")";
}

std::string ThreadTitle(const model::Trace& t, const model::Thread& th) {
  std::string s = fmt::format("process {} stream {} (tid {}", t.processes[th.process].file_id,
                              th.file_stream, th.tid);
  if (!th.name.empty()) s += ", " + th.name;
  return s + ")";
}

void PrintText(const model::Trace& t, const StatsOptions& o, const analysis::StateStatsReport& r,
               const StateStatsScope& callsites,
               const std::vector<analysis::StateCounterReport>& counters,
               const analysis::Selection* selection) {
  auto columns = [&](auto scope_of) { return Columns(o.counters, counters, scope_of); };
  if (selection != nullptr) fmt::print("{}\n\n", SelectionText(t, *selection));
  fmt::print(
      "all processes ({}, {}; thread time {})\n{}",
      t.processes.size() == 1 ? "1 process" : fmt::format("{} processes", t.processes.size()),
      t.threads.size() == 1 ? "1 thread" : fmt::format("{} threads", t.threads.size()),
      FormatDuration(r.all.thread_time_ns),
      RenderTable(t, o, r.all, false, columns([
                  ](const analysis::StateCounterReport& c) -> const auto& { return c.all; })));
  if (o.by == "callsite") {
    fmt::print("\nper call site\n{}", RenderTable(t, o, callsites, true));
  } else if (o.by == "thread") {
    for (size_t i = 0; i < t.threads.size(); ++i)
      fmt::print("\n{}; thread time {}\n{}", ThreadTitle(t, t.threads[i]),
                 FormatDuration(r.threads[i].thread_time_ns),
                 RenderTable(t, o, r.threads[i], false,
                             columns([i](const analysis::StateCounterReport& c) -> const auto& {
                               return c.threads[i];
                             })));
  } else {
    for (size_t i = 0; i < t.processes.size(); ++i)
      fmt::print("\n{}; thread time {}\n{}", ProcessTitle(t.processes[i]),
                 FormatDuration(r.processes[i].thread_time_ns),
                 RenderTable(t, o, r.processes[i], false,
                             columns([i](const analysis::StateCounterReport& c) -> const auto& {
                               return c.processes[i];
                             })));
  }
}

// With `callsites` each row also has a "callsite" field.
ordered_json JsonRows(const model::Trace& t, const StatsOptions& o, const StateStatsScope& scope,
                      bool callsites = false, const CounterColumns& counters = {}) {
  ordered_json rows = ordered_json::array();
  for (const StateStats& s : Rows(t, o, scope)) {
    ordered_json row = StateRowJson(t, s, callsites);
    if (!counters.empty()) {
      ordered_json c = ordered_json::object();
      for (const CounterColumn& col : counters) {
        const analysis::StateCounterSums& sums = (*col.sums)[s.state];
        c[*col.name] = {{"measured", sums.measured}, {"total", sums.total}, {"self", sums.self}};
      }
      row["counters"] = std::move(c);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

ordered_json Json(const model::Trace& t, const StatsOptions& o, const analysis::StateStatsReport& r,
                  const StateStatsScope& callsites,
                  const std::vector<analysis::StateCounterReport>& counters,
                  const analysis::Selection* selection) {
  auto columns = [&](auto scope_of) { return Columns(o.counters, counters, scope_of); };
  ordered_json j;
  if (selection != nullptr) j["selection"] = SelectionJson(t, *selection);
  j["thread_time_ns"] = r.all.thread_time_ns;
  j["states"] =
      JsonRows(t, o, r.all, false,
               columns([](const analysis::StateCounterReport& c) -> const auto& { return c.all; }));
  j["processes"] = ordered_json::array();
  for (size_t i = 0; i < t.processes.size(); ++i) {
    ordered_json e = ProcessIdentity(t.processes[i]);
    e["thread_time_ns"] = r.processes[i].thread_time_ns;
    e["states"] = JsonRows(t, o, r.processes[i], false,
                           columns([i](const analysis::StateCounterReport& c) -> const auto& {
                             return c.processes[i];
                           }));
    j["processes"].push_back(std::move(e));
  }
  j["threads"] = ordered_json::array();
  for (size_t i = 0; i < t.threads.size(); ++i) {
    ordered_json e = ThreadIdentity(t, t.threads[i]);
    e["thread_time_ns"] = r.threads[i].thread_time_ns;
    e["states"] = JsonRows(t, o, r.threads[i], false,
                           columns([i](const analysis::StateCounterReport& c) -> const auto& {
                             return c.threads[i];
                           }));
    j["threads"].push_back(std::move(e));
  }
  j["callsites"] = JsonRows(t, o, callsites, true);
  return j;
}

void Print(const model::Trace& trace, const StatsOptions& o,
           const analysis::StateStatsReport& report, const StateStatsScope& callsites,
           const std::vector<analysis::StateCounterReport>& counters,
           const analysis::Selection* selection = nullptr) {
  if (o.json) {
    fmt::print("{}\n", Json(trace, o, report, callsites, counters, selection)
                           .dump(2, ' ', false, ordered_json::error_handler_t::replace));
  } else {
    PrintText(trace, o, report, callsites, counters, selection);
  }
}

// The statistics of the model in memory.
Status StatsOfModel(const StatsOptions& o, const GlobalOptions& global,
                    const format::TraceFile& file) {
  PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(file, global));
  PLX_ASSIGN_OR_RETURN(const std::optional<analysis::Selection> selection,
                       ParseSelection(trace, o.selection, "stats"));
  const analysis::Selection* part = selection ? &*selection : nullptr;
  std::vector<analysis::StateCounterReport> counters;
  for (const std::string& name : o.counters) {
    uint32_t id = model::kNone;
    std::string known;
    for (uint32_t i = 0; i < trace.counters.size(); ++i) {
      if (trace.counters[i].name == name) id = i;
      known += (known.empty() ? "" : ", ") + trace.counters[i].name;
    }
    if (id == model::kNone)
      return InvalidArgument("--counter " + name + ": " + o.path + " has no such counter (" +
                             (known.empty() ? std::string("it has none") : "it has: " + known) +
                             ")");
    counters.push_back(analysis::ComputeStateCounters(trace, id));
  }
  const analysis::StateStatsReport report = analysis::ComputeStateStats(trace, part);
  StateStatsScope callsites;
  if (o.json || o.by == "callsite") {
    callsites.thread_time_ns = report.all.thread_time_ns;
    callsites.states = analysis::ComputeCallsiteStats(trace, part);
  }
  Print(trace, o, report, callsites, counters, part);
  return Status::Ok();
}

// The same from the trace store, chunk by chunk (traces above --memory).
Status StatsOfStore(const StatsOptions& o, const GlobalOptions& global,
                    const format::TraceFile& file) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(file, global));
  PLX_ASSIGN_OR_RETURN(const std::optional<analysis::Selection> selection,
                       ParseSelection(store->trace(), o.selection, "stats"));
  store::StreamedStateStats stats = [&] {
    LoadProgress drawer(global.progress, "analysing");
    if (selection) return store::StreamStateStats(*store, *selection, drawer.Callback());
    return store::StreamStateStats(*store, drawer.Callback());
  }();
  StateStatsScope callsites;
  callsites.thread_time_ns = stats.report.all.thread_time_ns;
  callsites.states = std::move(stats.callsites);
  Print(store->trace(), o, stats.report, callsites, {}, selection ? &*selection : nullptr);
  return Status::Ok();
}

// The same spread over the processes of `parallax-mpi`: each makes the
// statistics of its share of the threads, process 0 merges and prints.
Status StatsOfGroup(const StatsOptions& o, const GlobalOptions& global,
                    const format::TraceFile& file) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(file, global));
  PLX_ASSIGN_OR_RETURN(const std::optional<analysis::Selection> selection,
                       ParseSelection(store->trace(), o.selection, "stats"));
  const analysis::Selection* part = selection ? &*selection : nullptr;
  StatusOr<store::StreamedStateStats> stats = [&] {
    LoadProgress drawer(global.progress, "analysing");
    return distributed::SpreadStateStats(*store, *global.group, drawer.Callback(), part);
  }();
  if (!stats.ok()) return stats.status();
  if (global.group->rank() != 0) return Status::Ok();
  StateStatsScope callsites;
  callsites.thread_time_ns = stats->report.all.thread_time_ns;
  callsites.states = std::move(stats->callsites);
  Print(store->trace(), o, stats->report, callsites, {}, part);
  return Status::Ok();
}

Status RunStats(const StatsOptions& o, const GlobalOptions& global) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  // Counters per state need every sample near every slice: in memory (on
  // process 0 alone in `parallax-mpi`).
  if (!o.counters.empty()) {
    if (o.selection.any())
      return InvalidArgument(
          "stats: --counter covers the whole trace; it does not combine with --from, --to, "
          "--processes or --rows");
    if (global.group != nullptr && global.group->rank() != 0) return Status::Ok();
    return StatsOfModel(o, global, *file);
  }
  if (global.group != nullptr) return StatsOfGroup(o, global, *file);
  if (FitsInMemory(*file, global)) return StatsOfModel(o, global, *file);
  return StatsOfStore(o, global, *file);
}

}  // namespace

Command AddStatsCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<StatsOptions>();
  CLI::App* app =
      parent.add_subcommand("stats", "Per-state statistics, over all and per process or thread");
  app->footer(
      "For every state: count (instances), total (inclusive time), self (exclusive time:\n"
      "minus directly nested states), mean, min, max and stddev of the inclusive durations,\n"
      "and share = self / thread time (the sum over threads of last minus first record).\n"
      "The first table covers all processes; then one per process (or per thread, or one\n"
      "table per (state, call site) with --by callsite).\n"
      "States still open at a thread's end count up to its last record.\n"
      "--counter NAME adds two columns per counter: how much of it each state took\n"
      "(its value at the slice's end minus at its begin, on the slice's thread: for\n"
      "PLX_COUNTERS sampled at state changes, docs/counters.md) and its self part\n"
      "(minus directly nested states); '-' where no slice had a sample before it.\n"
      "\n"
      "Examples:\n"
      "  parallax stats run.plx --top 10\n"
      "  parallax stats run.plx --by thread --sort self\n"
      "  parallax stats run.plx --json\n"
      "  parallax stats run.plx --counter instructions --counter cache-misses\n"
      "  parallax stats run.plx --from 1.5s --to 2.5s --processes 0-3\n"
      "\n"
      "With --from/--to (times since the trace begin, both ends included) only slices\n"
      "overlapping that window count, clipped to it (self time: the clipped duration\n"
      "minus the clipped durations of direct children), as the statistics of\n"
      "`parallax cut --from --to` would be; thread time is each thread's span clipped\n"
      "to the window. --processes and --rows keep only those processes (numbered as\n"
      "in `info`) and threads (the viewer's rows, in the order of --by thread).");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print one JSON object instead of tables (see docs/cli.md)");
  app->add_option("--by", o->by, "Break the statistics down per process, thread or call site")
      ->check(CLI::IsMember({"process", "thread", "callsite"}))
      ->default_str("process");
  app->add_option("--sort", o->sort_name, "Order of the rows (numbers descending, names ascending)")
      ->check(CLI::IsMember({"total", "self", "count", "mean", "max", "name"}))
      ->default_str("total");
  app->add_option("--top", o->top, "Show only the first N rows of each table (0 = all)")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--counter", o->counters,
                  "A counter whose amount per state to add (repeatable; e.g. instructions)");
  AddSelectionOptions(app, &o->selection);
  return {app, [o, &global] { return RunStats(*o, global); }};
}

}  // namespace plx::cli
