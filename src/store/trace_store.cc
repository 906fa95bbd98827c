// TraceStore::Open: definitions as the loader merges them, the skeletons of
// all threads in parallel, placeholders for undefined ids in the order the
// loader would make them, then the model's thread spans and counters.
#include "store/trace_store.h"

#include "base/shared_progress.h"
#include "store/index_file.h"
#include "store/index_summary.h"
#include "store/skeleton_builder.h"

namespace plx::store {

namespace {

std::span<const uint8_t> Bytes(const MappedFile& f) {
  return {f.data(), f.size()};
}

}  // namespace

TraceStore::TraceStore(const format::TraceFile& file, const StoreOptions& options)
    : file_(file), pool_(options.pool), memory_bytes_(options.memory_bytes), warn_(options.warn) {
  if (pool_ == nullptr) {
    own_pool_ = std::make_unique<ThreadPool>(1);
    pool_ = own_pool_.get();
  }
  if (memory_bytes_ == 0) memory_bytes_ = DefaultMemoryBudget();
}

StatusOr<std::unique_ptr<TraceStore>> TraceStore::Open(const format::TraceFile& file,
                                                       const StoreOptions& options) {
  std::unique_ptr<TraceStore> store(new TraceStore(file, options));
  store->LoadDefinitions();
  const std::vector<std::string> paths =
      file.on_disk() ? IndexPaths(file.name(), options.index) : std::vector<std::string>{};
  store->index_paths_ = paths;
  if (!store->ReadIndex(paths, options)) {
    store->BuildSkeletons(options.progress);
    store->ResolveUndefined(/*rebuild=*/true);
    store->WriteIndex(paths, options);
  }
  store->Finish();
  return store;
}

void TraceStore::LoadDefinitions() {
  defs_ = model::LoadDefinitions(file_);
  const model::Trace& trace = defs_->trace;
  sources_.assign(trace.threads.size(), ThreadSource());
  for (uint32_t t = 0; t < trace.threads.size(); ++t) {
    const model::Thread& thread = trace.threads[t];
    const uint32_t file_process = trace.processes[thread.process].file_id;
    ThreadSource& s = sources_[t];
    s.file = &file_;
    s.thread = t;
    s.process = thread.process;
    s.stream = file_.FindStream(file_process, thread.file_stream);
    s.maps = &defs_->maps[thread.process];
    s.clock = &file_.clock(file_process);
    s.correction = &defs_->corrections[thread.process];
  }
  resolved_.clear();
}

// The first index that decodes and fits the file. One that does not is
// reported (it is rebuilt, and overwritten where it lies beside the trace).
bool TraceStore::ReadIndex(const std::vector<std::string>& paths, const StoreOptions& options) {
  std::vector<const format::StreamInfo*> streams;
  for (const ThreadSource& s : sources_)
    streams.push_back(s.stream);
  for (const std::string& path : paths) {
    StatusOr<std::unique_ptr<MappedFile>> bytes = ReadIndexFile(path);
    if (!bytes.ok()) {
      if (bytes.status().code() != StatusCode::kNotFound && options.warn)
        options.warn(bytes.status().message());
      continue;
    }
    StatusOr<IndexContents> contents = DecodeIndex(Bytes(**bytes), path);
    Status fits = contents.ok() ? Status::Ok() : contents.status();
    if (fits.ok()) {
      // Placeholders first: the long slices may name them.
      fits = CheckUndefinedRefs(*contents, defs_->trace);
      if (fits.ok()) {
        skeletons_ = std::move(contents->skeletons);
        ResolveUndefined(/*rebuild=*/false);
        contents->skeletons = std::move(skeletons_);
        fits = CheckIndexFits(*contents, file_, streams, defs_->trace);
        skeletons_ = std::move(contents->skeletons);
      }
    }
    if (fits.ok()) {
      index_path_ = path;
      index_reused_ = true;
      return true;
    }
    // Placeholders the index named are not the trace's: start again.
    if (options.warn) options.warn(fits.message() + "; building it again");
    skeletons_.clear();
    LoadDefinitions();
  }
  return false;
}

void TraceStore::WriteIndex(const std::vector<std::string>& paths, const StoreOptions& options) {
  if (paths.empty()) return;
  IndexContents contents;
  contents.identity = IdentityOf(file_, static_cast<uint32_t>(skeletons_.size()));
  contents.skeletons = skeletons_;
  const std::vector<uint8_t> bytes = EncodeIndex(contents);
  StatusOr<std::string> written = WriteIndexFile(paths, bytes);
  if (written.ok()) {
    index_path_ = *written;
  } else if (options.warn) {
    options.warn("the trace's index could not be kept (" + written.status().message() +
                 "); the next open builds it again");
  }
}

std::optional<IndexedRepair> TraceStore::FindRepair(const time::RepairOptions& options) const {
  if (index_path_.empty()) return std::nullopt;
  StatusOr<std::unique_ptr<MappedFile>> bytes = ReadIndexFile(index_path_);
  if (!bytes.ok()) return std::nullopt;
  StatusOr<IndexContents> contents = DecodeIndex(Bytes(**bytes), index_path_, /*with_repair=*/true);
  // Another process may have replaced the index since the open: it must
  // still be this trace's, and its repair must fit.
  if (!contents.ok() || !(contents->identity == IdentityOf(file_, threads())) ||
      !contents->repair || !SameRepairOptions(contents->repair->options, options))
    return std::nullopt;
  Status fits = CheckRepairFits(*contents->repair, threads(), totals_, index_path_);
  if (!fits.ok()) {
    if (warn_) warn_(fits.message() + "; repairing again");
    return std::nullopt;
  }
  return std::move(contents->repair);
}

bool TraceStore::WriteContents(const IndexContents& contents, const std::string& what) const {
  const std::vector<std::string> paths =
      index_path_.empty() ? index_paths_ : std::vector<std::string>{index_path_};
  if (paths.empty()) return false;
  return WriteIndexBytes(paths, EncodeIndex(contents), what);
}

bool TraceStore::WriteIndexBytes(const std::vector<std::string>& paths,
                                 const std::vector<uint8_t>& bytes, const std::string& what) const {
  StatusOr<std::string> written = WriteIndexFile(paths, bytes);
  if (!written.ok() && warn_)
    warn_(what + " could not be kept in the trace's index (" + written.status().message() +
          "); the next run computes it again");
  return written.ok();
}

IndexContents TraceStore::Contents() const {
  IndexContents contents;
  contents.identity = IdentityOf(file_, threads());
  contents.skeletons = skeletons_;
  return contents;
}

void TraceStore::KeepRepair(IndexedRepair* repair) const {
  IndexContents contents = Contents();
  contents.repair = std::move(*repair);
  WriteContents(contents, "the causal repair");
  *repair = std::move(*contents.repair);
}

std::optional<TimelineSummary> TraceStore::FindSummary(
    const std::optional<time::RepairOptions>& repair) const {
  if (index_path_.empty()) return std::nullopt;
  StatusOr<std::unique_ptr<MappedFile>> bytes = ReadIndexFile(index_path_);
  if (!bytes.ok()) return std::nullopt;
  StatusOr<IndexContents> contents =
      DecodeIndex(Bytes(**bytes), index_path_, /*with_repair=*/false, /*with_summary=*/true);
  if (!contents.ok() || !(contents->identity == IdentityOf(file_, threads())) ||
      !contents->summary || contents->summary->repair.has_value() != repair.has_value() ||
      (repair && !SameRepairOptions(*contents->summary->repair, *repair)))
    return std::nullopt;
  Status fits = CheckSummaryFits(contents->summary->summary, trace(), index_path_);
  if (!fits.ok()) {
    if (warn_) warn_(fits.message() + "; summarising again");
    return std::nullopt;
  }
  return std::move(contents->summary->summary);
}

void TraceStore::KeepSummary(IndexedSummary* summary) const {
  // The repair the index holds stays (the summary is on its times).
  IndexContents contents = ContentsKept();
  contents.summary = std::move(*summary);
  WriteContents(contents, "the timeline summary");
  *summary = std::move(*contents.summary);
}

std::optional<IndexContents> TraceStore::ReadKept(bool whole) const {
  if (index_path_.empty()) return std::nullopt;
  StatusOr<std::unique_ptr<MappedFile>> bytes = ReadIndexFile(index_path_);
  if (!bytes.ok()) return std::nullopt;
  StatusOr<IndexContents> contents = DecodeIndex(Bytes(**bytes), index_path_, /*with_repair=*/whole,
                                                 /*with_summary=*/whole, /*with_results=*/true);
  // Another process may have replaced the index since the open.
  if (!contents.ok() || !(contents->identity == IdentityOf(file_, threads()))) return std::nullopt;
  return std::move(*contents);
}

IndexContents TraceStore::ContentsKept() const {
  std::optional<IndexContents> old = ReadKept(/*whole=*/true);
  if (!old) return Contents();
  old->skeletons = skeletons_;
  return std::move(*old);
}

std::optional<IndexedStatistics> TraceStore::FindStatistics(
    const time::RepairOptions& repair) const {
  std::optional<IndexContents> contents = ReadKept(/*whole=*/false);
  if (!contents || !contents->statistics ||
      !SameRepairOptions(contents->statistics->repair, repair))
    return std::nullopt;
  Status fits = CheckStatisticsFits(*contents->statistics, trace(), index_path_);
  if (!fits.ok()) {
    if (warn_) warn_(fits.message() + "; computing them again");
    return std::nullopt;
  }
  return std::move(contents->statistics);
}

void TraceStore::KeepStatistics(IndexedStatistics* statistics) const {
  IndexContents results;
  results.statistics = std::move(*statistics);
  KeepResults(results, "the statistics");
  *statistics = std::move(*results.statistics);
}

void TraceStore::KeepResults(const IndexContents& results, const std::string& what) const {
  // Beside the index's other sections, copied as they are: decoding and
  // compressing again a repair and a summary of hundreds of MB would cost
  // seconds and as much memory.
  if (!index_path_.empty())
    if (StatusOr<std::unique_ptr<MappedFile>> bytes = ReadIndexFile(index_path_); bytes.ok())
      if (StatusOr<IndexContents> old = DecodeIndex(Bytes(**bytes), index_path_);
          old.ok() && old->identity == IdentityOf(file_, threads())) {
        StatusOr<std::vector<uint8_t>> replaced =
            ReplaceResults(Bytes(**bytes), index_path_, results);
        if (replaced.ok()) {
          WriteIndexBytes({index_path_}, *replaced, what);
          return;
        }
      }
  // No index of this trace to add to: one of the skeletons and the results.
  IndexContents contents = Contents();
  contents.statistics = results.statistics;
  contents.analyses = results.analyses;
  WriteContents(contents, what);
}

std::optional<IndexedAnalyses> TraceStore::FindAnalyses(const AnalysesKey& key) const {
  std::optional<IndexContents> contents = ReadKept(/*whole=*/false);
  if (!contents || !contents->analyses || !SameAnalysesKey(contents->analyses->key, key))
    return std::nullopt;
  Status fits = CheckAnalysesFits(*contents->analyses, trace(), totals_, index_path_);
  if (!fits.ok()) {
    if (warn_) warn_(fits.message() + "; computing them again");
    return std::nullopt;
  }
  return std::move(contents->analyses);
}

void TraceStore::KeepAnalyses(IndexedAnalyses* analyses) const {
  IndexContents results;
  results.analyses = std::move(*analyses);
  KeepResults(results, "the analyses");
  *analyses = std::move(*results.analyses);
}

void TraceStore::BuildSkeletons(const std::function<void(uint64_t, uint64_t)>& progress) {
  skeletons_.resize(sources_.size());
  SharedProgress shared(progress, file_.total_records());
  pool_->ParallelFor(sources_.size(), [&](size_t t) {
    model::UndefinedLog log;
    skeletons_[t] = BuildThreadSkeleton(sources_[t], &log);
    shared.Add(skeletons_[t].records);
  });
  shared.Finish();
}

// Placeholders are made as the loader makes them: thread by thread, in the
// order each thread first used an id. Threads that used one are then built
// again, so that their long slices name the placeholders.
void TraceStore::ResolveUndefined(bool rebuild) {
  std::vector<size_t> again;
  for (size_t t = 0; t < skeletons_.size(); ++t) {
    if (skeletons_[t].undefined.empty()) continue;
    again.push_back(t);
    for (const UndefinedRef& u : skeletons_[t].undefined) {
      const auto kind = static_cast<model::RefKind>(u.kind);
      const uint32_t g = defs_->merger.Undefined(kind, u.process, u.id);
      if (g != model::kNone) resolved_[{kind, u.process, u.id}] = g;
    }
  }
  defs_->trace.stats.undefined_refs = 0;  // Undefined() counted; the skeletons count uses
  if (!rebuild) return;
  pool_->ParallelFor(again.size(), [&](size_t i) {
    const size_t t = again[i];
    model::UndefinedLog log(&resolved_);
    ThreadSkeleton rebuilt = BuildThreadSkeleton(sources_[t], &log);
    rebuilt.undefined = std::move(skeletons_[t].undefined);
    rebuilt.stats.undefined_refs = skeletons_[t].stats.undefined_refs;
    skeletons_[t] = std::move(rebuilt);
  });
}

void TraceStore::Finish() {
  model::Trace& trace = defs_->trace;
  first_.resize(skeletons_.size());
  totals_ = RowCounts();
  model::LoadStats& s = trace.stats;
  for (uint32_t t = 0; t < skeletons_.size(); ++t) {
    const ThreadSkeleton& k = skeletons_[t];
    first_[t] = totals_;
    for (size_t i = 0; i < model::kTableCount; ++i)
      totals_.table[i] += k.rows.table[i];
    totals_.texts += k.rows.texts;
    model::Thread& thread = trace.threads[t];
    thread.records = k.records;
    thread.begin_ns = k.first_ns;
    thread.end_ns = k.last_ns;
    thread.ended = k.ended;
    s.records += k.stats.records;
    s.unknown_record_kinds += k.stats.unknown_record_kinds;
    s.leave_without_enter += k.stats.leave_without_enter;
    s.leave_mismatch += k.stats.leave_mismatch;
    s.unclosed_slices += k.stats.unclosed_slices;
    s.undefined_refs += k.stats.undefined_refs;
    s.lost_records += k.stats.lost_records;
    s.damaged_chunks += k.stats.damaged_chunks;
    for (const std::string& line : k.problems)
      model::AddLoadProblem(&trace, line);
  }
  model::SetTraceSpan(&trace);
}

}  // namespace plx::store
