// Level-0 buckets only, each as its count and, when not empty, its fields;
// floats and doubles as their bits. Reading checks every bound a tile relies
// on (widths, origins, finite offsets) and rebuilds the levels above.
#include "store/index_summary.h"

#include <cmath>

#include "base/strings.h"
#include "store/index_repair.h"

namespace plx::store {

namespace {

constexpr int64_t kTimeBound = int64_t{1} << 60;

bool Offset(float v) {
  return std::isfinite(v) && v >= 0;
}

void PutSlices(IndexWriter* w, const std::vector<SliceBucket>& level) {
  w->U(level.size());
  for (const SliceBucket& b : level) {
    w->U(b.count);
    if (b.count == 0) continue;
    w->U(b.state);
    w->Float(b.ns);
    w->Float(b.end);
  }
}

bool GetSlices(IndexReader* r, std::vector<SliceBucket>* level) {
  size_t n = 0;
  if (!r->Count(&n)) return false;
  level->resize(n);
  for (SliceBucket& b : *level) {
    if (!r->U(&b.count)) return false;
    if (b.count == 0) continue;
    if (!r->U(&b.state) || !r->Float(&b.ns) || !r->Float(&b.end) || !Offset(b.ns) || !Offset(b.end))
      return false;
  }
  return true;
}

void PutInstants(IndexWriter* w, const std::vector<InstantBucket>& level) {
  w->U(level.size());
  for (const InstantBucket& b : level) {
    w->U(b.count);
    if (b.count == 0) continue;
    w->U(b.type);
    w->Float(b.first);
  }
}

bool GetInstants(IndexReader* r, std::vector<InstantBucket>* level) {
  size_t n = 0;
  if (!r->Count(&n)) return false;
  level->resize(n);
  for (InstantBucket& b : *level) {
    if (!r->U(&b.count)) return false;
    if (b.count == 0) continue;
    if (!r->U(&b.type) || !r->Float(&b.first) || !Offset(b.first)) return false;
  }
  return true;
}

void PutValues(IndexWriter* w, const std::vector<ValueBucket>& level) {
  w->U(level.size());
  for (const ValueBucket& b : level) {
    w->U(b.count);
    if (b.count == 0) continue;
    w->Float(b.first);
    w->Double(b.min);
    w->Double(b.max);
    w->Double(b.last);
  }
}

bool GetValues(IndexReader* r, std::vector<ValueBucket>* level) {
  size_t n = 0;
  if (!r->Count(&n)) return false;
  level->resize(n);
  for (ValueBucket& b : *level) {
    if (!r->U(&b.count)) return false;
    if (b.count == 0) continue;
    if (!r->Float(&b.first) || !Offset(b.first) || !r->Double(&b.min) || !r->Double(&b.max) ||
        !r->Double(&b.last))
      return false;
  }
  return true;
}

template <typename Bucket>
const std::vector<Bucket>& Level0(const BucketPyramid<Bucket>& p) {
  static const std::vector<Bucket> kEmpty;
  return p.levels.empty() ? kEmpty : p.levels[0];
}

}  // namespace

void PutSummary(IndexWriter* w, const IndexedSummary& s) {
  w->U(s.repair ? 1 : 0);
  if (s.repair) PutRepairOptions(w, *s.repair);
  w->U(s.summary.threads.size());
  for (const ThreadSummary& t : s.summary.threads) {
    w->S(t.origin);
    w->U(t.sends);
    // One width for every pyramid of a thread.
    w->S(t.instants.bucket_ns);
    w->U(t.depths.size());
    for (const auto& d : t.depths)
      PutSlices(w, Level0(d));
    PutInstants(w, Level0(t.instants));
    w->U(t.counters.size());
    for (const CounterSummary& c : t.counters) {
      w->U(c.counter);
      w->U(c.samples);
      w->Double(c.min);
      w->Double(c.max);
      PutValues(w, Level0(c.buckets));
    }
  }
}

bool GetSummary(IndexReader* r, IndexedSummary* s) {
  bool repaired = false;
  if (!r->Bool(&repaired)) return false;
  s->repair.reset();
  if (repaired) {
    s->repair.emplace();
    if (!GetRepairOptions(r, &*s->repair)) return false;
  }
  size_t threads = 0;
  if (!r->Count(&threads, 4)) return false;
  s->summary.threads.assign(threads, ThreadSummary());
  for (ThreadSummary& t : s->summary.threads) {
    int64_t width = 0;
    size_t depths = 0;
    if (!r->S(&t.origin) || t.origin <= -kTimeBound || t.origin >= kTimeBound || !r->U(&t.sends) ||
        !r->S(&width) || width < 1 || width >= kTimeBound || !r->Count(&depths))
      return false;
    t.depths.resize(depths);
    for (auto& d : t.depths) {
      d.bucket_ns = width;
      d.levels.resize(1);
      if (!GetSlices(r, &d.levels[0])) return false;
      BuildLevels(&d);
    }
    t.instants.bucket_ns = width;
    t.instants.levels.resize(1);
    if (!GetInstants(r, &t.instants.levels[0])) return false;
    BuildLevels(&t.instants);
    size_t counters = 0;
    if (!r->Count(&counters, 5)) return false;
    t.counters.resize(counters);
    for (CounterSummary& c : t.counters) {
      c.buckets.bucket_ns = width;
      c.buckets.levels.resize(1);
      if (!r->U(&c.counter) || !r->U(&c.samples) || !r->Double(&c.min) || !r->Double(&c.max) ||
          !GetValues(r, &c.buckets.levels[0]))
        return false;
      BuildLevels(&c.buckets);
    }
  }
  return true;
}

Status CheckSummaryFits(const TimelineSummary& summary, const model::Trace& trace,
                        const std::string& name) {
  auto stale = [&](const char* why) {
    return DataLoss(
        StrFormat("the index's timeline summary does not fit %s (%s)", name.c_str(), why));
  };
  if (summary.threads.size() != trace.threads.size()) return stale("thread count");
  // Every bucket's start (and its wider levels') stays far inside int64.
  auto spans = [](int64_t width, size_t buckets) {
    return static_cast<uint64_t>(width) < (uint64_t{1} << 60) / (buckets + 1);
  };
  for (const ThreadSummary& t : summary.threads) {
    const int64_t width = t.instants.bucket_ns;
    if (!spans(width, Level0(t.instants).size())) return stale("a bucket width");
    for (const InstantBucket& b : Level0(t.instants))
      if (b.count > 0 && b.type >= trace.event_types.size()) return stale("an event type");
    for (const auto& d : t.depths) {
      if (d.bucket_ns != width || !spans(width, Level0(d).size())) return stale("a bucket width");
      for (const SliceBucket& b : Level0(d))
        if (b.count > 0 && b.state >= trace.states.size()) return stale("a state");
    }
    for (const CounterSummary& c : t.counters) {
      if (c.buckets.bucket_ns != width || !spans(width, Level0(c.buckets).size()))
        return stale("a bucket width");
      if (c.counter >= trace.counters.size()) return stale("a counter");
    }
  }
  return Status::Ok();
}

}  // namespace plx::store
