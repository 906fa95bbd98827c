// The demo trace the benchmarks measure: examples/thread_farm traced with the
// default settings, with enough jobs for stable numbers. PLX_BENCH_TRACE=FILE
// measures another trace instead.
#pragma once

#include <string>

#include "format/trace_file.h"

namespace plx::bench {

/// Path of the demo trace, recording it first when it does not exist.
std::string DemoTracePath();

/// The demo trace, opened once (exits with a message when it cannot be read).
const format::TraceFile& DemoTrace();

}  // namespace plx::bench
