// The results sections of the trace index (docs/format.md, "The trace
// index"): what `parallax serve` computes for a trace served from its file
// after the timeline — the state statistics with the mountain range's bins,
// and the analyses of the other panels — so that the next start answers
// them at once instead of running their passes again. Both are on the times
// of one causal repair, and kept beside it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/comm_matrix.h"
#include "analysis/critical_path.h"
#include "analysis/deadlock.h"
#include "analysis/imbalance.h"
#include "analysis/state_stats.h"
#include "analysis/wait_states.h"
#include "base/status.h"
#include "model/trace.h"
#include "store/index_codec.h"
#include "store/skeleton.h"
#include "time/causal_repair.h"

namespace plx::store {

/// The mountain range's bins (store/mountain_bins.h).
struct MountainCounts {
  int64_t bin_ns = 1;
  uint64_t bins = 0;
  uint64_t states = 0;
  std::vector<int64_t> ns;  // [bin * states + state]
};

struct IndexedStatistics {
  time::RepairOptions repair;  // the times they are on
  analysis::StateStatsReport report;
  std::vector<analysis::StateStats> callsites;
  MountainCounts mountain;
};

/// What the analyses were asked for: equal keys, the same analyses.
struct AnalysesKey {
  time::RepairOptions repair;  // the times they are on
  uint64_t longest_waits = 0;  // wait instances kept
  analysis::AnomalyOptions anomalies;
};

bool SameAnalysesKey(const AnalysesKey& a, const AnalysesKey& b);

struct IndexedAnalyses {
  AnalysesKey key;
  time::RepairReport repair;  // with what applying the maps moved
  analysis::WaitStatesReport waits;
  analysis::DeadlockReport deadlocks;
  analysis::CriticalPath path;
  std::vector<analysis::Anomaly> anomalies;
  analysis::ImbalanceReport imbalance;
  analysis::CommMatrix matrix;
  analysis::RmaMatrix rma;
};

void PutStatistics(IndexWriter* w, const IndexedStatistics& s);
/// False on any damage (then `s` is partly filled), or when the mountain
/// range would hold more than `most_values` bins x states.
bool GetStatistics(IndexReader* r, IndexedStatistics* s, uint64_t most_values);

void PutAnalyses(IndexWriter* w, const IndexedAnalyses& a);
/// False on any damage, or when a matrix would be of more than
/// `most_processes` processes.
bool GetAnalyses(IndexReader* r, IndexedAnalyses* a, size_t most_processes);

/// Check that decoded results fit the trace: a scope per process and
/// thread, every state, call site, thread, process and row they name
/// defined (`trace`: the model of definitions; `totals`: rows of every
/// table in all). What the server indexes with them then stays in bounds.
Status CheckStatisticsFits(const IndexedStatistics& s, const model::Trace& trace,
                           const std::string& name);
Status CheckAnalysesFits(const IndexedAnalyses& a, const model::Trace& trace,
                         const RowCounts& totals, const std::string& name);

}  // namespace plx::store
