// A tile put together from the parts the processes of a spread server draw
// (`parallax-mpi serve`): every record names its row (or counter track), so
// the parts' records are regrouped into the order of the tile drawn whole.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "base/strings.h"
#include "server/timeline/tile_builder.h"

namespace plx::server {

namespace {

// The runs of consecutive records of one key (row or track) in `records`,
// by key, each key's runs in order.
template <typename T, typename Key>
std::unordered_map<uint32_t, std::vector<std::pair<size_t, size_t>>> Runs(
    const std::vector<T>& records, Key key) {
  std::unordered_map<uint32_t, std::vector<std::pair<size_t, size_t>>> runs;
  for (size_t i = 0; i < records.size();) {
    size_t j = i + 1;
    while (j < records.size() && key(records[j]) == key(records[i]))
      ++j;
    runs[key(records[i])].emplace_back(i, j);
    i = j;
  }
  return runs;
}

// Appends to `out` the runs of `in` in the order of `keys`, each key's
// runs at its first place.
template <typename T, typename Key>
void Regroup(const std::vector<T>& in, const std::vector<uint32_t>& keys, Key key,
             std::vector<T>* out) {
  auto runs = Runs(in, key);
  for (uint32_t k : keys) {
    auto it = runs.find(k);
    if (it == runs.end()) continue;
    for (const auto& [b, e] : it->second)
      out->insert(out->end(), in.begin() + static_cast<std::ptrdiff_t>(b),
                  in.begin() + static_cast<std::ptrdiff_t>(e));
    runs.erase(it);
  }
}

}  // namespace

bool ReadTileChecked(std::string_view tile, TileRecords* records) {
  wire::TileHeader h;
  if (tile.size() < sizeof h) return false;
  std::memcpy(&h, tile.data(), sizeof h);
  const uint64_t size = sizeof h + uint64_t{h.slices} * sizeof(wire::TileSlice) +
                        uint64_t{h.instants} * sizeof(wire::TileInstant) +
                        uint64_t{h.arrows} * sizeof(wire::TileArrow) +
                        uint64_t{h.points} * sizeof(wire::TileCounterPoint);
  if (h.magic != 0x544c5850 || size != tile.size()) return false;
  *records = ReadTile(tile);
  return true;
}

TileOrder RequestOrder(const TileRequest& request) {
  TileOrder order;
  uint32_t rows = 0;
  for (uint32_t row : request.rows)
    rows = std::max(rows, row + 1);
  std::vector<uint8_t> seen(rows, 0);
  for (uint32_t row : request.rows)
    if (!seen[row]) {
      seen[row] = 1;
      order.rows.push_back(row);
    }
  order.tracks = request.counters;
  return order;
}

Status MergeTileParts(const TileRequest& request, const TileOrder& order,
                      const std::vector<std::string>& parts, std::string_view long_part,
                      std::string* out) {
  TileRecords all;
  for (size_t p = 0; p < parts.size(); ++p) {
    TileRecords r;
    if (!ReadTileChecked(parts[p], &r))
      return InvalidArgument(
          StrFormat("tile part %zu: not a tile (%zu bytes)", p, parts[p].size()));
    all.slices.insert(all.slices.end(), r.slices.begin(), r.slices.end());
    all.instants.insert(all.instants.end(), r.instants.begin(), r.instants.end());
    all.arrows.insert(all.arrows.end(), r.arrows.begin(), r.arrows.end());
    all.points.insert(all.points.end(), r.points.begin(), r.points.end());
  }
  TileRecords merged;
  Regroup(
      all.slices, order.rows, [](const wire::TileSlice& s) { return s.row; }, &merged.slices);
  Regroup(
      all.instants, order.rows, [](const wire::TileInstant& i) { return i.row; }, &merged.instants);
  Regroup(
      all.points, order.tracks, [](const wire::TileCounterPoint& c) { return c.track; },
      &merged.points);
  // A channel's arrows come with the row that draws it, in row order.
  std::unordered_map<uint32_t, bool> requested;
  for (uint32_t row : request.rows)
    requested[row] = true;
  const auto drawer = [&](const wire::TileArrow& a) {
    return requested.count(a.from_row) != 0 ? a.from_row : a.to_row;
  };
  merged.arrows = std::move(all.arrows);
  std::stable_sort(
      merged.arrows.begin(), merged.arrows.end(),
      [&](const wire::TileArrow& a, const wire::TileArrow& b) { return drawer(a) < drawer(b); });
  if (!long_part.empty()) {
    TileRecords r;
    if (!ReadTileChecked(long_part, &r))
      return InvalidArgument(
          StrFormat("tile part of the long arrows: not a tile (%zu bytes)", long_part.size()));
    merged.arrows.insert(merged.arrows.end(), r.arrows.begin(), r.arrows.end());
  }
  AppendTile(request, merged, out);
  return Status::Ok();
}

}  // namespace plx::server
