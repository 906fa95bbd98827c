// The duration histogram of one state from the file: over the whole trace the
// range of its durations is the state's statistics row (the shortest and
// longest, the count), so one thread pass counts them into the same bins as
// analysis::ComputeDurationHistogram; over an area a first pass over its
// threads finds the range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/histogram.h"
#include "analysis/selection.h"
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

/// The same over `area` (HistogramOptions::area: its threads' slices that
/// overlap its window, whole): two passes over its threads' chunks.
analysis::Histogram StreamDurationHistogram(const TraceStore& store,
                                            const std::vector<time::ThreadTimeMap>* maps,
                                            uint32_t state, const analysis::Selection& area,
                                            size_t bins, bool logarithmic);

}  // namespace plx::store
