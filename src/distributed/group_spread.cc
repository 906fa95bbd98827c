#include "distributed/group_spread.h"

namespace plx::distributed {

GroupSpread::GroupSpread(const model::Trace& trace, Group& group) : group_(group) {
  const std::vector<uint32_t> first = ShareThreads(trace, group.size());
  share_ = {first[static_cast<size_t>(group.rank())], first[static_cast<size_t>(group.rank()) + 1]};
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

int GroupSpread::Joiner(uint32_t process) const {
  return process < joiner_.size() ? joiner_[process]
                                  : static_cast<int>(process % static_cast<uint32_t>(size()));
}

}  // namespace plx::distributed
