// The critical path of a parallel run: the chain of work, through messages and
// collectives, that the run's end waited for. Shortening anything off the path
// cannot make the run shorter; what lies on it is where to optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/wait_states.h"
#include "model/trace.h"

namespace plx::analysis {

/// A stretch of the path on one thread: [begin_ns, end_ns).
struct PathSegment {
  uint32_t thread = model::kNone;
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  int64_t length_ns() const { return end_ns - begin_ns; }
};

/// Time on the path in one state (the innermost state at each instant;
/// model::kNone = outside every state).
struct PathStateTime {
  uint32_t state = model::kNone;
  int64_t ns = 0;
};

struct CriticalPath {
  int64_t length_ns = 0;              // Trace::end_ns - Trace::begin_ns
  std::vector<PathSegment> segments;  // in time order; together they cover the trace's span
  std::vector<PathStateTime> states;  // by ns descending, then state
  std::vector<int64_t> processes;     // ns on the path per Trace::processes
};

/// Walks backward from the end of the thread that ends last. Along a thread,
/// where the walk meets the end of a wait (a late sender, a late receiver, a
/// collective; `waits`), the thread was held by the one it waited for, so the
/// walk jumps to that thread at the same time. A thread's begin hands the
/// walk to the earliest-beginning thread of its process (else of the trace)
/// that began before. O(n log n) in the waits plus linear in the slices of the
/// threads on the path.
CriticalPath ComputeCriticalPath(const model::Trace& trace, const WaitStatesReport& waits);

}  // namespace plx::analysis
