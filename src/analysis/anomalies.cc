// FindAnomalies: three passes over the slice table and one buffer of
// durations. Pass 1 counts slices per (state, call site) key and decides each
// key's group; pass 2 scatters the durations into one contiguous bucket per
// group (counting sort, no per-slice allocation); medians and MADs come from
// nth_element on the buckets; pass 3 judges every slice against its group.
// The group rules and the judging are shared with the streaming engine
// (store/stream_anomalies.cc), which finds the same order statistics from
// histograms.
#include "analysis/anomalies.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "analysis/state_stats.h"

namespace plx::analysis {

namespace {

constexpr double kMadToSigma = 1.4826;

// The median of values[0 .. n), reordering them; n > 0.
double Median(int64_t* values, size_t n) {
  int64_t* mid = values + n / 2;
  std::nth_element(values, mid, values + n);
  if (n % 2 == 1) return static_cast<double>(*mid);
  const int64_t below = *std::max_element(values, mid);
  return (static_cast<double>(below) + static_cast<double>(*mid)) / 2.0;
}

}  // namespace

const char* AnomalyMethodName(AnomalyMethod method) {
  return method == AnomalyMethod::kPercentile ? "percentile" : "robust";
}

bool Considered(const model::Trace& trace, const AnomalyOptions& o, const model::SliceTable& s,
                size_t row) {
  const uint32_t state = s.state[row];
  return state < trace.states.size() && (o.state == model::kNone || state == o.state) &&
         !(s.flags[row] & model::SliceTable::kUnclosed);
}

AnomalyGroups GroupAnomalyKeys(const StateCallsiteKeys& keys, const std::vector<uint64_t>& counts,
                               size_t states, const AnomalyOptions& o) {
  // A key with enough slices is its own group; the rest of a state pool.
  AnomalyGroups out;
  out.key_group.resize(keys.size());
  std::vector<uint32_t> pooled(states, model::kNone);
  for (uint32_t key = 0; key < keys.size(); ++key) {
    const uint32_t state = keys.state(key);
    const uint64_t count = key < counts.size() ? counts[key] : 0;
    const bool own = keys.callsite(key) != model::kNone && count >= o.min_samples;
    uint32_t* slot = own ? nullptr : &pooled[state];
    if (own || *slot == model::kNone) {
      AnomalyGroup g;
      g.state = state;
      g.by_callsite = own;
      g.limit = std::numeric_limits<double>::infinity();
      out.groups.push_back(g);
      if (slot) *slot = static_cast<uint32_t>(out.groups.size() - 1);
    }
    out.key_group[key] = own ? static_cast<uint32_t>(out.groups.size() - 1) : *slot;
    out.groups[out.key_group[key]].size += count;
  }
  return out;
}

bool Judged(const AnomalyGroup& g, const AnomalyOptions& o) {
  return g.size >= std::max<size_t>(o.min_samples, 1);
}

void JudgeGroup(const AnomalyOptions& o, double cutoff, AnomalyGroup* g) {
  g->sigma = std::max({kMadToSigma * g->mad, 0.01 * g->median, 1.0});
  if (o.method == AnomalyMethod::kPercentile) {
    g->limit = cutoff;
  } else {
    // Flag d when (d - m) / sigma >= threshold, d >= ratio * m and
    // d - m >= min_excess: d must reach the largest of the three bounds.
    g->limit = std::max({g->median + o.threshold * g->sigma, o.min_ratio * g->median,
                         g->median + static_cast<double>(o.min_excess_ns)});
  }
}

bool Anomalous(const AnomalyOptions& o, const AnomalyGroup& g, int64_t duration) {
  const double x = static_cast<double>(duration);
  return o.method == AnomalyMethod::kPercentile ? x > g.limit : x >= g.limit;
}

Anomaly MakeAnomaly(const model::Trace& trace, const AnomalyOptions& o, const AnomalyGroup& g,
                    uint32_t slice, uint32_t thread, uint32_t callsite, int64_t begin_ns,
                    int64_t d) {
  Anomaly a;
  a.slice = slice;
  a.state = g.state;
  a.thread = thread;
  a.process = a.thread < trace.threads.size() ? trace.threads[a.thread].process : model::kNone;
  a.callsite = callsite < trace.callsites.size() ? callsite : model::kNone;
  a.by_callsite = g.by_callsite;
  a.begin_ns = begin_ns;
  a.duration_ns = d;
  a.median_ns = g.median;
  a.mad_ns = g.mad;
  a.limit_ns = g.limit;
  a.group_size = g.size;
  a.score = (static_cast<double>(d) - g.median) / g.sigma;
  a.method = o.method;
  return a;
}

void SortAnomalies(std::vector<Anomaly>* anomalies) {
  std::sort(anomalies->begin(), anomalies->end(), [](const Anomaly& a, const Anomaly& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.slice < b.slice;
  });
}

std::vector<Anomaly> FindAnomalies(const model::Trace& trace, const AnomalyOptions& o) {
  const model::SliceTable& s = trace.slices;
  const bool percentile = o.method == AnomalyMethod::kPercentile;
  // The percentile method cuts per state only: ignore call sites entirely.
  const size_t n_callsites = percentile ? 0 : trace.callsites.size();
  StateCallsiteKeys keys(trace.states.size(), n_callsites);
  auto key_of = [&](size_t row) { return keys.Id(s.state[row], percentile ? 0 : s.callsite[row]); };

  std::vector<uint64_t> key_count;
  for (size_t row = 0; row < s.size(); ++row) {
    if (!Considered(trace, o, s, row)) continue;
    const uint32_t key = key_of(row);
    if (key >= key_count.size()) key_count.resize(key + 1, 0);
    ++key_count[key];
  }
  AnomalyGroups grouped = GroupAnomalyKeys(keys, key_count, trace.states.size(), o);
  std::vector<AnomalyGroup>& groups = grouped.groups;
  std::vector<uint64_t> first(groups.size());
  uint64_t total = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    first[g] = total;
    total += groups[g].size;
  }

