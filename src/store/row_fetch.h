// FetchRows: single rows of the model by their global row numbers, for the
// few records an answer names (the largest repairs, a clicked slice),
// decoded from the chunks that hold them, each such chunk once.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/trace.h"
#include "store/skeleton.h"
#include "store/trace_store.h"

namespace plx::store {

/// Where a global row of a table is: its thread, the chunk that holds it,
/// and its position among that chunk's own rows.
struct RowPlace {
  uint32_t thread = 0;
  size_t chunk = 0;
  uint64_t in_chunk = 0;
};
/// Nothing for a row past the table's end.
std::optional<RowPlace> PlaceRow(const TraceStore& store, TableIndex table, uint64_t row);

/// A trace whose table `table` holds the rows asked for, in the order
/// asked (a row past the table's end gives a default row); the other tables
/// are empty. Times are those of the loader (before any repair).
model::Trace FetchRows(const TraceStore& store, TableIndex table,
                       const std::vector<uint64_t>& rows);

}  // namespace plx::store
