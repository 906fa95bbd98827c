// `parallax-mpi`: the commands whose passes spread over the processes of an
// MPI job (`mpirun -np N parallax-mpi stats run.plx`). Each process opens
// the trace and analyses its share of the threads; process 0 merges, prints
// what `parallax` prints, and shows progress and warnings; the others print
// only their own errors, prefixed with their process (docs/distributed.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/output.h"
#include "cli/program.h"
#include "distributed/mpi_group.h"

namespace {

constexpr char kDescription[] =
    "parallax-mpi - parallax's analyses spread over the processes of an MPI job";

constexpr char kCommandList[] =
    "(commands: stats, matrix, check, anomalies, waits, critical-path, report, serve)";

// Long enough for process 0 to merge a large parts directory and build its
// index while the others wait (docs/distributed.md).
constexpr double kStepTimeout = 900;

constexpr char kFooter[] =
    "Run under the MPI launcher; every process reads the trace (a .plx file or a\n"
    "parts directory), process 0 prints. The output is that of `parallax`. A process\n"
    "that waits for the others in a step longer than --step-timeout ends the job.\n"
    "\n"
    "Examples:\n"
    "  mpirun -np 4 parallax-mpi stats run.plx --json\n"
    "  mpirun -np 4 parallax-mpi matrix run.plx.parts --metric bytes\n"
    "  mpirun -np 4 parallax-mpi check run.plx --json\n"
    "  mpirun -np 4 parallax-mpi anomalies run.plx --top 20\n"
    "  mpirun -np 4 parallax-mpi waits run.plx --json\n"
    "  mpirun -np 4 parallax-mpi critical-path run.plx\n"
    "  mpirun -np 4 parallax-mpi report run.plx\n"
    "  mpirun -np 4 parallax-mpi serve run.plx --no-browser\n"
    "\n"
    "Exit status: 0 success, 1 error (on any process), 2 bad usage.";

}  // namespace

int main(int argc, char** argv) {
  plx::distributed::MpiGroup group(&argc, &argv);
  plx::cli::Program program;
  program.name = "parallax-mpi";
  program.description = kDescription;
  program.command_list = kCommandList;
  program.footer = kFooter;
  program.commands = [](CLI::App& app, const plx::cli::GlobalOptions& global) {
    return std::vector<plx::cli::Command>{
        plx::cli::AddStatsCommand(app, global),  plx::cli::AddMatrixCommand(app, global),
        plx::cli::AddCheckCommand(app, global),  plx::cli::AddAnomaliesCommand(app, global),
        plx::cli::AddWaitsCommand(app, global),  plx::cli::AddCriticalPathCommand(app, global),
        plx::cli::AddReportCommand(app, global), plx::cli::AddServeCommand(app, global)};
  };
  double step_timeout = kStepTimeout;
  program.options = [&step_timeout](CLI::App& app) {
    app.add_option("--step-timeout", step_timeout,
                   "Seconds a process waits for the others in a step (opening included) before "
                   "it ends the job; 0: no limit")
        ->check(CLI::Range(0.0, 1e9).description(""))
        ->type_name("SECONDS")
        ->capture_default_str();
  };
  // Only process 0 prints the answer, the help, progress and warnings.
  plx::cli::SetWarningProgram("parallax-mpi");
  const bool first = group.rank() == 0;
  program.parsed = [&group, &step_timeout, first](plx::cli::GlobalOptions& global) {
    group.set_step_timeout(step_timeout);
    if (!first) global.progress = false;
  };
  if (!first) {
    program.error_prefix = "process " + std::to_string(group.rank()) + ": ";
    plx::cli::DropWarnings();
    if (std::freopen("/dev/null", "w", stdout) == nullptr) return 1;
  }
  plx::cli::GlobalOptions global;
  global.group = &group;
  return plx::cli::RunProgram(argc, argv, program, global);
}
