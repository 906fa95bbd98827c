// The trace index: what the engine derives from a trace file once (every
// thread's skeleton; the causal repair of the last options it ran with) kept
// beside it, so that the next open needs no pass over the records. docs/format.md specifies the
// file ("The trace index"); store/index_location.h decides where it lives. An index is read only
// when it belongs to the very file (TraceFile::content_id) and this build's version of its
// contents, and passes every check against the file; anything else is rebuilt, never trusted.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/status.h"
#include "format/trace_file.h"
#include "model/trace.h"
#include "store/index_results.h"
#include "store/skeleton.h"
#include "store/timeline_summary.h"
#include "time/causal_repair.h"
#include "time/time_map.h"

namespace plx::store {

/// What an index was built from. Equal identities: the same file contents
/// read by an engine that derives the same things.
struct IndexIdentity {
  uint64_t content_id = 0;  // format::TraceFile::content_id
  uint64_t file_size = 0;
  uint64_t records = 0;
  uint32_t threads = 0;
  uint32_t contents_version = 0;  // kIndexContentsVersion of the builder
  bool operator==(const IndexIdentity&) const = default;
};

/// Bumped whenever what the index holds, or how it is derived (the
/// skeletons, the causal repair), changes: older indexes are then rebuilt.
inline constexpr uint32_t kIndexContentsVersion = 1;

/// The identity an index of `file` with `threads` threads must have.
IndexIdentity IdentityOf(const format::TraceFile& file, uint32_t threads);

/// A causal repair as the trace store computes it (store/stream_repair.h):
/// the options it ran with (their `pairs` null), its report before the
/// maps are applied (events_moved and the other counts of applying them are
/// zero), and every thread's time map.
struct IndexedRepair {
  time::RepairOptions options;
  time::RepairReport report;
  std::vector<time::ThreadTimeMap> maps;  // per thread
};

/// Whether a repair run with `a` is the one run with `b`.
bool SameRepairOptions(const time::RepairOptions& a, const time::RepairOptions& b);

/// A timeline summary (store/timeline_summary.h) and the causal repair
/// whose times it is on (none: the recorded times).
struct IndexedSummary {
  std::optional<time::RepairOptions> repair;
  TimelineSummary summary;
};

struct IndexContents {
  IndexIdentity identity;
  std::vector<ThreadSkeleton> skeletons;  // per thread of the model
  std::optional<IndexedRepair> repair;    // read only when asked for
  std::optional<IndexedSummary> summary;  // read only when asked for
  // The server's results on the times of the repair (read only when asked
  // for).
  std::optional<IndexedStatistics> statistics;
  std::optional<IndexedAnalyses> analyses;
};

/// The index file's bytes (`compress` false: sections stored as they are,
/// for tests and fuzzer seeds).
std::vector<uint8_t> EncodeIndex(const IndexContents& contents, bool compress = true);

/// Reads an index file's bytes; any damage is a DataLoss naming the offset.
/// `name` is used in messages. The repair section (large: a time map per
/// thread) is decoded only with `with_repair`, the timeline summary only with
/// `with_summary`, the statistics and analyses only `with_results`; else
/// they are skipped unread.
StatusOr<IndexContents> DecodeIndex(std::span<const uint8_t> bytes, const std::string& name,
                                    bool with_repair = false, bool with_summary = false,
                                    bool with_results = false);

/// Index `old` with the statistics and analyses sections that `results`
/// holds in place of its own; every other section is copied as it is (not
/// decoded, not compressed again). Fails as DecodeIndex on a damaged `old`.
StatusOr<std::vector<uint8_t>> ReplaceResults(std::span<const uint8_t> old, const std::string& name,
                                              const IndexContents& results);

/// Checks the undefined ids the contents name (kinds, processes), before
/// their placeholders are made.
Status CheckUndefinedRefs(const IndexContents& contents, const model::Trace& trace);

/// Checks that decoded contents fit the trace (its identity, every thread's
/// chunks, and every reference inside): what the engine indexes with them
/// then stays in bounds. `trace` is the model of definitions (states and
/// call sites counted with the placeholders the index's undefined ids make).
Status CheckIndexFits(const IndexContents& contents, const format::TraceFile& file,
                      const std::vector<const format::StreamInfo*>& streams,
                      const model::Trace& trace);

/// Checks that a decoded repair fits the store's trace: a map per thread,
/// each with ascending anchors, and every repair naming a thread and rows
/// that exist (`totals`: rows of every table in all).
Status CheckRepairFits(const IndexedRepair& repair, uint32_t threads, const RowCounts& totals,
                       const std::string& name);

}  // namespace plx::store
