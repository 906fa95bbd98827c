// StoreTimeline: a trace served from its file (a trace above the memory
// budget). Opening reads the trace index (or builds it: skeletons, causal
// repair, timeline summary) and keeps only the definitions, the repair's
// time maps and the summary in memory. While the repair is computed, a
// timeline on the recorded times can be served. A tile is drawn from the summary
// where a pixel spans at least one of a thread's buckets, and from the
// thread's chunks that cover the tile, decoded for it, where it does not
// (docs/memory.md, "Serving from the file").
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/comm_matrix.h"
#include "analysis/concurrency_profile.h"
#include "analysis/critical_path.h"
#include "analysis/deadlock.h"
#include "analysis/histogram.h"
#include "analysis/imbalance.h"
#include "analysis/state_stats.h"
#include "analysis/wait_states.h"
#include "base/status.h"
#include "base/thread_pool.h"
#include "format/trace_file.h"
#include "model/trace.h"
#include "server/timeline/tile_builder.h"
#include "server/timeline/timeline_index.h"
#include "store/mountain_bins.h"
#include "store/stream_stats.h"
#include "store/timeline_summary.h"
#include "store/trace_store.h"
#include "time/causal_repair.h"

namespace plx::server {

namespace tile_internal {
struct Frame;
}

/// What the analysis panels show of a trace served from its file, on the
/// repaired times (the in-memory answers, but for the wait instances: the
/// longest StoreTimeline::kLongestWaits only), with what they were asked
/// for (`key`).
using StoreAnalyses = store::IndexedAnalyses;

struct StoreServing {
  ThreadPool* pool = nullptr;  // the workers (null: one)
  uint64_t memory_bytes = 0;   // the budget (0: store::DefaultMemoryBudget())
  store::IndexSettings index;
  /// One line each: an index that could not be used or kept.
  std::function<void(const std::string&)> warn;
};

class StoreTimeline {
 public:
  static constexpr size_t kLongestWaits = 10000;

  /// (phase, done, total): "index", "repair", "summary".
  using Progress = std::function<void(const std::string&, uint64_t, uint64_t)>;
  /// Gets the timeline on the recorded times, to serve while the repair
  /// runs (Open then goes on with the "repair" and "summary" phases).
  using Early = std::function<void(std::shared_ptr<StoreTimeline>)>;

  /// Opens the trace on its repaired times. With `early`, when the index
  /// holds no repair yet, a timeline on the recorded times is made first
  /// (its summary is not kept) and handed to `early`; both share the file.
  static StatusOr<std::shared_ptr<StoreTimeline>> Open(std::unique_ptr<format::TraceFile> file,
                                                       const StoreServing& options,
                                                       const Progress& progress,
                                                       const Early& early = {});

  /// On the recorded times: the causal repair has not been applied.
  bool recorded_times() const { return recorded_times_; }

  /// The definitions with the repaired thread spans; its tables are empty.
  const model::Trace& trace() const { return defs_; }
  const store::TraceStore& store() const { return *store_; }
  const store::TimelineSummary& summary() const { return summary_; }
  const time::RepairReport& repair() const { return repair_; }
  uint64_t slices() const { return store_->totals().slices(); }
  /// Message send records (messages are not paired here).
  uint64_t sends() const;
  uint16_t max_depth(uint32_t row) const;
  /// One per (thread, counter) with samples, by thread, then counter.
  const std::vector<TimelineIndex::CounterTrack>& counter_tracks() const { return tracks_; }

  /// The tile of `request` (as BuildTile; no arrows: messages are not
  /// paired without the whole trace). Rows drawn from their chunks come
  /// first, then those drawn from the summary (Order).
  Status Tile(const TileRequest& request, std::string* out) const;
  /// The order of Tile's rows and counter tracks (MergeTileParts).
  TileOrder Order(const TileRequest& request) const;

  /// The definitions with the rows of `table` (slices or instants, and the
  /// texts) of the chunk that holds global row `id`, on the repaired times;
  /// `*row` is `id`'s row in it. Nothing when there is no such row.
  std::optional<model::Trace> RowsAround(store::TableIndex table, uint64_t id, uint32_t* row) const;

  /// What an answer shows of slice `id` (a global row), on the repaired
  /// times; nothing when there is no such slice.
  struct SliceRow {
    uint32_t thread = 0, state = 0;
    int64_t begin_ns = 0, end_ns = 0;
    uint16_t depth = 0;
  };
  std::optional<SliceRow> SliceAt(uint64_t id) const;

