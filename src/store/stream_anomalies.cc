// StreamAnomalies: pass one (keys, counts, histograms), the plan of what to
// collect per group, pass two (values and candidates), then the exact order
// statistics and the judging shared with FindAnomalies.
#include "store/stream_anomalies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "analysis/state_stats.h"
#include "store/anomaly_passes.h"
#include "store/log_histogram.h"
#include "store/thread_pass.h"

namespace plx::store {

namespace {

using namespace anomaly_passes;  // NOLINT: this file's half of them

// The k-th smallest of values weighted by counts (pairs sorted by value).
int64_t WeightedRank(std::vector<std::pair<int64_t, uint64_t>>* v, uint64_t k) {
  std::sort(v->begin(), v->end());
  uint64_t seen = 0;
  for (const auto& [value, count] : *v) {
    seen += count;
    if (k < seen) return value;
  }
  return v->empty() ? 0 : v->back().first;
}

Plan MakePlan(const LogHistogram& h, const AnomalyGroup& g, const AnomalyOptions& o) {
  Plan p;
  p.judged = true;
  p.collect.assign(LogHistogram::kBuckets, false);
  p.deviation_bucket.assign(LogHistogram::kBuckets, false);
  const uint64_t n = g.size;
  p.medians = n % 2 == 1 ? 1 : 2;
  p.median_rank[0] = n % 2 == 1 ? n / 2 : n / 2 - 1;
  p.median_rank[1] = n / 2;
  // Where the median lies, and so twice it (llround(2 * median)), m2 below.
  int64_t m2_lo = 0, m2_hi = 0;
  for (int i = 0; i < 2; ++i) {
    const uint32_t b = h.Find(p.median_rank[i]).first;
    p.collect[b] = true;
    const auto [lo, hi] = LogHistogram::Bounds(b);
    m2_lo += static_cast<int64_t>(lo);
    m2_hi += static_cast<int64_t>(hi);
  }
  m2_lo -= 2;  // room for rounding of huge values in double
  m2_hi += 2;
  if (o.method == AnomalyMethod::kPercentile) {
    p.percentile_rank = analysis::PercentileRank(o.percentile, n) - 1;
    const uint32_t b = h.Find(p.percentile_rank).first;
    p.collect[b] = true;
    // Flagged: above the cut-off, which lies in this bucket (is its value
    // when the bucket holds one value).
    const auto [lo, hi] = LogHistogram::Bounds(b);
    p.candidates_from = static_cast<double>(lo == hi ? lo + 1 : lo);
    if (lo != hi && h.count(b) > kMaxAmbiguous) {
      p.deferred = true;
      p.deferred_hi = hi;
      p.candidates_from = static_cast<double>(hi + 1);
    }
  } else {
    // The limit is at least each of its bounds with the median at its lowest.
    const double m = static_cast<double>(m2_lo) / 2.0;
    if (o.threshold < 0 || o.min_ratio < 0 || o.min_excess_ns < 0) {
      p.candidates_from = -std::numeric_limits<double>::infinity();
    } else {
      p.candidates_from = std::max({m + o.threshold * std::max(0.01 * m, 1.0), o.min_ratio * m,
                                    m + static_cast<double>(o.min_excess_ns)});
      p.candidates_from = std::floor(p.candidates_from) - 1;
    }
  }
  // The MAD: the deviations |2d - m2| of the median's ranks, bracketed by
  // each bucket's smallest and largest possible deviation.
  std::vector<std::pair<int64_t, uint64_t>> lows, highs;
  std::vector<std::pair<uint32_t, std::pair<int64_t, int64_t>>> ranges;
  h.ForEach([&](uint32_t b, uint64_t count) {
    const auto [lo, hi] = LogHistogram::Bounds(b);
    const int64_t a2 = 2 * static_cast<int64_t>(lo), b2 = 2 * static_cast<int64_t>(hi);
    const int64_t low = std::max<int64_t>({0, a2 - m2_hi, m2_lo - b2});
    const int64_t high = std::max(b2 - m2_lo, m2_hi - a2);
    lows.push_back({low, count});
    highs.push_back({high, count});
    ranges.push_back({b, {low, high}});
  });
  const int64_t from = WeightedRank(&lows, p.median_rank[0]);
  const int64_t to = WeightedRank(&highs, p.median_rank[1]);
  for (const auto& [b, range] : ranges) {
    if (range.second < from) {
      p.deviations_below += h.count(b);
    } else if (range.first <= to) {
      p.collect[b] = true;
      p.deviation_bucket[b] = true;
    }
  }
  // Runs of collected buckets, each a run of values.
  for (uint32_t b = 0; b < LogHistogram::kBuckets; ++b) {
    if (!p.collect[b]) continue;
    const auto [lo, hi] = LogHistogram::Bounds(b);
    if (!p.ranges.empty() && p.ranges.back().hi + 1 == lo)
      p.ranges.back().hi = hi;
    else
      p.ranges.push_back({lo, hi, false});
  }
  for (Range& r : p.ranges)
    r.dense = r.hi - r.lo < kDenseWidth;
  return p;
}

// The group's collected values as (value, count), ascending.
using Multiset = std::vector<std::pair<int64_t, uint64_t>>;

// The value of 0-based rank `rank` of a group, from the collected values of
// its bucket (those below it counted by the histogram).
int64_t ValueAt(const LogHistogram& h, const Multiset& values, uint64_t rank) {
  const auto [bucket, below] = h.Find(rank);
  const auto [lo, hi] = LogHistogram::Bounds(bucket);
  uint64_t seen = below;
  for (const auto& [v, count] : values) {
    if (static_cast<uint64_t>(v) < lo || static_cast<uint64_t>(v) > hi) continue;
    seen += count;
    if (rank < seen) return v;
  }
  return static_cast<int64_t>(hi);  // cannot happen: the bucket holds the rank
}

// The k-th smallest of a weighted multiset of deviations, counting `below`
// smaller ones not in it.
int64_t DeviationAt(const Multiset& sorted, uint64_t below, uint64_t k) {
  uint64_t seen = below;
  for (const auto& [dev, count] : sorted) {
    seen += count;
    if (k < seen) return dev;
  }
  return sorted.empty() ? 0 : sorted.back().first;
}

}  // namespace

AnomalyFinder::AnomalyFinder(const TraceStore& store, const AnomalyOptions& options,
                             const AnomalySpread* spread)
    : s_(std::make_unique<State>(store, options, spread)) {
  for (size_t w = 0; w < store.pool()->size(); ++w)
    s_->counters.emplace_back(s_->t, s_->o);
}

AnomalyFinder::~AnomalyFinder() = default;

ChunkVisitor* AnomalyFinder::Counter(size_t worker) {
  return &s_->counters[worker];
}

void AnomalyFinder::PlanCollection() {
  const AnomalyOptions& o = s_->o;
  const model::Trace& t = s_->t;
  std::vector<CountVisitor>& counted = s_->counters;
  StateCallsiteKeys& keys = s_->keys;
  // Every worker's keys into one table; counts and histograms by key.
  std::vector<uint64_t> counts;
  std::vector<LogHistogram> histograms;
  for (CountVisitor& v : counted)
    for (uint32_t id = 0; id < v.counts.size(); ++id) {
      const uint32_t key = keys.Id(v.keys.state(id), v.keys.callsite(id));
      if (key >= counts.size()) {
        counts.resize(key + 1, 0);
        histograms.resize(key + 1);
      }
      counts[key] += v.counts[id];
      if (v.histograms[id]) histograms[key].Merge(*v.histograms[id]);
    }
  counted.clear();
  if (s_->spread != nullptr) ShareCounts(&counts, &histograms);
  s_->grouped = analysis::GroupAnomalyKeys(keys, counts, t.states.size(), o);
  const std::vector<AnomalyGroup>& groups = s_->grouped.groups;
  s_->group_histograms = std::vector<LogHistogram>(groups.size());
  for (uint32_t key = 0; key < histograms.size(); ++key)
    s_->group_histograms[s_->grouped.key_group[key]].Merge(histograms[key]);
  histograms.clear();
  s_->plans.assign(groups.size(), Plan());
  for (size_t g = 0; g < groups.size(); ++g)
    if (analysis::Judged(groups[g], o))
      s_->plans[g] = MakePlan(s_->group_histograms[g], groups[g], o);
  for (size_t w = 0; w < s_->store.pool()->size(); ++w)
    s_->collectors.emplace_back(t, o, keys, s_->grouped.key_group, s_->plans);
  s_->planned = true;
}

ChunkVisitor* AnomalyFinder::Collector(size_t worker) {
  return &s_->collectors[worker];
}

std::vector<analysis::Anomaly> AnomalyFinder::Finish(
    const std::vector<time::ThreadTimeMap>* maps,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  const TraceStore& store = s_->store;
  const AnomalyOptions& o = s_->o;
  const model::Trace& t = s_->t;
  if (!s_->planned) {
    PlanCollection();
    std::vector<ChunkVisitor*> collectors;
    for (CollectVisitor& v : s_->collectors)
      collectors.push_back(&v);
    ThreadPassOptions pass = WithProgress(progress, maps);
    if (s_->spread != nullptr) pass.only = s_->spread->only;
    RunThreadPass(store, collectors, pass);
  }
  if (s_->spread != nullptr) ShareCollected();
  const StateCallsiteKeys& keys = s_->keys;
  const analysis::AnomalyGroups& grouped = s_->grouped;
  std::vector<AnomalyGroup>& groups = s_->grouped.groups;
  const std::vector<LogHistogram>& group_histograms = s_->group_histograms;
  const std::vector<Plan>& plans = s_->plans;
  std::vector<CollectVisitor>& collected = s_->collectors;

  for (size_t g = 0; g < groups.size(); ++g) {
    if (!plans[g].judged) continue;
    const Plan& p = plans[g];
    // Every worker's records of the group, as (value, count) ascending.
    Multiset values;
    for (size_t i = 0; i < p.ranges.size(); ++i) {
      const Range& r = p.ranges[i];
      if (r.dense) {
        std::vector<uint64_t> sums(r.hi - r.lo + 1, 0);
        for (CollectVisitor& v : collected)
          for (size_t k = 0; k < sums.size(); ++k)
            sums[k] += v.values[g][i].counts[k];
        for (size_t k = 0; k < sums.size(); ++k)
          if (sums[k] > 0) values.push_back({static_cast<int64_t>(r.lo + k), sums[k]});
      } else {
        std::vector<int64_t> all;
        for (CollectVisitor& v : collected)
          all.insert(all.end(), v.values[g][i].values.begin(), v.values[g][i].values.end());
        std::sort(all.begin(), all.end());
        for (int64_t x : all)
          if (!values.empty() && values.back().first == x)
            ++values.back().second;
          else
            values.push_back({x, 1});
      }
    }
    const LogHistogram& h = group_histograms[g];
    AnomalyGroup& group = groups[g];
    double cutoff = 0;
    if (o.method == AnomalyMethod::kPercentile)
      cutoff = static_cast<double>(ValueAt(h, values, p.percentile_rank));
    // As Median(): the value at n/2, and for even n the largest below it.
    const int64_t upper = ValueAt(h, values, p.median_rank[1]);
    group.median = p.medians == 1 ? static_cast<double>(upper)
                                  : (static_cast<double>(ValueAt(h, values, p.median_rank[0])) +
                                     static_cast<double>(upper)) /
                                        2.0;
    const int64_t twice_median = std::llround(2.0 * group.median);
    Multiset deviations;
    for (const auto& [v, count] : values)
      if (p.deviation_bucket[LogHistogram::Index(static_cast<uint64_t>(v))])
        deviations.push_back({std::abs(2 * v - twice_median), count});
    std::sort(deviations.begin(), deviations.end());
    const int64_t dev_upper = DeviationAt(deviations, p.deviations_below, p.median_rank[1]);
    const double mad_twice =
        p.medians == 1
            ? static_cast<double>(dev_upper)
            : (static_cast<double>(DeviationAt(deviations, p.deviations_below, p.median_rank[0])) +
               static_cast<double>(dev_upper)) /
                  2.0;
    group.mad = mad_twice / 2.0;
    analysis::JudgeGroup(o, cutoff, &group);
  }

  std::vector<analysis::Anomaly> out;
  bool deferred = false;
  for (const Plan& p : plans)
    deferred |= p.deferred;
  if (deferred) {
    ThreadPassOptions pass = WithProgress({}, maps);
    if (s_->spread != nullptr) pass.only = s_->spread->only;
    std::vector<DeferredVisitor> third = RunThreadPass<DeferredVisitor>(
        store, [&] { return DeferredVisitor(t, o, keys, grouped.key_group, plans, groups); }, pass);
    for (DeferredVisitor& v : third)
      for (const Candidate& c : v.candidates)
        out.push_back(analysis::MakeAnomaly(t, o, groups[c.group], c.slice, c.thread, c.callsite,
                                            c.begin, c.duration));
  }
  for (CollectVisitor& v : collected)
    for (const Candidate& c : v.candidates) {
      const AnomalyGroup& g = groups[c.group];
      if (analysis::Anomalous(o, g, c.duration))
        out.push_back(
            analysis::MakeAnomaly(t, o, g, c.slice, c.thread, c.callsite, c.begin, c.duration));
    }
  analysis::SortAnomalies(&out);
  if (progress) progress(store.file().total_records(), store.file().total_records());
  return out;
}

std::vector<analysis::Anomaly> StreamAnomalies(
    const TraceStore& store, const AnomalyOptions& o,
    const std::function<void(uint64_t, uint64_t)>& progress,
    const std::vector<time::ThreadTimeMap>* maps) {
  AnomalyFinder finder(store, o);
  std::vector<ChunkVisitor*> counters;
  for (size_t w = 0; w < store.pool()->size(); ++w)
    counters.push_back(finder.Counter(w));
  const std::function<void(uint64_t, uint64_t)> half = [&](uint64_t done, uint64_t total) {
    if (progress) progress(done / 2, total);
  };
  RunThreadPass(store, counters, WithProgress(half, maps));
  const std::function<void(uint64_t, uint64_t)> second = [&](uint64_t done, uint64_t total) {
    if (progress) progress(total / 2 + done / 2, total);
  };
  return finder.Finish(maps, second);
}

}  // namespace plx::store
