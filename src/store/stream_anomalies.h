// Anomalous durations over a trace store (analysis::FindAnomalies), exact,
// in two thread passes instead of holding every duration: the first counts
// each (state, call site) key's slices and keeps a histogram of their
// durations (store/log_histogram.h); the second collects only the values in
// the buckets that hold each group's median, MAD and percentile ranks, and
// the slices that may pass the group's limit. Medians and MADs come out
// exactly as nth_element over all durations gives them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/anomalies.h"
#include "store/thread_pass.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

/// The two passes apart, so that each can share a thread pass with other
/// analyses: run Counter(w) as worker w's visitor of a thread pass (with the
/// maps Finish will be given); then either Finish, which runs the second
/// pass, or PlanCollection, a pass with Collector(w) as worker w's visitor, and Finish.
class AnomalyFinder {
 public:
  AnomalyFinder(const TraceStore& store, const analysis::AnomalyOptions& options);
  ~AnomalyFinder();
  ChunkVisitor* Counter(size_t worker);
  /// After the counting pass: what the second pass collects.
  void PlanCollection();
  /// After PlanCollection: worker w's visitor of the second pass.
  ChunkVisitor* Collector(size_t worker);
  /// The anomalies (the second pass first, unless PlanCollection was called).
  std::vector<analysis::Anomaly> Finish(const std::vector<time::ThreadTimeMap>* maps,
                                        const std::function<void(uint64_t, uint64_t)>& progress);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// With `maps` (per thread), on the repaired times.
std::vector<analysis::Anomaly> StreamAnomalies(
    const TraceStore& store, const analysis::AnomalyOptions& options,
    const std::function<void(uint64_t, uint64_t)>& progress = {},
    const std::vector<time::ThreadTimeMap>* maps = nullptr);

}  // namespace plx::store
