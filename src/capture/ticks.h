// Timestamps for the hot path: plain rdtsc (TSC ticks) or CLOCK_MONOTONIC ns,
// chosen once at start-up (PLX_CLOCK). Ticks become ns when the trace is read,
// from (tick, CLOCK_MONOTONIC) pairs the runtime writes as clock_sync records.
#pragma once

#include <time.h>

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PLX_HAVE_TSC 1
#else
#define PLX_HAVE_TSC 0
#endif

namespace plx::capture {

enum class ClockKind : uint8_t { kMonotonic = 0, kTsc = 1 };

/// Set once by the runtime before any thread records.
extern ClockKind g_clock_kind;

inline uint64_t MonotonicNs() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

inline uint64_t ReadTicks() {
#if PLX_HAVE_TSC
  if (g_clock_kind == ClockKind::kTsc) return __rdtsc();
#endif
  return MonotonicNs();
}

/// True when the CPU says its TSC runs at a constant rate in all power states.
bool HasInvariantTsc();

struct SyncPair {
  uint64_t tick;
  uint64_t ns;
};

/// A (tick, CLOCK_MONOTONIC ns) pair taken as close together as possible (best
/// of a few tries). Async-signal-safe.
SyncPair TakeSyncPair();

}  // namespace plx::capture
