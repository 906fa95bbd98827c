// RunThreadPass: the biggest threads first (by records), so the last
// worker to finish is not left with the longest one.
#include "store/thread_pass.h"

#include <algorithm>
#include <optional>

#include "base/shared_progress.h"

namespace plx::store {

void AddTimeMapStats(time::TimeMapStats* a, const time::TimeMapStats& b) {
  a->events_moved += b.events_moved;
  a->max_shift_ns = std::max(a->max_shift_ns, b.max_shift_ns);
  a->max_duration_change_ns = std::max(a->max_duration_change_ns, b.max_duration_change_ns);
  a->max_relative_change = std::max(a->max_relative_change, b.max_relative_change);
}

void RunThreadPass(const TraceStore& store, const std::vector<ChunkVisitor*>& visitors,
                   const ThreadPassOptions& options) {
  std::vector<uint32_t> order;
  for (uint32_t t = 0; t < store.threads(); ++t)
    if (!options.only || options.only(t)) order.push_back(t);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return store.skeleton(a).records > store.skeleton(b).records;
  });
  std::vector<ChunkDecoder> decoders(visitors.size());
  const bool slices_only = options.moved == nullptr &&
                           std::all_of(visitors.begin(), visitors.end(),
                                       [](const ChunkVisitor* v) { return v->SlicesOnly(); });
  for (ChunkDecoder& d : decoders)
    d.set_slices_only(slices_only);
  std::vector<model::UndefinedLog> logs;
  for (size_t i = 0; i < visitors.size(); ++i)
    logs.emplace_back(&store.undefined());
  std::vector<time::TimeMapStats> moved(visitors.size());
  SharedProgress shared(options.progress, store.file().total_records());
  store.pool()->ParallelFor(order.size(), [&](size_t i, size_t w) {
    const uint32_t t = order[i];
    ChunkVisitor& v = *visitors[w];
    const ThreadSkeleton& skeleton = store.skeleton(t);
    std::optional<TimeMapper> mapper;
    if (options.maps != nullptr) mapper.emplace(&(*options.maps)[t]);
    v.BeginThread(t);
    // Records never go back in time within a thread: a chunk whose record
    // before it is past until_ns holds nothing that begins by then.
    const bool unmoved = !mapper || (*options.maps)[t].is_identity();
    for (size_t c = 0; c < skeleton.chunks.size(); ++c) {
      if (unmoved && c > 0 && skeleton.chunks[c].last_ns > options.until_ns) break;
      const ChunkRows& rows =
          decoders[w].Decode(store.source(t), skeleton, c, store.thread_first(t), &logs[w]);
      if (mapper) mapper->Map(rows, decoders[w].mutable_tables(), &moved[w]);
      v.Chunk(rows, mapper ? &*mapper : nullptr);
      const format::ChunkInfo& chunk = store.file().event_chunks()[skeleton.chunks[c].file_chunk];
      shared.Add(chunk.header.record_count);
    }
    if (mapper) {
      std::vector<uint64_t> rows;
      const model::SliceTable& longs = mapper->LongSlices(&rows);
      v.LongSlices(t, longs, rows);
    }
    v.EndThread(t);
  });
  shared.Finish();
  if (options.moved != nullptr)
    for (const time::TimeMapStats& m : moved)
      AddTimeMapStats(options.moved, m);
}

}  // namespace plx::store
