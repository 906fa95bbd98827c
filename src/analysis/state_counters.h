// A counter per state: how much of a counter (instructions, cache misses,
// page faults…) each state's slices took, inclusive and exclusive of nested
// states — the metric columns of a function profile. From counters sampled at
// every state change (docs/counters.md: PLX_COUNTERS samples just before each
// state record), over all threads, per process and per thread.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::analysis {

struct StateCounterSums {
  uint64_t measured = 0;  // slices with a sample at or before both their begin and end
  double total = 0;       // inclusive: sum over those slices of value(end) - value(begin)
  double self = 0;        // exclusive: minus what their measured direct children took
};

/// One scope's sums, indexed by state (Trace::states).
using StateCounterScope = std::vector<StateCounterSums>;

struct StateCounterReport {
  uint32_t counter = model::kNone;  // index into Trace::counters
  StateCounterScope all;
  std::vector<StateCounterScope> processes;  // index = Trace::processes
  std::vector<StateCounterScope> threads;    // index = Trace::threads
};

/// The counter's amount per state. A slice's amount is the counter's value at
/// its end minus its value at its begin, on the slice's own thread, where a
/// value at time T is the thread's last sample at or before T; slices with no
/// sample at or before their begin are not measured. Meaningful for counters
/// of running totals (PLX_COUNTER_MODE=changes), not for counts per period.
/// Linear in slices plus samples, with a binary search per slice end.
StateCounterReport ComputeStateCounters(const model::Trace& trace, uint32_t counter);

}  // namespace plx::analysis
