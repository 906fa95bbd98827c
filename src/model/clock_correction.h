// ClockCorrection: moves one process's CLOCK_MONOTONIC times onto the
// reference clock (MPI: world rank 0) from its clock_offset measurements —
// offset plus linear drift, the line through the first and last measurement.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::model {

class ClockCorrection {
 public:
  /// Times every loader keeps within: +-2^61 ns (73 years).
  static constexpr int64_t kLimit = int64_t{1} << 61;

  /// The identity (no measurements).
  ClockCorrection() = default;
  /// From a process's measurements in any order: none is the identity, one a
  /// constant offset, more the line through the earliest and latest by `ns`
  /// (extrapolated before and after them).
  explicit ClockCorrection(const std::vector<ClockOffset>& measurements);

  bool operator==(const ClockCorrection&) const = default;

  /// True when it changes no time (no measurements, or a zero offset and drift).
  bool is_identity() const { return identity_; }
  /// The offset at the earliest measurement.
  int64_t offset_ns() const { return offset_ns_; }
  /// The drift after it, in parts per million (ns gained per ms of the process).
  double drift_ppm() const { return slope_ * 1e6; }

  /// `ns` on the reference clock: ns + offset + round((ns - first) * drift),
  /// rounding half away from zero, clamped to +-kLimit. `ns` must be within
  /// +-kLimit. Inline: the loader calls it once per record.
  int64_t Apply(int64_t ns) const { return Clamp(ns + offset_ns_ + Drift(ns)); }

  /// Times over which Apply adds the same amount: Apply(t) is
  /// Clamp(t + add) for every t in [lo, hi].
  struct Run {
    int64_t lo = 1, hi = 0;  // empty
    int64_t add = 0;
  };
  /// A run that holds `ns` (within +-kLimit), reaching as far after it as
  /// a few evaluations of the drift find. The drift changes by 1 ns every
  /// 1 / |drift| ns, so a loader whose times go up keeps one run over
  /// thousands of records instead of rounding the drift for each.
  Run RunAt(int64_t ns) const;
  static int64_t Clamp(int64_t t) { return t > kLimit ? kLimit : (t < -kLimit ? -kLimit : t); }

 private:
  // round((ns - first) * drift): monotone in ns (each step rounds
  // monotonically), which is what makes runs exact.
  int64_t Drift(int64_t ns) const {
    if (slope_ == 0) return 0;
    double d = static_cast<double>(ns - base_ns_) * slope_;
    constexpr double kMax = static_cast<double>(kLimit);
    d = d > kMax ? kMax : (d < -kMax ? -kMax : d);
    int64_t delta = static_cast<int64_t>(d);  // toward zero; d - delta is exact
    const double fraction = d - static_cast<double>(delta);
    delta += fraction >= 0.5 ? 1 : (fraction <= -0.5 ? -1 : 0);
    return delta;  // each term of Apply's sum within +-2^61: no overflow
  }

  bool identity_ = true;
  int64_t base_ns_ = 0;    // the earliest measurement
  int64_t offset_ns_ = 0;  // its offset
  double slope_ = 0;       // offset change per ns after it
};

}  // namespace plx::model
