// The last step of every spread analysis: each process's result as bytes to
// process 0, which merges them in rank order; then every process learns
// whether that worked, so none waits on a process 0 that gave up.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "distributed/group.h"

namespace plx::distributed {

/// `merge` is called on process 0 with the bytes of processes 1 .. size-1,
/// in order (its own result is already in place); `what` names the result
/// in errors ("the statistics"). An error on any process is an error on all.
Status MergeOnFirst(Group& group, std::string mine, const char* what,
                    const std::function<Status(std::string_view)>& merge);

}  // namespace plx::distributed
