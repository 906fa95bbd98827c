#include "distributed/spread_critical_path.h"

#include <utility>

#include "distributed/group_spread.h"
#include "store/stream_critical_path.h"
#include "store/stream_waits.h"

namespace plx::distributed {

StatusOr<analysis::CriticalPath> SpreadCriticalPath(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  GroupSpread spread(store.trace(), group);
  StatusOr<store::StreamedWaits> waits =
      store::StreamWaitsSpread(store, spread, /*wait_ends=*/true, progress);
  if (!group.AllOk(waits.ok()))
    return waits.ok() ? Internal("another process could not finish the wait states")
                      : waits.status();
  StatusOr<analysis::CriticalPath> path =
      store::StreamCriticalPathSpread(store, spread, waits->ends);
  if (!group.AllOk(path.ok()))
    return path.ok() ? Internal("another process could not finish the critical path")
                     : path.status();
  return path;
}

}  // namespace plx::distributed
