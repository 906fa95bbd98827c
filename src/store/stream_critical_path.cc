// StreamCriticalPath: each worker sweeps the threads it is given; a thread's
// slices stop being looked at once past its last segment.
#include "store/stream_critical_path.h"

namespace plx::store {

class CriticalPathFinder::PathVisitor : public ChunkVisitor {
 public:
  PathVisitor(const model::Trace& trace, const std::vector<analysis::PathSegment>& segments)
      : times(trace, segments) {}
  // Threads off the path have no segments: PathStateTimes skips them.
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    const model::SliceTable& s = rows.tables->slices;
    times.AddSlices(rows.thread, s, rows.carried, s.size());
  }
  void EndThread(uint32_t thread) override { times.EndThread(thread); }
  analysis::PathStateTimes times;
};

CriticalPathFinder::CriticalPathFinder(const TraceStore& store,
                                       const analysis::ThreadWaitEnds& ends,
                                       const model::Trace& trace)
    : segments_(analysis::WalkCriticalPath(trace, ends)), on_path_(store.threads(), false) {
  for (const analysis::PathSegment& s : segments_)
    on_path_[s.thread] = true;
  for (size_t w = 0; w < store.pool()->size(); ++w)
    visitors_.push_back(std::make_unique<PathVisitor>(trace, segments_));
}

CriticalPathFinder::~CriticalPathFinder() = default;

ChunkVisitor* CriticalPathFinder::Visitor(size_t worker) {
  return visitors_[worker].get();
}

analysis::CriticalPath CriticalPathFinder::Finish() {
  for (size_t w = 1; w < visitors_.size(); ++w)
    visitors_[0]->times.Merge(visitors_[w]->times);
  return visitors_[0]->times.Finish();
}

analysis::CriticalPath StreamCriticalPath(const TraceStore& store,
                                          const analysis::ThreadWaitEnds& ends,
                                          const std::function<void(uint64_t, uint64_t)>& progress,
                                          const std::vector<time::ThreadTimeMap>* maps,
                                          const model::Trace* repaired) {
  CriticalPathFinder finder(store, ends, repaired != nullptr ? *repaired : store.trace());
  std::vector<ChunkVisitor*> visitors;
  for (size_t w = 0; w < store.pool()->size(); ++w)
    visitors.push_back(finder.Visitor(w));
  ThreadPassOptions options = WithProgress(progress, maps);
  options.only = [&](uint32_t t) { return finder.OnPath(t); };
  RunThreadPass(store, visitors, options);
  return finder.Finish();
}

}  // namespace plx::store
