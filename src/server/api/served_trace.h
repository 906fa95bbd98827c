// ServedTrace: one trace file a server serves. It loads in the background
// (model, causal repair, message pairs, timeline index), reports progress
// while it does, and then computes each analysis once, on first use, for
// every client to share.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/comm_matrix.h"
#include "analysis/cpu_schedule.h"
#include "analysis/critical_path.h"
#include "analysis/deadlock.h"
#include "analysis/imbalance.h"
#include "analysis/omp_loops.h"
#include "analysis/state_stats.h"
#include "analysis/wait_states.h"
#include "base/status.h"
#include "model/trace.h"
#include "server/api/api_response.h"
#include "server/api/live_status.h"
#include "server/api/live_tally.h"
#include "server/timeline/replay_index.h"
#include "server/timeline/store_timeline.h"
#include "server/timeline/tile_builder.h"
#include "server/timeline/timeline_index.h"
#include "store/stream_stats.h"
#include "time/causal_repair.h"
#include "time/logical_clocks.h"
#include "time/message_pairs.h"

namespace plx::format {
class TraceFile;
}
namespace plx::model {
class LoadCache;
}

namespace plx::server {

enum class LoadStatus : uint8_t { kLoading, kReady, kFailed };
const char* LoadStatusName(LoadStatus status);

/// Where loading is: a phase (load, repair, index, analyse) and its progress.
struct LoadProgressInfo {
  LoadStatus status = LoadStatus::kLoading;
  std::string phase = "load";
  uint64_t done = 0;
  uint64_t total = 0;
  std::string error;  // when failed
};

class TraceQueries;
class ServedTrace;

/// What the processes of a spread server (`parallax-mpi serve`) compute
/// together for process 0, which answers the API.
class ServedSpread {
 public:
  virtual ~ServedSpread() = default;
  /// The tile of `request` (checked) of `trace`.
  virtual Status Tile(const ServedTrace& trace, const TileRequest& request, std::string* out) = 0;
  /// The statistics of what `selection` covers in `trace`, served from its
  /// file.
  virtual store::StreamedStateStats SelectionStats(const ServedTrace& trace,
                                                   const analysis::Selection& selection) = 0;
  /// The answer to `endpoint?query` of `trace` (served from its file) from
  /// the process that owns row `thread`; nothing when that is this one.
  virtual std::optional<ApiResponse> AskOwner(const ServedTrace& trace, uint32_t thread,
                                              std::string_view endpoint,
                                              std::string_view query) = 0;
};

class ServedTrace {
 public:
  ServedTrace(std::string id, std::string path);
  ~ServedTrace();
  ServedTrace(const ServedTrace&) = delete;
  ServedTrace& operator=(const ServedTrace&) = delete;

  const std::string& id() const { return id_; }
  const std::string& path() const { return path_; }
  /// The file name without directories.
  std::string name() const;

  /// Loads the file (blocking; call it on a worker thread). `on_progress` is
  /// called with every change of phase, at most ~10 times a second within a
  /// phase, and once when the trace is ready or failed. Once ready, it goes on
  /// to compute the analyses of the diagnostics panel before it returns.
  /// Without `warm_analyses`, the analyses are left to their first use
  /// (a spread server's other processes draw tiles only).
  void Load(const std::function<void(const LoadProgressInfo&)>& on_progress,
            bool warm_analyses = true);
  /// Loads a trace image held in memory (a live snapshot: the bytes of a .plx
  /// file) as Load() loads the file, but leaves every analysis to its first use.
  /// With `cache` (the live server's), only what is new since the image the
  /// cache last loaded is decoded (model/load_cache.h).
  void LoadFromBytes(std::vector<uint8_t> bytes, model::LoadCache* cache = nullptr,
                     const std::function<void(const LoadProgressInfo&)>& on_progress = {});

