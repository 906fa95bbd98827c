// Everything `parallax report` shows, over a trace store: causal repair,
// then on the repaired times the state statistics, wait states, deadlocks,
// the critical path and anomalous durations — what the in-memory report
// computes, in five passes over the file (the statistics and the first of
// the anomalies' two passes share one).
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/critical_path.h"
#include "analysis/deadlock.h"
#include "analysis/state_stats.h"
#include "analysis/wait_states.h"
#include "base/status.h"
#include "model/trace.h"
#include "store/message_pass.h"
#include "store/trace_store.h"
#include "time/causal_repair.h"

namespace plx::store {

struct StreamedReport {
  model::Trace trace;  // the definitions, with the repaired thread spans
  time::RepairReport repair;
  analysis::StateStatsReport stats;
  analysis::WaitStatesReport waits;
  analysis::DeadlockReport deadlocks;
  analysis::CriticalPath path;
  std::vector<analysis::Anomaly> anomalies;
};

/// `step(name)` is told as each part begins (may be empty).
StatusOr<StreamedReport> StreamReport(const TraceStore& store,
                                      const analysis::AnomalyOptions& anomalies = {},
                                      const std::function<void(std::string_view)>& step = {});

struct AnalysesOptions {
  analysis::AnomalyOptions anomalies;
  /// Wait instances kept: the longest (the report's waits have totals only).
  size_t longest_waits = 0;
};

/// What StreamReport computes after the causal repair, given the repair's
/// report and time maps (per thread; all identity: the recorded times).
StreamedReport StreamAnalyses(const TraceStore& store, time::RepairReport repair,
                              const std::vector<time::ThreadTimeMap>& maps,
                              const AnalysesOptions& options = {},
                              const std::function<void(std::string_view)>& step = {});

/// StreamAnalyses spread over the processes of an MPI job
/// (distributed/spread_report.h): `maps` as distributed::SpreadRepair
/// leaves them (process 0 all, the others their threads'). The wait
/// states' pass spreads as StreamWaitsSpread's, the statistics and the
/// anomalies' passes run over each process's threads, process 0 walks the
/// critical path; process 0 has the report, the others (of their own
/// threads only) nothing to print. An error on one process is one on all
/// after the last step.
StatusOr<StreamedReport> StreamAnalysesSpread(
    const TraceStore& store, time::RepairReport repair,
    const std::vector<time::ThreadTimeMap>& maps, PassSpread& spread,
    const AnalysesOptions& options = {}, const std::function<void(std::string_view)>& step = {});

}  // namespace plx::store
