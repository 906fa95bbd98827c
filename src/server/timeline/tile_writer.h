// The tile builder's inside, shared by its files: tile_builder.cc (BuildTile,
// and the instants, arrows and counter points it merges per pixel) and
// tile_slices.cc (the slice lanes: merged bars, dominant states, time
// buckets). Internal.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"
#include "server/timeline/tile_builder.h"
#include "server/timeline/timeline_index.h"

namespace plx::server::tile_internal {

// Maps trace times to pixel columns of the request.
struct Frame {
  int64_t base = 0;  // Trace::begin_ns
  double from = 0, to = 0, scale = 0;

  double T(int64_t ns) const { return static_cast<double>(ns - base); }
  int64_t Px(double t) const {
    const double p = std::floor((t - from) * scale);
    return static_cast<int64_t>(std::clamp(p, -4.0e18, 4.0e18));
  }
};

// First k in [lo, hi) with pred(k) true, pred monotone (false... true); hi if none.
// Gallops from lo, so it costs O(log distance).
template <typename Pred>
uint64_t Gallop(uint64_t lo, uint64_t hi, Pred pred) {
  uint64_t step = 1, prev = lo;
  uint64_t probe = lo;
  while (probe < hi && !pred(probe)) {
    prev = probe + 1;
    probe = lo + step;
    step *= 2;
  }
  uint64_t end = std::min(probe, hi);
  // pred false before prev; true at end (or end == hi).
  while (prev < end) {
    const uint64_t mid = prev + (end - prev) / 2;
    if (pred(mid))
      end = mid;
    else
      prev = mid + 1;
  }
  return prev;
}

class TileWriter {
 public:
  TileWriter(const TimelineIndex& index, const TileRequest& request)
      : index_(index), trace_(index.trace()), request_(request) {
    frame_.base = trace_.begin_ns;
    frame_.from = request.from;
    frame_.to = request.to;
    frame_.scale = static_cast<double>(request.width) / (request.to - request.from);
  }

  void Slices(uint32_t row);
  void Instants(uint32_t row);
  void Arrows(const std::vector<uint8_t>& requested);
  void Counter(uint32_t track);
  void Append(std::string* out) const;

 private:
  // Lane accessors.
  int64_t Begin(const TimelineIndex::Lane& lane, uint64_t k) const {
    return trace_.slices.begin[index_.slice_id(lane, static_cast<uint32_t>(k))];
  }
  int64_t End(const TimelineIndex::Lane& lane, uint64_t k) const {
    return trace_.slices.end[index_.slice_id(lane, static_cast<uint32_t>(k))];
  }
  // First lane position whose begin is at or after (strict: after) trace time t.
  uint64_t LaneSearch(const TimelineIndex::Lane& lane, double t, bool strict) const;
  // First position after i whose begin is in a later pixel than px (capped at hi).
  uint64_t NextPixel(const TimelineIndex::Lane& lane, uint64_t i, uint64_t hi, int64_t px,
                     bool dense) const;
  uint32_t Dominant(const TimelineIndex::Lane& lane, uint64_t i, uint64_t j) const;
  // The last pixel to which a merged bar of `state` ending in pixel px extends
  // by the lane's time buckets alone (px if none); see Slices.
  int64_t ExtendBar(const TimelineIndex::Lane& lane, int64_t px, uint32_t state) const;
  void AddSlice(uint32_t row, uint16_t depth, uint32_t id);

  const TimelineIndex& index_;
  const model::Trace& trace_;
  const TileRequest& request_;
  Frame frame_;
  TileRecords rec_;
};

}  // namespace plx::server::tile_internal
