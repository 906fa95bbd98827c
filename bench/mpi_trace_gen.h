// A synthetic MPI trace of any size for the analysis benchmarks: ranks on a
// ring exchanging halos with nonblocking calls every iteration and an
// allreduce every tenth, with computation that is imbalanced between ranks,
// rare slow iterations, and clocks that are skewed and drifting like a
// cluster's, carrying clock_offset measurements with realistic errors (so the
// loader corrects most of the skew and causal repair has some left to fix).
// Deterministic: the same options write the same file.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace plx::bench {

struct MpiTraceOptions {
  uint32_t ranks = 16;
  uint64_t events = 1'000'000;  // at least this many records (whole iterations)
  uint64_t seed = 1;
};

/// Writes the trace to `path`; returns the number of event records written.
StatusOr<uint64_t> WriteMpiTrace(const std::string& path, const MpiTraceOptions& options);

/// The trace of `events` records on `ranks` ranks in the benchmark's cache
/// (PLX_BENCH_DIR, else the current directory), written first when it is
/// not there yet: mpi-trace-EVENTS.plx for 16 ranks, else
/// mpi-trace-EVENTS-rRANKS.plx.
std::string CachedMpiTrace(uint64_t events, uint32_t ranks = 16);

}  // namespace plx::bench
