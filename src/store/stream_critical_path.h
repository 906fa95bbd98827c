// The critical path over a trace store (analysis::ComputeCriticalPath): the
// backward walk over the waits' ends (StreamWaits with wait_ends), then a
// thread pass over the threads on the path that splits its segments by the
// innermost state.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/critical_path.h"
#include "base/status.h"
#include "store/message_pass.h"
#include "store/thread_pass.h"
#include "store/trace_store.h"
#include "time/time_map.h"

namespace plx::store {

/// The walk and the pass apart, so that the pass can share a thread pass
/// with other analyses: make the finder (it walks), run Visitor(w) as
/// worker w's visitor of a thread pass over the threads it is OnPath for
/// (others pass through untouched), then Finish.
class CriticalPathFinder {
 public:
  /// `ends`: every thread's wait ends (not needed after this returns).
  /// `trace` as StreamCriticalPath's.
  CriticalPathFinder(const TraceStore& store, const analysis::ThreadWaitEnds& ends,
                     const model::Trace& trace);
  /// The path walked elsewhere (the segments of WalkCriticalPath).
  CriticalPathFinder(const TraceStore& store, std::vector<analysis::PathSegment> segments,
                     const model::Trace& trace);
  ~CriticalPathFinder();
  bool OnPath(uint32_t thread) const { return on_path_[thread]; }
  ChunkVisitor* Visitor(size_t worker);
  /// The workers' times, merged (once the pass is done).
  analysis::PathStateTimes& Times();
  analysis::CriticalPath Finish();

 private:
  class PathVisitor;
  std::vector<analysis::PathSegment> segments_;
  std::vector<bool> on_path_;
  std::vector<std::unique_ptr<PathVisitor>> visitors_;
  bool merged_ = false;
};

/// `ends`: every thread's wait ends (StreamWaits with wait_ends). With `maps`
/// (per thread), on the repaired times; `trace` is then the definitions with
/// the repaired thread spans.
analysis::CriticalPath StreamCriticalPath(
    const TraceStore& store, const analysis::ThreadWaitEnds& ends,
    const std::function<void(uint64_t, uint64_t)>& progress = {},
    const std::vector<time::ThreadTimeMap>* maps = nullptr, const model::Trace* trace = nullptr);

/// Spread: process 0 walks over `ends` (the others' are empty) on `trace`
/// and every process gets the path's segments (24 bytes each); false when
/// they came cut (then none).
bool ShareCriticalPath(const TraceStore& store, PassSpread& spread,
                       const analysis::ThreadWaitEnds& ends, const model::Trace& trace,
                       std::vector<analysis::PathSegment>* segments);
/// Spread: every process's Times() of the path (its threads swept) merged
/// on process 0.
Status MergePathTimes(PassSpread& spread, CriticalPathFinder* finder);

/// Spread over the processes of an MPI job
/// (distributed/spread_critical_path.h): process 0, which has every wait
/// end (`ends`; StreamWaitsSpread with wait_ends), walks and hands every
/// process the path; each passes over its threads on it; their times go
/// to process 0, which has the answer (elsewhere it is empty). An error
/// when some process's bytes came cut.
StatusOr<analysis::CriticalPath> StreamCriticalPathSpread(
    const TraceStore& store, PassSpread& spread, const analysis::ThreadWaitEnds& ends,
    const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace plx::store
