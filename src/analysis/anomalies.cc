// FindAnomalies: three passes over the slice table and one buffer of
// durations. Pass 1 counts slices per (state, call site) key and decides each
// key's group; pass 2 scatters the durations into one contiguous bucket per
// group (counting sort, no per-slice allocation); medians and MADs come from
// nth_element on the buckets; pass 3 judges every slice against its group.
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

struct Group {
  uint32_t state = 0;
  bool by_callsite = false;
  uint64_t first = 0;  // its durations: buffer[first .. first + size)
  uint64_t size = 0;
  double median = 0;
  double mad = 0;
  double sigma = 1;
  double limit = std::numeric_limits<double>::infinity();  // see Anomaly::limit_ns
};

// The median of values[0 .. n), reordering them; n > 0.
double Median(int64_t* values, size_t n) {
  int64_t* mid = values + n / 2;
  std::nth_element(values, mid, values + n);
  if (n % 2 == 1) return static_cast<double>(*mid);
  const int64_t below = *std::max_element(values, mid);
  return (static_cast<double>(below) + static_cast<double>(*mid)) / 2.0;
}

bool Considered(const model::Trace& trace, const AnomalyOptions& o, size_t row) {
  const model::SliceTable& s = trace.slices;
  const uint32_t state = s.state[row];
  return state < trace.states.size() && (o.state == model::kNone || state == o.state) &&
         !(s.flags[row] & model::SliceTable::kUnclosed);
}

}  // namespace

const char* AnomalyMethodName(AnomalyMethod method) {
  return method == AnomalyMethod::kPercentile ? "percentile" : "robust";
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
    if (!Considered(trace, o, row)) continue;
    const uint32_t key = key_of(row);
    if (key >= key_count.size()) key_count.resize(key + 1, 0);
    ++key_count[key];
  }

  // A key with enough slices is its own group; the rest of a state pool.
  std::vector<Group> groups;
  std::vector<uint32_t> key_group(keys.size());
  std::vector<uint32_t> pooled(trace.states.size(), model::kNone);
  for (uint32_t key = 0; key < keys.size(); ++key) {
    const uint32_t state = keys.state(key);
    const bool own = keys.callsite(key) != model::kNone && key_count[key] >= o.min_samples;
    uint32_t* slot = own ? nullptr : &pooled[state];
    if (own || *slot == model::kNone) {
      Group g;
      g.state = state;
      g.by_callsite = own;
      groups.push_back(g);
      if (slot) *slot = static_cast<uint32_t>(groups.size() - 1);
    }
    key_group[key] = own ? static_cast<uint32_t>(groups.size() - 1) : *slot;
    groups[key_group[key]].size += key_count[key];
  }
  uint64_t total = 0;
  for (Group& g : groups) {
    g.first = total;
    total += g.size;
  }

  std::vector<int64_t> buffer(total);
  std::vector<uint64_t> fill(groups.size());
  for (size_t g = 0; g < groups.size(); ++g)
    fill[g] = groups[g].first;
  for (size_t row = 0; row < s.size(); ++row) {
    if (!Considered(trace, o, row)) continue;
    buffer[fill[key_group[key_of(row)]]++] = s.end[row] - s.begin[row];
  }

  for (Group& g : groups) {
    if (g.size < std::max<size_t>(o.min_samples, 1)) continue;  // limit stays infinite
    int64_t* values = buffer.data() + g.first;
    const size_t n = static_cast<size_t>(g.size);
    double cutoff = 0;
    if (percentile) {
      // Nearest rank: the smallest duration with at least p% of them <= it.
      const double p = std::clamp(o.percentile, 0.0, 100.0);
      size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(n)));
      rank = std::clamp<size_t>(rank, 1, n);
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
    g.sigma = std::max({kMadToSigma * g.mad, 0.01 * g.median, 1.0});
    if (percentile) {
      g.limit = cutoff;
    } else {
      // Flag d when (d - m) / sigma >= threshold, d >= ratio * m and
      // d - m >= min_excess: d must reach the largest of the three bounds.
      const double bound = std::max({g.median + o.threshold * g.sigma, o.min_ratio * g.median,
                                     g.median + static_cast<double>(o.min_excess_ns)});
      g.limit = bound;
    }
  }

  std::vector<Anomaly> out;
  for (size_t row = 0; row < s.size(); ++row) {
    if (!Considered(trace, o, row)) continue;
    const int64_t d = s.end[row] - s.begin[row];
    const Group& g = groups[key_group[key_of(row)]];
    const double x = static_cast<double>(d);
    if (percentile ? !(x > g.limit) : !(x >= g.limit)) continue;
    Anomaly a;
    a.slice = static_cast<uint32_t>(row);
    a.state = g.state;
    a.thread = s.thread[row];
    a.process = a.thread < trace.threads.size() ? trace.threads[a.thread].process : model::kNone;
    a.callsite = s.callsite[row] < trace.callsites.size() ? s.callsite[row] : model::kNone;
    a.by_callsite = g.by_callsite;
    a.begin_ns = s.begin[row];
    a.duration_ns = d;
    a.median_ns = g.median;
    a.mad_ns = g.mad;
    a.limit_ns = g.limit;
    a.group_size = g.size;
    a.score = (static_cast<double>(d) - g.median) / g.sigma;
    a.method = o.method;
    out.push_back(a);
  }
  std::sort(out.begin(), out.end(), [](const Anomaly& a, const Anomaly& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.slice < b.slice;
  });
  return out;
}

}  // namespace plx::analysis
