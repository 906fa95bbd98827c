// ThreadRows: one thread's records decoded on their own (thread column 0),
// before they are appended to a trace in thread order. The parallel loader
// decodes every thread into one at once; the live load cache keeps one per
// thread between loads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "model/stream_loader.h"
#include "model/trace.h"

namespace plx::model {

struct ThreadRows {
  Trace rows;                         // tables, texts and counters of this thread only
  StreamLoader::Position at;          // the loader's, after the last decoded chunk
  std::vector<std::string> problems;  // damaged chunks, in order
  uint64_t damaged = 0;
};

/// Decodes one chunk through `loader` (begun or resumed on this thread,
/// appending to out->rows). Damage is counted and described in `out`, never
/// fatal: the records before it stay.
void DecodeThreadChunk(const format::TraceFile& file, const format::ChunkInfo& chunk,
                       StreamLoader* loader, std::vector<uint8_t>* scratch, ThreadRows* out);

/// Reserves the trace's tables for every part's rows, then appends them in
/// order as threads 0, 1, ...: rows, texts, counters and problems, with the
/// slices still open closed as EndThread would, and each Thread's record
/// count and span. Returns the records appended. With `release`, each part's
/// rows are freed once copied, so that the copy never holds the trace twice.
uint64_t AppendThreadRows(const std::vector<ThreadRows*>& parts, Trace* trace,
                          bool release = false);

}  // namespace plx::model
