// The concurrency profile (Jumpshot's "mountain range"): over a time window
// cut into equal buckets, how many threads (or processes) are in each state on
// average per bucket, counting only a thread's innermost state. Stacked, the
// states of a bucket add up to the number of threads busy in any state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/status.h"
#include "model/trace.h"

namespace plx::analysis {

struct ConcurrencyOptions {
  // The window [from_ns, to_ns); the defaults mean the trace's begin and end.
  int64_t from_ns = std::numeric_limits<int64_t>::min();
  int64_t to_ns = std::numeric_limits<int64_t>::max();
  size_t buckets = 100;    // >= 1
  bool processes = false;  // also compute the per-process profile
};

struct ConcurrencyProfile {
  int64_t from_ns = 0;
  int64_t to_ns = 0;
  size_t buckets = 0;
  double bucket_ns = 0;  // (to_ns - from_ns) / buckets; bucket b starts at from + b * bucket_ns
  std::vector<uint32_t> states;  // states with time in the window, ascending index
  // threads[i * buckets + b]: the time-averaged number of threads whose
  // innermost state is states[i] during bucket b (time in it / bucket_ns).
  std::vector<double> threads;
  // processes[i * buckets + b]: the same for processes, a process counting
  // once while any of its threads is innermost in the state. Empty unless asked.
  std::vector<double> processes;

  double threads_at(size_t state_row, size_t bucket) const {
    return threads[state_row * buckets + bucket];
  }
};

/// The profile of every state over the window. A slice's time minus its
/// nested slices' is its thread's innermost time in its state. Cost: linear
/// in the slices plus buckets x states; processes with several threads add a
/// sort of their innermost intervals. Errors: buckets == 0, an empty window.
StatusOr<ConcurrencyProfile> ComputeConcurrencyProfile(const model::Trace& trace,
                                                       const ConcurrencyOptions& options = {});

}  // namespace plx::analysis
