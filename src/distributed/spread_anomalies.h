// Anomalous durations spread over a Group (store::StreamAnomaliesSpread):
// each process counts and collects its share of the threads; the counts
// and histograms, then the values the plan collects, go to every process,
// so each plans and judges the groups as one process would and flags its
// own threads' slices; process 0 gathers and sorts them.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/anomalies.h"
#include "base/status.h"
#include "distributed/group.h"
#include "store/trace_store.h"

namespace plx::distributed {

/// On process 0 store::StreamAnomalies' answer; elsewhere empty. An error
/// on any process is an error on all.
StatusOr<std::vector<analysis::Anomaly>> SpreadAnomalies(
    const store::TraceStore& store, Group& group, const analysis::AnomalyOptions& options,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::distributed
