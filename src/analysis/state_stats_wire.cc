// StateStatsBuilder's bytes: what one process of an MPI-parallel analysis
// sends the process that merges. Per thread its (state, sums) rows, then
// every (state, call site) key with its sums; counts before lists, each
// field as base/wire.h writes it. The sums are exact integers, so the
// merged report is the one-process report.
#include <type_traits>

#include "analysis/state_stats.h"
#include "base/wire.h"

namespace plx::analysis {

static_assert(std::is_trivially_copyable_v<DurationSums>);

std::string StateStatsBuilder::Save() const {
  std::string out;
  WirePut(&out, uint64_t{threads_.size()});
  for (const auto& rows : threads_) {
    WirePut(&out, uint64_t{rows.size()});
    for (const auto& [state, sums] : rows) {
      WirePut(&out, state);
      WirePut(&out, sums);
    }
  }
  uint64_t keys = 0;
  for (uint32_t id = 0; id < keys_.size(); ++id)
    keys += id < callsites_.size() && callsites_[id].count > 0;
  WirePut(&out, keys);
  for (uint32_t id = 0; id < keys_.size(); ++id) {
    if (id >= callsites_.size() || callsites_[id].count == 0) continue;
    WirePut(&out, keys_.state(id));
    WirePut(&out, keys_.callsite(id));
    WirePut(&out, callsites_[id]);
  }
  return out;
}

Status StateStatsBuilder::MergeSaved(std::string_view saved) {
  StateStatsBuilder other(trace_);
  WireReader in(saved);
  const size_t states = trace_.states.size();
  uint64_t threads = 0;
  if (!in.Get(&threads) || threads != threads_.size())
    return InvalidArgument("saved statistics: thread count " + std::to_string(threads) +
                           ", the trace has " + std::to_string(threads_.size()));
  for (auto& rows : other.threads_) {
    uint64_t n = 0;
    if (!in.Get(&n) || n > states)
      return InvalidArgument("saved statistics: bad state row count " + std::to_string(n));
    rows.resize(n);
    int64_t last = -1;  // rows come by state, each once
    for (auto& [state, sums] : rows) {
      if (!in.Get(&state) || !in.Get(&sums) || state >= states ||
          static_cast<int64_t>(state) <= last)
        return InvalidArgument("saved statistics: a thread's state row is cut or out of order");
      last = state;
    }
  }
  uint64_t keys = 0;
  if (!in.Get(&keys)) return InvalidArgument("saved statistics: the call site rows are missing");
  for (uint64_t k = 0; k < keys; ++k) {
    uint32_t state = 0, callsite = 0;
    DurationSums sums;
    if (!in.Get(&state) || !in.Get(&callsite) || !in.Get(&sums) || state >= states)
      return InvalidArgument("saved statistics: call site row " + std::to_string(k) +
                             " is cut or out of range");
    const uint32_t id = other.keys_.Id(state, callsite);
    if (id >= other.callsites_.size()) other.callsites_.resize(id + 1);
    other.callsites_[id].Merge(sums);
  }
  if (!in.done()) return InvalidArgument("saved statistics: bytes after the last row");
  Merge(std::move(other));
  return Status::Ok();
}

}  // namespace plx::analysis
