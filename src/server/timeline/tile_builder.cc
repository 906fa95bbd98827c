// BuildTile: per requested row and depth, walk the lane pixel by pixel: a slice
// of a pixel or more is sent as itself; the slices beginning in one pixel are
// found by galloping over the lane's sampled begins and merged into one bar
// whose state comes from the summary pyramid; at coarse zoom, the pixels that
// only extend that bar are told so by the lane's time buckets, unsearched. Instants, arrows and
// counter points are grouped by pixel the same way, so a tile is O(width) per row.
#include "server/timeline/tile_builder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/state_vote.h"
#include "base/strings.h"
#include "server/api.gen.h"

namespace plx::server {

namespace {

using wire::TileArrow;
using wire::TileCounterPoint;
using wire::TileInstant;
using wire::TileSlice;

constexpr uint32_t kRawVoteLimit = 64;  // merged runs up to this many slices are voted exactly

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
    size_t merged = SIZE_MAX;  // index in rec_.slices of this lane's last merged bar
    int64_t merged_px = 0;
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
      if (merged != SIZE_MAX && merged == rec_.slices.size() - 1 && merged_px + 1 == px &&
          rec_.slices[merged].state == state) {
        rec_.slices[merged].end = std::max(rec_.slices[merged].end, end);
        rec_.slices[merged].ref += count;
      } else {
        TileSlice s;
        s.begin = b;
        s.end = end;
        s.row = row;
        s.state = state;
        s.ref = count;
        s.depth = depth;
        s.flags = 1;
        merged = rec_.slices.size();
        rec_.slices.push_back(s);
      }
      merged_px = px;
      i = j;
      // Whole pixels after it that the time buckets show to continue the bar
      // need no search of their slice boundaries: only where the bar ends.
      const int64_t last = ExtendBar(*lane, px, state);
      if (last > px) {
        j = NextPixel(*lane, i - 1, hi, last, true);
        rec_.slices[merged].end = std::max(rec_.slices[merged].end, frame_.T(End(*lane, j - 1)));
        rec_.slices[merged].ref += static_cast<uint32_t>(j - i);
        merged_px = last;
        dense = true;
        i = j;
      }
    }
  }
}

void TileWriter::Instants(uint32_t row) {
  const model::InstantTable& in = trace_.instants;
  const uint64_t a = index_.instants_begin(row), e = index_.instants_end(row);
  auto t = [&](uint64_t k) { return frame_.T(in.time[k]); };
  uint64_t i = Gallop(a, e, [&](uint64_t k) { return t(k) >= frame_.from; });
  const uint64_t hi = Gallop(i, e, [&](uint64_t k) { return t(k) > frame_.to; });
  while (i < hi) {
    const int64_t px = frame_.Px(t(i));
    const uint64_t j = Gallop(i + 1, hi, [&](uint64_t k) { return frame_.Px(t(k)) > px; });
    TileInstant rec;
    rec.time = t(i);
    rec.row = row;
    rec.type = in.type[i];
    rec.ref = j - i == 1 ? static_cast<uint32_t>(i) : static_cast<uint32_t>(j - i);
    rec.flags = j - i == 1 ? 0 : 1;
    rec_.instants.push_back(rec);
    i = j;
  }
}

