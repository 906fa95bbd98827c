// ThreadSource: what decoding one thread of a trace file needs — its chunks,
// its process's id maps, tick clock and clock correction — gathered once by
// the trace store for every thread.
#pragma once

#include <cstdint>

#include "format/trace_file.h"
#include "model/clock_correction.h"
#include "model/def_merger.h"

namespace plx::store {

struct ThreadSource {
  const format::TraceFile* file = nullptr;
  uint32_t thread = 0;                         // index into the trace's threads
  uint32_t process = 0;                        // index into the trace's processes
  const format::StreamInfo* stream = nullptr;  // null: the thread has no records
  const model::ProcessIdMaps* maps = nullptr;  // of its process
  const format::TickClock* clock = nullptr;    // of its process
  const model::ClockCorrection* correction = nullptr;
};

}  // namespace plx::store
