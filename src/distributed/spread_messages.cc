#include "distributed/spread_messages.h"

#include <string>
#include <string_view>
#include <vector>

#include "base/wire.h"
#include "distributed/group_spread.h"
#include "distributed/merge_on_first.h"
#include "distributed/share.h"
#include "store/message_pass.h"

namespace plx::distributed {

StatusOr<store::StreamedMessages> SpreadMessages(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress, const analysis::Selection* selection) {
  GroupSpread spread(store.trace(), group);
  store::MessageSums sums = store::StreamMessageSums(store, progress, nullptr, selection, &spread);
  std::string mine;
  WirePut(&mine, sums.pairs);
  WirePut(&mine, sums.unmatched_sends);
  WirePut(&mine, sums.unmatched_recvs);
  mine += sums.matrix.Save();
  const auto merge = [&](std::string_view saved) {
    WireReader in(saved);
    uint64_t pairs = 0, sends = 0, recvs = 0;
    if (!in.Get(&pairs) || !in.Get(&sends) || !in.Get(&recvs))
      return InvalidArgument("the counts are cut");
    const Status merged = sums.matrix.MergeSaved(saved.substr(3 * sizeof(uint64_t)));
    if (!merged.ok()) return merged;
    sums.pairs += pairs;
    sums.unmatched_sends += sends;
    sums.unmatched_recvs += recvs;
    return Status::Ok();
  };
  PLX_RETURN_IF_ERROR(MergeOnFirst(group, std::move(mine), "the message counts", merge));
  return store::StreamedMessages{sums.pairs, sums.unmatched_sends, sums.unmatched_recvs,
                                 sums.matrix.Finish()};
}

StatusOr<analysis::RmaMatrix> SpreadRmaMatrix(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress) {
  const ThreadShare share = ShareOf(store.trace(), group.rank(), group.size());
  analysis::RmaMatrixBuilder builder =
      store::StreamRmaBuilder(store, progress, [share](uint32_t t) { return share.Has(t); });
  PLX_RETURN_IF_ERROR(
      MergeOnFirst(group, builder.Save(), "the RMA matrix",
                   [&](std::string_view saved) { return builder.MergeSaved(saved); }));
  return builder.matrix();
}

}  // namespace plx::distributed
