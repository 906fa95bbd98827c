// ComputeStateCounters: per thread, the counter's samples (rows are sorted by
// thread, then time) and the slices in begin order with a stack of open
// ancestors by depth, so each measured slice's amount is added to its state
// and taken off its direct parent's exclusive amount.
#include "analysis/state_counters.h"

#include <algorithm>
#include <cmath>

namespace plx::analysis {
namespace {

struct Samples {
  std::vector<int64_t> time;
  std::vector<double> value;

  // The last value at or before t; false when none.
  bool At(int64_t t, double* v) const {
    const auto it = std::upper_bound(time.begin(), time.end(), t);
    if (it == time.begin()) return false;
    *v = value[static_cast<size_t>(it - time.begin()) - 1];
    return true;
  }
};

}  // namespace

StateCounterReport ComputeStateCounters(const model::Trace& t, uint32_t counter) {
  StateCounterReport r;
  r.counter = counter;
  const size_t states = t.states.size();
  r.all.assign(states, {});
  r.processes.assign(t.processes.size(), StateCounterScope(states));
  r.threads.assign(t.threads.size(), StateCounterScope(states));
  if (counter >= t.counters.size()) return r;

  std::vector<Samples> samples(t.threads.size());
  const model::CounterTable& c = t.counter_samples;
  for (size_t i = 0; i < c.size(); ++i) {
    if (c.counter[i] != counter) continue;
    Samples& s = samples[c.thread[i]];
    s.time.push_back(c.time[i]);
    s.value.push_back(c.value[i]);
  }

  const model::SliceTable& sl = t.slices;
  std::vector<double> amount(sl.size(), NAN);  // NaN: not measured
  std::vector<uint32_t> open;                  // open[d]: the slice at depth d
  uint32_t thread = model::kNone;
  for (uint32_t i = 0; i < sl.size(); ++i) {
    if (sl.thread[i] != thread) {
      thread = sl.thread[i];
      open.clear();
    }
    const Samples& s = samples[thread];
    double at_begin = 0, at_end = 0;
    if (!s.time.empty() && s.At(sl.begin[i], &at_begin) && s.At(sl.end[i], &at_end))
      amount[i] = at_end - at_begin;
    const size_t depth = sl.depth[i];
    if (open.size() > depth) open.resize(depth);
    const uint32_t parent = depth > 0 && open.size() == depth ? open.back() : model::kNone;
    open.push_back(i);
    if (std::isnan(amount[i])) continue;
    StateCounterSums* scopes[] = {&r.all[sl.state[i]],
                                  &r.processes[t.threads[thread].process][sl.state[i]],
                                  &r.threads[thread][sl.state[i]]};
    for (StateCounterSums* x : scopes) {
      ++x->measured;
      x->total += amount[i];
      x->self += amount[i];
    }
    if (parent == model::kNone || std::isnan(amount[parent])) continue;
    StateCounterSums* parents[] = {&r.all[sl.state[parent]],
                                   &r.processes[t.threads[thread].process][sl.state[parent]],
                                   &r.threads[thread][sl.state[parent]]};
    for (StateCounterSums* x : parents)
      x->self -= amount[i];
  }
  return r;
}

}  // namespace plx::analysis
