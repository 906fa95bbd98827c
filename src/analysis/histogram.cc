// Duration histograms: the filters become one row range of the slice table
// (rows are sorted by thread, and a process's threads are contiguous), then
// two passes over it — the range of durations, then the counts. A bin index
// is estimated arithmetically and corrected against the edges themselves, so
// a duration on an edge lands where the reported edges say it does.
#include "analysis/histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

namespace plx::analysis {

namespace {

// The rows of threads [first, last] (inclusive; rows are sorted by thread).
std::pair<size_t, size_t> ThreadRows(const model::SliceTable& s, uint32_t first, uint32_t last) {
  const auto lo = std::lower_bound(s.thread.begin(), s.thread.end(), first);
  const auto hi = std::upper_bound(lo, s.thread.end(), last);
  return {static_cast<size_t>(lo - s.thread.begin()), static_cast<size_t>(hi - s.thread.begin())};
}

std::vector<double> Edges(int64_t min, int64_t max, size_t bins, bool logarithmic) {
  std::vector<double> edges(bins + 1);
  const double lo = static_cast<double>(std::max<int64_t>(min, 1));
  const double hi = static_cast<double>(max);
  if (max == min) {
    for (size_t i = 0; i <= bins; ++i)
      edges[i] = static_cast<double>(min) + static_cast<double>(i) / static_cast<double>(bins);
    return edges;
  }
  for (size_t i = 0; i <= bins; ++i) {
    // (range * i) / bins is exact whenever the bins divide the range evenly.
    const double f = static_cast<double>(i) / static_cast<double>(bins);
    const double range = hi - static_cast<double>(min);
    edges[i] = logarithmic && hi > lo ? lo * std::pow(hi / lo, f)
                                      : static_cast<double>(min) + range * static_cast<double>(i) /
                                                                       static_cast<double>(bins);
  }
  edges.front() = static_cast<double>(min);
  edges.back() = hi;
  return edges;
}

}  // namespace

DurationBins::DurationBins(int64_t min, int64_t max, size_t bins, bool logarithmic)
    : edges_(Edges(min, max, bins, logarithmic)),
      min_(min),
      log_scale_(logarithmic && max > std::max<int64_t>(min, 1)),
      lo_(static_cast<double>(std::max<int64_t>(min, 1))) {
  scale_ = max == min ? 0.0
                      : static_cast<double>(bins) /
                            (log_scale_ ? std::log(static_cast<double>(max) / lo_)
                                        : static_cast<double>(max) - static_cast<double>(min));
}

size_t DurationBins::Bin(int64_t d) const {
  const size_t last_bin = edges_.size() - 2;
  const double x = static_cast<double>(d);
  double estimate = 0;
  if (log_scale_)
    estimate = d >= 1 ? std::log(x / lo_) * scale_ : 0.0;
  else
    estimate = (x - static_cast<double>(min_)) * scale_;
  size_t bin = estimate <= 0 ? 0 : std::min(static_cast<size_t>(estimate), last_bin);
  while (bin > 0 && x < edges_[bin])
    --bin;
  while (bin < last_bin && x >= edges_[bin + 1])
    ++bin;
  return bin;
}

StatusOr<Histogram> ComputeDurationHistogram(const model::Trace& trace, const HistogramOptions& o) {
  if (o.bins == 0) return InvalidArgument("histogram: bins must be at least 1");
  if (o.state >= trace.states.size())
    return NotFound("histogram: no state " + std::to_string(o.state));
  if (o.from_ns > o.to_ns) return InvalidArgument("histogram: time range ends before it begins");
  const model::SliceTable& s = trace.slices;
  size_t begin_row = 0, end_row = s.size();
  if (o.thread != model::kNone) {
    if (o.thread >= trace.threads.size())
      return NotFound("histogram: no thread " + std::to_string(o.thread));
    std::tie(begin_row, end_row) = ThreadRows(s, o.thread, o.thread);
  }
  if (o.process != model::kNone) {
    if (o.process >= trace.processes.size())
      return NotFound("histogram: no process " + std::to_string(o.process));
    uint32_t first = model::kNone, last = 0;
    for (uint32_t t = 0; t < trace.threads.size(); ++t) {
      if (trace.threads[t].process != o.process) continue;
      first = std::min(first, t);
      last = std::max(last, t);
    }
    if (first == model::kNone) {
      begin_row = end_row = 0;
    } else {
      const auto [lo, hi] = ThreadRows(s, first, last);
      begin_row = std::max(begin_row, lo);
      end_row = std::min(end_row, hi);
    }
  }
  const Selection* area = o.area;
  auto selected = [&](size_t row) {
    return s.state[row] == o.state && s.begin[row] < o.to_ns && s.end[row] >= o.from_ns &&
           (area == nullptr ||
            (area->Has(s.thread[row]) && s.begin[row] <= area->to && s.end[row] >= area->from));
  };

  Histogram h;
  h.counts.assign(o.bins, 0);
  int64_t min = std::numeric_limits<int64_t>::max(), max = std::numeric_limits<int64_t>::min();
  for (size_t row = begin_row; row < end_row; ++row) {
    if (!selected(row)) continue;
    const int64_t d = s.end[row] - s.begin[row];
    min = std::min(min, d);
    max = std::max(max, d);
    ++h.total;
  }
  if (h.total == 0) min = max = 0;
  h.min_ns = min;
  h.max_ns = max;
  const DurationBins binner(min, max, o.bins, o.logarithmic);
  h.edges = binner.edges();
  if (h.total == 0) return h;
  for (size_t row = begin_row; row < end_row; ++row) {
    if (!selected(row)) continue;
    const size_t bin = binner.Bin(s.end[row] - s.begin[row]);
    ++h.counts[bin];
  }
  return h;
}

}  // namespace plx::analysis
