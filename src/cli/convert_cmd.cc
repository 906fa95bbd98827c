// `parallax convert IN OUT`: a trace from one format to another (OTF2, Chrome
// JSON, Paje, PICL, CSV, .plx), formats by extension or --from/--to, with
// progress per step and the importer's counters of what it skipped.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <memory>
#include <optional>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "interop/convert.h"

namespace plx::cli {

namespace {

struct ConvertCmdOptions {
  std::string in;
  std::string out;
  std::string from;
  std::string to;
  bool force = false;
};

std::string FormatList() {
  std::string s;
  for (const interop::FormatInfo& f : interop::Formats()) {
    std::string ways = f.can_read && f.can_write ? "read, write" : f.can_read ? "read" : "write";
    s += fmt::format("  {:<6} {:<16} {} ({})\n", f.name, f.extensions, f.title, ways);
  }
  return s;
}

Status RunConvert(const ConvertCmdOptions& o, const GlobalOptions& global) {
  interop::ConvertOptions options;
  options.force = o.force;
  if (!o.from.empty()) {
    auto f = interop::FormatNamed(o.from);
    if (!f.ok()) throw CLI::ValidationError("--from", f.status().message());
    options.from = *f;
  }
  if (!o.to.empty()) {
    auto f = interop::FormatNamed(o.to);
    if (!f.ok()) throw CLI::ValidationError("--to", f.status().message());
    options.to = *f;
  }
  PipelineProgress progress(global.progress);
  options.progress = [&](std::string_view step, uint64_t done, uint64_t total) {
    progress.Update(step, done, total);
  };
  const auto start = std::chrono::steady_clock::now();
  auto result = interop::Convert(o.in, o.out, options);
  progress.End();
  if (!result.ok()) return result.status();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("wrote {} ({}): {} events from {} ({}) in {:.2f} s\n", o.out,
             interop::InfoOf(result->to).name, FormatCount(result->events), o.in,
             interop::InfoOf(result->from).name, seconds);
  if (!result->stats.empty()) {
    fmt::print("the importer skipped or repaired:\n");
    for (const auto& [name, count] : result->stats) {
      fmt::print("  {:<32} {}\n", name, FormatCount(count));
    }
  }
  return Status::Ok();
}

}  // namespace

Command AddConvertCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<ConvertCmdOptions>();
  CLI::App* app = parent.add_subcommand("convert", "Convert a trace to or from another format");
  app->footer(
      "Formats are told by the file names' extensions, or given with --from and --to:\n" +
      FormatList() +
      "An OTF2 input may also be a Score-P experiment directory (holding traces.otf2).\n"
      "A .csv output is three files: NAME.states.csv, NAME.messages.csv, NAME.counters.csv.\n"
      "A .json.gz output is gzip-compressed. An output that exists is an error (naming it)\n"
      "unless --force is given. An empty input is an error.\n"
      "Input problems stop the conversion with the file, line or byte offset and the field;\n"
      "a .plx output keeps the events read before the problem. What the importer skipped or\n"
      "repaired is counted and listed (see docs/interop.md for each format's mapping).\n"
      "\n"
      "Examples:\n"
      "  parallax convert scorep-run/traces.otf2 run.plx\n"
      "  parallax convert run.plx run.json        # open in ui.perfetto.dev\n"
      "  parallax convert run.plx run.paje        # open in ViTE\n"
      "  parallax convert trace.txt run.plx --from picl");
  app->add_option("IN", o->in, "The trace to read")->required();
  app->add_option("OUT", o->out, "The file to write")->required();
  app->add_option("--from", o->from, "Format of IN (plx, otf2, json, paje, picl)");
  app->add_option("--to", o->to, "Format of OUT (plx, otf2, json, paje, picl, csv)");
  app->add_flag("--force", o->force, "Overwrite OUT if it exists (all of its files)");
  return {app, [o, &global] { return RunConvert(*o, global); }};
}

}  // namespace plx::cli
