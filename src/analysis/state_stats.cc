// State statistics: one pass over the slice table with dense per-state
// accumulators per thread, then merged upwards to processes and the whole
// trace. The accumulators keep exact integer sums (of durations and of their
// squares), so merging partial results in any order gives the same numbers:
// the engine that streams a trace thread by thread, or chunk by chunk
// (src/store), and the in-memory pass agree to the last bit.
#include "analysis/state_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "base/saturating.h"

namespace plx::analysis {

namespace {

using U128 = unsigned __int128;

// a + b, or the largest value when that overflows.
U128 SaturatingAdd128(U128 a, U128 b) {
  const U128 sum = a + b;
  return sum < a ? ~U128{0} : sum;
}

struct Accum {
  uint64_t count = 0;
  int64_t total = 0;
  int64_t self = 0;
  int64_t min = std::numeric_limits<int64_t>::max();
  int64_t max = std::numeric_limits<int64_t>::min();
  __int128 sum = 0;  // of durations, exact
  U128 sum_sq = 0;   // of squared durations, exact below 2^128

  void Add(int64_t duration, int64_t self_ns) {
    ++count;
    total = SaturatingAdd(total, duration);
    self = SaturatingAdd(self, self_ns);
    min = std::min(min, duration);
    max = std::max(max, duration);
    sum += duration;
    const uint64_t magnitude =
        duration < 0 ? 0 - static_cast<uint64_t>(duration) : static_cast<uint64_t>(duration);
    sum_sq = SaturatingAdd128(sum_sq, static_cast<U128>(magnitude) * magnitude);
  }

  void Merge(const Accum& o) {
    if (o.count == 0) return;
    count += o.count;
    total = SaturatingAdd(total, o.total);
    self = SaturatingAdd(self, o.self);
    min = std::min(min, o.min);
    max = std::max(max, o.max);
    sum += o.sum;
    sum_sq = SaturatingAdd128(sum_sq, o.sum_sq);
  }

  // Population standard deviation: sqrt(n * sum_sq - sum^2) / n, exact in
  // 128 bits where it fits (every real trace), else in long double.
  double Stddev() const {
    if (count == 0) return 0;
    const U128 n = count;
    const U128 abs_sum = sum < 0 ? static_cast<U128>(-sum) : static_cast<U128>(sum);
    const U128 kMax = ~U128{0};
    if (sum_sq != kMax && sum_sq <= kMax / n && (abs_sum == 0 || abs_sum <= kMax / abs_sum)) {
      const U128 scaled = n * sum_sq, square = abs_sum * abs_sum;
      const U128 numerator = scaled > square ? scaled - square : 0;
      return static_cast<double>(std::sqrt(static_cast<long double>(numerator)) /
                                 static_cast<long double>(count));
    }
    const long double mean = static_cast<long double>(sum) / static_cast<long double>(count);
    const long double variance =
        static_cast<long double>(sum_sq) / static_cast<long double>(count) - mean * mean;
    return static_cast<double>(std::sqrt(std::max(0.0L, variance)));
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
    s.stddev_ns = a.Stddev();
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
