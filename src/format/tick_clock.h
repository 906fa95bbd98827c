// Converts a process's record ticks to CLOCK_MONOTONIC nanoseconds, as
// docs/format.md specifies: identity for the ns domain; for TSC ticks,
// piecewise-linear between clock_sync pairs, extrapolated with the slope of
// the nearest segment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "format/records.gen.h"

namespace plx::format {

class TickClock {
 public:
  TickClock() = default;
  TickClock(const std::optional<ClockDef>& clock, std::vector<ClockSyncDef> syncs);

  /// Nanoseconds for a tick. `hint` (may be null) remembers the segment of the
  /// last call, which makes converting ticks in increasing order O(1) each:
  /// inside the hinted segment this is one 128-bit multiply.
  int64_t ToNs(uint64_t tick, size_t* hint = nullptr) const {
    if (identity_) return static_cast<int64_t>(tick);
    if (hint != nullptr && *hint < points_.size()) {
      const Point& p = points_[*hint];
      if (tick >= p.tick && tick < p.fast_end) return Interpolate(p, tick);
    }
    return ToNsSlow(tick, hint);
  }

  bool is_identity() const { return identity_; }
  /// The tick below which `other` converts every tick exactly as this clock
  /// does: UINT64_MAX when they are the same, 0 when no tick is safe. (A
  /// clock made from more sync pairs differs from the segment before the
  /// first new pair on; the live load cache keeps records below it.)
  uint64_t SameBelow(const TickClock& other) const;
  /// Ticks per second: 1e9 in the ns domain, else as measured by the sync pairs.
  double ticks_per_second() const { return ticks_per_second_; }
  size_t sync_points() const { return points_.size(); }

 private:
  struct Point {
    uint64_t tick;
    int64_t ns;
    double ns_per_tick;  // slope of the segment that starts here
    // Ticks in [tick, fast_end) convert exactly as ns + (dt * mult48 + 2^47) >> 48;
    // the range is bounded so that this cannot overflow (empty when unsafe).
    uint64_t fast_end = 0;
    uint64_t mult48 = 0;  // ns_per_tick in 16.48 fixed point
  };
  static int64_t Interpolate(const Point& p, uint64_t tick) {
    const unsigned __int128 product = static_cast<unsigned __int128>(tick - p.tick) * p.mult48;
    return p.ns + static_cast<int64_t>((product + (uint64_t{1} << 47)) >> 48);
  }
  int64_t ToNsSlow(uint64_t tick, size_t* hint) const;
  void PrepareFastPath();

  bool identity_ = true;
  double ticks_per_second_ = 1e9;
  std::vector<Point> points_;
};

}  // namespace plx::format
