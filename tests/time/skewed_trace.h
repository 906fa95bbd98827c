// A generator of random MPI-like traces for the causal-repair tests: ranks
// computing, sending to each other (delivered in random order across
// channels) and meeting in allreduces, simulated in true time, then each
// rank's records written on a clock skewed by an offset and a drift, with
// clock_offset measurements (start and end, with errors) as the MPI library
// writes them, and the ranks' records interleaved in random order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace plx::time::testing {

struct SkewedTraceOptions {
  uint32_t ranks = 4;
  uint32_t actions = 300;  // per rank, roughly
  uint64_t seed = 1;
  int64_t max_offset_ns = 10'000'000;  // +- per rank (rank 0 is the reference)
  double max_drift_ppm = 100;          // +- per rank
  int64_t max_measurement_error_ns = 30'000;
};

/// A slice as simulated: true times, in the order the model sorts a thread's
/// slices (begin, then depth).
struct TrueSlice {
  std::string state;
  int64_t begin = 0;
  int64_t end = 0;
};

struct SkewedTrace {
  std::vector<std::vector<TrueSlice>> slices;  // per rank
  uint64_t messages = 0;
  uint64_t collectives = 0;  // operations
};

/// Writes the trace to `path` and returns what was simulated.
StatusOr<SkewedTrace> WriteSkewedTrace(const std::string& path, const SkewedTraceOptions& options);

}  // namespace plx::time::testing
