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
  /// last call, which makes converting ticks in increasing order O(1) each.
  int64_t ToNs(uint64_t tick, size_t* hint = nullptr) const;

  bool is_identity() const { return identity_; }
  /// Ticks per second: 1e9 in the ns domain, else as measured by the sync pairs.
  double ticks_per_second() const { return ticks_per_second_; }
  size_t sync_points() const { return points_.size(); }

 private:
  struct Point {
    uint64_t tick;
    int64_t ns;
    double ns_per_tick;  // slope of the segment that starts here
  };
  bool identity_ = true;
  double ticks_per_second_ = 1e9;
  std::vector<Point> points_;
};

}  // namespace plx::format
