// The critical path spread over a Group: the wait states spread
// (distributed/spread_waits.h) with every wait's end going to process 0,
// which walks the path (a walk is one chain of jumps from thread to
// thread, sequential by nature) and hands it to every process; each splits
// its threads' stretches of it by state, and process 0 adds them up.
#pragma once

#include <cstdint>
#include <functional>

#include "analysis/critical_path.h"
#include "base/status.h"
#include "distributed/group.h"
#include "store/trace_store.h"

namespace plx::distributed {

/// On process 0 store::StreamCriticalPath's answer; elsewhere empty. An
/// error on any process is an error on all. `progress` follows the wait
/// states' pass (the one over the path's threads is far shorter).
StatusOr<analysis::CriticalPath> SpreadCriticalPath(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::distributed
