// `parallax diff`: the numbers gathered from each trace through the SQL
// engine (diff_gather.cc), and their comparison into change rows, the ones
// that matter first and noise marked (diff.cc). docs/diff.md explains the rules.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/status.h"
#include "cli/command.h"

namespace plx::cli::diff {

/// What a row measures. The order is the order rows of equal impact print in.
enum class Kind : uint8_t {
  kOutside,       // time between a thread's outermost slices: untraced work
  kState,         // a state's slices in a process
  kSelf,          // a state's self time in a process (only for states with nested slices)
  kCallsite,      // a state's slices entered at one call site, whole trace
  kWaits,         // MPI wait states of one kind in a process
  kCriticalPath,  // time of a process on the critical path
  kImbalance,     // a state's max per-process total minus the mean per-process total
  kMessages,      // messages from one process to another
  kBytes,         // their bytes
};
const char* KindName(Kind kind);
/// Whether rows of the kind are times (ns); messages and bytes are not.
bool IsTimeKind(Kind kind);

/// The name of the pseudo-state of kOutside rows.
inline constexpr char kOutsideName[] = "(outside states)";

/// What a row is about; fields a kind does not use stay at their defaults.
/// `proc` and `peer` are MPI ranks when both traces are MPI traces, else
/// process numbers; `thread` is the position of the thread in its process.
struct Entity {
  Kind kind = Kind::kState;
  int64_t proc = -1;
  int64_t peer = -1;
  int64_t thread = -1;
  std::string name;  // state, or wait kind
  std::string callsite;
  auto Tie() const { return std::tie(kind, proc, peer, thread, name, callsite); }
  bool operator<(const Entity& o) const { return Tie() < o.Tie(); }
};

/// A sum over instances (slices, gaps, waits) or, when `instances` is
/// false, one total (bytes, critical path time): then only `total` counts.
struct Measure {
  int64_t count = 0;
  double total = 0;   // ns, or messages/bytes for those kinds
  double sum_sq = 0;  // sum of squared instance values, for the variance
  bool instances = true;
  double Mean() const { return count > 0 ? total / static_cast<double>(count) : 0; }
  /// The sample variance; 0 below two instances.
  double Variance() const;
};

/// Everything `diff` compares of one trace.
struct TraceNumbers {
  std::string path;
  bool mpi = false;  // every process has an MPI rank: processes are keyed by rank
  int64_t begin_ns = 0, end_ns = 0;
  std::set<int64_t> procs;                        // keys of its processes
  std::set<std::pair<int64_t, int64_t>> threads;  // (process key, position)
  std::set<std::string> states;                   // names of states with slices
  std::map<Entity, Measure> rows;
  int64_t Duration() const { return end_ns - begin_ns; }
};

/// Reads the numbers of the trace at `path` with SQL over its store.
StatusOr<TraceNumbers> Gather(const std::string& path, const GlobalOptions& global);

/// The knobs of significance (docs/diff.md).
struct Thresholds {
  double min_change = 0.5;   // relative change at least this (0.5 = 50%)
  double min_impact = 0.02;  // impact at least this share of the longer trace
};

/// One compared entity.
struct Change {
  Entity what;
  Measure a, b;
  double delta = 0;                // b.total - a.total
  std::optional<double> relative;  // of the part that gives the impact; none from 0
  double per_instance_ns = 0;      // (mean_b - mean_a) * count_b
  double count_ns = 0;             // (count_b - count_a) * mean_a
  double impact = 0;               // ns; 0 for messages and bytes
  std::string part;                // "per-instance", "count" or "total"
  std::optional<double> t;         // Welch's t of the per-instance change; infinite without spread
  bool significant = false;
  std::string why;
};

/// Something only one trace has.
struct Unmatched {
  std::string what;  // "process", "thread", "state"
  std::string label;
  char in = 'a';  // 'a' or 'b'
};

struct DiffResult {
  std::vector<Change> changes;  // significant first, then by |impact|, |delta|
  std::vector<Unmatched> unmatched;
};

/// Compares two traces; an error when they have no process in common.
StatusOr<DiffResult> Compare(const TraceNumbers& a, const TraceNumbers& b,
                             const Thresholds& thresholds);

/// "rank 2" or "process 2".
std::string ProcLabel(bool mpi, int64_t proc);
/// "rank 2 (outside states)", "MPI_Recv at farm.c:40", "messages rank 1 -> rank 0".
std::string EntityLabel(bool mpi, const Entity& e);

}  // namespace plx::cli::diff
