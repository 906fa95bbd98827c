// BuildThreadSkeleton: before each chunk the loader's open frames are
// written down; after it, the slices it closed that began before it get
// their end, the slices it left open become long slices, and the table is
// cut back to those open slices alone.
#include "store/skeleton_builder.h"

#include <utility>

#include "model/stream_loader.h"
#include "model/tables.h"
#include "model/thread_rows.h"

namespace plx::store {

namespace {

using model::SliceTable;
using model::StreamLoader;

// Copies slice row `from` of `a` to the end of `b`.
void CopySlice(const SliceTable& a, size_t from, SliceTable* b) {
  model::ZipColumns(b->columns(), a.columns(),
                    [from](auto& to, const auto& column) { to.push_back(column[from]); });
}

class Builder {
 public:
  Builder(const ThreadSource& source, model::UndefinedLog* log)
      : source_(source), log_(log), loader_(&data_.rows, nullptr) {
    loader_.set_undefined_log(log);
    loader_.BeginThread(source.thread, source.process, source.maps, source.clock,
                        source.correction);
  }

  ThreadSkeleton Run() {
    if (source_.stream != nullptr) {
      std::vector<uint8_t> scratch;
      for (uint32_t c : source_.stream->chunks) {
        Enter(c);
        const format::ChunkInfo& chunk = source_.file->event_chunks()[c];
        model::DecodeThreadChunk(*source_.file, chunk, &loader_, &scratch, &data_);
        source_.file->Release(chunk);
        Leave();
      }
    }
    Finish();
    return std::move(out_);
  }

 private:
  // Writes down where the chunk starts: rows so far and the open frames
  // (every one of them carried, since the table was cut back to them).
  void Enter(uint32_t file_chunk) {
    const StreamLoader::Position at = loader_.position();
    ChunkEntry e;
    e.file_chunk = file_chunk;
    e.rows = rows_;
    e.records = at.records;
    e.last_ns = at.last_ns;
    e.frames_first = static_cast<uint32_t>(out_.frames.size());
    for (const StreamLoader::OpenSlice& f : at.open)
      out_.frames.push_back({carried_[f.row], f.children_ns});
    out_.chunks.push_back(e);
  }

  // After a chunk: the carried slices it closed end; the ones it left open
  // become (or stay) long slices; then the table is cut back to them.
  void Leave() {
    StreamLoader::Position at = loader_.position();
    SliceTable& s = data_.rows.slices;
    const size_t carried = carried_.size();
    std::vector<uint8_t> still_open(carried, 0);
    for (const StreamLoader::OpenSlice& f : at.open)
      if (f.row < carried) still_open[f.row] = 1;
    for (size_t r = 0; r < carried; ++r)
      if (!still_open[r]) Ended(r);

    std::vector<uint32_t> ids;
    SliceTable kept;
    for (StreamLoader::OpenSlice& f : at.open) {
      if (f.row < carried) {
        ids.push_back(carried_[f.row]);
      } else {
        LongSlice l;
        l.row = rows_.table[kSlices] + (f.row - carried);
        l.begin_ns = s.begin[f.row];
        l.state = s.state[f.row];
        l.callsite = s.callsite[f.row];
        l.local_state = f.local_state;
        l.depth = s.depth[f.row];
        ids.push_back(static_cast<uint32_t>(out_.long_slices.size()));
        out_.long_slices.push_back(l);
      }
      CopySlice(s, f.row, &kept);
      f.row = kept.size() - 1;
    }

    size_t table = 0;
    model::ForEachTable(data_.rows, [&](auto& t) {
      rows_.table[table] += t.size() - (table == kSlices ? carried : 0);
      ++table;
    });
    rows_.texts += data_.rows.texts.size();
    model::ForEachTable(data_.rows, [](auto& t) { model::ResizeTable(t, 0); });
    data_.rows.texts.clear();
    data_.rows.slices = std::move(kept);
    carried_ = std::move(ids);
    loader_.Resume(source_.thread, source_.process, source_.maps, source_.clock, source_.correction,
                   at);
  }

  // The carried slice at table row `r` was closed: its end is known now.
  void Ended(size_t r) {
    const SliceTable& s = data_.rows.slices;
    LongSlice& l = out_.long_slices[carried_[r]];
    l.end_ns = s.end[r];
    l.self_ns = s.self_ns[r];
    l.flags = s.flags[r];
  }

  // The thread's end: what is still open ends at its last record.
  void Finish() {
    const StreamLoader::Position at = loader_.position();
    const uint64_t closed = StreamLoader::CloseOpen(at, 0, &data_.rows.slices);
    for (size_t r = 0; r < carried_.size(); ++r)
      Ended(r);
    out_.rows = rows_;
    out_.records = at.records;
    out_.first_ns = at.records > 0 ? at.first_ns : 0;
    out_.last_ns = at.records > 0 ? at.last_ns : 0;
    out_.ended = at.ended;
    model::LoadStats& s = out_.stats;
    s = data_.rows.stats;
    s.records = at.records;
    s.unclosed_slices = closed;
    s.damaged_chunks = data_.damaged;
    s.undefined_refs = loader_.undefined_seen();
    out_.problems = std::move(data_.problems);
    if (log_ != nullptr)
      for (const auto& [kind, process, id] : log_->first_seen())
        out_.undefined.push_back({static_cast<uint8_t>(kind), process, id});
  }

  const ThreadSource& source_;
  model::UndefinedLog* log_;
  model::ThreadRows data_;
  StreamLoader loader_;
  std::vector<uint32_t> carried_;  // long slice of each table row (all rows are carried ones)
  RowCounts rows_;                 // the thread's rows before the current chunk
  ThreadSkeleton out_;
};

}  // namespace

ThreadSkeleton BuildThreadSkeleton(const ThreadSource& source, model::UndefinedLog* log) {
  return Builder(source, log).Run();
}

}  // namespace plx::store
