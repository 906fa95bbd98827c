// `parallax diff A B`: what changed from trace A to trace B (cli/diff.h),
// the significant changes first, as text or one JSON object.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/diff.h"
#include "cli/table.h"

namespace plx::cli {

namespace {

using diff::Change;
using diff::Kind;
using nlohmann::ordered_json;

struct DiffOptions {
  std::string a, b;
  bool json = false;
  bool all = false;
  double min_change_pct = 100 * diff::Thresholds{}.min_change;
  double min_impact_pct = 100 * diff::Thresholds{}.min_impact;
};

ordered_json SummaryJson(const diff::TraceNumbers& t) {
  ordered_json j;
  j["path"] = t.path;
  j["mpi"] = t.mpi;
  j["duration_ns"] = t.Duration();
  j["processes"] = t.procs.size();
  j["threads"] = t.threads.size();
  j["states"] = t.states.size();
  return j;
}

ordered_json Number(double v) {
  return std::isfinite(v) ? ordered_json(std::llround(v)) : ordered_json(nullptr);
}

// JSON has no infinity: null (as for a t without spread).
ordered_json Optional(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json ChangeJson(bool mpi, const Change& c) {
  ordered_json j;
  j["kind"] = diff::KindName(c.what.kind);
  j["label"] = diff::EntityLabel(mpi, c.what);
  const char* proc_field = mpi ? "rank" : "process";
  if (c.what.proc >= 0) j[proc_field] = c.what.proc;
  if (c.what.peer >= 0) j[mpi ? "peer_rank" : "peer_process"] = c.what.peer;
  if (c.what.thread >= 0) j["thread"] = c.what.thread;
  if (!c.what.name.empty()) j["name"] = c.what.name;
  if (!c.what.callsite.empty()) j["callsite"] = c.what.callsite;
  j["unit"] = c.what.kind == Kind::kMessages ? "messages"
              : c.what.kind == Kind::kBytes  ? "bytes"
                                             : "ns";
  j["a"] = Number(c.a.total);
  j["b"] = Number(c.b.total);
  j["delta"] = Number(c.delta);
  if (c.a.instances) {
    j["count_a"] = c.a.count;
    j["count_b"] = c.b.count;
    j["mean_a"] = c.a.Mean();
    j["mean_b"] = c.b.Mean();
    j["per_instance_ns"] = Number(c.per_instance_ns);
    j["count_ns"] = Number(c.count_ns);
    j["t"] = Optional(c.t);
  }
  j["part"] = c.part;
  j["relative"] = Optional(c.relative);
  j["impact_ns"] = Number(c.impact);
  j["significant"] = c.significant;
  j["why"] = c.why;
  return j;
}

void PrintJson(const diff::TraceNumbers& a, const diff::TraceNumbers& b,
               const diff::DiffResult& r) {
  ordered_json j;
  j["a"] = SummaryJson(a);
  j["b"] = SummaryJson(b);
  j["changes"] = ordered_json::array();
  for (const Change& c : r.changes)
    j["changes"].push_back(ChangeJson(a.mpi, c));
  j["unmatched"] = ordered_json::array();
  for (const diff::Unmatched& u : r.unmatched)
    j["unmatched"].push_back({{"what", u.what}, {"label", u.label}, {"in", std::string(1, u.in)}});
  fmt::print("{}\n", j.dump(2));
}

std::string Value(const Change& c, const diff::Measure& m) {
  if (c.what.kind == Kind::kMessages) return FormatCount(m.count);
  if (c.what.kind == Kind::kBytes) return FormatBytes(static_cast<uint64_t>(m.total));
  const std::string total = FormatDuration(std::llround(m.total));
  if (!m.instances || m.count == 0) return total;
  return total + StrFormat(" (%lld x ", static_cast<long long>(m.count)) +
         FormatDuration(std::llround(m.Mean())) + ")";
}

std::string Signed(double ns) {
  return (ns < 0 ? "-" : "+") + FormatDuration(std::llround(std::abs(ns)));
}

void PrintUnmatched(const diff::DiffResult& r) {
  if (r.unmatched.empty()) return;
  fmt::print("\nIn one trace only:\n");
  for (const diff::Unmatched& u : r.unmatched)
    fmt::print("  {} {} (only in {})\n", u.what, u.label, u.in == 'a' ? 'A' : 'B');
}

void PrintText(const diff::TraceNumbers& a, const diff::TraceNumbers& b, const diff::DiffResult& r,
               bool all) {
  for (const auto* t : {&a, &b})
    fmt::print("{}: {}  {} {}{}, {} thread{}, {}\n", t == &a ? 'A' : 'B', t->path, t->procs.size(),
               t->mpi ? "rank" : "process", t->procs.size() == 1 ? "" : (t->mpi ? "s" : "es"),
               t->threads.size(), t->threads.size() == 1 ? "" : "s", FormatDuration(t->Duration()));
  if (r.changes.empty()) {
    fmt::print("\nNo change.\n");
    PrintUnmatched(r);
    return;
  }
  const double run = static_cast<double>(std::max(a.Duration(), b.Duration()));
  Table table({{"impact", Table::Align::kRight},
               {"of run", Table::Align::kRight},
               {"what", Table::Align::kLeft},
               {"A", Table::Align::kRight},
               {"B", Table::Align::kRight},
               {"why", Table::Align::kLeft}});
  size_t significant = 0;
  for (const Change& c : r.changes) {
    significant += c.significant ? 1 : 0;
    if (!c.significant && !all) continue;
    const bool time = diff::IsTimeKind(c.what.kind);
    table.AddRow({time ? Signed(c.impact) : "",
                  time && run > 0 ? StrFormat("%+.1f%%", 100.0 * c.impact / run) : "",
                  diff::EntityLabel(a.mpi, c.what), Value(c, c.a), Value(c, c.b),
                  (c.significant ? "" : "noise: ") + c.why});
  }
  fmt::print("\n{} significant change{} of {}", significant, significant == 1 ? "" : "s",
             r.changes.size());
  fmt::print("{}\n", all || significant == r.changes.size()
                         ? ""
                         : "; the rest are within noise (--all lists them)");
  if (table.rows() > 0) fmt::print("{}", table.Render());
  PrintUnmatched(r);
}

Status RunDiff(const DiffOptions& o, const GlobalOptions& global) {
  PLX_ASSIGN_OR_RETURN(diff::TraceNumbers a, diff::Gather(o.a, global));
  PLX_ASSIGN_OR_RETURN(diff::TraceNumbers b, diff::Gather(o.b, global));
  diff::Thresholds th;
  th.min_change = o.min_change_pct / 100.0;
  th.min_impact = o.min_impact_pct / 100.0;
  PLX_ASSIGN_OR_RETURN(diff::DiffResult r, diff::Compare(a, b, th));
  if (o.json)
    PrintJson(a, b, r);
  else
    PrintText(a, b, r, o.all);
  return Status::Ok();
}

}  // namespace

Command AddDiffCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* app = parent.add_subcommand("diff", "What changed from one trace to another");
  app->footer(
      "Matches processes by MPI rank (else by process number), threads by their\n"
      "position in the process, states and call sites by name, and compares time per\n"
      "state, time outside any state (untraced work), call sites, wait states, the\n"
      "critical path, imbalance and messages. A change is significant when it is\n"
      "beyond the noise its instances show (Welch's t >= 4, or a count change beyond\n"
      "4 sqrt(n)), at least --min-change and at least --min-impact of the run;\n"
      "significant changes print first, by the time they cost (docs/diff.md).\n"
      "\n"
      "Examples:\n"
      "  parallax diff before.plx after.plx\n"
      "  parallax diff before.plx after.plx --all --min-impact 0.5\n"
      "  parallax diff before.plx after.plx --json");
  app->add_option("A", o->a, "The trace to compare from (.plx file or parts directory)")
      ->required();
  app->add_option("B", o->b, "The trace to compare to")->required();
  app->add_flag("--json", o->json, "Print one JSON object (docs/cli.md)");
  app->add_flag("--all", o->all, "List the changes within noise too");
  app->add_option("--min-change", o->min_change_pct,
                  "A significant change is at least PCT percent (default 50)")
      ->option_text("PCT")
      ->check(CLI::Range(0.0, 1e6));
  app->add_option("--min-impact", o->min_impact_pct,
                  "A significant change costs or saves at least PCT percent of the longer "
                  "trace (default 2)")
      ->option_text("PCT")
      ->check(CLI::Range(0.0, 100.0));
  return {app, [o, &global] { return RunDiff(*o, global); }};
}

}  // namespace plx::cli
