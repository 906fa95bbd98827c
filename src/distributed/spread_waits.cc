#include "distributed/spread_waits.h"

#include "distributed/group_spread.h"

namespace plx::distributed {

StatusOr<store::StreamedWaits> SpreadWaits(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  GroupSpread spread(store.trace(), group);
  StatusOr<store::StreamedWaits> waits =
      store::StreamWaitsSpread(store, spread, /*wait_ends=*/false, progress);
  if (!group.AllOk(waits.ok()))
    return waits.ok() ? Internal("another process could not finish the wait states")
                      : waits.status();
  return waits;
}

}  // namespace plx::distributed