  /// The thread profile of the mountain range over [from_ns, to_ns) (model
  /// times): from the bins the statistics pass gathers where each bucket
  /// spans at least two, else from the chunks of the window (the in-memory
  /// answer). Nothing before the statistics are made.
  std::optional<StatusOr<analysis::ConcurrencyProfile>> Mountain(
      const analysis::ConcurrencyOptions& options) const;

  /// State statistics on the repaired times, computed on first use (the
  /// mountain range's bins with them) and kept in the trace's index, or
  /// read from there.
  const analysis::StateStatsReport& stats();
  const std::vector<analysis::StateStats>& callsite_stats();
  /// The statistics of what `selection` covers (repaired ns), from a pass
  /// over the chunks of its threads.
  store::StreamedStateStats SelectionStats(const analysis::Selection& selection) const;
  /// Its builder over the threads `only` accepts (all without it): a spread
  /// server's process's part, merged by bytes (StateStatsBuilder::Save).
  analysis::StateStatsBuilder SelectionStatsBuilder(
      const analysis::Selection& selection, const std::function<bool(uint32_t)>& only) const;
  /// The message matrix of what `selection` covers: a message pass.
  analysis::CommMatrix SelectionMatrix(const analysis::Selection& selection) const;

  /// Search's slices: the global rows of the earliest `limit` slices of the
  /// states `match` marks that begin at or after `from` (repaired ns), by
  /// begin, then row. Each thread's chunks are decoded from the one that
  /// holds `from` until it has `limit` of them (or ends).
  std::vector<uint32_t> Search(const std::vector<uint8_t>& match, int64_t from, size_t limit) const;
  bool stats_ready() const { return stats_ready_.load(std::memory_order_acquire); }

  /// The duration histogram of `state` over the whole trace, on the
  /// repaired times (ComputeDurationHistogram's answer): one pass over the
  /// file, its range from the statistics. With `area`, of what it covers
  /// (HistogramOptions::area): two passes over its threads' chunks.
  analysis::Histogram Histogram(uint32_t state, size_t bins, bool logarithmic,
                                const analysis::Selection* area = nullptr);
  /// FindAnomalies' answer for `options` (those the kept analyses do not
  /// hold: the percentile method, or one state's), on the repaired times:
  /// two passes over the file (store/stream_anomalies.h). The last few
  /// answers are kept, so that asking again (a retry after a slow first
  /// answer, a button pressed twice) costs nothing.
  std::shared_ptr<const std::vector<analysis::Anomaly>> Anomalies(
      const analysis::AnomalyOptions& options);

  /// The analyses (three passes over the file, or four with RMA records),
  /// made once and kept in the trace's index, or read from there: a call
  /// while another makes them waits for it. `step` is told
  /// as each part begins.
  const StoreAnalyses& Analyses(const std::function<void(std::string_view)>& step = {});
  /// Null until Analyses() has made them.
  const StoreAnalyses* analyses() const {
    return analyses_ready_.load(std::memory_order_acquire) ? &analyses_ : nullptr;
  }
  /// Whether the statistics and the analyses were read from the index
  /// (once made).
  bool statistics_reused() const { return statistics_reused_; }
  bool analyses_reused() const { return analyses_reused_; }

