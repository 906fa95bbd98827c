// The slices of a tile: per requested row and depth, walk the lane pixel by
// pixel: a slice of a pixel or more is sent as itself; the slices beginning in
// one pixel are found by galloping over the lane's sampled begins and merged
// into one bar whose state comes from the summary pyramid; at coarse zoom, the
// pixels that only extend that bar are told so by the lane's time buckets,
// unsearched (src/server/README.md, "How a tile stays O(width)").
#include <algorithm>
#include <cmath>

#include "base/state_vote.h"
#include "server/timeline/merged_bars.h"
#include "server/timeline/tile_writer.h"

namespace plx::server::tile_internal {

using wire::TileSlice;

namespace {

constexpr uint32_t kRawVoteLimit = 64;  // merged runs up to this many slices are voted exactly

}  // namespace

uint64_t TileWriter::LaneSearch(const TimelineIndex::Lane& lane, double t, bool strict) const {
  auto after = [&](int64_t ns) { return strict ? frame_.T(ns) > t : frame_.T(ns) >= t; };
  const std::vector<int64_t>& s = lane.sampled_begin;
  const uint64_t b = static_cast<uint64_t>(
      std::partition_point(s.begin(), s.end(), [&](int64_t ns) { return !after(ns); }) - s.begin());
  if (b == 0) return 0;
  const uint64_t lo = (b - 1) * TimelineIndex::kBlock + 1;
  const uint64_t hi = std::min<uint64_t>(b * TimelineIndex::kBlock, lane.count);
  uint64_t k = lo;
  while (k < hi && !after(Begin(lane, k)))
    ++k;
  return k;
}

uint64_t TileWriter::NextPixel(const TimelineIndex::Lane& lane, uint64_t i, uint64_t hi, int64_t px,
                               bool dense) const {
  auto later = [&](uint64_t k) { return frame_.Px(frame_.T(Begin(lane, k))) > px; };
  // Few slices per pixel: a short scan (skipped where the last pixel was
  // crowded: each raw begin may be a cache miss).
  uint64_t k = i + 1;
  for (int n = 0; n < 8 && k < hi && !dense; ++n, ++k)
    if (later(k)) return k;
  if (k >= hi) return hi;
  // Many: gallop over the sampled begins, then scan one block.
  constexpr uint64_t kB = TimelineIndex::kBlock;
  const std::vector<int64_t>& s = lane.sampled_begin;
  const uint64_t s_hi = (hi + kB - 1) / kB;
  const uint64_t sb =
      Gallop(k / kB + 1, s_hi, [&](uint64_t q) { return frame_.Px(frame_.T(s[q])) > px; });
  uint64_t lo = std::max(k, (sb - 1) * kB);
  const uint64_t end = std::min(hi, sb * kB);
  while (lo < end && !later(lo))
    ++lo;
  return lo;
}

uint32_t TileWriter::Dominant(const TimelineIndex::Lane& lane, uint64_t i, uint64_t j) const {
  StateVote<64> vote;
  auto raw = [&](uint64_t k) {
    const uint32_t id = index_.slice_id(lane, static_cast<uint32_t>(k));
    vote.Add(trace_.slices.state[id],
             static_cast<double>(trace_.slices.end[id] - trace_.slices.begin[id]));
  };
  if (j - i <= kRawVoteLimit || lane.levels.empty()) {
    for (uint64_t k = i; k < j; ++k)
      raw(k);
    return vote.BestState();
  }
  // Long runs vote with whole blocks only: the few raw slices at their ends
  // would cost cache misses for little change in the answer.
  constexpr uint64_t kB = TimelineIndex::kBlock;
  uint64_t p = (i + kB - 1) / kB * kB;
  while (p + kB <= j) {
    size_t level = 0;
    uint64_t span = kB;
    while (level + 1 < lane.levels.size() && p % (span * TimelineIndex::kFanout) == 0 &&
           p + span * TimelineIndex::kFanout <= j) {
      ++level;
      span *= TimelineIndex::kFanout;
    }
    const TimelineIndex::SliceSummary& s = lane.levels[level][p / span];
    vote.Add(s.state, s.ns);
    p += span;
  }
  return vote.BestState();
}

int64_t TileWriter::ExtendBar(const TimelineIndex::Lane& lane, int64_t px, uint32_t state) const {
  // Pixels of at least kMinBuckets level-0 buckets only: then the buckets
  // wholly inside a pixel cover most of it.
  constexpr double kMinBuckets = 4;
  if (lane.time_levels.empty() ||
      static_cast<double>(lane.bucket_ns) * kMinBuckets * frame_.scale > 1.0)
    return px;
  const std::vector<std::vector<TimelineIndex::TimeBucket>>& levels = lane.time_levels;
  const int64_t w = lane.bucket_ns;
  const int64_t nb = static_cast<int64_t>(levels[0].size());
  // Pixels of bucket b's first and last ns (slice begins are whole ns).
  auto start = [&](int64_t b) { return frame_.Px(frame_.T(lane.t0 + b * w)); };
  auto stop = [&](int64_t b) { return frame_.Px(frame_.T(lane.t0 + b * w + w - 1)); };
  auto guess = [&](int64_t q) {
    const double g =
        std::floor((frame_.from + static_cast<double>(q) / frame_.scale - frame_.T(lane.t0)) /
                   static_cast<double>(w));
    return static_cast<int64_t>(std::clamp(g, 0.0, static_cast<double>(nb)));
  };
  // First b in [0, nb] with f(b) >= q (f is monotone), searched from g.
  auto first = [&](auto f, int64_t q, int64_t g) {
    int64_t b = g;
    while (b > 0 && f(b - 1) >= q)
      --b;
    while (b < nb && f(b) < q)
      ++b;
    return b;
  };
  // Pixels before the one of `to` hold only slices beginning before `to`.
  const int64_t last = frame_.Px(frame_.to);
  int64_t q = px + 1;
  int64_t g = guess(q);
  // Buckets [outer_lo, outer_hi) may hold begins in pixel q; [inner_lo,
  // inner_hi) hold only begins in it.
  int64_t outer_lo = first(stop, q, g), inner_lo = first(start, q, g);
  for (; q < last; ++q) {
    g = guess(q + 1);
    const int64_t inner_hi = first(stop, q + 1, g), outer_hi = first(start, q + 1, g);
    if (inner_lo >= inner_hi) break;
    float max_ns = -1;
    for (int64_t b = outer_lo; b < inner_lo; ++b)
      max_ns = std::max(max_ns, levels[0][b].max_ns);
    for (int64_t b = inner_hi; b < outer_hi; ++b)
      max_ns = std::max(max_ns, levels[0][b].max_ns);
    StateVote<64> vote;
    uint64_t count = 0;
    for (int64_t b = inner_lo; b < inner_hi;) {
      size_t level = 0;
      int64_t span = 1;
      while (level + 1 < levels.size() && b % (span * TimelineIndex::kTimeFanout) == 0 &&
             b + span * TimelineIndex::kTimeFanout <= inner_hi) {
        ++level;
        span *= TimelineIndex::kTimeFanout;
      }
      const TimelineIndex::TimeBucket& t = levels[level][b / span];
      if (t.count) {
        vote.Add(t.state, t.ns);
        count += t.count;
        max_ns = std::max(max_ns, t.max_ns);
      }
      b += span;
    }
    // At least two slices (a lone one is sent as itself), none a pixel long,
    // and the same state.
    if (count < 2 || static_cast<double>(max_ns) * frame_.scale >= 1.0 || vote.BestState() != state)
      break;
    outer_lo = inner_hi;
    inner_lo = outer_hi;
  }
  return q - 1;
}

void TileWriter::AddSlice(uint32_t row, uint16_t depth, uint32_t id) {
  TileSlice s;
  s.begin = frame_.T(trace_.slices.begin[id]);
  s.end = frame_.T(trace_.slices.end[id]);
  s.row = row;
  s.state = trace_.slices.state[id];
  s.ref = id;
  s.depth = depth;
  s.flags = (trace_.slices.flags[id] & model::SliceTable::kUnclosed) ? 2 : 0;
  rec_.slices.push_back(s);
}

void TileWriter::Slices(uint32_t row) {
  for (uint16_t depth = 0; depth <= index_.max_depth(row); ++depth) {
    const TimelineIndex::Lane* lane = index_.lane(row, depth);
    if (!lane || lane->count == 0) continue;
    uint64_t i = LaneSearch(*lane, frame_.from, false);
    // The slice before may reach into the window (same-depth slices do not
    // overlap, so only a few can).
    while (i > 0 && frame_.T(End(*lane, i - 1)) >= frame_.from)
      --i;
    const uint64_t hi = LaneSearch(*lane, frame_.to, true);
    MergedBars bars(&rec_.slices, row, depth);
    bool dense = false;  // the last pixel held many slices
    while (i < hi) {
      const double b = frame_.T(Begin(*lane, i));
      const double e = frame_.T(End(*lane, i));
      if ((e - b) * frame_.scale >= 1.0) {
        AddSlice(row, depth, index_.slice_id(*lane, static_cast<uint32_t>(i)));
        ++i;
        continue;
      }
      const int64_t px = frame_.Px(b);
      uint64_t j = NextPixel(*lane, i, hi, px, dense);
      dense = j - i > 2 * TimelineIndex::kBlock;
      // Only the last slice beginning in a pixel can be a pixel long.
      if (j - i > 1 &&
          (frame_.T(End(*lane, j - 1)) - frame_.T(Begin(*lane, j - 1))) * frame_.scale >= 1.0)
        --j;
      if (j - i == 1) {
        AddSlice(row, depth, index_.slice_id(*lane, static_cast<uint32_t>(i)));
        i = j;
        continue;
      }
      const uint32_t state = Dominant(*lane, i, j);
      const double end = frame_.T(End(*lane, j - 1));
      const uint32_t count = static_cast<uint32_t>(j - i);
      bars.Add(px, b, end, state, count);
      i = j;
      // Whole pixels after it that the time buckets show to continue the bar
      // need no search of their slice boundaries: only where the bar ends.
      const int64_t last = ExtendBar(*lane, px, state);
      if (last > px) {
        j = NextPixel(*lane, i - 1, hi, last, true);
        bars.Widen(last, frame_.T(End(*lane, j - 1)), static_cast<uint32_t>(j - i));
        dense = true;
        i = j;
      }
    }
  }
}

}  // namespace plx::server::tile_internal
