// Building the timeline summary: each worker takes a thread, and every own
// row of its chunks lands in the level-0 bucket of its begin (slices, by
// depth), time (instants) or sample time (counters). A bucket's votes (ns
// per state) are exact while it fills; when a thread's buckets outgrow its
// share of the budget, all of them double their width (pairs merged, each
// voting with its dominant state).
#include "store/timeline_summary.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "base/state_vote.h"
#include "store/thread_pass.h"
#include "store/trace_store.h"

namespace plx::store {

namespace {

// Votes of the slices of one bucket: more distinct states than this in ~16
// slices are rare, and the largest of the first ones wins then.
using BucketVote = StateVote<16>;

// Buckets [first, first + n) of `below` (width w) as one bucket; n is at
// most kSummaryFanout.
SliceBucket MergeBuckets(const std::vector<SliceBucket>& below, size_t first, size_t n, double w) {
  SliceBucket out;
  StateVote<kSummaryFanout> votes;
  for (size_t k = 0; k < n && first + k < below.size(); ++k) {
    const SliceBucket& b = below[first + k];
    if (b.count == 0) continue;
    out.count += b.count;
    out.end = std::max(out.end, b.end + static_cast<float>(static_cast<double>(k) * w));
    votes.Add(b.state, b.ns);
  }
  if (out.count > 0) {
    out.state = votes.BestState();
    out.ns = static_cast<float>(votes.BestNs());
  }
  return out;
}

template <typename Bucket>
void Levels(BucketPyramid<Bucket>* p) {
  p->levels.resize(1);
  // A double: a damaged index's widths may be near int64's end.
  double w = static_cast<double>(p->bucket_ns);
  while (p->levels.back().size() > 1) {
    const std::vector<Bucket>& below = p->levels.back();
    std::vector<Bucket> above((below.size() + kSummaryFanout - 1) / kSummaryFanout);
    for (size_t i = 0; i < above.size(); ++i)
      above[i] = MergeBuckets(below, i * kSummaryFanout, kSummaryFanout, w);
    w *= kSummaryFanout;
    p->levels.push_back(std::move(above));
  }
}

// Merges pairs of level-0 buckets: the width doubles.
template <typename Bucket>
void Halve(std::vector<Bucket>* buckets, int64_t width) {
  const auto w = static_cast<double>(width);
  std::vector<Bucket> out((buckets->size() + 1) / 2);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = MergeBuckets(*buckets, 2 * i, 2, w);
  *buckets = std::move(out);
}

// One thread's level-0 buckets while its chunks come.
class ThreadBuilder {
 public:
  void Begin(int64_t origin, int64_t width, uint64_t max_buckets, size_t counters) {
    origin_ = origin;
    width_ = width;
    max_buckets_ = std::max<uint64_t>(max_buckets, 64);
    lanes_.clear();
    instants_.clear();
    counters_.clear();
    counter_slot_.assign(counters, UINT32_MAX);
    buckets_ = 0;
  }

  void Slice(uint16_t depth, int64_t begin, int64_t end, uint32_t state) {
    if (depth >= lanes_.size()) lanes_.resize(depth + 1);
    Lane& lane = lanes_[depth];
    const size_t b = Index(begin);
    if (lane.count > 0 && b != lane.at) Flush(&lane);
    lane.at = b;
    lane.count++;
    lane.end = std::max(lane.end, end);
    lane.votes.Add(state, static_cast<double>(end - begin));
  }

  void Instant(int64_t t, uint32_t type) {
    InstantBucket& b = Slot(&instants_, Index(t));
    if (b.count == 0) {
      b.type = type;
      b.first = static_cast<float>(t - Start(Index(t)));
    }
    b.count++;
    Grown();
  }

  void Sample(uint32_t counter, int64_t t, double value) {
    if (counter >= counter_slot_.size()) return;
    if (counter_slot_[counter] == UINT32_MAX) {
      counter_slot_[counter] = static_cast<uint32_t>(counters_.size());
      counters_.emplace_back();
      counters_.back().counter = counter;
      counters_.back().min = counters_.back().max = value;
    }
    CounterSummary& c = counters_[counter_slot_[counter]];
    c.samples++;
    c.min = std::min(c.min, value);
    c.max = std::max(c.max, value);
    std::vector<ValueBucket>& level = Level(&c.buckets);
    ValueBucket& b = Slot(&level, Index(t));
    if (b.count == 0) {
      b.first = static_cast<float>(t - Start(Index(t)));
      b.min = b.max = value;
    }
    b.min = std::min(b.min, value);
    b.max = std::max(b.max, value);
    b.last = value;
    b.count++;
    Grown();
  }

