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
  ~CriticalPathFinder();
  bool OnPath(uint32_t thread) const { return on_path_[thread]; }
  ChunkVisitor* Visitor(size_t worker);
  analysis::CriticalPath Finish();

 private:
  class PathVisitor;
  std::vector<analysis::PathSegment> segments_;
  std::vector<bool> on_path_;
  std::vector<std::unique_ptr<PathVisitor>> visitors_;
};

/// `ends`: every thread's wait ends (StreamWaits with wait_ends). With `maps`
/// (per thread), on the repaired times; `trace` is then the definitions with
/// the repaired thread spans.
analysis::CriticalPath StreamCriticalPath(
    const TraceStore& store, const analysis::ThreadWaitEnds& ends,
    const std::function<void(uint64_t, uint64_t)>& progress = {},
    const std::vector<time::ThreadTimeMap>* maps = nullptr, const model::Trace* trace = nullptr);

}  // namespace plx::store
