// Cutting a trace: a smaller .plx of a time window, some processes and some
// states, written from the store in bounded memory (one chunk per thread
// being read, one stream being written, and the window's message and
// collective bookkeeping). The records are copied as recorded, on their
// own ticks, with every definition and the clock data, so the cut corrects
// exactly as the original did; docs/cut.md says what a cut keeps.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "store/trace_store.h"

namespace plx::store {

struct CutOptions {
  /// The window, ns since the trace's first record on the clocks as loaded
  /// (clock offsets applied), both ends included: what `parallax query`
  /// and `dump` show.
  int64_t from_ns = 0;
  int64_t to_ns = INT64_MAX;
  /// Trace::processes indices to keep (empty: all).
  std::vector<uint32_t> processes;
  /// State names whose slices are kept (empty: all).
  std::vector<std::string> states;
  /// (records read, records to read), on the calling thread.
  std::function<void(std::string_view step, uint64_t, uint64_t)> progress;
};

struct CutResult {
  uint64_t records_read = 0;
  uint64_t records_written = 0;  // with those the cut made
  uint64_t processes = 0;
  uint64_t slices_opened = 0;  // enters the cut made: slices open at its start
  uint64_t slices_closed = 0;  // leaves the cut made: slices open at its end
  /// Message records left out: their partner is outside the window or the
  /// processes kept.
  uint64_t messages_crossing = 0;
  /// Collective records left out: their operation's other records are not
  /// all in the window.
  uint64_t collectives_dropped = 0;
  /// Posted receives left out: the receive they posted is not in the cut.
  uint64_t posts_dropped = 0;
  /// Damaged chunks met (their readable records were cut), one line each.
  std::vector<std::string> problems;
};

/// Writes the cut of `store`'s trace to `path` (through a temporary file
/// renamed over it at the end). Errors name the file; an unknown state
/// name or a process index out of range is an error too.
StatusOr<CutResult> CutTrace(const TraceStore& store, const std::string& path,
                             const CutOptions& options);

}  // namespace plx::store
