// The wait states' builder as bytes (base/wire.h): the totals of the whole
// trace, of every process and thread, the call sites' (key, totals) as
// added, and the instances kept. Everything is read before anything is
// merged, so bytes that are cut merge nothing.
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "analysis/wait_states.h"
#include "base/wire.h"

namespace plx::analysis {

static_assert(std::is_trivially_copyable_v<WaitTotals>);
static_assert(std::is_trivially_copyable_v<WaitInstance>);

std::string WaitStatesBuilder::Save() const {
  std::string out;
  WirePut(&out, r_.all);
  WirePutAll(&out, r_.processes);
  WirePutAll(&out, r_.threads);
  WirePut(&out, static_cast<uint64_t>(callsites_.size()));
  for (const auto& [key, totals] : callsites_) {
    WirePut(&out, key);
    WirePut(&out, totals);
  }
  WirePutAll(&out, r_.instances);
  return out;
}

Status WaitStatesBuilder::MergeSaved(std::string_view saved) {
  WireReader in(saved);
  WaitStatesBuilder other(trace_);
  other.r_.processes.clear();
  other.r_.threads.clear();
  uint64_t callsites = 0;
  bool ok = in.Get(&other.r_.all) && in.GetAll(&other.r_.processes) &&
            in.GetAll(&other.r_.threads) && in.Get(&callsites);
  // Grown as read: a damaged count allocates nothing.
  for (uint64_t i = 0; ok && i < callsites; ++i) {
    std::pair<uint64_t, WaitTotals> c;
    ok = in.Get(&c.first) && in.Get(&c.second);
    if (ok) other.callsites_.push_back(c);
  }
  if (!ok || !in.GetAll(&other.r_.instances) || !in.done())
    return InvalidArgument("saved wait states: cut or too long");
  if (other.r_.processes.size() != r_.processes.size() ||
      other.r_.threads.size() != r_.threads.size())
    return InvalidArgument("saved wait states: " + std::to_string(other.r_.processes.size()) +
                           " processes and " + std::to_string(other.r_.threads.size()) +
                           " threads, the trace has " + std::to_string(r_.processes.size()) +
                           " and " + std::to_string(r_.threads.size()));
  for (const WaitInstance& w : other.r_.instances)
    if (w.thread >= r_.threads.size())
      return InvalidArgument("saved wait states: an instance's thread is out of range");
  Merge(std::move(other));
  return Status::Ok();
}

}  // namespace plx::analysis
