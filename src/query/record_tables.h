// The tables of records read from the trace file chunk by chunk: slices,
// instants, counter_samples and collectives (schema.h).
#pragma once

#include <memory>
#include <vector>

#include "query/trace_context.h"
#include "query/vtab.h"

namespace plx::query {

std::vector<std::unique_ptr<VirtualTable>> RecordTables(const TraceContext& context);
/// The slices table alone (slice_table.cc).
std::unique_ptr<VirtualTable> MakeSliceTable(const TraceContext& context);

}  // namespace plx::query
