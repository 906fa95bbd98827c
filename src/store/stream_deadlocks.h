// Deadlock detection over a trace store (analysis::DetectDeadlocks), riding
// on a message pass: the blocked calls come from the skeletons (the slices
// still open at each thread's end are long slices); only when there are
// some does the pass keep the blocked threads' posted receives that no
// receive completed and their unmatched sends.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/deadlock.h"
#include "base/status.h"
#include "store/lockstep.h"
#include "store/message_pass.h"
#include "store/record_sides.h"
#include "store/trace_store.h"

namespace plx::store {

/// The slices never closed, from the skeletons, by row. With `maps`, their
/// begins on the repaired times: a map never puts a later time before an
/// earlier one (its shifts change by less than the time between), so a
/// begin moves as TimeMapper moves it.
std::vector<analysis::UnclosedSlice> UnclosedSlices(
    const TraceStore& store, const std::vector<time::ThreadTimeMap>* maps = nullptr);

class DeadlockCollector {
 public:
  /// The unclosed slices come from the skeletons, or from `unclosed` (on
  /// repaired times) when given.
  DeadlockCollector(const TraceStore& store, const std::vector<analysis::UnclosedSlice>* unclosed);

  /// Whether any call was blocked (else the other calls do nothing).
  bool any() const { return !report_.blocked.empty(); }
  /// Starts again (a new attempt of the pass).
  void Reset();
  /// A slab's posted receives and receives (on the caller's thread).
  void AfterSlab(const Slab& slab);
  /// Spread over processes (MessagePassOptions::after_joins): the posted
  /// receives and receives this process joins, which are every one of the
  /// traced processes it joins, from the slab it decoded and those others
  /// sent it.
  void AfterSlab(const Slab& decoded, const Slab& joined, const PassSpread& spread);
  /// A message left unmatched (from any partition's consumer).
  void Unmatched(const MessageSide& m);
  /// The report, once the pass is done.
  analysis::DeadlockReport Finish();

  /// Spread: what this process collected as bytes (base/wire.h), for the
  /// process that finishes, which merges every other's with MergeSaved
  /// (the records are sorted by row when it finishes).
  std::string Save() const;
  Status MergeSaved(std::string_view saved);

 private:
  // Posts of `of(t)`'s thread t, then its receives, for the threads `take`
  // selects.
  template <typename Of, typename Take>
  void Collect(const Of& of, const Take& take);

  const model::Trace& trace_;
  analysis::DeadlockReport report_;
  std::vector<uint32_t> blocked_of_;                                          // per thread
  std::vector<bool> blocked_process_;                                         // per process
  std::vector<std::pair<uint32_t, analysis::DeadlockRecords::Post>> probes_;  // (row, post)
  std::unordered_map<PostKey, std::vector<std::pair<uint32_t, analysis::DeadlockRecords::Post>>,
                     PostHash>
      pending_;  // posts no receive completed (yet), by (process, match)
  std::mutex mu_;
  std::vector<std::pair<uint32_t, analysis::DeadlockRecords::Send>> sends_;  // (row, send)
};

}  // namespace plx::store
