// State statistics: one pass over the slice table with dense per-state
// accumulators per thread (Welford for the variance), then merged upwards to
// processes and the whole trace (Chan et al.'s pairwise update).
#include "analysis/state_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "base/saturating.h"

namespace plx::analysis {

namespace {

struct Accum {
  uint64_t count = 0;
  int64_t total = 0;
  int64_t self = 0;
  int64_t min = std::numeric_limits<int64_t>::max();
  int64_t max = std::numeric_limits<int64_t>::min();
  double mean = 0;
  double m2 = 0;  // sum of squared deviations from the mean

  void Add(int64_t duration, int64_t self_ns) {
    ++count;
    total = SaturatingAdd(total, duration);
    self = SaturatingAdd(self, self_ns);
    min = std::min(min, duration);
    max = std::max(max, duration);
    const double d = static_cast<double>(duration);
    const double delta = d - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (d - mean);
  }

  void Merge(const Accum& o) {
    if (o.count == 0) return;
    const double n = static_cast<double>(count + o.count);
    const double delta = o.mean - mean;
    m2 += o.m2 + delta * delta * static_cast<double>(count) * static_cast<double>(o.count) / n;
    mean += delta * static_cast<double>(o.count) / n;
    count += o.count;
    total = SaturatingAdd(total, o.total);
    self = SaturatingAdd(self, o.self);
    min = std::min(min, o.min);
    max = std::max(max, o.max);
  }
};

using Sparse = std::vector<std::pair<uint32_t, Accum>>;

// Dense accumulators indexed by state, with the list of those in use so that
// emptying them costs only what was touched.
class DenseAccums {
 public:
  explicit DenseAccums(size_t states) : accums_(states) {}
  Accum& operator[](uint32_t state) {
    Accum& a = accums_[state];
    if (a.count == 0) touched_.push_back(state);
    return a;
  }
  void Merge(const Sparse& rows) {
    for (const auto& [state, accum] : rows)
      (*this)[state].Merge(accum);
  }
  // The accumulators in use, by state index; leaves everything empty.
  Sparse Take() {
    std::sort(touched_.begin(), touched_.end());
    Sparse out;
    out.reserve(touched_.size());
    for (uint32_t s : touched_) {
      out.emplace_back(s, accums_[s]);
      accums_[s] = Accum();
    }
    touched_.clear();
    return out;
  }

