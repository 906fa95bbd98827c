// Replaying a finished .plx file as live streams: its chunks per process, in
// file order, with the process number a live stream carries (0), ready to be
// sent as CHUNK frames. For tests, the live benchmark and fuzz seeds.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "base/status.h"

namespace plx::server::live {

/// The whole DEFS and EVENTS chunks of `file` (a .plx image), grouped by
/// process number, each a CHUNK frame payload. Stops at the first damaged chunk
/// with an error naming its offset.
StatusOr<std::map<uint32_t, std::vector<std::vector<uint8_t>>>> ChunksByProcess(
    const std::vector<uint8_t>& file);

}  // namespace plx::server::live