  std::vector<int64_t> buffer(total);
  std::vector<uint64_t> fill = first;
  for (size_t row = 0; row < s.size(); ++row) {
    if (!Considered(trace, o, s, row)) continue;
    buffer[fill[grouped.key_group[key_of(row)]]++] = s.end[row] - s.begin[row];
  }

  for (size_t gi = 0; gi < groups.size(); ++gi) {
    AnomalyGroup& g = groups[gi];
    if (!Judged(g, o)) continue;  // limit stays infinite
    int64_t* values = buffer.data() + first[gi];
    const size_t n = static_cast<size_t>(g.size);
    double cutoff = 0;
    if (percentile) {
      // Nearest rank: the smallest duration with at least p% of them <= it.
      const size_t rank = PercentileRank(o.percentile, n);
      std::nth_element(values, values + rank - 1, values + n);
      cutoff = static_cast<double>(values[rank - 1]);
    }
    g.median = Median(values, n);
    // Deviations doubled, so that they stay integers when the median is a
    // half; the durations are not needed any more.
    const int64_t twice_median = std::llround(2.0 * g.median);
    for (size_t i = 0; i < n; ++i)
      values[i] = std::abs(2 * values[i] - twice_median);
    g.mad = Median(values, n) / 2.0;
    JudgeGroup(o, cutoff, &g);
  }

  std::vector<Anomaly> out;
  for (size_t row = 0; row < s.size(); ++row) {
    if (!Considered(trace, o, s, row)) continue;
    const int64_t d = s.end[row] - s.begin[row];
    const AnomalyGroup& g = groups[grouped.key_group[key_of(row)]];
    if (!Anomalous(o, g, d)) continue;
    out.push_back(MakeAnomaly(trace, o, g, static_cast<uint32_t>(row), s.thread[row],
                              s.callsite[row], s.begin[row], d));
  }
  SortAnomalies(&out);
  return out;
}

size_t PercentileRank(double percentile, size_t n) {
  const double p = std::clamp(percentile, 0.0, 100.0);
  const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(n)));
  return std::clamp<size_t>(rank, 1, n);
}

}  // namespace plx::analysis
