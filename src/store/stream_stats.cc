// StreamStateStats: a builder per worker, merged at the end.
#include "store/stream_stats.h"

#include "store/thread_pass.h"

namespace plx::store {

void StateStatsVisitor::Chunk(const ChunkRows& rows, const TimeMapper* mapper) {
  const model::SliceTable& s = rows.tables->slices;
  // A selection's clipped times need only the slices' (final) begin and end.
  if (mapper == nullptr || builder.selected()) {
    builder.AddSlices(rows.thread, s, rows.carried, s.size());
    return;
  }
  // Long slices' self times are final at the thread's end (LongSlices).
  size_t from = rows.carried;
  for (size_t r = rows.carried; r < s.size(); ++r)
    if (mapper->IsLong(r)) {
      builder.AddSlices(rows.thread, s, from, r);
      from = r + 1;
    }
  builder.AddSlices(rows.thread, s, from, s.size());
}

void StateStatsVisitor::LongSlices(uint32_t thread, const model::SliceTable& slices,
                                   const std::vector<uint64_t>&) {
  if (builder.selected()) return;  // added with their chunks
  builder.AddSlices(thread, slices, 0, slices.size());
}

analysis::StateStatsBuilder StreamStateStatsBuilder(const TraceStore& store,
                                                    const ThreadPassOptions& options,
                                                    const model::Trace* trace,
                                                    const analysis::Selection* selection) {
  const model::Trace& t = trace != nullptr ? *trace : store.trace();
  ThreadPassOptions pass = options;
  if (selection != nullptr) {
    pass.only = [selection, only = options.only](uint32_t thread) {
      return selection->Has(thread) && (!only || only(thread));
    };
    pass.until_ns = selection->to;  // slices that begin after the window are not in it
  }
  std::vector<StateStatsVisitor> visitors = RunThreadPass<StateStatsVisitor>(
      store,
      [&] {
        StateStatsVisitor v(t);
        if (selection != nullptr) v.builder.Select(*selection);
        return v;
      },
      pass);
  for (size_t w = 1; w < visitors.size(); ++w)
    visitors[0].builder.Merge(std::move(visitors[w].builder));
  return std::move(visitors[0].builder);
}

StreamedStateStats StreamStateStats(const TraceStore& store,
                                    const std::function<void(uint64_t, uint64_t)>& progress,
                                    const std::vector<time::ThreadTimeMap>* maps,
                                    const model::Trace* trace) {
  const analysis::StateStatsBuilder builder =
      StreamStateStatsBuilder(store, WithProgress(progress, maps), trace);
  return {builder.Report(), builder.CallsiteRows()};
}

StreamedStateStats StreamStateStats(const TraceStore& store, const analysis::Selection& selection,
                                    const std::function<void(uint64_t, uint64_t)>& progress) {
  const analysis::StateStatsBuilder builder =
      StreamStateStatsBuilder(store, WithProgress(progress), nullptr, &selection);
  return {builder.Report(), builder.CallsiteRows()};
}

}  // namespace plx::store
