#include "distributed/share.h"

namespace plx::distributed {

std::vector<uint32_t> ShareThreads(const model::Trace& trace, int processes) {
  const auto threads = static_cast<uint32_t>(trace.threads.size());
  const auto n = static_cast<uint64_t>(processes > 0 ? processes : 1);
  uint64_t total = 0;
  for (const model::Thread& t : trace.threads)
    total += t.records + 1;  // + 1: empty threads are spread too
  std::vector<uint32_t> first(n + 1, threads);
  first[0] = 0;
  // Thread t goes to the process whose share holds the middle of its records.
  uint64_t before = 0;
  uint64_t r = 0;
  for (uint32_t t = 0; t < threads; ++t) {
    const uint64_t weight = trace.threads[t].records + 1;
    const unsigned __int128 middle = (static_cast<unsigned __int128>(before) * 2 + weight) * n;
    const auto owner = static_cast<uint64_t>(middle / (static_cast<unsigned __int128>(total) * 2));
    while (r < owner && r + 1 < n)
      first[++r] = t;
    before += weight;
  }
  return first;
}

ThreadShare ShareOf(const model::Trace& trace, int rank, int processes) {
  const std::vector<uint32_t> first = ShareThreads(trace, processes);
  const auto r = static_cast<size_t>(rank);
  return {first[r], first[r + 1]};
}

}  // namespace plx::distributed
