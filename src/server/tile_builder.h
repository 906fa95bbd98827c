// BuildTile: the binary answer of /api/v1/traces/{id}/tile — drawing
// primitives for some rows over [from, to] at a pixel width, at most a few per
// pixel per row and depth, read from a TimelineIndex.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "server/timeline_index.h"

namespace plx::server {

struct TileRequest {
  std::vector<uint32_t> rows;  // thread indices
  double from = 0, to = 0;     // trace time: ns since Trace::begin_ns
  uint32_t width = 0;          // pixels, 1..16384
  bool arrows = true;
  std::vector<uint32_t> counters;  // indices into TimelineIndex::counter_tracks()
};

inline constexpr uint32_t kMaxTileWidth = 16384;

/// Appends the tile of `request` (TileHeader, then slices, instants, arrows,
/// counter points; spec/api.toml) to *out; InvalidArgument naming the field
/// for a bad request, and then *out is unchanged.
Status BuildTile(const TimelineIndex& index, const TileRequest& request, std::string* out);

}  // namespace plx::server