void TileWriter::Arrows(const std::vector<uint8_t>& requested) {
  const std::vector<int64_t>& mtime = trace_.messages.time;
  auto send = [&](uint64_t k) { return frame_.T(index_.arrow_send(k)); };
  auto recv = [&](uint64_t k) { return frame_.T(mtime[index_.arrow_recv_row(k)]); };
  auto add = [&](const TimelineIndex::Channel& ch, uint64_t k, uint64_t count) {
    TileArrow a;
    a.send = send(k);
    a.recv = recv(k);
    a.from_row = ch.from_row;
    a.to_row = ch.to_row;
    a.ref = count == 1 ? index_.arrow_send_row(k) : static_cast<uint32_t>(count);
    a.flags = count == 1 ? 0 : 1;
    rec_.arrows.push_back(a);
  };
  // Arrows merge per channel and group of `group` pixels, the group as wide
  // as it takes to keep about kArrowsPerPixel arrows per pixel column when
  // many channels (row pairs) have messages: a whole-trace tile of 16 ring
  // ranks then holds 6,400 arrows, not 51,200 (1.6 MB), and the view loses
  // nothing it could show in a pixel.
  constexpr int64_t kArrowsPerPixel = 4;
  const std::vector<TimelineIndex::Channel>& channels = index_.channels();
  int64_t drawn = 0;
  for (const TimelineIndex::Channel& ch : channels)
    drawn += requested[ch.from_row] || requested[ch.to_row];
  const int64_t group = std::max<int64_t>(1, (drawn + kArrowsPerPixel - 1) / kArrowsPerPixel);
  auto group_of = [&](double t) {
    const int64_t p = frame_.Px(t);
    return p >= 0 ? p / group : -((-p + group - 1) / group);
  };
  auto channel = [&](const TimelineIndex::Channel& ch) {
    const uint64_t lo = ch.first, end = ch.first + ch.count;
    const uint64_t i0 = Gallop(lo, end, [&](uint64_t k) { return send(k) >= frame_.from; });
    // Sent before the window, received in or after it: scan back over the
    // time the channel's short messages take (long ones are listed apart).
    std::vector<uint64_t> before;
    const double reach = frame_.from - static_cast<double>(ch.max_short_latency);
    for (uint64_t k = i0; k > lo && send(k - 1) >= reach; --k)
      if (!index_.is_long(k - 1) && recv(k - 1) >= frame_.from) before.push_back(k - 1);
    std::reverse(before.begin(), before.end());
    for (size_t q = 0; q < before.size();) {
      const int64_t px = group_of(send(before[q]));
      size_t r = q + 1;
      while (r < before.size() && group_of(send(before[r])) == px)
        ++r;
      add(ch, before[q], r - q);
      q = r;
    }
    // Sent in the window, merged per group of pixels.
    const uint64_t i1 = Gallop(i0, end, [&](uint64_t k) { return send(k) > frame_.to; });
    for (uint64_t i = i0; i < i1;) {
      const int64_t px = group_of(send(i));
      auto later = [&](int64_t ns) { return group_of(frame_.T(ns)) > px; };
      // A few raw sends, then a gallop over the sampled ones and a scan of
      // one block (each raw probe far away would be a cache miss).
      uint64_t j = i + 1;
      for (int n = 0; n < 4 && j < i1 && !later(index_.arrow_send(j)); ++n)
        ++j;
      if (j < i1 && !later(index_.arrow_send(j))) {
        constexpr uint64_t kB = TimelineIndex::kBlock;
        const std::vector<int64_t>& s = index_.arrow_sampled_send();
        const uint64_t qa = (j + kB - 1) / kB, qb = (i1 + kB - 1) / kB;
        const uint64_t q = Gallop(qa, qb, [&](uint64_t k) { return later(s[k]); });
        j = std::max(j, q > qa ? (q - 1) * kB + 1 : j);
        const uint64_t stop = std::min(i1, q * kB);
        while (j < stop && !later(index_.arrow_send(j)))
          ++j;
      }
      add(ch, i, j - i);
      i = j;
    }
  };
  for (uint32_t row = 0; row < requested.size(); ++row) {
    if (!requested[row]) continue;
    for (uint32_t c = index_.channels_from_begin(row); c < index_.channels_from_end(row); ++c)
      channel(channels[c]);
    for (uint32_t c : index_.channels_to(row))
      if (!requested[channels[c].from_row]) channel(channels[c]);
  }
  // Long (and negative-latency) messages sent outside the window that still
  // cross it.
  const model::MessageTable& m = trace_.messages;
  for (uint64_t k : index_.long_arrows()) {
    const double s = send(k), r = recv(k);
    const bool crosses = (s < frame_.from && r >= frame_.from) || (s > frame_.to && r <= frame_.to);
    if (!crosses) continue;
    const uint32_t from_row = m.thread[index_.arrow_send_row(k)];
    const uint32_t to_row = m.thread[index_.arrow_recv_row(k)];
    if (!requested[from_row] && !requested[to_row]) continue;
    TimelineIndex::Channel ch;
    ch.from_row = from_row;
    ch.to_row = to_row;
    add(ch, k, 1);
  }
}

