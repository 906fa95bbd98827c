// ChunkDecoder: the slices open at the chunk's start are put back as table
// rows with the loader's frames over them, the chunk is decoded, and the
// slices it leaves open get their end from the skeleton's long slices.
#include "store/chunk_decoder.h"

#include <algorithm>

#include "base/foreground.h"
#include "model/tables.h"

namespace plx::store {

const ChunkRows& ChunkDecoder::Decode(const ThreadSource& source, const ThreadSkeleton& skeleton,
                                      size_t c, const RowCounts& thread_first,
                                      model::UndefinedLog* log) {
  GiveWayPoint();  // a background pass waits here while a tile is drawn
  const ChunkEntry& entry = skeleton.chunks[c];
  model::ForEachTable(data_.rows, [](auto& t) { model::ResizeTable(t, 0); });
  data_.rows.texts.clear();
  data_.rows.stats = model::LoadStats();
  data_.problems.clear();
  data_.damaged = 0;

  model::StreamLoader::Position at;
  model::SliceTable& s = data_.rows.slices;
  for (const OpenFrame* f = skeleton.frames_begin(c); f != skeleton.frames_end(c); ++f) {
    const LongSlice& l = skeleton.long_slices[f->long_slice];
    at.open.push_back({s.size(), f->children_ns, l.local_state});
    s.thread.push_back(source.thread);
    s.begin.push_back(l.begin_ns);
    s.end.push_back(l.begin_ns);
    s.state.push_back(l.state);
    s.callsite.push_back(l.callsite);
    s.depth.push_back(l.depth);
    s.self_ns.push_back(0);
    s.flags.push_back(0);
  }
  const size_t carried = s.size();
  // Room for the rows the index says the chunk holds (at most one per
  // record, and not more than a sane chunk holds, whatever a damaged index
  // says): a fresh decoder's columns then grow once, not by doubling (each
  // step a copy and new pages to fault in).
  constexpr uint64_t kMostRoom = uint64_t{1} << 22;
  const RowCounts& next =
      c + 1 < skeleton.chunks.size() ? skeleton.chunks[c + 1].rows : skeleton.rows;
  const uint64_t next_records =
      c + 1 < skeleton.chunks.size() ? skeleton.chunks[c + 1].records : skeleton.records;
  const uint64_t records = next_records - std::min(next_records, entry.records);
  // Slices alone: the other tables stay empty.
  const auto loaded = [&](size_t which) { return which == kSlices || !slices_only_; };
  size_t table = 0;
  model::ForEachTable(data_.rows, [&](auto& t) {
    const uint64_t want = next.table[table] - std::min(next.table[table], entry.rows.table[table]);
    if (loaded(table)) model::ReserveTable(t, t.size() + std::min({want, records, kMostRoom}));
    ++table;
  });
  at.records = entry.records;
  at.first_ns = skeleton.first_ns;
  at.last_ns = entry.last_ns;

  loader_.set_undefined_log(log);
  loader_.set_slices_only(slices_only_);
  loader_.Resume(source.thread, source.process, source.maps, source.clock, source.correction, at);
  const format::ChunkInfo& chunk = source.file->event_chunks()[entry.file_chunk];
  model::DecodeThreadChunk(*source.file, chunk, &loader_, &scratch_, &data_);
  source.file->Release(chunk);

  // Own slices left open end as the skeleton says.
  const uint64_t first_row = entry.rows.table[kSlices];
  for (const model::StreamLoader::OpenSlice& f : loader_.position().open) {
    if (f.row < carried) continue;
    const uint64_t row = first_row + (f.row - carried);
    const auto it = std::lower_bound(skeleton.long_slices.begin(), skeleton.long_slices.end(), row,
                                     [](const LongSlice& l, uint64_t r) { return l.row < r; });
    if (it == skeleton.long_slices.end() || it->row != row) continue;  // cannot happen
    s.end[f.row] = it->end_ns;
    s.self_ns[f.row] = it->self_ns;
    s.flags[f.row] = it->flags;
  }

  // An index that passed every check may still be wrong about how many rows
  // a chunk holds (made to pass them): the rows are cut to what it says, so
  // nothing placed by its counts is written out of bounds, and the chunk is
  // reported damaged.
  bool mismatch = false;
  table = 0;
  model::ForEachTable(data_.rows, [&](auto& t) {
    const uint64_t want = next.table[table] - std::min(next.table[table], entry.rows.table[table]);
    const size_t skip = table == kSlices ? carried : 0;
    if (loaded(table) && t.size() - skip != want) {
      mismatch = true;
      model::ResizeTable(t, skip + std::min<uint64_t>(want, t.size() - skip));
    }
    ++table;
  });
  const uint64_t want_texts = next.texts - std::min(next.texts, entry.rows.texts);
  if (!slices_only_ && data_.rows.texts.size() != want_texts) {
    mismatch = true;
    data_.rows.texts.resize(std::min<uint64_t>(want_texts, data_.rows.texts.size()));
  }

  out_.thread = source.thread;
  out_.chunk = c;
  out_.tables = &data_.rows;
  out_.carried = carried;
  for (size_t i = 0; i < model::kTableCount; ++i)
    out_.first.table[i] = thread_first.table[i] + entry.rows.table[i];
  out_.first.texts = thread_first.texts + entry.rows.texts;
  out_.status = mismatch            ? DataLoss("the trace index does not match chunk " +
                                               std::to_string(entry.file_chunk) + " (its rows)")
                : data_.damaged > 0 ? DataLoss(data_.problems.back())
                                    : Status::Ok();
  out_.skeleton = &skeleton;
  out_.slices_only = slices_only_;
  return out_;
}

}  // namespace plx::store
