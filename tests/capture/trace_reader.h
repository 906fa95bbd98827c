// Reads a .plx file back for the capture tests: every record in canonical form
// (definitions resolved to names), stream by stream, with its time in ns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "capture/stress_pattern.h"
#include "format/trace_file.h"

namespace plx::testing {

struct RecordContext {
  const format::StreamInfo* stream;
  std::string_view thread_name;
  int64_t ns;
  uint64_t tick;
};

using RecordFn = std::function<void(const RecordContext&, const Canon&)>;

/// Calls fn for each record of each stream, in order. Fails on damaged chunks.
Status VisitRecords(const format::TraceFile& file, const RecordFn& fn);

}  // namespace plx::testing
