// The rows of a tile whose pixels are finer than the timeline summary's
// buckets, drawn straight from their chunks' rows where the chunk cache holds
// them: no copy into one model and no timeline index over the window. Each
// row is drawn on its own worker, exactly as BuildTile draws it from the
// in-memory index: a slice a pixel or longer as itself; the slices beginning
// in one pixel merged into one bar of the state that covers most of them
// (voted over every slice; the in-memory index votes over blocks of 16 where
// more than 64 begin in a pixel, which a pixel finer than the summary's
// buckets does not hold); instants and counter samples per pixel.
#include <algorithm>
#include <vector>

#include "base/state_vote.h"
#include "server/timeline/merged_bars.h"
#include "server/timeline/store_timeline.h"
#include "server/timeline/tile_writer.h"

namespace plx::server {

namespace {

using tile_internal::Frame;
using wire::TileCounterPoint;
using wire::TileInstant;
using wire::TileSlice;

// One slice of a lane (a row's slices of one depth, in begin order).
struct LaneSlice {
  int64_t begin = 0, end = 0;
  uint32_t state = 0, id = 0;  // id: the global row
  uint16_t flags = 0;
};

TileSlice Single(const Frame& f, const LaneSlice& s, uint32_t row, uint16_t depth) {
  TileSlice t;
  t.begin = f.T(s.begin);
  t.end = f.T(s.end);
  t.row = row;
  t.state = s.state;
  t.ref = s.id;
  t.depth = depth;
  t.flags = (s.flags & model::SliceTable::kUnclosed) ? 2 : 0;
  return t;
}

// One lane's slices of the tile (TileWriter::Slices over a lane of `lane`).
void DrawLane(const Frame& f, const std::vector<LaneSlice>& lane, uint32_t row, uint16_t depth,
              std::vector<TileSlice>* out) {
  auto begin = [&](size_t k) { return f.T(lane[k].begin); };
  auto end = [&](size_t k) { return f.T(lane[k].end); };
  size_t i = static_cast<size_t>(
      std::partition_point(lane.begin(), lane.end(),
                           [&](const LaneSlice& s) { return f.T(s.begin) < f.from; }) -
      lane.begin());
  // The slices before may reach into the window (same-depth slices do not
  // overlap, so only a few can).
  while (i > 0 && end(i - 1) >= f.from)
    --i;
  const size_t hi = static_cast<size_t>(
      std::partition_point(lane.begin() + static_cast<std::ptrdiff_t>(i), lane.end(),
                           [&](const LaneSlice& s) { return f.T(s.begin) <= f.to; }) -
      lane.begin());
  MergedBars bars(out, row, depth);
  while (i < hi) {
    const double b = begin(i);
    if ((end(i) - b) * f.scale >= 1.0) {
      out->push_back(Single(f, lane[i], row, depth));
      ++i;
      continue;
    }
    const int64_t px = f.Px(b);
    size_t j = i + 1;
    while (j < hi && f.Px(begin(j)) <= px)
      ++j;
    // Only the last slice beginning in a pixel can be a pixel long.
    if (j - i > 1 && (end(j - 1) - begin(j - 1)) * f.scale >= 1.0) --j;
    if (j - i == 1) {
      out->push_back(Single(f, lane[i], row, depth));
      i = j;
      continue;
    }
    StateVote<64> vote;
    for (size_t k = i; k < j; ++k)
      vote.Add(lane[k].state, static_cast<double>(lane[k].end - lane[k].begin));
    bars.Add(px, b, end(j - 1), vote.BestState(), static_cast<uint32_t>(j - i));
    i = j;
  }
}

// Calls fn(k) for k in [first, last) of `times` (ns) in [from, to] (frame
// times), one run per pixel: fn(i, j, px).
template <typename Time, typename Fn>
void PerPixel(const Frame& f, size_t n, Time&& time, Fn&& fn) {
  size_t i = 0;
  while (i < n && f.T(time(i)) < f.from)
    ++i;
  while (i < n && f.T(time(i)) <= f.to) {
    const int64_t px = f.Px(f.T(time(i)));
    size_t j = i + 1;
    while (j < n && f.T(time(j)) <= f.to && f.Px(f.T(time(j))) <= px)
      ++j;
    fn(i, j, px);
    i = j;
  }
}

}  // namespace

void StoreTimeline::FineRow(const Frame& f, uint32_t row, const RowWindow& w,
                            TileRecords* out) const {
  // The lanes: the slices open at the window's first chunk, then the runs.
  std::vector<std::vector<LaneSlice>> lanes;
  auto add = [&](const model::SliceTable& s, size_t k, uint32_t id) {
    const uint16_t depth = s.depth[k];
    if (depth >= lanes.size()) lanes.resize(depth + size_t{1});
    lanes[depth].push_back({s.begin[k], s.end[k], s.state[k], id, s.flags[k]});
  };
  for (size_t k = 0; k < w.open.size(); ++k)
    add(w.open, k, w.open_ids[k]);
  for (const RowWindow::Run& r : w.slices) {
    const ChunkPart& part = *w.parts[r.part];
    for (size_t k = r.first; k < r.last; ++k)
      add(part.slices, k, part.first_slice + static_cast<uint32_t>(k));
  }
  for (size_t depth = 0; depth < lanes.size(); ++depth)
    if (!lanes[depth].empty())
      DrawLane(f, lanes[depth], row, static_cast<uint16_t>(depth), &out->slices);

  // Instants: the runs hold those inside the window, in time order.
  std::vector<std::pair<int64_t, uint32_t>> instants;  // (time, global row)
  std::vector<uint32_t> types;
  for (const RowWindow::Run& r : w.instants) {
    const ChunkPart& part = *w.parts[r.part];
    for (size_t k = r.first; k < r.last; ++k) {
      instants.emplace_back(part.instants.time[k], part.first_instant + static_cast<uint32_t>(k));
      types.push_back(part.instants.type[k]);
    }
  }
  PerPixel(
      f, instants.size(), [&](size_t k) { return instants[k].first; },
      [&](size_t i, size_t j, int64_t) {
        TileInstant rec;
        rec.time = f.T(instants[i].first);
        rec.row = row;
        rec.type = types[i];
        rec.ref = j - i == 1 ? instants[i].second : static_cast<uint32_t>(j - i);
        rec.flags = j - i == 1 ? 0 : 1;
        out->instants.push_back(rec);
      });
}

void StoreTimeline::FineCounter(const Frame& f, uint32_t track, const RowWindow& w,
                                TileRecords* out) const {
  const uint32_t counter = tracks_[track].counter;
  std::vector<std::pair<int64_t, double>> samples;  // (time, value), in time order
  for (const std::shared_ptr<const ChunkPart>& part : w.parts) {
    const model::CounterTable& c = part->samples;
    for (size_t k = 0; k < c.size(); ++k)
      if (c.counter[k] == counter) samples.emplace_back(c.time[k], c.value[k]);
  }
  const auto first = std::partition_point(samples.begin(), samples.end(),
                                          [&](const auto& s) { return f.T(s.first) < f.from; });
  if (first != samples.begin()) {
    const auto& before = *(first - 1);
    TileCounterPoint p;
    p.time = f.T(before.first);
    p.min = p.max = p.last = before.second;
    p.track = track;
    p.count = 1;
    out->points.push_back(p);
  }
  PerPixel(
      f, samples.size(), [&](size_t k) { return samples[k].first; },
      [&](size_t i, size_t j, int64_t) {
        TileCounterPoint p;
        p.time = f.T(samples[i].first);
        p.min = p.max = p.last = samples[j - 1].second;
        for (size_t k = i; k < j; ++k) {
          p.min = std::min(p.min, samples[k].second);
          p.max = std::max(p.max, samples[k].second);
        }
        p.track = track;
        p.count = static_cast<uint32_t>(j - i);
        out->points.push_back(p);
      });
}

void StoreTimeline::FineTile(const TileRequest& request, const std::vector<uint32_t>& rows,
                             const std::vector<uint32_t>& tracks, TileRecords* out) const {
  Frame f;
  f.base = defs_.begin_ns;
  f.from = request.from;
  f.to = request.to;
  f.scale = static_cast<double>(request.width) / (request.to - request.from);
  const int64_t lo = defs_.begin_ns + static_cast<int64_t>(request.from) - 1;
  const int64_t hi = defs_.begin_ns + static_cast<int64_t>(request.to) + 1;
  std::vector<RowWindow> windows(rows.size());
  std::vector<TileRecords> drawn(rows.size());
  tile_pool_->ParallelFor(rows.size(), [&](size_t i) {
    windows[i] = FindRowWindow(rows[i], lo, hi);
    FineRow(f, rows[i], windows[i], &drawn[i]);
  });
  for (const TileRecords& d : drawn)
    out->slices.insert(out->slices.end(), d.slices.begin(), d.slices.end());
  for (const TileRecords& d : drawn)
    out->instants.insert(out->instants.end(), d.instants.begin(), d.instants.end());
  for (uint32_t track : tracks) {
    const auto at = std::find(rows.begin(), rows.end(), tracks_[track].thread);
    FineCounter(f, track, windows[static_cast<size_t>(at - rows.begin())], out);
  }
}

}  // namespace plx::server
