// BuildTile: the binary answer of /api/v1/traces/{id}/tile — drawing
// primitives for some rows over [from, to] at a pixel width, at most a few per
// pixel per row and depth, read from a TimelineIndex.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "server/api.gen.h"
#include "server/timeline/timeline_index.h"

namespace plx::server {

struct TileRequest {
  std::vector<uint32_t> rows;  // thread indices
  double from = 0, to = 0;     // trace time: ns since Trace::begin_ns
  uint32_t width = 0;          // pixels, 1..16384
  bool arrows = true;
  std::vector<uint32_t> counters;  // indices into TimelineIndex::counter_tracks()
};

inline constexpr uint32_t kMaxTileWidth = 16384;

/// A tile's records, in the order they are sent.
struct TileRecords {
  std::vector<wire::TileSlice> slices;
  std::vector<wire::TileInstant> instants;
  std::vector<wire::TileArrow> arrows;
  std::vector<wire::TileCounterPoint> points;
};

/// Appends the tile of `request` with `records` (its header, then them).
void AppendTile(const TileRequest& request, const TileRecords& records, std::string* out);
/// The records of a tile BuildTile or AppendTile made.
TileRecords ReadTile(std::string_view tile);
/// InvalidArgument naming the field of `request` that is out of range for a
/// trace of `rows` rows and `tracks` counter tracks.
Status CheckTileRequest(const TileRequest& request, uint32_t rows, size_t tracks);

/// Appends the tile of `request` (TileHeader, then slices, instants, arrows,
/// counter points; spec/api.toml) to *out; InvalidArgument naming the field
/// for a bad request, and then *out is unchanged.
Status BuildTile(const TimelineIndex& index, const TileRequest& request, std::string* out);

}  // namespace plx::server
