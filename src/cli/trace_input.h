// Opening a trace for a subcommand: the file (its problems printed as
// warnings) and, when a command needs it, the model loaded with progress.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "cli/command.h"
#include "format/trace_file.h"
#include "model/load_trace.h"
#include "store/index_location.h"
#include "store/trace_store.h"

namespace plx::cli {

/// What a trace the user names is read from: a .plx file as it is; a parts
/// directory's parts merged, or a file of another format `convert` reads
/// (an OTF2 archive's anchor or directory, Chrome JSON, Paje, PICL)
/// imported, into a copy kept for the next open (store/derived_trace.h).
/// `progress(step, done, total)` while it is made: "merging the parts" in
/// input bytes, or `convert`'s steps.
struct ResolvedTrace {
  std::string path;
  std::vector<std::string> problems;  // met making the copy, one line each
};
StatusOr<ResolvedTrace> ResolveTrace(
    const std::string& path, const store::IndexSettings& settings,
    const std::function<void(std::string_view step, uint64_t done, uint64_t total)>& progress);

/// Opens the trace at `path` (ResolveTrace, with progress as --progress
/// asks; copies kept where --index-dir says); prints each problem the
/// reader or the copy met as a warning.
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
