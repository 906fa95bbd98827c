// Per-state statistics: count, inclusive and exclusive time, mean, min, max,
// standard deviation and share of thread time — over all threads, per process
// and per thread. One engine for the CLI, the server and the tests.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::analysis {

struct StateStats {
  uint32_t state = 0;    // index into Trace::states
  uint64_t count = 0;    // slices of the state
  int64_t total_ns = 0;  // inclusive: sum of durations
  int64_t self_ns = 0;   // exclusive: sum of durations minus direct children
  int64_t min_ns = 0;    // shortest duration
  int64_t max_ns = 0;    // longest duration
  double mean_ns = 0;    // total_ns / count
  double stddev_ns = 0;  // population standard deviation of the durations
  double share = 0;      // self_ns / thread_time_ns of the scope, 0..1
};

/// The statistics of one scope (everything, a process or a thread).
struct StateStatsScope {
  int64_t thread_time_ns = 0;      // sum over its threads of (end - begin)
  std::vector<StateStats> states;  // states with at least one slice, by state index
};

struct StateStatsReport {
  StateStatsScope all;
  std::vector<StateStatsScope> processes;  // index = Trace::processes
  std::vector<StateStatsScope> threads;    // index = Trace::threads
};

/// Statistics of every state over all slices of the trace (unclosed slices
/// included, with the duration the loader gave them).
StateStatsReport ComputeStateStats(const model::Trace& trace);

enum class StateOrder : uint8_t { kTotal, kSelf, kCount, kMean, kMax, kName };

/// Sorts rows: numbers descending, names ascending; ties by name, then index.
void SortStateStats(const model::Trace& trace, StateOrder order, std::vector<StateStats>* rows);

}  // namespace plx::analysis
