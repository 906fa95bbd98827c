// Opening a trace to serve from its file, and the rows a fine tile decodes.
#include "server/store_timeline.h"

#include <algorithm>
#include <utility>

#include "model/tables.h"
#include "store/chunk_decoder.h"
#include "store/stream_repair.h"
#include "store/stream_stats.h"
#include "store/time_mapper.h"

namespace plx::server {

StatusOr<std::unique_ptr<StoreTimeline>> StoreTimeline::Open(
    std::unique_ptr<format::TraceFile> file, const StoreServing& options,
    const Progress& progress) {
  std::unique_ptr<StoreTimeline> t(new StoreTimeline());
  t->file_ = std::move(file);
  ThreadPool* pool = options.pool;
  if (pool == nullptr) {
    t->own_pool_ = std::make_unique<ThreadPool>(1);
    pool = t->own_pool_.get();
  }
  auto phase = [&](const char* name) {
    return [&progress, name](uint64_t done, uint64_t total) {
      if (progress) progress(name, done, total);
    };
  };
  store::StoreOptions so;
  so.pool = pool;
  so.memory_bytes = options.memory_bytes;
  so.index = options.index;
  so.warn = options.warn;
  so.progress = phase("index");
  StatusOr<std::unique_ptr<store::TraceStore>> opened = store::TraceStore::Open(*t->file_, so);
  if (!opened.ok()) return opened.status();
  t->store_ = std::move(*opened);
  t->tile_pool_ = std::make_unique<ThreadPool>(std::min<size_t>(pool->size(), 4));

  if (progress) progress("repair", 0, 0);
  const time::RepairOptions repair_options;
  StatusOr<store::StreamedRepair> repair =
      store::StreamRepair(*t->store_, repair_options, phase("repair"));
  if (!repair.ok()) return repair.status();
  t->repair_ = std::move(repair->report);
  t->maps_ = std::move(repair->maps);
  t->defs_ = store::RepairedDefinitions(t->store_->trace(), t->maps_);

  if (progress) progress("summary", 0, 0);
  if (std::optional<store::TimelineSummary> kept = t->store_->FindSummary(repair_options)) {
    t->summary_ = std::move(*kept);
  } else {
    // A quarter of the budget: the rest is for the chunks tiles decode.
    store::IndexedSummary keep{
        repair_options,
        store::BuildTimelineSummary(*t->store_, &t->maps_, t->store_->memory_bytes() / 4,
                                    phase("summary"))};
    t->store_->KeepSummary(&keep);
    t->summary_ = std::move(keep.summary);
  }
  t->first_track_.push_back(0);
  for (uint32_t thread = 0; thread < t->summary_.threads.size(); ++thread) {
    for (const store::CounterSummary& c : t->summary_.threads[thread].counters)
      if (c.samples > 0) t->tracks_.push_back({thread, c.counter, c.min, c.max, c.samples});
    t->first_track_.push_back(static_cast<uint32_t>(t->tracks_.size()));
  }
  return t;
}

uint16_t StoreTimeline::max_depth(uint32_t row) const {
  if (row >= summary_.threads.size()) return 0;
  const auto& depths = summary_.threads[row].depths;
  return depths.empty() ? 0 : static_cast<uint16_t>(depths.size() - 1);
}

uint64_t StoreTimeline::sends() const {
  uint64_t n = 0;
  for (const store::ThreadSummary& t : summary_.threads)
    n += t.sends;
  return n;
}

const analysis::StateStatsReport& StoreTimeline::stats() {
  std::call_once(stats_once_, [&] {
    store::StreamedStateStats s = store::StreamStateStats(*store_, {}, &maps_, &defs_);
    stats_ = std::move(s.report);
    callsite_stats_ = std::move(s.callsites);
  });
  return stats_;
}

const std::vector<analysis::StateStats>& StoreTimeline::callsite_stats() {
  stats();
  return callsite_stats_;
}

StoreTimeline::Decoded StoreTimeline::Decode(const std::vector<uint32_t>& rows, double from,
                                             double to) const {
  const int64_t lo = defs_.begin_ns + static_cast<int64_t>(from) - 1;
  const int64_t hi = defs_.begin_ns + static_cast<int64_t>(to) + 1;
  std::vector<Decoded> parts(rows.size());
  // Rows in parallel, each into its own part; then the parts in row order.
  tile_pool_->ParallelFor(rows.size(), [&](size_t i) { DecodeRow(rows[i], lo, hi, &parts[i]); });
  Decoded out;
  out.trace = defs_;
  for (Decoded& part : parts) {
    model::ForEachTable(out.trace, part.trace, [](auto& dst, const auto& src) {
      model::ZipColumns(dst.columns(), src.columns(),
                        [](auto& a, const auto& b) { a.insert(a.end(), b.begin(), b.end()); });
    });
    out.slice_ids.insert(out.slice_ids.end(), part.slice_ids.begin(), part.slice_ids.end());
    out.instant_ids.insert(out.instant_ids.end(), part.instant_ids.begin(),
                           part.instant_ids.end());
  }
  return out;
}

void StoreTimeline::DecodeRow(uint32_t thread, int64_t lo, int64_t hi, Decoded* out) const {
  store::ChunkDecoder decoder;
  model::UndefinedLog log(&store_->undefined());
  model::SliceTable& s = out->trace.slices;
  std::vector<uint32_t>* ids = &out->slice_ids;
  time::TimeMapStats unused;
  const store::ThreadSkeleton& k = store_->skeleton(thread);
  const time::ThreadTimeMap& map = maps_[thread];
  const uint64_t first_slice = store_->thread_first(thread).slices();
  // A chunk's records lie between the record before it and the first
  // record of the next chunk.
  auto start = [&](size_t c) { return map.Apply(c == 0 ? k.first_ns : k.chunks[c].last_ns); };
  size_t c = 0;
  while (c + 1 < k.chunks.size() && start(c + 1) < lo)
    ++c;
  bool first = true;
  store::TimeMapper mapper(&map);
  for (; c < k.chunks.size() && (first || start(c) <= hi); ++c) {
    const store::ChunkRows& chunk =
        decoder.Decode(store_->source(thread), k, c, store_->thread_first(thread), &log);
    mapper.Map(chunk, decoder.mutable_tables(), &unused);
    const model::Trace& t = *chunk.tables;
    if (first) {
      // The slices open at the first chunk's start, as they end.
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
        ids->push_back(static_cast<uint32_t>(first_slice + l.row));
      }
      first = false;
    }
    for (size_t r = chunk.carried; r < t.slices.size(); ++r) {
      model::ZipColumns(s.columns(), t.slices.columns(),
                        [&](auto& a, const auto& b) { a.push_back(b[r]); });
      ids->push_back(static_cast<uint32_t>(chunk.slice_row(r)));
    }
    model::ZipColumns(out->trace.instants.columns(), t.instants.columns(),
                      [](auto& a, const auto& b) { a.insert(a.end(), b.begin(), b.end()); });
    for (size_t r = 0; r < t.instants.size(); ++r)
      out->instant_ids.push_back(static_cast<uint32_t>(chunk.first.table[store::kInstants] + r));
    model::ZipColumns(out->trace.counter_samples.columns(), t.counter_samples.columns(),
                      [](auto& a, const auto& b) { a.insert(a.end(), b.begin(), b.end()); });
  }
}

}  // namespace plx::server
