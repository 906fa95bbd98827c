// RepairCausality: the events constraints mention are the anchors of each
// thread's shift. Shifts start at 0 and only grow; a constraint that needs an
// anchor later raises it and, under a cone of slope max_slope, its neighbours
// before (backward amortisation) and after (forward amortisation), which may
// in turn delay sends and so wake other constraints: a worklist run to the
// least fixpoint. Then every other time follows by interpolation.
//
// The cone is exact: shifts are kept in fixed point (time/repair_rules.h),
// and neighbouring anchors differ by at most slope x distance. That makes the
// fixpoint the least solution of the constraints, whatever order they are
// worked in — so the engine that streams a trace (src/store) finds the same
// shifts working in time order.
#include "time/causal_repair.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>

#include "time/repair_rules.h"
#include "time/time_map.h"

namespace plx::time {

namespace {

using Kind = CausalConstraints::Kind;

// Counts targets before their cause; `time_of` gives an event's time.
template <typename TimeOf>
Violations Count(const CausalConstraints& c, TimeOf time_of) {
  Violations v;
  for (size_t g = 0; g < c.size(); ++g) {
    const LatestSources latest = FindLatestSources(c, g, time_of);
    for (uint32_t i = c.target_first[g]; i < c.target_first[g + 1]; ++i) {
      int64_t cause = 0;
      if (!latest.For(c.targets[i].thread, &cause) || time_of(c.targets[i]) >= cause) continue;
      ++(c.kind[g] == Kind::kMessage ? v.messages : v.collectives);
    }
  }
  return v;
}

// The anchors of every thread, flattened: thread t owns ids
// [first[t], first[t+1]), ascending by time.
struct Anchors {
  std::vector<uint32_t> first;
  std::vector<int64_t> time;
  std::vector<Scaled> scaled;  // the shift in fixed point
  std::vector<int64_t> shift;  // the whole nanoseconds of it (ShiftOf)

  uint32_t Id(const EventRef& e) const {
    const auto begin = time.begin() + first[e.thread], end = time.begin() + first[e.thread + 1];
    return static_cast<uint32_t>(std::lower_bound(begin, end, e.time) - time.begin());
  }
};

Anchors MakeAnchors(const CausalConstraints& c, size_t threads) {
  std::vector<std::vector<int64_t>> per(threads);
  for (const EventRef& e : c.sources)
    per[e.thread].push_back(e.time);
  for (const EventRef& e : c.targets)
    per[e.thread].push_back(e.time);
  Anchors a;
  a.first.push_back(0);
  for (std::vector<int64_t>& v : per) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    a.time.insert(a.time.end(), v.begin(), v.end());
    a.first.push_back(static_cast<uint32_t>(a.time.size()));
  }
  a.scaled.assign(a.time.size(), 0);
  a.shift.assign(a.time.size(), 0);
  return a;
}

class Solver {
 public:
  Solver(const CausalConstraints& c, Anchors* a, uint32_t threads, const RepairOptions& o)
      : c_(c), a_(*a), slope_(ScaledSlope(o.max_slope)), thread_of_(a->time.size()) {
    for (uint32_t t = 0; t < threads; ++t)
      for (uint32_t i = a_.first[t]; i < a_.first[t + 1]; ++i)
        thread_of_[i] = t;
    source_anchor_.reserve(c.sources.size());
    for (const EventRef& e : c.sources)
      source_anchor_.push_back(a_.Id(e));
    target_anchor_.reserve(c.targets.size());
    for (const EventRef& e : c.targets)
      target_anchor_.push_back(a_.Id(e));
    // Which groups read each anchor as a source (CSR).
    dependents_first_.assign(a_.time.size() + 1, 0);
    for (uint32_t id : source_anchor_)
      ++dependents_first_[id + 1];
    for (size_t i = 1; i < dependents_first_.size(); ++i)
      dependents_first_[i] += dependents_first_[i - 1];
    dependents_.resize(c.sources.size());
    std::vector<uint32_t> fill(dependents_first_.begin(), dependents_first_.end() - 1);
    for (uint32_t g = 0; g < c.size(); ++g)
      for (uint32_t i = c.source_first[g]; i < c.source_first[g + 1]; ++i)
        dependents_[fill[source_anchor_[i]]++] = g;
    limit_ = o.max_updates ? o.max_updates : 64 * a_.time.size() + 1'000'000;
  }

