// Per-state statistics: count, inclusive and exclusive time, mean, min, max,
// standard deviation and share of thread time — over all threads, per process,
// per thread and per (state, call site). One engine for the CLI, the server
// and the tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/duration_sums.h"
#include "analysis/selection.h"
#include "base/status.h"
#include "model/trace.h"

namespace plx::analysis {

struct StateStats {
  uint32_t state = 0;                // index into Trace::states
  uint32_t callsite = model::kNone;  // per-callsite rows: index into Trace::callsites
  uint64_t count = 0;                // slices of the state
  int64_t total_ns = 0;              // inclusive: sum of durations
  int64_t self_ns = 0;               // exclusive: sum of durations minus direct children
  int64_t min_ns = 0;                // shortest duration
  int64_t max_ns = 0;                // longest duration
  double mean_ns = 0;                // total_ns / count
  double stddev_ns = 0;              // population standard deviation of the durations
  double share = 0;                  // self_ns / thread_time_ns of the scope, 0..1
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
/// included, with the duration the loader gave them), or over what
/// `selection` covers.
StateStatsReport ComputeStateStats(const model::Trace& trace, const Selection* selection = nullptr);

/// Statistics per (state, call site) over all slices: one row per pair that
/// occurs (callsite kNone for slices with no known call site), ordered by
/// state, then callsite; share is relative to the whole trace's thread time.
std::vector<StateStats> ComputeCallsiteStats(const model::Trace& trace,
                                             const Selection* selection = nullptr);

/// Dense ids for the (state, callsite) pairs slices use, assigned on first
/// sight; a lookup is O(1) for any pair (the pairs of one callsite are chained,
/// and a call site nearly always belongs to one state).
class StateCallsiteKeys {
 public:
  StateCallsiteKeys(size_t states, size_t callsites)
      : by_state_(states, model::kNone), by_callsite_(callsites, model::kNone) {}

  /// The id of the pair; state must be < the states given.
  uint32_t Id(uint32_t state, uint32_t callsite) {
    uint32_t* head = callsite < by_callsite_.size() ? &by_callsite_[callsite] : &by_state_[state];
    if (callsite < by_callsite_.size()) {
      for (uint32_t id = *head; id != model::kNone; id = next_[id])
        if (state_[id] == state) return id;
    } else if (*head != model::kNone) {
      return *head;  // no (known) callsite: one id per state
    }
    const uint32_t id = static_cast<uint32_t>(state_.size());
    state_.push_back(state);
    callsite_.push_back(callsite < by_callsite_.size() ? callsite : model::kNone);
    next_.push_back(*head);
    *head = id;
    return id;
  }
  size_t size() const { return state_.size(); }
  uint32_t state(uint32_t id) const { return state_[id]; }
  uint32_t callsite(uint32_t id) const { return callsite_[id]; }

 private:
  std::vector<uint32_t> by_state_;     // id of (state, no callsite)
  std::vector<uint32_t> by_callsite_;  // latest id with that callsite
  std::vector<uint32_t> state_, callsite_, next_;
};

/// The statistics built in parts: each thread's slices are added in any
/// number of pieces (a thread's rows, or one chunk's), builders of disjoint
/// parts merge, and the sums are exact, so any split gives the same report.
/// ComputeStateStats and ComputeCallsiteStats are one builder over the model.
class StateStatsBuilder {
 public:
  /// `trace` (its definitions, processes and threads) must outlive it.
  explicit StateStatsBuilder(const model::Trace& trace);
  ~StateStatsBuilder();
  StateStatsBuilder(StateStatsBuilder&&) noexcept;

  /// Only what `selection` covers counts from now on (set before adding).
  void Select(Selection selection);
  bool selected() const { return selection_.has_value(); }
  /// Adds rows [begin, end) of `slices`, all of thread `thread`. With a
  /// selection, a thread's rows come in their order, piece after piece,
  /// and EndThread follows its last piece.
  void AddSlices(uint32_t thread, const model::SliceTable& slices, size_t begin, size_t end);
  /// With a selection: the thread's slices still waiting for their children
  /// are final (a no-op without one).
  void EndThread();
  /// Adds what `other` (over the same trace) was given.
  void Merge(StateStatsBuilder&& other);
  /// What the builder was given, as bytes another process (of the same
  /// machine kind) merges with MergeSaved (state_stats_wire.cc).
  std::string Save() const;
  /// Merge of a builder over the same trace saved by Save; InvalidArgument
  /// naming what does not fit this trace (then nothing is merged).
  Status MergeSaved(std::string_view saved);

  StateStatsReport Report() const;
  /// As ComputeCallsiteStats.
  std::vector<StateStats> CallsiteRows() const;

 private:
  // A selected slice whose children may still come: clipped duration and
  // self time so far.
  struct Open {
    uint32_t thread, state, callsite;
    uint16_t depth;
    int64_t clipped, self;
  };
  void AddClipped(uint32_t thread, const model::SliceTable& slices, size_t begin, size_t end);
  void Add(uint32_t state, uint32_t callsite, int64_t duration, int64_t self,
           std::vector<uint32_t>* touched);
  void Settle(uint32_t thread, const std::vector<uint32_t>& touched);
  int64_t SpanOf(const model::Thread& thread, uint32_t index) const;

  const model::Trace& trace_;
  std::optional<Selection> selection_;
  std::vector<Open> open_;  // the selected slices of one thread still open, outermost first
  std::vector<DurationSums> dense_;                                      // scratch, by state
  std::vector<std::vector<std::pair<uint32_t, DurationSums>>> threads_;  // per thread, by state
  StateCallsiteKeys keys_;
  std::vector<DurationSums> callsites_;  // by key
};

enum class StateOrder : uint8_t { kTotal, kSelf, kCount, kMean, kMax, kName };

/// Sorts rows: numbers descending, names ascending; ties by name, then
/// state index, then callsite index.
void SortStateStats(const model::Trace& trace, StateOrder order, std::vector<StateStats>* rows);

}  // namespace plx::analysis
