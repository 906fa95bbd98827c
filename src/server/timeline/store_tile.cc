// Tiles of a trace served from its file. Rows whose pixel spans at least a
// level-0 bucket of the timeline summary are drawn from it: per depth, the
// level whose buckets are the widest not wider than a pixel, the buckets
// beginning in each pixel merged into one bar (their dominant states' vote,
// their count, their latest end), adjacent bars of one state joined. Other
// rows are drawn exactly as BuildTile draws them, from their chunks that
// cover the tile, decoded for it (store_fine_tile.cc).
#include <algorithm>
#include <cmath>

#include "base/foreground.h"
#include "base/state_vote.h"
#include "server/timeline/merged_bars.h"
#include "server/timeline/store_timeline.h"

namespace plx::server {

namespace {

using wire::TileCounterPoint;
using wire::TileInstant;
using wire::TileSlice;

// Trace times (ns since the trace's begin) to pixel columns.
struct Frame {
  int64_t base = 0;
  double from = 0, scale = 0;
  double T(int64_t ns) const { return static_cast<double>(ns - base); }
  int64_t Px(double t) const {
    return static_cast<int64_t>(std::clamp(std::floor((t - from) * scale), -4.0e18, 4.0e18));
  }
};

// The level whose buckets are the widest not wider than `pixel` ns (0 when
// even level 0's are wider), and its bucket width.
template <typename Bucket>
size_t LevelFor(const store::BucketPyramid<Bucket>& p, double pixel, int64_t* width) {
  size_t level = 0;
  int64_t w = p.bucket_ns;
  while (level + 1 < p.levels.size() && static_cast<double>(w) * store::kSummaryFanout <= pixel) {
    ++level;
    w *= store::kSummaryFanout;
  }
  *width = w;
  return level;
}

// Buckets [first, last) of a level of `size` that may begin in [from, to].
struct Span {
  size_t first = 0, last = 0;
};
Span BucketsIn(int64_t origin, int64_t width, size_t size, int64_t from, int64_t to) {
  auto index = [&](int64_t t) -> size_t {
    if (t <= origin) return 0;
    return static_cast<size_t>(std::min<int64_t>((t - origin) / width, static_cast<int64_t>(size)));
  };
  Span s;
  s.first = index(from);
  s.last = std::min(size, index(to) + 1);
  return s;
}

// Calls fn(i, j, px) for each run [i, j) of the span's buckets (width w from
// origin) that begin in one pixel column px.
template <typename Fn>
void ForPixels(const Frame& f, int64_t origin, int64_t w, Span span, Fn&& fn) {
  auto px = [&](size_t i) { return f.Px(f.T(origin + static_cast<int64_t>(i) * w)); };
  for (size_t i = span.first; i < span.last;) {
    const int64_t p = px(i);
    size_t j = i + 1;
    while (j < span.last && px(j) == p)
      ++j;
    fn(i, j, p);
    i = j;
  }
}

// The slice of a lane that begins before the drawn buckets (those from
// bucket `first` of level `at_level` on) and reaches `from`: [origin, start
// of the first) is the union of whole buckets, at most kSummaryFanout - 1
// per level from `at_level` up; the nearest one whose latest end reaches
// `from` holds it (slices of one depth do not overlap). `draw(bucket, its
// start)` is called for it, if any.
template <typename Draw>
void LookBack(const store::BucketPyramid<store::SliceBucket>& p, size_t at_level, int64_t origin,
              size_t first, int64_t from, Draw&& draw) {
  int64_t upper = static_cast<int64_t>(first) * (p.bucket_ns << (2 * at_level));
  for (size_t k = at_level; k < p.levels.size() && upper > 0; ++k) {
    const int64_t wk = p.bucket_ns << (2 * k);
    const int64_t lower = k + 1 < p.levels.size()
                              ? upper / (wk * store::kSummaryFanout) * (wk * store::kSummaryFanout)
                              : 0;
    for (int64_t at = upper / wk - 1; at >= lower / wk; --at) {
      if (static_cast<size_t>(at) >= p.levels[k].size()) continue;
      const store::SliceBucket& b = p.levels[k][static_cast<size_t>(at)];
      const int64_t start = origin + at * wk;
      if (b.count > 0 && start + static_cast<int64_t>(b.end) >= from) return draw(b, start);
    }
    upper = lower;
  }
}

}  // namespace

void StoreTimeline::SummaryTile(const TileRequest& request, const std::vector<uint32_t>& rows,
                                const std::vector<uint32_t>& tracks, TileRecords* out) const {
  Frame f;
  f.base = defs_.begin_ns;
  f.from = request.from;
  f.scale = static_cast<double>(request.width) / (request.to - request.from);
  const double pixel = (request.to - request.from) / request.width;
  const int64_t from = defs_.begin_ns + static_cast<int64_t>(std::floor(request.from));
  const int64_t to = defs_.begin_ns + static_cast<int64_t>(std::ceil(request.to));

  for (uint32_t row : rows) {
    const store::ThreadSummary& ts = summary_.threads[row];
    for (size_t depth = 0; depth < ts.depths.size(); ++depth) {
      const auto& p = ts.depths[depth];
      int64_t w = 0;
      const size_t at_level = LevelFor(p, pixel, &w);
      const auto& level = p.levels[at_level];
      const Span span = BucketsIn(ts.origin, w, level.size(), from, to);
      LookBack(p, at_level, ts.origin, span.first, from,
               [&](const store::SliceBucket& b, int64_t start) {
                 TileSlice s;
                 s.begin = f.T(start);
                 s.end = f.T(start) + b.end;
                 s.row = row;
                 s.state = b.state;
                 s.ref = b.count;
                 s.depth = static_cast<uint16_t>(depth);
                 s.flags = 1;
                 out->slices.push_back(s);
               });
      MergedBars bars(&out->slices, row, static_cast<uint16_t>(depth));
      ForPixels(f, ts.origin, w, span, [&](size_t i, size_t j, int64_t px) {
        // Buckets of the level are at least a quarter pixel wide.
        StateVote<8> vote;
        uint32_t count = 0;
        double begin = 0, end = 0;
        for (; i < j; ++i) {
          const store::SliceBucket& b = level[i];
          if (b.count == 0) continue;
          const double start = f.T(ts.origin + static_cast<int64_t>(i) * w);
          if (count == 0) begin = start;
          count += b.count;
          end = std::max(end, start + b.end);
          vote.Add(b.state, b.ns);
        }
        if (count == 0) return;
        bars.Add(px, begin, end, vote.BestState(), count);
      });
    }
  }

  for (uint32_t row : rows) {
    const store::ThreadSummary& ts = summary_.threads[row];
    int64_t w = 0;
    const auto& level = ts.instants.levels[LevelFor(ts.instants, pixel, &w)];
    const Span span = BucketsIn(ts.origin, w, level.size(), from, to);
    ForPixels(f, ts.origin, w, span, [&](size_t i, size_t j, int64_t) {
      const store::InstantBucket m = store::MergeBuckets(level, i, j - i, static_cast<double>(w));
      if (m.count == 0) return;
      TileInstant rec;
      rec.time = f.T(ts.origin + static_cast<int64_t>(i) * w) + m.first;
      rec.row = row;
      rec.type = m.type;
      rec.ref = m.count;
      rec.flags = 1;
      if (rec.time <= request.to && rec.time >= request.from) out->instants.push_back(rec);
    });
  }

  for (uint32_t track : tracks) {
    const TimelineIndex::CounterTrack& info = tracks_[track];
    const store::ThreadSummary& ts = summary_.threads[info.thread];
    const auto it =
        std::find_if(ts.counters.begin(), ts.counters.end(),
                     [&](const store::CounterSummary& c) { return c.counter == info.counter; });
    if (it == ts.counters.end()) continue;
    int64_t w = 0;
    const auto& level = it->buckets.levels[LevelFor(it->buckets, pixel, &w)];
    const Span span = BucketsIn(ts.origin, w, level.size(), from, to);
    auto time_of = [&](size_t i) {
      return f.T(ts.origin + static_cast<int64_t>(i) * w) + level[i].first;
    };
    // The value before the window: the last bucket before it with samples
    // (a bounded look back).
    for (size_t back = 0, i = span.first; i > 0 && back < 4096; ++back) {
      --i;
      if (level[i].count == 0 || time_of(i) >= request.from) continue;
      TileCounterPoint p;
      p.time = time_of(i);
      p.min = p.max = p.last = level[i].last;
      p.track = track;
      p.count = 1;
      out->points.push_back(p);
      break;
    }
    ForPixels(f, ts.origin, w, span, [&](size_t i, size_t j, int64_t) {
      const store::ValueBucket m = store::MergeBuckets(level, i, j - i, static_cast<double>(w));
      if (m.count == 0) return;
      TileCounterPoint p;
      p.time = f.T(ts.origin + static_cast<int64_t>(i) * w) + m.first;
      p.min = m.min;
      p.max = m.max;
      p.last = m.last;
      p.track = track;
      p.count = m.count;
      out->points.push_back(p);
    });
  }
}

StoreTimeline::TileRows StoreTimeline::SplitTile(const TileRequest& request) const {
  const uint32_t threads = static_cast<uint32_t>(summary_.threads.size());
  const double pixel = (request.to - request.from) / request.width;
  std::vector<uint8_t> fine_row(threads, 0), seen(threads, 0);
  TileRows r;
  for (uint32_t row : request.rows) {
    if (seen[row]) continue;
    seen[row] = 1;
    const store::ThreadSummary& ts = summary_.threads[row];
    // Buckets up to two pixels wide are drawn from the summary.
    if (2 * pixel >= static_cast<double>(ts.instants.bucket_ns)) {
      r.coarse.push_back(row);
    } else {
      r.fine.push_back(row);
      fine_row[row] = 1;
    }
  }
  for (uint32_t track : request.counters)
    (fine_row[tracks_[track].thread] ? r.fine_tracks : r.coarse_tracks).push_back(track);
  return r;
}

TileOrder StoreTimeline::Order(const TileRequest& request) const {
  TileRows r = SplitTile(request);
  TileOrder order;
  order.rows = std::move(r.fine);
  order.rows.insert(order.rows.end(), r.coarse.begin(), r.coarse.end());
  order.tracks = std::move(r.fine_tracks);
  order.tracks.insert(order.tracks.end(), r.coarse_tracks.begin(), r.coarse_tracks.end());
  return order;
}

Status StoreTimeline::Tile(const TileRequest& request, std::string* out) const {
  const Foreground foreground;  // the background passes wait while it is drawn
  const uint32_t threads = static_cast<uint32_t>(summary_.threads.size());
  PLX_RETURN_IF_ERROR(CheckTileRequest(request, threads, tracks_.size()));
  TileRows r = SplitTile(request);
  // A spread server's process draws its own rows only.
  const auto elsewhere = [&](uint32_t row) { return !request.Here(row); };
  const auto track_elsewhere = [&](uint32_t track) { return !request.Here(tracks_[track].thread); };
  std::erase_if(r.fine, elsewhere);
  std::erase_if(r.coarse, elsewhere);
  std::erase_if(r.fine_tracks, track_elsewhere);
  std::erase_if(r.coarse_tracks, track_elsewhere);
  TileRecords records;
  if (!r.fine.empty()) FineTile(request, r.fine, r.fine_tracks, &records);
  SummaryTile(request, r.coarse, r.coarse_tracks, &records);
  AppendTile(request, records, out);
  return Status::Ok();
}

}  // namespace plx::server
