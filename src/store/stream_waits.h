// MPI wait states (analysis::ComputeWaitStates) and deadlocks over a trace
// store, from one message pass: late senders and late receivers where messages pair, waits
// at collectives where their instances complete. A call that completed
// several receives (or started several sends) keeps its longest wait, as
// the in-memory rules do; for that each thread's message rows are settled
// in row order.
#pragma once

#include <cstdint>
#include <functional>

#include "analysis/critical_path.h"
#include "analysis/deadlock.h"
#include "analysis/wait_states.h"
#include "base/status.h"
#include "store/lockstep.h"
#include "store/message_pass.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

struct StreamedWaits {
  analysis::WaitStatesReport waits;    // totals (instances: the longest only)
  analysis::DeadlockReport deadlocks;  // analysis::DetectDeadlocks
  analysis::ThreadWaitEnds ends;       // with `wait_ends`: what the critical path walks
};

/// The wait states' totals, each thread's wait ends when `wait_ends` (the
/// critical path needs them; a wait's instance would take 40 bytes, its end
/// 12), and the deadlocks.
/// With `maps` (per thread), on the repaired times; `unclosed` then gives
/// the unclosed slices on them (TimeMapper::LongSlices), else they come
/// from the skeletons. `visits` ride along the pass (store/lockstep.h);
/// `restart` is called at the start of every attempt, to start them over.
/// The `longest` waits are kept as instances (WaitStatesBuilder::KeepLongest).
StreamedWaits StreamWaits(const TraceStore& store, bool wait_ends,
                          const std::function<void(uint64_t, uint64_t)>& progress = {},
                          const std::vector<time::ThreadTimeMap>* maps = nullptr,
                          const std::vector<analysis::UnclosedSlice>* unclosed = nullptr,
                          const LockstepVisits& visits = {},
                          const std::function<void()>& restart = {}, size_t longest = 0);

/// StreamWaits spread over the processes of an MPI job
/// (distributed/spread_waits.h); `maps` then holds at least the maps of
/// the threads this process decodes, and `visits` see only their chunks.
/// Each process settles its threads' rows: the pairs it joins resolve rows
/// of other processes' threads, which go to their decoder after every
/// slab, as its threads' collective records go to process 0, which alone
/// groups them.
/// Process 0 gets every process's totals, the deadlocks' records and (with
/// `wait_ends`) the wait ends at the end, and the answer; elsewhere it is
/// empty.
StatusOr<StreamedWaits> StreamWaitsSpread(
    const TraceStore& store, PassSpread& spread, bool wait_ends,
    const std::function<void(uint64_t, uint64_t)>& progress = {},
    const std::vector<time::ThreadTimeMap>* maps = nullptr,
    const std::vector<analysis::UnclosedSlice>* unclosed = nullptr,
    const LockstepVisits& visits = {}, const std::function<void()>& restart = {},
    size_t longest = 0);

}  // namespace plx::store
