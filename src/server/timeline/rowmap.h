// BuildRowmap: the binary answer of /api/v1/traces/{id}/rowmap — many rows
// at once, one pixel row per band of `group` consecutive rows: per band and
// pixel column, the state most of the band's rows are in there. The
// timeline's compact mode draws it when rows outnumber pixel rows (16,384
// ranks on a 1000 px screen).
//
// It is made from the tiles of the rows (BuildTile in memory, the file's
// tiles otherwise), so it shows exactly what the timeline would draw for
// each row, whichever engine serves the trace. A row's state at a pixel is
// that of the deepest slice (or merged bar) covering at least half of the
// pixel, else of the one covering most of it: what a row looks like when its
// lanes are squeezed into one pixel row.
//
// With `stats`, a RowmapStat follows each cell: how much of the pixel
// column's time the band's rows spend in the cell's dominant state (or in
// `state`), a share per row, and its min, lower median, max and mean, with
// the rows of the min and max, so that a dominant state hides no outlier.
// A row's share is the part of the column its tile's slices of that state
// cover (nested ones once, a merged bar as its state): what the timeline
// draws of the row, whichever engine serves it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "server/timeline/tile_builder.h"

namespace plx::server {

struct RowmapRequest {
  std::vector<uint32_t> rows;  // thread indices, top to bottom
  double from = 0, to = 0;     // trace time: ns since Trace::begin_ns
  uint32_t width = 0;          // pixels, 1..kMaxRowmapWidth
  uint32_t group = 1;          // rows per band, 1..kMaxRowmapGroup
  bool stats = false;          // a RowmapStat per cell after the cells
  int64_t state = -1;          // the state stats measure; -1: each cell's dominant one
};

inline constexpr uint32_t kMaxRowmapWidth = 4096;
inline constexpr uint32_t kMaxRowmapGroup = 65535;
inline constexpr uint64_t kMaxRowmapCells = 1 << 20;
/// RowmapCell::state of a pixel where no row of the band has a slice.
inline constexpr uint32_t kRowmapEmpty = 0xFFFFFFFF;
inline constexpr uint32_t kRowmapMagic = 0x524c5850;  // 'PXLR' read as bytes
/// RowmapStat shares are 65535ths of the column's time.
inline constexpr uint32_t kRowmapShareScale = 65535;
/// With stats, the most rows × pixels one band may hold (its shares are kept).
inline constexpr uint64_t kMaxRowmapStatValues = 1 << 22;

/// Makes the tile of a request (arrows and counters are never asked).
using TileSource = std::function<Status(const TileRequest&, std::string*)>;

/// InvalidArgument naming the field of `request` that is out of range for a
/// trace of `rows` rows and `states` states (left 0, no `state` is valid).
Status CheckRowmapRequest(const RowmapRequest& request, uint32_t rows, uint32_t states = 0);

/// Appends the row map of `request` (RowmapHeader, then bands × width
/// RowmapCell, band by band, then with `stats` as many RowmapStat;
/// spec/api.toml) to *out, from the tiles `tiles` makes; a tile's error is
/// returned as it is, and then *out is unchanged.
Status BuildRowmap(const RowmapRequest& request, const TileSource& tiles, std::string* out);

}  // namespace plx::server
