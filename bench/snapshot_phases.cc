// The phases of making a trace servable, as the live server does for every
// snapshot (ServedTrace::LoadOpened): model load, message matching, causal
// repair, timeline index, state statistics. Each phase runs --runs times on
// the trace file given; the median per phase is printed.
//   snapshot_phases TRACE.plx [--runs N]
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/state_stats.h"
#include "format/trace_file.h"
#include "model/load_trace.h"
#include "server/timeline/timeline_index.h"
#include "time/causal_repair.h"
#include "time/message_pairs.h"

namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: snapshot_phases TRACE.plx [--runs N]\n");
    return 2;
  }
  // As the live server does (LivePublisher): freed columns stay in the heap,
  // so each run's new ones do not page-fault.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  int runs = 15;
  if (argc >= 4 && std::strcmp(argv[2], "--runs") == 0) runs = std::max(1, std::atoi(argv[3]));
  auto file = plx::format::TraceFile::Open(argv[1]);
  if (!file.ok()) {
    std::fprintf(stderr, "snapshot_phases: %s\n", file.status().message().c_str());
    return 1;
  }
  std::vector<double> load, match, repair, index, stats, total;
  uint64_t records = 0, messages = 0, slices = 0;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = Clock::now();
    auto trace = plx::model::LoadTrace(**file, {});
    if (!trace.ok()) {
      std::fprintf(stderr, "snapshot_phases: %s\n", trace.status().message().c_str());
      return 1;
    }
    const auto t1 = Clock::now();
    plx::time::MessagePairs pairs = plx::time::MatchMessages(*trace);
    const auto t2 = Clock::now();
    plx::time::RepairOptions options;
    options.pairs = &pairs;
    auto repaired = plx::time::RepairCausality(&*trace, options);
    if (repaired.ok() && repaired->events_moved > 0) pairs = plx::time::MatchMessages(*trace);
    const auto t3 = Clock::now();
    auto built = plx::server::TimelineIndex::Build(*trace, pairs, nullptr);
    const auto t4 = Clock::now();
    auto report = plx::analysis::ComputeStateStats(*trace);
    const auto t5 = Clock::now();
    load.push_back(Ms(t1 - t0));
    match.push_back(Ms(t2 - t1));
    repair.push_back(Ms(t3 - t2));
    index.push_back(Ms(t4 - t3));
    stats.push_back(Ms(t5 - t4));
    total.push_back(Ms(t5 - t0));
    records = trace->stats.records;
    messages = trace->messages.size();
    slices = trace->slices.size();
  }
  std::printf(
      "%s: %llu records, %llu slices, %llu message records; median of %d runs: load %.1f ms, "
      "matching %.1f ms, repair %.1f ms, index %.1f ms, statistics %.1f ms, total %.1f ms\n",
      argv[1], static_cast<unsigned long long>(records), static_cast<unsigned long long>(slices),
      static_cast<unsigned long long>(messages), runs, Median(load), Median(match), Median(repair),
      Median(index), Median(stats), Median(total));
  return 0;
}
