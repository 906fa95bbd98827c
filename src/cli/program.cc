// RunProgram: the global options every command shares, then CLI11's parse
// and the chosen command's run, its outcome as an exit code.
#include "cli/program.h"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "base/resources.h"

#ifndef PLX_VERSION
#define PLX_VERSION "unknown"
#endif

namespace plx::cli {

namespace {

// "parallax stats --help" when the error happened inside a subcommand.
std::string HelpHint(const CLI::App& app, const Program& program) {
  for (const CLI::App* sub : app.get_subcommands())
    return program.name + " " + sub->get_name() + " --help";
  return program.name + " --help";
}

int UsageError(const CLI::App& app, const Program& program, const std::string& message) {
  fmt::print(stderr, "{}: {}error: {} (see '{}')\n", program.name, program.error_prefix, message,
             HelpHint(app, program));
  return 2;
}

void AddGlobalOptions(CLI::App& app, GlobalOptions& global) {
  app.add_flag("--progress", global.progress,
               "Always show load progress on stderr (else only on a terminal, after 0.5 s)");
  app.add_option("--threads", global.threads,
                 "Worker threads for loading and analysing (default: every core)")
      ->check(CLI::Range(1, 4096).description(""))
      ->type_name("N");
  app.add_option_function<std::string>(
         "--memory",
         [&global](const std::string& text) {
           StatusOr<uint64_t> bytes = ParseByteSize(text);
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
}

}  // namespace

int RunProgram(int argc, char** argv, const Program& program, GlobalOptions& global) {
  CLI::App app(program.description, program.name);
  app.set_version_flag("--version", program.name + " " + PLX_VERSION, "Print the version and exit");
  app.require_subcommand(1);
  app.get_formatter()->column_width(24);
  app.fallthrough();  // `parallax stats x.plx --progress` reaches the global flag
  AddGlobalOptions(app, global);
  if (program.options) program.options(app);
  std::vector<Command> commands = program.commands(app, global);
  app.footer(program.footer);  // after the subcommands, which would inherit it
  // CLI11 would call an unknown command a missing one; name it instead.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const Command& c : commands)
      known |= c.app->get_name() == argv[1];
    if (!known)
      return UsageError(app, program,
                        fmt::format("unknown command '{}' {}", argv[1], program.command_list));
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
      return UsageError(app, program, fmt::format("no command given {}", program.command_list));
    return UsageError(app, program, e.what());
  } catch (const CLI::ExtrasError& e) {
    // `parallax record mpirun -np 4 ./app`: the command's options need a -- before it.
    const bool record = argc > 1 && std::string_view(argv[1]) == "record";
    return UsageError(app, program,
                      std::string(e.what()) + (record ? "; put -- before COMMAND" : ""));
  } catch (const CLI::ParseError& e) {
    return UsageError(app, program, e.what());
  }

  if (program.parsed) program.parsed(global);
  for (Command& c : commands) {
    if (!c.app->parsed()) continue;
    try {
      Status status = c.run();
      std::fflush(stdout);
      if (!status.ok()) {
        fmt::print(stderr, "{}: {}error: {}\n", program.name, program.error_prefix,
                   status.message());
        return 1;
      }
      return c.exit_code ? c.exit_code() : 0;
    } catch (const CLI::Error& e) {
      return UsageError(app, program, e.what());
    } catch (const std::exception& e) {
      fmt::print(stderr, "{}: {}error: {}\n", program.name, program.error_prefix, e.what());
      return 1;
    }
  }
  return UsageError(app, program, fmt::format("no command given {}", program.command_list));
}

}  // namespace plx::cli
