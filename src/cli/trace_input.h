// Opening a trace for a subcommand: the file (its problems printed as
// warnings) and, when a command needs it, the model loaded with progress.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"
#include "cli/command.h"
#include "format/trace_file.h"
#include "model/load_trace.h"
#include "store/trace_store.h"

namespace plx::cli {

/// Opens a .plx file, or a parts directory as the trace its parts make
/// (store/parts_trace.h: merged once into a copy kept where --index-dir
/// says, with progress as --progress asks); prints each problem the reader
/// or the merge met as a warning.
StatusOr<std::unique_ptr<format::TraceFile>> OpenTrace(const std::string& path,
                                                       const GlobalOptions& global);

/// Loads the model on the workers of --threads, with progress as --progress
/// asks; prints the loader's own problems (beyond the file's) as warnings.
/// `events` false loads definitions only.
StatusOr<model::Trace> LoadModel(const format::TraceFile& file, const GlobalOptions& global,
                                 bool events = true);

/// Whether the command may load the whole model: its estimated size (about
/// 100 bytes per record, the model and an analysis's working data) is
/// within --memory. Else it works through the trace store (docs/memory.md).
bool FitsInMemory(const format::TraceFile& file, const GlobalOptions& global);
/// The most records a trace may have to be loaded whole under --memory.
uint64_t MaxRecordsInMemory(const GlobalOptions& global);

/// Opens the trace store of `file` on the workers of --threads: reads the
/// trace's index, or builds it with progress and keeps it (--index-dir,
/// --no-index); index problems are warnings.
StatusOr<std::unique_ptr<store::TraceStore>> OpenStore(const format::TraceFile& file,
                                                       const GlobalOptions& global);

}  // namespace plx::cli
