// State statistics over a trace store: one thread pass feeding the analysis
// layer's StateStatsBuilder chunk by chunk; the same numbers as
// analysis::ComputeStateStats on the whole model (its sums are exact).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/state_stats.h"
#include "store/trace_store.h"

namespace plx::store {

struct StreamedStateStats {
  analysis::StateStatsReport report;
  std::vector<analysis::StateStats> callsites;  // as analysis::ComputeCallsiteStats
};

StreamedStateStats StreamStateStats(const TraceStore& store,
                                    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::store
