// OTF2 (Score-P's Open Trace Format 2) archives, read and written with the
// OTF2 library: regions, enter/leave, MPI point-to-point and collectives, RMA,
// metrics, locations and location groups. See docs/interop.md.
#pragma once

#include <string>

#include "base/status.h"
#include "interop/trace_builder.h"
#include "model/trace.h"

namespace plx::interop {

/// Reads the archive whose anchor file (NAME.otf2) is `anchor` into `out`.
Status ImportOtf2(const std::string& anchor, TraceBuilder& out, const Progress& progress = {});

/// Writes `trace` as an OTF2 archive with anchor file `anchor` (NAME.otf2;
/// the event and definition files go to the directory NAME beside it).
Status ExportOtf2(const model::Trace& trace, const std::string& anchor,
                  const Progress& progress = {});

}  // namespace plx::interop
