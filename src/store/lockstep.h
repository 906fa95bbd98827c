// Lockstep passes: every thread's message, collective and posted-receive
// records (store/record_sides.h), all threads together in time order. The
// trace is cut into slabs of time; for each, the workers decode each
// thread's chunks up to the slab's end (threads in parallel) and the
// consumer then sees the slab's records of every thread. What matches
// records across threads (messages to their receives, members of a
// collective) runs in the consumer with only the records in flight in
// memory. Memory: each thread's current chunk's records, and one slab.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "store/record_sides.h"
#include "store/thread_pass.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

/// One slab: per thread, its records with time in [previous until, until),
/// each kind in time order.
struct Slab {
  int64_t until = 0;  // INT64_MAX for the last slab
  std::vector<std::vector<MessageSide>> messages;
  std::vector<std::vector<CollectiveSide>> collectives;
  std::vector<std::vector<PostSide>> posts;
};

/// How long in trace time a slab of about `slab_records` records lasts (the
/// trace's span times its share of the records; at least 1 ns).
int64_t SlabStep(const TraceStore& store, uint64_t slab_records);

/// What rides along a lockstep pass: every chunk it decodes also goes to
/// `visitors[w]` (one per store.pool() thread) as in a thread pass —
/// BeginThread, each chunk in order, LongSlices, EndThread — except that
/// a thread's chunks may come to different workers' visitors (so they must
/// not carry state from one chunk of a thread to the next). `moved` sums
/// what the maps moved.
struct LockstepVisits {
  const std::vector<ChunkVisitor*>* visitors = nullptr;
  time::TimeMapStats* moved = nullptr;
};

/// Runs the pass, calling `consume` for each slab in time order (on the
/// calling thread) until it returns false. `slab_records` is about how many
/// records a slab holds. With `maps` (per thread), the records come on the
/// repaired times. With `only`, the threads it refuses are not decoded and
/// their lists stay empty (the slabs are the same: a process of an
/// MPI-parallel pass takes its own threads, docs/distributed.md).
void RunLockstep(const TraceStore& store, uint64_t slab_records,
                 const std::function<bool(const Slab&)>& consume,
                 const std::function<void(uint64_t, uint64_t)>& progress = {},
                 const std::vector<time::ThreadTimeMap>* maps = nullptr,
                 const LockstepVisits& visits = {},
                 const std::function<bool(uint32_t thread)>& only = {});

}  // namespace plx::store
