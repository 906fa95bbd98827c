// WindowSolver: anchors in a pool, each thread's ids in a deque by time;
// message groups hold their one source and target, collectives theirs in a
// side table; a FIFO worklist. Groups settle in batches by their latest
// event, and anchors leave memory (for the thread's map) once older than
// the window and no live group names them: window_settle.cc.
#include "store/window_solver.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "base/sort_runs.h"

namespace plx::store {

using time::Scaled;

WindowSolver::WindowSolver(const model::Trace& trace, const time::RepairOptions& options,
                           int64_t window_ns)
    : options_(options),
      slope_(time::ScaledSlope(options.max_slope)),
      window_(std::max<int64_t>(window_ns, 0)),
      threads_(trace.threads.size()),
      maps_(trace.threads.size()) {
  report_.thread_max_shift_ns.assign(trace.threads.size(), 0);
}

size_t WindowSolver::IndexOf(const ThreadAnchors& t, int64_t time) const {
  // Most lookups are near the end (constraints arrive in time order).
  const auto& v = t.by_time;
  if (!v.empty() && v.back().first <= time) return v.back().first == time ? v.size() - 1 : v.size();
  return static_cast<size_t>(std::lower_bound(v.begin(), v.end(), time,
                                              [](const std::pair<int64_t, uint32_t>& x, int64_t y) {
                                                return x.first < y;
                                              }) -
                             v.begin());
}

void WindowSolver::Prepare(const std::vector<ConstraintEvent>& events, std::vector<uint32_t>* ids) {
  ids->assign(events.size(), kNone);
  // The events by thread (a counting sort), then each thread's by time:
  // small sorts of nearly sorted runs.
  const size_t threads = threads_.size();
  thread_start_.assign(threads + 1, 0);
  for (const ConstraintEvent& e : events)
    ++thread_start_[e.thread + 1];
  for (size_t t = 0; t < threads; ++t)
    thread_start_[t + 1] += thread_start_[t];
  by_thread_.resize(events.size());
  {
    std::vector<uint32_t>& next = thread_next_;
    next.assign(thread_start_.begin(), thread_start_.end() - 1);
    for (uint32_t i = 0; i < events.size(); ++i)
      by_thread_[next[events[i].thread]++] = {events[i].time, i};
  }
  std::vector<std::pair<int64_t, uint32_t>> merged;
  std::vector<uint8_t> fresh;
  for (uint32_t thread = 0; thread < threads; ++thread) {
    const size_t i = thread_start_[thread], j = thread_start_[thread + 1];
    if (i == j) continue;
    // A few sorted runs (each partition's pairs come in time order).
    SortRuns(by_thread_.begin() + static_cast<ptrdiff_t>(i),
             by_thread_.begin() + static_cast<ptrdiff_t>(j));
    ThreadAnchors& t = threads_[thread];
    // The thread's anchors from the first new time on, merged with the new.
    const size_t from = IndexOf(t, by_thread_[i].first);
    merged.clear();
    fresh.clear();
    size_t k = from;
    bool any_new = false;
    for (size_t e = i; e < j; ++e) {
      const auto [time, event] = by_thread_[e];
      while (k < t.by_time.size() && t.by_time[k].first < time) {
        merged.push_back(t.by_time[k++]);
        fresh.push_back(0);
      }
      if (k < t.by_time.size() && t.by_time[k].first == time) {
        (*ids)[event] = t.by_time[k].second;
        continue;
      }
      if (!merged.empty() && merged.back().first == time) {
        (*ids)[event] = merged.back().second;
        continue;
      }
      if (time < frozen_before_) exceeded_ = true;  // the window was too short
      uint32_t id;
      if (!free_anchors_.empty()) {
        // Anchors freed long ago have left the cache: fetch a few ahead.
        constexpr size_t kAhead = 8;
        if (free_anchors_.size() > kAhead)
          __builtin_prefetch(&anchors_[free_anchors_[free_anchors_.size() - 1 - kAhead]], 1);
        id = free_anchors_.back();
        free_anchors_.pop_back();
        anchors_[id] = Anchor();
      } else {
        id = static_cast<uint32_t>(anchors_.size());
        anchors_.emplace_back();
      }
      anchors_[id].time = time;
      anchors_[id].thread = thread;
      merged.push_back({time, id});
      fresh.push_back(1);
      (*ids)[event] = id;
      ++anchors_seen_;
      any_new = true;
    }
    if (!any_new) continue;
    while (k < t.by_time.size()) {
      merged.push_back(t.by_time[k++]);
      fresh.push_back(0);
    }
    // New anchors within their neighbours' cones: forward, then backward.
    for (size_t m = 0; m < merged.size(); ++m) {
      if (!fresh[m]) continue;
      Anchor& a = anchors_[merged[m].second];
      Scaled v = 0;
      if (m > 0) {
        const Anchor& p = anchors_[merged[m - 1].second];
        v = time::ConeAt(p.scaled, a.time - p.time, slope_);
      } else if (from > 0) {
        const Anchor& p = anchors_[t.by_time[from - 1].second];
        v = time::ConeAt(p.scaled, a.time - p.time, slope_);
      } else if (t.removed_any) {
        v = time::ConeAt(t.removed_scaled, a.time - t.removed_time, slope_);
      }
      a.scaled = std::max<Scaled>(0, v);
    }
    for (size_t m = merged.size(); m-- > 0;) {
      if (!fresh[m] || m + 1 == merged.size()) continue;
      Anchor& a = anchors_[merged[m].second];
      const Anchor& n = anchors_[merged[m + 1].second];
      a.scaled = std::max(a.scaled, time::ConeAt(n.scaled, n.time - a.time, slope_));
    }
    for (size_t m = 0; m < merged.size(); ++m)
      if (fresh[m])
        anchors_[merged[m].second].shift = time::ShiftOf(anchors_[merged[m].second].scaled);
    t.by_time.erase(t.by_time.begin() + static_cast<ptrdiff_t>(from), t.by_time.end());
    t.by_time.insert(t.by_time.end(), merged.begin(), merged.end());
  }
}

void WindowSolver::AddDependent(uint32_t anchor, uint32_t group) {
  Anchor& a = anchors_[anchor];
  for (uint32_t& d : a.deps)
    if (d == kNone) {
      d = group;
      return;
    }
  if (a.more == kNone) {
    if (!free_more_.empty()) {
      a.more = free_more_.back();
      free_more_.pop_back();
    } else {
      a.more = static_cast<uint32_t>(more_.size());
      more_.emplace_back();
    }
  }
  more_[a.more].push_back(group);
}

void WindowSolver::RemoveDependent(uint32_t anchor, uint32_t group) {
  Anchor& a = anchors_[anchor];
  for (uint32_t& d : a.deps)
    if (d == group) {
      d = kNone;
      return;
    }
  if (a.more != kNone) {
    std::vector<uint32_t>& m = more_[a.more];
    m.erase(std::remove(m.begin(), m.end(), group), m.end());
  }
}

template <typename F>
void WindowSolver::ForDependents(const Anchor& a, F&& f) {
  for (uint32_t d : a.deps)
    if (d != kNone) f(d);
  if (a.more != kNone)
    for (uint32_t d : more_[a.more])
      f(d);
}

void WindowSolver::Queue(uint32_t g) {
  if (groups_[g].queued) return;
  groups_[g].queued = true;
  queue_.push_back(g);
}

void WindowSolver::Set(uint32_t anchor, Scaled value) {
  Anchor& a = anchors_[anchor];
  if (a.time < frozen_before_) exceeded_ = true;
  a.scaled = value;
  ++report_.updates;
  const int64_t shift = time::ShiftOf(value);
  if (shift == a.shift) return;  // what constraints see did not change
  a.shift = shift;
  ForDependents(a, [&](uint32_t g) { Queue(g); });
}

void WindowSolver::Raise(uint32_t anchor, Scaled value) {
  const uint32_t thread = anchors_[anchor].thread;
  Set(anchor, value);
  ThreadAnchors& t = threads_[thread];
  const size_t at = IndexOf(t, anchors_[anchor].time);
  // Backward: each at least its successor's shift less slope x distance.
  bool stopped = false;
  for (size_t i = at; i > 0; --i) {
    const Anchor& next = anchors_[t.by_time[i].second];
    const uint32_t b = t.by_time[i - 1].second;
    const Scaled want = time::ConeAt(next.scaled, next.time - anchors_[b].time, slope_);
    if (anchors_[b].scaled >= want) {
      stopped = true;
      break;
    }
    Set(b, want);
  }
  if (!stopped && t.removed_any) {
    const Anchor& first = anchors_[t.by_time.front().second];
    if (t.removed_scaled < time::ConeAt(first.scaled, first.time - t.removed_time, slope_))
      exceeded_ = true;  // a settled anchor would move
  }
  for (size_t i = at + 1; i < t.by_time.size(); ++i) {
    const Anchor& prev = anchors_[t.by_time[i - 1].second];
    const uint32_t b = t.by_time[i].second;
    const Scaled want = time::ConeAt(prev.scaled, anchors_[b].time - prev.time, slope_);
    if (anchors_[b].scaled >= want) break;
    Set(b, want);
  }
  const uint64_t limit =
      options_.max_updates ? options_.max_updates : 64 * anchors_seen_ + 1'000'000;
  if (report_.updates > limit) stopped_ = true;
}

time::LatestSources WindowSolver::Latest(const Group& g, bool repaired) const {
  time::LatestSources l;
  const auto add = [&](uint32_t id, const ConstraintEvent& e) {
    const int64_t t = repaired ? anchors_[id].time + anchors_[id].shift : e.time;
    if (l.best_thread == kNone || t > l.best) {
      if (l.best_thread != kNone && l.best_thread != e.thread) {
        l.second = l.best;
        l.has_second = true;
      }
      l.best = t;
      l.best_thread = e.thread;
    } else if (e.thread != l.best_thread && (!l.has_second || t > l.second)) {
      l.second = t;
      l.has_second = true;
    }
  };
  if (g.message) {
    const Anchor& a = anchors_[g.source];
    add(g.source, {a.thread, a.time});
  } else {
    const Collective& c = collectives_[g.collective];
    for (size_t i = 0; i < c.sources.size(); ++i)
      add(c.sources[i], c.c.sources[i]);
  }
  return l;
}

void WindowSolver::Enforce(uint32_t id) {
  const Group& g = groups_[id];
  if (g.message) {
    // One source: the send, if it is on another thread than the receive.
    const Anchor& s = anchors_[g.source];
    const Anchor& r = anchors_[g.target];
    if (s.thread == r.thread) return;
    const Scaled need = time::Needed(s.time + s.shift + g.lag - r.time);
    if (need > r.scaled) Raise(g.target, need);
    return;
  }
  const time::LatestSources l = Latest(g, true);
  const auto target = [&](uint32_t anchor) {
    int64_t cause = 0;
    const Anchor& a = anchors_[anchor];
    if (!l.For(a.thread, &cause)) return;
    const Scaled need = time::Needed(cause + g.lag - a.time);
    if (need > a.scaled) Raise(anchor, need);
  };
  if (g.message) {
    target(g.target);
  } else {
    // Raising may move the side table's storage: copy the ids first.
    const std::vector<uint32_t> targets = collectives_[g.collective].targets;
    for (uint32_t a : targets)
      target(a);
  }
}

void WindowSolver::Run() {
  while (!queue_.empty() && !stopped_) {
    const uint32_t g = queue_.front();
    queue_.pop_front();
    groups_[g].queued = false;
    Enforce(g);
  }
  if (stopped_) {
    for (uint32_t g : queue_)
      groups_[g].queued = false;
    queue_.clear();
  }
}

uint32_t WindowSolver::NewGroup() {
  if (!free_groups_.empty()) {
    constexpr size_t kAhead = 8;  // groups freed long ago have left the cache
    if (free_groups_.size() > kAhead)
      __builtin_prefetch(&groups_[free_groups_[free_groups_.size() - 1 - kAhead]], 1);
    const uint32_t id = free_groups_.back();
    free_groups_.pop_back();
    groups_[id] = Group();
    return id;
  }
  groups_.emplace_back();
  return static_cast<uint32_t>(groups_.size() - 1);
}

// Before repair: targets before their cause count as violations; those
// closer than the lag are repairs.
void WindowSolver::Count(const Group& g, bool repaired, time::Violations* v) const {
  if (g.message) {
    const Anchor& s = anchors_[g.source];
    const Anchor& r = anchors_[g.target];
    if (s.thread != r.thread &&
        r.time + (repaired ? r.shift : 0) < s.time + (repaired ? s.shift : 0))
      ++v->messages;
    return;
  }
  const time::LatestSources l = Latest(g, repaired);
  const auto one = [&](uint32_t anchor) {
    const Anchor& a = anchors_[anchor];
    int64_t cause = 0;
    if (l.For(a.thread, &cause) && a.time + (repaired ? a.shift : 0) < cause)
      ++(g.message ? v->messages : v->collectives);
  };
  if (g.message) {
    one(g.target);
  } else {
    for (uint32_t a : collectives_[g.collective].targets)
      one(a);
  }
}

void WindowSolver::AddMessage(const ConstraintEvent& send, uint32_t source, uint32_t send_row,
                              const ConstraintEvent& recv, uint32_t target, uint32_t recv_row,
                              int64_t lag) {
  const uint32_t id = NewGroup();
  Group& g = groups_[id];
  g.message = true;
  g.lag = lag;
  g.source = source;
  g.target = target;
  g.latest = std::max(send.time, recv.time);
  ++anchors_[source].refs;
  ++anchors_[target].refs;
  AddDependent(source, id);
  ++report_.constraints;
  if (send.thread != recv.thread) {
    if (recv.time < send.time) ++report_.before.messages;
    if (recv.time < send.time + lag) {
      time::Repair r;
      r.kind = time::CausalConstraints::Kind::kMessage;
      r.thread = recv.thread;
      r.row = recv_row;
      r.send_row = send_row;
      r.time_ns = recv.time;
      r.violation_ns = send.time - recv.time;
      g.first_repair = static_cast<uint32_t>(report_.repairs.size());
      g.repairs = 1;
      report_.repairs.push_back(r);
      repair_order_.push_back({{0, send_row, 0, 0, 0}, 0});
    }
  }
  due_.push_back({g.latest, id});
  if (!stopped_) {
    Enforce(id);
    Run();
  }
}

void WindowSolver::AddCollective(CollectiveConstraint c, const uint32_t* anchors) {
  const uint32_t id = NewGroup();
  uint32_t slot;
  if (!free_collectives_.empty()) {
    slot = free_collectives_.back();
    free_collectives_.pop_back();
  } else {
    slot = static_cast<uint32_t>(collectives_.size());
    collectives_.emplace_back();
  }
  Collective& x = collectives_[slot];
  x = Collective();
  x.c = std::move(c);
  int64_t latest = INT64_MIN;
  for (const ConstraintEvent& e : x.c.sources) {
    const uint32_t a = *anchors++;
    x.sources.push_back(a);
    ++anchors_[a].refs;
    AddDependent(a, id);
    latest = std::max(latest, e.time);
  }
  for (const ConstraintEvent& e : x.c.targets) {
    const uint32_t a = *anchors++;
    x.targets.push_back(a);
    ++anchors_[a].refs;
    latest = std::max(latest, e.time);
  }
  Group& g = groups_[id];
  g.message = false;
  g.lag = x.c.lag;
  g.collective = slot;
  g.latest = latest;
  ++report_.constraints;
  Count(g, false, &report_.before);
  const time::LatestSources l = Latest(g, false);
  g.first_repair = static_cast<uint32_t>(report_.repairs.size());
  for (size_t i = 0; i < x.c.targets.size(); ++i) {
    const ConstraintEvent& e = x.c.targets[i];
    int64_t cause = 0;
    if (!l.For(e.thread, &cause) || e.time >= cause + g.lag) continue;
    time::Repair r;
    r.kind = time::CausalConstraints::Kind::kCollective;
    r.thread = e.thread;
    r.row = x.c.target_rows[i];
    r.time_ns = e.time;
    r.violation_ns = cause - e.time;
    report_.repairs.push_back(r);
    repair_order_.push_back({x.c.order, static_cast<uint32_t>(i)});
    ++g.repairs;
  }
  due_.push_back({latest, id});
  if (!stopped_) {
    Queue(id);
    Run();
  }
}

}  // namespace plx::store
