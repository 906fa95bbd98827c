#include "distributed/spread_repair.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/wire.h"
#include "distributed/group_spread.h"
#include "distributed/merge_on_first.h"
#include "distributed/share.h"
#include "store/index_file.h"
#include "store/thread_pass.h"

namespace plx::distributed {

namespace {

// Process 0 sends every other process the maps of its threads that move
// anything: (thread, anchors, shifts) each.
Status HandOutMaps(const store::TraceStore& store, Group& group,
                   std::vector<time::ThreadTimeMap>* maps) {
  const auto n = static_cast<size_t>(group.size());
  const uint32_t threads = store.threads();
  std::vector<std::string> to(n);
  if (group.rank() == 0) {
    const std::vector<uint32_t> first = ShareThreads(store.trace(), group.size());
    for (size_t r = 1; r < n; ++r)
      for (uint32_t t = first[r]; t < first[r + 1] && t < maps->size(); ++t) {
        const time::ThreadTimeMap& m = (*maps)[t];
        if (m.is_identity()) continue;
        WirePut(&to[r], t);
        WirePutAll(&to[r], m.anchors);
        WirePutAll(&to[r], m.shifts);
      }
  }
  const std::vector<std::string> from = group.Exchange(std::move(to));
  bool ok = true;
  if (group.rank() != 0) {
    maps->assign(threads, time::ThreadTimeMap());
    WireReader in(from[0]);
    while (ok && !in.done()) {
      uint32_t t = 0;
      ok = in.Get(&t) && t < threads && in.GetAll(&(*maps)[t].anchors) &&
           in.GetAll(&(*maps)[t].shifts) && (*maps)[t].anchors.size() == (*maps)[t].shifts.size();
    }
  }
  if (!group.AllOk(ok))
    return ok ? Internal("another process could not read its time maps")
              : DataLoss("the time maps process 0 sent are cut");
  return Status::Ok();
}

}  // namespace

StatusOr<store::StreamedRepair> SpreadRepair(
    const store::TraceStore& store, Group& group, const time::RepairOptions& options,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  PLX_RETURN_IF_ERROR(store::CheckRepairOptions(options));
  // Every process reads the same index: it has the repair everywhere or
  // (replaced meanwhile, unreadable on one) it is computed again.
  std::optional<store::IndexedRepair> kept = store.FindRepair(options);
  if (group.AllOk(kept.has_value())) {
    if (progress) progress(1, 1);
    return store::StreamedRepair{std::move(kept->report), std::move(kept->maps)};
  }
  kept.reset();
  GroupSpread spread(store.trace(), group);
  StatusOr<store::StreamedRepair> solved =
      store::SolveRepair(store, options, progress, {}, &spread);
  if (!group.AllOk(solved.ok()))
    return solved.ok() ? Internal("another process could not take part in the causal repair")
                       : solved.status();
  if (group.rank() == 0 && options.pairs == nullptr) {
    store::IndexedRepair keep{options, std::move(solved->report), std::move(solved->maps)};
    store.KeepRepair(&keep);
    *solved = store::StreamedRepair{std::move(keep.report), std::move(keep.maps)};
  }
  PLX_RETURN_IF_ERROR(HandOutMaps(store, group, &solved->maps));
  return solved;
}

StatusOr<time::TimeMapStats> SpreadTimeMapStats(
    const store::TraceStore& store, Group& group, const std::vector<time::ThreadTimeMap>& maps,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  const ThreadShare share = ShareOf(store.trace(), group.rank(), group.size());
  time::TimeMapStats stats = store::MeasureTimeMaps(
      store, maps, progress, [share](uint32_t thread) { return share.Has(thread); });
  std::string mine;
  WirePut(&mine, stats);
  PLX_RETURN_IF_ERROR(
      MergeOnFirst(group, std::move(mine), "what the time maps moved", [&](std::string_view bytes) {
        WireReader in(bytes);
        time::TimeMapStats s;
        if (!in.Get(&s) || !in.done()) return InvalidArgument("the counts are cut");
        store::AddTimeMapStats(&stats, s);
        return Status::Ok();
      }));
  return stats;
}

}  // namespace plx::distributed
