// `parallax cut IN OUT [--from T] [--to T] [--processes LIST] [--states LIST]`:
// a smaller trace of a window, some processes and some states, written from
// the trace store in bounded memory (src/store/trace_cut.h; docs/cut.md).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "cli/selection_arg.h"
#include "cli/time_arg.h"
#include "cli/trace_input.h"
#include "store/trace_cut.h"

namespace plx::cli {

namespace {

struct CutArgs {
  std::string in, out;
  std::string from, to;
  std::string processes;
  std::string states;
};

std::vector<std::string> SplitNames(const std::string& text) {
  std::vector<std::string> names;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t comma = std::min(text.find(',', begin), text.size());
    if (comma > begin) names.push_back(text.substr(begin, comma - begin));
    begin = comma + 1;
  }
  return names;
}

Status RunCut(const CutArgs& a, const GlobalOptions& global) {
  store::CutOptions options;
  if (!a.from.empty()) ParseDuration(a.from, &options.from_ns);  // validated by the option's check
  if (!a.to.empty()) ParseDuration(a.to, &options.to_ns);
  if (options.to_ns < options.from_ns)
    return InvalidArgument(
        StrFormat("cut: --to %s is before --from %s", a.to.c_str(), a.from.c_str()));
  if (!a.processes.empty() && !ParseNumberList(a.processes, &options.processes))
    return InvalidArgument(StrFormat("cut: --processes '%s': want numbers and ranges, e.g. 0,2,5-7",
                                     a.processes.c_str()));
  options.states = SplitNames(a.states);
  std::error_code ec;
  if (std::filesystem::equivalent(a.in, a.out, ec))
    return InvalidArgument(
        StrFormat("cut: %s is the trace being cut; name another file", a.out.c_str()));
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<format::TraceFile> file, OpenTrace(a.in, global));
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<store::TraceStore> store, OpenStore(*file, global));
  PipelineProgress progress(global.progress);
  options.progress = [&](std::string_view step, uint64_t done, uint64_t total) {
    progress.Update(step, done, total);
  };
  auto cut = store::CutTrace(*store, a.out, options);
  progress.End();
  if (!cut.ok()) return cut.status();
  for (const std::string& line : cut->problems)
    fmt::print(stderr, "parallax: warning: {}\n", line);
  fmt::print(
      "{}: {} records of {} process(es) ({} read); {} slice(s) opened and {} closed at the "
      "cut; {} message record(s) crossing it and {} collective record(s) of operations cut "
      "in two left out\n",
      a.out, cut->records_written, cut->processes, cut->records_read, cut->slices_opened,
      cut->slices_closed, cut->messages_crossing, cut->collectives_dropped);
  return Status::Ok();
}

}  // namespace

Command AddCutCommand(CLI::App& parent, const GlobalOptions& global) {
  auto a = std::make_shared<CutArgs>();
  CLI::App* app = parent.add_subcommand("cut", "A smaller trace: a window, processes, states");
  app->footer(
      "Writes OUT, a valid .plx with the records of IN in the window [--from, --to]\n"
      "(times since IN's first record, as `dump` and `query` show them; both ends\n"
      "included) of the processes and states asked for. Every definition and the clock\n"
      "data are kept, so OUT's times correct as IN's did. Slices open at the window's\n"
      "start begin there, those open at its end end there, each marked by a\n"
      "parallax.cut instant; message records whose partner was cut away, posted\n"
      "receives whose receive was, and collectives cut in two are left out and counted\n"
      "(the attributes cut.* of each process, `parallax info`). Reads only the chunks\n"
      "over the window, plus one pass pairing messages when there are any\n"
      "(docs/cut.md).\n"
      "\n"
      "Examples:\n"
      "  parallax cut run.plx part.plx --from 1.5s --to 2.5s\n"
      "  parallax cut run.plx.parts small.plx --processes 0-3 --states MPI_Recv,MPI_Send");
  app->add_option("IN", a->in, "The trace (.plx, parts directory, or another format)")->required();
  app->add_option("OUT", a->out, "The .plx file to write")->required();
  app->add_option("--from", a->from, "Start this long after the trace begin (ns/us/ms/s)")
      ->check(DurationProblem);
  app->add_option("--to", a->to, "End at this time after the trace begin (inclusive)")
      ->check(DurationProblem);
  app->add_option("--processes", a->processes,
                  "Only these processes, by number as in `info` (e.g. 0,2,5-7)");
  app->add_option("--states", a->states, "Only these states' slices, comma-separated names");
  return {app, [a, &global] { return RunCut(*a, global); }};
}

}  // namespace plx::cli
