// Where a trace's index lives: beside the trace (TRACE.plx -> TRACE.plxi),
// or, where that directory cannot be written, in the user's cache directory
// ($XDG_CACHE_HOME/parallax, else ~/.cache/parallax), or in the directory
// --index-dir / PLX_INDEX_DIR names. The user's trace is never modified.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/mapped_file.h"
#include "base/status.h"

namespace plx::store {

struct IndexSettings {
  bool enabled = true;  // false: neither read nor write an index
  std::string dir;      // where indexes go; empty: beside the trace, else the cache
};

/// The index paths for the trace at `trace_path`, most preferred first.
std::vector<std::string> IndexPaths(const std::string& trace_path, const IndexSettings& settings);

/// Where a file derived from the trace at `path` (a parts directory's
/// merged copy) is kept: the directory of --index-dir or PLX_INDEX_DIR, else
/// the user's cache directory, never beside the user's files; named by a
/// hash of the absolute path, the path's name and `suffix`. Empty when no
/// such directory is known. Unlike IndexPaths, `settings.enabled` is not
/// asked: without the copy there is no trace.
std::vector<std::string> DerivedPaths(const std::string& path, const IndexSettings& settings,
                                      const std::string& suffix);

/// Writes `bytes` to the first of `paths` that takes them (a temporary file
/// renamed into place, so readers never see half an index). The path
/// written, or an error naming why none could be (disk full, not writable).
StatusOr<std::string> WriteIndexFile(const std::vector<std::string>& paths,
                                     std::span<const uint8_t> bytes);

/// The file at `path`, mapped (an index of hundreds of MB is not copied);
/// NotFound when there is none.
StatusOr<std::unique_ptr<MappedFile>> ReadIndexFile(const std::string& path);

}  // namespace plx::store
