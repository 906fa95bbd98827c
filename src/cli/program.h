// The command line of `parallax` and of `parallax-mpi`: global options,
// the program's subcommands, parsing with CLI11, running the chosen one, and
// outcomes mapped to exit codes (0 ok, 1 error, 2 bad usage) with one-line
// messages on stderr.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/command.h"

namespace plx::cli {

struct Program {
  std::string name;          // "parallax"
  std::string description;   // the first line of --help
  std::string command_list;  // "(commands: info, stats, ...)"
  std::string footer;        // the end of --help
  /// Adds the program's subcommands to `app`.
  std::function<std::vector<Command>(CLI::App& app, const GlobalOptions& global)> commands;
  /// Adds options of this program alone to `app` (may be empty).
  std::function<void(CLI::App& app)> options;
  /// Called once the command line is parsed, before the command runs.
  std::function<void(GlobalOptions& global)> parsed;
  /// Put in front of error messages ("" for none): "process 3: ".
  std::string error_prefix;
};

/// Parses argv for `program` into `global` and runs the command; the exit code.
int RunProgram(int argc, char** argv, const Program& program, GlobalOptions& global);

}  // namespace plx::cli
