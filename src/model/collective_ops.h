// The names of the collective operations a collective record's `op`
// numbers (docs/format-records.md): what every command, table and export
// calls them.
#pragma once

#include <cstdint>
#include <iterator>
#include <string_view>

namespace plx::model {

/// "barrier", "bcast", ..., "other" for ops 1..13 (the loader keeps every
/// collective's op in that range); "" for any other number.
inline std::string_view CollectiveOpName(uint8_t op) {
  static constexpr std::string_view kNames[] = {
      "",       "barrier",   "bcast",          "gather", "scatter", "allgather", "alltoall",
      "reduce", "allreduce", "reduce_scatter", "scan",   "exscan",  "neighbor",  "other"};
  return op < std::size(kNames) ? kNames[op] : std::string_view();
}

}  // namespace plx::model
