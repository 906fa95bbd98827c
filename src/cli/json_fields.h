// How --json output names things every command mentions, so the commands agree.
// Include only where nlohmann/json is used anyway (it is heavy to compile).
#pragma once

#include <nlohmann/json.hpp>

#include "model/trace.h"

namespace plx::cli {

/// {"process": file id, "rank", "pid", "host"} of a process.
nlohmann::ordered_json ProcessIdentity(const model::Process& p);

/// {"process": file id, "stream", "tid", "name"} of a thread.
nlohmann::ordered_json ThreadIdentity(const model::Trace& trace, const model::Thread& th);

}  // namespace plx::cli