  /// Runs the worklist; false when it stopped at the update limit.
  bool Run() {
    queued_.assign(c_.size(), 1);
    for (uint32_t g = 0; g < c_.size(); ++g)
      queue_.push_back(g);
    while (!queue_.empty()) {
      const uint32_t g = queue_.front();
      queue_.pop_front();
      queued_[g] = 0;
      if (!Enforce(g)) return false;
    }
    return true;
  }

  uint64_t updates() const { return updates_; }

 private:
  bool Enforce(uint32_t g) {
    const LatestSources l =
        FindLatestSources(c_, g, [&](const EventRef& e) { return e.time + a_.shift[a_.Id(e)]; });
    for (uint32_t i = c_.target_first[g]; i < c_.target_first[g + 1]; ++i) {
      int64_t cause = 0;
      if (!l.For(c_.targets[i].thread, &cause)) continue;
      const uint32_t a = target_anchor_[i];
      const Scaled need = Needed(cause + c_.lag[g] - a_.time[a]);
      if (need > a_.scaled[a] && !Raise(a, need)) return false;
    }
    return true;
  }

  // Raises anchor `a` to v and its thread's other anchors to the cone: each
  // at least its neighbour's shift less slope x distance, stopping where one
  // already is that high (its own cone covers the rest).
  bool Raise(uint32_t a, Scaled v) {
    const uint32_t t = thread_of_[a];
    Set(a, v);
    for (uint32_t b = a; b > a_.first[t];) {
      --b;
      const Scaled want = ConeAt(a_.scaled[b + 1], a_.time[b + 1] - a_.time[b], slope_);
      if (a_.scaled[b] >= want) break;
      Set(b, want);
    }
    for (uint32_t b = a + 1; b < a_.first[t + 1]; ++b) {
      const Scaled want = ConeAt(a_.scaled[b - 1], a_.time[b] - a_.time[b - 1], slope_);
      if (a_.scaled[b] >= want) break;
      Set(b, want);
    }
    return updates_ <= limit_;
  }

  void Set(uint32_t anchor, Scaled scaled) {
    a_.scaled[anchor] = scaled;
    ++updates_;
    const int64_t shift = ShiftOf(scaled);
    if (shift == a_.shift[anchor]) return;  // what constraints see did not change
    a_.shift[anchor] = shift;
    for (uint32_t k = dependents_first_[anchor]; k < dependents_first_[anchor + 1]; ++k) {
      const uint32_t g = dependents_[k];
      if (!queued_[g]) {
        queued_[g] = 1;
        queue_.push_back(g);
      }
    }
  }

  const CausalConstraints& c_;
  Anchors& a_;
  Scaled slope_;
  std::vector<uint32_t> thread_of_;
  std::vector<uint32_t> source_anchor_, target_anchor_;
  std::vector<uint32_t> dependents_first_, dependents_;
  std::deque<uint32_t> queue_;
  std::vector<uint8_t> queued_;
  uint64_t updates_ = 0;
  uint64_t limit_ = 0;
};

}  // namespace

Violations CountViolations(const model::Trace& trace) {
  const CausalConstraints c = BuildCausalConstraints(trace, 0);
  return Count(c, [](const EventRef& e) { return e.time; });
}

