// ApplyTimeMaps: one pass per table (rows are sorted by thread, then time, so
// a clamp against the previous row keeps them sorted even where rounding
// would tie), then the slices' self times from the change of their own and
// their direct children's durations.
#include "time/time_map.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace plx::time {

namespace {

// The index of the last anchor <= t, or kBeforeFirst; starts at `hint` when
// that anchor is not after t (a few steps forward, then a binary search).
size_t Segment(const std::vector<int64_t>& anchors, int64_t t, size_t hint) {
  const size_t n = anchors.size();
  auto begin = anchors.begin();
  if (hint < n && anchors[hint] <= t) {
    for (int step = 0; step < 4; ++step, ++hint)
      if (hint + 1 == n || anchors[hint + 1] > t) return hint;
    begin += static_cast<std::ptrdiff_t>(hint);
  }
  const auto it = std::upper_bound(begin, anchors.end(), t);
  return it == anchors.begin() ? ThreadTimeMap::kBeforeFirst
                               : static_cast<size_t>(it - anchors.begin()) - 1;
}

}  // namespace

int64_t ThreadTimeMap::Apply(int64_t t) const {
  size_t hint = kBeforeFirst;
  return Apply(t, &hint);
}

int64_t ThreadTimeMap::Apply(int64_t t, size_t* hint) const {
  if (anchors.empty()) return t;
  const size_t i = Segment(anchors, t, *hint);
  *hint = i;
  if (i == kBeforeFirst) return t + shifts.front();
  if (i + 1 == anchors.size()) return t + shifts.back();
  const int64_t s0 = shifts[i], s1 = shifts[i + 1];
  if (s0 == s1) return t + s0;
  // The product of shift change and distance may pass 2^63; the quotient is
  // within the shifts, so double keeps it to well under a nanosecond.
  const double f =
      static_cast<double>(t - anchors[i]) / static_cast<double>(anchors[i + 1] - anchors[i]);
  return t + s0 + std::llround(static_cast<double>(s1 - s0) * f);
}

bool ThreadTimeMap::is_identity() const {
  return std::all_of(shifts.begin(), shifts.end(), [](int64_t s) { return s == 0; });
}

namespace {

// Moves times by their thread's map. Each pass over a column keeps its own
// search hints (one per thread): a column is ascending per thread, so each
// lookup starts where the last one ended.
class Mover {
 public:
  Mover(const std::vector<ThreadTimeMap>& maps, TimeMapStats* stats) : maps_(maps), stats_(stats) {}

  using Hints = std::vector<size_t>;
  Hints NewHints() const { return Hints(maps_.size(), ThreadTimeMap::kBeforeFirst); }

  int64_t Move(uint32_t thread, int64_t t, Hints* hints) {
    if (thread >= maps_.size()) return t;
    const int64_t u = maps_[thread].Apply(t, &(*hints)[thread]);
    if (u != t) {
      ++stats_->events_moved;
      stats_->max_shift_ns = std::max(stats_->max_shift_ns, std::abs(u - t));
    }
    return u;
  }

  // A time column sorted by (thread, time): kept sorted.
  void Column(const std::vector<uint32_t>& thread, std::vector<int64_t>* time) {
    Hints hints = NewHints();
    for (size_t i = 0; i < time->size(); ++i) {
      int64_t u = Move(thread[i], (*time)[i], &hints);
      if (i > 0 && thread[i - 1] == thread[i]) u = std::max(u, (*time)[i - 1]);
      (*time)[i] = u;
    }
  }

 private:
  const std::vector<ThreadTimeMap>& maps_;
  TimeMapStats* stats_;
};

void MoveSlices(Mover* mover, model::SliceTable* s, TimeMapStats* stats) {
  std::vector<int64_t> change(s->size());
  // Begins ascend per thread; ends nearly do (nesting steps them back).
  Mover::Hints begin_hints = mover->NewHints(), end_hints = mover->NewHints();
  for (size_t i = 0; i < s->size(); ++i) {
    const int64_t old_duration = s->end[i] - s->begin[i];
    int64_t begin = mover->Move(s->thread[i], s->begin[i], &begin_hints);
    if (i > 0 && s->thread[i - 1] == s->thread[i]) begin = std::max(begin, s->begin[i - 1]);
    const int64_t end = std::max(begin, mover->Move(s->thread[i], s->end[i], &end_hints));
    s->begin[i] = begin;
    s->end[i] = end;
    change[i] = (end - begin) - old_duration;
    stats->max_duration_change_ns = std::max(stats->max_duration_change_ns, std::abs(change[i]));
    if (old_duration >= 1000)
      stats->max_relative_change =
          std::max(stats->max_relative_change,
                   static_cast<double>(std::abs(change[i])) / static_cast<double>(old_duration));
  }
  // self = duration minus direct children's durations: it changes by the
  // slice's own change minus its children's.
  std::vector<uint32_t> open;  // open[d]: the latest slice at depth d on this thread
  for (size_t i = 0; i < s->size(); ++i) {
    if (i == 0 || s->thread[i - 1] != s->thread[i]) open.clear();
    const uint16_t depth = s->depth[i];
    s->self_ns[i] += change[i];
    if (depth > 0 && depth <= open.size()) s->self_ns[open[depth - 1]] -= change[i];
    open.resize(depth);
    open.push_back(static_cast<uint32_t>(i));
  }
}

}  // namespace

void MoveSpans(const std::vector<ThreadTimeMap>& maps, model::Trace* trace) {
  bool any = false;
  int64_t begin = 0, end = 0;
  for (uint32_t i = 0; i < trace->threads.size(); ++i) {
    model::Thread& th = trace->threads[i];
    // Spans follow their records but are not events themselves: not counted.
    if (i < maps.size()) {
      th.begin_ns = maps[i].Apply(th.begin_ns);
      th.end_ns = std::max(th.begin_ns, maps[i].Apply(th.end_ns));
    }
    if (th.records == 0) continue;
    begin = any ? std::min(begin, th.begin_ns) : th.begin_ns;
    end = any ? std::max(end, th.end_ns) : th.end_ns;
    any = true;
  }
  if (any) {
    trace->begin_ns = begin;
    trace->end_ns = end;
  }
}

TimeMapStats ApplyTimeMaps(const std::vector<ThreadTimeMap>& maps, model::Trace* trace) {
  TimeMapStats stats;
  Mover mover(maps, &stats);
  MoveSlices(&mover, &trace->slices, &stats);
  mover.Column(trace->instants.thread, &trace->instants.time);
  mover.Column(trace->messages.thread, &trace->messages.time);
  mover.Column(trace->collectives.thread, &trace->collectives.time);
  mover.Column(trace->counter_samples.thread, &trace->counter_samples.time);
  mover.Column(trace->rma.thread, &trace->rma.time);
  mover.Column(trace->controls.thread, &trace->controls.time);
  mover.Column(trace->recv_posts.thread, &trace->recv_posts.time);

  MoveSpans(maps, trace);
  return stats;
}

}  // namespace plx::time
