// StreamStateStats: a builder per worker, merged at the end.
#include "store/stream_stats.h"

#include "store/thread_pass.h"

namespace plx::store {

namespace {

class StatsVisitor : public ChunkVisitor {
 public:
  explicit StatsVisitor(const model::Trace& trace) : builder(trace) {}
  void Chunk(const ChunkRows& rows) override {
    const model::SliceTable& s = rows.tables->slices;
    builder.AddSlices(rows.thread, s, rows.carried, s.size());
  }
  analysis::StateStatsBuilder builder;
};

}  // namespace

StreamedStateStats StreamStateStats(const TraceStore& store,
                                    const std::function<void(uint64_t, uint64_t)>& progress) {
  std::vector<StatsVisitor> visitors = RunThreadPass<StatsVisitor>(
      store, [&] { return StatsVisitor(store.trace()); }, progress);
  for (size_t w = 1; w < visitors.size(); ++w)
    visitors[0].builder.Merge(std::move(visitors[w].builder));
  return {visitors[0].builder.Report(), visitors[0].builder.CallsiteRows()};
}

}  // namespace plx::store
