// PlanCut: a message pass pairs every message (as the loader's matching
// does); a pair with one end kept and the other not loses the kept end.
// Collectives are grouped by position (the k-th record of a communicator on
// every process is one operation), so the cut keeps, per communicator, only
// the operations whose records on the kept processes all fall in it; a
// record of an operation cut in two would shift every later one.
#include "store/cut_plan.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "store/message_pass.h"
#include "time/communicator_keys.h"

namespace plx::store {
namespace {

class CutMessages : public MessageConsumer {
 public:
  CutMessages(const TraceStore& store, const CutPlan& plan) : store_(store), plan_(plan) {}

  void Pair(const MessageSide& send, const MessageSide& recv, bool has_post,
            int64_t post_time) override {
    const bool s = Kept(send), r = Kept(recv);
    if (s && !r) Drop(send);
    if (r && !s) Drop(recv);
    if (!r && has_post && recv.match != 0 && plan_.Kept(Process(recv), post_time))
      posts.insert({Process(recv), recv.match});
  }

  std::vector<std::pair<uint32_t, uint64_t>> dropped;  // (thread, global row)
  std::unordered_set<PostKey, PostHash> posts;         // to drop

 private:
  uint32_t Process(const MessageSide& m) const { return store_.trace().threads[m.thread].process; }
  bool Kept(const MessageSide& m) const { return plan_.Kept(Process(m), m.time); }
  void Drop(const MessageSide& m) { dropped.emplace_back(m.thread, m.row); }

  const TraceStore& store_;
  const CutPlan& plan_;
};

// The collectives of the kept processes, numbered per (process,
// communicator): how many each has before the window, in it, and in all.
class CollectiveCount {
 public:
  CollectiveCount(const TraceStore& store, const CutPlan& plan)
      : store_(store), plan_(plan), keys_(time::CommunicatorKeys(store.trace())) {}

  void Reset() {
    slots_.clear();
    window_.clear();
  }
  void Add(const Slab& slab) {
    for (size_t t = 0; t < slab.collectives.size(); ++t) {
      const uint32_t process = store_.trace().threads[t].process;
      if (!plan_.keep[process]) continue;
      for (const CollectiveSide& c : slab.collectives[t]) {
        if (c.comm >= keys_.size()) continue;  // no communicator: never grouped
        Count& n = slots_[{keys_[c.comm], process}];
        const uint64_t k = n.total++;
        if (c.time < plan_.from) ++n.before;
        if (!plan_.Kept(process, c.time)) continue;
        ++n.in;
        window_.push_back({static_cast<uint32_t>(t), c.row, process, keys_[c.comm], k});
      }
    }
  }
  /// The window's records of operations that have records outside it: the
  /// k-th operation is whole when every process with more than k records
  /// of the communicator has its k-th in the window.
  void Drop(CutPlan* plan) const {
    struct Bounds {
      std::vector<uint64_t> totals;  // descending
      std::vector<uint64_t> first;   // the most `before` of the processes up to here
      std::vector<uint64_t> end;     // the least `before + in` of the processes up to here
    };
    std::map<Comm, std::vector<Count>> by_comm;
    for (const auto& [slot, n] : slots_)
      by_comm[slot.first].push_back(n);
    std::map<Comm, Bounds> bounds;
    for (auto& [comm, counts] : by_comm) {
      std::sort(counts.begin(), counts.end(),
                [](const Count& a, const Count& b) { return a.total > b.total; });
      Bounds& b = bounds[comm];
      for (const Count& n : counts) {
        b.totals.push_back(n.total);
        b.first.push_back(std::max(b.first.empty() ? 0 : b.first.back(), n.before));
        b.end.push_back(std::min(b.end.empty() ? UINT64_MAX : b.end.back(), n.before + n.in));
      }
    }
    for (const Record& r : window_) {
      const Bounds& b = bounds.at(r.comm);
      // The processes with more than k records: a prefix (at least r's own).
      const size_t n = std::partition_point(b.totals.begin(), b.totals.end(),
                                            [&](uint64_t total) { return total > r.k; }) -
                       b.totals.begin();
      if (n > 0 && r.k >= b.first[n - 1] && r.k < b.end[n - 1]) continue;
      const uint64_t local = r.row - store_.thread_first(r.thread).table[kCollectives];
      plan->drop_collectives.insert(CutPlan::Key(r.thread, local));
      ++plan->collectives_out[r.process];
    }
  }

 private:
  using Comm = std::pair<time::CommKeyClass, uint64_t>;
  struct Count {
    uint64_t total = 0, before = 0, in = 0;
  };
  struct Record {
    uint32_t thread;
    uint32_t row;  // global
    uint32_t process;
    Comm comm;
    uint64_t k;
  };
  const TraceStore& store_;
  const CutPlan& plan_;
  std::vector<Comm> keys_;
  std::map<std::pair<Comm, uint32_t>, Count> slots_;
  std::vector<Record> window_;
};

}  // namespace

void PlanCut(const TraceStore& store, CutPlan* plan,
             const std::function<void(uint64_t, uint64_t)>& progress) {
  const size_t processes = store.trace().processes.size();
  plan->crossing.assign(processes, 0);
  plan->collectives_out.assign(processes, 0);
  const RowCounts& totals = store.totals();
  if (totals.table[kMessages] == 0 && totals.table[kCollectives] == 0) return;
  CollectiveCount collectives(store, *plan);
  MessagePassOptions options;
  options.begin_attempt = [&](int64_t) { collectives.Reset(); };
  options.after_slab = [&](const Slab& slab) {
    collectives.Add(slab);
    return true;
  };
  auto consumers = RunMessagePass(
      store, [&](size_t) { return std::make_unique<CutMessages>(store, *plan); }, options,
      progress);
  for (const auto& c : consumers) {
    const auto& m = static_cast<const CutMessages&>(*c);
    for (const auto& [thread, row] : m.dropped) {
      const uint64_t local = row - store.thread_first(thread).table[kMessages];
      plan->drop_messages.insert(CutPlan::Key(thread, local));
      ++plan->crossing[store.trace().threads[thread].process];
    }
    plan->drop_posts.insert(m.posts.begin(), m.posts.end());
  }
  collectives.Drop(plan);
}

}  // namespace plx::store
