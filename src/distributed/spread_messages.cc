#include "distributed/spread_messages.h"

#include <string>
#include <string_view>
#include <vector>

#include "base/wire.h"
#include "distributed/merge_on_first.h"
#include "distributed/share.h"
#include "store/message_pass.h"

namespace plx::distributed {

namespace {

// The Group as a message pass sees it.
class GroupSpread : public store::PassSpread {
 public:
  GroupSpread(Group& group, ThreadShare share) : group_(group), share_(share) {}
  int rank() const override { return group_.rank(); }
  int size() const override { return group_.size(); }
  bool Decodes(uint32_t thread) const override { return share_.Has(thread); }
  std::vector<std::string> Exchange(std::vector<std::string> to) override {
    return group_.Exchange(std::move(to));
  }
  bool AllOk(bool ok) override { return group_.AllOk(ok); }

 private:
  Group& group_;
  ThreadShare share_;
};

}  // namespace

StatusOr<store::StreamedMessages> SpreadMessages(
    const store::TraceStore& store, Group& group,
    const std::function<void(uint64_t, uint64_t)>& progress, const analysis::Selection* selection) {
  GroupSpread spread(group, ShareOf(store.trace(), group.rank(), group.size()));
  store::MessageSums sums = store::StreamMessageSums(store, progress, nullptr, selection, &spread);
  std::string mine;
  WirePut(&mine, sums.pairs);
  WirePut(&mine, sums.unmatched_sends);
  WirePut(&mine, sums.unmatched_recvs);
  mine += sums.matrix.Save();
  PLX_RETURN_IF_ERROR(
      MergeOnFirst(group, std::move(mine), "the message counts", [&](std::string_view saved) {
        WireReader in(saved);
        uint64_t pairs = 0, sends = 0, recvs = 0;
        if (!in.Get(&pairs) || !in.Get(&sends) || !in.Get(&recvs))
          return InvalidArgument("the counts are cut");
        PLX_RETURN_IF_ERROR(sums.matrix.MergeSaved(saved.substr(3 * sizeof(uint64_t))));
        sums.pairs += pairs;
        sums.unmatched_sends += sends;
        sums.unmatched_recvs += recvs;
        return Status::Ok();
      }));
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
