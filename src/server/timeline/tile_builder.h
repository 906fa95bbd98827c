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
  /// A process of a spread server (`parallax-mpi serve`) draws only its
  /// part of the tile: the rows `here` marks (by row; empty: every row),
  /// their counter tracks and the arrows of the channels they draw (below),
  /// and the long messages only with `long_arrows`. MergeTileParts puts
  /// the parts together into the tile drawn whole.
  std::vector<uint8_t> here;
  bool long_arrows = true;

  bool Here(uint32_t row) const { return here.empty() || (row < here.size() && here[row] != 0); }
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
/// ReadTile for bytes from elsewhere: false when they are not a whole tile.
bool ReadTileChecked(std::string_view tile, TileRecords* records);
/// InvalidArgument naming the field of `request` that is out of range for a
/// trace of `rows` rows and `tracks` counter tracks.
Status CheckTileRequest(const TileRequest& request, uint32_t rows, size_t tracks);

/// Appends the tile of `request` (TileHeader, then slices, instants, arrows,
/// counter points; spec/api.toml) to *out; InvalidArgument naming the field
/// for a bad request, and then *out is unchanged. Slices and instants come
/// row by row in the request's order (a row asked twice is drawn once),
/// counter points track by track in the request's order; the arrows of
/// each channel come with the row that draws it (its sending row when
/// requested, else its receiving row), in row number order, then the long
/// messages that cross the window.
Status BuildTile(const TimelineIndex& index, const TileRequest& request, std::string* out);

/// In which order a tile's rows give their slices and instants, and its
/// counter tracks their points (each track as often as asked).
struct TileOrder {
  std::vector<uint32_t> rows, tracks;
};
/// BuildTile's order: the request's.
TileOrder RequestOrder(const TileRequest& request);

/// The tile of `request` from the parts drawn for it by the processes of a
/// spread server (each a tile of `request` with `here` its rows and
/// `long_arrows` false; `long_part`, when not empty, one with no rows and
/// the long arrows), in the order of the tile drawn whole (`order`). The
/// bytes are those of the tile drawn whole when no track is asked twice.
/// InvalidArgument naming the part that is not a tile.
Status MergeTileParts(const TileRequest& request, const TileOrder& order,
                      const std::vector<std::string>& parts, std::string_view long_part,
                      std::string* out);

}  // namespace plx::server
