// TickClock: piecewise-linear tick -> ns conversion.
#include "format/tick_clock.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace plx::format {

TickClock::TickClock(const std::optional<ClockDef>& clock, std::vector<ClockSyncDef> syncs) {
  if (!clock || clock->domain == 0) return;  // ticks are ns already
  identity_ = false;
  double tps = clock->ticks_per_second > 0 && std::isfinite(clock->ticks_per_second)
                   ? clock->ticks_per_second
                   : 1e9;
  // Stable: among pairs with the same tick the first in file order wins.
  std::stable_sort(syncs.begin(), syncs.end(),
                   [](const ClockSyncDef& a, const ClockSyncDef& b) { return a.tick < b.tick; });
  // Keep a strictly increasing sequence in both tick and ns; drop the rest (and
  // ns values that do not fit in int64_t, so differences below cannot overflow).
  for (const ClockSyncDef& s : syncs) {
    if (s.ns > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) continue;
    if (!points_.empty() &&
        (s.tick <= points_.back().tick || static_cast<int64_t>(s.ns) <= points_.back().ns))
      continue;
    points_.push_back({s.tick, static_cast<int64_t>(s.ns), 0.0});
  }
  if (points_.size() >= 2) {
    for (size_t i = 0; i + 1 < points_.size(); ++i) {
      points_[i].ns_per_tick = static_cast<double>(points_[i + 1].ns - points_[i].ns) /
                               static_cast<double>(points_[i + 1].tick - points_[i].tick);
    }
    points_.back().ns_per_tick = points_[points_.size() - 2].ns_per_tick;
    const Point& a = points_.front();
    const Point& b = points_.back();
    tps = static_cast<double>(b.tick - a.tick) * 1e9 / static_cast<double>(b.ns - a.ns);
  } else if (points_.empty()) {
    points_.push_back({0, 0, 0.0});
  }
  if (points_.size() == 1) points_[0].ns_per_tick = 1e9 / tps;
  ticks_per_second_ = tps;
  PrepareFastPath();
}

void TickClock::PrepareFastPath() {
  constexpr int64_t kNsLimit = int64_t{1} << 62;
  constexpr uint64_t kExtrapolateTicks = uint64_t{1} << 40;  // past the last pair
  for (size_t i = 0; i < points_.size(); ++i) {
    Point& p = points_[i];
    p.fast_end = p.tick;  // empty unless proven safe below
    const bool last = i + 1 == points_.size();
    if (!(p.ns_per_tick >= 0 && p.ns_per_tick < 65536.0)) continue;
    if (p.ns < -kNsLimit || p.ns > kNsLimit) continue;
    if (!last && points_[i + 1].ns - p.ns > kNsLimit) continue;
    p.mult48 = static_cast<uint64_t>(std::llround(std::ldexp(p.ns_per_tick, 48)));
    if (last) {
      p.fast_end =
          p.tick > UINT64_MAX - kExtrapolateTicks ? UINT64_MAX : p.tick + kExtrapolateTicks;
    } else {
      p.fast_end = points_[i + 1].tick;
    }
  }
}

int64_t TickClock::ToNsSlow(uint64_t tick, size_t* hint) const {
  size_t i = hint ? *hint : 0;
  if (i >= points_.size()) i = 0;
  // Move to the segment holding `tick`: usually it is the hinted one or the next.
  if (tick < points_[i].tick || (i + 1 < points_.size() && tick >= points_[i + 1].tick)) {
    auto it = std::upper_bound(points_.begin(), points_.end(), tick,
                               [](uint64_t t, const Point& p) { return t < p.tick; });
    i = it == points_.begin() ? 0 : static_cast<size_t>(it - points_.begin()) - 1;
    if (hint) *hint = i;
  }
  const Point& p = points_[i];
  if (tick >= p.tick && tick < p.fast_end) return Interpolate(p, tick);  // same answer as ToNs
  const double dt =
      tick >= p.tick ? static_cast<double>(tick - p.tick) : -static_cast<double>(p.tick - tick);
  // Saturate instead of overflowing on absurd ticks (damaged or hostile files).
  constexpr double kTwo63 = 9223372036854775808.0;
  const double delta = dt * p.ns_per_tick;
  int64_t offset;
  if (std::isnan(delta)) {  // 0 ticks times an infinite slope
    offset = 0;
  } else if (delta >= kTwo63) {
    offset = std::numeric_limits<int64_t>::max();
  } else if (delta < -kTwo63) {
    offset = std::numeric_limits<int64_t>::min();
  } else {
    offset = static_cast<int64_t>(std::llround(delta));
  }
  int64_t ns;
  if (__builtin_add_overflow(p.ns, offset, &ns))
    ns = offset > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  return ns;
}

uint64_t TickClock::SameBelow(const TickClock& other) const {
  if (identity_ != other.identity_) return 0;
  if (identity_) return UINT64_MAX;
  const auto same = [](const Point& a, const Point& b) {
    return a.tick == b.tick && a.ns == b.ns && a.ns_per_tick == b.ns_per_tick &&
           a.fast_end == b.fast_end && a.mult48 == b.mult48;
  };
  const std::vector<Point>& a = points_;
  const std::vector<Point>& b = other.points_;
  size_t j = 0;
  while (j < a.size() && j < b.size() && same(a[j], b[j]))
    ++j;
  if (j == a.size() && j == b.size()) return UINT64_MAX;
  if (j == 0) return 0;  // segment 0 also converts every tick before the first pair
  // Segments before j are the same; the first differing point starts where
  // either clock's segment j starts.
  if (j == a.size()) return b[j].tick;
  if (j == b.size()) return a[j].tick;
  return std::min(a[j].tick, b[j].tick);
}

}  // namespace plx::format
