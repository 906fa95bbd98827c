// plx::server::ReplayIndex: what the replay cursor asks of a loaded trace —
// the state of every row, the counter values and the messages in flight at one
// moment — answered in O(log n) per row, built once per trace on first use.
//
// Design (src/server/README.md has the longer version):
//  - Per-row ranges of the model's tables (rows are sorted by thread, then
//    time), so any row's next or last record is a binary search.
//  - The innermost slice covering t: per (row, depth) lane of the
//    TimelineIndex, the last slice beginning at or before t (a binary search
//    of the lane's sampled begins and a scan of <= 16), deepest covering wins.
//  - Messages in flight at t (sent at or before t, received after t or
//    never): all sends sorted by send time. Their count is exact in O(log n):
//    sends at or before t, minus receives at or before t (delivered messages
//    of non-negative latency: a receive at or before t implies its send is),
//    minus messages of negative latency sent at or before t (never in flight).
//    The oldest ones are listed from the undelivered and the long-latency
//    messages (above the 99.9th percentile), then a scan of the sends in
//    [t - that latency, t], which holds every other one in flight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/trace.h"
#include "server/timeline/timeline_index.h"
#include "time/message_pairs.h"

namespace plx::server {

class ReplayIndex {
 public:
  /// A half-open range of table rows.
  struct Range {
    uint64_t begin = 0, end = 0;
  };
  /// One message in flight: its send record, and its receive record (kNone:
  /// never received).
  struct InFlight {
    uint32_t send = 0, recv = model::kNone;
  };

  /// Builds the index over `timeline`'s trace and `pairs` (both must outlive it).
  static ReplayIndex Build(const TimelineIndex& timeline, const time::MessagePairs& pairs);

  const model::Trace& trace() const { return timeline_->trace(); }
  const TimelineIndex& timeline() const { return *timeline_; }
  uint32_t rows() const { return timeline_->rows(); }

  /// Rows of Trace::slices, instants, messages and counter_samples of `row`.
  Range slices(uint32_t row) const { return {slice_first_[row], slice_first_[row + 1]}; }
  Range instants(uint32_t row) const;
  Range messages(uint32_t row) const { return {message_first_[row], message_first_[row + 1]}; }
  Range samples(uint32_t row) const { return {sample_first_[row], sample_first_[row + 1]}; }

  /// The innermost slice of `row` covering `t` (begin <= t < end, or a
  /// zero-length slice at t), or kNone.
  uint32_t SliceAt(uint32_t row, int64_t t) const;
  /// The last sample of counter track `track` at or before `t`, or kNone.
  uint32_t SampleAt(uint32_t track, int64_t t) const;
  /// The messages in flight at `t`, oldest send first (then by send record),
  /// at most `limit` of them into `out` (cleared); returns how many in all.
  uint64_t InFlightAt(int64_t t, size_t limit, std::vector<InFlight>* out) const;

  /// The other record of the matched message `message_row` belongs to, or kNone.
  uint32_t partner(uint32_t message_row) const { return partner_[message_row]; }
  /// The longest slice of `state` (of any state for kNone), ns; -1 when none.
  int64_t max_duration(uint32_t state) const;
  /// The largest send, bytes (0 when none).
  uint64_t max_send_bytes() const { return max_send_bytes_; }
  /// Whether every lane's slices end in begin order (true unless the model
  /// broke nesting); when false, ends are searched by scanning the row.
  bool ends_sorted(uint32_t row) const { return ends_sorted_[row] != 0; }

  /// Bytes the index holds (not counting the trace or the timeline index).
  size_t memory_bytes() const;

 private:
  struct Send {
    int64_t time = 0;
    uint32_t send = 0, recv = model::kNone;
  };

  const TimelineIndex* timeline_ = nullptr;
  std::vector<uint64_t> slice_first_, message_first_, sample_first_;  // per row + 1
  std::vector<uint8_t> ends_sorted_;                                  // per row
  std::vector<uint32_t> partner_;                                     // per message record
  std::vector<int64_t> max_duration_;                                 // per state, then any
  uint64_t max_send_bytes_ = 0;

  std::vector<Send> sends_;              // every send, by (time, record)
  std::vector<int64_t> recv_times_;      // receives of delivered messages of latency >= 0, sorted
  std::vector<int64_t> negative_sends_;  // send times of messages of negative latency, sorted
  std::vector<uint64_t> undelivered_;    // positions in sends_ of unmatched sends
  std::vector<uint64_t> long_;           // positions in sends_ of latency > long_latency_
  int64_t long_latency_ = 0;
};

}  // namespace plx::server
