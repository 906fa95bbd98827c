// `parallax check FILE`: causality after the loader's clock correction —
// receives before their sends, collective calls ending before another
// participant began — counted, repaired (time/causal_repair.h), recounted,
// with the biggest repairs and each process's clock correction.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/strings.h"
#include "cli/analysis_json.h"
#include "cli/command.h"
#include "cli/json_fields.h"
#include "cli/progress.h"
#include "cli/table.h"
#include "cli/time_arg.h"
#include "cli/trace_input.h"
#include "distributed/group.h"
#include "distributed/spread_repair.h"
#include "model/collective_ops.h"
#include "store/row_fetch.h"
#include "store/stream_repair.h"
#include "time/causal_repair.h"

namespace plx::cli {

namespace {

using nlohmann::ordered_json;
using time::CausalConstraints;
using time::RepairReport;

struct CheckOptions {
  std::string path;
  bool json = false;
  std::string min_latency = "100ns";
  double max_slope = 0.005;
  size_t repairs = 10;  // 0 = all
};

std::string OpName(uint8_t op) {
  return std::string(model::CollectiveOpName(op));
}

std::string RankText(int64_t rank) {
  return rank >= 0 ? fmt::format("{}", rank) : "-";
}

std::string Percent(double fraction) {
  return fmt::format("{:.3g} %", fraction * 100);
}

// The repairs shown: the largest shifts first, cut to --repairs.
size_t Shown(const CheckOptions& o, const RepairReport& r) {
  return o.repairs == 0 ? r.repairs.size() : std::min(o.repairs, r.repairs.size());
}

// What a shown repair's record says: the receive (and its sender's
// process) or the collective.
struct RepairRecord {
  const model::Process* from = nullptr;  // the sender's process (messages)
  uint32_t comm = model::kNone;
  int64_t tag = 0;
  uint64_t bytes = 0;
  uint8_t op = 0;
};

// From the model in memory.
std::vector<RepairRecord> Records(const model::Trace& t, const RepairReport& r, size_t shown) {
  std::vector<RepairRecord> out(shown);
  for (size_t i = 0; i < shown; ++i) {
    const time::Repair& x = r.repairs[i];
    RepairRecord& e = out[i];
    if (x.kind == CausalConstraints::Kind::kCollective) {
      e.op = t.collectives.op[x.row];
      e.comm = t.collectives.comm[x.row];
      continue;
    }
    const model::MessageTable& m = t.messages;
    if (x.send_row != model::kNone) e.from = &t.processes[t.threads[m.thread[x.send_row]].process];
    e.comm = m.comm[x.row];
    e.tag = m.tag[x.row];
    e.bytes = m.bytes[x.row];
  }
  return out;
}

// From the trace store: the rows decoded from the chunks that hold them.
std::vector<RepairRecord> Records(const store::TraceStore& st, const RepairReport& r,
                                  size_t shown) {
  const model::Trace& t = st.trace();
  std::vector<uint64_t> messages, sends, collectives;
  for (size_t i = 0; i < shown; ++i) {
    const time::Repair& x = r.repairs[i];
    const bool message = x.kind == CausalConstraints::Kind::kMessage;
    (message ? messages : collectives).push_back(x.row);
    sends.push_back(message && x.send_row != model::kNone ? x.send_row : UINT64_MAX);
  }
  const model::Trace m = store::FetchRows(st, store::kMessages, messages);
  const model::Trace s = store::FetchRows(st, store::kMessages, sends);
  const model::Trace c = store::FetchRows(st, store::kCollectives, collectives);
  std::vector<RepairRecord> out(shown);
  for (size_t i = 0, mi = 0, ci = 0; i < shown; ++i) {
    const time::Repair& x = r.repairs[i];
    RepairRecord& e = out[i];
    if (x.kind == CausalConstraints::Kind::kCollective) {
      e.op = c.collectives.op[ci];
      e.comm = c.collectives.comm[ci++];
      continue;
    }
    if (sends[i] != UINT64_MAX) e.from = &t.processes[t.threads[s.messages.thread[i]].process];
    e.comm = m.messages.comm[mi];
    e.tag = m.messages.tag[mi];
    e.bytes = m.messages.bytes[mi++];
  }
  return out;
}

std::string Cause(const model::Trace& t, const time::Repair& r, const RepairRecord& e) {
  if (r.kind == CausalConstraints::Kind::kCollective)
    return OpName(e.op) + " (the last other participant began later)";
  std::string s = "message";
  if (e.from != nullptr) {
    s += fmt::format(" from process {}", e.from->file_id);
    if (e.from->rank >= 0) s += fmt::format(" (rank {})", e.from->rank);
  }
  s += fmt::format(", tag {}, {} bytes", e.tag, e.bytes);
  if (e.comm < t.communicators.size()) s += ", " + t.communicators[e.comm].name;
  return s;
}

void PrintText(const model::Trace& t, const CheckOptions& o, const RepairReport& r,
               const std::vector<RepairRecord>& records, int64_t begin_ns) {
  // Messages: receives before their send; collectives: calls that ended
  // before another participant's call began.
  fmt::print("violations before repair  {} (messages {}, collective calls {})\n",
             r.violations_before, r.before.messages, r.before.collectives);
  fmt::print("violations after repair   {}\n", r.violations_after);
  fmt::print(
      "repair                    {} events moved, largest shift {}, slice durations "
      "changed by at most {} ({} over slices of 1 us or more)\n",
      FormatCount(r.events_moved), FormatDuration(r.max_shift_ns),
      FormatDuration(r.max_duration_change_ns), Percent(r.max_relative_change));
  if (!r.converged)
    fmt::print(
        "                          stopped early: constraints contradict each other "
        "(inconsistent message matching?)\n");

  if (!r.repairs.empty()) {
    const size_t shown = Shown(o, r);
    fmt::print("\nlargest repairs ({} of {}; time from the trace begin, before repair)\n", shown,
               r.repairs.size());
    const auto right = Table::Align::kRight;
    Table table({{"process", right},
                 {"rank", right},
                 {"stream", right},
                 {"time", right},
                 {"early by", right},
                 {"shift", right},
                 {"what"}});
    for (size_t i = 0; i < shown; ++i) {
      const time::Repair& x = r.repairs[i];
      const model::Thread& th = t.threads[x.thread];
      const model::Process& p = t.processes[th.process];
      table.AddRow({fmt::format("{}", p.file_id), RankText(p.rank),
                    fmt::format("{}", th.file_stream), FormatDuration(x.time_ns - begin_ns),
                    FormatDuration(x.violation_ns), FormatDuration(x.shift_ns),
                    Cause(t, x, records[i])});
    }
    fmt::print("{}", table.Render());
  }

  fmt::print(
      "\nclock correction per process (loader: offset + drift from clock_offset "
      "measurements; repair: largest shift)\n");
  const auto right = Table::Align::kRight;
  Table table({{"process", right},
               {"rank", right},
               {"measurements", right},
               {"offset", right},
               {"drift", right},
               {"repair", right}});
  std::vector<int64_t> shift(t.processes.size(), 0);
  for (size_t i = 0; i < t.threads.size() && i < r.thread_max_shift_ns.size(); ++i)
    shift[t.threads[i].process] = std::max(shift[t.threads[i].process], r.thread_max_shift_ns[i]);
  for (size_t i = 0; i < t.processes.size(); ++i) {
    const model::Process& p = t.processes[i];
    table.AddRow({fmt::format("{}", p.file_id), RankText(p.rank),
                  fmt::format("{}", p.clock_offsets.size()), FormatDuration(p.clock_offset_ns),
                  fmt::format("{:.3f} ppm", p.clock_drift_ppm), FormatDuration(shift[i])});
  }
  fmt::print("{}", table.Render());
}

ordered_json Json(const model::Trace& t, const CheckOptions& o, const RepairReport& r,
                  const std::vector<RepairRecord>& records, int64_t min_latency_ns,
                  int64_t begin_ns) {
  ordered_json j;
  j["file"] = o.path;
  j["min_latency_ns"] = min_latency_ns;
  j["max_slope"] = o.max_slope;
  j.update(RepairSummaryJson(r));
  ordered_json repairs = ordered_json::array();
  for (size_t i = 0; i < Shown(o, r); ++i) {
    const time::Repair& x = r.repairs[i];
    const model::Thread& th = t.threads[x.thread];
    ordered_json e = ThreadIdentity(t, th);
    e["rank"] = t.processes[th.process].rank;
    const bool message = x.kind == CausalConstraints::Kind::kMessage;
    e["kind"] = message ? "message" : "collective";
    e["time_ns"] = x.time_ns - begin_ns;
    e["violation_ns"] = x.violation_ns;
    e["shift_ns"] = x.shift_ns;
    const RepairRecord& d = records[i];
    if (message) {
      e["from_process"] = d.from ? ordered_json(d.from->file_id) : ordered_json(nullptr);
      e["from_rank"] = d.from ? ordered_json(d.from->rank) : ordered_json(nullptr);
      e["comm"] = d.comm < t.communicators.size() ? t.communicators[d.comm].name : "";
      e["tag"] = d.tag;
      e["bytes"] = d.bytes;
    } else {
      e["op"] = OpName(d.op);
      e["comm"] = d.comm < t.communicators.size() ? t.communicators[d.comm].name : "";
    }
    repairs.push_back(std::move(e));
  }
  j["repairs"] = std::move(repairs);
  std::vector<int64_t> shift(t.processes.size(), 0);
  for (size_t i = 0; i < t.threads.size() && i < r.thread_max_shift_ns.size(); ++i)
    shift[t.threads[i].process] = std::max(shift[t.threads[i].process], r.thread_max_shift_ns[i]);
  j["processes"] = ordered_json::array();
  for (size_t i = 0; i < t.processes.size(); ++i) {
    ordered_json e = ProcessIdentity(t.processes[i]);
    e.update(ProcessClock(t.processes[i]));
    e["repair_max_shift_ns"] = shift[i];
    j["processes"].push_back(std::move(e));
  }
  return j;
}

void Print(const model::Trace& t, const CheckOptions& o, const RepairReport& r,
           const std::vector<RepairRecord>& records, int64_t min_latency_ns, int64_t begin_ns) {
  if (o.json) {
    fmt::print("{}\n", Json(t, o, r, records, min_latency_ns, begin_ns)
                           .dump(2, ' ', false, ordered_json::error_handler_t::replace));
  } else {
    PrintText(t, o, r, records, begin_ns);
  }
}

// What applying the maps moved, into the report.
void AddMoved(const time::TimeMapStats& stats, RepairReport* r) {
  r->events_moved = stats.events_moved;
  r->max_shift_ns = stats.max_shift_ns;
  r->max_duration_change_ns = stats.max_duration_change_ns;
  r->max_relative_change = stats.max_relative_change;
}

bool Moves(const std::vector<time::ThreadTimeMap>& maps) {
  return std::any_of(maps.begin(), maps.end(),
                     [](const time::ThreadTimeMap& m) { return !m.is_identity(); });
}

// parallax-mpi: the repair's pairing and the measure of what it moved
// spread over the processes, the solver on process 0, which prints.
Status CheckOfGroup(const CheckOptions& o, const GlobalOptions& global,
                    const format::TraceFile& file, const time::RepairOptions& ro) {
  distributed::Group& group = *global.group;
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> st, OpenStore(file, global));
  StatusOr<store::StreamedRepair> repaired = [&] {
    StepProgress progress(global.progress, "checking", 2);
    progress.Step("causal repair");
    return distributed::SpreadRepair(*st, group, ro);
  }();
  PLX_ASSIGN_OR_RETURN(store::StreamedRepair r, std::move(repaired));
  // Process 0 has every map; the others only their threads'.
  if (!group.AllOk(!Moves(r.maps))) {
    PLX_ASSIGN_OR_RETURN(time::TimeMapStats stats,
                         distributed::SpreadTimeMapStats(*st, group, r.maps));
    AddMoved(stats, &r.report);
  }
  if (group.rank() != 0) return Status::Ok();
  Print(st->trace(), o, r.report, Records(*st, r.report, Shown(o, r.report)), ro.min_latency_ns,
        st->trace().begin_ns);
  return Status::Ok();
}

Status RunCheck(const CheckOptions& o, const GlobalOptions& global) {
  time::RepairOptions ro;
  if (!ParseDuration(o.min_latency, &ro.min_latency_ns))
    return InvalidArgument("--min-latency: '" + o.min_latency + "' is not a time");
  ro.max_slope = o.max_slope;
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(o.path, global));
  if (global.group != nullptr) return CheckOfGroup(o, global, *file, ro);
  if (FitsInMemory(*file, global)) {
    PLX_ASSIGN_OR_RETURN(model::Trace trace, LoadModel(*file, global));
    const int64_t begin_ns = trace.begin_ns;
    StatusOr<RepairReport> repaired = [&] {
      StepProgress progress(global.progress, "checking", 1);
      progress.Step("causal repair");
      return time::RepairCausality(&trace, ro);
    }();
    PLX_ASSIGN_OR_RETURN(RepairReport report, std::move(repaired));
    Print(trace, o, report, Records(trace, report, Shown(o, report)), ro.min_latency_ns, begin_ns);
    return Status::Ok();
  }
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> st, OpenStore(*file, global));
  StatusOr<store::StreamedRepair> repaired = [&] {
    StepProgress progress(global.progress, "checking", 2);
    progress.Step("causal repair");
    return store::StreamRepair(*st, ro);
  }();
  PLX_ASSIGN_OR_RETURN(store::StreamedRepair r, std::move(repaired));
  if (Moves(r.maps)) AddMoved(store::MeasureTimeMaps(*st, r.maps), &r.report);
  Print(st->trace(), o, r.report, Records(*st, r.report, Shown(o, r.report)), ro.min_latency_ns,
        st->trace().begin_ns);
  return Status::Ok();
}

}  // namespace

