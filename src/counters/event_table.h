// The perf events PLX_COUNTERS may name: perf's generic hardware, cache and
// software event names ("cycles", "L1-dcache-load-misses", "page-faults", …)
// and raw PMU codes ("r01c2"), mapped to perf_event_attr type and config.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plx::counters {

struct EventSpec {
  std::string name;  // as the user wrote it (the counter's name in the trace)
  uint32_t type;     // PERF_TYPE_*
  uint64_t config;
  bool is_time;  // task-clock / cpu-clock: counts nanoseconds
};

/// The events of a PLX_COUNTERS value: comma-separated names; "default" is
/// cycles,instructions,cache-misses. Unknown names are left out with one
/// line each in `errors`; a name given twice is kept once.
std::vector<EventSpec> ParseEventList(std::string_view list, std::vector<std::string>* errors);

/// The task-clock event (the periodic sampling leader).
EventSpec TaskClock();

/// The names ParseEventList knows, for messages and docs, comma-separated.
std::string KnownEventNames();

}  // namespace plx::counters
