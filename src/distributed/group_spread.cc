#include "distributed/group_spread.h"

#include <algorithm>

namespace plx::distributed {

GroupSpread::GroupSpread(const model::Trace& trace, Group& group) : group_(group) {
  first_ = ShareThreads(trace, group.size());
  const std::vector<uint32_t>& first = first_;
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

int GroupSpread::Decoder(uint32_t thread) const {
  // The last process whose first thread is at or before it.
  const auto after = std::upper_bound(first_.begin(), first_.end() - 1, thread);
  return static_cast<int>(after - first_.begin()) - 1;
}

int GroupSpread::Joiner(uint32_t process) const {
  return process < joiner_.size() ? joiner_[process]
                                  : static_cast<int>(process % static_cast<uint32_t>(size()));
}

}  // namespace plx::distributed
