// State statistics over a trace store: one thread pass feeding the analysis
// layer's StateStatsBuilder chunk by chunk; the same numbers as
// analysis::ComputeStateStats on the whole model (its sums are exact).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/state_stats.h"
#include "store/thread_pass.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

struct StreamedStateStats {
  analysis::StateStatsReport report;
  std::vector<analysis::StateStats> callsites;  // as analysis::ComputeCallsiteStats
};

/// A thread pass's visitor that feeds a StateStatsBuilder (on repaired
/// times, long slices at the thread's end, with their final self times).
class StateStatsVisitor : public ChunkVisitor {
 public:
  explicit StateStatsVisitor(const model::Trace& trace) : builder(trace) {}
  void Chunk(const ChunkRows& rows, const TimeMapper* mapper) override;
  void LongSlices(uint32_t thread, const model::SliceTable& slices,
                  const std::vector<uint64_t>& rows) override;
  void EndThread(uint32_t) override { builder.EndThread(); }
  bool SlicesOnly() const override { return true; }
  analysis::StateStatsBuilder builder;
};

/// The builder of one pass over the threads `options.only` accepts (every
/// thread without it), with its progress and maps: the part of the
/// statistics that another process's parts merge with.
/// With `selection`, only what it covers, and only its threads are decoded.
analysis::StateStatsBuilder StreamStateStatsBuilder(const TraceStore& store,
                                                    const ThreadPassOptions& options,
                                                    const model::Trace* trace = nullptr,
                                                    const analysis::Selection* selection = nullptr);

/// With `maps` (per thread), on the repaired times; `trace` is then the
/// definitions with the repaired thread spans (shares are of them).
StreamedStateStats StreamStateStats(const TraceStore& store,
                                    const std::function<void(uint64_t, uint64_t)>& progress = {},
                                    const std::vector<time::ThreadTimeMap>* maps = nullptr,
                                    const model::Trace* trace = nullptr);

/// What `selection` covers, on the recorded times.
StreamedStateStats StreamStateStats(const TraceStore& store, const analysis::Selection& selection,
                                    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::store
