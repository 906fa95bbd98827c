// TraceStore: a trace file opened for the out-of-core engine. It holds the
// definitions, every thread's skeleton (store/skeleton.h) and where each
// thread's rows start in every table, but no record: passes decode the
// chunks they need (store/chunk_decoder.h), on every core, within the
// memory budget. docs/memory.md describes the model.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "base/resources.h"
#include "base/status.h"
#include "base/thread_pool.h"
#include "format/trace_file.h"
#include "model/load_trace.h"
#include "model/undefined_log.h"
#include "store/index_file.h"
#include "store/index_location.h"
#include "store/skeleton.h"
#include "store/thread_source.h"

namespace plx::store {

struct StoreOptions {
  ThreadPool* pool = nullptr;  // the workers (null: one, the caller)
  uint64_t memory_bytes = 0;   // the budget (0: DefaultMemoryBudget())
  /// Progress of building the skeletons: (records done, records in all).
  std::function<void(uint64_t, uint64_t)> progress;
  IndexSettings index;  // where the trace's index is read from and written to
  /// One line each: an index that could not be used or kept (never fatal).
  std::function<void(const std::string&)> warn;
};

class TraceStore {
 public:
  /// Opens `file` (which must outlive the store): definitions, then every
  /// thread's skeleton — from the trace's index when there is a valid one,
  /// else by one sequential pass per thread, threads in parallel, after
  /// which the index is written for the next time.
  static StatusOr<std::unique_ptr<TraceStore>> Open(const format::TraceFile& file,
                                                    const StoreOptions& options);

  const format::TraceFile& file() const { return file_; }
  /// The model without records: definitions, processes, threads with their
  /// record counts and spans, the loader's counters and problems, as
  /// LoadTrace would give them. Its tables are empty.
  const model::Trace& trace() const { return defs_->trace; }
  uint32_t threads() const { return static_cast<uint32_t>(skeletons_.size()); }
  const ThreadSkeleton& skeleton(uint32_t thread) const { return skeletons_[thread]; }
  const ThreadSource& source(uint32_t thread) const { return sources_[thread]; }
  /// Global row of the thread's first row of every table (and text).
  const RowCounts& thread_first(uint32_t thread) const { return first_[thread]; }
  /// Rows of every table in all.
  const RowCounts& totals() const { return totals_; }
  /// Placeholders of ids used but not defined, for decoders' logs.
  const model::UndefinedLog::Resolved& undefined() const { return resolved_; }

  /// Where the index was read from or written to ("" when nowhere), and
  /// whether it was read (the skeletons were not built).
  const std::string& index_path() const { return index_path_; }
  bool index_reused() const { return index_reused_; }

  /// The causal repair run with `options` kept in the trace's index, when
  /// there is one that fits (it is decoded from the index file now).
  std::optional<IndexedRepair> FindRepair(const time::RepairOptions& options) const;
  /// Keeps `*repair` in the trace's index (in place of any other), so that
  /// the next open with the same options need not compute it; an index that
  /// cannot be written is warned about, never fatal. `*repair` is lent, not
  /// copied (its maps may be large), and is as it was on return.
  void KeepRepair(IndexedRepair* repair) const;

  /// The timeline summary kept in the trace's index on the times of the
  /// repair run with `repair` (none: the recorded times), when it fits.
  std::optional<TimelineSummary> FindSummary(
      const std::optional<time::RepairOptions>& repair) const;
  /// Keeps `*summary` in the trace's index beside the repair there (lent,
  /// as KeepRepair's); warned about, never fatal, when it cannot be written.
  void KeepSummary(IndexedSummary* summary) const;

  /// The server's statistics (and mountain range) kept in the trace's index
  /// on the times of the repair run with `repair`, when they fit.
  std::optional<IndexedStatistics> FindStatistics(const time::RepairOptions& repair) const;
  /// Keeps `*statistics` beside the repair there (lent, as KeepRepair's).
  void KeepStatistics(IndexedStatistics* statistics) const;
  /// The server's analyses kept in the trace's index for `key`, when they
  /// fit.
  std::optional<IndexedAnalyses> FindAnalyses(const AnalysesKey& key) const;
  /// Keeps `*analyses` beside the repair there (lent, as KeepRepair's).
  void KeepAnalyses(IndexedAnalyses* analyses) const;

  ThreadPool* pool() const { return pool_; }
  uint64_t memory_bytes() const { return memory_bytes_; }

 private:
  TraceStore(const format::TraceFile& file, const StoreOptions& options);
  void LoadDefinitions();
  bool ReadIndex(const std::vector<std::string>& paths, const StoreOptions& options);
  void BuildSkeletons(const std::function<void(uint64_t, uint64_t)>& progress);
  // Makes the placeholders of every thread's undefined ids, in the loader's
  // order; `rebuild`: then builds those threads again, naming them.
  void ResolveUndefined(bool rebuild);
  void WriteIndex(const std::vector<std::string>& paths, const StoreOptions& options);
  // The index's identity and skeletons, to add a section to.
  IndexContents Contents() const;
  // The same with what the index file holds now beside them (the repair,
  // the summary and the results on its times), when it is still this
  // trace's.
  IndexContents ContentsKept() const;
  // Writes the statistics or analyses `results` holds into the index.
  void KeepResults(const IndexContents& results, const std::string& what) const;
  // The index file decoded with the results sections (`whole`: and every
  // other), when it is still this trace's.
  std::optional<IndexContents> ReadKept(bool whole) const;
  // Writes `contents` as the trace's index; a warning naming `what` when it
  // cannot be written.
  bool WriteContents(const IndexContents& contents, const std::string& what) const;
  // Writes index `bytes` at the first of `paths` that takes them; the same
  // warning.
  bool WriteIndexBytes(const std::vector<std::string>& paths, const std::vector<uint8_t>& bytes,
                       const std::string& what) const;
  void Finish();

  const format::TraceFile& file_;
  ThreadPool* pool_;
  std::unique_ptr<ThreadPool> own_pool_;
  uint64_t memory_bytes_;
  std::unique_ptr<model::TraceDefinitions> defs_;
  std::vector<ThreadSource> sources_;
  std::vector<ThreadSkeleton> skeletons_;
  std::vector<RowCounts> first_;
  RowCounts totals_;
  model::UndefinedLog::Resolved resolved_;
  std::vector<std::string> index_paths_;  // where an index may be written
  std::function<void(const std::string&)> warn_;
  std::string index_path_;
  bool index_reused_ = false;
};

}  // namespace plx::store
