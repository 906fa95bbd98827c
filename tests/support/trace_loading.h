// Loading a trace file into the model for a test: a test failure (and an
// empty trace) when it does not open or load.
#pragma once

#include <string>

#include "model/trace.h"

namespace plx::testing {

/// The .plx file at `path` in the model; on failure an empty trace and a
/// failed expectation naming why.
model::Trace LoadTraceFile(const std::string& path);

}  // namespace plx::testing
