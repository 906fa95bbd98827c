// Chrome Trace Event JSON (about:tracing, Perfetto, speedscope): streamed
// import of both the array and the {"traceEvents": [...]} forms, and export
// Perfetto loads, messages as flow events. See docs/interop.md.
#pragma once

#include <string>

#include "base/status.h"
#include "interop/trace_builder.h"
#include "model/trace.h"

namespace plx::interop {

/// Reads the JSON trace `path` into `out`, without holding the file in memory.
Status ImportChromeJson(const std::string& path, TraceBuilder& out, const Progress& progress = {});

/// Writes `trace` as Chrome Trace Event JSON to `path`.
Status ExportChromeJson(const model::Trace& trace, const std::string& path,
                        const Progress& progress = {});

}  // namespace plx::interop
