// LoadCache: what LoadTrace decoded the last time, per thread, so that
// loading a file that only grew — the live server's next snapshot of its
// history window — decodes only the chunks that are new.
//
// Each thread keeps its own rows (one Trace with that thread only), its
// loader's position, and, before each decoded chunk, a mark (every table's
// row count, the loader's position) to go back to. A load compares the
// thread's chunks with those it decoded: the common prefix stays, unless the
// process's tick clock changed under it (new sync pairs change the ns of ticks
// past the last one), its id maps or its clock correction changed, or
// decoding met damage or undefined ids; then the thread goes back to the last
// mark before the change, or decodes again from its first chunk. The
// thread's rows are then appended to the trace, with the thread's number, and
// the slices still open are closed on that copy as EndThread would.
//
// The result is the trace LoadTrace would build without the cache (a test
// compares them on every step of a growing file). The cost: the decoded
// window is kept twice, once here and once in the trace.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "format/trace_file.h"
#include "model/clock_correction.h"
#include "model/def_merger.h"
#include "model/trace.h"

namespace plx::model {

class LoadCache {
 public:
  LoadCache();
  ~LoadCache();
  LoadCache(const LoadCache&) = delete;
  LoadCache& operator=(const LoadCache&) = delete;

  /// What the loads so far did, summed.
  struct Counters {
    uint64_t chunks_decoded = 0;
    uint64_t chunks_kept = 0;       // decoded before and reused
    uint64_t chunks_redecoded = 0;  // decoded before, then dropped by a change
  };
  const Counters& counters() const { return counters_; }

  /// LoadTrace's record pass through the cache: decodes what is new of every
  /// thread of `trace` (laid out, with its definitions merged) and appends
  /// all threads' rows. `maps` and `corrections` are per process.
  void LoadEvents(const format::TraceFile& file, const std::vector<ProcessIdMaps>& maps,
                  const std::vector<ClockCorrection>& corrections, DefMerger* merger, Trace* trace,
                  const std::function<void(uint64_t, uint64_t)>& progress);

 private:
  struct Part;

  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<Part>> parts_;  // (file process, stream)
  Counters counters_;
};

}  // namespace plx::model
