// The mountain range of a trace served from its file: per time bin of the
// whole trace, how long threads spent innermost in each state, gathered by
// a thread pass (its visitors ride along the statistics pass). A window
// whose buckets are each at least two bins wide is answered from the bins;
// finer ones need the window's chunks (server/timeline/store_timeline.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/concurrency_profile.h"
#include "model/trace.h"
#include "store/index_results.h"
#include "store/thread_pass.h"

namespace plx::store {

class MountainBins {
 public:
  static constexpr size_t kMaxBins = 1 << 16;

  /// Bins over [defs.begin_ns, defs.end_ns], a power of two of ns wide, as
  /// many as `bytes` hold (8 bytes a state and bin), at most kMaxBins.
  MountainBins(const model::Trace& defs, uint64_t bytes);

  /// Bins with `counts` (from the trace index), when they are the bins of
  /// `defs` (its span and states) and fit in `bytes`; else null.
  static std::unique_ptr<MountainBins> FromCounts(const model::Trace& defs, MountainCounts counts,
                                                  uint64_t bytes);
  MountainCounts Counts() const;

  /// A visitor per pass worker; all add into these bins (atomically).
  std::vector<std::unique_ptr<ChunkVisitor>> Visitors(size_t workers);

  int64_t bin_ns() const { return bin_ns_; }
  size_t bins() const { return bins_; }

  /// The thread profile of [from_ns, to_ns) in `buckets` (>= 1) buckets
  /// (model times), from the bins: a bin partly in a bucket counts in
  /// proportion (exact where every bucket edge is a bin edge; coarse where
  /// buckets are narrower than a few bins).
  analysis::ConcurrencyProfile Profile(int64_t from_ns, int64_t to_ns, size_t buckets) const;

 private:
  friend class InnermostSweep;
  MountainBins() = default;
  void Add(uint32_t state, int64_t begin, int64_t end);

  int64_t begin_ = 0, end_ = 0;  // the trace's span
  int64_t bin_ns_ = 1;
  size_t bins_ = 1;
  size_t states_ = 0;
  std::vector<std::atomic<int64_t>> ns_;  // [bin * states_ + state]
};

}  // namespace plx::store
