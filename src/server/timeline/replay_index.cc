// ReplayIndex::Build and the queries at one moment: the slice covering it per
// row, counter values and the messages in flight (see replay_index.h).
#include "server/timeline/replay_index.h"

#include <algorithm>

namespace plx::server {

namespace {

template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

// Per row + 1: where each row's records begin in a column sorted by thread.
std::vector<uint64_t> RowFirst(const std::vector<uint32_t>& thread, uint32_t rows) {
  std::vector<uint64_t> first(static_cast<size_t>(rows) + 1);
  for (uint32_t r = 0; r <= rows; ++r)
    first[r] =
        static_cast<uint64_t>(std::lower_bound(thread.begin(), thread.end(), r) - thread.begin());
  return first;
}

}  // namespace

ReplayIndex ReplayIndex::Build(const TimelineIndex& timeline, const time::MessagePairs& pairs) {
  ReplayIndex index;
  index.timeline_ = &timeline;
  const model::Trace& t = timeline.trace();
  const uint32_t rows = timeline.rows();
  index.slice_first_ = RowFirst(t.slices.thread, rows);
  index.message_first_ = RowFirst(t.messages.thread, rows);
  index.sample_first_ = RowFirst(t.counter_samples.thread, rows);

  const model::SliceTable& s = t.slices;
  index.max_duration_.assign(t.states.size() + 1, -1);
  for (size_t i = 0; i < index.slice_first_[rows]; ++i) {
    const int64_t d = s.end[i] - s.begin[i];
    if (s.state[i] < t.states.size())
      index.max_duration_[s.state[i]] = std::max(index.max_duration_[s.state[i]], d);
    index.max_duration_.back() = std::max(index.max_duration_.back(), d);
  }
  index.ends_sorted_.assign(rows, 1);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint16_t d = 0; d <= timeline.max_depth(r); ++d) {
      const TimelineIndex::Lane* lane = timeline.lane(r, d);
      for (uint32_t i = 1; lane && i < lane->count; ++i)
        if (s.end[timeline.slice_id(*lane, i)] < s.end[timeline.slice_id(*lane, i - 1)])
          index.ends_sorted_[r] = 0;
    }

  // Messages: partners, all sends by time, and the in-flight counting arrays.
  const model::MessageTable& m = t.messages;
  index.partner_.assign(m.size(), model::kNone);
  for (const time::MessagePair& p : pairs.pairs)
    if (p.send < m.size() && p.recv < m.size()) {
      index.partner_[p.send] = p.recv;
      index.partner_[p.recv] = p.send;
    }
  const uint64_t records = index.message_first_[rows];
  const size_t sends =
      static_cast<size_t>(std::count(m.is_send.begin(), m.is_send.begin() + records, 1));
  index.sends_.reserve(sends);
  index.recv_times_.reserve(sends);
  std::vector<int64_t> latencies;
  latencies.reserve(sends);
  for (uint64_t i = 0; i < records; ++i) {
    if (!m.is_send[i]) continue;
    const uint32_t send = static_cast<uint32_t>(i);
    uint32_t recv = index.partner_[i];
    if (recv != model::kNone && m.thread[recv] >= rows) recv = model::kNone;
    index.sends_.push_back({m.time[i], send, recv});
    index.max_send_bytes_ = std::max(index.max_send_bytes_, m.bytes[i]);
    if (recv == model::kNone) continue;
    const int64_t latency = m.time[recv] - m.time[i];
    if (latency < 0) {
      index.negative_sends_.push_back(m.time[i]);
    } else {
      index.recv_times_.push_back(m.time[recv]);
      latencies.push_back(latency);
    }
  }
  std::sort(index.sends_.begin(), index.sends_.end(), [](const Send& a, const Send& b) {
    return a.time != b.time ? a.time < b.time : a.send < b.send;
  });
  std::sort(index.recv_times_.begin(), index.recv_times_.end());
  index.recv_times_.shrink_to_fit();
  std::sort(index.negative_sends_.begin(), index.negative_sends_.end());
  if (!latencies.empty()) {
    const size_t at = std::min(latencies.size() - 1, latencies.size() * 999 / 1000);
    std::nth_element(latencies.begin(), latencies.begin() + static_cast<ptrdiff_t>(at),
                     latencies.end());
    index.long_latency_ = latencies[at];
  }
  for (uint64_t k = 0; k < index.sends_.size(); ++k) {
    const Send& send = index.sends_[k];
    if (send.recv == model::kNone)
      index.undelivered_.push_back(k);
    else if (m.time[send.recv] - send.time > index.long_latency_)
      index.long_.push_back(k);
  }
  return index;
}

