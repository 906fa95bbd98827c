// How --json output names things every command mentions, so the commands agree.
// Include only where nlohmann/json is used anyway (it is heavy to compile).
#pragma once

#include <nlohmann/json.hpp>

#include "model/trace.h"

namespace plx::cli {

/// {"process": file id, "rank", "pid", "host"} of a process.
nlohmann::ordered_json ProcessIdentity(const model::Process& p);

/// {"clock_offset_ns", "clock_drift_ppm", "clock_offsets": [{ns, offset_ns,
/// error_ns}]}: the correction the loader applied to a process's times and
/// the measurements it came from.
nlohmann::ordered_json ProcessClock(const model::Process& p);

/// {"process": file id, "stream", "tid", "name"} of a thread.
nlohmann::ordered_json ThreadIdentity(const model::Trace& trace, const model::Thread& th);

}  // namespace plx::cli
