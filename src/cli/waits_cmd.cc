// `parallax waits FILE`: MPI wait states (analysis/wait_states) — late
// senders, late receivers, waiting in collectives — in total, per process and
// per call site, and the deadlocks and calls still blocked at the trace's end
// (analysis/deadlock).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/deadlock.h"
#include "analysis/wait_states.h"
#include "base/strings.h"
#include "cli/analysis_json.h"
#include "cli/command.h"
#include "cli/model_text.h"
#include "cli/progress.h"
#include "cli/table.h"
#include "cli/trace_input.h"
#include "distributed/group.h"
#include "distributed/spread_waits.h"
#include "store/stream_waits.h"

namespace plx::cli {

namespace {

using analysis::BlockedCall;
using analysis::DeadlockReport;
using analysis::WaitStatesReport;
using analysis::WaitTotals;
using nlohmann::ordered_json;

struct WaitsOptions {
  std::string path;
  bool json = false;
  size_t top = 10;  // call sites shown; 0 = all
};

std::string CallsiteName(const model::Trace& t, uint32_t callsite) {
  if (callsite >= t.callsites.size()) return "";
  const model::Callsite& c = t.callsites[callsite];
  return fmt::format("{}:{}", c.file, c.line);
}

// "?" when nobody is known.
std::string Ranks(const std::vector<int64_t>& ranks) {
  return ranks.empty() ? "?" : RankList(ranks, ",");
}

std::string DescribeCall(const model::Trace& t, const BlockedCall& b) {
  std::string s = fmt::format("rank {} stream {}: {} since {}, waits for rank {}", b.rank,
                              t.threads[b.thread].file_stream, t.states[b.state].name,
                              FormatDuration(b.since_ns - t.begin_ns), Ranks(b.waits_for));
  if (b.comm != model::kNone) s += fmt::format(" on {}", t.communicators[b.comm].name);
  if (b.tag >= 0) s += fmt::format(" tag {}", b.tag);
  return s;
}

void PrintText(const model::Trace& t, const WaitsOptions& o, const WaitStatesReport& w,
               const DeadlockReport& d) {
  fmt::print("wait states ({} waits): total {}\n", FormatCount(w.all.count),
             FormatDuration(w.all.total_ns()));
  fmt::print("  late sender    {}\n  late receiver  {}\n  collective     {}\n",
             FormatDuration(w.all.late_sender_ns), FormatDuration(w.all.late_receiver_ns),
             FormatDuration(w.all.collective_ns));
  const auto right = Table::Align::kRight;
  Table processes({{"process"},
                   {"rank", right},
                   {"late sender", right},
                   {"late receiver", right},
                   {"collective", right},
                   {"total", right}});
  for (size_t i = 0; i < t.processes.size(); ++i) {
    const WaitTotals& x = w.processes[i];
    processes.AddRow({std::to_string(t.processes[i].file_id), std::to_string(t.processes[i].rank),
                      FormatDuration(x.late_sender_ns), FormatDuration(x.late_receiver_ns),
                      FormatDuration(x.collective_ns), FormatDuration(x.total_ns())});
  }
  fmt::print("\nper process\n{}", processes.Render());
  fmt::print("\ncall sites with most waiting\n");
  if (w.callsites.empty()) fmt::print("  (none)\n");
  Table calls({{"call"},
               {"site"},
               {"waits", right},
               {"late sender", right},
               {"late receiver", right},
               {"collective", right},
               {"total", right}});
  for (size_t i = 0; i < w.callsites.size() && (o.top == 0 || i < o.top); ++i) {
    const analysis::CallsiteWaits& c = w.callsites[i];
    calls.AddRow({t.states[c.state].name, CallsiteName(t, c.callsite), FormatCount(c.totals.count),
                  FormatDuration(c.totals.late_sender_ns),
                  FormatDuration(c.totals.late_receiver_ns), FormatDuration(c.totals.collective_ns),
                  FormatDuration(c.totals.total_ns())});
  }
  if (calls.rows() > 0) fmt::print("{}", calls.Render());
  if (d.blocked.empty()) return;
  fmt::print("\n{} deadlock(s), {} blocked call(s) at the end of the trace\n", d.deadlocks.size(),
             d.blocked.size());
  for (const analysis::Deadlock& x : d.deadlocks) {
    fmt::print("  deadlock of ranks {}\n", Ranks(x.ranks));
    for (uint32_t c : x.calls)
      fmt::print("    {}\n", DescribeCall(t, d.blocked[c]));
  }
  if (!d.not_in_cycle.empty()) fmt::print("  blocked, in no cycle\n");
  for (uint32_t c : d.not_in_cycle)
    fmt::print("    {}\n", DescribeCall(t, d.blocked[c]));
}

void Print(const model::Trace& trace, const WaitsOptions& o, const WaitStatesReport& waits,
           const DeadlockReport& deadlocks) {
  if (o.json) {
    fmt::print("{}\n", WaitsJson(trace, waits, deadlocks, o.top)
                           .dump(2, ' ', false, ordered_json::error_handler_t::replace));
  } else {
    PrintText(trace, o, waits, deadlocks);
  }
}

Status RunWaits(const WaitsOptions& o, const GlobalOptions& global) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  if (global.group != nullptr) {
    // parallax-mpi: each process settles its share of the threads.
    PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
    StatusOr<store::StreamedWaits> w = [&] {
      LoadProgress drawer(global.progress, "analysing");
      return distributed::SpreadWaits(*store, *global.group, drawer.Callback());
    }();
    PLX_RETURN_IF_ERROR(w.status());
    if (global.group->rank() == 0) Print(store->trace(), o, w->waits, w->deadlocks);
    return Status::Ok();
  }
  if (FitsInMemory(*file, global)) {
    PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(*file, global));
    Print(trace, o, analysis::ComputeWaitStates(trace), analysis::DetectDeadlocks(trace));
    return Status::Ok();
  }
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
  const store::StreamedWaits w = [&] {
    LoadProgress drawer(global.progress, "analysing");
    return store::StreamWaits(*store, /*wait_ends=*/false, drawer.Callback());
  }();
  Print(store->trace(), o, w.waits, w.deadlocks);
  return Status::Ok();
}

}  // namespace

Command AddWaitsCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<WaitsOptions>();
  CLI::App* app = parent.add_subcommand(
      "waits", "MPI wait states (late sender, late receiver, collectives) and deadlocks");
  app->footer(
      "late sender: a blocking receive (MPI_Recv, MPI_Wait, ...) began before the matching\n"
      "  send's call; it waited until that began (or until it returned).\n"
      "late receiver: a blocking send (MPI_Send, MPI_Ssend, MPI_Sendrecv) was held until\n"
      "  the receive was posted.\n"
      "collective: time in a collective before the last member arrived (barrier, all-to-all\n"
      "  kinds), before the root arrived (bcast, scatter), or, at the root, before the last\n"
      "  other member arrived (gather, reduce).\n"
      "Deadlocks: MPI calls still open when the trace ended, what each waits for, and the\n"
      "cycles of ranks waiting for each other.\n"
      "\n"
      "Examples:\n"
      "  parallax waits run.plx\n"
      "  parallax waits run.plx --top 20\n"
      "  parallax waits run.plx --json");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print one JSON object instead of tables (see docs/cli.md)");
  app->add_option("--top", o->top, "Show the N call sites with most waiting (0 = all)")
      ->check(CLI::NonNegativeNumber)
      ->default_str("10");
  return {app, [o, &global] { return RunWaits(*o, global); }};
}

}  // namespace plx::cli