ReplayIndex::Range ReplayIndex::instants(uint32_t row) const {
  return {timeline_->instants_begin(row), timeline_->instants_end(row)};
}

uint32_t ReplayIndex::SliceAt(uint32_t row, int64_t t) const {
  const model::SliceTable& s = trace().slices;
  uint32_t found = model::kNone;
  for (uint16_t d = 0; d <= timeline_->max_depth(row); ++d) {
    const TimelineIndex::Lane* lane = timeline_->lane(row, d);
    if (lane == nullptr || lane->count == 0) continue;
    // The last sampled begin at or before t, then at most kBlock slices on.
    const auto& sampled = lane->sampled_begin;
    const size_t block =
        static_cast<size_t>(std::upper_bound(sampled.begin(), sampled.end(), t) - sampled.begin());
    if (block == 0) continue;  // the lane's first slice begins after t
    uint32_t i = static_cast<uint32_t>((block - 1) * TimelineIndex::kBlock);
    const uint32_t stop =
        static_cast<uint32_t>(std::min<uint64_t>(lane->count, block * TimelineIndex::kBlock));
    while (i + 1 < stop && s.begin[timeline_->slice_id(*lane, i + 1)] <= t)
      ++i;
    const uint32_t id = timeline_->slice_id(*lane, i);
    if (t < s.end[id] || (s.begin[id] == t && s.end[id] == t)) found = id;
  }
  return found;
}

uint32_t ReplayIndex::SampleAt(uint32_t track, int64_t t) const {
  const std::vector<uint32_t>& ids = timeline_->track(track).samples;
  const std::vector<int64_t>& time = trace().counter_samples.time;
  const auto it =
      std::partition_point(ids.begin(), ids.end(), [&](uint32_t id) { return time[id] <= t; });
  return it == ids.begin() ? model::kNone : *(it - 1);
}

uint64_t ReplayIndex::InFlightAt(int64_t t, size_t limit, std::vector<InFlight>* out) const {
  out->clear();
  const std::vector<int64_t>& time = trace().messages.time;
  auto sent_before = [&](int64_t when) {  // positions in sends_ sent before `when`
    return static_cast<uint64_t>(
        std::partition_point(sends_.begin(), sends_.end(),
                             [&](const Send& s) { return s.time < when; }) -
        sends_.begin());
  };
  auto count_by = [](const std::vector<int64_t>& v, int64_t when) {
    return static_cast<uint64_t>(std::upper_bound(v.begin(), v.end(), when) - v.begin());
  };
  const uint64_t end = t == INT64_MAX ? sends_.size() : sent_before(t + 1);
  const uint64_t total = end - count_by(recv_times_, t) - count_by(negative_sends_, t);
  // Sent before t - long_latency_: only undelivered and long messages can
  // still be in flight. Both lists are by position, i.e. by send time.
  int64_t window = 0;
  if (__builtin_sub_overflow(t, long_latency_, &window)) window = INT64_MIN;
  const uint64_t start = std::min(end, sent_before(window));
  auto in_flight = [&](uint64_t k) {
    return sends_[k].recv == model::kNone || time[sends_[k].recv] > t;
  };
  auto emit = [&](uint64_t k) {
    if (out->size() >= limit) return false;
    out->push_back({sends_[k].send, sends_[k].recv});
    return true;
  };
  auto u = undelivered_.begin(), l = long_.begin();
  const auto u_end = std::lower_bound(undelivered_.begin(), undelivered_.end(), start);
  const auto l_end = std::lower_bound(long_.begin(), long_.end(), start);
  while (u != u_end || l != l_end) {
    const bool take_u = l == l_end || (u != u_end && *u < *l);
    const uint64_t k = take_u ? *u++ : *l++;
    if (in_flight(k) && !emit(k)) return total;
  }
  for (uint64_t k = start; k < end; ++k)
    if (in_flight(k) && !emit(k)) break;
  return total;
}

int64_t ReplayIndex::max_duration(uint32_t state) const {
  if (state == model::kNone) return max_duration_.back();
  return state + 1 < max_duration_.size() ? max_duration_[state] : -1;
}

size_t ReplayIndex::memory_bytes() const {
  return Bytes(slice_first_) + Bytes(message_first_) + Bytes(sample_first_) + Bytes(ends_sorted_) +
         Bytes(partner_) + Bytes(max_duration_) + Bytes(sends_) + Bytes(recv_times_) +
         Bytes(negative_sends_) + Bytes(undelivered_) + Bytes(long_);
}

}  // namespace plx::server
