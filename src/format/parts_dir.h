// Parts directories: the rank-<R>.plx files an MPI run leaves in
// <F>.parts/ (unmerged on request, or when it dies before rank 0 merged
// them) and the pid-<PID>.plx files of the other processes a traced run
// starts.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "format/merge.h"

namespace plx::format {

/// The rank-<R>.plx files of a parts directory, as inputs for process R,
/// sorted by rank, then the pid-<PID>.plx files (processes that are not MPI
/// ranks) by pid, numbered on from the last rank. Other entries are ignored;
/// none at all is an error.
StatusOr<std::vector<MergeInput>> ListParts(const std::string& dir);

/// What the rank parts of a directory (as ListParts gives them) lack: when a
/// part names MPI_COMM_WORLD's size (its members), one line naming the
/// ranks below it that have no rank-<R>.plx, whose processes the trace will
/// miss (a rank that died before creating its part, or a file lost since);
/// the caller names the directory. Empty when none is missing or no part
/// says the size (the first few are read).
std::vector<std::string> MissingRanks(const std::vector<MergeInput>& parts);

/// The trace a parts directory belongs to: "run.plx" for "run.plx.parts"
/// (trailing slashes ignored); "" when the name does not end in ".parts".
std::string TracePathOfParts(const std::string& dir);

}  // namespace plx::format
