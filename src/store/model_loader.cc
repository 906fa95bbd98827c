// LoadModel: the definitions-only model is copied, its tables sized from the
// skeletons' row counts, then every chunk of every thread is decoded by one
// of the workers and its own rows copied to their global rows.
#include "store/model_loader.h"

#include <vector>

#include "base/shared_progress.h"
#include "model/tables.h"
#include "store/chunk_decoder.h"

namespace plx::store {

namespace {

struct ChunkRef {
  uint32_t thread;
  uint32_t chunk;
};

// Copies a chunk table's rows [skip, size) to rows [at, ...) of `to`.
template <typename Table>
void Place(const Table& from, size_t skip, uint64_t at, Table* to) {
  model::ZipColumns(to->columns(), from.columns(), [&](auto& a, const auto& b) {
    std::copy(b.begin() + static_cast<ptrdiff_t>(skip), b.end(),
              a.begin() + static_cast<ptrdiff_t>(at));
  });
}

}  // namespace

StatusOr<model::Trace> LoadModel(const TraceStore& store,
                                 const std::function<void(uint64_t, uint64_t)>& progress) {
  model::Trace trace = store.trace();
  {
    size_t i = 0;
    model::ForEachTable(trace, [&](auto& t) { model::ResizeTable(t, store.totals().table[i++]); });
    trace.texts.resize(store.totals().texts);
  }
  std::vector<ChunkRef> chunks;
  for (uint32_t t = 0; t < store.threads(); ++t)
    for (uint32_t c = 0; c < store.skeleton(t).chunks.size(); ++c)
      chunks.push_back({t, c});

  SharedProgress shared(progress, store.file().total_records());
  std::vector<ChunkDecoder> decoders(store.pool()->size());
  std::vector<model::UndefinedLog> logs;
  for (size_t i = 0; i < decoders.size(); ++i)
    logs.emplace_back(&store.undefined());
  store.pool()->ParallelFor(chunks.size(), [&](size_t i, size_t d) {
    const ChunkRef ref = chunks[i];
    const ThreadSkeleton& skeleton = store.skeleton(ref.thread);
    const ChunkRows& rows = decoders[d].Decode(store.source(ref.thread), skeleton, ref.chunk,
                                               store.thread_first(ref.thread), &logs[d]);
    size_t table = 0;
    model::ForEachTable(trace, *rows.tables, [&](auto& to, const auto& from) {
      Place(from, table == kSlices ? rows.carried : 0, rows.first.table[table], &to);
      ++table;
    });
    model::InstantTable& instants = trace.instants;
    const uint64_t first_instant = rows.first.table[kInstants];
    for (size_t k = 0; k < rows.tables->instants.size(); ++k)
      if (instants.text[first_instant + k] != model::kNone)
        instants.text[first_instant + k] += static_cast<uint32_t>(rows.first.texts);
    for (size_t k = 0; k < rows.tables->texts.size(); ++k)
      trace.texts[rows.first.texts + k] = rows.tables->texts[k];
    shared.Add(
        store.file().event_chunks()[skeleton.chunks[ref.chunk].file_chunk].header.record_count);
  });
  shared.Finish();
  return trace;
}

}  // namespace plx::store
