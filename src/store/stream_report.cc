// StreamReport: repair; the message pass for waits and deadlocks, with the
// statistics, the anomalies' histograms and what the maps moved riding
// along; one thread pass for the critical path's sweep and the anomalies'
// second pass.
#include "store/stream_report.h"

#include <algorithm>
#include <optional>

#include "store/stream_anomalies.h"
#include "store/stream_critical_path.h"
#include "store/stream_deadlocks.h"
#include "store/stream_repair.h"
#include "store/stream_stats.h"
#include "store/stream_waits.h"
#include "store/thread_pass.h"

namespace plx::store {

StatusOr<StreamedReport> StreamReport(const TraceStore& store,
                                      const analysis::AnomalyOptions& anomaly_options,
                                      const std::function<void(std::string_view)>& step) {
  if (step) step("causal repair");
  PLX_ASSIGN_OR_RETURN(StreamedRepair repaired, StreamRepair(store));
  AnalysesOptions options;
  options.anomalies = anomaly_options;
  return StreamAnalyses(store, std::move(repaired.report), repaired.maps, options, step);
}

StreamedReport StreamAnalyses(const TraceStore& store, time::RepairReport repair,
                              const std::vector<time::ThreadTimeMap>& repaired_maps,
                              const AnalysesOptions& options,
                              const std::function<void(std::string_view)>& step) {
  const auto begin = [&](std::string_view name) {
    if (step) step(name);
  };
  StreamedReport out;
  out.repair = std::move(repair);
  const bool moved = std::any_of(repaired_maps.begin(), repaired_maps.end(),
                                 [](const time::ThreadTimeMap& m) { return !m.is_identity(); });
  const std::vector<time::ThreadTimeMap>* maps = moved ? &repaired_maps : nullptr;
  out.trace = moved ? RepairedDefinitions(store.trace(), repaired_maps) : store.trace();

  // The statistics and the anomalies' first pass ride along the wait-state
  // pass (each chunk decoded once for all of them); an attempt of that pass
  // that stops early makes them start over.
  begin("statistics and wait states");
  const size_t workers = store.pool()->size();
  std::vector<StateStatsVisitor> stats;
  std::optional<AnomalyFinder> anomalies;
  std::vector<FanOutVisitor> fan;
  std::vector<ChunkVisitor*> visitors;
  time::TimeMapStats moved_stats;
  const auto restart = [&] {
    stats.clear();
    fan.clear();
    visitors.clear();
    anomalies.emplace(store, options.anomalies);
    for (size_t w = 0; w < workers; ++w)
      stats.emplace_back(out.trace);
    for (size_t w = 0; w < workers; ++w)
      fan.emplace_back(std::vector<ChunkVisitor*>{&stats[w], anomalies->Counter(w)});
    for (FanOutVisitor& f : fan)
      visitors.push_back(&f);
    moved_stats = {};
  };
  // Unclosed slices from the skeletons: on the repaired times, as the
  // deadlock search needs them before the pass starts.
  const std::vector<analysis::UnclosedSlice> open = UnclosedSlices(store, maps);
  StreamedWaits w =
      StreamWaits(store, /*wait_ends=*/true, {}, maps, maps ? &open : nullptr,
                  LockstepVisits{&visitors, &moved_stats}, restart, options.longest_waits);
  out.deadlocks = std::move(w.deadlocks);
  for (size_t k = 1; k < workers; ++k)
    stats[0].builder.Merge(std::move(stats[k].builder));
  out.stats = stats[0].builder.Report();
  out.repair.events_moved = moved_stats.events_moved;
  out.repair.max_shift_ns = moved_stats.max_shift_ns;
  out.repair.max_duration_change_ns = moved_stats.max_duration_change_ns;
  out.repair.max_relative_change = moved_stats.max_relative_change;

  begin("critical path and anomalies");
  // One pass for both: the path's threads split by state, and the
  // anomalies' second pass.
  CriticalPathFinder path(store, w.ends, out.trace);
  w.ends = {};
  out.waits = std::move(w.waits);
  anomalies->PlanCollection();
  std::vector<FanOutVisitor> second;
  for (size_t k = 0; k < workers; ++k)
    second.emplace_back(std::vector<ChunkVisitor*>{path.Visitor(k), anomalies->Collector(k)});
  visitors.clear();
  for (FanOutVisitor& f : second)
    visitors.push_back(&f);
  RunThreadPass(store, visitors, WithProgress({}, maps));
  out.path = path.Finish();
  out.anomalies = anomalies->Finish(maps, {});
  return out;
}

}  // namespace plx::store
