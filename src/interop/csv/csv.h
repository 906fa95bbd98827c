// CSV export of states, messages and counters, for spreadsheets and pandas.
// See docs/interop.md.
#pragma once

#include <string>

#include "base/status.h"
#include "interop/trace_builder.h"
#include "model/trace.h"

namespace plx::interop {

/// "NAME.csv" → "NAME.<table>.csv" (any other name just gets ".<table>.csv").
std::string CsvTablePath(const std::string& path, const char* table);

/// Writes `trace` as CSV files beside `path` (NAME.csv): NAME.states.csv,
/// NAME.messages.csv and NAME.counters.csv.
Status ExportCsv(const model::Trace& trace, const std::string& path, const Progress& progress = {});

}  // namespace plx::interop
