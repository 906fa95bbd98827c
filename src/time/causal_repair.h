// Causal repair: after the loader's clock correction (offset and drift per
// process from clock_offset measurements) some receives may still precede
// their sends by the measurement error. This moves each thread's times by a
// smooth, slowly varying shift — the controlled logical clock with forward and
// backward amortisation — until every constraint of causal_constraints.h
// holds, changing intervals as little as possible. docs/time.md explains it.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "model/trace.h"
#include "time/causal_constraints.h"

namespace plx::time {

struct RepairOptions {
  /// A message between processes arrives at least this long after it was
  /// sent (within a process: 0). Also the lag of collective constraints.
  int64_t min_latency_ns = 100;
  /// The steepest shift change per ns of thread time: every interval between
  /// two events changes by at most this fraction (plus 1 ns of rounding).
  /// Larger repairs spread over at least violation / max_slope of the thread.
  double max_slope = 0.005;
  /// Also enforce the collective constraints (see BuildCausalConstraints).
  bool collectives = true;
  /// Stop after this many shift updates (0: 64 per anchor event + 10^6). Only
  /// constraints that contradict each other (inconsistent matching) need it.
  uint64_t max_updates = 0;
  /// The trace's MatchMessages when the caller has them (else matched here).
  /// Repair keeps each thread's order, so they stay the trace's pairs after it
  /// unless events moved and two threads of a process send on one channel
  /// without a recorded matching sequence.
  const MessagePairs* pairs = nullptr;
};

/// Happened-before violations: receives before their sends, collective calls
/// that ended before another participant's call began.
struct Violations {
  uint64_t messages = 0;
  uint64_t collectives = 0;  // per participant whose call ended too early
  uint64_t total() const { return messages + collectives; }
};

/// One event a constraint moved directly (others move along with it).
struct Repair {
  CausalConstraints::Kind kind = CausalConstraints::Kind::kMessage;
  uint32_t thread = 0;
  uint32_t row = 0;                  // Trace::messages row of the receive, or collectives row
  uint32_t send_row = model::kNone;  // Trace::messages row of the send (messages)
  int64_t time_ns = 0;       // the event's time before repair (the call's end for collectives)
  int64_t violation_ns = 0;  // cause minus time before repair; <= 0: closer than min latency only
  int64_t shift_ns = 0;      // how far the repair moved the event
};

struct RepairReport {
  Violations before;
  Violations after;                // recounted on the repaired trace
  uint64_t violations_before = 0;  // before.total()
  uint64_t violations_after = 0;   // after.total()
  uint64_t constraints = 0;        // constraint groups (messages + collective operations)
  std::vector<Repair> repairs;     // largest shift first
  uint64_t events_moved = 0;       // time values changed (slice begin and end count apart)
  int64_t max_shift_ns = 0;
  int64_t max_duration_change_ns = 0;        // of any slice
  double max_relative_change = 0;            // of any slice of at least 1 us
  std::vector<int64_t> thread_max_shift_ns;  // per thread
  uint64_t updates = 0;                      // shift updates the solver made
  bool converged = true;  // false: stopped at max_updates (constraints contradict each
                          // other); then nothing was moved
};

/// Counts violations without changing anything (min latency 0).
Violations CountViolations(const model::Trace& trace);

/// Repairs the trace in place (every time column, see time_map.h) and says
/// what changed. Fails only on bad options.
StatusOr<RepairReport> RepairCausality(model::Trace* trace, const RepairOptions& options = {});

}  // namespace plx::time
