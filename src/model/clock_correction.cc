// ClockCorrection: choosing the two measurements and the slope between them;
// runs of times the drift moves alike.
#include "model/clock_correction.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace plx::model {

ClockCorrection::ClockCorrection(const std::vector<ClockOffset>& measurements) {
  if (measurements.empty()) return;
  // Earliest and latest by the process's clock; the first recorded wins ties.
  const ClockOffset* first = &measurements.front();
  const ClockOffset* last = first;
  for (const ClockOffset& m : measurements) {
    if (m.ns < first->ns) first = &m;
    if (m.ns > last->ns) last = &m;
  }
  base_ns_ = Clamp(first->ns);
  offset_ns_ = Clamp(first->offset_ns);
  if (last->ns > first->ns) {
    // Differences of clamped values fit in int64; their ratio is a double.
    const double offsets = static_cast<double>(Clamp(last->offset_ns) - offset_ns_);
    const double span = static_cast<double>(Clamp(last->ns) - base_ns_);
    slope_ = span > 0 ? offsets / span : 0;
  }
  identity_ = offset_ns_ == 0 && slope_ == 0;
}

ClockCorrection::Run ClockCorrection::RunAt(int64_t ns) const {
  if (slope_ == 0) return {-kLimit, kLimit, offset_ns_};
  const int64_t k = Drift(ns);
  Run run{ns, ns, offset_ns_ + k};
  // The drift steps every 1 / |slope| ns: when that is short, runs are not
  // worth looking for.
  if (std::abs(slope_) > 1.0 / 64) return run;
  // The next step is about where (t - first) * slope reaches k +- 0.5.
  const double step_at =
      static_cast<double>(base_ns_) + (static_cast<double>(k) + (slope_ > 0 ? 0.5 : -0.5)) / slope_;
  constexpr double kMax = static_cast<double>(kLimit);
  int64_t hi = step_at >= kMax ? kLimit : static_cast<int64_t>(std::max(step_at, -kMax));
  hi = std::max(hi, ns);
  // The drift is monotone, so it is k all over [ns, t] when it is k at t:
  // from the estimate, gallop to a time where it is k and one where it is
  // not, then halve the gap between them.
  int64_t good = ns, bad = 0;
  if (Drift(hi) == k) {
    good = hi;
    for (int64_t step = 1;; step *= 2) {
      if (step > (int64_t{1} << 40) || good > kLimit - step) {
        run.hi = good;  // far enough
        return run;
      }
      if (Drift(good + step) != k) {
        bad = good + step;
        break;
      }
      good += step;
    }
  } else {
    bad = hi;
    for (int64_t step = 1; bad - step > good; step *= 2) {
      if (Drift(bad - step) == k) {
        good = bad - step;
        break;
      }
      bad -= step;
    }
  }
  while (bad - good > 1) {
    const int64_t mid = good + (bad - good) / 2;
    (Drift(mid) == k ? good : bad) = mid;
  }
  run.hi = good;
  return run;
}

}  // namespace plx::model
