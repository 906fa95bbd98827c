// The tables made once and kept: the definitions (threads, processes,
// states, callsites, counters) and the analyses' results (messages,
// wait_states, critical_path, anomalies), each made the first time a
// statement reads it (schema.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "query/trace_context.h"
#include "query/vtab.h"

namespace plx::query {

/// Progress of a pass a table is made by: (what, done, total).
using Progress = std::function<void(const char* what, uint64_t done, uint64_t total)>;

std::vector<std::unique_ptr<VirtualTable>> ResultTables(const TraceContext& context,
                                                        Progress progress);

}  // namespace plx::query
