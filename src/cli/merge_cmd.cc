// `parallax merge [-o OUT] INPUT...`: one trace from the per-rank parts an MPI
// run left in <F>.parts/ (or from any one-process .plx files), through
// format::MergeTraceFiles.
#include <fmt/core.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <memory>

#include "cli/command.h"
#include "cli/output.h"
#include "cli/parts.h"

namespace plx::cli {

namespace {

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output;
};

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Status RunMerge(const MergeOptions& o, const GlobalOptions& global) {
  std::vector<format::MergeInput> inputs;
  std::string output = o.output;
  size_t dirs = 0;
  for (const std::string& in : o.inputs)
    dirs += IsDirectory(in);
  if (dirs > 0) {
    if (o.inputs.size() != 1)
      throw CLI::ValidationError("give either one parts directory or .plx files");
    if (output.empty()) output = format::TracePathOfParts(o.inputs[0]);
    if (output.empty())
      throw CLI::ValidationError("give -o OUT: the directory name does not end in .parts");
    PLX_ASSIGN_OR_RETURN(inputs, format::ListParts(o.inputs[0]));
    for (const std::string& line : format::MissingRanks(inputs))
      Warn(o.inputs[0] + ": " + line);
  } else {
    if (output.empty()) throw CLI::ValidationError("give -o OUT when merging files");
    inputs = NumberFiles(o.inputs);
  }
  PLX_ASSIGN_OR_RETURN(format::MergeResult result,
                       MergeWithProgress(inputs, output, global.progress));
  fmt::print("{}\n", MergeSummary(output, inputs.size(), result));
  return Status::Ok();
}

}  // namespace

Command AddMergeCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<MergeOptions>();
  CLI::App* app = parent.add_subcommand("merge", "Merge per-process traces into one file");
  app->footer(
      "INPUT is a parts directory (<F>.parts, which an MPI run leaves when it dies before\n"
      "rank 0 merged it): its rank-<R>.plx files become process R of F (or of -o OUT),\n"
      "its pid-<PID>.plx files (other processes) the next numbers, by pid.\n"
      "Or INPUT is one or more .plx files of one process each: they are numbered by the\n"
      "MPI rank they recorded when every file has a different one, else in the order given.\n"
      "Whole chunks are copied as they are; a damaged or cut-short input gives what is whole\n"
      "and a warning. OUT is replaced atomically.\n"
      "\n"
      "Examples:\n"
      "  parallax merge run.plx.parts         writes run.plx\n"
      "  parallax merge -o all.plx a.plx b.plx");
  app->add_option("INPUT", o->inputs, "A <F>.parts directory, or .plx files")->required();
  app->add_option("-o,--output", o->output,
                  "The merged trace (default for a parts directory: its name without .parts)");
  return {app, [o, &global] { return RunMerge(*o, global); }};
}

}  // namespace plx::cli
