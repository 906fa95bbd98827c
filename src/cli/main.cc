// `parallax`: the command-line entry point. Parses the command line with CLI11,
// runs the chosen subcommand, and maps outcomes to exit codes (0 ok, 1 error,
// 2 bad usage) with one-line messages on stderr.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "base/resources.h"
#include "cli/command.h"

#ifndef PLX_VERSION
#define PLX_VERSION "unknown"
#endif

namespace {

constexpr char kDescription[] =
    "parallax - look into traces (.plx files) of parallel and distributed programs";

constexpr char kCommandList[] =
    "(commands: info, stats, dump, merge, convert, record, report, anomalies, matrix, waits, "
    "critical-path, check, serve, view)";

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
    "\n"
    "Exit status: 0 success, 1 error (unreadable file, ...), 2 bad usage.\n"
    "Damaged or truncated files give warnings on stderr; what is readable is used.\n"
    "'parallax COMMAND --help' describes a command; docs/cli.md has the JSON schemas.";

// "parallax stats --help" when the error happened inside a subcommand.
std::string HelpHint(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands())
    return "parallax " + sub->get_name() + " --help";
  return "parallax --help";
}

int UsageError(const CLI::App& app, const std::string& message) {
  fmt::print(stderr, "parallax: error: {} (see '{}')\n", message, HelpHint(app));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(kDescription, "parallax");
  app.set_version_flag("--version", std::string("parallax ") + PLX_VERSION,
                       "Print the version and exit");
  app.require_subcommand(1);
  app.get_formatter()->column_width(24);
  app.fallthrough();  // `parallax stats x.plx --progress` reaches the global flag

  plx::cli::GlobalOptions global;
  app.add_flag("--progress", global.progress,
               "Always show load progress on stderr (else only on a terminal, after 0.5 s)");
  app.add_option("--threads", global.threads,
                 "Worker threads for loading and analysing (default: every core)")
      ->check(CLI::Range(1, 4096).description(""))
      ->type_name("N");
  app.add_option_function<std::string>(
         "--memory",
         [&global](const std::string& text) {
           plx::StatusOr<uint64_t> bytes = plx::ParseByteSize(text);
           if (!bytes.ok()) throw CLI::ValidationError("--memory", bytes.status().message());
           global.memory_bytes = *bytes;
         },
         "Memory budget, e.g. 4G (default: a quarter of RAM); larger traces are "
         "analysed from the file (docs/memory.md)")
      ->type_name("SIZE");
  app.add_option("--index-dir", global.index_dir,
                 "Where trace indexes go (default: beside the trace, else ~/.cache/parallax)")
      ->type_name("DIR");
  app.add_flag("--no-index", global.no_index, "Neither read nor write trace indexes");

  std::vector<plx::cli::Command> commands = {
      plx::cli::AddInfoCommand(app, global),         plx::cli::AddStatsCommand(app, global),
      plx::cli::AddDumpCommand(app, global),         plx::cli::AddMergeCommand(app, global),
      plx::cli::AddConvertCommand(app, global),      plx::cli::AddRecordCommand(app, global),
      plx::cli::AddReportCommand(app, global),       plx::cli::AddAnomaliesCommand(app, global),
      plx::cli::AddMatrixCommand(app, global),       plx::cli::AddWaitsCommand(app, global),
      plx::cli::AddCriticalPathCommand(app, global), plx::cli::AddCheckCommand(app, global),
      plx::cli::AddServeCommand(app, global),        plx::cli::AddViewCommand(app, global),
  };
  app.footer(kFooter);  // after the subcommands, which would inherit it

  // CLI11 would call an unknown command a missing one; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const plx::cli::Command& c : commands)
      known |= c.app->get_name() == argv[1];
    if (!known)
      return UsageError(app, fmt::format("unknown command '{}' {}", argv[1], kCommandList));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    if (app.get_subcommands().empty())
      return UsageError(app, fmt::format("no command given {}", kCommandList));
    return UsageError(app, e.what());
  } catch (const CLI::ExtrasError& e) {
    // `parallax record mpirun -np 4 ./app`: the command's options need a -- before it.
    const bool record = argc > 1 && std::string_view(argv[1]) == "record";
    return UsageError(app, std::string(e.what()) + (record ? "; put -- before COMMAND" : ""));
  } catch (const CLI::ParseError& e) {
    return UsageError(app, e.what());
  }

  for (plx::cli::Command& c : commands) {
    if (!c.app->parsed()) continue;
    try {
      plx::Status status = c.run();
      std::fflush(stdout);
      if (!status.ok()) {
        fmt::print(stderr, "parallax: error: {}\n", status.message());
        return 1;
      }
      return c.exit_code ? c.exit_code() : 0;
    } catch (const CLI::Error& e) {
      return UsageError(app, e.what());
    } catch (const std::exception& e) {
      fmt::print(stderr, "parallax: error: {}\n", e.what());
      return 1;
    }
  }
  return UsageError(app, fmt::format("no command given {}", kCommandList));
}
