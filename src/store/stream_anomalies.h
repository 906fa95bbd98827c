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
#include <string>
#include <vector>

#include "analysis/anomalies.h"
#include "base/status.h"
#include "store/log_histogram.h"
#include "store/thread_pass.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

/// An anomaly search spread over the processes of an MPI job
/// (distributed/spread_anomalies.h): each process passes over its own
/// threads, and the steps below make every process's plan and judgement
/// the whole trace's. Every process calls them in the same order.
struct AnomalySpread {
  int rank = 0;  // this process
  /// The threads this process passes over.
  std::function<bool(uint32_t thread)> only;
  /// Every process's bytes, by rank, on every process.
  std::function<std::vector<std::string>(std::string)> all_gather;
  /// On process 0 every process's bytes, by rank; elsewhere empty.
  std::function<std::vector<std::string>(std::string)> gather;
};

/// The two passes apart, so that each can share a thread pass with other
/// analyses: run Counter(w) as worker w's visitor of a thread pass (with the
/// maps Finish will be given); then either Finish, which runs the second
/// pass, or PlanCollection, a pass with Collector(w) as worker w's visitor, and Finish.
class AnomalyFinder {
 public:
  /// With `spread`, the passes are over this process's threads and the
  /// plan and the groups' statistics are shared (Finish then gives this
  /// process's anomalies).
  AnomalyFinder(const TraceStore& store, const analysis::AnomalyOptions& options,
                const AnomalySpread* spread = nullptr);
  ~AnomalyFinder();
  ChunkVisitor* Counter(size_t worker);
  /// After the counting pass: what the second pass collects.
  void PlanCollection();
  /// After PlanCollection: worker w's visitor of the second pass.
  ChunkVisitor* Collector(size_t worker);
  /// The anomalies (the second pass first, unless PlanCollection was called).
  std::vector<analysis::Anomaly> Finish(const std::vector<time::ThreadTimeMap>* maps,
                                        const std::function<void(uint64_t, uint64_t)>& progress);
  /// Spread: whether every process's bytes read back (else the answer is
  /// not the trace's).
  const Status& spread_status() const;

 private:
  struct State;
  // Spread (anomaly_spread.cc): every process's counts into the plan's
  // tables, and every process's collected values into the first collector.
  void ShareCounts(std::vector<uint64_t>* counts, std::vector<LogHistogram>* histograms);
  void ShareCollected();
  std::unique_ptr<State> s_;
};

/// Spread: process 0 gets every process's anomalies, sorted as
/// StreamAnomalies sorts them; the others none.
StatusOr<std::vector<analysis::Anomaly>> StreamAnomaliesSpread(
    const TraceStore& store, const analysis::AnomalyOptions& options, const AnomalySpread& spread,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

/// With `maps` (per thread), on the repaired times.
std::vector<analysis::Anomaly> StreamAnomalies(
    const TraceStore& store, const analysis::AnomalyOptions& options,
    const std::function<void(uint64_t, uint64_t)>& progress = {},
    const std::vector<time::ThreadTimeMap>* maps = nullptr);

}  // namespace plx::store
