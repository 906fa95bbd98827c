// The timeline summary: what the viewer's timeline needs to draw a trace
// at any zoom where a pixel holds many records, without its records — per
// thread, per depth of slices, a pyramid of time buckets (the dominant
// state of the slices beginning in each, how many and where the last of
// them ends), and the same for instants and for each counter's samples.
// Built by one thread pass on the repaired times and kept in the trace's
// index with the repair it was built on (docs/format.md). Below a bucket per
// pixel, a tile decodes the chunks it shows instead (server/timeline/store_timeline.h).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "time/time_map.h"

namespace plx::store {

class TraceStore;

/// Slices beginning in one bucket: the state covering most of their time,
/// that time, their count, and the latest end among them (ns after the
/// bucket's start; 0 when the bucket is empty).
struct SliceBucket {
  uint32_t state = 0;
  float ns = 0;
  uint32_t count = 0;
  float end = 0;
  bool operator==(const SliceBucket&) const = default;
};

/// Instants in one bucket: their count, the first one's type and time (ns
/// after the bucket's start).
struct InstantBucket {
  uint32_t count = 0;
  uint32_t type = 0;
  float first = 0;
  bool operator==(const InstantBucket&) const = default;
};

/// Samples of one counter in one bucket: their count, least and greatest
/// value, the last value and the first sample's time (ns after the start).
struct ValueBucket {
  uint32_t count = 0;
  float first = 0;
  double min = 0, max = 0, last = 0;
  bool operator==(const ValueBucket&) const = default;
};

/// Buckets of width `bucket_ns << (2 * k)` at level k from the thread's
/// origin; level k + 1 sums kSummaryFanout buckets of level k.
template <typename Bucket>
struct BucketPyramid {
  int64_t bucket_ns = 1;
  std::vector<std::vector<Bucket>> levels;
  bool operator==(const BucketPyramid&) const = default;
};

inline constexpr uint32_t kSummaryFanout = 4;

struct CounterSummary {
  uint32_t counter = 0;  // index into Trace::counters
  uint64_t samples = 0;
  double min = 0, max = 0;
  BucketPyramid<ValueBucket> buckets;
  bool operator==(const CounterSummary&) const = default;
};

struct ThreadSummary {
  int64_t origin = 0;                              // bucket 0 starts here (repaired ns)
  std::vector<BucketPyramid<SliceBucket>> depths;  // slices by depth
  BucketPyramid<InstantBucket> instants;
  std::vector<CounterSummary> counters;  // by counter index
  uint64_t sends = 0;                    // message send records
  bool operator==(const ThreadSummary&) const = default;
};

struct TimelineSummary {
  std::vector<ThreadSummary> threads;
  bool operator==(const TimelineSummary&) const = default;
  /// Bytes its buckets take in memory.
  uint64_t memory_bytes() const;
};

/// Level-0 buckets hold about this many slices of a thread (fewer when the
/// summary would not fit in its share of the budget).
inline constexpr uint64_t kSliceBucketTarget = 16;

/// Builds the summary with one thread pass (`maps`: per thread, may be
/// null), the buckets sized so that the whole takes at most about
/// `max_bytes`.
TimelineSummary BuildTimelineSummary(const TraceStore& store,
                                     const std::vector<time::ThreadTimeMap>* maps,
                                     uint64_t max_bytes,
                                     const std::function<void(uint64_t, uint64_t)>& progress = {});

/// Buckets [first, first + n) of one level, `width` ns each, as one bucket
/// (its offsets from the first one's start).
InstantBucket MergeBuckets(const std::vector<InstantBucket>& level, size_t first, size_t n,
                           double width);
ValueBucket MergeBuckets(const std::vector<ValueBucket>& level, size_t first, size_t n,
                         double width);

/// Adds the levels above level 0 (each kSummaryFanout buckets of the one
/// below, up to a single bucket).
void BuildLevels(BucketPyramid<SliceBucket>* p);
void BuildLevels(BucketPyramid<InstantBucket>* p);
void BuildLevels(BucketPyramid<ValueBucket>* p);

}  // namespace plx::store
