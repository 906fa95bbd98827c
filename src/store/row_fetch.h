// FetchRows: single rows of the model by their global row numbers, for the
// few records an answer names (the largest repairs, a clicked slice),
// decoded from the chunks that hold them, each such chunk once.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"
#include "store/skeleton.h"
#include "store/trace_store.h"

namespace plx::store {

/// A trace whose table `table` holds the rows asked for, in the order
/// asked (a row past the table's end gives a default row); the other tables
/// are empty. Times are those of the loader (before any repair).
model::Trace FetchRows(const TraceStore& store, TableIndex table,
                       const std::vector<uint64_t>& rows);

}  // namespace plx::store
