// Load imbalance from the per-process (or per-thread) state statistics: one
// dense row of unit times per state, then max, min and mean over the units
// that took part.
#include "analysis/imbalance.h"

#include <algorithm>
#include <utility>

namespace plx::analysis {

ImbalanceReport ComputeImbalance(const model::Trace& trace) {
  return ComputeImbalance(trace, ComputeStateStats(trace));
}

ImbalanceReport ComputeImbalance(const model::Trace& trace, const StateStatsReport& stats) {
  ImbalanceReport report;
  report.by_thread = trace.processes.size() == 1;
  const std::vector<StateStatsScope>& scopes = report.by_thread ? stats.threads : stats.processes;
  const size_t units = scopes.size();

  std::vector<uint32_t> row_of(trace.states.size(), model::kNone);
  std::vector<std::vector<bool>> present;  // per row, per unit: any slice of the state
  for (uint32_t u = 0; u < units; ++u) {
    for (const StateStats& s : scopes[u].states) {
      if (s.state >= row_of.size()) continue;
      if (row_of[s.state] == model::kNone) {
        row_of[s.state] = static_cast<uint32_t>(report.rows.size());
        ImbalanceRow row;
        row.state = s.state;
        row.time_ns.assign(units, 0);
        report.rows.push_back(std::move(row));
        present.emplace_back(units, false);
      }
      report.rows[row_of[s.state]].time_ns[u] = s.total_ns;
      present[row_of[s.state]][u] = s.count > 0;
    }
  }

  for (size_t i = 0; i < report.rows.size(); ++i)
    SummarizeUnits(report.rows[i], present[i]);
  std::sort(report.rows.begin(), report.rows.end(),
            [](const ImbalanceRow& a, const ImbalanceRow& b) {
              if (a.lost_ns != b.lost_ns) return a.lost_ns > b.lost_ns;
              return a.state < b.state;
            });
  return report;
}

void SummarizeUnits(ImbalanceRow& row, const std::vector<bool>& present) {
  double sum = 0;
  bool first = true;
  row.units = 0;
  for (uint32_t u = 0; u < row.time_ns.size(); ++u) {
    if (!present.empty() && (u >= present.size() || !present[u])) continue;
    const int64_t t = row.time_ns[u];
    ++row.units;
    sum += static_cast<double>(t);
    if (first || t > row.max_ns) {
      row.max_ns = t;
      row.max_unit = u;
    }
    if (first || t < row.min_ns) {
      row.min_ns = t;
      row.min_unit = u;
    }
    first = false;
  }
  row.mean_ns = row.units > 0 ? sum / row.units : 0.0;
  const double max = static_cast<double>(row.max_ns);
  row.lost_ns = max - row.mean_ns;
  row.imbalance = max > 0 ? row.lost_ns / max : 0.0;
  row.percent = row.mean_ns > 0 ? (max / row.mean_ns - 1.0) * 100.0 : 0.0;
}

}  // namespace plx::analysis
