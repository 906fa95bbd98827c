// Paje trace files (ViTE, PajeNG): export and import of containers, states,
// links, variables and events. See docs/interop.md.
#pragma once

#include <string>

#include "base/status.h"
#include "interop/trace_builder.h"
#include "model/trace.h"

namespace plx::interop {

/// Reads the Paje file `path` into `out`.
Status ImportPaje(const std::string& path, TraceBuilder& out, const Progress& progress = {});

/// Writes `trace` as a Paje file to `path`.
Status ExportPaje(const model::Trace& trace, const std::string& path,
                  const Progress& progress = {});

}  // namespace plx::interop
