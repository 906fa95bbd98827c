// The in-memory .plx image of a live trace's window: file header, every DEFS
// chunk, the kept EVENTS chunks and the stream anchors, each chunk's process
// number set as format/merge.cc sets it for part files, then an index. The
// image loads with format::TraceFile::FromBytes like any finished file.
#pragma once

#include <cstdint>
#include <vector>

#include "server/live/live_window.h"

namespace plx::server::live {

inline constexpr uint32_t kNoProcess = 0xffffffffu;

/// Builds the image; `process_of[connection]` is the process number of that
/// connection's chunks (kNoProcess: leave them out).
std::vector<uint8_t> BuildImage(const SnapshotInput& input,
                                const std::vector<uint32_t>& process_of);

}  // namespace plx::server::live