 private:
  StoreTimeline() = default;
  // A timeline of the same file and workers: on the times of the repair
  // run with `options` (its report and maps), or with none on the recorded
  // times.
  static std::shared_ptr<StoreTimeline> Sharing(const StoreTimeline& base,
                                                const time::RepairOptions* options,
                                                time::RepairReport repair,
                                                std::vector<time::ThreadTimeMap> maps,
                                                const Progress& progress);
  // The rows of `rows` over [from, to] (ns since the trace's begin),
  // decoded: a model and the global ids of its slices and instants.
  struct Decoded {
    model::Trace trace;
    std::vector<uint32_t> slice_ids, instant_ids;
  };
  // Fills `out` (its tables emptied first). Each row's chunks that cover
  // the window are found, and decoded when not cached, in parallel; then
  // every row's part is copied to its place in `out`, in row order.
  void Decode(const std::vector<uint32_t>& rows, double from, double to, Decoded* out) const;
  // The first of `thread`'s chunks that may hold records at or after `t`
  // (repaired ns): every record of the chunks before it is before `t`.
  size_t ChunkAt(uint32_t thread, int64_t t) const;
  // A chunk's rows on the repaired times; kept in a cache of recently drawn
  // chunks. Slice rows [0, carried) began in earlier chunks and are left
  // where the decoder put them (moving the rest down would copy the part):
  // they are not the part's own. Own slice row k (k >= carried) is global
  // row first_slice + k, instant row k first_instant + k.
  struct ChunkPart {
    model::SliceTable slices;
    model::InstantTable instants;
    model::CounterTable samples;
    std::vector<std::string> texts;  // the instants' text indices name these
    uint32_t carried = 0;
    uint32_t first_slice = 0, first_instant = 0;
  };
  std::shared_ptr<const ChunkPart> Chunk(uint32_t thread, size_t chunk) const;
  // A row's share of a window [lo, hi] (store_window.cc): the slices open
  // at its first chunk's start, then runs of its chunks' rows (the slices
  // that overlap the window, the instants inside it; every counter sample).
  struct RowWindow {
    model::SliceTable open;
    std::vector<uint32_t> open_ids;
    struct Run {
      size_t part = 0;  // in parts
      size_t first = 0, last = 0;
    };
    std::vector<std::shared_ptr<const ChunkPart>> parts;
    std::vector<Run> slices, instants;
    size_t slice_rows = 0, instant_rows = 0, sample_rows = 0;
  };
  RowWindow FindRowWindow(uint32_t thread, int64_t lo, int64_t hi) const;
  // The records of `rows` (in the request's order) and of their counter
  // `tracks`, drawn from the chunks that cover the tile
  // (store_fine_tile.cc): each row on a worker of its own.
  void FineTile(const TileRequest& request, const std::vector<uint32_t>& rows,
                const std::vector<uint32_t>& tracks, TileRecords* out) const;
  void FineRow(const tile_internal::Frame& f, uint32_t row, const RowWindow& w,
               TileRecords* out) const;
  void FineCounter(const tile_internal::Frame& f, uint32_t track, const RowWindow& w,
                   TileRecords* out) const;
  // A tile's rows and counter tracks (each row once), drawn from their
  // chunks (fine) or from the summary (coarse), in the request's order.
  struct TileRows {
    std::vector<uint32_t> fine, coarse, fine_tracks, coarse_tracks;
  };
  TileRows SplitTile(const TileRequest& request) const;
  // The records of `rows` from the summary.
  void SummaryTile(const TileRequest& request, const std::vector<uint32_t>& rows,
                   const std::vector<uint32_t>& tracks, TileRecords* out) const;

  // Shared by the timelines on recorded and on repaired times (the store
  // refers to the file: it is released first).
  std::shared_ptr<format::TraceFile> file_;
  std::shared_ptr<ThreadPool> own_pool_;
  std::shared_ptr<store::TraceStore> store_;
  // Tiles decode on their own workers: the store's may be busy with a
  // long pass (the statistics, the repair) that a tile must not wait for.
  std::shared_ptr<ThreadPool> tile_pool_;
  bool recorded_times_ = false;
  std::optional<time::RepairOptions> repair_options_;  // none: the recorded times
  model::Trace defs_;
  time::RepairReport repair_;
  std::vector<time::ThreadTimeMap> maps_;
  store::TimelineSummary summary_;
  std::vector<TimelineIndex::CounterTrack> tracks_;
  std::vector<uint32_t> first_track_;  // per thread + 1: its tracks in tracks_

  // Decoded chunks, newest first, within cache_limit_ bytes (an eighth of
  // the budget).
  mutable std::mutex cache_mu_;
  mutable std::list<uint64_t> lru_;  // (thread << 32 | chunk)
  struct Cached {
    std::shared_ptr<const ChunkPart> part;
    std::list<uint64_t>::iterator at;  // in lru_
    uint64_t bytes = 0;
  };
  mutable std::unordered_map<uint64_t, Cached> cache_;
  mutable uint64_t cache_bytes_ = 0;
  uint64_t cache_limit_ = 0;

  std::once_flag stats_once_;
  std::atomic<bool> stats_ready_{false};
  std::unique_ptr<store::MountainBins> mountain_;
  analysis::StateStatsReport stats_;
  std::vector<analysis::StateStats> callsite_stats_;
  std::once_flag analyses_once_;
  std::atomic<bool> analyses_ready_{false};
  StoreAnalyses analyses_;
  bool statistics_reused_ = false, analyses_reused_ = false;
  // Anomalies' answers, newest first, by their options.
  std::mutex anomalies_mu_;
  std::list<std::pair<std::string, std::shared_ptr<const std::vector<analysis::Anomaly>>>>
      anomalies_;
};

}  // namespace plx::server
