// MPI wait states and deadlocks spread over a Group
// (store::StreamWaitsSpread): each process decodes its share of the threads
// and pairs the messages it joins (distributed/group_spread.h); the waits
// of a pair go to the processes that decode its two threads, collective
// records to process 0, and at the end every process's totals and what it
// knows of blocked calls to process 0, which prints.
#pragma once

#include <cstdint>
#include <functional>

#include "base/status.h"
#include "distributed/group.h"
#include "store/stream_waits.h"
#include "store/trace_store.h"

namespace plx::distributed {

/// On process 0 store::StreamWaits' answer (without wait ends); elsewhere
/// empty. An error on any process is an error on all.
StatusOr<store::StreamedWaits> SpreadWaits(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::distributed
