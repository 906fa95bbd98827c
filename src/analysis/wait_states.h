// Wait states of MPI programs, after Scalasca's patterns, from what the trace
// records: the calls (slices named after MPI functions), the message and
// collective records inside them, and the posted receives. A wait is time a
// call spent blocked because another process had not yet reached its side of
// the operation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "model/trace.h"
#include "time/message_pairs.h"

namespace plx::analysis {

enum class WaitKind : uint8_t {
  // A receive completed in a blocking call R (MPI_Recv, MPI_Sendrecv,
  // MPI_Wait*, ...) whose matching send's call S began after R began:
  // wait = min(S.begin, R.end) - R.begin. A call completing several receives
  // counts once, with its longest wait.
  kLateSender = 0,
  // A blocking send call S (MPI_Send, MPI_Ssend, MPI_Sendrecv) whose receive
  // was posted after S began, S ending after the post (it was held):
  // wait = post - S.begin. The post time is the receive's recv_post record,
  // else (older traces) the begin of the call that completed the receive.
  kLateReceiver = 1,
  // A blocking collective call (or the wait completing a nonblocking one) on
  // one member, per instance of the operation (time::GroupCollectives):
  // N-to-N (barrier, allgather, alltoall, allreduce, reduce_scatter, scan,
  // exscan): min(max_j begin_j, end_i) - begin_i; 1-to-N (bcast, scatter): a
  // non-root waits min(root's begin, end_i) - begin_i; N-to-1 (gather,
  // reduce): the root waits min(last other begin, end_root) - begin_root.
  kCollective = 2,
};

/// "late-sender", "late-receiver" or "collective": how the API and
/// `parallax query` name a kind.
const char* WaitKindName(WaitKind kind);

/// One wait: a call that was held, and what it waited for.
struct WaitInstance {
  uint32_t slice = model::kNone;  // the waiting call (row of Trace::slices)
  WaitKind kind = WaitKind::kLateSender;
  int64_t begin_ns = 0;                  // the wait began (the call's begin) ...
  int64_t wait_ns = 0;                   // ... and ended wait_ns later (> 0)
  uint32_t cause_thread = model::kNone;  // the thread it waited for (sender,
                                         // receiver, last or root participant)
  uint32_t record = model::kNone;        // the Trace::messages row of the receive
                                         // (late sender) or send (late receiver),
                                         // or the Trace::collectives row
  uint32_t thread = model::kNone;        // the waiting call's thread
  int64_t end_ns() const { return begin_ns + wait_ns; }
};

/// The longer wait first: by wait_ns, then by slice, kind and record (a
/// total order, so the longest n are the same however they were found).
bool LongerWait(const WaitInstance& a, const WaitInstance& b);

struct WaitTotals {
  int64_t late_sender_ns = 0;
  int64_t late_receiver_ns = 0;
  int64_t collective_ns = 0;
  uint64_t count = 0;  // wait instances
  int64_t total_ns() const { return late_sender_ns + late_receiver_ns + collective_ns; }
  void Add(WaitKind kind, int64_t ns);
  void Add(const WaitTotals& other);
};

/// Waits of the calls of one state at one call site.
struct CallsiteWaits {
  uint32_t state = model::kNone;
  uint32_t callsite = model::kNone;  // kNone when unknown
  WaitTotals totals;
};

struct WaitStatesReport {
  WaitTotals all;
  std::vector<WaitTotals> processes;     // per Trace::processes
  std::vector<WaitTotals> threads;       // per Trace::threads
  std::vector<CallsiteWaits> callsites;  // by total_ns descending, then state, callsite
  std::vector<WaitInstance> instances;   // sorted by slice, then kind, then record
};

/// The report made from its waits one at a time, in any order (the engine
/// that streams a trace finds them so); ComputeWaitStates is one.
class WaitStatesBuilder {
 public:
  explicit WaitStatesBuilder(const model::Trace& trace);
  /// A wait of the call `w.slice`, a slice of `thread` in `state` at `callsite`.
  /// `keep` false: counted in the totals only, not kept in `instances`.
  void Add(const WaitInstance& w, uint32_t thread, uint32_t state, uint32_t callsite,
           bool keep = true);
  /// Also keeps, of the waits added with `keep` false, the `n` longest
  /// (LongerWait); a bounded list where keeping every wait would not fit.
  void KeepLongest(size_t n) { longest_ = n; }
  void Merge(WaitStatesBuilder&& other);
  /// The builder as bytes (base/wire.h) for another process, which merges
  /// them with MergeSaved (wait_states_wire.cc); integer sums, so exact as
  /// Merge. Saved instances are merged as Merge merges them.
  std::string Save() const;
  Status MergeSaved(std::string_view saved);
  /// Sorts the call sites and the instances.
  WaitStatesReport Finish() &&;

 private:
  void KeepIfLong(const WaitInstance& w);

  const model::Trace& trace_;
  WaitStatesReport r_;
  size_t longest_ = 0;  // a min-heap in r_.instances (LongerWait) when > 0
  std::vector<std::pair<uint64_t, WaitTotals>> callsites_;  // (state << 32 | callsite)
};

/// Finds every wait of the trace. Linear in the records, but for sorting the
/// receives' posts and the waits found.
/// `pairs`: the trace's time::MatchMessages when the caller has them (else
/// matched here).
WaitStatesReport ComputeWaitStates(const model::Trace& trace,
                                   const time::MessagePairs* pairs = nullptr);

}  // namespace plx::analysis
