// `parallax anomalies FILE`: slices far longer than is typical for their state
// and call site (analysis/anomalies), most anomalous first, as a table or JSON.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/anomalies.h"
#include "base/strings.h"
#include "cli/analysis_json.h"
#include "cli/command.h"
#include "cli/model_text.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/table.h"
#include "cli/time_arg.h"
#include "cli/trace_input.h"
#include "distributed/group.h"
#include "distributed/spread_anomalies.h"
#include "store/stream_anomalies.h"

namespace plx::cli {

namespace {

using analysis::Anomaly;
using nlohmann::ordered_json;

struct AnomaliesOptions {
  std::string path;
  bool json = false;
  double threshold = analysis::AnomalyOptions().threshold;
  double min_ratio = analysis::AnomalyOptions().min_ratio;
  std::string min_excess = "1ms";
  size_t min_samples = analysis::AnomalyOptions().min_samples;
  double percentile = -1;  // < 0: not given, the robust method
  std::string state;
  size_t top = 0;  // 0 = all
};

std::string UnitText(const model::Trace& t, const Anomaly& a) {
  return fmt::format("{} stream {}", ProcessText(t.processes[a.process]),
                     t.threads[a.thread].file_stream);
}

void PrintText(const model::Trace& t, const analysis::AnomalyOptions& ao,
               const std::vector<Anomaly>& all, size_t shown) {
  if (all.empty()) {
    fmt::print("no anomalies ({} method{})\n", analysis::AnomalyMethodName(ao.method),
               ao.method == analysis::AnomalyMethod::kRobust
                   ? fmt::format(": score >= {:g}, >= {:g} x median, >= {} above it", ao.threshold,
                                 ao.min_ratio, FormatDuration(ao.min_excess_ns))
                   : fmt::format(": above the {:g}th percentile", ao.percentile));
    return;
  }
  const auto right = Table::Align::kRight;
  Table table({{"score", right},
               {"state"},
               {"where"},
               {"at", right},
               {"duration", right},
               {"median", right},
               {"x median", right},
               {"callsite"}});
  for (size_t i = 0; i < shown; ++i) {
    const Anomaly& a = all[i];
    table.AddRow({fmt::format("{:.1f}", a.score), t.states[a.state].name, UnitText(t, a),
                  FormatDuration(a.begin_ns - t.begin_ns), FormatDuration(a.duration_ns),
                  FormatDuration(std::llround(a.median_ns)),
                  a.median_ns > 0
                      ? fmt::format("{:.1f}", static_cast<double>(a.duration_ns) / a.median_ns)
                      : "-",
                  CallsiteText(t, a.callsite, "")});
  }
  fmt::print("{} {} ({} method; at = time since the trace began)\n{}", all.size(),
             all.size() == 1 ? "anomaly" : "anomalies", analysis::AnomalyMethodName(ao.method),
             table.Render());
  if (shown < all.size()) fmt::print("  ({} more not shown)\n", all.size() - shown);
}

ordered_json Json(const model::Trace& t, const analysis::AnomalyOptions& ao,
                  const std::vector<Anomaly>& all, size_t shown) {
  ordered_json j;
  j["method"] = analysis::AnomalyMethodName(ao.method);
  if (ao.method == analysis::AnomalyMethod::kRobust) {
    j["threshold"] = ao.threshold;
    j["min_ratio"] = ao.min_ratio;
    j["min_excess_ns"] = ao.min_excess_ns;
  } else {
    j["percentile"] = ao.percentile;
  }
  j["min_samples"] = ao.min_samples;
  j["total"] = all.size();
  ordered_json rows = ordered_json::array();
  for (size_t i = 0; i < shown; ++i)
    rows.push_back(AnomalyJson(t, all[i]));
  j["anomalies"] = std::move(rows);
  return j;
}

void Print(const AnomaliesOptions& o, const model::Trace& trace, const analysis::AnomalyOptions& ao,
           const std::vector<Anomaly>& found);

Status RunAnomalies(const AnomaliesOptions& o, const GlobalOptions& global) {
  analysis::AnomalyOptions ao;
  ao.threshold = o.threshold;
  ao.min_ratio = o.min_ratio;
  ao.min_samples = o.min_samples;
  if (!ParseDuration(o.min_excess, &ao.min_excess_ns))
    return InvalidArgument("--min-excess: not a duration: " + o.min_excess);
  if (o.percentile >= 0) {
    if (o.percentile <= 0 || o.percentile >= 100)
      return InvalidArgument("--percentile: must be above 0 and below 100");
    ao.method = analysis::AnomalyMethod::kPercentile;
    ao.percentile = o.percentile;
  }
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  const auto find_state = [&](const model::Trace& trace) -> Status {
    if (o.state.empty()) return Status::Ok();
    for (uint32_t s = 0; s < trace.states.size() && ao.state == model::kNone; ++s)
      if (trace.states[s].name == o.state) ao.state = s;
    if (ao.state == model::kNone) return NotFound("no state named '" + o.state + "' in the trace");
    return Status::Ok();
  };
  if (global.group != nullptr) {
    // parallax-mpi: each process searches its share of the threads.
    PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
    PLX_RETURN_IF_ERROR(find_state(store->trace()));
    StatusOr<std::vector<Anomaly>> found = [&] {
      LoadProgress drawer(global.progress, "analysing");
      return distributed::SpreadAnomalies(*store, *global.group, ao, drawer.Callback());
    }();
    PLX_RETURN_IF_ERROR(found.status());
    if (global.group->rank() == 0) Print(o, store->trace(), ao, *found);
    return Status::Ok();
  }
  if (FitsInMemory(*file, global)) {
    PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(*file, global));
    PLX_RETURN_IF_ERROR(find_state(trace));
    Print(o, trace, ao, analysis::FindAnomalies(trace, ao));
    return Status::Ok();
  }
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
  PLX_RETURN_IF_ERROR(find_state(store->trace()));
  const std::vector<Anomaly> found = [&] {
    LoadProgress drawer(global.progress, "analysing");
    return store::StreamAnomalies(*store, ao, drawer.Callback());
  }();
  Print(o, store->trace(), ao, found);
  return Status::Ok();
}

void Print(const AnomaliesOptions& o, const model::Trace& trace, const analysis::AnomalyOptions& ao,
           const std::vector<Anomaly>& found) {
  const size_t shown = o.top > 0 ? std::min(o.top, found.size()) : found.size();
  if (o.json) {
    fmt::print(
        "{}\n",
        Json(trace, ao, found, shown).dump(2, ' ', false, ordered_json::error_handler_t::replace));
  } else {
    PrintText(trace, ao, found, shown);
  }
}

}  // namespace

