// What `merge` and `record` merge: the parts directories of
// format/parts_dir.h, and plain .plx files numbered by the rank they
// recorded; the merge itself with warnings and a progress line.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "format/merge.h"
#include "format/parts_dir.h"

namespace plx::cli {

/// Numbers plain files: by the rank in each file's process definition when
/// every file has exactly one process, with a rank >= 0 that no other file
/// has; else by their order (0, 1, 2, ...).
std::vector<format::MergeInput> NumberFiles(const std::vector<std::string>& paths);

/// MergeTraceFiles with each problem printed as a warning and a progress
/// line on stderr (always with `always_progress`, else on a terminal after
/// half a second).
StatusOr<format::MergeResult> MergeWithProgress(const std::vector<format::MergeInput>& inputs,
                                                const std::string& output, bool always_progress);

/// "merged 4 processes into run.plx: 120 chunks, 1.2 MiB, no problems".
std::string MergeSummary(const std::string& output, size_t processes,
                         const format::MergeResult& result);

}  // namespace plx::cli