  ThreadSummary Finish() {
    for (Lane& lane : lanes_)
      if (lane.count > 0) Flush(&lane);
    ThreadSummary out;
    out.origin = origin_;
    for (Lane& lane : lanes_) {
      BucketPyramid<SliceBucket> p;
      p.bucket_ns = width_;
      p.levels.push_back(std::move(lane.buckets));
      Levels(&p);
      out.depths.push_back(std::move(p));
    }
    out.instants.bucket_ns = width_;
    out.instants.levels.push_back(std::move(instants_));
    Levels(&out.instants);
    for (CounterSummary& c : counters_) {
      c.buckets.bucket_ns = width_;
      Levels(&c.buckets);
    }
    std::sort(
        counters_.begin(), counters_.end(),
        [](const CounterSummary& a, const CounterSummary& b) { return a.counter < b.counter; });
    out.counters = std::move(counters_);
    return out;
  }

 private:
  struct Lane {
    std::vector<SliceBucket> buckets;
    size_t at = 0;  // the bucket filling
    uint32_t count = 0;
    int64_t end = 0;
    BucketVote votes;
  };

  size_t Index(int64_t t) const {
    return t <= origin_ ? 0 : static_cast<size_t>((t - origin_) / width_);
  }
  int64_t Start(size_t b) const { return origin_ + static_cast<int64_t>(b) * width_; }

  template <typename Bucket>
  Bucket& Slot(std::vector<Bucket>* level, size_t b) {
    if (b >= level->size()) {
      buckets_ += b + 1 - level->size();
      level->resize(b + 1);
    }
    return (*level)[b];
  }
  template <typename Bucket>
  static std::vector<Bucket>& Level(BucketPyramid<Bucket>* p) {
    if (p->levels.empty()) p->levels.emplace_back();
    return p->levels[0];
  }

  // The filling bucket of `lane` into its level (merged with what a
  // doubling put there).
  void Flush(Lane* lane) {
    SliceBucket add;
    add.state = lane->votes.BestState();
    add.ns = static_cast<float>(lane->votes.BestNs());
    add.count = lane->count;
    add.end = static_cast<float>(std::max<int64_t>(0, lane->end - Start(lane->at)));
    SliceBucket& b = Slot(&lane->buckets, lane->at);
    if (b.count == 0) {
      b = add;
    } else {
      std::vector<SliceBucket> two{b, add};
      b = MergeBuckets(two, 0, 2, 0);
    }
    lane->count = 0;
    lane->end = 0;
    lane->votes = BucketVote();
    Grown();
  }

  // Doubles the width of every bucket while the thread holds too many.
  void Grown() {
    while (buckets_ > max_buckets_) {
      buckets_ = 0;
      for (Lane& lane : lanes_) {
        Halve(&lane.buckets, width_);
        lane.at /= 2;
        buckets_ += lane.buckets.size();
      }
      Halve(&instants_, width_);
      buckets_ += instants_.size();
      for (CounterSummary& c : counters_) {
        Halve(&Level(&c.buckets), width_);
        buckets_ += c.buckets.levels[0].size();
      }
      width_ *= 2;
    }
  }

  int64_t origin_ = 0, width_ = 1;
  uint64_t max_buckets_ = 0, buckets_ = 0;
  std::vector<Lane> lanes_;
  std::vector<InstantBucket> instants_;
  std::vector<CounterSummary> counters_;
  std::vector<uint32_t> counter_slot_;  // by counter index: into counters_
};

class SummaryVisitor : public ChunkVisitor {
 public:
  SummaryVisitor(const TraceStore& store, const std::vector<time::ThreadTimeMap>* maps,
                 uint64_t max_bytes, TimelineSummary* out)
      : store_(store), maps_(maps), max_bytes_(max_bytes), out_(out) {
    for (uint32_t t = 0; t < store.threads(); ++t)
      slices_ += store.skeleton(t).rows.slices();
  }

