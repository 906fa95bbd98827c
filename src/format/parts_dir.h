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

/// The trace a parts directory belongs to: "run.plx" for "run.plx.parts"
/// (trailing slashes ignored); "" when the name does not end in ".parts".
std::string TracePathOfParts(const std::string& dir);

}  // namespace plx::format
