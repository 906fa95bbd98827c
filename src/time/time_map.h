// Moving a thread's times consistently: a monotone piecewise-linear map per
// thread, pinned at a few anchor events, applied to every time column of the
// model so that other events move with their neighbours and no thread's order
// changes. Causal repair computes the maps; this applies them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::time {

/// The shift of one thread's times: shifts[i] at anchors[i] (ascending,
/// distinct), linear in between, constant before the first and after the
/// last anchor. With |slope| < 1 between anchors the map t -> t + shift(t) is
/// non-decreasing, so it keeps every order on the thread.
struct ThreadTimeMap {
  std::vector<int64_t> anchors;
  std::vector<int64_t> shifts;

  /// No anchor at or before t (t is before the first).
  static constexpr size_t kBeforeFirst = SIZE_MAX;

  /// t + shift(t): the shift at the anchor before t plus the interpolated
  /// change, rounded half away from zero.
  int64_t Apply(int64_t t) const;
  /// The same, starting the anchor search at `*hint` (a previous call's
  /// segment, or kBeforeFirst) and leaving t's segment there: a run of
  /// ascending times costs O(1) each instead of a binary search.
  int64_t Apply(int64_t t, size_t* hint) const;
  /// The shift at t (unrounded interpolation rounded to ns).
  int64_t ShiftAt(int64_t t) const { return Apply(t) - t; }
  bool is_identity() const;
};

/// What applying the maps changed.
struct TimeMapStats {
  uint64_t events_moved = 0;           // time values changed (slice begin and end count apart)
  int64_t max_shift_ns = 0;            // largest |shift| of any time value
  int64_t max_duration_change_ns = 0;  // largest |change| of a slice's duration
  double max_relative_change = 0;      // largest |change| / duration over slices of >= 1 us
};

/// Moves every per-thread time of the model by its thread's map (`maps` has
/// one per thread; missing ones are the identity): slices (self_ns
/// recomputed), instants, messages, collectives, counter samples, RMA,
/// controls, posted receives, thread and trace spans.
TimeMapStats ApplyTimeMaps(const std::vector<ThreadTimeMap>& maps, model::Trace* trace);

/// Only the threads' spans and the trace's, as ApplyTimeMaps moves them.
void MoveSpans(const std::vector<ThreadTimeMap>& maps, model::Trace* trace);

}  // namespace plx::time
