// StreamReport: repair; the message pass for waits and deadlocks, with the
// statistics, the anomalies' histograms and what the maps moved riding
// along; one thread pass for the critical path's sweep and the anomalies'
// second pass.
#include "store/stream_report.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/wire.h"
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

namespace {

// The unclosed slices on the repaired times: spread, each process knows
// only its threads' maps, so each finds its threads' and every process
// gets all of them.
std::vector<analysis::UnclosedSlice> Unclosed(const TraceStore& store,
                                              const std::vector<time::ThreadTimeMap>* maps,
                                              PassSpread* spread, bool* cut) {
  std::vector<analysis::UnclosedSlice> open = UnclosedSlices(store, maps);
  if (spread == nullptr) return open;
  std::erase_if(open, [&](const analysis::UnclosedSlice& u) { return !spread->Decodes(u.thread); });
  std::string mine;
  WirePutAll(&mine, open);
  open.clear();
  for (const std::string& from : GatherOnAll(*spread, mine)) {
    WireReader in(from);
    *cut |= !in.GetAll(&open) || !in.done();
  }
  std::sort(open.begin(), open.end(),
            [](const analysis::UnclosedSlice& a, const analysis::UnclosedSlice& b) {
              return a.slice < b.slice;
            });
  return open;
}

StatusOr<StreamedReport> Analyse(const TraceStore& store, time::RepairReport repair,
                                 const std::vector<time::ThreadTimeMap>& repaired_maps,
                                 const AnalysesOptions& options,
                                 const std::function<void(std::string_view)>& step,
                                 PassSpread* spread) {
  const auto begin = [&](std::string_view name) {
    if (step) step(name);
  };
  StreamedReport out;
  out.repair = std::move(repair);
  // Spread, a process knows the maps of its threads (process 0 of all):
  // what did not move here passes as recorded.
  const bool moved = std::any_of(repaired_maps.begin(), repaired_maps.end(),
                                 [](const time::ThreadTimeMap& m) { return !m.is_identity(); });
  const std::vector<time::ThreadTimeMap>* maps = moved ? &repaired_maps : nullptr;
  out.trace = moved ? RepairedDefinitions(store.trace(), repaired_maps) : store.trace();
  bool cut = false;  // some process's bytes

  // The statistics and the anomalies' first pass ride along the wait-state
  // pass (each chunk decoded once for all of them); an attempt of that pass
  // that stops early makes them start over.
  begin("statistics and wait states");
  const size_t workers = store.pool()->size();
  std::vector<StateStatsVisitor> stats;
  AnomalySpread shared;
  if (spread != nullptr) {
    shared.rank = spread->rank();
    shared.only = [spread](uint32_t t) { return spread->Decodes(t); };
    shared.all_gather = [spread](std::string mine) { return GatherOnAll(*spread, mine); };
    shared.gather = [spread](std::string mine) { return GatherOnFirst(*spread, std::move(mine)); };
  }
  std::optional<AnomalyFinder> anomalies;
  std::vector<FanOutVisitor> fan;
  std::vector<ChunkVisitor*> visitors;
  time::TimeMapStats moved_stats;
  const auto restart = [&] {
    stats.clear();
    fan.clear();
    visitors.clear();
    anomalies.emplace(store, options.anomalies, spread != nullptr ? &shared : nullptr);
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
  const std::vector<analysis::UnclosedSlice> open = Unclosed(store, maps, spread, &cut);
  const bool given = maps != nullptr || spread != nullptr;
  StatusOr<StreamedWaits> waits =
      spread != nullptr
          ? StreamWaitsSpread(store, *spread, /*wait_ends=*/true, {}, maps, &open,
                              LockstepVisits{&visitors, &moved_stats}, restart,
                              options.longest_waits)
          : StreamWaits(store, /*wait_ends=*/true, {}, maps, given ? &open : nullptr,
                        LockstepVisits{&visitors, &moved_stats}, restart, options.longest_waits);
  // Spread, an error on one process is one on all (each still takes part
  // in every step below, then says so).
  StreamedWaits w = waits.ok() ? std::move(*waits) : StreamedWaits{};
  out.deadlocks = std::move(w.deadlocks);
  for (size_t k = 1; k < workers; ++k)
    stats[0].builder.Merge(std::move(stats[k].builder));
  if (spread != nullptr) {
    // Every process's statistics and what its maps moved, to process 0.
    std::string mine;
    WirePutBytes(&mine, stats[0].builder.Save());
    WirePut(&mine, moved_stats);
    const std::vector<std::string> from = GatherOnFirst(*spread, std::move(mine));
    for (size_t r = 1; r < from.size(); ++r) {
      WireReader in(from[r]);
      std::string_view saved;
      time::TimeMapStats theirs;
      cut |= !in.GetBytes(&saved) || !in.Get(&theirs) || !in.done() ||
             !stats[0].builder.MergeSaved(saved).ok();
      AddTimeMapStats(&moved_stats, theirs);
    }
  }
  out.stats = stats[0].builder.Report();
  out.repair.events_moved = moved_stats.events_moved;
  out.repair.max_shift_ns = moved_stats.max_shift_ns;
  out.repair.max_duration_change_ns = moved_stats.max_duration_change_ns;
  out.repair.max_relative_change = moved_stats.max_relative_change;

  begin("critical path and anomalies");
  // One pass for both: the path's threads split by state, and the
  // anomalies' second pass. Spread, process 0 walks the path.
  std::optional<CriticalPathFinder> path;
  if (spread != nullptr) {
    std::vector<analysis::PathSegment> segments;
    cut |= !ShareCriticalPath(store, *spread, w.ends, out.trace, &segments);
    path.emplace(store, std::move(segments), out.trace);
  } else {
    path.emplace(store, w.ends, out.trace);
  }
  w.ends = {};
  out.waits = std::move(w.waits);
  anomalies->PlanCollection();
  std::vector<FanOutVisitor> second;
  for (size_t k = 0; k < workers; ++k)
    second.emplace_back(std::vector<ChunkVisitor*>{path->Visitor(k), anomalies->Collector(k)});
  visitors.clear();
  for (FanOutVisitor& f : second)
    visitors.push_back(&f);
  ThreadPassOptions pass = WithProgress({}, maps);
  if (spread != nullptr) pass.only = shared.only;
  RunThreadPass(store, visitors, pass);
  const Status merged = spread != nullptr ? MergePathTimes(*spread, &*path) : Status::Ok();
  out.path = path->Finish();
  out.anomalies = anomalies->Finish(maps, {});
  if (spread != nullptr) {
    // Each process flagged its threads' slices; process 0 gathers them.
    std::string mine;
    WirePutAll(&mine, out.anomalies);
    out.anomalies.clear();
    for (const std::string& from : GatherOnFirst(*spread, std::move(mine))) {
      WireReader in(from);
      cut |= !in.GetAll(&out.anomalies) || !in.done();
    }
    analysis::SortAnomalies(&out.anomalies);
  }
  PLX_RETURN_IF_ERROR(waits.status());
  PLX_RETURN_IF_ERROR(merged);
  PLX_RETURN_IF_ERROR(anomalies->spread_status());
  if (cut) return Internal("the report's results from another process are cut");
  return out;
}

}  // namespace

StreamedReport StreamAnalyses(const TraceStore& store, time::RepairReport repair,
                              const std::vector<time::ThreadTimeMap>& maps,
                              const AnalysesOptions& options,
                              const std::function<void(std::string_view)>& step) {
  // One process exchanges nothing, so nothing can come cut.
  return *Analyse(store, std::move(repair), maps, options, step, nullptr);
}

StatusOr<StreamedReport> StreamAnalysesSpread(const TraceStore& store, time::RepairReport repair,
                                              const std::vector<time::ThreadTimeMap>& maps,
                                              PassSpread& spread, const AnalysesOptions& options,
                                              const std::function<void(std::string_view)>& step) {
  return Analyse(store, std::move(repair), maps, options, step, &spread);
}

}  // namespace plx::store
