// Duration histograms: how the durations of one state's slices are spread,
// in linear or logarithmic bins over their range, optionally restricted to a
// time window, a process, a thread or an area (analysis/selection.h). For
// the viewer's histogram panel and for judging whether a state's durations
// have a long tail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/selection.h"
#include "base/status.h"
#include "model/trace.h"

namespace plx::analysis {

struct HistogramOptions {
  uint32_t state = 0;  // index into Trace::states
  size_t bins = 20;    // >= 1
  bool logarithmic = false;
  // Only slices overlapping [from_ns, to_ns): begin < to_ns and end >= from_ns.
  int64_t from_ns = std::numeric_limits<int64_t>::min();
  int64_t to_ns = std::numeric_limits<int64_t>::max();
  uint32_t process = model::kNone;  // kNone = all processes
  uint32_t thread = model::kNone;   // kNone = all threads
  // Also only the slices of an area: on its threads and overlapping its
  // window [from, to] (both ends included: begin <= to and end >= from),
  // with their full durations. Null: no area. Not owned.
  const Selection* area = nullptr;
};

/// Bin i holds durations d with edges[i] <= d < edges[i + 1]; the last bin
/// also holds d == edges.back() (the longest duration), so every selected
/// slice is in exactly one bin.
struct Histogram {
  std::vector<double> edges;     // bins + 1 edges, ns, ascending; edges[0] = min_ns
  std::vector<uint64_t> counts;  // bins
  uint64_t total = 0;            // slices counted (the sum of counts)
  int64_t min_ns = 0;            // shortest and longest selected duration (0 when none)
  int64_t max_ns = 0;
};

/// The bins of ComputeDurationHistogram for durations in [min, max]: its
/// edges, and the bin of a duration (as the edges say, on an edge too). For
/// engines that count the durations themselves.
class DurationBins {
 public:
  DurationBins(int64_t min, int64_t max, size_t bins, bool logarithmic);
  const std::vector<double>& edges() const { return edges_; }
  size_t Bin(int64_t duration) const;

 private:
  std::vector<double> edges_;
  int64_t min_ = 0;
  bool log_scale_ = false;
  double lo_ = 1, scale_ = 0;
};

/// The histogram of the durations (end - begin) of the selected slices.
/// Linear bins split [min, max] evenly; logarithmic ones evenly in log scale
/// from max(min, 1 ns) to max, with the first bin starting at min (0 allowed).
/// When min == max the edges span [min, min + 1). Errors: bins == 0, an
/// unknown state, process or thread, from_ns > to_ns.
StatusOr<Histogram> ComputeDurationHistogram(const model::Trace& trace,
                                             const HistogramOptions& options);

}  // namespace plx::analysis
