// The critical path over a trace store (analysis::ComputeCriticalPath): the
// backward walk over the waits' ends (StreamWaits with wait_ends), then a thread pass over the
// threads on the path that splits its segments by the innermost state.
#pragma once

#include <cstdint>
#include <functional>

#include "analysis/critical_path.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

/// `ends`: every thread's wait ends (StreamWaits with wait_ends). With `maps` (per thread), on the
/// repaired times; `trace` is then the definitions with the repaired thread spans.
analysis::CriticalPath StreamCriticalPath(
    const TraceStore& store, const analysis::ThreadWaitEnds& ends,
    const std::function<void(uint64_t, uint64_t)>& progress = {},
    const std::vector<time::ThreadTimeMap>* maps = nullptr, const model::Trace* trace = nullptr);

}  // namespace plx::store
