// Traces made from something that is not one .plx file, kept for the next
// open: a parts directory (its parts merged, whole chunks copied,
// format/merge.h), or a file of another format imported by the caller. The
// copy goes where derived files go (store/index_location.h: --index-dir,
// else the user's cache directory), its index beside it, with a list of the
// source's files (name, size, modification time) and the problems met
// making it. While the list holds the copy is reused; when a file changes,
// comes or goes it is made again. The user's files are never written.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "store/index_location.h"

namespace plx::store {

struct DerivedTrace {
  std::string path;                   // the copy, to open as the trace
  bool made = false;                  // made now (false: the kept copy reused)
  std::vector<std::string> problems;  // met making it, one line each (kept too)
};

/// Writes the trace made from the source at `out`; returns the problems met.
using MakeTrace = std::function<StatusOr<std::vector<std::string>>(const std::string& out)>;

/// The kept copy of the trace made from `source` (a path naming it), whose
/// content is `files`: reused when their list is unchanged, else made now by
/// `make`. An error names `source` and why (a file gone, no place to keep
/// the copy, the maker's error).
StatusOr<DerivedTrace> KeptTrace(const std::string& source, const std::vector<std::string>& files,
                                 const IndexSettings& settings, const MakeTrace& make);

/// Whether `path` is a directory (a trace file is not).
bool IsDirectory(const std::string& path);

/// The kept merge of the parts directory `dir` (format/parts_dir.h), with
/// `progress(done, total)` in input bytes when it is merged now.
StatusOr<DerivedTrace> MergedParts(const std::string& dir, const IndexSettings& settings,
                                   const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::store
