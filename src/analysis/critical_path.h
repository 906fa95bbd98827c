// The critical path of a parallel run: the chain of work, through messages and
// collectives, that the run's end waited for. Shortening anything off the path
// cannot make the run shorter; what lies on it is where to optimise.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/wait_states.h"
#include "base/status.h"
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

/// The same in parts, for traces not held in memory. First each thread's
/// wait ends, ordered by end (ties in the order of WaitStatesReport::instances).
struct ThreadWaitEnds {
  std::vector<uint32_t> first;  // thread t: waits [first[t], first[t + 1])
  std::vector<int64_t> end;     // end_ns of each wait
  std::vector<uint32_t> cause;  // its cause_thread
};
ThreadWaitEnds IndexWaitEnds(const model::Trace& trace, const std::vector<WaitInstance>& waits);
/// What the walk needs of one wait, and what orders waits of equal end
/// (WaitStatesReport::instances' order): 24 bytes instead of a WaitInstance's 40.
struct WaitEnd {
  int64_t end_ns = 0;
  uint32_t slice = model::kNone;
  uint32_t record = model::kNone;
  uint32_t cause = model::kNone;
  WaitKind kind = WaitKind::kLateSender;
  WaitEnd() = default;
  explicit WaitEnd(const WaitInstance& w)
      : end_ns(w.end_ns()), slice(w.slice), record(w.record), cause(w.cause_thread), kind(w.kind) {}
};
/// Orders one thread's wait ends by end (ties as above). Linear when they
/// already are, or nearly: a thread's waits are found mostly in time order.
void SortWaitEnds(std::vector<WaitEnd>* ends);
/// The same from each thread's waits in any order (each sorted unless it
/// already is: callers with a thread pool sort threads side by side first);
/// empties `per_thread`.
ThreadWaitEnds IndexWaitEnds(std::vector<std::vector<WaitEnd>>* per_thread);
/// The path's segments, in time order.
std::vector<PathSegment> WalkCriticalPath(const model::Trace& trace, const ThreadWaitEnds& waits);

/// The path's time per innermost state, from the slices of the threads on
/// the path, each thread's in row order (any number of parts per thread).
class PathStateTimes {
 public:
  PathStateTimes(const model::Trace& trace, const std::vector<PathSegment>& segments);
  ~PathStateTimes();
  PathStateTimes(const PathStateTimes&) = delete;
  PathStateTimes& operator=(const PathStateTimes&) = delete;
  /// Threads with segments on the path, ascending.
  const std::vector<uint32_t>& threads() const { return threads_; }
  /// The time of the thread's last segment's end: slices beginning at or
  /// after it change nothing.
  int64_t last_end(uint32_t thread) const;
  /// Slices [begin, end) of `s`, all of `thread`, next in row order.
  void AddSlices(uint32_t thread, const model::SliceTable& s, size_t begin, size_t end);
  /// The thread's slices are all added.
  void EndThread(uint32_t thread);
  /// Adds what another (over the same path, other threads) found.
  void Merge(const PathStateTimes& other);
  /// What Merge takes, as bytes (base/wire.h) for another process: the
  /// times per state and the threads ended. Cut bytes merge nothing.
  std::string Save() const;
  Status MergeSaved(std::string_view saved);
  /// The path: its segments, per-process and per-state times (threads not
  /// ended yet end now).
  CriticalPath Finish();

 private:
  struct Sweep;
  void Emit(Sweep* w, int64_t a, int64_t b, uint32_t state);
  void Close(Sweep* w, int64_t t);

  const model::Trace& trace_;
  std::vector<PathSegment> segments_;  // in time order
  std::vector<PathSegment> by_thread_;
  std::vector<uint32_t> threads_;
  std::vector<uint32_t> first_;  // per thread: its segments in by_thread_, or kNone
  std::vector<Sweep> sweeps_;
  std::vector<int64_t> by_state_;
};

}  // namespace plx::analysis