Command AddAnomaliesCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<AnomaliesOptions>();
  CLI::App* app = parent.add_subcommand(
      "anomalies", "Slices far longer than usual for their state and call site");
  app->footer(
      "Robust method (default): per (state, call site) — call sites with fewer than\n"
      "--min-samples slices pooled per state — the median m and the MAD; sigma =\n"
      "max(1.4826 x MAD, 1% of m). A slice of duration d is flagged when\n"
      "(d - m) / sigma >= --threshold AND d >= --min-ratio x m AND d - m >= --min-excess,\n"
      "in groups of at least --min-samples slices. The defaults stay quiet on normal\n"
      "scheduling noise; a 5x slower iteration stands out.\n"
      "--percentile P instead flags every slice above the P-th percentile of its state\n"
      "(Jumpshot's cut-off: it always finds some). Unclosed slices are never judged.\n"
      "\n"
      "Examples:\n"
      "  parallax anomalies run.plx --top 10\n"
      "  parallax anomalies run.plx --state compute --threshold 4\n"
      "  parallax anomalies run.plx --percentile 99 --json");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print one JSON object instead of a table (see docs/cli.md)");
  app->add_option("--threshold", o->threshold, "Minimum robust z score (robust method)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app->add_option("--min-ratio", o->min_ratio, "Minimum duration / median (robust method)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app->add_option("--min-excess", o->min_excess,
                  "Minimum duration - median, e.g. 500us (robust method)")
      ->capture_default_str();
  app->add_option("--min-samples", o->min_samples, "Smallest group that is judged")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app->add_option("--percentile", o->percentile,
                  "Use the percentile method: flag slices above the P-th percentile of "
                  "their state")
      ->check(CLI::Range(0.0, 100.0));
  app->add_option("--state", o->state, "Only slices of the state with this name");
  app->add_option("--top", o->top, "Show only the N most anomalous (0 = all)")
      ->check(CLI::NonNegativeNumber);
  return {app, [o, &global] { return RunAnomalies(*o, global); }};
}

}  // namespace plx::cli
