// Deadlock detection at the end of a trace: the MPI calls still blocked when
// the recording ended, what each waits for, and the cycles of processes that
// wait for each other (none of which can go on, so the run hung).
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::analysis {

/// A call that never returned: the innermost slice of its thread with the
/// kUnclosed flag whose state is a blocking MPI call, or any unclosed slice of
/// category "comm".
struct BlockedCall {
  uint32_t slice = model::kNone;
  uint32_t state = model::kNone;  // the slice's state
  uint32_t thread = model::kNone;
  uint32_t process = model::kNone;
  int64_t rank = -1;     // world rank of the process (-1: not MPI)
  int64_t since_ns = 0;  // the call's begin
  // World ranks it waits for, ascending: a blocked receive (or probe, or wait
  // for a receive) the sources of its thread's posted receives that never
  // completed (any source: every member of the communicator but itself); a
  // blocked send (or wait for one) the destinations of its unmatched sends; a
  // blocked collective the processes not blocked in the same function (the
  // communicator is only known once a collective completes, so all processes
  // count). Empty when unknown (e.g. traces without recv_post records).
  std::vector<int64_t> waits_for;
  uint32_t comm = model::kNone;  // Trace::communicators row of the first thing waited for
  int64_t tag = -1;              // its tag, -1 = any or unknown
};

/// A set of processes each blocked waiting for another of the set.
struct Deadlock {
  std::vector<int64_t> ranks;   // world ranks, ascending
  std::vector<uint32_t> calls;  // indices into DeadlockReport::blocked
};

struct DeadlockReport {
  std::vector<BlockedCall> blocked;    // sorted by thread
  std::vector<Deadlock> deadlocks;     // by lowest rank
  std::vector<uint32_t> not_in_cycle;  // indices into blocked: blocked, but in no cycle
};

/// Finds the blocked calls and the cycles of the wait-for graph between
/// processes: each strongly connected set of two or more blocked processes
/// (or one waiting for itself) is a deadlock. Cheap when nothing is blocked.
DeadlockReport DetectDeadlocks(const model::Trace& trace);

/// The same from its inputs, for traces not held in memory. First the
/// blocked calls, from the unclosed slices of every thread (in slice row
/// order); only when there are some, the records of their threads.
struct UnclosedSlice {
  uint32_t slice = model::kNone;  // Trace::slices row
  uint32_t thread = 0;
  uint32_t state = 0;
  uint16_t depth = 0;
  int64_t begin = 0;
};
/// The blocked calls (BlockedCall::waits_for still empty), and per thread
/// the index of its blocked call or kNone.
DeadlockReport FindBlockedCalls(const model::Trace& trace,
                                const std::vector<UnclosedSlice>& unclosed,
                                std::vector<uint32_t>* blocked_of);

struct DeadlockRecords {
  /// Posted receives of the blocked threads, in row order; `completed`:
  /// some receive record of the thread's process carries its match.
  struct Post {
    uint32_t thread = 0;
    int64_t time = 0;
    uint32_t comm = model::kNone;
    int64_t peer = 0, tag = 0;
    uint64_t match = 0;
    bool completed = false;
  };
  /// Unmatched sends (time::MatchMessages) of the blocked threads, in row
  /// order, with the state of the call around them (kNone: none).
  struct Send {
    uint32_t thread = 0;
    int64_t time = 0;
    uint32_t comm = model::kNone;
    int64_t peer = 0, tag = 0;
    uint32_t call = model::kNone;  // Trace::slices row of the call
    uint32_t call_state = model::kNone;
  };
  std::vector<Post> posts;
  std::vector<Send> sends;
};
/// What the blocked calls wait for, and the deadlocks.
void FinishDeadlocks(const model::Trace& trace, const std::vector<uint32_t>& blocked_of,
                     const DeadlockRecords& records, DeadlockReport* report);

}  // namespace plx::analysis
