// CutPlan: which of the window's message, collective and posted-receive
// records a cut leaves out so that the cut trace pairs and groups them as
// the original did — found by one message pass over the whole trace (only
// when the trace has such records). Internal to trace_cut.cc.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_set>
#include <vector>

#include "store/record_sides.h"
#include "store/trace_store.h"

namespace plx::store {

struct CutPlan {
  int64_t from = 0, to = 0;   // the window, model ns (both ends in)
  std::vector<uint8_t> keep;  // per Trace::processes index
  /// (thread << 40 | thread-local row) of message and collective records
  /// in the window that the cut leaves out.
  std::unordered_set<uint64_t> drop_messages, drop_collectives;
  /// Posted receives in the window whose receive is not in the cut, by
  /// (process, match): left out too (a post without its receive would look
  /// like a receive that never completed).
  std::unordered_set<PostKey, PostHash> drop_posts;
  std::vector<uint64_t> crossing;         // per process: message records left out
  std::vector<uint64_t> collectives_out;  // per process: collective records left out

  bool Kept(uint32_t process, int64_t time) const {
    return keep[process] != 0 && time >= from && time <= to;
  }
  static uint64_t Key(uint32_t thread, uint64_t local_row) {
    return (uint64_t{thread} << 40) | local_row;
  }
};

/// Fills the plan's sets (its window and `keep` set beforehand).
void PlanCut(const TraceStore& store, CutPlan* plan,
             const std::function<void(uint64_t, uint64_t)>& progress);

}  // namespace plx::store
