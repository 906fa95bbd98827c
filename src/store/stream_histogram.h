// The duration histogram of one state over the whole trace, from the file:
// the range of its durations is the state's statistics row (the shortest and
// longest, the count), so one thread pass counts them into the same bins as
// analysis::ComputeDurationHistogram.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/histogram.h"
#include "analysis/state_stats.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

/// `row`: the state's row of the whole trace's statistics on the same times
/// (none when the state has no slice). With `maps` (per thread), on the
/// repaired times.
analysis::Histogram StreamDurationHistogram(const TraceStore& store,
                                            const std::vector<time::ThreadTimeMap>* maps,
                                            uint32_t state, const analysis::StateStats* row,
                                            size_t bins, bool logarithmic);

}  // namespace plx::store
