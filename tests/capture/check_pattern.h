// Checks a trace written by capture_child against the stress pattern: per
// thread, every record in order, checksums, times, thread begin/end, lost counts.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>

#include "capture/stress_pattern.h"
#include "format/trace_file.h"

namespace plx::testing {

struct ThreadResult {
  uint64_t pattern_records = 0;  // pattern records found (in order)
  uint64_t checksum = kChecksumSeed;
  uint64_t lost = 0;          // records the runtime reported as dropped
  uint64_t flush_states = 0;  // "parallax:flush" enters
  bool begin_seen = false;
  bool end_seen = false;
  int64_t first_ns = std::numeric_limits<int64_t>::max();
  int64_t last_ns = std::numeric_limits<int64_t>::min();
};

struct PatternResult {
  std::map<uint32_t, ThreadResult> threads;  // by pattern thread index ("stress N")
  uint64_t checksum_sum = 0;                 // sum of the per-thread checksums
  std::string error;                         // first mismatch, or empty
};

/// Reads every record; records must follow the pattern of `threads` threads
/// (iterations: upper bound on the pattern length, for range checks).
PatternResult CheckPattern(const format::TraceFile& file, uint32_t threads, uint64_t iterations);

/// The checksum of thread t's whole pattern, and the sum over all threads.
uint64_t PatternThreadChecksum(uint32_t t, uint32_t threads, uint64_t iterations);
uint64_t PatternChecksum(uint32_t threads, uint64_t iterations);

}  // namespace plx::testing
