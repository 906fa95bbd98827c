// plx::server::TimelineIndex: the level-of-detail index the tile builder reads,
// built once per loaded trace (after causal repair). It lets a tile of any zoom
// be answered in time proportional to its width, not to the events it covers.
//
// Design (src/server/README.md has the longer version):
//  - Slices: one lane per (row, depth): the lane's slice ids in begin order.
//    Every 16th begin is sampled into a small array, so finding a pixel's
//    boundary is a gallop over cache-resident samples plus a scan of <= 16.
//    A pyramid of summaries over slice *indices* (blocks of 16, 128, 1024, ...
//    slices) holds each block's dominant state and its ns, so a merged run of
//    a million slices costs a few dozen summary reads. A second pyramid over
//    *time* buckets (~16 slices each, fan-out 4) holds per bucket the dominant
//    state, the count and the longest slice, so a pixel that only extends the
//    merged bar before it needs no search of its slice boundaries at all.
//    ~6.5 bytes per slice.
//  - Instants need nothing beyond per-row offsets (the table is sorted by
//    thread, then time); counter tracks keep their sample ids and a min/max
//    pyramid of the same shape.
//  - Arrows: matched messages grouped by channel (send row, receive row),
//    sorted by send time, with each channel's send times copied contiguously.
//    Messages whose latency is above the 99.9th percentile (or negative) are
//    also listed apart, so selecting by overlap scans back only a short time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "model/trace.h"
#include "time/message_pairs.h"

namespace plx::server {

class TimelineIndex {
 public:
  /// One counter on one thread: a counter row under the thread.
  struct CounterTrack {
    uint32_t thread = 0, counter = 0;
    double min = 0, max = 0;
    uint64_t samples = 0;
  };

  // A summary of a block of consecutive lane slices: the state that covers
  // most of its time, and that time.
  struct SliceSummary {
    uint32_t state = 0;
    float ns = 0;
  };
  // A summary of the slices of a lane that begin in one time bucket: the
  // state covering most of their time and that time, how many there are and
  // the longest one's duration (ns; -1 when the bucket is empty).
  struct TimeBucket {
    uint32_t state = 0;
    float ns = 0;
    uint32_t count = 0;
    float max_ns = -1;
  };
  struct ValueSummary {
    double min = 0, max = 0;
  };

  // The slices of one (row, depth). ids are lane-local positions into
  // slice_ids_[first, first + count).
  struct Lane {
    uint64_t first = 0;
    uint32_t count = 0;
    std::vector<int64_t> sampled_begin;             // begin of every kBlock-th slice
    std::vector<std::vector<SliceSummary>> levels;  // level k: blocks of kBlock * kFanout^k
    // Time buckets (empty for lanes of fewer than 2 * kBlock slices): level k
    // bucket b holds the slices beginning in [t0 + b * w, t0 + (b + 1) * w),
    // w = bucket_ns * kTimeFanout^k; bucket_ns is a power of two near
    // kBlock mean slice gaps. Level k + 1 from kTimeFanout buckets of level k.
    int64_t t0 = 0;
    int64_t bucket_ns = 0;
    std::vector<std::vector<TimeBucket>> time_levels;
  };

  struct Track {
    std::vector<uint32_t> samples;  // rows of Trace::counter_samples, in time order
    std::vector<std::vector<ValueSummary>> levels;
  };

  // Messages of one (send row, receive row), rows [first, first + count) of
  // the arrow arrays.
  struct Channel {
    uint32_t from_row = 0, to_row = 0;
    uint64_t first = 0;
    uint32_t count = 0;
    int64_t max_short_latency = 0;  // latency limit of the messages not in long_
  };

  static constexpr uint32_t kBlock = 16;      // slices per level-0 summary
  static constexpr uint32_t kFanout = 8;      // blocks per next-level block
  static constexpr uint32_t kTimeFanout = 4;  // time buckets per next-level bucket

  /// Builds the index of `trace` (which must outlive it) and its matched
  /// messages; `progress` (may be empty) is called now and then.
  static TimelineIndex Build(
      const model::Trace& trace, const time::MessagePairs& pairs,
      const std::function<void(uint64_t done, uint64_t total)>& progress = {});

  const model::Trace& trace() const { return *trace_; }
  uint32_t rows() const { return static_cast<uint32_t>(trace_->threads.size()); }

  /// Deepest nesting of `row`'s slices (0 = one level, also when it has none).
  uint16_t max_depth(uint32_t row) const;

  /// One per (thread, counter) with samples, ordered by thread, then counter.
  const std::vector<CounterTrack>& counter_tracks() const { return counter_tracks_; }

  /// Bytes the index holds (not counting the trace).
  size_t memory_bytes() const;

  // For the tile builder.
  const Lane* lane(uint32_t row, uint16_t depth) const;
  uint32_t slice_id(const Lane& lane, uint32_t i) const { return slice_ids_[lane.first + i]; }
  uint32_t instants_begin(uint32_t row) const { return instant_offsets_[row]; }
  uint32_t instants_end(uint32_t row) const { return instant_offsets_[row + 1]; }
  const Track& track(uint32_t index) const { return tracks_[index]; }
  const std::vector<Channel>& channels() const { return channels_; }
  // Channels sorted by from_row: [channels_from_[row], channels_from_[row + 1]).
  uint32_t channels_from_begin(uint32_t row) const { return channels_from_[row]; }
  uint32_t channels_from_end(uint32_t row) const { return channels_from_[row + 1]; }
  // Channel indices whose to_row is `row`.
  const std::vector<uint32_t>& channels_to(uint32_t row) const { return channels_to_[row]; }
  int64_t arrow_send(uint64_t i) const { return arrow_send_time_[i]; }
  // arrow_send(k * kBlock) for every k (a gallop over it stays in cache).
  const std::vector<int64_t>& arrow_sampled_send() const { return arrow_sampled_send_; }
  uint32_t arrow_send_row(uint64_t i) const { return arrow_send_row_[i]; }
  uint32_t arrow_recv_row(uint64_t i) const { return arrow_recv_row_[i]; }
  // Arrow positions (into the arrays above) of the long and negative-latency
  // messages, by send time.
  const std::vector<uint64_t>& long_arrows() const { return long_arrows_; }
  /// Whether the arrow at `i` is in long_arrows().
  bool is_long(uint64_t i) const {
    const int64_t latency = trace_->messages.time[arrow_recv_row_[i]] - arrow_send_time_[i];
    return latency > long_latency_ || latency < 0;
  }

 private:
  const model::Trace* trace_ = nullptr;
  std::vector<uint16_t> max_depth_;        // per row
  std::vector<uint32_t> row_lanes_;        // per row + 1: lanes of depth 0.. of the row
  std::vector<Lane> lanes_;                // by row, then depth
  std::vector<uint32_t> slice_ids_;        // all lanes' slice ids
  std::vector<uint32_t> instant_offsets_;  // per row + 1
  std::vector<CounterTrack> counter_tracks_;
  std::vector<Track> tracks_;
  std::vector<Channel> channels_;  // by from_row, then to_row
  std::vector<uint32_t> channels_from_;
  std::vector<std::vector<uint32_t>> channels_to_;
  std::vector<int64_t> arrow_send_time_;  // per arrow, channels in order, by send time
  std::vector<int64_t> arrow_sampled_send_;
  std::vector<uint32_t> arrow_send_row_;  // Trace::messages row of the send
  std::vector<uint32_t> arrow_recv_row_;  // ... of the receive
  std::vector<uint64_t> long_arrows_;
  int64_t long_latency_ = 0;  // messages above it are long
};

}  // namespace plx::server
