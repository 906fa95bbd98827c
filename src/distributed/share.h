// Which threads (streams) each process of a Group analyses: contiguous runs
// of the trace's threads in index order, cut where the running record count
// crosses each process's equal share (a thread is never split; a process
// may get none when there are fewer threads than processes).
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::distributed {

/// The first thread of each process and, last, the thread count: process r
/// owns threads [first[r], first[r + 1]).
std::vector<uint32_t> ShareThreads(const model::Trace& trace, int processes);

/// Process `rank`'s threads of ShareThreads.
struct ThreadShare {
  uint32_t begin = 0, end = 0;
  bool Has(uint32_t thread) const { return thread >= begin && thread < end; }
};
ThreadShare ShareOf(const model::Trace& trace, int rank, int processes);

}  // namespace plx::distributed
