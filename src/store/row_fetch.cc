// PlaceRow: a row's thread and chunk by binary search over the skeletons'
// row counts; FetchRows groups the requests by chunk.
#include "store/row_fetch.h"

#include <algorithm>
#include <map>

#include "model/tables.h"
#include "store/chunk_decoder.h"

namespace plx::store {

std::optional<RowPlace> PlaceRow(const TraceStore& store, TableIndex table, uint64_t row) {
  if (row >= store.totals().table[table]) return std::nullopt;
  RowPlace at;
  for (uint32_t lo = 0, hi = store.threads(); lo < hi;) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (store.thread_first(mid).table[table] <= row) {
      at.thread = mid;
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const uint64_t local = row - store.thread_first(at.thread).table[table];
  const ThreadSkeleton& k = store.skeleton(at.thread);
  const auto it =
      std::upper_bound(k.chunks.begin(), k.chunks.end(), local,
                       [&](uint64_t r, const ChunkEntry& e) { return r < e.rows.table[table]; });
  if (it == k.chunks.begin()) return std::nullopt;
  at.chunk = static_cast<size_t>(it - k.chunks.begin()) - 1;
  at.in_chunk = local - k.chunks[at.chunk].rows.table[table];
  return at;
}

model::Trace FetchRows(const TraceStore& store, TableIndex table,
                       const std::vector<uint64_t>& rows) {
  model::Trace out;
  size_t index = 0;
  model::ForEachTable(out, [&](auto& t) {
    if (index++ == table) model::ResizeTable(t, rows.size());
  });
  // (thread, chunk) -> (local row in the chunk's table, position in `rows`)
  std::map<std::pair<uint32_t, size_t>, std::vector<std::pair<uint64_t, size_t>>> wanted;
  for (size_t k = 0; k < rows.size(); ++k)
    if (const std::optional<RowPlace> at = PlaceRow(store, table, rows[k]))
      wanted[{at->thread, at->chunk}].push_back({at->in_chunk, k});
  ChunkDecoder decoder;
  model::UndefinedLog log(&store.undefined());
  for (const auto& entry : wanted) {
    const auto [t, c] = entry.first;
    const auto& list = entry.second;
    const ChunkRows& rows_of =
        decoder.Decode(store.source(t), store.skeleton(t), c, store.thread_first(t), &log);
    size_t i = 0;
    model::ForEachTable(out, *rows_of.tables, [&](auto& to, const auto& from) {
      if (i++ != table) return;
      const size_t skip = table == kSlices ? rows_of.carried : 0;
      for (const auto& want : list) {
        const uint64_t local = want.first;
        const size_t k = want.second;
        if (skip + local >= from.size()) continue;
        model::ZipColumns(to.columns(), from.columns(),
                          [&](auto& a, const auto& b) { a[k] = b[skip + local]; });
      }
    });
  }
  return out;
}

}  // namespace plx::store
