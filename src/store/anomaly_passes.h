// The passes of the anomaly search over a trace store (stream_anomalies.h),
// shared by its two halves: stream_anomalies.cc (plan, judge, collect) and
// anomaly_spread.cc (what processes of an MPI-parallel run exchange). Not
// for use elsewhere.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/state_stats.h"
#include "base/status.h"
#include "store/log_histogram.h"
#include "store/stream_anomalies.h"
#include "store/thread_pass.h"
#include "store/trace_store.h"

namespace plx::store::anomaly_passes {

using analysis::AnomalyGroup;
using analysis::AnomalyMethod;
using analysis::AnomalyOptions;
using analysis::StateCallsiteKeys;

inline size_t CallsitesFor(const model::Trace& t, const AnomalyOptions& o) {
  return o.method == AnomalyMethod::kPercentile ? 0 : t.callsites.size();
}

// Pass one, per worker: keys, counts and histograms.
class CountVisitor : public ChunkVisitor {
 public:
  CountVisitor(const model::Trace& t, const AnomalyOptions& o)
      : t_(t), o_(o), keys(t.states.size(), CallsitesFor(t, o)) {}
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    const model::SliceTable& s = rows.tables->slices;
    const bool percentile = o_.method == AnomalyMethod::kPercentile;
    for (size_t r = rows.carried; r < s.size(); ++r) {
      if (!analysis::Considered(t_, o_, s, r)) continue;
      const uint32_t key = keys.Id(s.state[r], percentile ? 0 : s.callsite[r]);
      if (key >= counts.size()) {
        counts.resize(key + 1, 0);
        histograms.resize(key + 1);
      }
      ++counts[key];
      if (!histograms[key]) histograms[key] = std::make_unique<LogHistogram>();
      histograms[key]->Add(static_cast<uint64_t>(s.end[r] - s.begin[r]));
    }
  }
  bool SlicesOnly() const override { return true; }
  const model::Trace& t_;
  const AnomalyOptions& o_;
  StateCallsiteKeys keys;
  std::vector<uint64_t> counts;
  std::vector<std::unique_ptr<LogHistogram>> histograms;
};

// A range of durations whose values pass two records: counted per value
// when the range is narrow enough, else listed.
struct Range {
  uint64_t lo = 0, hi = 0;  // inclusive
  bool dense = false;
};
constexpr uint64_t kDenseWidth = uint64_t{1} << 22;
constexpr uint64_t kMaxAmbiguous = 1 << 20;

// What pass two collects for a judged group, and how its ranks fall.
struct Plan {
  bool judged = false;
  std::vector<bool> collect;   // per bucket
  std::vector<Range> ranges;   // the collected buckets, as runs of values
  double candidates_from = 0;  // durations at or above may pass the limit
  // Percentile method, when the cut-off's bucket holds too many slices to
  // keep them all as candidates: those above the bucket are; the bucket's
  // are found by a third pass once the cut-off is known.
  bool deferred = false;
  uint64_t deferred_hi = 0;
  uint64_t median_rank[2] = {0, 0};
  int medians = 1;                     // ranks asked: 1 (odd size) or 2
  uint64_t percentile_rank = 0;        // 0-based
  uint64_t deviations_below = 0;       // values whose deviation is surely below the MAD's
  std::vector<bool> deviation_bucket;  // per bucket: its values' deviations are needed
};

// What pass two recorded of one range.
struct Collected {
  std::vector<uint32_t> counts;  // dense: per value from the range's lo
  std::vector<int64_t> values;   // else: every value
};

struct Candidate {
  uint32_t slice, thread, callsite, group;
  int64_t begin, duration;
};

// What passes two and three share: the chunk's own slices the search
// considers, each with its group and its duration.
class GroupedSlices : public ChunkVisitor {
 protected:
  GroupedSlices(const model::Trace& t, const AnomalyOptions& o, const StateCallsiteKeys& keys,
                const std::vector<uint32_t>& key_group)
      : o_(o), t_(t), keys_(keys), key_group_(key_group) {}
  bool SlicesOnly() const override { return true; }
  // Calls fn(row in the chunk's table, group, duration) for each.
  template <typename Fn>
  void ForEach(const ChunkRows& rows, Fn&& fn) {
    const model::SliceTable& s = rows.tables->slices;
    const bool percentile = o_.method == AnomalyMethod::kPercentile;
    for (size_t r = rows.carried; r < s.size(); ++r)
      if (analysis::Considered(t_, o_, s, r))
        fn(r, key_group_[keys_.Id(s.state[r], percentile ? 0 : s.callsite[r])],
           s.end[r] - s.begin[r]);
  }
  const AnomalyOptions& o_;

