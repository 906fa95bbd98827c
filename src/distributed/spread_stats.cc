#include "distributed/spread_stats.h"

#include <string>
#include <vector>

#include "distributed/share.h"

namespace plx::distributed {

StatusOr<store::StreamedStateStats> SpreadStateStats(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress, const analysis::Selection* selection) {
  const std::vector<uint32_t> first = ShareThreads(store.trace(), group.size());
  const uint32_t begin = first[static_cast<size_t>(group.rank())];
  const uint32_t end = first[static_cast<size_t>(group.rank()) + 1];
  store::ThreadPassOptions options = store::WithProgress(progress);
  options.only = [begin, end](uint32_t thread) { return thread >= begin && thread < end; };
  analysis::StateStatsBuilder builder =
      store::StreamStateStatsBuilder(store, options, nullptr, selection);
  const std::vector<std::string> shares = group.Gather(builder.Save());
  Status merged = Status::Ok();
  for (size_t r = 1; r < shares.size() && merged.ok(); ++r) {
    merged = builder.MergeSaved(shares[r]);
    if (!merged.ok())
      merged = DataLoss("the statistics of process " + std::to_string(r) + ": " + merged.message());
  }
  if (!group.AllOk(merged.ok())) {
    if (!merged.ok()) return merged;
    return Internal("process 0 could not merge the statistics of the others");
  }
  return store::StreamedStateStats{builder.Report(), builder.CallsiteRows()};
}

}  // namespace plx::distributed
