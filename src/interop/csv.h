// CSV export of states, messages and counters, for spreadsheets and pandas.
// See docs/interop.md.
#pragma once

#include <string>

#include "base/status.h"
#include "interop/trace_builder.h"
#include "model/trace.h"

namespace plx::interop {

/// Writes `trace` as CSV files beside `path` (NAME.csv): NAME.states.csv,
/// NAME.messages.csv and NAME.counters.csv.
Status ExportCsv(const model::Trace& trace, const std::string& path, const Progress& progress = {});

}  // namespace plx::interop
