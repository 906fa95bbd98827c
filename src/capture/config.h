// The runtime's settings, read once from PLX_* environment variables
// (documented in README.md, "Runtime settings").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "capture/ticks.h"

namespace plx::capture {

struct Config {
  bool enabled = true;                // PLX_TRACE
  std::string output = "%e.plx";      // PLX_OUTPUT (pattern)
  std::string level = "all";          // PLX_LEVEL
  size_t buffer_bytes = 4u << 20;     // PLX_BUFFER, per thread
  ClockKind clock = ClockKind::kTsc;  // PLX_CLOCK
  int flush_ms = 100;                 // PLX_FLUSH_MS
  int zstd_level = 1;                 // PLX_COMPRESS (0 = none)
  bool signals = true;                // PLX_SIGNALS
  bool drop_when_full = false;        // PLX_FULL=drop
  bool verbose = false;               // PLX_VERBOSE
  bool threads = true;                // PLX_THREADS (docs/threads.md)
  bool openmp = true;                 // PLX_OPENMP (docs/openmp.md)
  std::string live_host;              // PLX_LIVE=host:port ("" = no live stream)
  uint16_t live_port = 0;
  std::string live_token;                // PLX_LIVE_TOKEN
  size_t live_buffer_bytes = 64u << 20;  // PLX_LIVE_BUFFER
  std::string functions;                 // PLX_FUNCTIONS (docs/functions.md)
  std::string functions_exclude;         // PLX_FUNCTIONS_EXCLUDE
  std::string counters;                  // PLX_COUNTERS (docs/counters.md)
  int sample_ms = 10;                    // PLX_SAMPLE_MS (0 = no periodic samples)
  bool count_per_period = false;         // PLX_COUNTER_MODE=period (else "changes")
  bool sched = false;                    // PLX_SCHED (the CPU each thread runs on)
  // PLX_PARTS=PID (set by `parallax record`, PID its own): a process whose
  // parent is not PID writes its own part, <output>.parts/pid-<pid>.plx.
  int parts_parent = 0;
  // PLX_MERGE: whether rank 0 of an MPI run merges the ranks' parts in
  // <output>.parts/ at MPI_Finalize: 1 always, 0 never (they stay), -1
  // (unset) when the run is small enough (src/mpi/lifecycle.cc).
  int merge = -1;
  std::vector<std::string> warnings;  // one line per bad value (the default was used)

  bool live() const { return !live_host.empty(); }
  /// PLX_OUTPUT=- means no trace file (live only).
  bool writes_file() const { return output != "-"; }
};

/// Reads the PLX_* variables; bad values keep the default and add a warning.
Config ReadConfig();

/// Splits a live endpoint "host:port" or "[ipv6]:port" (port 1-65535).
bool ParseLiveEndpoint(std::string_view v, std::string* host, uint16_t* port);

/// Expands %e (executable name), %p (pid), %h (host), %t (start time
/// YYYYmmdd-HHMMSS) and %% in an output pattern.
std::string ExpandOutput(std::string_view pattern, std::string_view exe, int pid,
                         std::string_view host, int64_t realtime_s);

/// Whether PLX_LEVEL selects a category: a comma list of category names, "all"
/// or "none", and "-name" to remove one (e.g. "all,-comm" or "comm").
bool LevelSelects(std::string_view level, std::string_view category);

}  // namespace plx::capture
