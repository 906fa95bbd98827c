// Background loading and lazily computed analyses of a served trace.
#include "server/api/served_trace.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "format/trace_file.h"
#include "model/load_trace.h"
#include "server/api/trace_queries.h"
#include "store/row_fetch.h"

namespace plx::server {

const char* LoadStatusName(LoadStatus status) {
  switch (status) {
    case LoadStatus::kLoading:
      return "loading";
    case LoadStatus::kReady:
      return "ready";
    case LoadStatus::kFailed:
      return "failed";
  }
  return "loading";
}

ServedTrace::ServedTrace(std::string id, std::string path)
    : id_(std::move(id)), path_(std::move(path)) {}

ServedTrace::~ServedTrace() = default;

std::string ServedTrace::name() const {
  const size_t slash = path_.find_last_of('/');
  return slash == std::string::npos ? path_ : path_.substr(slash + 1);
}

LoadProgressInfo ServedTrace::progress() const {
  std::lock_guard lock(progress_mu_);
  LoadProgressInfo p = progress_;
  p.status = status_.load(std::memory_order_acquire);
  return p;
}

void ServedTrace::SetProgress(const std::string& phase, uint64_t done, uint64_t total) {
  LoadProgressInfo copy;
  {
    std::lock_guard lock(progress_mu_);
    progress_.phase = phase;
    progress_.done = done;
    progress_.total = total;
    copy = progress_;
  }
  copy.status = status_.load(std::memory_order_acquire);
  if (on_progress_) on_progress_(copy);
}

void ServedTrace::Load(const std::function<void(const LoadProgressInfo&)>& on_progress,
                       bool warm_analyses) {
  on_progress_ = on_progress;
  std::string file = path_;
  if (resolver_) {
    std::vector<std::string> problems;
    StatusOr<std::string> resolved = resolver_(
        path_,
        [this](const std::string& phase, uint64_t done, uint64_t total) {
          SetProgress(phase, done, total);
        },
        &problems);
    if (!resolved.ok()) return Fail(resolved.status());
    if (serving_ && serving_->warn)
      for (const std::string& line : problems)
        serving_->warn(line);
    file = *resolved;
  }
  SetProgress("load", 0, 0);
  file_ = file;
  LoadOpened(format::TraceFile::Open(file), warm_analyses);
}

Status ServedTrace::Tile(const TileRequest& request, std::string* out) const {
  if (spread_ != nullptr) {
    PLX_RETURN_IF_ERROR(CheckTileRequest(
        request, static_cast<uint32_t>(trace().threads.size()),
        from_store() ? store_timeline().counter_tracks().size() : index().counter_tracks().size()));
    return spread_->Tile(*this, request, out);
  }
  return DrawTile(request, out);
}

std::optional<ApiResponse> ServedTrace::AskOwner(store::TableIndex table, uint64_t id,
                                                 std::string_view endpoint,
                                                 std::string_view query) const {
  if (spread_ == nullptr || !from_store()) return std::nullopt;
  const std::optional<store::RowPlace> at = store::PlaceRow(store_timeline().store(), table, id);
  if (!at) return std::nullopt;
  return spread_->AskOwner(*this, at->thread, endpoint, query);
}

store::StreamedStateStats ServedTrace::SelectionStats(const analysis::Selection& selection,
                                                      bool callsites) const {
  if (from_store())
    return spread_ != nullptr ? spread_->SelectionStats(*this, selection)
                              : store_timeline().SelectionStats(selection);
  store::StreamedStateStats out;
  out.report = analysis::ComputeStateStats(trace_, &selection);
  if (callsites) out.callsites = analysis::ComputeCallsiteStats(trace_, &selection);
  return out;
}

Status ServedTrace::DrawTile(const TileRequest& request, std::string* out) const {
  return from_store() ? store_timeline().Tile(request, out) : BuildTile(index(), request, out);
}

TileOrder ServedTrace::TileOrderOf(const TileRequest& request) const {
  return from_store() ? store_timeline().Order(request) : RequestOrder(request);
}

TraceQueries* ServedTrace::queries() {
  std::call_once(queries_once_, [this] {
    if (from_store())
      queries_ = std::make_unique<TraceQueries>(store_timeline_held());
    else if (!file_.empty())
      queries_ = std::make_unique<TraceQueries>(
          file_, serving_ ? serving_->index : store::IndexSettings());
  });
  return queries_.get();
}

void ServedTrace::LoadFromBytes(std::vector<uint8_t> bytes, model::LoadCache* cache,
                                const std::function<void(const LoadProgressInfo&)>& on_progress) {
  on_progress_ = on_progress;
  SetProgress("load", 0, 0);
  LoadOpened(format::TraceFile::FromBytes(path_, std::move(bytes)), false, cache);
}

void ServedTrace::Fail(const Status& status) {
  std::string phase;
  {
    std::lock_guard lock(progress_mu_);
    progress_.error = status.message();
    phase = progress_.phase;
  }
  status_.store(LoadStatus::kFailed, std::memory_order_release);
  SetProgress(phase, 0, 0);
}

void ServedTrace::LoadOpened(StatusOr<std::unique_ptr<format::TraceFile>> file, bool warm_analyses,
                             model::LoadCache* cache) {
  const auto fail = [this](const Status& status) { Fail(status); };
  if (!file.ok()) return fail(file.status());
  file_records_ = (*file)->total_records();
  if (serving_ && file_records_ > max_records_)
    return LoadFromFile(std::move(*file), warm_analyses);
  model::LoadOptions options;
  options.cache = cache;
  options.progress = [this](uint64_t done, uint64_t total) { SetProgress("load", done, total); };
  auto trace = model::LoadTrace(**file, options);
  if (!trace.ok()) return fail(trace.status());
  trace_ = std::move(*trace);  // its problems include the file's

  SetProgress("repair", 0, 0);
  pairs_ = time::MatchMessages(trace_);
  time::RepairOptions repair_options;
  repair_options.pairs = &pairs_;
  auto repair = time::RepairCausality(&trace_, repair_options);
  if (!repair.ok()) return fail(repair.status());
  repair_ = std::move(*repair);

  SetProgress("index", 0, 0);
  // Pairs need matching again only where the repair may have reordered sends.
  if (repair_.events_moved > 0) pairs_ = time::MatchMessages(trace_);
  index_ = std::make_unique<TimelineIndex>(TimelineIndex::Build(
      trace_, pairs_,
      [this](uint64_t done, uint64_t total) { SetProgress("index", done, total); }));

  // A file's statistics are ready with it (the statistics panel asks first);
  // a live snapshot's are made when asked for, off the path of every update.
  if (warm_analyses) {
    SetProgress("analyse", 0, 1);
    stats();
  }
  status_.store(LoadStatus::kReady, std::memory_order_release);
  SetProgress("ready", 1, 1);
  if (!warm_analyses) return;
  // Warm the analyses the diagnostics panel shows while the user looks at the
  // timeline (seconds on 100 M events); a request that comes first waits for
  // the one being computed, never computes it twice.
  deadlocks();
  critical_path();  // and the wait states
  anomalies();
  imbalance();
  comm_matrix();
}

void ServedTrace::LoadFromFile(std::unique_ptr<format::TraceFile> file, bool warm_analyses) {
  const auto serve = [this](std::shared_ptr<StoreTimeline> t) {
    {
      std::lock_guard lock(store_mu_);
      store_ = std::move(t);
    }
    from_store_.store(true, std::memory_order_release);
    // Once served, what goes on in the background (the repair, the
    // statistics, the analyses) gives way to answering requests.
    LowerThreadPriority();
    if (serving_->pool) serving_->pool->GiveWay();
  };
  // Without the repair in the index, the recorded times are served while
  // it runs; its progress then shows in the summary, not as loading.
  bool early = false;
  StatusOr<std::shared_ptr<StoreTimeline>> opened = StoreTimeline::Open(
      std::move(file), *serving_,
      [this, &early](const std::string& phase, uint64_t done, uint64_t total) {
        if (!early) return SetProgress(phase, done, total);
        // The repair, then the summary on its times (a quarter of the work).
        const uint64_t whole = std::max<uint64_t>(total, 1);
        const uint64_t part = std::min(done, whole) * 1000 / whole;
        repair_done_.store(phase == "summary" ? 3000 + part : 3 * part, std::memory_order_relaxed);
        repair_total_.store(4000, std::memory_order_relaxed);
      },
      [&](std::shared_ptr<StoreTimeline> recorded) {
        serve(std::move(recorded));
        early = true;
        repair_total_.store(4000, std::memory_order_relaxed);
        status_.store(LoadStatus::kReady, std::memory_order_release);
        SetProgress("recorded", 1, 1);
      });
  if (!opened.ok()) {
    if (!early) return Fail(opened.status());
    // The recorded times stay served.
    repair_total_.store(0, std::memory_order_relaxed);
    if (serving_->warn) serving_->warn("causal repair failed: " + opened.status().message());
    return;
  }
  serve(std::move(*opened));
  repair_total_.store(0, std::memory_order_relaxed);
  status_.store(LoadStatus::kReady, std::memory_order_release);
  SetProgress(early ? "repaired" : "ready", 1, 1);
  // The timeline first; the statistics (a pass over the file) after, then
  // the analyses of the other panels (three passes more).
  if (!warm_analyses) return;
  stats();
  StoreTimeline& timeline = store_timeline();
  timeline.Analyses([this](std::string_view step) {
    std::lock_guard lock(progress_mu_);
    analysing_ = step;
  });
}

std::string ServedTrace::analysing() const {
  std::lock_guard lock(progress_mu_);
  return analysing_;
}

std::shared_ptr<StoreTimeline> ServedTrace::store_timeline_held() const {
  std::lock_guard lock(store_mu_);
  return store_;
}

bool ServedTrace::repairing() const {
  return from_store() && store_timeline_held()->recorded_times();
}

double ServedTrace::repair_progress() const {
  const uint64_t total = repair_total_.load(std::memory_order_relaxed);
  if (total == 0) return repairing() ? 0 : 1;
  return static_cast<double>(repair_done_.load(std::memory_order_relaxed)) /
         static_cast<double>(total);
}

const analysis::StateStatsReport& ServedTrace::stats() {
  if (from_store()) return store_timeline().stats();
  std::call_once(stats_once_, [&] { stats_ = analysis::ComputeStateStats(trace_); });
  return stats_;
}

const std::vector<analysis::StateStats>& ServedTrace::callsite_stats() {
  if (from_store()) return store_timeline().callsite_stats();
  std::call_once(callsite_once_, [&] { callsite_stats_ = analysis::ComputeCallsiteStats(trace_); });
  return callsite_stats_;
}

const time::RepairReport& ServedTrace::repair() const {
  return from_store() ? store_timeline().Analyses().repair : repair_;
}

const analysis::WaitStatesReport& ServedTrace::waits() {
  if (from_store()) return store_timeline().Analyses().waits;
  std::call_once(waits_once_, [&] { waits_ = analysis::ComputeWaitStates(trace_, &pairs_); });
  return waits_;
}

const analysis::DeadlockReport& ServedTrace::deadlocks() {
  if (from_store()) return store_timeline().Analyses().deadlocks;
  std::call_once(deadlocks_once_, [&] { deadlocks_ = analysis::DetectDeadlocks(trace_); });
  return deadlocks_;
}

const analysis::CriticalPath& ServedTrace::critical_path() {
  if (from_store()) return store_timeline().Analyses().path;
  std::call_once(critical_path_once_,
                 [&] { critical_path_ = analysis::ComputeCriticalPath(trace_, waits()); });
  return critical_path_;
}

const analysis::ImbalanceReport& ServedTrace::imbalance() {
  if (from_store()) return store_timeline().Analyses().imbalance;
  std::call_once(imbalance_once_,
                 [&] { imbalance_ = analysis::ComputeImbalance(trace_, stats()); });
  return imbalance_;
}

const analysis::CommMatrix& ServedTrace::comm_matrix() {
  if (from_store()) return store_timeline().Analyses().matrix;
  std::call_once(matrix_once_, [&] { matrix_ = analysis::ComputeCommMatrix(trace_, pairs_); });
  return matrix_;
}

const analysis::RmaMatrix& ServedTrace::rma_matrix() {
  if (from_store()) return store_timeline().Analyses().rma;
  std::call_once(rma_once_, [&] { rma_ = analysis::ComputeRmaMatrix(trace_); });
  return rma_;
}

const std::vector<analysis::Anomaly>& ServedTrace::anomalies() {
  if (from_store()) return store_timeline().Analyses().anomalies;
  std::call_once(anomalies_once_, [&] { anomalies_ = analysis::FindAnomalies(trace_); });
  return anomalies_;
}

const ReplayIndex& ServedTrace::replay() {
  std::call_once(replay_once_, [&] {
    replay_ = std::make_unique<ReplayIndex>(ReplayIndex::Build(*index_, pairs_));
  });
  return *replay_;
}

const time::LamportClocks& ServedTrace::lamport() {
  std::call_once(lamport_once_, [&] { lamport_ = time::ComputeLamportClocks(trace_, &pairs_); });
  return lamport_;
}

const analysis::CpuSchedule& ServedTrace::cpu_schedule() {
  std::call_once(cpu_once_, [&] { cpu_schedule_ = analysis::ComputeCpuSchedule(trace_); });
  return cpu_schedule_;
}

const analysis::OmpLoops& ServedTrace::omp_loops() {
  std::call_once(loops_once_, [&] { omp_loops_ = analysis::ComputeOmpLoops(trace_); });
  return omp_loops_;
}

}  // namespace plx::server
