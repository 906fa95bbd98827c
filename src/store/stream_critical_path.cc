// StreamCriticalPath: each worker sweeps the threads it is given; a thread's
// chunks stop being decoded once past its last segment.
#include "store/stream_critical_path.h"

#include <memory>

#include "store/thread_pass.h"

namespace plx::store {

namespace {

class PathVisitor : public ChunkVisitor {
 public:
  explicit PathVisitor(std::unique_ptr<analysis::PathStateTimes> t) : times(std::move(t)) {}
  void Chunk(const ChunkRows& rows, const TimeMapper*) override {
    const model::SliceTable& s = rows.tables->slices;
    times->AddSlices(rows.thread, s, rows.carried, s.size());
  }
  void EndThread(uint32_t thread) override { times->EndThread(thread); }
  std::unique_ptr<analysis::PathStateTimes> times;
};

}  // namespace

analysis::CriticalPath StreamCriticalPath(const TraceStore& store,
                                          const analysis::ThreadWaitEnds& ends,
                                          const std::function<void(uint64_t, uint64_t)>& progress,
                                          const std::vector<time::ThreadTimeMap>* maps,
                                          const model::Trace* repaired) {
  const model::Trace& trace = repaired != nullptr ? *repaired : store.trace();
  const std::vector<analysis::PathSegment> segments = analysis::WalkCriticalPath(trace, ends);
  std::vector<bool> on_path(store.threads(), false);
  for (const analysis::PathSegment& s : segments)
    on_path[s.thread] = true;
  std::vector<PathVisitor> visitors = RunThreadPass<PathVisitor>(
      store,
      [&] { return PathVisitor(std::make_unique<analysis::PathStateTimes>(trace, segments)); },
      [&] {
        ThreadPassOptions options = WithProgress(progress, maps);
        options.only = [&](uint32_t t) { return on_path[t]; };
        return options;
      }());
  for (size_t w = 1; w < visitors.size(); ++w)
    visitors[0].times->Merge(*visitors[w].times);
  return visitors[0].times->Finish();
}

}  // namespace plx::store