Command AddCheckCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* app = parent.add_subcommand(
      "check", "Causality violations left after clock correction, and their repair");
  app->footer(
      "Counts receives recorded before their send and collective calls (barrier, allreduce,\n"
      "bcast, ...) that ended before another participant's call began, after the loader's\n"
      "clock correction (offset and drift from the clock_offset measurements). Then repairs\n"
      "them as every other command that repairs does: each thread's times move by a smooth\n"
      "shift (at most --max-slope per ns), so a receive comes at least --min-latency after its\n"
      "send and the thread's order is kept; then counts again. Shows the largest repairs and\n"
      "each process's clock correction. Exit status 0 whenever the check ran, violations or not.\n"
      "\n"
      "Examples:\n"
      "  parallax check run.plx\n"
      "  parallax check run.plx --min-latency 1us --repairs 30\n"
      "  parallax check run.plx --json");
  app->add_option("FILE", o->path, "The .plx trace file")->required();
  app->add_flag("--json", o->json, "Print one JSON object instead of text (see docs/cli.md)");
  app->add_option("--min-latency", o->min_latency,
                  "Least time from a send to its receive between processes (ns, us, ms, s)")
      ->check(DurationProblem)
      ->default_str("100ns");
  app->add_option("--max-slope", o->max_slope,
                  "Largest change of any interval by the repair, as a fraction (0.005 = 0.5 %)")
      ->check(CLI::Range(1e-6, 0.5))
      ->default_str("0.005");
  app->add_option("--repairs", o->repairs, "Show the N largest repairs (0 = all)")
      ->check(CLI::NonNegativeNumber)
      ->default_str("10");
  return {app, [o, &global] { return RunCheck(*o, global); }};
}

}  // namespace plx::cli
