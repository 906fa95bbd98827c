// The subcommands of `parallax`: each file *_cmd.cc adds one to the CLI11 app
// and returns what runs it. CLI11 itself is only included by those files.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/resources.h"
#include "base/status.h"
#include "base/thread_pool.h"

namespace CLI {
class App;
}

namespace plx::distributed {
class Group;
}

namespace plx::cli {

/// Options of the `parallax` command itself, shared by every subcommand.
struct GlobalOptions {
  bool progress = false;      // --progress: always show load progress
  size_t threads = 0;         // --threads: worker threads, 0 = every core
  uint64_t memory_bytes = 0;  // --memory: the engine's budget, 0 = a quarter of RAM
  std::string index_dir;      // --index-dir: where trace indexes go ("" = beside the trace)
  bool no_index = false;      // --no-index: neither read nor write trace indexes
  /// The processes of `parallax-mpi` (null in `parallax`): the commands
  /// that spread their passes over them do, and only process 0 prints.
  plx::distributed::Group* group = nullptr;

  Resources resources() const { return {threads, memory_bytes}; }
  /// The workers of --threads, made on first use.
  ThreadPool* pool() const {
    if (!pool_) pool_ = std::make_shared<ThreadPool>(resources().Threads());
    return pool_.get();
  }

 private:
  mutable std::shared_ptr<ThreadPool> pool_;
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
/// `parallax query`: SQL over a trace.
Command AddQueryCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax diff`: what changed between two traces.
Command AddDiffCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax cut`: a smaller trace of a window, processes and states.
Command AddCutCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax convert`: a trace to or from another tool's format.
Command AddConvertCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax serve`: the HTTP + WebSocket server of the browser viewer.
Command AddServeCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax view`: serve one trace and open it in a browser.
Command AddViewCommand(CLI::App& parent, const GlobalOptions& global);
/// `parallax wrap -- COMPILER ARGS...` and its shortcuts (`parallax cc`,
/// `mpicc`, ...): compiling and linking with function tracing built in.
std::vector<Command> AddWrapCommands(CLI::App& parent, const GlobalOptions& global);
/// Whether `word` is wrap or one of its shortcuts.
bool IsWrapCommand(std::string_view word);
/// In a command line `parallax wrap|cc|... [OPTIONS] ARGS...`, a -- after
/// wrap's own options, so every later word reaches the compiler as it is.
void SeparateCompilerArguments(std::vector<std::string>* args);

}  // namespace plx::cli
