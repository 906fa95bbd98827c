// Opening a trace for a subcommand: the file (its problems printed as
// warnings) and, when a command needs it, the model loaded with progress.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"
#include "cli/command.h"
#include "format/trace_file.h"
#include "model/load_trace.h"

namespace plx::cli {

/// Opens a .plx file; prints each problem the reader met as a warning.
StatusOr<std::unique_ptr<format::TraceFile>> OpenTrace(const std::string& path);

/// Loads the model on the workers of --threads, with progress as --progress
/// asks; prints the loader's own problems (beyond the file's) as warnings.
/// `events` false loads definitions only.
StatusOr<model::Trace> LoadModel(const format::TraceFile& file, const GlobalOptions& global,
                                 bool events = true);

}  // namespace plx::cli
