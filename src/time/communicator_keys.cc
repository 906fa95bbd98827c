#include "time/communicator_keys.h"

#include <string>

namespace plx::time {

std::vector<std::pair<CommKeyClass, uint64_t>> CommunicatorKeys(const model::Trace& trace) {
  std::vector<std::pair<CommKeyClass, uint64_t>> out;
  std::unordered_map<std::string, uint64_t> names;
  out.reserve(trace.communicators.size());
  for (const model::Communicator& c : trace.communicators) {
    if (c.global_id != 0)
      out.emplace_back(CommKeyClass::kGlobal, c.global_id);
    else
      out.emplace_back(CommKeyClass::kNamed, names.try_emplace(c.name, names.size()).first->second);
  }
  return out;
}

std::unordered_map<int64_t, uint32_t> ProcessesByRank(const model::Trace& trace) {
  std::unordered_map<int64_t, uint32_t> by_rank;
  for (uint32_t i = 0; i < trace.processes.size(); ++i) {
    const int64_t rank = trace.processes[i].rank >= 0 ? trace.processes[i].rank : int64_t{i};
    by_rank.try_emplace(rank, i);
  }
  return by_rank;
}

}  // namespace plx::time
