// The --json shapes of analysis results that more than one command prints
// (a command's own output and `parallax report`), written once so that the
// same result reads the same everywhere. docs/cli.md describes each shape.
// Include only where nlohmann/json is used anyway (it is heavy to compile).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/critical_path.h"
#include "analysis/deadlock.h"
#include "analysis/imbalance.h"
#include "analysis/state_stats.h"
#include "analysis/wait_states.h"
#include "model/trace.h"
#include "time/causal_repair.h"

namespace plx::cli {

/// {"file", "line", "function"} of a call site; null when `callsite` is unknown.
nlohmann::ordered_json CallsiteJson(const model::Trace& t, uint32_t callsite);

/// A *state row*: name, category, count, total/self/mean/min/max/stddev ns,
/// share; with `with_callsite` also "callsite" (CallsiteJson).
nlohmann::ordered_json StateRowJson(const model::Trace& t, const analysis::StateStats& s,
                                    bool with_callsite = false);

/// One anomalous slice: state, process, rank, thread, tid, begin_ns,
/// duration_ns, median_ns, mad_ns, limit_ns, group_size, group, score,
/// method, callsite.
nlohmann::ordered_json AnomalyJson(const model::Trace& t, const analysis::Anomaly& a);

/// The wait-state object of `waits --json`: totals, per process, the first
/// `top_callsites` call sites (0 = all), deadlocks and other blocked calls.
nlohmann::ordered_json WaitsJson(const model::Trace& t, const analysis::WaitStatesReport& w,
                                 const analysis::DeadlockReport& d, size_t top_callsites);

/// The deadlocks: each {"processes": world ranks, "calls": blocked calls}.
nlohmann::ordered_json DeadlocksJson(const model::Trace& t, const analysis::DeadlockReport& d);

/// The --top longest segments of a path, longest first; all, in time order, for 0.
std::vector<analysis::PathSegment> LongestSegments(const analysis::CriticalPath& p, size_t top);

/// The object of `critical-path --json`, segments as LongestSegments(top).
nlohmann::ordered_json CriticalPathJson(const model::Trace& t, const analysis::CriticalPath& p,
                                        size_t top);

/// The first `top` rows (0 = all) of the imbalance report, most time lost first.
nlohmann::ordered_json ImbalanceJson(const model::Trace& t, const analysis::ImbalanceReport& r,
                                     size_t top);

/// What causal repair found and changed, without the individual repairs:
/// violations_before/after, before, after, constraints, converged,
/// events_moved, max_shift_ns, max_duration_change_ns, max_relative_change,
/// repairs_total.
nlohmann::ordered_json RepairSummaryJson(const time::RepairReport& r);

}  // namespace plx::cli
