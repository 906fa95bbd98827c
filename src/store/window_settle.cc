// WindowSolver, the other half: groups settle once the window has passed
// their latest event (their violations counted, their repairs' shifts
// read), and anchors older than the window leave memory for their thread's
// time map. Advance and Finish drive both.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

#include "store/window_solver.h"

namespace plx::store {

void WindowSolver::Settle(uint32_t id) {
  Group& g = groups_[id];
  Count(g, true, &report_.after);
  if (g.message) {
    if (g.repairs) report_.repairs[g.first_repair].shift_ns = anchors_[g.target].shift;
    --anchors_[g.source].refs;
    --anchors_[g.target].refs;
    RemoveDependent(g.source, id);
  } else {
    Collective& x = collectives_[g.collective];
    // Repairs are in target order; find each one's target by its row.
    for (uint32_t k = 0, i = 0; k < g.repairs && i < x.targets.size(); ++i) {
      time::Repair& r = report_.repairs[g.first_repair + k];
      if (r.row != x.c.target_rows[i] || r.time_ns != x.c.targets[i].time) continue;
      r.shift_ns = anchors_[x.targets[i]].shift;
      ++k;
    }
    for (uint32_t a : x.sources) {
      --anchors_[a].refs;
      RemoveDependent(a, id);
    }
    for (uint32_t a : x.targets)
      --anchors_[a].refs;
    x = Collective();
    free_collectives_.push_back(g.collective);
  }
  free_groups_.push_back(id);
}

void WindowSolver::Emit(ThreadAnchors* t, uint32_t thread, int64_t time, int64_t shift) {
  // An anchor goes into the map when its shift or a neighbour's is not 0.
  if (t->pending && (t->pending_shift != 0 || t->before_pending_shift != 0 || shift != 0)) {
    maps_[thread].anchors.push_back(t->pending_time);
    maps_[thread].shifts.push_back(t->pending_shift);
  }
  t->before_pending_shift = t->pending ? t->pending_shift : 0;
  t->pending = true;
  t->pending_time = time;
  t->pending_shift = shift;
}

void WindowSolver::Remove(uint32_t thread, int64_t before) {
  ThreadAnchors& t = threads_[thread];
  // Anchors leave oldest first; they left the cache long ago.
  constexpr size_t kAhead = 8;
  for (size_t k = 0; k < kAhead && k < t.by_time.size() && t.by_time[k].first < before; ++k)
    __builtin_prefetch(&anchors_[t.by_time[k].second]);
  while (!t.by_time.empty()) {
    if (t.by_time.size() > kAhead && t.by_time[kAhead].first < before)
      __builtin_prefetch(&anchors_[t.by_time[kAhead].second]);
    const uint32_t id = t.by_time.front().second;
    Anchor& a = anchors_[id];
    if (a.time >= before || a.refs > 0) break;
    t.removed_any = true;
    t.removed_time = a.time;
    t.removed_scaled = a.scaled;
    report_.thread_max_shift_ns[thread] =
        std::max(report_.thread_max_shift_ns[thread], std::abs(a.shift));
    Emit(&t, thread, a.time, a.shift);
    if (a.more != kNone) {
      more_[a.more].clear();
      free_more_.push_back(a.more);
    }
    free_anchors_.push_back(id);
    t.by_time.pop_front();
  }
}

void WindowSolver::SettleDue(bool all, int64_t before) {
  // The due groups, split off the rest (one sequential pass, cheaper than
  // a heap's pops). Their order does not matter: each counts its own
  // violations and reads its own repairs' shifts, all final.
  const auto due = std::partition(due_.begin(), due_.end(),
                                  [&](const Due& d) { return !all && d.first >= before; });
  settling_.assign(due, due_.end());
  due_.erase(due, due_.end());
  // Settled with their groups and anchors fetched a few ahead: they have
  // mostly left the cache since they were made, and settling is otherwise
  // a wait on memory.
  constexpr size_t kGroupsAhead = 16, kAnchorsAhead = 8;
  for (size_t i = 0; i < settling_.size(); ++i) {
    if (i + kGroupsAhead < settling_.size())
      __builtin_prefetch(&groups_[settling_[i + kGroupsAhead].second]);
    if (i + kAnchorsAhead < settling_.size()) {
      const Group& g = groups_[settling_[i + kAnchorsAhead].second];
      if (g.message) {
        __builtin_prefetch(&anchors_[g.source]);
        __builtin_prefetch(&anchors_[g.target]);
      }
    }
    Settle(settling_[i].second);
  }
}

void WindowSolver::Advance(int64_t frontier) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  frozen_before_ = frontier < kMin + window_ ? kMin : frontier - window_;
  SettleDue(false, frozen_before_);
  for (uint32_t t = 0; t < threads_.size(); ++t)
    Remove(t, frozen_before_);
}

void WindowSolver::Finish() {
  Run();
  if (stopped_) {
    // Contradicting constraints: nothing moves (as in time::RepairCausality).
    for (Anchor& a : anchors_) {
      a.scaled = 0;
      a.shift = 0;
    }
    for (ThreadAnchors& t : threads_)
      t.removed_scaled = 0;
  }
  frozen_before_ = std::numeric_limits<int64_t>::max();
  SettleDue(true, frozen_before_);
  for (uint32_t t = 0; t < threads_.size(); ++t) {
    Remove(t, frozen_before_);
    Emit(&threads_[t], t, 0, 0);  // flushes the last anchor (as if followed by a shift of 0)
  }
  report_.converged = !stopped_;
  if (stopped_) {
    // Groups settled before the solver stopped counted their shifts.
    report_.after = report_.before;
    for (time::Repair& r : report_.repairs)
      r.shift_ns = 0;
    for (time::ThreadTimeMap& m : maps_)
      m = time::ThreadTimeMap();
    std::fill(report_.thread_max_shift_ns.begin(), report_.thread_max_shift_ns.end(), 0);
  }
  report_.violations_before = report_.before.total();
  report_.violations_after = report_.after.total();
  // Largest shift first; equal ones in the in-memory order of their groups,
  // then as found. Most repairs share their shift with others, so each
  // index carries a copy of its whole sort key: comparing them reads
  // neither the repairs nor the group order out of place.
  struct Key {
    int64_t shift_ns;
    std::array<uint64_t, 5> group;
    uint32_t target;
    uint32_t index;
  };
  std::vector<Key> order(report_.repairs.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = {report_.repairs[i].shift_ns, repair_order_[i].first, repair_order_[i].second, i};
  decltype(repair_order_)().swap(repair_order_);  // now in the keys
  std::sort(order.begin(), order.end(), [](const Key& a, const Key& b) {
    if (a.shift_ns != b.shift_ns) return a.shift_ns > b.shift_ns;
    for (size_t k = 0; k < a.group.size(); ++k)
      if (a.group[k] != b.group[k]) return a.group[k] < b.group[k];
    return a.target != b.target ? a.target < b.target : a.index < b.index;
  });
  std::vector<time::Repair> sorted;
  sorted.reserve(order.size());
  for (const Key& k : order)
    sorted.push_back(report_.repairs[k.index]);
  report_.repairs = std::move(sorted);
}

}  // namespace plx::store