void TileWriter::Counter(uint32_t track_index) {
  const TimelineIndex::Track& track = index_.track(track_index);
  const model::CounterTable& c = trace_.counter_samples;
  const uint64_t n = track.samples.size();
  auto t = [&](uint64_t k) { return frame_.T(c.time[track.samples[k]]); };
  auto value = [&](uint64_t k) { return c.value[track.samples[k]]; };
  uint64_t i = Gallop(0, n, [&](uint64_t k) { return t(k) >= frame_.from; });
  const uint64_t hi = Gallop(i, n, [&](uint64_t k) { return t(k) > frame_.to; });
  if (i > 0) {
    TileCounterPoint p;
    p.time = t(i - 1);
    p.min = p.max = p.last = value(i - 1);
    p.track = track_index;
    p.count = 1;
    rec_.points.push_back(p);
  }
  constexpr uint64_t kB = TimelineIndex::kBlock;
  while (i < hi) {
    const int64_t px = frame_.Px(t(i));
    const uint64_t j = Gallop(i + 1, hi, [&](uint64_t k) { return frame_.Px(t(k)) > px; });
    TileCounterPoint p;
    p.time = t(i);
    p.min = p.max = value(i);
    p.last = value(j - 1);
    p.track = track_index;
    p.count = static_cast<uint32_t>(j - i);
    auto raw = [&](uint64_t k) {
      p.min = std::min(p.min, value(k));
      p.max = std::max(p.max, value(k));
    };
    uint64_t q = i;
    if (j - i > 2 * kB && !track.levels.empty()) {
      for (; q % kB != 0; ++q)
        raw(q);
      while (q + kB <= j) {
        size_t level = 0;
        uint64_t span = kB;
        while (level + 1 < track.levels.size() && q % (span * TimelineIndex::kFanout) == 0 &&
               q + span * TimelineIndex::kFanout <= j) {
          ++level;
          span *= TimelineIndex::kFanout;
        }
        const TimelineIndex::ValueSummary& s = track.levels[level][q / span];
        p.min = std::min(p.min, s.min);
        p.max = std::max(p.max, s.max);
        q += span;
      }
    }
    for (; q < j; ++q)
      raw(q);
    rec_.points.push_back(p);
    i = j;
  }
}

void TileWriter::Append(std::string* out) const {
  AppendTile(request_, rec_, out);
}

}  // namespace

Status BuildTile(const TimelineIndex& index, const TileRequest& request, std::string* out) {
  PLX_RETURN_IF_ERROR(CheckTileRequest(request, index.rows(), index.counter_tracks().size()));
  TileWriter writer(index, request);
  std::vector<uint8_t> requested(index.rows(), 0);
  for (uint32_t row : request.rows) {
    if (requested[row]) continue;  // asked twice: drawn once
    requested[row] = 1;
    writer.Slices(row);
  }
  std::fill(requested.begin(), requested.end(), 0);
  for (uint32_t row : request.rows) {
    if (requested[row]) continue;
    requested[row] = 1;
    writer.Instants(row);
  }
  if (request.arrows) writer.Arrows(requested);
  for (uint32_t track : request.counters)
    writer.Counter(track);
  writer.Append(out);
  return Status::Ok();
}

}  // namespace plx::server
