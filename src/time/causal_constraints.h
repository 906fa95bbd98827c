// The happened-before constraints a trace's times must satisfy: a message is
// received after it was sent, and a synchronising collective call ends after
// the other participants' calls began. Causal repair enforces them; the
// violation count checks them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/trace.h"
#include "time/message_pairs.h"

namespace plx::time {

/// One event on a thread: a record's or a call's begin or end time.
struct EventRef {
  uint32_t thread = 0;
  int64_t time = 0;
};

/// Groups of constraints "every target event happens at least `lag` ns after
/// the latest source event on another thread" (sources on the target's own
/// thread are ordered by the thread already). A message is one source (the
/// send record) and one target (the receive record); a collective operation
/// is its participants' call begins and ends.
struct CausalConstraints {
  enum class Kind : uint8_t { kMessage = 0, kCollective = 1 };
  std::vector<Kind> kind;              // per group
  std::vector<int64_t> lag;            // per group, ns
  std::vector<uint32_t> source_first;  // group g: sources[source_first[g] .. source_first[g+1])
  std::vector<uint32_t> target_first;  // group g: targets[target_first[g] .. target_first[g+1])
  std::vector<EventRef> sources;
  std::vector<EventRef> targets;
  std::vector<uint32_t> target_row;  // per target: messages row (receive) or collectives row
  std::vector<uint32_t> source_row;  // per group: messages row of the send, else model::kNone
  size_t size() const { return kind.size(); }
};

/// The constraints of a trace. Messages: every pair of time::MatchMessages,
/// with lag `min_latency_ns` between processes and 0 within one. Collectives
/// (time::GroupCollectives; the call is the slice around each record, see
/// time::EnclosingSlices) with lag `min_latency_ns`: barrier, allgather,
/// alltoall, allreduce and reduce_scatter end after every other participant
/// began; bcast and scatter after the root began; at gather and reduce the
/// root ends after every other participant began. Scan, exscan, neighbour and
/// other collectives, records outside any slice and nonblocking collectives
/// (recorded inside MPI_Wait/MPI_Test calls, which need not overlap the other
/// participants' calls) give no constraint.
/// `collectives` false leaves collectives out. `pairs`, when given, are the
/// trace's MatchMessages (else they are matched here).
CausalConstraints BuildCausalConstraints(const model::Trace& trace, int64_t min_latency_ns,
                                         bool collectives = true,
                                         const MessagePairs* pairs = nullptr);

/// The latest source of group `g` not on `thread` under `time_of` (a function
/// EventRef -> int64_t), or false when there is none. Top-two search: groups
/// of n participants cost O(n) for all their targets together when callers
/// use LatestSources below.
struct LatestSources {
  int64_t best = 0, second = 0;
  uint32_t best_thread = model::kNone;  // kNone: no source at all
  bool has_second = false;
  /// The latest source time not on `thread`; false when there is none.
  bool For(uint32_t thread, int64_t* time) const {
    if (best_thread == model::kNone) return false;
    if (best_thread != thread) {
      *time = best;
      return true;
    }
    if (!has_second) return false;
    *time = second;
    return true;
  }
};

template <typename TimeOf>
LatestSources FindLatestSources(const CausalConstraints& c, size_t g, TimeOf time_of) {
  LatestSources l;
  for (uint32_t i = c.source_first[g]; i < c.source_first[g + 1]; ++i) {
    const EventRef& s = c.sources[i];
    const int64_t t = time_of(s);
    if (l.best_thread == model::kNone || t > l.best) {
      if (l.best_thread != model::kNone && l.best_thread != s.thread) {
        l.second = l.best;
        l.has_second = true;
      }
      l.best = t;
      l.best_thread = s.thread;
    } else if (s.thread != l.best_thread && (!l.has_second || t > l.second)) {
      l.second = t;
      l.has_second = true;
    }
  }
  return l;
}

}  // namespace plx::time