  /// Makes this a live trace (TraceEntry.live): `status` answers /live.
  void SetLiveStatus(std::function<LiveStatus()> status) { live_status_ = std::move(status); }
  bool live() const { return static_cast<bool>(live_status_); }
  /// The live trace's status (only when live()).
  LiveStatus live_status() const { return live_status_(); }
  /// A live snapshot: what its history window had dropped before it (set
  /// before loading; null for a file).
  void SetDropped(live::WindowDropped dropped) {
    dropped_ = std::make_unique<live::WindowDropped>(std::move(dropped));
  }
  const live::WindowDropped* dropped() const { return dropped_.get(); }

  /// How Load() finds the .plx file to read for its path (a parts directory,
  /// another format: made into a kept copy by the command line): that
  /// file's path, the problems met making it, and progress by phase.
  using Resolver = std::function<StatusOr<std::string>(
      const std::string& path,
      const std::function<void(const std::string& phase, uint64_t done, uint64_t total)>& progress,
      std::vector<std::string>* problems)>;
  /// Unset: the path is a .plx file.
  void ResolveWith(Resolver resolver) { resolver_ = std::move(resolver); }

  /// Lets Load() serve the trace from its file (StoreTimeline) when it has
  /// more than `max_records` records (a trace above the memory budget).
  void ServeLargeFromFile(StoreServing serving, uint64_t max_records) {
    serving_ = std::make_unique<StoreServing>(std::move(serving));
    max_records_ = max_records;
  }
  /// Whether the trace is served from its file: then only the endpoints
  /// StoreTimeline answers are available, and trace() has no records.
  bool from_store() const { return from_store_.load(std::memory_order_acquire); }
  /// The timeline served from the file. The one on the recorded times is
  /// replaced by the repaired one once the repair is done: hold this for a
  /// request, so that what it refers to outlives the request.
  std::shared_ptr<StoreTimeline> store_timeline_held() const;
  /// The current one (alive while held, or while current).
  StoreTimeline& store_timeline() const { return *store_timeline_held(); }
  /// Served from the file on the recorded times while the causal repair
  /// runs, and how far it is (0..1).
  bool repairing() const;
  double repair_progress() const;
  /// Served from the file: the part of the analyses being made (empty
  /// before they start; StoreTimeline::analyses() tells when they are done).
  std::string analysing() const;

  /// The tile of `request` (checked): drawn here (BuildTile, or
  /// StoreTimeline::Tile from the file), or by the processes of a spread
  /// server (SpreadTiles).
  Status Tile(const TileRequest& request, std::string* out) const;
  /// Draws the tile of `request` here, whatever SpreadTiles says.
  Status DrawTile(const TileRequest& request, std::string* out) const;
  /// The order of the rows and counter tracks in DrawTile's tiles.
  TileOrder TileOrderOf(const TileRequest& request) const;
  /// The statistics of what `selection` covers (with the call-site rows
  /// when `callsites`): from the model, or a pass over its threads' chunks
  /// (served from the file; spread over the processes of a spread server).
  store::StreamedStateStats SelectionStats(const analysis::Selection& selection,
                                           bool callsites) const;
  /// Served from its file by a spread server: the answer to
  /// `endpoint?query`, which concerns row `id` of `table`, from the
  /// process that owns that row's thread (its chunks are in its cache);
  /// nothing when this process is to answer.
  std::optional<ApiResponse> AskOwner(store::TableIndex table, uint64_t id,
                                      std::string_view endpoint, std::string_view query) const;
  /// `parallax-mpi serve`: Tile(), SelectionStats() and AskOwner() from
  /// the file ask `spread` (set before any request; it outlives the trace).
  void Spread(ServedSpread* spread) { spread_ = spread; }

  /// SQL over the trace (/query), made on first use once ready; null for a
  /// trace that has no file (a live snapshot).
  TraceQueries* queries();

  LoadProgressInfo progress() const;
  bool ready() const { return status_.load(std::memory_order_acquire) == LoadStatus::kReady; }

