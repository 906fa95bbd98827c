// DeadlockCollector: posts wait in a table until a receive of their process
// carries their match (a receive completes after its post); what is left at
// the end was never completed.
#include "store/stream_deadlocks.h"

#include <algorithm>
#include <type_traits>

#include "base/wire.h"

namespace plx::store {

std::vector<analysis::UnclosedSlice> UnclosedSlices(const TraceStore& store,
                                                    const std::vector<time::ThreadTimeMap>* maps) {
  std::vector<analysis::UnclosedSlice> unclosed;
  for (uint32_t t = 0; t < store.threads(); ++t)
    for (const LongSlice& l : store.skeleton(t).long_slices)
      if (l.flags & model::SliceTable::kUnclosed)
        unclosed.push_back({static_cast<uint32_t>(store.thread_first(t).slices() + l.row), t,
                            l.state, l.depth, maps ? (*maps)[t].Apply(l.begin_ns) : l.begin_ns});
  std::sort(unclosed.begin(), unclosed.end(),
            [](const analysis::UnclosedSlice& a, const analysis::UnclosedSlice& b) {
              return a.slice < b.slice;
            });
  return unclosed;
}

DeadlockCollector::DeadlockCollector(const TraceStore& store,
                                     const std::vector<analysis::UnclosedSlice>* given)
    : trace_(store.trace()) {
  report_ =
      analysis::FindBlockedCalls(trace_, given ? *given : UnclosedSlices(store), &blocked_of_);
  blocked_process_.assign(trace_.processes.size(), false);
  for (const analysis::BlockedCall& b : report_.blocked)
    blocked_process_[b.process] = true;
}

void DeadlockCollector::Reset() {
  probes_.clear();
  pending_.clear();
  sends_.clear();
}

template <typename Of, typename Take>
void DeadlockCollector::Collect(const Of& of, const Take& take) {
  if (!any()) return;
  const auto threads = static_cast<uint32_t>(trace_.threads.size());
  for (uint32_t t = 0; t < threads; ++t) {
    const uint32_t process = trace_.threads[t].process;
    if (!blocked_process_[process] || blocked_of_[t] == model::kNone || !take(t)) continue;
    const analysis::BlockedCall& b = report_.blocked[blocked_of_[t]];
    for (const PostSide& p : of(t).posts[t]) {
      const analysis::DeadlockRecords::Post post{t, p.time, p.comm, p.peer, p.tag, p.match, false};
      // A probe matches no receive: it counts only if it is the blocked call's.
      if (p.match == 0) {
        if (p.time >= b.since_ns) probes_.push_back({p.row, post});
      } else {
        pending_[{process, p.match}].push_back({p.row, post});
      }
    }
  }
  for (uint32_t t = 0; t < threads; ++t) {
    const uint32_t process = trace_.threads[t].process;
    if (!blocked_process_[process] || !take(t)) continue;
    for (const MessageSide& m : of(t).messages[t])
      if (!m.send && m.match != 0) pending_.erase({process, m.match});
  }
}

void DeadlockCollector::AfterSlab(const Slab& slab) {
  Collect([&](uint32_t) -> const Slab& { return slab; },
          [&](uint32_t t) { return t < slab.posts.size() && t < slab.messages.size(); });
}

void DeadlockCollector::AfterSlab(const Slab& decoded, const Slab& joined,
                                  const PassSpread& spread) {
  // A thread decoded elsewhere: what came is this process's to join.
  Collect([&](uint32_t t) -> const Slab& { return spread.Decodes(t) ? decoded : joined; },
          [&](uint32_t t) {
            return !spread.Decodes(t) || spread.Joiner(trace_.threads[t].process) == spread.rank();
          });
}

void DeadlockCollector::Unmatched(const MessageSide& m) {
  if (!any() || !m.send || blocked_of_[m.thread] == model::kNone) return;
  std::lock_guard<std::mutex> lock(mu_);
  sends_.push_back({m.row,
                    {m.thread, m.time, m.comm, m.peer, m.tag, m.call.slice,
                     m.call.slice == model::kNone ? model::kNone : m.call.state}});
}

analysis::DeadlockReport DeadlockCollector::Finish() {
  if (!any()) return std::move(report_);
  std::vector<std::pair<uint32_t, analysis::DeadlockRecords::Post>> posts = std::move(probes_);
  for (auto& [key, list] : pending_)
    posts.insert(posts.end(), list.begin(), list.end());
  const auto by_row = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::sort(posts.begin(), posts.end(), by_row);
  std::sort(sends_.begin(), sends_.end(), by_row);
  analysis::DeadlockRecords records;
  for (const auto& [row, post] : posts)
    records.posts.push_back(post);
  for (const auto& [row, send] : sends_)
    records.sends.push_back(send);
  analysis::FinishDeadlocks(trace_, blocked_of_, records, &report_);
  return std::move(report_);
}

static_assert(std::is_trivially_copyable_v<analysis::DeadlockRecords::Post>);
static_assert(std::is_trivially_copyable_v<analysis::DeadlockRecords::Send>);

std::string DeadlockCollector::Save() const {
  std::string out;
  if (!any()) return out;
  const auto put = [&](const auto& list) {
    WirePut(&out, static_cast<uint64_t>(list.size()));
    for (const auto& [row, record] : list) {
      WirePut(&out, row);
      WirePut(&out, record);
    }
  };
  std::vector<std::pair<uint32_t, analysis::DeadlockRecords::Post>> posts = probes_;
  for (const auto& [key, list] : pending_)
    posts.insert(posts.end(), list.begin(), list.end());
  put(posts);
  put(sends_);
  return out;
}

Status DeadlockCollector::MergeSaved(std::string_view saved) {
  if (!any()) return saved.empty() ? Status::Ok() : InvalidArgument("saved deadlocks: unasked");
  WireReader in(saved);
  const auto get = [&](auto* list) {
    uint64_t n = 0;
    bool ok = in.Get(&n);
    for (uint64_t i = 0; ok && i < n; ++i) {
      typename std::remove_pointer_t<decltype(list)>::value_type r;
      ok = in.Get(&r.first) && in.Get(&r.second) && r.second.thread < blocked_of_.size();
      if (ok) list->push_back(r);
    }
    return ok;
  };
  // Posts still pending elsewhere join the probes: Finish takes both alike.
  std::vector<std::pair<uint32_t, analysis::DeadlockRecords::Post>> posts;
  std::vector<std::pair<uint32_t, analysis::DeadlockRecords::Send>> sends;
  if (!get(&posts) || !get(&sends) || !in.done())
    return InvalidArgument("saved deadlocks: cut or too long");
  probes_.insert(probes_.end(), posts.begin(), posts.end());
  sends_.insert(sends_.end(), sends.begin(), sends.end());
  return Status::Ok();
}

}  // namespace plx::store