 private:
  std::vector<Accum> accums_;
  std::vector<uint32_t> touched_;
};

StateStatsScope ToScope(const Sparse& rows, int64_t thread_time_ns) {
  StateStatsScope scope;
  scope.thread_time_ns = thread_time_ns;
  scope.states.reserve(rows.size());
  for (const auto& [state, a] : rows) {
    StateStats s;
    s.state = state;
    s.count = a.count;
    s.total_ns = a.total;
    s.self_ns = a.self;
    s.min_ns = a.min;
    s.max_ns = a.max;
    s.mean_ns = static_cast<double>(a.total) / static_cast<double>(a.count);
    s.stddev_ns = std::sqrt(std::max(0.0, a.m2 / static_cast<double>(a.count)));
    s.share = thread_time_ns > 0 ? static_cast<double>(a.self) / static_cast<double>(thread_time_ns)
                                 : 0.0;
    scope.states.push_back(s);
  }
  return scope;
}

}  // namespace

StateStatsReport ComputeStateStats(const model::Trace& trace) {
  const model::SliceTable& slices = trace.slices;
  const size_t n_threads = trace.threads.size();
  DenseAccums dense(trace.states.size());

  // Threads: rows are sorted by thread, so each run of rows is one thread.
  std::vector<Sparse> per_thread(n_threads);
  for (size_t row = 0; row < slices.size();) {
    const uint32_t thread = slices.thread[row];
    size_t end = row;
    for (; end < slices.size() && slices.thread[end] == thread; ++end) {
      const uint32_t state = slices.state[end];
      if (state < trace.states.size())
        dense[state].Add(slices.end[end] - slices.begin[end], slices.self_ns[end]);
    }
    if (thread < n_threads) {
      dense.Merge(per_thread[thread]);  // a thread met twice (unsorted input) adds up
      per_thread[thread] = dense.Take();
    } else {
      dense.Take();
    }
    row = end;
  }

  StateStatsReport report;
  report.threads.resize(n_threads);
  std::vector<int64_t> process_time(trace.processes.size(), 0);
  std::vector<std::vector<uint32_t>> process_threads(trace.processes.size());
  int64_t all_time = 0;
  for (uint32_t t = 0; t < n_threads; ++t) {
    const model::Thread& th = trace.threads[t];
    const int64_t span = th.records > 0 ? th.end_ns - th.begin_ns : 0;
    report.threads[t] = ToScope(per_thread[t], span);
    all_time = SaturatingAdd(all_time, span);
    if (th.process < process_time.size()) {
      process_time[th.process] = SaturatingAdd(process_time[th.process], span);
      process_threads[th.process].push_back(t);
    }
  }

  report.processes.resize(trace.processes.size());
  std::vector<Sparse> per_process(trace.processes.size());
  for (size_t p = 0; p < trace.processes.size(); ++p) {
    for (uint32_t t : process_threads[p])
      dense.Merge(per_thread[t]);
    per_process[p] = dense.Take();
    report.processes[p] = ToScope(per_process[p], process_time[p]);
  }
  for (const Sparse& rows : per_process)
    dense.Merge(rows);
  report.all = ToScope(dense.Take(), all_time);
  return report;
}

std::vector<StateStats> ComputeCallsiteStats(const model::Trace& trace) {
  const model::SliceTable& slices = trace.slices;
  StateCallsiteKeys keys(trace.states.size(), trace.callsites.size());
  std::vector<Accum> accums;
  for (size_t row = 0; row < slices.size(); ++row) {
    const uint32_t state = slices.state[row];
    if (state >= trace.states.size()) continue;
    const uint32_t id = keys.Id(state, slices.callsite[row]);
    if (id >= accums.size()) accums.resize(id + 1);
    accums[id].Add(slices.end[row] - slices.begin[row], slices.self_ns[row]);
  }
  int64_t thread_time = 0;
  for (const model::Thread& th : trace.threads)
    if (th.records > 0) thread_time = SaturatingAdd(thread_time, th.end_ns - th.begin_ns);

  std::vector<uint32_t> order(keys.size());
  for (uint32_t id = 0; id < order.size(); ++id)
    order[id] = id;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    // kNone (no callsite) sorts after every known callsite of the state.
    return std::make_pair(keys.state(a), keys.callsite(a)) <
           std::make_pair(keys.state(b), keys.callsite(b));
  });
  Sparse rows;
  rows.reserve(order.size());
  for (uint32_t id : order)
    rows.emplace_back(keys.state(id), accums[id]);
  StateStatsScope scope = ToScope(rows, thread_time);
  for (size_t i = 0; i < order.size(); ++i)
    scope.states[i].callsite = keys.callsite(order[i]);
  return std::move(scope.states);
}

void SortStateStats(const model::Trace& trace, StateOrder order, std::vector<StateStats>* rows) {
  auto name = [&](const StateStats& s) -> const std::string& {
    static const std::string kEmpty;
    return s.state < trace.states.size() ? trace.states[s.state].name : kEmpty;
  };
  auto key = [&](const StateStats& s) -> double {
    switch (order) {
      case StateOrder::kTotal:
        return static_cast<double>(s.total_ns);
      case StateOrder::kSelf:
        return static_cast<double>(s.self_ns);
      case StateOrder::kCount:
        return static_cast<double>(s.count);
      case StateOrder::kMean:
        return s.mean_ns;
      case StateOrder::kMax:
        return static_cast<double>(s.max_ns);
      case StateOrder::kName:
        return 0;
    }
    return 0;
  };
  std::stable_sort(rows->begin(), rows->end(), [&](const StateStats& a, const StateStats& b) {
    const double ka = key(a), kb = key(b);
    if (ka != kb) return ka > kb;
    return std::forward_as_tuple(name(a), a.state, a.callsite) <
           std::forward_as_tuple(name(b), b.state, b.callsite);
  });
}

}  // namespace plx::analysis
