// Anomalous durations: slices far longer than is typical for their state (and
// call site), found with robust statistics so that the outliers themselves do
// not hide the signal. For `parallax anomalies` and the viewer's outlier list.
//
// Method "robust" (the default). Closed slices are grouped by (state, call
// site); the call sites of a state with fewer than min_samples slices are
// pooled into one group of that state. Per group: median m and MAD (median
// absolute deviation) scaled by 1.4826, so that it estimates the standard
// deviation of normal data; sigma = max(1.4826 * MAD, 1% of m, 1 ns) keeps
// groups of identical durations usable. A slice of duration d is flagged when
// all of
//   score = (d - m) / sigma >= threshold         (default 6)
//   d >= min_ratio * m                           (default 4)
//   d - m >= min_excess_ns                       (default 1 ms)
// and its group has at least min_samples slices (default 20). The ratio and
// the absolute excess keep scheduling noise quiet: on a loaded machine a
// preempted iteration often takes two or three times its median, which a z
// score alone (MADs are tiny for steady loops) would call extreme.
//
// Method "percentile" (opt-in, Jumpshot's cut-off): per state, flag the slices
// longer than the p-th percentile (nearest rank) of that state's durations,
// for states with at least min_samples slices. It always flags something in
// a state with varied durations, so it is a way to browse the tail, not a
// detector. Its score is the same robust z score, for ordering.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/state_stats.h"
#include "model/trace.h"

namespace plx::analysis {

enum class AnomalyMethod : uint8_t { kRobust, kPercentile };

/// "robust" or "percentile".
const char* AnomalyMethodName(AnomalyMethod method);

struct AnomalyOptions {
  AnomalyMethod method = AnomalyMethod::kRobust;
  double threshold = 6.0;             // robust: minimum score
  double min_ratio = 4.0;             // robust: minimum duration / median
  int64_t min_excess_ns = 1'000'000;  // robust: minimum duration - median
  size_t min_samples = 20;            // smaller groups are never judged
  double percentile = 99.0;           // percentile method: p in (0, 100)
  uint32_t state = model::kNone;      // only this state (kNone = all)
};

struct Anomaly {
  uint32_t slice = 0;                // row in Trace::slices
  uint32_t state = 0;                // index into Trace::states
  uint32_t thread = 0;               // index into Trace::threads
  uint32_t process = 0;              // index into Trace::processes
  uint32_t callsite = model::kNone;  // the slice's call site (kNone = unknown)
  bool by_callsite = false;  // judged in its (state, call site) group, else the pooled state group
  int64_t begin_ns = 0;
  int64_t duration_ns = 0;
  double median_ns = 0;     // of the group
  double mad_ns = 0;        // of the group, unscaled
  double limit_ns = 0;      // the group's cut: robust flags d >= limit, percentile d > limit
  uint64_t group_size = 0;  // slices in the group
  double score = 0;         // (duration - median) / sigma
  AnomalyMethod method = AnomalyMethod::kRobust;
};

/// The anomalous slices, sorted by score descending (then slice row).
/// Unclosed slices are ignored: their duration is cut by the end of the trace.
std::vector<Anomaly> FindAnomalies(const model::Trace& trace, const AnomalyOptions& options = {});

/// The parts of FindAnomalies, for the engine that streams a trace (which
/// finds each group's order statistics without holding its durations).
///
/// The groups of a trace's slices, from the counts of its (state, call site)
/// keys. Keys are StateCallsiteKeys ids (with callsites ignored by the
/// percentile method: build the keys with 0 call sites then).
struct AnomalyGroup {
  uint32_t state = 0;
  bool by_callsite = false;
  uint64_t size = 0;
  double median = 0;
  double mad = 0;
  double sigma = 1;
  double limit = 0;  // see Anomaly::limit_ns; infinite: the group is never judged
};
struct AnomalyGroups {
  std::vector<AnomalyGroup> groups;
  std::vector<uint32_t> key_group;  // per key
};
AnomalyGroups GroupAnomalyKeys(const StateCallsiteKeys& keys, const std::vector<uint64_t>& counts,
                               size_t states, const AnomalyOptions& options);
/// Whether the group's slices are judged (it has enough of them).
bool Judged(const AnomalyGroup& g, const AnomalyOptions& options);
/// Whether slice `row` of `s` takes part (closed, of a known state, of the
/// state asked for).
bool Considered(const model::Trace& trace, const AnomalyOptions& options,
                const model::SliceTable& s, size_t row);
/// Sets sigma and limit from the median, the MAD and (percentile method) the
/// cut-off duration.
void JudgeGroup(const AnomalyOptions& options, double cutoff, AnomalyGroup* g);
/// Whether a duration passes the group's limit.
bool Anomalous(const AnomalyOptions& options, const AnomalyGroup& g, int64_t duration);
/// The anomaly record of one flagged slice.
Anomaly MakeAnomaly(const model::Trace& trace, const AnomalyOptions& options, const AnomalyGroup& g,
                    uint32_t slice, uint32_t thread, uint32_t callsite, int64_t begin_ns,
                    int64_t duration_ns);
/// Sorts anomalies as FindAnomalies returns them.
void SortAnomalies(std::vector<Anomaly>* anomalies);
/// The 1-based rank of the percentile method's cut-off among n durations
/// (nearest rank: the smallest with at least p% of them at or below it).
size_t PercentileRank(double percentile, size_t n);

}  // namespace plx::analysis
