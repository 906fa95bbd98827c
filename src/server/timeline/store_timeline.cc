// Opening a trace to serve from its file, and the rows a fine tile decodes.
#include "server/timeline/store_timeline.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "model/tables.h"
#include "store/chunk_decoder.h"
#include "store/row_fetch.h"
#include "store/stream_anomalies.h"
#include "store/stream_histogram.h"
#include "store/stream_messages.h"
#include "store/stream_repair.h"
#include "store/stream_stats.h"
#include "store/time_mapper.h"

namespace plx::server {

StatusOr<std::shared_ptr<StoreTimeline>> StoreTimeline::Open(
    std::unique_ptr<format::TraceFile> file, const StoreServing& options, const Progress& progress,
    const Early& early) {
  StoreTimeline base;
  base.file_ = std::move(file);
  ThreadPool* pool = options.pool;
  if (pool == nullptr) {
    base.own_pool_ = std::make_shared<ThreadPool>(1);
    pool = base.own_pool_.get();
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
  StatusOr<std::unique_ptr<store::TraceStore>> opened = store::TraceStore::Open(*base.file_, so);
  if (!opened.ok()) return opened.status();
  base.store_ = std::move(*opened);
  base.tile_pool_ = std::make_shared<ThreadPool>(std::min<size_t>(pool->size(), 4));

  const time::RepairOptions repair_options;
  std::optional<store::IndexedRepair> kept = base.store_->FindRepair(repair_options);
  if (!kept && early) {
    // Minutes at 10^9 events: the recorded times are served meanwhile.
    if (progress) progress("summary", 0, 0);
    early(Sharing(base, nullptr, {}, {}, progress));
  }
  if (progress) progress("repair", 0, 0);
  time::RepairReport report;
  std::vector<time::ThreadTimeMap> maps;
  if (kept) {
    report = std::move(kept->report);
    maps = std::move(kept->maps);
  } else {
    StatusOr<store::StreamedRepair> repair =
        store::StreamRepair(*base.store_, repair_options, phase("repair"));
    if (!repair.ok()) return repair.status();
    report = std::move(repair->report);
    maps = std::move(repair->maps);
  }
  if (progress) progress("summary", 0, 0);
  return Sharing(base, &repair_options, std::move(report), std::move(maps), progress);
}

std::shared_ptr<StoreTimeline> StoreTimeline::Sharing(const StoreTimeline& base,
                                                      const time::RepairOptions* options,
                                                      time::RepairReport repair,
                                                      std::vector<time::ThreadTimeMap> maps,
                                                      const Progress& progress) {
  std::shared_ptr<StoreTimeline> t(new StoreTimeline());
  t->file_ = base.file_;
  t->own_pool_ = base.own_pool_;
  t->store_ = base.store_;
  t->tile_pool_ = base.tile_pool_;
  t->cache_limit_ = t->store_->memory_bytes() / 8;
  t->recorded_times_ = options == nullptr;
  if (options != nullptr) t->repair_options_ = *options;
  t->repair_ = std::move(repair);
  t->maps_ = std::move(maps);
  t->maps_.resize(t->store_->threads());
  t->defs_ = store::RepairedDefinitions(t->store_->trace(), t->maps_);
  const auto summary_progress = [&progress](uint64_t done, uint64_t total) {
    if (progress) progress("summary", done, total);
  };
  // The index keeps the summary on the repaired times; the one on the
  // recorded times serves only while the repair runs.
  std::optional<store::TimelineSummary> kept;
  if (options != nullptr) kept = t->store_->FindSummary(*options);
  if (kept) {
    t->summary_ = std::move(*kept);
  } else {
    // A quarter of the budget: the rest is for the chunks tiles decode.
    store::IndexedSummary keep{
        options ? *options : time::RepairOptions(),
        store::BuildTimelineSummary(*t->store_, &t->maps_, t->store_->memory_bytes() / 4,
                                    summary_progress)};
    if (options != nullptr) t->store_->KeepSummary(&keep);
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

store::StreamedStateStats StoreTimeline::SelectionStats(
    const analysis::Selection& selection) const {
  const analysis::StateStatsBuilder builder = SelectionStatsBuilder(selection, {});
  return {builder.Report(), builder.CallsiteRows()};
}

analysis::StateStatsBuilder StoreTimeline::SelectionStatsBuilder(
    const analysis::Selection& selection, const std::function<bool(uint32_t)>& only) const {
  store::ThreadPassOptions options = store::WithProgress({}, &maps_);
  options.only = only;
  return store::StreamStateStatsBuilder(*store_, options, &defs_, &selection);
}

analysis::CommMatrix StoreTimeline::SelectionMatrix(const analysis::Selection& selection) const {
  return store::StreamMessages(*store_, {}, &maps_, &selection).matrix;
}

const analysis::StateStatsReport& StoreTimeline::stats() {
  std::call_once(stats_once_, [&] {
    // The mountain range's bins ride along: a sixteenth of the budget.
    const uint64_t bins_bytes = store_->memory_bytes() / 16;
    if (repair_options_)
      if (std::optional<store::IndexedStatistics> kept = store_->FindStatistics(*repair_options_))
        if ((mountain_ =
                 store::MountainBins::FromCounts(defs_, std::move(kept->mountain), bins_bytes))) {
          stats_ = std::move(kept->report);
          callsite_stats_ = std::move(kept->callsites);
          statistics_reused_ = true;
          stats_ready_.store(true, std::memory_order_release);
          return;
        }
    mountain_ = std::make_unique<store::MountainBins>(defs_, bins_bytes);
    const size_t workers = store_->pool()->size();
    std::vector<std::unique_ptr<store::ChunkVisitor>> sweeps = mountain_->Visitors(workers);
    std::vector<store::StateStatsVisitor> stats;
    std::vector<store::FanOutVisitor> fan;
    std::vector<store::ChunkVisitor*> visitors;
    for (size_t w = 0; w < workers; ++w)
      stats.emplace_back(defs_);
    for (size_t w = 0; w < workers; ++w)
      fan.emplace_back(std::vector<store::ChunkVisitor*>{&stats[w], sweeps[w].get()});
    for (store::FanOutVisitor& f : fan)
      visitors.push_back(&f);
    store::RunThreadPass(*store_, visitors, store::WithProgress({}, &maps_));
    for (size_t w = 1; w < workers; ++w)
      stats[0].builder.Merge(std::move(stats[w].builder));
    stats_ = stats[0].builder.Report();
    callsite_stats_ = stats[0].builder.CallsiteRows();
    if (repair_options_) {
      store::IndexedStatistics keep{*repair_options_, std::move(stats_), std::move(callsite_stats_),
                                    mountain_->Counts()};
      store_->KeepStatistics(&keep);
      stats_ = std::move(keep.report);
      callsite_stats_ = std::move(keep.callsites);
    }
    stats_ready_.store(true, std::memory_order_release);
  });
  return stats_;
}

std::optional<StatusOr<analysis::ConcurrencyProfile>> StoreTimeline::Mountain(
    const analysis::ConcurrencyOptions& options) const {
  if (!stats_ready_.load(std::memory_order_acquire)) return std::nullopt;
  if (options.buckets == 0 || options.to_ns <= options.from_ns)
    return analysis::ComputeConcurrencyProfile(defs_, options);  // its error
  const int64_t from = std::max(options.from_ns, defs_.begin_ns);
  const int64_t to = std::min(options.to_ns, defs_.end_ns);
  // From the bins where a bucket spans two, or where the window is too
  // wide to decode (more than a 64th of the trace: coarse there).
  const double bucket_ns =
      static_cast<double>(options.to_ns - options.from_ns) / static_cast<double>(options.buckets);
  if (bucket_ns >= 2.0 * static_cast<double>(mountain_->bin_ns()) ||
      to - from > (defs_.end_ns - defs_.begin_ns) / 64) {
    analysis::ConcurrencyProfile p =
        mountain_->Profile(options.from_ns, options.to_ns, options.buckets);
    if (options.processes) {
      // A process's profile is its thread's when it has one thread.
      std::vector<int> threads(defs_.processes.size());
      for (const model::Thread& t : defs_.threads)
        if (t.process < threads.size()) ++threads[t.process];
      if (std::any_of(threads.begin(), threads.end(), [](int n) { return n > 1; }))
        return Unimplemented(
            "parameter 'unit': per process, a wide window needs the trace in memory "
            "(processes with several threads)");
      p.processes = p.threads;
    }
    return p;
  }
  // Finer than the bins: the window's chunks, as the in-memory trace.
  std::vector<uint32_t> rows(defs_.threads.size());
  for (uint32_t r = 0; r < rows.size(); ++r)
    rows[r] = r;
  const double from_t = static_cast<double>(std::max(from, defs_.begin_ns) - defs_.begin_ns);
  const double to_t = static_cast<double>(std::max(to, from) - defs_.begin_ns);
  Decoded window;
  Decode(rows, from_t, to_t, &window);
  return analysis::ComputeConcurrencyProfile(window.trace, options);
}

analysis::Histogram StoreTimeline::Histogram(uint32_t state, size_t bins, bool logarithmic,
                                             const analysis::Selection* area) {
  if (area != nullptr)
    return store::StreamDurationHistogram(*store_, &maps_, state, *area, bins, logarithmic);
  const analysis::StateStats* row = nullptr;
  for (const analysis::StateStats& r : stats().all.states)
    if (r.state == state) row = &r;
  return store::StreamDurationHistogram(*store_, &maps_, state, row, bins, logarithmic);
}

std::shared_ptr<const std::vector<analysis::Anomaly>> StoreTimeline::Anomalies(
    const analysis::AnomalyOptions& o) {
  char key_text[160];
  std::snprintf(key_text, sizeof key_text, "%d %.17g %.17g %lld %zu %.17g %u",
                static_cast<int>(o.method), o.threshold, o.min_ratio,
                static_cast<long long>(o.min_excess_ns), o.min_samples, o.percentile, o.state);
  const std::string key = key_text;
  {
    std::lock_guard lock(anomalies_mu_);
    for (const auto& [k, answer] : anomalies_)
      if (k == key) return answer;
  }
  auto answer = std::make_shared<const std::vector<analysis::Anomaly>>(
      store::StreamAnomalies(*store_, o, {}, &maps_));
  constexpr size_t kKept = 4;
  std::lock_guard lock(anomalies_mu_);
  anomalies_.emplace_front(key, answer);
  if (anomalies_.size() > kKept) anomalies_.pop_back();
  return answer;
}

const std::vector<analysis::StateStats>& StoreTimeline::callsite_stats() {
  stats();
  return callsite_stats_;
}

std::shared_ptr<const StoreTimeline::ChunkPart> StoreTimeline::Chunk(uint32_t thread,
                                                                     size_t c) const {
  const uint64_t key = uint64_t{thread} << 32 | c;
  {
    std::lock_guard lock(cache_mu_);
    if (auto it = cache_.find(key); it != cache_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second.at);  // now the newest
      return it->second.part;
    }
  }
  // Each chunk is mapped on its own, so a part is the same whichever
  // chunks were decoded before it.
  store::ChunkDecoder decoder;
  model::UndefinedLog log(&store_->undefined());
  const store::ThreadSkeleton& k = store_->skeleton(thread);
  const store::ChunkRows& rows =
      decoder.Decode(store_->source(thread), k, c, store_->thread_first(thread), &log);
  store::TimeMapper mapper(&maps_[thread]);
  time::TimeMapStats unused;
  mapper.Map(rows, decoder.mutable_tables(), &unused);
  // The decoder is this call's: its tables become the part.
  auto part = std::make_shared<ChunkPart>();
  model::Trace& t = *decoder.mutable_tables();
  part->carried = static_cast<uint32_t>(rows.carried);
  part->slices = std::move(t.slices);
  part->instants = std::move(t.instants);
  part->samples = std::move(t.counter_samples);
  part->texts = std::move(t.texts);
  part->first_slice = static_cast<uint32_t>(rows.first.table[store::kSlices] - rows.carried);
  part->first_instant = static_cast<uint32_t>(rows.first.table[store::kInstants]);
  const uint64_t bytes =
      64 * (part->slices.size() + part->instants.size()) + 32 * part->samples.size() + 256;
  std::lock_guard lock(cache_mu_);
  if (cache_.count(key) == 0) {
    lru_.push_front(key);
    cache_[key] = {part, lru_.begin(), bytes};
    cache_bytes_ += bytes;
    while (cache_bytes_ > cache_limit_ && lru_.size() > 1) {
      const uint64_t old = lru_.back();
      lru_.pop_back();
      cache_bytes_ -= cache_[old].bytes;
      cache_.erase(old);
    }
  }
  return part;
}

std::optional<model::Trace> StoreTimeline::RowsAround(store::TableIndex table, uint64_t id,
                                                      uint32_t* row) const {
  const std::optional<store::RowPlace> at = store::PlaceRow(*store_, table, id);
  if (!at) return std::nullopt;
  const std::shared_ptr<const ChunkPart> part = Chunk(at->thread, at->chunk);
  const bool slices = table == store::kSlices;
  const uint64_t first = slices ? part->first_slice + part->carried : part->first_instant;
  const size_t rows = slices ? part->slices.size() - part->carried : part->instants.size();
  if (id < first || id - first >= rows) return std::nullopt;
  *row = static_cast<uint32_t>(id - first);
  model::Trace out = defs_;
  if (slices) {
    const auto own = static_cast<std::ptrdiff_t>(part->carried);
    model::ZipColumns(
        out.slices.columns(), part->slices.columns(),
        [&](auto& to, const auto& from) { to.assign(from.begin() + own, from.end()); });
  } else {
    out.instants = part->instants;
  }
  out.texts = part->texts;
  return out;
}

std::optional<StoreTimeline::SliceRow> StoreTimeline::SliceAt(uint64_t id) const {
  const std::optional<store::RowPlace> at = store::PlaceRow(*store_, store::kSlices, id);
  if (!at) return std::nullopt;
  const std::shared_ptr<const ChunkPart> part = Chunk(at->thread, at->chunk);
  if (id < uint64_t{part->first_slice} + part->carried ||
      id - part->first_slice >= part->slices.size())
    return std::nullopt;
  const size_t r = id - part->first_slice;
  const model::SliceTable& s = part->slices;
  return SliceRow{s.thread[r], s.state[r], s.begin[r], s.end[r], s.depth[r]};
}

size_t StoreTimeline::ChunkAt(uint32_t thread, int64_t t) const {
  const store::ThreadSkeleton& k = store_->skeleton(thread);
  const time::ThreadTimeMap& map = maps_[thread];
  // Chunk c's records come after the record before it (its last_ns).
  size_t c = 0;
  while (c + 1 < k.chunks.size() && map.Apply(k.chunks[c + 1].last_ns) < t)
    ++c;
  return c;
}

std::vector<uint32_t> StoreTimeline::Search(const std::vector<uint8_t>& match, int64_t from,
                                            size_t limit) const {
  using Hit = std::pair<int64_t, uint32_t>;  // (begin, global row)
  std::vector<std::vector<Hit>> hits(defs_.threads.size());
  tile_pool_->ParallelFor(hits.size(), [&](size_t t) {
    const auto thread = static_cast<uint32_t>(t);
    const store::ThreadSkeleton& k = store_->skeleton(thread);
    // Chunks before the one that holds `from` begin all their slices
    // before it (a thread's slices are in begin order).
    size_t c = ChunkAt(thread, from);
    std::vector<Hit>& out = hits[t];
    for (; c < k.chunks.size() && out.size() < limit; ++c) {
      const std::shared_ptr<const ChunkPart> part = Chunk(thread, c);
      const model::SliceTable& ps = part->slices;
      for (size_t r = part->carried; r < ps.size() && out.size() < limit; ++r)
        if (ps.state[r] < match.size() && match[ps.state[r]] && ps.begin[r] >= from)
          out.push_back({ps.begin[r], part->first_slice + static_cast<uint32_t>(r)});
    }
  });
  std::vector<Hit> all;
  for (const std::vector<Hit>& h : hits)
    all.insert(all.end(), h.begin(), h.end());
  const size_t keep = std::min(all.size(), limit);
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end());
  std::vector<uint32_t> rows;
  for (size_t i = 0; i < keep; ++i)
    rows.push_back(all[i].second);
  return rows;
}

}  // namespace plx::server
