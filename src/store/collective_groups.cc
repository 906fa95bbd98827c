// CollectiveGroups: per (communicator key, process) a sequence number, per
// (communicator key, number) the members.
#include "store/collective_groups.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace plx::store {

CollectiveGroups::CollectiveGroups(const model::Trace& trace)
    : trace_(trace), keys_(time::CommunicatorKeys(trace)) {}

void CollectiveGroups::Reset(int64_t horizon_ns) {
  horizon_ = horizon_ns;
  next_.clear();
  open_.clear();
  created_.clear();
}

bool CollectiveGroups::Add(const std::vector<std::vector<CollectiveSide>>& by_thread, int64_t until,
                           const Done& done) {
  std::vector<const CollectiveSide*> slab;
  for (const std::vector<CollectiveSide>& v : by_thread)
    for (const CollectiveSide& c : v)
      slab.push_back(&c);
  // Each process's records on a communicator in (time, row) order, as
  // GroupCollectives numbers them.
  std::sort(slab.begin(), slab.end(), [](const CollectiveSide* a, const CollectiveSide* b) {
    return std::tie(a->time, a->row) < std::tie(b->time, b->row);
  });
  bool in_order = true;
  for (const CollectiveSide* c : slab) {
    if (c->comm >= trace_.communicators.size()) continue;
    const auto key = keys_[c->comm];
    const uint32_t process = trace_.threads[c->thread].process;
    const uint64_t k = next_[{key, process}]++;
    uint64_t& created = created_[key];
    auto it = open_.find({key, k});
    if (it == open_.end()) {
      if (k < created) in_order = false;  // its instance was handed on already
      it = open_.emplace(Key{key, k}, Instance()).first;
      created = std::max(created, k + 1);
    }
    it->second.members.push_back(*c);
    it->second.latest = std::max(it->second.latest, c->time);
  }
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  HandOn(done, until < kMin + horizon_ ? kMin : until - horizon_);
  return in_order;
}

void CollectiveGroups::HandOn(const Done& done, int64_t before) {
  std::vector<std::pair<int64_t, std::map<Key, Instance>::iterator>> ready;
  for (auto it = open_.begin(); it != open_.end(); ++it)
    if (it->second.latest < before) {
      int64_t earliest = std::numeric_limits<int64_t>::max();
      for (const CollectiveSide& m : it->second.members)
        earliest = std::min(earliest, m.time);
      ready.push_back({earliest, it});
    }
  std::sort(ready.begin(), ready.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first, a.second->first) < std::tie(b.first, b.second->first);
  });
  for (auto& [earliest, it] : ready) {
    std::vector<CollectiveSide>& members = it->second.members;
    std::sort(members.begin(), members.end(),
              [](const CollectiveSide& a, const CollectiveSide& b) { return a.row < b.row; });
    const Key& key = it->first;
    done(members, {static_cast<uint64_t>(key.first.first), key.first.second, key.second});
    open_.erase(it);
  }
}

void CollectiveGroups::Finish(const Done& done) {
  HandOn(done, std::numeric_limits<int64_t>::max());
}

void PutCollectives(const std::vector<std::vector<CollectiveSide>>& by_thread, std::string* out) {
  std::vector<uint32_t> with;
  for (uint32_t t = 0; t < by_thread.size(); ++t)
    if (!by_thread[t].empty()) with.push_back(t);
  WirePut(out, static_cast<uint64_t>(with.size()));
  for (uint32_t t : with) {
    WirePut(out, t);
    WirePutAll(out, by_thread[t]);
  }
}

bool GetCollectives(WireReader* in, std::vector<std::vector<CollectiveSide>>* by_thread) {
  uint64_t threads = 0;
  bool ok = in->Get(&threads);
  for (uint64_t k = 0; ok && k < threads; ++k) {
    uint32_t t = 0;
    ok = in->Get(&t) && t < by_thread->size() && in->GetAll(&(*by_thread)[t]);
  }
  return ok;
}

}  // namespace plx::store
