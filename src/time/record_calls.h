// Which call made a record: MPI records (messages, collectives, remote memory
// access, posted receives) lie inside the slice of the call that made them, so
// the innermost slice around a record's time on its thread is that call. Wait
// states, the critical path and causal repair all need the call's begin and
// end, not only the record's instant.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::time {

/// For records at (thread[i], time[i]) — e.g. the thread and time columns of
/// Trace::messages, Trace::collectives or Trace::rma — the row of the innermost
/// slice on that thread containing the time (begin <= t <= end): the call that
/// made the record. model::kNone where no slice contains it. One sweep per
/// thread over its slices and records; records need not be sorted.
std::vector<uint32_t> EnclosingSlices(const model::Trace& trace,
                                      const std::vector<uint32_t>& thread,
                                      const std::vector<int64_t>& time);

}  // namespace plx::time
