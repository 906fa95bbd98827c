// How serious a diagnostics finding is, from what it costs: the time it lost
// against the run's length, so a 40 ns call twice as slow as usual is info,
// not a warning, while a wait of a tenth of the run is.
#pragma once

#include <cstdint>

namespace plx::analysis {

/// Below this a finding costs too little to warn about, whatever the run's length (10 µs).
inline constexpr int64_t kWarningFloorNs = 10'000;
/// A finding that costs at least this part of the run (and the floor) is a warning: 1/1000.
inline constexpr double kWarningShareOfRun = 1e-3;

/// "warning" when `cost_ns` is at least kWarningFloorNs and kWarningShareOfRun
/// of `run_ns` (the trace's length), else "info".
const char* CostSeverity(double cost_ns, int64_t run_ns);

}  // namespace plx::analysis