StatusOr<RepairReport> RepairCausality(model::Trace* trace, const RepairOptions& options) {
  if (trace == nullptr) return InvalidArgument("RepairCausality: no trace");
  if (options.min_latency_ns < 0)
    return InvalidArgument("RepairCausality: min_latency_ns must not be negative");
  if (!(options.max_slope > 0 && options.max_slope < 1))
    return InvalidArgument("RepairCausality: max_slope must be in (0, 1)");

  RepairReport report;
  const CausalConstraints c =
      BuildCausalConstraints(*trace, options.min_latency_ns, options.collectives, options.pairs);
  report.constraints = c.size();
  const auto original = [](const EventRef& e) { return e.time; };
  // The lag only sets each group's bound, and Count ignores it, so these
  // constraints count violations exactly as CountViolations would (building
  // them, which pairs every message, is the costly part) — unless collectives
  // are left out of the repair, when they still count as violations.
  report.before = options.collectives ? Count(c, original) : CountViolations(*trace);
  report.violations_before = report.before.total();

  // The events constraints move directly: targets short of their cause (plus
  // lag) before repair. Their shifts are filled in once the solver ran.
  for (size_t g = 0; g < c.size(); ++g) {
    const LatestSources latest = FindLatestSources(c, g, original);
    for (uint32_t i = c.target_first[g]; i < c.target_first[g + 1]; ++i) {
      const EventRef& e = c.targets[i];
      int64_t cause = 0;
      if (!latest.For(e.thread, &cause) || e.time >= cause + c.lag[g]) continue;
      Repair r;
      r.kind = c.kind[g];
      r.thread = e.thread;
      r.row = c.target_row[i];
      r.send_row = c.source_row[g];
      r.time_ns = e.time;
      r.violation_ns = cause - e.time;
      report.repairs.push_back(r);
    }
  }
  const uint32_t threads = static_cast<uint32_t>(trace->threads.size());
  report.thread_max_shift_ns.assign(threads, 0);
  // Every constraint holds (the common case of one clock): nothing can move.
  if (report.repairs.empty()) {
    report.converged = true;
    report.after = options.collectives ? report.before : CountViolations(*trace);
    report.violations_after = report.after.total();
    return report;
  }

  Anchors anchors = MakeAnchors(c, threads);
  Solver solver(c, &anchors, threads, options);
  report.converged = solver.Run();
  report.updates = solver.updates();
  // Constraints that contradict each other drive shifts up without end:
  // where the solver stopped says nothing, so nothing moves.
  if (!report.converged) {
    std::fill(anchors.scaled.begin(), anchors.scaled.end(), 0);
    std::fill(anchors.shift.begin(), anchors.shift.end(), 0);
  }
  for (Repair& r : report.repairs)
    r.shift_ns = anchors.shift[anchors.Id({r.thread, r.time_ns})];
  std::stable_sort(report.repairs.begin(), report.repairs.end(),
                   [](const Repair& x, const Repair& y) { return x.shift_ns > y.shift_ns; });

  std::vector<ThreadTimeMap> maps(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    const auto b = anchors.first[t], e = anchors.first[t + 1];
    maps[t].anchors.assign(anchors.time.begin() + b, anchors.time.begin() + e);
    maps[t].shifts.assign(anchors.shift.begin() + b, anchors.shift.begin() + e);
    for (int64_t s : maps[t].shifts)
      report.thread_max_shift_ns[t] = std::max(report.thread_max_shift_ns[t], std::abs(s));
  }
  // Nothing moved (the common case of one clock): the columns stay as they are.
  const bool moved =
      std::any_of(anchors.shift.begin(), anchors.shift.end(), [](int64_t s) { return s != 0; });
  const TimeMapStats stats = moved ? ApplyTimeMaps(maps, trace) : TimeMapStats{};
  report.events_moved = stats.events_moved;
  report.max_shift_ns = stats.max_shift_ns;
  report.max_duration_change_ns = stats.max_duration_change_ns;
  report.max_relative_change = stats.max_relative_change;

  // Every constrained event is an anchor, and a time map moves an anchor by
  // exactly its shift (tests recount on the repaired trace independently).
  const auto repaired = [&](const EventRef& e) { return e.time + anchors.shift[anchors.Id(e)]; };
  report.after = options.collectives ? Count(c, repaired) : CountViolations(*trace);
  report.violations_after = report.after.total();
  return report;
}

}  // namespace plx::time
