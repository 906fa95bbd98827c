// PICL / ParaGraph ASCII trace files: import and export, with the
// per-process sequence numbers Viper relied on. See docs/interop.md.
#pragma once

#include <string>

#include "base/status.h"
#include "interop/trace_builder.h"
#include "model/trace.h"

namespace plx::interop {

/// Reads the PICL trace `path` into `out`.
Status ImportPicl(const std::string& path, TraceBuilder& out, const Progress& progress = {});

/// Writes `trace` as a PICL trace to `path`.
Status ExportPicl(const model::Trace& trace, const std::string& path,
                  const Progress& progress = {});

}  // namespace plx::interop
