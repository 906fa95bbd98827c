// The subcommands of `parallax`: each file *_cmd.cc adds one to the CLI11 app
// and returns what runs it. CLI11 itself is only included by those files.
#pragma once

#include <functional>

#include "base/status.h"

namespace CLI {
class App;
}

namespace plx::cli {

/// Options of the `parallax` command itself, shared by every subcommand.
struct GlobalOptions {
  bool progress = false;  // --progress: always show load progress
};

/// A subcommand: its CLI11 app (options bound to state the closure owns) and
/// the function that runs it once the command line is parsed. A Status error
/// is exit code 1; a CLI::Error thrown by run is bad usage (exit code 2).
struct Command {
  CLI::App* app = nullptr;
  std::function<Status()> run;
  /// The exit code after run succeeded; 0 when not set (`record` passes on its command's).
  std::function<int()> exit_code = nullptr;
};

/// `parallax info`: what a trace file holds.
Command AddInfoCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax stats`: per-state statistics.
Command AddStatsCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax dump`: records as text or JSON Lines.
Command AddDumpCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax merge`: one trace from per-process parts.
Command AddMergeCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax record`: runs a program or MPI job with tracing on.
Command AddRecordCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax anomalies`: slices far longer than usual for their state.
Command AddAnomaliesCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax matrix`: the communication (or RMA) matrix between processes.
Command AddMatrixCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax waits`: MPI wait states and deadlocks.
Command AddWaitsCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax critical-path`: the critical path through messages and collectives.
Command AddCriticalPathCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax check`: causality violations after clock correction, and their repair.
Command AddCheckCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax report`: every analysis on one page, findings first.
Command AddReportCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax convert`: a trace to or from another tool's format.
Command AddConvertCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax serve`: the HTTP + WebSocket server of the browser viewer.
Command AddServeCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax view`: serve one trace and open it in a browser.
Command AddViewCommand(CLI::App& parent, const GlobalOptions& global);

}  // namespace plx::cli
