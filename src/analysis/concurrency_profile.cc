// Concurrency profile: a stack sweep per thread turns its slices into the
// disjoint intervals of its innermost state; each interval adds its fractional
// cover to the first and last bucket it touches and +1 to the whole buckets
// between through a difference array, so an interval costs O(1) however long.
#include "analysis/concurrency_profile.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace plx::analysis {

namespace {

struct Interval {
  uint32_t state;
  int64_t begin;
  int64_t end;
};

// Per-state bucket sums: partial covers in `cells`, whole buckets in `diff`.
class Accumulator {
 public:
  Accumulator(size_t states, const ConcurrencyProfile& p)
      : per_state_(states),
        from_(p.from_ns),
        to_(p.to_ns),
        buckets_(p.buckets),
        width_(p.bucket_ns) {}

  void Add(uint32_t state, int64_t begin, int64_t end) {
    begin = std::max(begin, from_);
    end = std::min(end, to_);
    if (end <= begin) return;
    Sums& sums = per_state_[state];
    if (sums.cells.empty()) {
      sums.cells.assign(buckets_, 0.0);
      sums.diff.assign(buckets_ + 1, 0.0);
    }
    const double x0 = static_cast<double>(begin - from_) / width_;
    const double x1 = static_cast<double>(end - from_) / width_;
    const size_t last = buckets_ - 1;
    const size_t i0 = std::min(static_cast<size_t>(x0), last);
    const size_t i1 = std::min(static_cast<size_t>(x1), last);
    if (i0 == i1) {
      sums.cells[i0] += x1 - x0;
      return;
    }
    sums.cells[i0] += static_cast<double>(i0 + 1) - x0;
    sums.cells[i1] += x1 - static_cast<double>(i1);
    sums.diff[i0 + 1] += 1.0;
    sums.diff[i1] -= 1.0;
  }

  // Rows of states with time, in state order, into `states` and `values`.
  void Finish(std::vector<uint32_t>* states, std::vector<double>* values) {
    const bool fill_states = states->empty();
    for (uint32_t s = 0; s < per_state_.size(); ++s) {
      Sums& sums = per_state_[s];
      if (sums.cells.empty()) {
        if (!fill_states && std::binary_search(states->begin(), states->end(), s))
          values->insert(values->end(), buckets_, 0.0);
        continue;
      }
      if (fill_states) states->push_back(s);
      double run = 0;
      for (size_t b = 0; b < buckets_; ++b) {
        run += sums.diff[b];
        values->push_back(sums.cells[b] + run);
      }
    }
  }

 private:
  struct Sums {
    std::vector<double> cells;
    std::vector<double> diff;
  };
  std::vector<Sums> per_state_;
  int64_t from_, to_;
  size_t buckets_;
  double width_;
};

// Calls emit(state, begin, end) for the innermost-state intervals of the
// slice rows [first, last) of one thread, in time order.
template <typename Emit>
void InnermostIntervals(const model::Trace& trace, size_t first, size_t last, Emit&& emit) {
  const model::SliceTable& s = trace.slices;
  struct Open {
    int64_t end;
    uint32_t state;
  };
  std::vector<Open> stack;
  int64_t pos = std::numeric_limits<int64_t>::min();
  auto pop = [&] {
    const Open top = stack.back();
    stack.pop_back();
    if (top.end > pos) {
      emit(top.state, pos, top.end);
      pos = top.end;
    }
  };
  for (size_t row = first; row < last; ++row) {
    const int64_t begin = s.begin[row];
    // Close what ended before this slice, and whatever its depth says is not
    // its ancestor (robust against mismatched leaves).
    while (!stack.empty() && (stack.size() > s.depth[row] || stack.back().end <= begin))
      pop();
    if (pos == std::numeric_limits<int64_t>::min()) pos = begin;
    if (!stack.empty() && begin > pos) emit(stack.back().state, pos, begin);
    pos = std::max(pos, begin);
    int64_t end = s.end[row];
    if (!stack.empty()) end = std::min(end, stack.back().end);
    if (s.state[row] < trace.states.size()) stack.push_back({end, s.state[row]});
  }
  while (!stack.empty())
    pop();
}

}  // namespace

StatusOr<ConcurrencyProfile> ComputeConcurrencyProfile(const model::Trace& trace,
                                                       const ConcurrencyOptions& o) {
  if (o.buckets == 0) return InvalidArgument("concurrency profile: buckets must be at least 1");
  ConcurrencyProfile p;
  p.from_ns = o.from_ns == std::numeric_limits<int64_t>::min() ? trace.begin_ns : o.from_ns;
  p.to_ns = o.to_ns == std::numeric_limits<int64_t>::max() ? trace.end_ns : o.to_ns;
  if (p.to_ns <= p.from_ns) return InvalidArgument("concurrency profile: empty time window");
  p.buckets = o.buckets;
  p.bucket_ns = static_cast<double>(p.to_ns - p.from_ns) / static_cast<double>(o.buckets);

  const model::SliceTable& s = trace.slices;
  Accumulator threads(trace.states.size(), p);
  Accumulator processes(o.processes ? trace.states.size() : 0, p);
  std::vector<uint32_t> threads_of(trace.processes.size(), 0);
  for (const model::Thread& th : trace.threads)
    if (th.process < threads_of.size()) ++threads_of[th.process];
  // Innermost intervals of the current multi-threaded process, for the union.
  std::vector<Interval> pending;
  uint32_t pending_process = model::kNone;
  auto flush = [&] {
    // Per state, overlapping intervals of different threads count once.
    std::sort(pending.begin(), pending.end(), [](const Interval& a, const Interval& b) {
      return std::tie(a.state, a.begin) < std::tie(b.state, b.begin);
    });
    for (size_t i = 0; i < pending.size();) {
      Interval u = pending[i];
      for (++i; i < pending.size() && pending[i].state == u.state && pending[i].begin <= u.end; ++i)
        u.end = std::max(u.end, pending[i].end);
      processes.Add(u.state, u.begin, u.end);
    }
    pending.clear();
  };

  for (size_t row = 0; row < s.size();) {
    const uint32_t thread = s.thread[row];
    size_t end = row;
    while (end < s.size() && s.thread[end] == thread)
      ++end;
    const uint32_t process =
        thread < trace.threads.size() ? trace.threads[thread].process : model::kNone;
    const bool alone = process >= threads_of.size() || threads_of[process] <= 1;
    if (o.processes && !alone && process != pending_process) {
      flush();
      pending_process = process;
    }
    InnermostIntervals(trace, row, end, [&](uint32_t state, int64_t b, int64_t e) {
      threads.Add(state, b, e);
      if (!o.processes || process >= threads_of.size()) return;
      if (alone)
        processes.Add(state, b, e);
      else if (e > p.from_ns && b < p.to_ns)
        pending.push_back({state, b, e});
    });
    row = end;
  }
  if (o.processes) flush();

  threads.Finish(&p.states, &p.threads);
  if (o.processes) processes.Finish(&p.states, &p.processes);
  return p;
}

}  // namespace plx::analysis
