// `parallax`: the command-line entry point, its subcommands and help;
// program.cc parses the command line and runs the chosen one.
#include <string>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "cli/program.h"

namespace {

constexpr char kDescription[] =
    "parallax - look into traces (.plx files) of parallel and distributed programs";

constexpr char kCommandList[] =
    "(commands: info, stats, dump, merge, convert, record, report, anomalies, matrix, waits, "
    "critical-path, check, serve, view, query, diff, cut, wrap, cc, c++, f90, mpicc, mpicxx, "
    "mpif90)";

constexpr char kFooter[] =
    "Global options go before or after the command: parallax stats run.plx --progress\n"
    "\n"
    "Examples:\n"
    "  parallax info run.plx              what the trace holds\n"
    "  parallax stats run.plx --top 10    the ten states with most total time\n"
    "  parallax dump run.plx --to 1ms     every record of the first millisecond\n"
    "  parallax record -- mpirun ./app    trace a run (MPI or not) into app.plx\n"
    "  parallax merge run.plx.parts       the trace from the parts of a crashed MPI run\n"
    "  parallax convert run.plx run.json  to Perfetto (also OTF2, Paje, PICL, CSV; and back)\n"
    "  parallax report run.plx            what stands out: imbalance, waits, anomalies, deadlocks\n"
    "  parallax anomalies run.plx         slices much longer than usual, worst first\n"
    "  parallax matrix run.plx            messages between processes (--rma: one-sided)\n"
    "  parallax waits run.plx             MPI wait states per rank, and deadlocks\n"
    "  parallax critical-path run.plx     what the run's end waited for, per state\n"
    "  parallax check run.plx             receives before their sends, and their repair\n"
    "  parallax view run.plx              the trace in the browser viewer (serve: several)\n"
    "  parallax query run.plx 'SQL'       SQL over slices, messages, waits (no SQL: a shell)\n"
    "  parallax diff a.plx b.plx          what changed between two runs, what matters first\n"
    "  parallax cut run.plx part.plx --from 1s --to 2s   a smaller trace of a window\n"
    "  parallax mpicc -o app app.c        build app to trace its functions (and MPI) when run\n"
    "\n"
    "Exit status: 0 success, 1 error (unreadable file, ...), 2 bad usage.\n"
    "Damaged or truncated files give warnings on stderr; what is readable is used.\n"
    "'parallax COMMAND --help' describes a command; docs/cli.md has the JSON schemas.";

}  // namespace

int main(int argc, char** argv) {
  plx::cli::Program program;
  program.name = "parallax";
  program.description = kDescription;
  program.command_list = kCommandList;
  program.footer = kFooter;
  program.commands = [](CLI::App& app, const plx::cli::GlobalOptions& global) {
    std::vector<plx::cli::Command> commands = {
        plx::cli::AddInfoCommand(app, global),         plx::cli::AddStatsCommand(app, global),
        plx::cli::AddDumpCommand(app, global),         plx::cli::AddMergeCommand(app, global),
        plx::cli::AddConvertCommand(app, global),      plx::cli::AddRecordCommand(app, global),
        plx::cli::AddReportCommand(app, global),       plx::cli::AddAnomaliesCommand(app, global),
        plx::cli::AddMatrixCommand(app, global),       plx::cli::AddWaitsCommand(app, global),
        plx::cli::AddCriticalPathCommand(app, global), plx::cli::AddCheckCommand(app, global),
        plx::cli::AddServeCommand(app, global),        plx::cli::AddViewCommand(app, global),
        plx::cli::AddQueryCommand(app, global),        plx::cli::AddDiffCommand(app, global),
        plx::cli::AddCutCommand(app, global),
    };
    for (plx::cli::Command& c : plx::cli::AddWrapCommands(app, global))
      commands.push_back(std::move(c));
    return commands;
  };
  plx::cli::GlobalOptions global;
  // `parallax cc -O2 -c x.c`: the compiler's words are not parallax options.
  std::vector<std::string> args(argv, argv + argc);
  plx::cli::SeparateCompilerArguments(&args);
  std::vector<char*> cargs;
  for (std::string& a : args)
    cargs.push_back(a.data());
  cargs.push_back(nullptr);
  return plx::cli::RunProgram(static_cast<int>(args.size()), cargs.data(), program, global);
}
