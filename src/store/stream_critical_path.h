// The critical path over a trace store (analysis::ComputeCriticalPath): the
// backward walk over the waits' ends (from a message pass that keeps the
// wait instances), then a thread pass over the threads on the path that
// splits its segments by the innermost state.
#pragma once

#include <cstdint>
#include <functional>

#include "analysis/critical_path.h"
#include "analysis/wait_states.h"
#include "store/trace_store.h"

namespace plx::store {

/// `waits` must hold its instances (StreamWaits with keep_instances).
analysis::CriticalPath StreamCriticalPath(
    const TraceStore& store, const analysis::WaitStatesReport& waits,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::store