  void BeginThread(uint32_t thread) override {
    const ThreadSkeleton& k = store_.skeleton(thread);
    const time::ThreadTimeMap* map = maps_ && thread < maps_->size() ? &(*maps_)[thread] : nullptr;
    const int64_t first = map ? map->Apply(k.first_ns) : k.first_ns;
    const int64_t last = map ? map->Apply(k.last_ns) : k.last_ns;
    const uint64_t slices = k.rows.slices();
    // The thread's share of the budget, in buckets (about 24 bytes each
    // with the levels above), for about four lists (depths, instants,
    // counters); doubling the width keeps them within it when there are more.
    const uint64_t share = slices_ == 0 ? 0
                                        : static_cast<uint64_t>(static_cast<double>(max_bytes_) *
                                                                static_cast<double>(slices) /
                                                                static_cast<double>(slices_));
    const uint64_t max_buckets = share / 24;
    const uint64_t want = std::clamp<uint64_t>(slices / kSliceBucketTarget, 1,
                                               std::max<uint64_t>(max_buckets / 4, 1));
    const uint64_t span = static_cast<uint64_t>(std::max<int64_t>(last - first, 1));
    const int64_t width = static_cast<int64_t>(std::bit_ceil(std::max<uint64_t>(span / want, 1)));
    builder_.Begin(first, width, max_buckets, store_.trace().counters.size());
  }

  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    const model::Trace& t = *rows.tables;
    const model::SliceTable& s = t.slices;
    for (size_t r = rows.carried; r < s.size(); ++r)
      builder_.Slice(s.depth[r], s.begin[r], s.end[r], s.state[r]);
    for (size_t r = 0; r < t.instants.size(); ++r)
      builder_.Instant(t.instants.time[r], t.instants.type[r]);
    for (size_t r = 0; r < t.messages.size(); ++r)
      sends_ += t.messages.is_send[r];
    const model::CounterTable& c = t.counter_samples;
    for (size_t r = 0; r < c.size(); ++r)
      builder_.Sample(c.counter[r], c.time[r], c.value[r]);
  }

  void EndThread(uint32_t thread) override {
    out_->threads[thread] = builder_.Finish();
    out_->threads[thread].sends = sends_;
    sends_ = 0;
  }

 private:
  const TraceStore& store_;
  const std::vector<time::ThreadTimeMap>* maps_;
  uint64_t max_bytes_;
  uint64_t slices_ = 0;
  uint64_t sends_ = 0;
  TimelineSummary* out_;
  ThreadBuilder builder_;
};

template <typename Bucket>
uint64_t PyramidBytes(const BucketPyramid<Bucket>& p) {
  uint64_t n = 0;
  for (const auto& level : p.levels)
    n += level.size() * sizeof(Bucket);
  return n;
}

}  // namespace

InstantBucket MergeBuckets(const std::vector<InstantBucket>& below, size_t first, size_t n,
                           double w) {
  InstantBucket out;
  for (size_t k = 0; k < n && first + k < below.size(); ++k) {
    const InstantBucket& b = below[first + k];
    if (b.count == 0) continue;
    if (out.count == 0) {
      out.type = b.type;
      out.first = b.first + static_cast<float>(static_cast<double>(k) * w);
    }
    out.count += b.count;
  }
  return out;
}

ValueBucket MergeBuckets(const std::vector<ValueBucket>& below, size_t first, size_t n, double w) {
  ValueBucket out;
  for (size_t k = 0; k < n && first + k < below.size(); ++k) {
    const ValueBucket& b = below[first + k];
    if (b.count == 0) continue;
    if (out.count == 0) {
      out.first = b.first + static_cast<float>(static_cast<double>(k) * w);
      out.min = b.min;
      out.max = b.max;
    }
    out.min = std::min(out.min, b.min);
    out.max = std::max(out.max, b.max);
    out.last = b.last;
    out.count += b.count;
  }
  return out;
}

void BuildLevels(BucketPyramid<SliceBucket>* p) {
  Levels(p);
}
void BuildLevels(BucketPyramid<InstantBucket>* p) {
  Levels(p);
}
void BuildLevels(BucketPyramid<ValueBucket>* p) {
  Levels(p);
}

uint64_t TimelineSummary::memory_bytes() const {
  uint64_t n = 0;
  for (const ThreadSummary& t : threads) {
    for (const auto& d : t.depths)
      n += PyramidBytes(d);
    n += PyramidBytes(t.instants);
    for (const CounterSummary& c : t.counters)
      n += PyramidBytes(c.buckets);
  }
  return n;
}

TimelineSummary BuildTimelineSummary(const TraceStore& store,
                                     const std::vector<time::ThreadTimeMap>* maps,
                                     uint64_t max_bytes,
                                     const std::function<void(uint64_t, uint64_t)>& progress) {
  TimelineSummary out;
  out.threads.resize(store.threads());
  RunThreadPass<SummaryVisitor>(
      store, [&] { return SummaryVisitor(store, maps, max_bytes, &out); },
      WithProgress(progress, maps));
  return out;
}

}  // namespace plx::store
