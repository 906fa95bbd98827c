#include "distributed/merge_on_first.h"

#include <vector>

namespace plx::distributed {

Status MergeOnFirst(Group& group, std::string mine, const char* what,
                    const std::function<Status(std::string_view)>& merge) {
  const std::vector<std::string> shares = group.Gather(std::move(mine));
  Status merged = Status::Ok();
  for (size_t r = 1; r < shares.size() && merged.ok(); ++r) {
    merged = merge(shares[r]);
    if (!merged.ok())
      merged = DataLoss(std::string(what) + " of process " + std::to_string(r) + ": " +
                        merged.message());
  }
  if (!group.AllOk(merged.ok())) {
    if (!merged.ok()) return merged;
    return Internal(std::string("process 0 could not merge ") + what + " of the others");
  }
  return Status::Ok();
}

}  // namespace plx::distributed
