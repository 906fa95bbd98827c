// Load imbalance per state: how unevenly the time in a state is spread over
// the processes (over the threads when the trace has a single process), in
// the terms of the POP metrics and Scalasca: imbalance = (max - mean) / max,
// percent imbalance = (max / mean - 1) x 100, time lost = max - mean.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/state_stats.h"
#include "model/trace.h"

namespace plx::analysis {

struct ImbalanceRow {
  uint32_t state = 0;            // index into Trace::states
  std::vector<int64_t> time_ns;  // per unit (process or thread index): inclusive time in the state
  uint32_t units = 0;            // units with at least one slice of the state (the ones compared)
  int64_t max_ns = 0;            // over those units
  int64_t min_ns = 0;
  double mean_ns = 0;
  uint32_t max_unit = 0;  // the unit with the most time (lowest index on ties)
  uint32_t min_unit = 0;  // the unit with the least time (lowest index on ties)
  double imbalance = 0;   // (max - mean) / max, 0..1; 0 when max is 0
  double percent = 0;     // (max / mean - 1) x 100; 0 when mean is 0
  double lost_ns = 0;     // max - mean: what the slowest unit costs the others if they wait
};

struct ImbalanceReport {
  bool by_thread = false;          // units are threads (single-process trace), else processes
  std::vector<ImbalanceRow> rows;  // sorted by lost_ns descending, then state index
};

/// The imbalance of every state, compared over the units that spend time in
/// it (a unit that never enters the state is not part of its work sharing,
/// e.g. the master of a farm for the workers' compute state).
ImbalanceReport ComputeImbalance(const model::Trace& trace);
/// The same from statistics already computed on `trace`.
ImbalanceReport ComputeImbalance(const model::Trace& trace, const StateStatsReport& stats);
/// Fills `row`'s units, max, min, mean, imbalance, percent and lost_ns from
/// its time_ns over the units `present` marks (every unit when empty): how
/// ComputeImbalance compares one state, for other per-unit times too (the
/// viewer's waits overlay compares the rows' waits in a window).
void SummarizeUnits(ImbalanceRow& row, const std::vector<bool>& present = {});

}  // namespace plx::analysis
