// TimelineIndex::Build: lanes and their summary pyramids, instant row offsets,
// counter tracks, and message channels (see timeline_index.h for the design).
#include "server/timeline/timeline_index.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "base/sort_runs.h"
#include "base/state_vote.h"

namespace plx::server {

namespace {

// The dominant state of a vote as a summary.
TimelineIndex::SliceSummary BestSummary(const StateVote<32>& vote) {
  TimelineIndex::SliceSummary best;
  best.state = vote.BestState();
  best.ns = static_cast<float>(vote.BestNs());
  return best;
}

template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

// The time-bucket pyramid of a lane whose slice ids (in begin order) are ids.
void BuildTimeBuckets(const model::SliceTable& slices, const uint32_t* ids,
                      TimelineIndex::Lane* lane) {
  using TimeBucket = TimelineIndex::TimeBucket;
  using SliceSummary = TimelineIndex::SliceSummary;
  constexpr uint32_t kBlock = TimelineIndex::kBlock, kTimeFanout = TimelineIndex::kTimeFanout;
  if (lane->count < 2 * kBlock) return;
  lane->t0 = slices.begin[ids[0]];
  const uint64_t span = static_cast<uint64_t>(slices.begin[ids[lane->count - 1]] - lane->t0) + 1;
  // A power of two at least kBlock mean gaps: at most count / kBlock buckets.
  uint64_t w = 1;
  while (w * lane->count < span * kBlock)
    w *= 2;
  lane->bucket_ns = static_cast<int64_t>(w);
  std::vector<TimeBucket> level((span + w - 1) / w);
  {
    StateVote<32> vote;
    uint64_t b = 0;
    auto flush = [&] {
      const SliceSummary best = BestSummary(vote);
      level[b].state = best.state;
      level[b].ns = best.ns;
      vote = StateVote<32>();
    };
    for (uint32_t k = 0; k < lane->count; ++k) {
      const uint32_t id = ids[k];
      const uint64_t bk = static_cast<uint64_t>(slices.begin[id] - lane->t0) / w;
      if (bk != b) {
        if (level[b].count) flush();
        b = bk;
      }
      const int64_t d = slices.end[id] - slices.begin[id];
      vote.Add(slices.state[id], static_cast<double>(d));
      ++level[b].count;
      // Rounded up, so that a comparison with a pixel's width never misses a
      // long slice.
      level[b].max_ns = std::max(level[b].max_ns, std::nextafter(static_cast<float>(d), 1e30f));
    }
    flush();
  }
  while (true) {
    lane->time_levels.push_back(std::move(level));
    const std::vector<TimeBucket>& below = lane->time_levels.back();
    if (below.size() <= 1) break;
    std::vector<TimeBucket> next((below.size() + kTimeFanout - 1) / kTimeFanout);
    for (size_t k = 0; k < next.size(); ++k) {
      StateVote<32> vote;
      TimeBucket& t = next[k];
      for (size_t j = k * kTimeFanout; j < std::min(below.size(), (k + 1) * kTimeFanout); ++j) {
        if (!below[j].count) continue;
        vote.Add(below[j].state, below[j].ns);
        t.count += below[j].count;
        t.max_ns = std::max(t.max_ns, below[j].max_ns);
      }
      const SliceSummary best = BestSummary(vote);
      t.state = best.state;
      t.ns = best.ns;
    }
    level = std::move(next);
  }
}

}  // namespace

TimelineIndex TimelineIndex::Build(const model::Trace& trace, const time::MessagePairs& pairs,
                                   const std::function<void(uint64_t, uint64_t)>& progress) {
  TimelineIndex index;
  index.trace_ = &trace;
  const model::SliceTable& slices = trace.slices;
  const uint32_t rows = static_cast<uint32_t>(trace.threads.size());
  const uint64_t total =
      slices.size() + trace.instants.size() + trace.counter_samples.size() + pairs.pairs.size();
  uint64_t done = 0;
  auto report = [&](uint64_t add) {
    done += add;
    if (progress) progress(done, total);
  };

  // Lanes: count slices per (row, depth), then place their ids.
  index.max_depth_.assign(rows, 0);
  for (size_t i = 0; i < slices.size(); ++i) {
    const uint32_t row = slices.thread[i];
    if (row < rows) index.max_depth_[row] = std::max(index.max_depth_[row], slices.depth[i]);
  }
  index.row_lanes_.resize(static_cast<size_t>(rows) + 1);
  uint32_t lanes = 0;
  for (uint32_t r = 0; r < rows; ++r) {
    index.row_lanes_[r] = lanes;
    lanes += static_cast<uint32_t>(index.max_depth_[r]) + 1;
  }
  index.row_lanes_[rows] = lanes;
  index.lanes_.resize(lanes);
  for (size_t i = 0; i < slices.size(); ++i) {
    const uint32_t row = slices.thread[i];
    if (row < rows) ++index.lanes_[index.row_lanes_[row] + slices.depth[i]].count;
  }
  uint64_t offset = 0;
  for (Lane& lane : index.lanes_) {
    lane.first = offset;
    offset += lane.count;
  }
  index.slice_ids_.resize(offset);
  {
    std::vector<uint64_t> fill(lanes);
    for (uint32_t l = 0; l < lanes; ++l)
      fill[l] = index.lanes_[l].first;
    for (size_t i = 0; i < slices.size(); ++i) {
      const uint32_t row = slices.thread[i];
      if (row < rows)
        index.slice_ids_[fill[index.row_lanes_[row] + slices.depth[i]]++] =
            static_cast<uint32_t>(i);
    }
  }
  // Rows are sorted by thread, then begin, so each lane is in begin order;
  // sort anyway should a loader ever break that.
  for (Lane& lane : index.lanes_) {
    auto b = index.slice_ids_.begin() + static_cast<ptrdiff_t>(lane.first);
    auto e = b + lane.count;
    if (!std::is_sorted(b, e,
                        [&](uint32_t x, uint32_t y) { return slices.begin[x] < slices.begin[y]; }))
      std::stable_sort(b, e,
                       [&](uint32_t x, uint32_t y) { return slices.begin[x] < slices.begin[y]; });
    const uint32_t* ids = index.slice_ids_.data() + lane.first;
    lane.sampled_begin.resize((lane.count + kBlock - 1) / kBlock);
    for (uint32_t k = 0; k < lane.sampled_begin.size(); ++k)
      lane.sampled_begin[k] = slices.begin[ids[static_cast<size_t>(k) * kBlock]];
    // Level 0 from the slices, level k + 1 from kFanout blocks of level k;
    // only whole blocks are summarised.
    uint64_t span = kBlock;
    std::vector<SliceSummary> level(lane.count / kBlock);
    for (size_t k = 0; k < level.size(); ++k) {
      StateVote<32> vote;
      for (size_t j = k * kBlock; j < (k + 1) * kBlock; ++j)
        vote.Add(slices.state[ids[j]],
                 static_cast<double>(slices.end[ids[j]] - slices.begin[ids[j]]));
      level[k] = BestSummary(vote);
    }
    while (!level.empty()) {
      lane.levels.push_back(std::move(level));
      const std::vector<SliceSummary>& below = lane.levels.back();
      span *= kFanout;
      std::vector<SliceSummary> next(lane.count / span);
      for (size_t k = 0; k < next.size(); ++k) {
        StateVote<32> vote;
        for (size_t j = k * kFanout; j < (k + 1) * kFanout; ++j)
          vote.Add(below[j].state, below[j].ns);
        next[k] = BestSummary(vote);
      }
      level = std::move(next);
    }
    BuildTimeBuckets(slices, ids, &lane);
    report(lane.count);
  }

  // Instants: rows are sorted by thread, so a row is a range.
  index.instant_offsets_.assign(static_cast<size_t>(rows) + 1, 0);
  {
    const std::vector<uint32_t>& thread = trace.instants.thread;
    for (uint32_t r = 0; r <= rows; ++r)
      index.instant_offsets_[r] =
          static_cast<uint32_t>(std::lower_bound(thread.begin(), thread.end(), r) - thread.begin());
    report(trace.instants.size());
  }

  // Counter tracks: samples grouped by (thread, counter), keeping time order.
  {
    const model::CounterTable& c = trace.counter_samples;
    const auto before = [&](uint32_t x, uint32_t y) {
      if (c.thread[x] != c.thread[y]) return c.thread[x] < c.thread[y];
      if (c.counter[x] != c.counter[y]) return c.counter[x] < c.counter[y];
      return c.time[x] < c.time[y];
    };
    // Samples are in time order per thread: grouping them by (thread,
    // counter) with a counting sort leaves them sorted, which SortRuns checks.
    const size_t counters = trace.counters.size();
    const size_t groups = static_cast<size_t>(rows) * counters;
    const bool dense =
        groups <= 4 * c.size() + 4096 &&
        std::all_of(c.thread.begin(), c.thread.end(), [&](uint32_t t) { return t < rows; }) &&
        std::all_of(c.counter.begin(), c.counter.end(), [&](uint32_t k) { return k < counters; });
    std::vector<uint32_t> order;
    if (dense) {
      order = CountingOrder(c.size(), groups,
                            [&](size_t i) { return c.thread[i] * counters + c.counter[i]; });
    } else {
      order.resize(c.size());
      std::iota(order.begin(), order.end(), 0u);
    }
    SortRuns(order.begin(), order.end(), before);
    for (size_t i = 0; i < order.size();) {
      size_t j = i;
      while (j < order.size() && c.thread[order[j]] == c.thread[order[i]] &&
             c.counter[order[j]] == c.counter[order[i]])
        ++j;
      CounterTrack info;
      info.thread = c.thread[order[i]];
      info.counter = c.counter[order[i]];
      info.samples = j - i;
      info.min = info.max = c.value[order[i]];
      Track track;
      track.samples.assign(order.begin() + static_cast<ptrdiff_t>(i),
                           order.begin() + static_cast<ptrdiff_t>(j));
      std::vector<ValueSummary> level(track.samples.size() / kBlock);
      for (size_t k = 0; k < level.size(); ++k) {
        ValueSummary s{c.value[track.samples[k * kBlock]], c.value[track.samples[k * kBlock]]};
        for (size_t q = k * kBlock; q < (k + 1) * kBlock; ++q) {
          s.min = std::min(s.min, c.value[track.samples[q]]);
          s.max = std::max(s.max, c.value[track.samples[q]]);
        }
        level[k] = s;
      }
      for (uint32_t id : track.samples) {
        info.min = std::min(info.min, c.value[id]);
        info.max = std::max(info.max, c.value[id]);
      }
      while (!level.empty()) {
        track.levels.push_back(std::move(level));
        const std::vector<ValueSummary>& below = track.levels.back();
        std::vector<ValueSummary> next(below.size() / kFanout);
        for (size_t k = 0; k < next.size(); ++k) {
          ValueSummary s = below[k * kFanout];
          for (size_t q = k * kFanout; q < (k + 1) * kFanout; ++q) {
            s.min = std::min(s.min, below[q].min);
            s.max = std::max(s.max, below[q].max);
          }
          next[k] = s;
        }
        level = std::move(next);
      }
      index.counter_tracks_.push_back(info);
      index.tracks_.push_back(std::move(track));
      i = j;
    }
    report(c.size());
  }

  // Message channels.
  {
    const model::MessageTable& m = trace.messages;
    std::vector<uint32_t> order;
    order.reserve(pairs.pairs.size());
    for (uint32_t p = 0; p < pairs.pairs.size(); ++p) {
      const time::MessagePair& mp = pairs.pairs[p];
      if (mp.send < m.size() && mp.recv < m.size() && m.thread[mp.send] < rows &&
          m.thread[mp.recv] < rows)
        order.push_back(p);
    }
    auto key = [&](uint32_t p) {
      const time::MessagePair& mp = pairs.pairs[p];
      return std::make_tuple(m.thread[mp.send], m.thread[mp.recv], m.time[mp.send], mp.send);
    };
    const auto before = [&](uint32_t x, uint32_t y) { return key(x) < key(y); };
    // Pairs are in send row order, so grouping them by (sender, receiver)
    // row with a counting sort mostly leaves them sorted.
    const size_t groups = static_cast<size_t>(rows) * rows;
    if (groups <= 4 * order.size() + 4096) {
      std::vector<uint32_t> grouped = CountingOrder(order.size(), groups, [&](size_t i) {
        const time::MessagePair& mp = pairs.pairs[order[i]];
        return static_cast<size_t>(m.thread[mp.send]) * rows + m.thread[mp.recv];
      });
      for (uint32_t& g : grouped)
        g = order[g];
      order = std::move(grouped);
    }
    SortRuns(order.begin(), order.end(), before);
    index.arrow_send_time_.resize(order.size());
    index.arrow_send_row_.resize(order.size());
    index.arrow_recv_row_.resize(order.size());
    std::vector<int64_t> latency(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
      const time::MessagePair& mp = pairs.pairs[order[i]];
      index.arrow_send_time_[i] = m.time[mp.send];
      index.arrow_send_row_[i] = mp.send;
      index.arrow_recv_row_[i] = mp.recv;
      latency[i] = m.time[mp.recv] - m.time[mp.send];
    }
    // Long: above the 99.9th percentile latency, or negative (before repair).
    int64_t limit = 0;
    if (!latency.empty()) {
      std::vector<int64_t> sorted = latency;
      const size_t at = std::min(sorted.size() - 1, sorted.size() * 999 / 1000);
      std::nth_element(sorted.begin(), sorted.begin() + static_cast<ptrdiff_t>(at), sorted.end());
      limit = std::max<int64_t>(sorted[at], 0);
    }
    index.long_latency_ = limit;
    index.arrow_sampled_send_.resize((order.size() + kBlock - 1) / kBlock);
    for (size_t k = 0; k < index.arrow_sampled_send_.size(); ++k)
      index.arrow_sampled_send_[k] = index.arrow_send_time_[k * kBlock];
    index.channels_from_.assign(static_cast<size_t>(rows) + 1, 0);
    index.channels_to_.resize(rows);
    for (size_t i = 0; i < order.size();) {
      Channel ch;
      ch.from_row = m.thread[index.arrow_send_row_[i]];
      ch.to_row = m.thread[index.arrow_recv_row_[i]];
      ch.first = i;
      size_t j = i;
      while (j < order.size() && m.thread[index.arrow_send_row_[j]] == ch.from_row &&
             m.thread[index.arrow_recv_row_[j]] == ch.to_row) {
        if (latency[j] > limit || latency[j] < 0)
          index.long_arrows_.push_back(j);
        else
          ch.max_short_latency = std::max(ch.max_short_latency, latency[j]);
        ++j;
      }
      ch.count = static_cast<uint32_t>(j - i);
      index.channels_to_[ch.to_row].push_back(static_cast<uint32_t>(index.channels_.size()));
      index.channels_.push_back(ch);
      i = j;
    }
    // channels_ is by from_row: prefix offsets.
    for (const Channel& ch : index.channels_)
      ++index.channels_from_[ch.from_row + 1];
    for (uint32_t r = 0; r < rows; ++r)
      index.channels_from_[r + 1] += index.channels_from_[r];
    std::sort(index.long_arrows_.begin(), index.long_arrows_.end(), [&](uint64_t x, uint64_t y) {
      return index.arrow_send_time_[x] < index.arrow_send_time_[y];
    });
    report(pairs.pairs.size());
  }
  return index;
}

uint16_t TimelineIndex::max_depth(uint32_t row) const {
  return row < max_depth_.size() ? max_depth_[row] : 0;
}

const TimelineIndex::Lane* TimelineIndex::lane(uint32_t row, uint16_t depth) const {
  if (row >= max_depth_.size() || depth > max_depth_[row]) return nullptr;
  return &lanes_[row_lanes_[row] + depth];
}

size_t TimelineIndex::memory_bytes() const {
  size_t bytes = sizeof(*this) + Bytes(max_depth_) + Bytes(row_lanes_) + Bytes(lanes_) +
                 Bytes(slice_ids_) + Bytes(instant_offsets_) + Bytes(counter_tracks_) +
                 Bytes(tracks_) + Bytes(channels_) + Bytes(channels_from_) + Bytes(channels_to_) +
                 Bytes(arrow_send_time_) + Bytes(arrow_sampled_send_) + Bytes(arrow_send_row_) +
                 Bytes(arrow_recv_row_) + Bytes(long_arrows_);
  for (const Lane& lane : lanes_) {
    bytes += Bytes(lane.sampled_begin) + Bytes(lane.levels) + Bytes(lane.time_levels);
    for (const auto& level : lane.levels)
      bytes += Bytes(level);
    for (const auto& level : lane.time_levels)
      bytes += Bytes(level);
  }
  for (const Track& track : tracks_) {
    bytes += Bytes(track.samples) + Bytes(track.levels);
    for (const auto& level : track.levels)
      bytes += Bytes(level);
  }
  for (const auto& to : channels_to_)
    bytes += Bytes(to);
  return bytes;
}

}  // namespace plx::server
