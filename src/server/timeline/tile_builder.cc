// BuildTile: the slices of every requested row (tile_slices.cc), then its
// instants, the arrows of its channels and the counter points, each grouped by
// pixel the same way (galloping over times, then one block), so a tile is
// O(width) per row.
#include "server/timeline/tile_builder.h"

#include <algorithm>

#include "server/api.gen.h"
#include "server/timeline/tile_writer.h"

namespace plx::server {

namespace tile_internal {

using wire::TileArrow;
using wire::TileCounterPoint;
using wire::TileInstant;

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
    if (!requested[row] || !request_.Here(row)) continue;
    for (uint32_t c = index_.channels_from_begin(row); c < index_.channels_from_end(row); ++c)
      channel(channels[c]);
    for (uint32_t c : index_.channels_to(row))
      if (!requested[channels[c].from_row]) channel(channels[c]);
  }
  // Long (and negative-latency) messages sent outside the window that still
  // cross it.
  if (!request_.long_arrows) return;
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

}  // namespace tile_internal

Status BuildTile(const TimelineIndex& index, const TileRequest& request, std::string* out) {
  PLX_RETURN_IF_ERROR(CheckTileRequest(request, index.rows(), index.counter_tracks().size()));
  tile_internal::TileWriter writer(index, request);
  std::vector<uint8_t> requested(index.rows(), 0);
  for (uint32_t row : request.rows) {
    if (requested[row]) continue;  // asked twice: drawn once
    requested[row] = 1;
    if (request.Here(row)) writer.Slices(row);
  }
  for (uint32_t row : request.rows)
    if (requested[row] == 1 && request.Here(row)) {
      requested[row] = 2;
      writer.Instants(row);
    }
  for (uint32_t row : request.rows)
    requested[row] = 1;
  if (request.arrows) writer.Arrows(requested);
  for (uint32_t track : request.counters)
    if (request.Here(index.counter_tracks()[track].thread)) writer.Counter(track);
  writer.Append(out);
  return Status::Ok();
}

}  // namespace plx::server