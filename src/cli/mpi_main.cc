// `parallax-mpi`: the commands whose passes spread over the processes of an
// MPI job (`mpirun -np N parallax-mpi stats run.plx`). Each process opens
// the trace and analyses its share of the threads; process 0 merges, prints
// what `parallax` prints, and shows progress and warnings; the others print
// only their own errors, prefixed with their process (docs/distributed.md).
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

constexpr char kCommandList[] = "(commands: stats)";

constexpr char kFooter[] =
    "Run under the MPI launcher; every process reads the trace (a .plx file or a\n"
    "parts directory), process 0 prints. The output is that of `parallax`.\n"
    "\n"
    "Examples:\n"
    "  mpirun -np 4 parallax-mpi stats run.plx --json\n"
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
    return std::vector<plx::cli::Command>{plx::cli::AddStatsCommand(app, global)};
  };
  // Only process 0 prints the answer, the help, progress and warnings.
  const bool first = group.rank() == 0;
  if (!first) {
    program.error_prefix = "process " + std::to_string(group.rank()) + ": ";
    program.parsed = [](plx::cli::GlobalOptions& global) { global.progress = false; };
    plx::cli::DropWarnings();
    if (std::freopen("/dev/null", "w", stdout) == nullptr) return 1;
  }
  plx::cli::GlobalOptions global;
  global.group = &group;
  return plx::cli::RunProgram(argc, argv, program, global);
}
