// RunThreadPass: the biggest threads first (by records), so the last
// worker to finish is not left with the longest one.
#include "store/thread_pass.h"

#include <algorithm>

#include "base/shared_progress.h"

namespace plx::store {

void RunThreadPass(const TraceStore& store, const std::vector<ChunkVisitor*>& visitors,
                   const std::function<void(uint64_t, uint64_t)>& progress,
                   const std::function<bool(uint32_t thread)>& only) {
  std::vector<uint32_t> order;
  for (uint32_t t = 0; t < store.threads(); ++t)
    if (!only || only(t)) order.push_back(t);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return store.skeleton(a).records > store.skeleton(b).records;
  });
  std::vector<ChunkDecoder> decoders(visitors.size());
  std::vector<model::UndefinedLog> logs;
  for (size_t i = 0; i < visitors.size(); ++i)
    logs.emplace_back(&store.undefined());
  SharedProgress shared(progress, store.file().total_records());
  store.pool()->ParallelFor(order.size(), [&](size_t i, size_t w) {
    const uint32_t t = order[i];
    ChunkVisitor& v = *visitors[w];
    const ThreadSkeleton& skeleton = store.skeleton(t);
    v.BeginThread(t);
    for (size_t c = 0; c < skeleton.chunks.size(); ++c) {
      const ChunkRows& rows =
          decoders[w].Decode(store.source(t), skeleton, c, store.thread_first(t), &logs[w]);
      v.Chunk(rows);
      const format::ChunkInfo& chunk = store.file().event_chunks()[skeleton.chunks[c].file_chunk];
      shared.Add(chunk.header.record_count);
    }
    v.EndThread(t);
  });
  shared.Finish();
}

}  // namespace plx::store