 private:
  const model::Trace& t_;
  StateCallsiteKeys keys_;  // a copy: Id() of a known pair changes nothing
  const std::vector<uint32_t>& key_group_;
};

// Pass two, per worker: the planned values and the candidates.
class CollectVisitor : public GroupedSlices {
 public:
  CollectVisitor(const model::Trace& t, const AnomalyOptions& o, const StateCallsiteKeys& keys,
                 const std::vector<uint32_t>& key_group, const std::vector<Plan>& plans)
      : GroupedSlices(t, o, keys, key_group), plans_(plans), values(plans.size()) {
    for (size_t g = 0; g < plans.size(); ++g) {
      values[g].resize(plans[g].ranges.size());
      for (size_t i = 0; i < plans[g].ranges.size(); ++i) {
        const Range& r = plans[g].ranges[i];
        if (r.dense) values[g][i].counts.assign(r.hi - r.lo + 1, 0);
      }
    }
  }
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    const model::SliceTable& s = rows.tables->slices;
    ForEach(rows, [&](size_t r, uint32_t g, int64_t d) {
      const Plan& plan = plans_[g];
      if (!plan.judged) return;
      const auto v = static_cast<uint64_t>(d);
      if (plan.collect[LogHistogram::Index(v)]) {
        const auto it =
            std::upper_bound(plan.ranges.begin(), plan.ranges.end(), v,
                             [](uint64_t x, const Range& range) { return x < range.lo; });
        const size_t i = static_cast<size_t>(it - plan.ranges.begin()) - 1;
        Collected& c = values[g][i];
        if (plan.ranges[i].dense)
          ++c.counts[v - plan.ranges[i].lo];
        else
          c.values.push_back(d);
      }
      if (static_cast<double>(d) >= plan.candidates_from)
        candidates.push_back({static_cast<uint32_t>(rows.slice_row(r)), rows.thread, s.callsite[r],
                              g, s.begin[r], d});
    });
  }
  const std::vector<Plan>& plans_;
  std::vector<std::vector<Collected>> values;  // per group, per range
  std::vector<Candidate> candidates;
};

// Pass three (rare): the slices of deferred groups above their cut-off
// within its bucket.
class DeferredVisitor : public GroupedSlices {
 public:
  DeferredVisitor(const model::Trace& t, const AnomalyOptions& o, const StateCallsiteKeys& keys,
                  const std::vector<uint32_t>& key_group, const std::vector<Plan>& plans,
                  const std::vector<AnomalyGroup>& groups)
      : GroupedSlices(t, o, keys, key_group), plans_(plans), groups_(groups) {}
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    const model::SliceTable& s = rows.tables->slices;
    ForEach(rows, [&](size_t r, uint32_t g, int64_t d) {
      if (plans_[g].deferred && static_cast<uint64_t>(d) <= plans_[g].deferred_hi &&
          analysis::Anomalous(o_, groups_[g], d))
        candidates.push_back({static_cast<uint32_t>(rows.slice_row(r)), rows.thread, s.callsite[r],
                              g, s.begin[r], d});
    });
  }
  const std::vector<Plan>& plans_;
  const std::vector<AnomalyGroup>& groups_;
  std::vector<Candidate> candidates;
};

}  // namespace plx::store::anomaly_passes

namespace plx::store {

struct AnomalyFinder::State {
  State(const TraceStore& st, const analysis::AnomalyOptions& op, const AnomalySpread* sp)
      : store(st),
        o(op),
        spread(sp),
        t(st.trace()),
        keys(t.states.size(), anomaly_passes::CallsitesFor(t, o)) {}
  const TraceStore& store;
  analysis::AnomalyOptions o;
  const AnomalySpread* spread;  // null: one process
  Status spread_status;
  const model::Trace& t;
  std::vector<anomaly_passes::CountVisitor> counters;
  // Planned after the counting pass, for the collecting pass.
  bool planned = false;
  analysis::StateCallsiteKeys keys;  // every worker's keys in one table
  analysis::AnomalyGroups grouped;
  std::vector<LogHistogram> group_histograms;
  std::vector<anomaly_passes::Plan> plans;
  std::vector<anomaly_passes::CollectVisitor> collectors;
};

}  // namespace plx::store
