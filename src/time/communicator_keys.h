// What makes records of different processes refer to the same communicator,
// and which process a world rank is: shared by message and collective
// matching.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace plx::time {

enum class CommKeyClass : uint64_t { kGlobal = 1, kNamed = 2 };

/// Per Trace::communicators row, its identity across processes: the global id
/// (MPI), else its name (plx_comm_define, the built-in "world") numbered in
/// order of first appearance.
std::vector<std::pair<CommKeyClass, uint64_t>> CommunicatorKeys(const model::Trace& trace);

/// The process index of each world rank; a process without a rank answers to
/// its index.
std::unordered_map<int64_t, uint32_t> ProcessesByRank(const model::Trace& trace);

}  // namespace plx::time
