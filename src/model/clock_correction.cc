// ClockCorrection: choosing the two measurements and the slope between them.
#include "model/clock_correction.h"

#include <algorithm>

namespace plx::model {

namespace {

int64_t Clamp(int64_t v) {
  return std::clamp(v, -ClockCorrection::kLimit, ClockCorrection::kLimit);
}

}  // namespace

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

}  // namespace plx::model
