// StreamCut: one thread's records through the cut. It reads the thread's
// chunks from the first one over the window (the slices open there come
// from the skeleton), copies the records in the window to the writer on
// their own ticks, and makes the records the cut needs: an enter for every
// slice open at the window's start, a leave for every slice still open at
// its end, each at the first (last) tick in the window, with an instant
// saying so. Internal to trace_cut.cc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "format/trace_writer.h"
#include "store/cut_plan.h"
#include "store/trace_store.h"

namespace plx::store {

/// What the cut writes for one process besides its records.
struct ProcessCut {
  uint32_t file_process = 0;  // its number in both files
  uint64_t marker_type = 0;   // the event type of the instants at the cut
  /// Per state id of the process: 1 when its slices are kept (with
  /// `all_states` false; ids past its end are not kept).
  bool all_states = true;
  std::vector<uint8_t> kept_states;
};

struct StreamCutCounts {
  uint64_t read = 0, written = 0, opened = 0, closed = 0, posts_dropped = 0;
  std::vector<std::string> problems;  // damaged chunks, one line each
};

/// Cuts thread `thread` of `store` into `writer`; counts go to *counts.
void CutStream(const TraceStore& store, const CutPlan& plan, const ProcessCut& process,
               uint32_t thread, format::TraceWriter& writer, StreamCutCounts* counts);

/// The smallest local CLOCK_MONOTONIC ns that `correction` moves to `t` or
/// later: where a process's records of a window starting at `t` begin.
int64_t LocalNsAtOrAfter(const model::ClockCorrection* correction, int64_t t);

}  // namespace plx::store
