// State statistics spread over a Group: each process makes the statistics
// of its share of the threads (distributed/share.h) in one thread pass over
// the trace store, then process 0 merges every share. The sums are exact
// integers, so process 0's answer is store::StreamStateStats's, to the bit.
#pragma once

#include <cstdint>
#include <functional>

#include "base/status.h"
#include "distributed/group.h"
#include "store/stream_stats.h"
#include "store/trace_store.h"

namespace plx::distributed {

/// On process 0 the statistics of the whole trace, or of what `selection`
/// covers (elsewhere empty ones).
/// An error on any process is an error on all (this process's own when it
/// failed, else one that names the process that did).
StatusOr<store::StreamedStateStats> SpreadStateStats(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress = {},
    const analysis::Selection* selection = nullptr);

}  // namespace plx::distributed
