// StreamCriticalPath: each worker sweeps the threads it is given; a thread's
// slices stop being looked at once past its last segment.
#include "store/stream_critical_path.h"

#include <string>
#include <utility>

#include "base/wire.h"

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
  bool SlicesOnly() const override { return true; }
  analysis::PathStateTimes times;
};

CriticalPathFinder::CriticalPathFinder(const TraceStore& store,
                                       const analysis::ThreadWaitEnds& ends,
                                       const model::Trace& trace)
    : CriticalPathFinder(store, analysis::WalkCriticalPath(trace, ends), trace) {}

CriticalPathFinder::CriticalPathFinder(const TraceStore& store,
                                       std::vector<analysis::PathSegment> segments,
                                       const model::Trace& trace)
    : segments_(std::move(segments)), on_path_(store.threads(), false) {
  for (const analysis::PathSegment& s : segments_)
    on_path_[s.thread] = true;
  for (size_t w = 0; w < store.pool()->size(); ++w)
    visitors_.push_back(std::make_unique<PathVisitor>(trace, segments_));
}

CriticalPathFinder::~CriticalPathFinder() = default;

ChunkVisitor* CriticalPathFinder::Visitor(size_t worker) {
  return visitors_[worker].get();
}

analysis::PathStateTimes& CriticalPathFinder::Times() {
  if (!merged_)
    for (size_t w = 1; w < visitors_.size(); ++w)
      visitors_[0]->times.Merge(visitors_[w]->times);
  merged_ = true;
  return visitors_[0]->times;
}

analysis::CriticalPath CriticalPathFinder::Finish() {
  return Times().Finish();
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

bool ShareCriticalPath(const TraceStore& store, PassSpread& spread,
                       const analysis::ThreadWaitEnds& ends, const model::Trace& trace,
                       std::vector<analysis::PathSegment>* segments) {
  const auto n = static_cast<size_t>(spread.size());
  std::vector<std::string> to(n);
  if (spread.rank() == 0) {
    std::string path;
    WirePutAll(&path, analysis::WalkCriticalPath(trace, ends));
    to.assign(n, path);
  }
  const std::vector<std::string> from = spread.Exchange(std::move(to));
  segments->clear();
  WireReader in(from[0]);
  bool ok = in.GetAll(segments) && in.done();
  for (const analysis::PathSegment& s : *segments)
    ok &= s.thread < store.threads();
  if (!ok) segments->clear();
  return ok;
}

Status MergePathTimes(PassSpread& spread, CriticalPathFinder* finder) {
  const std::vector<std::string> from = GatherOnFirst(spread, finder->Times().Save());
  for (size_t r = 1; r < from.size(); ++r) {
    const Status merged = finder->Times().MergeSaved(from[r]);
    if (!merged.ok()) return Internal("process " + std::to_string(r) + ": " + merged.message());
  }
  return Status::Ok();
}

StatusOr<analysis::CriticalPath> StreamCriticalPathSpread(
    const TraceStore& store, PassSpread& spread, const analysis::ThreadWaitEnds& ends,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  const model::Trace& trace = store.trace();
  std::vector<analysis::PathSegment> segments;
  // Cut: this process still takes part in the last step.
  const bool ok = ShareCriticalPath(store, spread, ends, trace, &segments);
  CriticalPathFinder finder(store, std::move(segments), trace);
  std::vector<ChunkVisitor*> visitors;
  for (size_t w = 0; w < store.pool()->size(); ++w)
    visitors.push_back(finder.Visitor(w));
  ThreadPassOptions options = WithProgress(progress);
  options.only = [&](uint32_t t) { return finder.OnPath(t) && spread.Decodes(t); };
  RunThreadPass(store, visitors, options);
  const Status merged = MergePathTimes(spread, &finder);
  if (!ok) return Internal("the critical path process 0 sent is cut");
  PLX_RETURN_IF_ERROR(merged);
  if (spread.rank() != 0) return analysis::CriticalPath{};
  return finder.Finish();
}

}  // namespace plx::store
