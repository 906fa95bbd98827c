// The OTF2 exporter's plan (see otf2_exporter.h): OTF2 communicators from the
// model's, and the receives that become MpiIrecvRequest/MpiIrecv pairs.
#include <algorithm>
#include <map>
#include <utility>

#include "interop/otf2/otf2_exporter.h"

namespace plx::interop::otf2 {

void Exporter::PlanCommunicators() {
  // World ranks: the first thread of each MPI process, in rank order.
  std::vector<std::pair<int64_t, uint32_t>> ranked;  // (rank, process)
  std::vector<uint32_t> first_thread(t_.processes.size(), model::kNone);
  for (uint32_t th = 0; th < t_.threads.size(); ++th) {
    uint32_t& f = first_thread[t_.threads[th].process];
    if (f == model::kNone) f = th;
  }
  for (uint32_t p = 0; p < t_.processes.size(); ++p) {
    if (t_.processes[p].rank >= 0 && first_thread[p] != model::kNone)
      ranked.emplace_back(t_.processes[p].rank, p);
  }
  std::sort(ranked.begin(), ranked.end());
  std::unordered_map<int64_t, uint64_t> position_of_rank;
  for (const auto& [rank, p] : ranked) {
    if (!position_of_rank.try_emplace(rank, mpi_locations_.size()).second) continue;
    mpi_locations_.push_back(first_thread[p]);
    mpi_ranks_.push_back(rank);
  }

  std::map<std::pair<uint64_t, std::string>, uint32_t> by_key;  // (global id, name or "")
  comm_of_.assign(t_.communicators.size(), kNoComm);
  for (uint32_t c = 0; c < t_.communicators.size(); ++c) {
    const model::Communicator& mc = t_.communicators[c];
    std::pair<uint64_t, std::string> key;
    if (mc.kind == 1) {
      key = {~uint64_t{0} - c, ""};  // streams of one process: never shared
    } else {
      key = mc.global_id != 0 ? std::make_pair(mc.global_id, std::string())
                              : std::make_pair(uint64_t{0}, mc.name);
    }
    auto [it, inserted] = by_key.try_emplace(key, static_cast<uint32_t>(comms_.size()));
    comm_of_[c] = it->second;
    if (!inserted) continue;
    OtfComm oc;
    oc.name = mc.name;
    oc.kind = mc.kind;
    if (mc.kind == 1) {
      // Members are the process's threads in stream order; their positions in
      // the PTHREAD COMM_LOCATIONS group are their thread (location) numbers.
      std::vector<std::pair<uint32_t, uint32_t>> streams;  // (stream, thread)
      for (uint32_t th = 0; th < t_.threads.size(); ++th) {
        if (t_.threads[th].process == mc.process)
          streams.emplace_back(t_.threads[th].file_stream, th);
      }
      std::sort(streams.begin(), streams.end());
      for (const auto& [stream, th] : streams) {
        oc.rank_of.emplace(stream, static_cast<uint32_t>(oc.group_members.size()));
        oc.group_members.push_back(th);
      }
    } else {
      const std::vector<int64_t> all(mpi_ranks_.begin(), mpi_ranks_.end());
      for (int64_t rank : mc.members.empty() ? all : mc.members.vec()) {
        auto pos = position_of_rank.find(rank);
        if (pos == position_of_rank.end()) continue;  // a rank without a process
        oc.rank_of.emplace(rank, static_cast<uint32_t>(oc.group_members.size()));
        oc.group_members.push_back(pos->second);
      }
    }
    comms_.push_back(std::move(oc));
  }
}

// A receive whose post is recorded on the same thread becomes MpiIrecvRequest
// (at the post) and MpiIrecv (at the receive) with one request id.
void Exporter::PlanRecvPosts() {
  const model::RecvPostTable& p = t_.recv_posts;
  request_of_post_.assign(p.size(), 0);
  if (p.size() == 0) return;
  const model::MessageTable& m = t_.messages;
  struct Hash {
    size_t operator()(const std::pair<uint32_t, uint64_t>& k) const {
      return std::hash<uint64_t>()(k.second * 0x9e3779b97f4a7c15ull ^ k.first);
    }
  };
  std::unordered_map<std::pair<uint32_t, uint64_t>, uint32_t, Hash> recv_of;  // (thread, match)
  for (uint32_t r = 0; r < m.size(); ++r) {
    if (!m.is_send[r] && m.match[r] != 0) recv_of.try_emplace({m.thread[r], m.match[r]}, r);
  }
  uint64_t next = 1;
  for (uint32_t r = 0; r < p.size(); ++r) {
    if (p.match[r] == 0) continue;  // a probe: no receive to carry it
    auto it = recv_of.find({p.thread[r], p.match[r]});
    if (it == recv_of.end() || m.time[it->second] < p.time[r]) continue;
    if (!request_of_recv_.try_emplace(it->second, next).second) continue;
    request_of_post_[r] = next++;
  }
}

}  // namespace plx::interop::otf2
