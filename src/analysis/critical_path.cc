// ComputeCriticalPath: the backward walk over the waits of each thread
// (sorted by their end), then one forward sweep per thread on the path that
// splits its segments by the innermost state.
#include "analysis/critical_path.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>

#include "base/sort_runs.h"
#include "base/wire.h"

namespace plx::analysis {

namespace {

using model::kNone;

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

}  // namespace

ThreadWaitEnds IndexWaitEnds(const model::Trace& trace, const std::vector<WaitInstance>& waits) {
  std::vector<std::vector<WaitEnd>> per_thread(trace.threads.size());
  for (const WaitInstance& w : waits)
    per_thread[w.thread].emplace_back(w);
  return IndexWaitEnds(&per_thread);
}

void SortWaitEnds(std::vector<WaitEnd>* ends) {
  SortRuns(ends->begin(), ends->end(), [](const WaitEnd& a, const WaitEnd& b) {
    return std::tie(a.end_ns, a.slice, a.kind, a.record) <
           std::tie(b.end_ns, b.slice, b.kind, b.record);
  });
}

ThreadWaitEnds IndexWaitEnds(std::vector<std::vector<WaitEnd>>* per_thread) {
  ThreadWaitEnds w;
  w.first.assign(per_thread->size() + 1, 0);
  for (size_t th = 0; th < per_thread->size(); ++th)
    w.first[th + 1] = w.first[th] + static_cast<uint32_t>((*per_thread)[th].size());
  w.end.reserve(w.first.back());
  w.cause.reserve(w.first.back());
  for (std::vector<WaitEnd>& v : *per_thread) {
    SortWaitEnds(&v);
    for (const WaitEnd& x : v) {
      w.end.push_back(x.end_ns);
      w.cause.push_back(x.cause);
    }
    std::vector<WaitEnd>().swap(v);
  }
  return w;
}

std::vector<PathSegment> WalkCriticalPath(const model::Trace& trace, const ThreadWaitEnds& w) {
  std::vector<PathSegment> path;  // backward
  if (trace.threads.empty()) return path;
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
      push(th, w.end[j], t);
      t = w.end[j];
      limit[th] = j;
      if (w.cause[j] != kNone) th = w.cause[j];
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

// The sweep of one thread's slices: the open ones (innermost last), where
// the path's time is accounted up to, and its next segment.
struct PathStateTimes::Sweep {
  struct Open {
    int64_t begin, end;
    uint32_t state;
    uint16_t depth;
  };
  std::vector<Open> open;
  int64_t x = 0;   // time accounted up to
  size_t seg = 0;  // next segment (index into by_thread_)
  size_t seg_end = 0;
  int64_t last = 0;    // the last segment's end
  bool done = false;   // slices past the last segment began
  bool ended = false;  // EndThread ran
};

PathStateTimes::PathStateTimes(const model::Trace& trace, const std::vector<PathSegment>& segments)
    : trace_(trace), segments_(segments), by_thread_(segments) {
  std::sort(by_thread_.begin(), by_thread_.end(), [](const PathSegment& a, const PathSegment& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.begin_ns < b.begin_ns;
  });
  first_.assign(trace.threads.size(), kNone);
  sweeps_.resize(trace.threads.size());
  for (size_t i = 0; i < by_thread_.size();) {
    size_t j = i;
    while (j < by_thread_.size() && by_thread_[j].thread == by_thread_[i].thread)
      ++j;
    const uint32_t t = by_thread_[i].thread;
    threads_.push_back(t);
    first_[t] = static_cast<uint32_t>(i);
    Sweep& w = sweeps_[t];
    w.x = by_thread_[i].begin_ns;
    w.seg = i;
    w.seg_end = j;
    w.last = by_thread_[j - 1].end_ns;
    i = j;
  }
  by_state_.assign(trace.states.size() + 1, 0);
}

PathStateTimes::~PathStateTimes() = default;

int64_t PathStateTimes::last_end(uint32_t thread) const {
  return first_[thread] == kNone ? INT64_MIN : sweeps_[thread].last;
}

// Adds the time of the thread's segments within [a, b) to `state` (kNone:
// outside every state).
void PathStateTimes::Emit(Sweep* w, int64_t a, int64_t b, uint32_t state) {
  while (w->seg != w->seg_end && by_thread_[w->seg].end_ns <= a)
    ++w->seg;
  for (size_t k = w->seg; k != w->seg_end && by_thread_[k].begin_ns < b; ++k) {
    const int64_t overlap = std::min(b, by_thread_[k].end_ns) - std::max(a, by_thread_[k].begin_ns);
    if (overlap > 0) by_state_[state == kNone ? trace_.states.size() : state] += overlap;
  }
}

void PathStateTimes::Close(Sweep* w, int64_t t) {
  while (!w->open.empty() && w->open.back().end <= t) {
    const int64_t e = std::max(w->x, w->open.back().end);
    Emit(w, w->x, e, w->open.back().state);
    w->x = e;
    w->open.pop_back();
  }
}

void PathStateTimes::AddSlices(uint32_t thread, const model::SliceTable& s, size_t begin,
                               size_t end) {
  if (first_[thread] == kNone) return;
  Sweep& w = sweeps_[thread];
  for (size_t i = begin; i < end && !w.done; ++i) {
    if (s.begin[i] >= w.last) {
      w.done = true;
      break;
    }
    Close(&w, s.begin[i]);
    const int64_t b = std::max(w.x, s.begin[i]);
    Emit(&w, w.x, b, w.open.empty() ? kNone : w.open.back().state);
    w.x = b;
    const Sweep::Open slice{s.begin[i], s.end[i], s.state[i], s.depth[i]};
    // A parent and a child beginning at the same ns may come in either order.
    if (!w.open.empty() && w.open.back().begin == slice.begin && w.open.back().depth > slice.depth)
      w.open.insert(w.open.end() - 1, slice);
    else
      w.open.push_back(slice);
  }
}

void PathStateTimes::EndThread(uint32_t thread) {
  if (first_[thread] == kNone || sweeps_[thread].ended) return;
  Sweep& w = sweeps_[thread];
  Close(&w, INT64_MAX);
  if (w.x < w.last) Emit(&w, w.x, w.last, kNone);
  w.x = w.last;
  w.open.clear();
  w.ended = true;
}

void PathStateTimes::Merge(const PathStateTimes& o) {
  for (size_t i = 0; i < by_state_.size(); ++i)
    by_state_[i] += o.by_state_[i];
  for (uint32_t t : threads_)
    sweeps_[t].ended |= o.sweeps_[t].ended;
}

std::string PathStateTimes::Save() const {
  std::string out;
  WirePutAll(&out, by_state_);
  std::vector<uint32_t> ended;
  for (uint32_t t : threads_)
    if (sweeps_[t].ended) ended.push_back(t);
  WirePutAll(&out, ended);
  return out;
}

Status PathStateTimes::MergeSaved(std::string_view saved) {
  WireReader in(saved);
  std::vector<int64_t> by_state;
  std::vector<uint32_t> ended;
  if (!in.GetAll(&by_state) || !in.GetAll(&ended) || !in.done())
    return InvalidArgument("saved critical path times: cut or too long");
  if (by_state.size() != by_state_.size())
    return InvalidArgument("saved critical path times: " + std::to_string(by_state.size()) +
                           " states, the trace has " + std::to_string(by_state_.size()));
  for (uint32_t t : ended)
    if (t >= first_.size() || first_[t] == kNone)
      return InvalidArgument("saved critical path times: thread " + std::to_string(t) +
                             " is not on the path");
  for (size_t i = 0; i < by_state_.size(); ++i)
    by_state_[i] += by_state[i];
  for (uint32_t t : ended)
    sweeps_[t].ended = true;
  return Status::Ok();
}

CriticalPath PathStateTimes::Finish() {
  for (uint32_t t : threads_)
    EndThread(t);
  CriticalPath out;
  out.length_ns = trace_.end_ns - trace_.begin_ns;
  out.segments = segments_;
  out.processes.assign(trace_.processes.size(), 0);
  for (const PathSegment& seg : out.segments)
    out.processes[trace_.threads[seg.thread].process] += seg.length_ns();
  for (size_t st = 0; st < by_state_.size(); ++st)
    if (by_state_[st] > 0)
      out.states.push_back(
          {st == trace_.states.size() ? kNone : static_cast<uint32_t>(st), by_state_[st]});
  std::sort(out.states.begin(), out.states.end(),
            [](const PathStateTime& a, const PathStateTime& b) {
              return a.ns != b.ns ? a.ns > b.ns : a.state < b.state;
            });
  return out;
}

CriticalPath ComputeCriticalPath(const model::Trace& trace, const WaitStatesReport& waits) {
  PathStateTimes times(trace, WalkCriticalPath(trace, IndexWaitEnds(trace, waits.instances)));
  const model::SliceTable& s = trace.slices;
  for (uint32_t t : times.threads()) {
    const auto begin = std::lower_bound(s.thread.begin(), s.thread.end(), t) - s.thread.begin();
    const auto end = std::upper_bound(s.thread.begin(), s.thread.end(), t) - s.thread.begin();
    times.AddSlices(t, s, static_cast<size_t>(begin), static_cast<size_t>(end));
  }
  return times.Finish();
}

}  // namespace plx::analysis
