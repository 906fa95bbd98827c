// RunLockstep: slabs of equal time, sized from the trace's mean record rate.
#include "store/lockstep.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>

#include "base/serial_worker.h"
#include "base/shared_progress.h"
#include "store/chunk_decoder.h"
#include "store/side_extractor.h"
#include "store/time_mapper.h"

namespace plx::store {

namespace {

struct ThreadCursor {
  SideExtractor sides;
  size_t next_chunk = 0;
  bool begun = false;  // for the visitors
  bool finished = false;
  std::optional<TimeMapper> mapper;
};

}  // namespace

int64_t SlabStep(const TraceStore& store, uint64_t slab_records) {
  const model::Trace& trace = store.trace();
  const uint64_t records = std::max<uint64_t>(store.file().total_records(), 1);
  const int64_t span = std::max<int64_t>(trace.end_ns - trace.begin_ns, 1);
  // Far more slab records than records (a damaged count) would step past
  // int64: no step is longer than 2^62 ns, far past any trace's span.
  const double step =
      static_cast<double>(span) * static_cast<double>(slab_records) / static_cast<double>(records);
  constexpr double kLongest = static_cast<double>(int64_t{1} << 62);
  return step >= kLongest ? int64_t{1} << 62 : std::max<int64_t>(1, static_cast<int64_t>(step));
}

void RunLockstep(const TraceStore& store, uint64_t slab_records,
                 const std::function<bool(const Slab&)>& consume,
                 const std::function<void(uint64_t, uint64_t)>& progress,
                 const std::vector<time::ThreadTimeMap>* maps, const LockstepVisits& visits,
                 const std::function<bool(uint32_t thread)>& only) {
  const model::Trace& trace = store.trace();
  const uint32_t threads = store.threads();
  const int64_t step = SlabStep(store, slab_records);

  // With more than one worker, the next slab is decoded while the consumer
  // takes this one: on workers of its own, so that the consumer's loops on
  // the store's pool, and its sequential part, run meanwhile. With one,
  // everything runs on the caller, one slab after the other.
  const bool ahead = store.pool()->size() > 1;
  std::unique_ptr<ThreadPool> own;
  if (ahead) own = std::make_unique<ThreadPool>(store.pool()->size());
  ThreadPool* pool = ahead ? own.get() : store.pool();

  std::vector<ThreadCursor> cursors(threads);
  if (maps != nullptr)
    for (uint32_t t = 0; t < threads; ++t)
      cursors[t].mapper.emplace(&(*maps)[t]);
  std::vector<time::TimeMapStats> moved(pool->size());
  std::vector<ChunkDecoder> decoders(pool->size());
  std::vector<model::UndefinedLog> logs;
  for (size_t i = 0; i < decoders.size(); ++i)
    logs.emplace_back(&store.undefined());
  uint64_t records = store.file().total_records();
  if (only) {
    records = 0;
    for (uint32_t t = 0; t < threads; ++t)
      if (only(t))
        for (const ChunkEntry& chunk : store.skeleton(t).chunks)
          records += store.file().event_chunks()[chunk.file_chunk].header.record_count;
  }
  SharedProgress shared(progress, records);

  // Fills `slab` with the records from `from` on; true for the last slab.
  const auto fill = [&](Slab* slab, int64_t from) {
    const bool last =
        from > std::numeric_limits<int64_t>::max() - step || from + step > trace.end_ns;
    slab->until = last ? std::numeric_limits<int64_t>::max() : from + step;
    slab->messages.resize(threads);
    slab->collectives.resize(threads);
    slab->posts.resize(threads);
    pool->ParallelFor(threads, [&](size_t t, size_t w) {
      ThreadCursor& c = cursors[t];
      const auto thread = static_cast<uint32_t>(t);
      if (only && !only(thread)) {
        slab->messages[t].clear();
        slab->collectives[t].clear();
        slab->posts[t].clear();
        return;
      }
      const ThreadSkeleton& skeleton = store.skeleton(thread);
      ChunkVisitor* visitor = visits.visitors ? (*visits.visitors)[w] : nullptr;
      if (visitor && !c.begun) visitor->BeginThread(thread);
      c.begun = true;
      // Decode until a record at or after the slab's end has been seen.
      while (!c.finished && (last || c.sides.last_time() < slab->until)) {
        if (c.next_chunk == skeleton.chunks.size()) {
          c.sides.Finish();
          c.finished = true;
          if (visitor && c.mapper) {
            std::vector<uint64_t> rows;
            const model::SliceTable& longs = c.mapper->LongSlices(&rows);
            visitor->LongSlices(thread, longs, rows);
          }
          if (visitor) visitor->EndThread(thread);
          break;
        }
        const ChunkRows& rows = decoders[w].Decode(store.source(thread), skeleton, c.next_chunk,
                                                   store.thread_first(thread), &logs[w]);
        if (c.mapper) c.mapper->Map(rows, decoders[w].mutable_tables(), &moved[w]);
        if (visitor) visitor->Chunk(rows, c.mapper ? &*c.mapper : nullptr);
        c.sides.Add(rows);
        shared.Add(store.file()
                       .event_chunks()[skeleton.chunks[c.next_chunk].file_chunk]
                       .header.record_count);
        ++c.next_chunk;
      }
      slab->messages[t].clear();
      slab->collectives[t].clear();
      slab->posts[t].clear();
      c.sides.Take(slab->until, &slab->messages[t], &slab->collectives[t], &slab->posts[t]);
    });
    return last;
  };

  Slab slabs[2];
  bool last = fill(&slabs[0], trace.begin_ns);
  // One thread decodes ahead for the whole pass (a thread made per slab
  // cost its start and a fresh allocator cache every slab).
  std::optional<SerialWorker> decoding;
  if (ahead) decoding.emplace(1);
  for (size_t current = 0;; current ^= 1) {
    const Slab& slab = slabs[current];
    Slab* next = &slabs[current ^ 1];
    bool next_last = false;
    const bool early = !last && ahead;
    if (early) decoding->Post([&] { next_last = fill(next, slab.until); });
    const bool more = consume(slab);
    if (early) decoding->Wait();
    if (last || !more) break;
    if (!ahead) next_last = fill(next, slab.until);
    last = next_last;
  }
  shared.Finish();
  if (visits.moved != nullptr)
    for (const time::TimeMapStats& m : moved)
      AddTimeMapStats(visits.moved, m);
}

}  // namespace plx::store
