// The OpenMP tool on a real OpenMP program (programs/omp_program.c, clang
// -fopenmp, LLVM's libomp) traced with `parallax record`: the chunks each
// thread ran of a static and a dynamic loop, the parallel regions, implicit
// tasks, explicit barriers, tasks and contended critical sections must be
// exactly what the program logged; PLX_OPENMP=0 records none of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "omp_run.h"
#include "support/test_support.h"
#include "support/trace_loading.h"

namespace plx {
namespace {

using omp_test::InstantsNamed;
using omp_test::Log;
using omp_test::Record;
using omp_test::RunTraced;
using omp_test::SlicesNamed;
using omp_test::Traced;
using omp_test::TracedChunks;
using testing::TempDir;

TEST(OmpTrace, ChunksPerThreadAreTheProgramsOwn) {
  TempDir dir;
  Traced run;
  ASSERT_TRUE(RunTraced(dir, &run)) << run.why;
  const Log& log = run.log;
  const model::Trace& t = run.trace;
  ASSERT_EQ(log.counts.at("team"), 4);

  // Static (4 per chunk, round robin) and dynamic (8 per chunk, first come):
  // the very chunks, on the threads that ran them, in the order they ran.
  EXPECT_EQ(TracedChunks(t), log.chunks);
  long static_chunks = 0, dynamic_chunks = 0;
  for (const auto& [key, chunks] : log.chunks)
    (key.first == 0 ? static_chunks : dynamic_chunks) += static_cast<long>(chunks.size());
  EXPECT_EQ(static_chunks, 16);
  EXPECT_EQ(dynamic_chunks, 8);
  // Dynamic chunks are timed: one "omp chunk" state each.
  EXPECT_EQ(static_cast<long>(SlicesNamed(t, "omp chunk").size()), dynamic_chunks);
  EXPECT_EQ(SlicesNamed(t, "omp for").size(), 8u) << "2 loops x 4 threads";
}

TEST(OmpTrace, RegionsBarriersTasksAndCriticalWaits) {
  TempDir dir;
  Traced run;
  ASSERT_TRUE(RunTraced(dir, &run)) << run.why;
  const Log& log = run.log;
  const model::Trace& t = run.trace;

  // Parallel regions on the thread that starts them: the main thread.
  const std::vector<size_t> regions = SlicesNamed(t, "omp parallel");
  EXPECT_EQ(static_cast<long>(regions.size()), log.counts.at("regions"));
  std::set<uint32_t> region_threads;
  for (size_t s : regions)
    region_threads.insert(t.slices.thread[s]);
  EXPECT_EQ(region_threads.size(), 1u);
  EXPECT_EQ(static_cast<long>(SlicesNamed(t, "omp implicit task").size()),
            log.counts.at("implicit_tasks"));

  // Each explicit barrier, on each of the team's threads.
  ExpectBarriersOnEveryTeamThread(t, log);

  // Each task: created once (an instant with its id), run once (a state,
  // starting with an instant with the same id).
  const long tasks = log.counts.at("tasks");
  std::set<int64_t> created, begun;
  for (size_t i : InstantsNamed(t, "omp task create"))
    created.insert(t.instants.int_value[i]);
  for (size_t i : InstantsNamed(t, "omp task begin"))
    begun.insert(t.instants.int_value[i]);
  EXPECT_EQ(static_cast<long>(created.size()), tasks);
  EXPECT_EQ(begun, created);
  EXPECT_EQ(static_cast<long>(SlicesNamed(t, "omp task").size()), tasks);
  EXPECT_EQ(SlicesNamed(t, "omp taskwait").size(), 1u);

  // The three threads that found the critical section held for 200 ms waited
  // for it; acquisitions that did not wait are not recorded.
  long long_waits = 0;
  std::set<uint32_t> waiters;
  for (size_t s : SlicesNamed(t, "omp critical")) {
    if (t.slices.end[s] - t.slices.begin[s] >= 50'000'000) {  // of ~200 ms
      ++long_waits;
      waiters.insert(t.slices.thread[s]);
    }
  }
  EXPECT_EQ(long_waits, 3);
  EXPECT_EQ(waiters.size(), 3u);
  EXPECT_EQ(waiters.count(*region_threads.begin()), 0u) << "the holder never waits";
}

TEST(OmpTrace, OpenmpOffRecordsNoOpenmp) {
  TempDir dir;
  const std::string trace = dir.File("off.plx"), log_path = dir.File("log.txt");
  testing::RunResult r = Record(log_path, trace, {"PLX_OPENMP=0"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(log_path));  // the program ran to its end
  if (!std::filesystem::exists(trace)) return;     // nothing at all recorded: fine too
  const model::Trace t = testing::LoadTraceFile(trace);
  for (const auto& s : t.states)
    EXPECT_NE(s.name.rfind("omp", 0), 0u) << s.name;
  for (const auto& e : t.event_types)
    EXPECT_NE(e.name.rfind("omp", 0), 0u) << e.name;
}

}  // namespace
}  // namespace plx
