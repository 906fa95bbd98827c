// ComputeCriticalPath: the backward walk over the waits of each thread
// (sorted by their end), then one forward sweep per thread on the path that
// splits its segments by the innermost state.
#include "analysis/critical_path.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <tuple>

namespace plx::analysis {

namespace {

using model::kNone;

// The waits of each thread, ordered by end time: thread th's are
// order[first[th] .. first[th + 1]).
struct WaitsByThread {
  std::vector<uint32_t> first, order;
  std::vector<int64_t> end;  // end_ns of order[i]
};

WaitsByThread IndexWaits(const model::Trace& trace, const std::vector<WaitInstance>& waits) {
  WaitsByThread w;
  w.first.assign(trace.threads.size() + 1, 0);
  for (const WaitInstance& x : waits)
    ++w.first[trace.slices.thread[x.slice] + 1];
  std::partial_sum(w.first.begin(), w.first.end(), w.first.begin());
  w.order.resize(waits.size());
  std::vector<uint32_t> next(w.first.begin(), w.first.end() - 1);
  for (uint32_t i = 0; i < waits.size(); ++i)
    w.order[next[trace.slices.thread[waits[i].slice]]++] = i;
  for (size_t th = 0; th < trace.threads.size(); ++th)
    std::sort(w.order.begin() + w.first[th], w.order.begin() + w.first[th + 1],
              [&](uint32_t a, uint32_t b) {
                return waits[a].end_ns() != waits[b].end_ns()
                           ? waits[a].end_ns() < waits[b].end_ns()
                           : a < b;
              });
  w.end.resize(waits.size());
  for (size_t i = 0; i < w.order.size(); ++i)
    w.end[i] = waits[w.order[i]].end_ns();
  return w;
}

// Where the walk goes on at `t` when thread `from` began there: a thread that
// began earlier and still ran at t, preferring `from`'s process and the
// earliest begin; kNone when no thread began before t.
uint32_t HandOver(const model::Trace& trace, uint32_t from, int64_t t) {
  uint32_t best = kNone;
  auto rank = [&](uint32_t th) {
    const model::Thread& x = trace.threads[th];
    // Lower is better: running at t, same process, then earliest begin.
    return std::make_tuple(x.end_ns < t, x.process != trace.threads[from].process, x.begin_ns, th);
  };
  for (uint32_t th = 0; th < trace.threads.size(); ++th) {
    if (trace.threads[th].begin_ns >= t) continue;
    if (best == kNone || rank(th) < rank(best)) best = th;
  }
  return best;
}

std::vector<PathSegment> Walk(const model::Trace& trace, const std::vector<WaitInstance>& waits) {
  std::vector<PathSegment> path;  // backward
  if (trace.threads.empty()) return path;
  const WaitsByThread w = IndexWaits(trace, waits);
  // Waits of each thread not yet passed: the walk's time never increases, so
  // a thread's waits are taken latest first and each at most once.
  std::vector<uint32_t> limit(w.first.begin() + 1, w.first.end());
  auto push = [&](uint32_t th, int64_t begin, int64_t end) {
    if (begin >= end) return;
    if (!path.empty() && path.back().thread == th && path.back().begin_ns == end)
      path.back().begin_ns = begin;
    else
      path.push_back({th, begin, end});
  };
  uint32_t th = 0;
  for (uint32_t i = 1; i < trace.threads.size(); ++i)
    if (trace.threads[i].end_ns > trace.threads[th].end_ns) th = i;
  int64_t t = trace.threads[th].end_ns;
  while (t > trace.begin_ns) {
    const auto lo = w.end.begin() + w.first[th];
    const auto it = std::upper_bound(lo, w.end.begin() + limit[th], t);
    if (it != lo) {
      const auto j = static_cast<uint32_t>(it - w.end.begin() - 1);
      const WaitInstance& x = waits[w.order[j]];
      push(th, x.end_ns(), t);
      t = x.end_ns();
      limit[th] = j;
      if (x.cause_thread != kNone) th = x.cause_thread;
      continue;
    }
    const int64_t begin = std::max(trace.threads[th].begin_ns, trace.begin_ns);
    push(th, begin, t);
    t = begin;
    if (t <= trace.begin_ns) break;
    const uint32_t next = HandOver(trace, th, t);
    if (next == kNone) break;
    th = next;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

// Adds the time of `segments` (one thread's, sorted) to the innermost state at
// each instant, sweeping the thread's slices with the stack of open ones.
void AddStateTimes(const model::Trace& trace, uint32_t thread, const PathSegment* seg,
                   const PathSegment* seg_end, std::vector<int64_t>* by_state) {
  const model::SliceTable& s = trace.slices;
  const size_t none = trace.states.size();
  auto emit = [&](int64_t a, int64_t b, uint32_t slice) {
    while (seg != seg_end && seg->end_ns <= a)
      ++seg;
    for (const PathSegment* k = seg; k != seg_end && k->begin_ns < b; ++k) {
      const int64_t overlap = std::min(b, k->end_ns) - std::max(a, k->begin_ns);
      if (overlap > 0) (*by_state)[slice == kNone ? none : s.state[slice]] += overlap;
    }
  };
  size_t i = static_cast<size_t>(std::lower_bound(s.thread.begin(), s.thread.end(), thread) -
                                 s.thread.begin());
  std::vector<uint32_t> open;
  int64_t x = seg->begin_ns;
  const int64_t last = (seg_end - 1)->end_ns;
  auto close_until = [&](int64_t t) {
    while (!open.empty() && s.end[open.back()] <= t) {
      const int64_t e = std::max(x, s.end[open.back()]);
      emit(x, e, open.back());
      x = e;
      open.pop_back();
    }
  };
  for (; i < s.size() && s.thread[i] == thread && s.begin[i] < last; ++i) {
    close_until(s.begin[i]);
    const int64_t b = std::max(x, s.begin[i]);
    emit(x, b, open.empty() ? kNone : open.back());
    x = b;
    const auto slice = static_cast<uint32_t>(i);
    // A parent and a child beginning at the same ns may come in either order.
    if (!open.empty() && s.begin[open.back()] == s.begin[slice] &&
        s.depth[open.back()] > s.depth[slice])
      open.insert(open.end() - 1, slice);
    else
      open.push_back(slice);
  }
  close_until(INT64_MAX);
  if (x < last) emit(x, last, kNone);
}

}  // namespace

CriticalPath ComputeCriticalPath(const model::Trace& trace, const WaitStatesReport& waits) {
  CriticalPath out;
  out.length_ns = trace.end_ns - trace.begin_ns;
  out.segments = Walk(trace, waits.instances);
  out.processes.assign(trace.processes.size(), 0);
  for (const PathSegment& seg : out.segments)
    out.processes[trace.threads[seg.thread].process] += seg.length_ns();

  std::vector<PathSegment> by_thread = out.segments;
  std::sort(by_thread.begin(), by_thread.end(), [](const PathSegment& a, const PathSegment& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.begin_ns < b.begin_ns;
  });
  std::vector<int64_t> by_state(trace.states.size() + 1, 0);
  for (size_t i = 0; i < by_thread.size();) {
    size_t j = i;
    while (j < by_thread.size() && by_thread[j].thread == by_thread[i].thread)
      ++j;
    AddStateTimes(trace, by_thread[i].thread, by_thread.data() + i, by_thread.data() + j,
                  &by_state);
    i = j;
  }
  for (size_t st = 0; st < by_state.size(); ++st)
    if (by_state[st] > 0)
      out.states.push_back(
          {st == trace.states.size() ? kNone : static_cast<uint32_t>(st), by_state[st]});
  std::sort(out.states.begin(), out.states.end(),
            [](const PathStateTime& a, const PathStateTime& b) {
              return a.ns != b.ns ? a.ns > b.ns : a.state < b.state;
            });
  return out;
}

}  // namespace plx::analysis
