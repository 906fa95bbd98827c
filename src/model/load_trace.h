// LoadTrace: builds the columnar Trace model (model/trace.h) from an opened
// .plx file, merging definitions across processes and decoding every record.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "format/trace_file.h"
#include "model/clock_correction.h"
#include "model/def_merger.h"
#include "model/trace.h"

namespace plx {
class ThreadPool;
}

namespace plx::model {

class LoadCache;

struct LoadOptions {
  /// Called with (records decoded, records in the file) at most ~10 times a
  /// second while loading, and once more when done. May be empty.
  std::function<void(uint64_t done, uint64_t total)> progress;
  /// false: definitions, processes and threads only; thread record counts and
  /// time spans then come from the file's chunk index, and no record is decoded.
  bool events = true;
  /// Move each process's times onto the reference clock using its
  /// clock_offset measurements (Process::clock_offsets; see ClockCorrection).
  bool correct_clocks = true;
  /// Decodes only what is new since the last load through the same cache
  /// (load_cache.h; the live server's snapshots). May be null.
  LoadCache* cache = nullptr;
  /// Decodes threads in parallel on these workers (null: on the caller).
  /// The trace is the same either way; `progress` may then be called from
  /// any of them, one call at a time.
  ThreadPool* pool = nullptr;
};

/// The first half of a load: every process's definitions merged (with the
/// merger, which makes placeholders for ids used but not defined), threads
/// laid out with their record counts and spans from the file's chunk index,
/// each process's clock correction chosen. No record is decoded.
struct TraceDefinitions {
  TraceDefinitions() : merger(&trace) {}
  TraceDefinitions(const TraceDefinitions&) = delete;
  TraceDefinitions& operator=(const TraceDefinitions&) = delete;

  Trace trace;
  DefMerger merger;                          // merges into `trace`
  std::vector<ProcessIdMaps> maps;           // per process
  std::vector<ClockCorrection> corrections;  // per process (identity without correction)
};
std::unique_ptr<TraceDefinitions> LoadDefinitions(const format::TraceFile& file,
                                                  bool correct_clocks = true);

/// Sets Trace::begin_ns and end_ns from the spans of threads with records.
void SetTraceSpan(Trace* trace);

/// Loads the whole file. Damage (bad chunks, dangling ids, unmatched leaves)
/// is counted in Trace::stats and described in Trace::problems, never fatal.
StatusOr<Trace> LoadTrace(const format::TraceFile& file, const LoadOptions& options = {});

/// Adds a load problem line to `trace` (at most 50 are listed).
void AddLoadProblem(Trace* trace, std::string line);
/// The problem line for a chunk that failed to decode, as the trace lists it.
std::string DamagedChunkLine(const format::TraceFile& file, const Status& status,
                             bool records_delivered);

}  // namespace plx::model
