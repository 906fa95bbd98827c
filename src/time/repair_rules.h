// The arithmetic of causal repair's shifts, shared by the in-memory solver
// (time/causal_repair.cc) and the one that streams a trace (src/store).
// A shift is kept in fixed point, 2^-40 ns, so that the cone under a raised
// event is exact linear arithmetic: neighbouring anchors of a thread differ
// by at most slope x distance, and going through any number of anchors in
// between gives the same bound as going straight (which floored doubles do
// not). Events move by whole nanoseconds: the shift rounded up.
#pragma once

#include <cmath>
#include <cstdint>

namespace plx::time {

using Scaled = __int128;
inline constexpr int kShiftFractionBits = 40;

/// The slope in fixed point per nanosecond of distance.
inline Scaled ScaledSlope(double slope) {
  return static_cast<Scaled>(std::llround(std::ldexp(slope, kShiftFractionBits)));
}

/// A shift of `ns` whole nanoseconds in fixed point.
inline Scaled Needed(int64_t ns) {
  return static_cast<Scaled>(ns) * (Scaled{1} << kShiftFractionBits);
}

/// What an anchor `distance` ns from one shifted by `scaled` must at least be shifted by.
inline Scaled ConeAt(Scaled scaled, int64_t distance, Scaled slope) {
  return scaled - slope * static_cast<Scaled>(distance);
}

/// The whole nanoseconds events move by: the shift rounded up (never below 0).
inline int64_t ShiftOf(Scaled scaled) {
  if (scaled <= 0) return 0;
  const Scaled unit = Scaled{1} << kShiftFractionBits;
  return static_cast<int64_t>((scaled + unit - 1) / unit);
}

}  // namespace plx::time
