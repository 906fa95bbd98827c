#include "distributed/spread_stats.h"

#include <string_view>

#include "distributed/merge_on_first.h"
#include "distributed/share.h"

namespace plx::distributed {

StatusOr<store::StreamedStateStats> SpreadStateStats(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress, const analysis::Selection* selection) {
  const ThreadShare share = ShareOf(store.trace(), group.rank(), group.size());
  store::ThreadPassOptions options = store::WithProgress(progress);
  options.only = [share](uint32_t thread) { return share.Has(thread); };
  analysis::StateStatsBuilder builder =
      store::StreamStateStatsBuilder(store, options, nullptr, selection);
  PLX_RETURN_IF_ERROR(
      MergeOnFirst(group, builder.Save(), "the statistics",
                   [&](std::string_view saved) { return builder.MergeSaved(saved); }));
  return store::StreamedStateStats{builder.Report(), builder.CallsiteRows()};
}

}  // namespace plx::distributed
