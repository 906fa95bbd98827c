// RunLockstep: slabs of equal time, sized from the trace's mean record rate.
#include "store/lockstep.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "base/shared_progress.h"
#include "store/chunk_decoder.h"
#include "store/side_extractor.h"
#include "store/time_mapper.h"

namespace plx::store {

namespace {

struct ThreadCursor {
  SideExtractor sides;
  size_t next_chunk = 0;
  bool finished = false;
  std::optional<TimeMapper> mapper;
};

}  // namespace

void RunLockstep(const TraceStore& store, uint64_t slab_records,
                 const std::function<void(const Slab&)>& consume,
                 const std::function<void(uint64_t, uint64_t)>& progress,
                 const std::vector<time::ThreadTimeMap>* maps) {
  const model::Trace& trace = store.trace();
  const uint32_t threads = store.threads();
  const uint64_t records = std::max<uint64_t>(store.file().total_records(), 1);
  const int64_t span = std::max<int64_t>(trace.end_ns - trace.begin_ns, 1);
  const int64_t step = std::max<int64_t>(
      1, static_cast<int64_t>(static_cast<double>(span) * static_cast<double>(slab_records) /
                              static_cast<double>(records)));

  std::vector<ThreadCursor> cursors(threads);
  if (maps != nullptr)
    for (uint32_t t = 0; t < threads; ++t)
      cursors[t].mapper.emplace(&(*maps)[t]);
  std::vector<time::TimeMapStats> moved(store.pool()->size());
  std::vector<ChunkDecoder> decoders(store.pool()->size());
  std::vector<model::UndefinedLog> logs;
  for (size_t i = 0; i < decoders.size(); ++i)
    logs.emplace_back(&store.undefined());
  SharedProgress shared(progress, store.file().total_records());

  Slab slab;
  slab.messages.resize(threads);
  slab.collectives.resize(threads);
  slab.posts.resize(threads);
  for (int64_t from = trace.begin_ns;;) {
    const bool last =
        from > std::numeric_limits<int64_t>::max() - step || from + step > trace.end_ns;
    slab.until = last ? std::numeric_limits<int64_t>::max() : from + step;
    store.pool()->ParallelFor(threads, [&](size_t t, size_t w) {
      ThreadCursor& c = cursors[t];
      const ThreadSkeleton& skeleton = store.skeleton(static_cast<uint32_t>(t));
      // Decode until a record at or after the slab's end has been seen.
      while (!c.finished && (last || c.sides.last_time() < slab.until)) {
        if (c.next_chunk == skeleton.chunks.size()) {
          c.sides.Finish();
          c.finished = true;
          break;
        }
        const ChunkRows& rows =
            decoders[w].Decode(store.source(static_cast<uint32_t>(t)), skeleton, c.next_chunk,
                               store.thread_first(static_cast<uint32_t>(t)), &logs[w]);
        if (c.mapper) c.mapper->Map(rows, decoders[w].mutable_tables(), &moved[w]);
        c.sides.Add(rows);
        shared.Add(store.file()
                       .event_chunks()[skeleton.chunks[c.next_chunk].file_chunk]
                       .header.record_count);
        ++c.next_chunk;
      }
      slab.messages[t].clear();
      slab.collectives[t].clear();
      slab.posts[t].clear();
      c.sides.Take(slab.until, &slab.messages[t], &slab.collectives[t], &slab.posts[t]);
    });
    consume(slab);
    if (last) break;
    from = slab.until;
  }
  shared.Finish();
}

}  // namespace plx::store
