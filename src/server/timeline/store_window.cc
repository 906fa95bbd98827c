// The rows a fine tile or a fine mountain window reads: each row's chunks
// that cover the window, found and decoded in parallel. A tile draws them
// where they are (store_fine_tile.cc); the mountain range copies them into
// one model.
#include <algorithm>
#include <utility>

#include "model/tables.h"
#include "server/timeline/store_timeline.h"

namespace plx::server {

namespace {

// Copies rows [a, b) of `from` to rows [at, at + b - a) of `to`.
template <typename Table>
void CopyRows(Table& to, size_t at, const Table& from, size_t a, size_t b) {
  model::ZipColumns(to.columns(), from.columns(), [&](auto& x, const auto& y) {
    std::copy(y.begin() + static_cast<std::ptrdiff_t>(a),
              y.begin() + static_cast<std::ptrdiff_t>(b),
              x.begin() + static_cast<std::ptrdiff_t>(at));
  });
}

}  // namespace

StoreTimeline::RowWindow StoreTimeline::FindRowWindow(uint32_t thread, int64_t lo,
                                                      int64_t hi) const {
  RowWindow w;
  const store::ThreadSkeleton& k = store_->skeleton(thread);
  const time::ThreadTimeMap& map = maps_[thread];
  const uint64_t first_slice = store_->thread_first(thread).slices();
  // A chunk's records lie between the record before it and the first
  // record of the next chunk.
  auto start = [&](size_t c) { return map.Apply(c == 0 ? k.first_ns : k.chunks[c].last_ns); };
  size_t c = ChunkAt(thread, lo);
  if (c < k.chunks.size()) {
    // The slices open at the first chunk's start, as they end.
    model::SliceTable& s = w.open;
    for (const store::OpenFrame* f = k.frames_begin(c); f != k.frames_end(c); ++f) {
      const store::LongSlice& l = k.long_slices[f->long_slice];
      s.thread.push_back(thread);
      s.begin.push_back(map.Apply(l.begin_ns));
      s.end.push_back(std::max(s.begin.back(), map.Apply(l.end_ns)));
      s.state.push_back(l.state);
      s.callsite.push_back(l.callsite);
      s.depth.push_back(l.depth);
      s.self_ns.push_back(l.self_ns);
      s.flags.push_back(l.flags);
      w.open_ids.push_back(static_cast<uint32_t>(first_slice + l.row));
    }
    w.slice_rows = s.size();
  }
  // Only what the tile can show: slices that overlap the window, instants
  // inside it; every counter sample (the one before the window counts).
  for (bool first = true; c < k.chunks.size() && (first || start(c) <= hi); ++c, first = false) {
    const size_t p = w.parts.size();
    w.parts.push_back(Chunk(thread, c));
    const ChunkPart& part = *w.parts.back();
    const model::SliceTable& ps = part.slices;
    for (size_t r = part.carried; r < ps.size();) {
      if (ps.end[r] < lo || ps.begin[r] > hi) {
        ++r;
        continue;
      }
      size_t e = r + 1;
      while (e < ps.size() && ps.end[e] >= lo && ps.begin[e] <= hi)
        ++e;
      w.slices.push_back({p, r, e});
      w.slice_rows += e - r;
      r = e;
    }
    const std::vector<int64_t>& it = part.instants.time;
    const auto a = static_cast<size_t>(std::lower_bound(it.begin(), it.end(), lo) - it.begin());
    const auto b = static_cast<size_t>(std::upper_bound(it.begin(), it.end(), hi) - it.begin());
    if (a < b) {
      w.instants.push_back({p, a, b});
      w.instant_rows += b - a;
    }
    w.sample_rows += part.samples.size();
  }
  return w;
}

void StoreTimeline::Decode(const std::vector<uint32_t>& rows, double from, double to,
                           Decoded* out) const {
  const int64_t lo = defs_.begin_ns + static_cast<int64_t>(from) - 1;
  const int64_t hi = defs_.begin_ns + static_cast<int64_t>(to) + 1;
  std::vector<RowWindow> windows(rows.size());
  tile_pool_->ParallelFor(rows.size(),
                          [&](size_t i) { windows[i] = FindRowWindow(rows[i], lo, hi); });
  // Each row's place in the tables, in row order.
  struct Place {
    size_t slices = 0, instants = 0, samples = 0;
  };
  std::vector<Place> at(rows.size() + 1);
  for (size_t i = 0; i < rows.size(); ++i) {
    at[i + 1].slices = at[i].slices + windows[i].slice_rows;
    at[i + 1].instants = at[i].instants + windows[i].instant_rows;
    at[i + 1].samples = at[i].samples + windows[i].sample_rows;
  }
  out->trace = defs_;  // empty tables: the columns keep their room
  model::ResizeTable(out->trace.slices, at.back().slices);
  model::ResizeTable(out->trace.instants, at.back().instants);
  model::ResizeTable(out->trace.counter_samples, at.back().samples);
  out->slice_ids.resize(at.back().slices);
  out->instant_ids.resize(at.back().instants);
  tile_pool_->ParallelFor(rows.size(), [&](size_t i) {
    const RowWindow& w = windows[i];
    size_t s = at[i].slices, n = at[i].instants, c = at[i].samples;
    CopyRows(out->trace.slices, s, w.open, 0, w.open.size());
    std::copy(w.open_ids.begin(), w.open_ids.end(),
              out->slice_ids.begin() + static_cast<std::ptrdiff_t>(s));
    s += w.open.size();
    for (const RowWindow::Run& r : w.slices) {
      const ChunkPart& part = *w.parts[r.part];
      CopyRows(out->trace.slices, s, part.slices, r.first, r.last);
      for (size_t k = r.first; k < r.last; ++k)
        out->slice_ids[s++] = part.first_slice + static_cast<uint32_t>(k);
    }
    for (const RowWindow::Run& r : w.instants) {
      const ChunkPart& part = *w.parts[r.part];
      CopyRows(out->trace.instants, n, part.instants, r.first, r.last);
      for (size_t k = r.first; k < r.last; ++k)
        out->instant_ids[n++] = part.first_instant + static_cast<uint32_t>(k);
    }
    for (const std::shared_ptr<const ChunkPart>& part : w.parts) {
      CopyRows(out->trace.counter_samples, c, part->samples, 0, part->samples.size());
      c += part->samples.size();
    }
  });
}

}  // namespace plx::server
