// Deadlock detection over a trace store (analysis::DetectDeadlocks), riding
// on a message pass: the blocked calls come from the skeletons (the slices
// still open at each thread's end are long slices); only when there are
// some does the pass keep the blocked threads' posted receives that no
// receive completed and their unmatched sends.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "analysis/deadlock.h"
#include "store/lockstep.h"
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
  /// A message left unmatched (from any partition's consumer).
  void Unmatched(const MessageSide& m);
  /// The report, once the pass is done.
  analysis::DeadlockReport Finish();

 private:
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