  // Only once ready():
  const model::Trace& trace() const { return from_store() ? store_timeline().trace() : trace_; }
  const TimelineIndex& index() const { return *index_; }
  const time::MessagePairs& pairs() const { return pairs_; }
  /// Served from the file: once its analyses are made.
  const time::RepairReport& repair() const;
  uint64_t file_records() const { return file_records_; }

  // Analyses, computed on first use (thread-safe); served from the file,
  // those of StoreTimeline::Analyses() (made on the repaired times).
  const analysis::StateStatsReport& stats();
  const std::vector<analysis::StateStats>& callsite_stats();
  const analysis::WaitStatesReport& waits();
  const analysis::DeadlockReport& deadlocks();
  const analysis::CriticalPath& critical_path();
  const analysis::ImbalanceReport& imbalance();
  const analysis::CommMatrix& comm_matrix();
  const analysis::RmaMatrix& rma_matrix();
  /// Robust anomalies of every state (the default AnomalyOptions), worst first.
  const std::vector<analysis::Anomaly>& anomalies();
  /// The replay index (/at, /step, /find, /lamport), built on first use.
  const ReplayIndex& replay();
  /// Lamport clocks of every event (/lamport), computed on first use.
  const time::LamportClocks& lamport();
  /// Which thread ran on which CPU (/cpus), from the `cpu` counter.
  const analysis::CpuSchedule& cpu_schedule();
  /// The OpenMP loops and their chunks (/loops).
  const analysis::OmpLoops& omp_loops();

 private:
  void SetProgress(const std::string& phase, uint64_t done, uint64_t total);
  void Fail(const Status& status);
  // Load() and LoadFromBytes() after opening: model, repair, index.
  void LoadOpened(StatusOr<std::unique_ptr<format::TraceFile>> file, bool warm_analyses,
                  model::LoadCache* cache = nullptr);
  // LoadOpened for a trace above the budget: served from its file.
  void LoadFromFile(std::unique_ptr<format::TraceFile> file, bool warm_analyses);

  std::string id_;
  std::string path_;
  std::string file_;  // the .plx file read (path_ resolved), once loaded from a file
  std::once_flag queries_once_;
  std::unique_ptr<TraceQueries> queries_;
  std::atomic<LoadStatus> status_{LoadStatus::kLoading};
  mutable std::mutex progress_mu_;
  LoadProgressInfo progress_;
  std::string analysing_;  // under progress_mu_
  std::function<void(const LoadProgressInfo&)> on_progress_;
  std::function<LiveStatus()> live_status_;
  std::unique_ptr<live::WindowDropped> dropped_;
  std::unique_ptr<StoreServing> serving_;
  Resolver resolver_;
  ServedSpread* spread_ = nullptr;
  uint64_t max_records_ = 0;
  std::atomic<bool> from_store_{false};
  mutable std::mutex store_mu_;
  std::shared_ptr<StoreTimeline> store_;  // under store_mu_
  std::atomic<uint64_t> repair_done_{0}, repair_total_{0};

  model::Trace trace_;
  time::MessagePairs pairs_;
  time::RepairReport repair_;
  std::unique_ptr<TimelineIndex> index_;
  uint64_t file_records_ = 0;

  std::once_flag stats_once_, callsite_once_, waits_once_, deadlocks_once_, critical_path_once_,
      imbalance_once_, matrix_once_, rma_once_, anomalies_once_;
  analysis::StateStatsReport stats_;
  std::vector<analysis::StateStats> callsite_stats_;
  analysis::WaitStatesReport waits_;
  analysis::DeadlockReport deadlocks_;
  analysis::CriticalPath critical_path_;
  analysis::ImbalanceReport imbalance_;
  analysis::CommMatrix matrix_;
  analysis::RmaMatrix rma_;
  std::vector<analysis::Anomaly> anomalies_;
  std::once_flag replay_once_, lamport_once_, cpu_once_, loops_once_;
  std::unique_ptr<ReplayIndex> replay_;
  time::LamportClocks lamport_;
  analysis::CpuSchedule cpu_schedule_;
  analysis::OmpLoops omp_loops_;
};

}  // namespace plx::server
