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
// A process's records are joined by the process that decodes its first
// thread: its receives (and posts) are joined where they are decoded.
class GroupSpread : public store::PassSpread {
 public:
  GroupSpread(const model::Trace& trace, Group& group) : group_(group) {
    const std::vector<uint32_t> first = ShareThreads(trace, group.size());
    share_ = {first[static_cast<size_t>(group.rank())],
              first[static_cast<size_t>(group.rank()) + 1]};
    joiner_.assign(trace.processes.size(), 0);
    std::vector<bool> seen(trace.processes.size(), false);
    int rank = 0;
    for (uint32_t t = 0; t < trace.threads.size(); ++t) {
      while (t >= first[static_cast<size_t>(rank) + 1])
        ++rank;
      const uint32_t p = trace.threads[t].process;
      if (p < seen.size() && !seen[p]) seen[p] = true, joiner_[p] = rank;
    }
    // A process without threads: any process will do, spread by index.
    for (size_t p = 0; p < seen.size(); ++p)
      if (!seen[p]) joiner_[p] = static_cast<int>(p % static_cast<size_t>(group.size()));
  }
  int rank() const override { return group_.rank(); }
  int size() const override { return group_.size(); }
  bool Decodes(uint32_t thread) const override { return share_.Has(thread); }
  int Joiner(uint32_t process) const override {
    return process < joiner_.size() ? joiner_[process]
                                    : static_cast<int>(process % static_cast<uint32_t>(size()));
  }
  std::vector<std::string> Exchange(std::vector<std::string> to) override {
    return group_.Exchange(std::move(to));
  }
  bool AllOk(bool ok) override { return group_.AllOk(ok); }

 private:
  Group& group_;
  ThreadShare share_;
  std::vector<int> joiner_;  // per process
};

}  // namespace

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
