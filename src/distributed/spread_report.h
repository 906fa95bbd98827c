// Everything `parallax report` shows, spread over a Group: the causal
// repair (distributed/spread_repair.h), then on the repaired times the
// wait states with the statistics and the anomalies' counts riding along
// (distributed/spread_waits.h), and one thread pass per process for the
// critical path's sweep (walked on process 0) and the anomalies' second
// pass (store::StreamAnalysesSpread).
#pragma once

#include <functional>
#include <string_view>

#include "analysis/anomalies.h"
#include "base/status.h"
#include "distributed/group.h"
#include "store/stream_report.h"
#include "store/trace_store.h"

namespace plx::distributed {

/// On process 0 store::StreamReport's answer; elsewhere nothing to print.
/// An error on any process is an error on all.
StatusOr<store::StreamedReport> SpreadReport(
    const store::TraceStore& store, Group& group, const analysis::AnomalyOptions& anomalies = {},
    const std::function<void(std::string_view)>& step = {});

}  // namespace plx::distributed
