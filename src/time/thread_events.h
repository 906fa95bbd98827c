// Each thread's events as one ordered list — slice begins and ends properly
// nested, message and collective records between them — the sequence logical
// clocks count and walk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::time {

/// Each thread's events in the order the clocks count them: slices properly
/// nested, a record after the begins and before the ends at its own time.
struct ThreadEvents {
  enum class Type : uint8_t { kSliceBegin, kSliceEnd, kMessage, kCollective };
  std::vector<uint32_t> first;  // thread t: events [first[t], first[t+1])
  std::vector<Type> type;
  std::vector<uint32_t> row;  // row of Trace::slices, messages or collectives
  std::vector<int64_t> time;  // non-decreasing per thread
  size_t size() const { return row.size(); }
};

/// The events of every thread. A record goes after the slice begins and before
/// the slice ends at its own time (a send lies inside its call).
ThreadEvents BuildThreadEvents(const model::Trace& trace);

}  // namespace plx::time
