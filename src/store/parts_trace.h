// A parts directory opened as a trace. Its parts (format/parts_dir.h) are
// merged once, whole chunks copied (format/merge.h), into a .plx kept where
// derived files go (store/index_location.h: --index-dir, else the user's
// cache directory), its index beside it. A list of the parts (name, process,
// size, modification time) is kept with the copy; when a part changes,
// comes or goes, the copy is merged again. The user's files are never
// written.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "store/index_location.h"

namespace plx::store {

/// Whether `path` is a directory (a trace file is not).
bool IsPartsDirectory(const std::string& path);

struct PartsTrace {
  std::string path;                   // the merged copy, to open as the trace
  bool merged = false;                // merged now (false: the kept copy reused)
  std::vector<std::string> problems;  // the merge's, one line each (kept too)
};

/// The merged copy of the parts directory `dir`: reused when its list of
/// parts is still theirs, else merged now with `progress(done, total)` in
/// input bytes. An error names the directory and why (no parts in it, no
/// place to keep the copy, a full disk).
StatusOr<PartsTrace> MergedParts(const std::string& dir, const IndexSettings& settings,
                                 const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::store
