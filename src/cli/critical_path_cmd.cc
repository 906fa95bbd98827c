// `parallax critical-path FILE`: the critical path (analysis/critical_path)
// through messages and collectives — its length, its time per state and per
// process, and its longest stretches on one thread.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/critical_path.h"
#include "base/strings.h"
#include "cli/analysis_json.h"
#include "cli/command.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/table.h"
#include "cli/trace_input.h"
#include "distributed/group.h"
#include "distributed/spread_critical_path.h"
#include "store/stream_critical_path.h"
#include "store/stream_waits.h"

namespace plx::cli {

namespace {

using analysis::CriticalPath;
using analysis::PathSegment;
using nlohmann::ordered_json;

struct PathOptions {
  std::string path;
  bool json = false;
  size_t top = 10;  // segments shown; 0 = all, in time order
};

double Share(int64_t ns, const CriticalPath& p) {
  return p.length_ns > 0 ? static_cast<double>(ns) / static_cast<double>(p.length_ns) : 0.0;
}

std::string StateName(const model::Trace& t, uint32_t state) {
  return state == model::kNone ? "(no state)" : t.states[state].name;
}

void PrintText(const model::Trace& t, const PathOptions& o, const CriticalPath& p) {
  fmt::print("critical path: {} in {} segment(s)\n", FormatDuration(p.length_ns),
             FormatCount(p.segments.size()));
  const auto right = Table::Align::kRight;
  Table states({{"state"}, {"time", right}, {"share", right}});
  for (const analysis::PathStateTime& s : p.states)
    states.AddRow({StateName(t, s.state), FormatDuration(s.ns), FormatShare(Share(s.ns, p))});
  fmt::print("\nper state\n{}", states.rows() ? states.Render() : "  (none)\n");
  Table processes({{"process"}, {"rank", right}, {"time", right}, {"share", right}});
  for (size_t i = 0; i < t.processes.size(); ++i)
    if (p.processes[i] > 0)
      processes.AddRow({std::to_string(t.processes[i].file_id), std::to_string(t.processes[i].rank),
                        FormatDuration(p.processes[i]), FormatShare(Share(p.processes[i], p))});
  fmt::print("\nper process\n{}", processes.rows() ? processes.Render() : "  (none)\n");
  Table segments({{"process"}, {"stream", right}, {"from", right}, {"to", right}, {"time", right}});
  for (const PathSegment& s : LongestSegments(p, o.top)) {
    const model::Thread& th = t.threads[s.thread];
    segments.AddRow({std::to_string(t.processes[th.process].file_id),
                     std::to_string(th.file_stream), FormatDuration(s.begin_ns - t.begin_ns),
                     FormatDuration(s.end_ns - t.begin_ns), FormatDuration(s.length_ns())});
  }
  fmt::print("\n{} (times from the trace's begin)\n{}",
             o.top == 0 ? "segments" : "longest segments",
             segments.rows() ? segments.Render() : "  (none)\n");
}

void Print(const model::Trace& trace, const PathOptions& o, const CriticalPath& path) {
  if (o.json) {
    fmt::print("{}\n", CriticalPathJson(trace, path, o.top)
                           .dump(2, ' ', false, ordered_json::error_handler_t::replace));
  } else {
    PrintText(trace, o, path);
  }
}

Status RunCriticalPath(const PathOptions& o, const GlobalOptions& global) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  if (global.group != nullptr) {
    // parallax-mpi: process 0 walks, each process sweeps its threads.
    PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
    StatusOr<CriticalPath> path = [&] {
      LoadProgress drawer(global.progress, "analysing");
      return distributed::SpreadCriticalPath(*store, *global.group, drawer.Callback());
    }();
    PLX_RETURN_IF_ERROR(path.status());
    if (global.group->rank() == 0) Print(store->trace(), o, *path);
    return Status::Ok();
  }
  if (FitsInMemory(*file, global)) {
    PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(*file, global));
    Print(trace, o, analysis::ComputeCriticalPath(trace, analysis::ComputeWaitStates(trace)));
    return Status::Ok();
  }
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
  const CriticalPath path = [&] {
    StepProgress steps(global.progress, "analysing", 2);
    steps.Step("wait states");
    const store::StreamedWaits w = store::StreamWaits(*store, /*wait_ends=*/true);
    steps.Step("critical path");
    return store::StreamCriticalPath(*store, w.ends);
  }();
  Print(store->trace(), o, path);
  return Status::Ok();
}

}  // namespace

Command AddCriticalPathCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<PathOptions>();
  CLI::App* app =
      parent.add_subcommand("critical-path",
                            "The chain of work through messages and collectives that the run's end "
                            "waited for");
  app->footer(
      "Walks back from the end of the thread that ends last. Where a thread waited (late\n"
      "sender, late receiver, collective; see `parallax waits`), the path jumps to the thread\n"
      "it waited for, at the moment the wait ended. Speeding up work off the path cannot\n"
      "shorten the run. Time per state counts the innermost state at each instant.\n"
      "\n"
      "Examples:\n"
      "  parallax critical-path run.plx\n"
      "  parallax critical-path run.plx --top 0 --json");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print one JSON object instead of tables (see docs/cli.md)");
  app->add_option("--top", o->top, "Show the N longest segments (0 = every segment, in time order)")
      ->check(CLI::NonNegativeNumber)
      ->default_str("10");
  return {app, [o, &global] { return RunCriticalPath(*o, global); }};
}

}  // namespace plx::cli
