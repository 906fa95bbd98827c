// Merging .plx files of one process each (the per-rank "parts" an MPI run
// writes) into one trace: whole chunks are copied as they are, only the
// process number in their headers changes; a new index ends the file.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace plx::format {

struct MergeInput {
  std::string path;
  uint32_t process = 0;  // the process number its chunks get in the merged file
};

struct MergeResult {
  uint64_t chunks = 0;  // chunks copied (the new INDEX chunk not counted)
  uint64_t bytes = 0;   // size of the merged file
  /// One line each, naming the input: damaged or cut-short inputs, chunks left out.
  std::vector<std::string> problems;
};

/// Writes `output` (through a temporary file in its directory, renamed over
/// it at the end) from the whole, valid DEFS, EVENTS and unknown-type chunks
/// of each input in turn. An input must hold at most one process number and
/// no two inputs may get the same one; damaged or truncated inputs give what
/// they have and a line in `problems`. `progress(done, total)` counts input
/// bytes. Throws nothing, keeps no global state and prints nothing, so an MPI
/// tracing library may call it.
StatusOr<MergeResult> MergeTraceFiles(
    std::span<const MergeInput> inputs, const std::string& output,
    const std::function<void(uint64_t done, uint64_t total)>& progress = {});

}  // namespace plx::format
