#include "distributed/spread_anomalies.h"

#include <string>

#include "distributed/share.h"
#include "store/stream_anomalies.h"

namespace plx::distributed {

StatusOr<std::vector<analysis::Anomaly>> SpreadAnomalies(
    const store::TraceStore& store, Group& group, const analysis::AnomalyOptions& options,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  const ThreadShare share = ShareOf(store.trace(), group.rank(), group.size());
  store::AnomalySpread spread;
  spread.rank = group.rank();
  spread.only = [share](uint32_t thread) { return share.Has(thread); };
  spread.all_gather = [&group](std::string mine) {
    return group.Exchange(std::vector<std::string>(static_cast<size_t>(group.size()), mine));
  };
  spread.gather = [&group](std::string mine) { return group.Gather(std::move(mine)); };
  StatusOr<std::vector<analysis::Anomaly>> found =
      store::StreamAnomaliesSpread(store, options, spread, progress);
  if (!group.AllOk(found.ok()))
    return found.ok() ? Internal("another process could not finish the anomaly search")
                      : found.status();
  return found;
}

}  // namespace plx::distributed
