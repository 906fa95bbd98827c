// State statistics: dense per-state sums per thread (the builder's scratch,
// emptied into each thread's sparse rows after every part), then merged
// upwards to processes and the whole trace. The sums are exact integers
// (analysis/duration_sums.h), so the parts may come in any number and the
// engine that streams a trace chunk by chunk (src/store) and the in-memory
// pass agree to the last bit.
#include "analysis/state_stats.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <utility>

#include "base/saturating.h"

namespace plx::analysis {

namespace {

using Accum = DurationSums;

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

StateStatsBuilder::StateStatsBuilder(const model::Trace& trace)
    : trace_(trace),
      dense_(trace.states.size()),
      threads_(trace.threads.size()),
      keys_(trace.states.size(), trace.callsites.size()) {}

StateStatsBuilder::~StateStatsBuilder() = default;
StateStatsBuilder::StateStatsBuilder(StateStatsBuilder&&) noexcept = default;

void StateStatsBuilder::Select(Selection selection) {
  selection_ = std::move(selection);
}

void StateStatsBuilder::AddSlices(uint32_t thread, const model::SliceTable& s, size_t begin,
                                  size_t end) {
  if (selection_) return AddClipped(thread, s, begin, end);
  const size_t states = dense_.size();
  std::vector<uint32_t> touched;
  for (size_t row = begin; row < end; ++row) {
    const uint32_t state = s.state[row];
    if (state >= states) continue;
    Add(state, s.callsite[row], s.end[row] - s.begin[row], s.self_ns[row], &touched);
  }
  Settle(thread, touched);
}

void StateStatsBuilder::Add(uint32_t state, uint32_t callsite, int64_t duration, int64_t self,
                            std::vector<uint32_t>* touched) {
  Accum& a = dense_[state];
  if (a.count == 0) touched->push_back(state);
  a.Add(duration, self);
  const uint32_t id = keys_.Id(state, callsite);
  if (id >= callsites_.size()) callsites_.resize(id + 1);
  callsites_[id].Add(duration, self);
}

// A thread's slices come in the order they were entered, so a slice at
// depth d closes every open one at depth d or deeper and is a direct child
// of the open one at depth d - 1: each selected slice waits on open_ until
// the next one at its depth or above (or EndThread) settles its self time.
void StateStatsBuilder::AddClipped(uint32_t thread, const model::SliceTable& s, size_t begin,
                                   size_t end) {
  if (!open_.empty() && open_.back().thread != thread) EndThread();
  if (!selection_->Has(thread)) return;
  const size_t states = dense_.size();
  std::vector<uint32_t> touched;
  for (size_t row = begin; row < end; ++row) {
    const uint32_t state = s.state[row];
    if (state >= states) continue;
    const int64_t b = s.begin[row], e = s.end[row];
    if (b > selection_->to || e < selection_->from) continue;
    const uint16_t depth = s.depth[row];
    while (!open_.empty() && open_.back().depth >= depth) {
      const Open& o = open_.back();
      Add(o.state, o.callsite, o.clipped, o.self, &touched);
      open_.pop_back();
    }
    const int64_t clipped = selection_->Clip(b, e);
    if (!open_.empty() && open_.back().depth + 1 == depth)
      open_.back().self = SaturatingAdd(open_.back().self, -clipped);
    open_.push_back({thread, state, s.callsite[row], depth, clipped, clipped});
  }
  Settle(thread, touched);
}

void StateStatsBuilder::EndThread() {
  if (open_.empty()) return;
  const uint32_t thread = open_.back().thread;
  std::vector<uint32_t> touched;
  for (auto o = open_.rbegin(); o != open_.rend(); ++o)
    Add(o->state, o->callsite, o->clipped, o->self, &touched);
  open_.clear();
  Settle(thread, touched);
}

// The scratch sums of `touched` states into the thread's rows, sorted by
// state (one merge per state touched).
void StateStatsBuilder::Settle(uint32_t thread, const std::vector<uint32_t>& touched_in) {
  std::vector<uint32_t> touched = touched_in;
  if (thread >= threads_.size()) {
    for (uint32_t state : touched)
      dense_[state] = Accum();
    return;
  }
  std::sort(touched.begin(), touched.end());
  std::vector<std::pair<uint32_t, Accum>>& rows = threads_[thread];
  std::vector<std::pair<uint32_t, Accum>> merged;
  merged.reserve(rows.size() + touched.size());
  size_t i = 0;
  for (uint32_t state : touched) {
    while (i < rows.size() && rows[i].first < state)
      merged.push_back(rows[i++]);
    Accum a = dense_[state];
    dense_[state] = Accum();
    if (i < rows.size() && rows[i].first == state) a.Merge(rows[i++].second);
    merged.emplace_back(state, a);
  }
  merged.insert(merged.end(), rows.begin() + static_cast<ptrdiff_t>(i), rows.end());
  rows = std::move(merged);
}

int64_t StateStatsBuilder::SpanOf(const model::Thread& th, uint32_t index) const {
  if (th.records == 0) return 0;
  if (!selection_) return th.end_ns - th.begin_ns;
  if (!selection_->Has(index)) return 0;
  if (th.begin_ns > selection_->to || th.end_ns < selection_->from) return 0;
  return selection_->Clip(th.begin_ns, th.end_ns);
}

void StateStatsBuilder::Merge(StateStatsBuilder&& other) {
  EndThread();
  other.EndThread();
  for (size_t t = 0; t < threads_.size(); ++t) {
    std::vector<std::pair<uint32_t, Accum>>& rows = other.threads_[t];
    if (rows.empty()) continue;
    if (threads_[t].empty()) {
      threads_[t] = std::move(rows);
      continue;
    }
    DenseAccums dense(trace_.states.size());
    dense.Merge(threads_[t]);
    dense.Merge(rows);
    threads_[t] = dense.Take();
  }
  for (uint32_t id = 0; id < other.keys_.size(); ++id) {
    const uint32_t mine = keys_.Id(other.keys_.state(id), other.keys_.callsite(id));
    if (mine >= callsites_.size()) callsites_.resize(mine + 1);
    if (id < other.callsites_.size()) callsites_[mine].Merge(other.callsites_[id]);
  }
}

StateStatsReport StateStatsBuilder::Report() const {
  const model::Trace& trace = trace_;
  const size_t n_threads = trace.threads.size();
  DenseAccums dense(trace.states.size());
  StateStatsReport report;
  report.threads.resize(n_threads);
  std::vector<int64_t> process_time(trace.processes.size(), 0);
  std::vector<std::vector<uint32_t>> process_threads(trace.processes.size());
  int64_t all_time = 0;
  for (uint32_t t = 0; t < n_threads; ++t) {
    const model::Thread& th = trace.threads[t];
    const int64_t span = SpanOf(th, t);
    report.threads[t] = ToScope(threads_[t], span);
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
      dense.Merge(threads_[t]);
    per_process[p] = dense.Take();
    report.processes[p] = ToScope(per_process[p], process_time[p]);
  }
  for (const Sparse& rows : per_process)
    dense.Merge(rows);
  report.all = ToScope(dense.Take(), all_time);
  return report;
}

std::vector<StateStats> StateStatsBuilder::CallsiteRows() const {
  int64_t thread_time = 0;
  for (uint32_t t = 0; t < trace_.threads.size(); ++t)
    thread_time = SaturatingAdd(thread_time, SpanOf(trace_.threads[t], t));
  std::vector<uint32_t> order;
  for (uint32_t id = 0; id < keys_.size(); ++id)
    if (id < callsites_.size() && callsites_[id].count > 0) order.push_back(id);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    // kNone (no callsite) sorts after every known callsite of the state.
    return std::make_pair(keys_.state(a), keys_.callsite(a)) <
           std::make_pair(keys_.state(b), keys_.callsite(b));
  });
  Sparse rows;
  rows.reserve(order.size());
  for (uint32_t id : order)
    rows.emplace_back(keys_.state(id), callsites_[id]);
  StateStatsScope scope = ToScope(rows, thread_time);
  for (size_t i = 0; i < order.size(); ++i)
    scope.states[i].callsite = keys_.callsite(order[i]);
  return std::move(scope.states);
}

namespace {

// The builder over the whole model: each thread's rows as one part.
StateStatsBuilder BuildOverModel(const model::Trace& trace, const Selection* selection) {
  StateStatsBuilder builder(trace);
  if (selection != nullptr) builder.Select(*selection);
  const model::SliceTable& slices = trace.slices;
  for (size_t row = 0; row < slices.size();) {
    const uint32_t thread = slices.thread[row];
    size_t end = row;
    while (end < slices.size() && slices.thread[end] == thread)
      ++end;
    builder.AddSlices(thread, slices, row, end);
    builder.EndThread();
    row = end;
  }
  return builder;
}

}  // namespace

StateStatsReport ComputeStateStats(const model::Trace& trace, const Selection* selection) {
  return BuildOverModel(trace, selection).Report();
}

std::vector<StateStats> ComputeCallsiteStats(const model::Trace& trace,
                                             const Selection* selection) {
  return BuildOverModel(trace, selection).CallsiteRows();
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
