// GCC's OpenMP runtime (libgomp) traced through the GOMP_* wrappers of
// src/threads/omp/gomp*.cc: programs/omp_program.c built with gcc -fopenmp
// and traced with `parallax record` must show its regions, implicit tasks
// with their thread numbers, the chunks of its dynamic loop (each iteration
// exactly once, on the thread that ran it), barriers, tasks and contended
// critical sections, with the same views as the clang build (libomp, OMPT);
// gcc's code running on libomp is recorded once, by the OMPT tool alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/omp_loops.h"
#include "omp_run.h"
#include "support/test_support.h"
#include "support/trace_loading.h"

namespace plx {
namespace {

using omp_test::InstantsNamed;
using omp_test::Log;
using omp_test::RunTraced;
using omp_test::SlicesNamed;
using omp_test::Traced;
using omp_test::TracedChunks;
using testing::TempDir;

constexpr const char* kGcc = "omp_program_gcc";
constexpr const char* kGccOnLibomp = "omp_program_gcc_libomp";
constexpr const char* kConstructs = "gomp_constructs";

#ifdef PLX_GOMP_PROGRAM
constexpr bool kGccBuilt = true;
#else
constexpr bool kGccBuilt = false;  // sanitizer builds: see CMakeLists.txt
#endif
#ifdef PLX_OMP_CLANG
constexpr bool kClangBuilt = true;
#else
constexpr bool kClangBuilt = false;
#endif

#define PLX_REQUIRE_GCC_PROGRAM()                                                        \
  if (!kGccBuilt)                                                                        \
  GTEST_SKIP() << "no gcc build of omp_program.c in sanitizer builds (the instrumented " \
                  "library cannot be preloaded into it; tests/omp/CMakeLists.txt)"
#define PLX_REQUIRE_CLANG_PROGRAM() \
  if (!kClangBuilt) GTEST_SKIP() << "no clang with libomp (clang -fopenmp=libomp)"

constexpr int kDynamicLoop = 1;  // the program's schedule(dynamic, 8) loop
constexpr long kIters = 64;

Log::Chunks LoopChunks(const Log::Chunks& all, int loop) {
  Log::Chunks out;
  for (const auto& [key, chunks] : all)
    if (key.first == loop) out[key] = chunks;
  return out;
}

// How many times each iteration of 0..kIters-1 is in a chunk.
std::vector<int> Coverage(const Log::Chunks& chunks) {
  std::vector<int> times(kIters, 0);
  for (const auto& [key, list] : chunks)
    for (const auto& [first, last] : list)
      for (long i = first; i <= last; ++i)
        if (i >= 0 && i < kIters) ++times[i];
  return times;
}

long Count(const model::Trace& t, const std::string& state) {
  return static_cast<long>(SlicesNamed(t, state).size());
}

// The threads that start regions ("starting") and the others ("team"), with
// the "omp ..." states each kind shows, leaving out those whose thread is
// chosen at run time (chunks, the single's executor, who runs the tasks) and
// "omp critical" (the holder's own acquisition may pass 5 us on a busy
// machine; the waits are compared apart).
std::map<std::string, std::set<std::string>> StatesPerKind(const model::Trace& t) {
  std::set<uint32_t> starting;
  for (size_t s : SlicesNamed(t, "omp parallel"))
    starting.insert(t.slices.thread[s]);
  const std::set<std::string> chosen = {"omp chunk", "omp single", "omp task", "omp taskwait",
                                        "omp critical"};
  std::map<std::string, std::set<std::string>> out;
  for (size_t i = 0; i < t.slices.size(); ++i) {
    const std::string& name = t.states[t.slices.state[i]].name;
    if (name.rfind("omp", 0) != 0 || chosen.count(name) != 0) continue;
    out[starting.count(t.slices.thread[i]) ? "starting" : "team"].insert(name);
  }
  return out;
}

std::set<std::string> OmpNames(const model::Trace& t) {
  std::set<std::string> out;
  for (size_t i = 0; i < t.slices.size(); ++i)
    if (t.states[t.slices.state[i]].name.rfind("omp", 0) == 0)
      out.insert(t.states[t.slices.state[i]].name);
  for (size_t i = 0; i < t.instants.size(); ++i)
    if (t.event_types[t.instants.type[i]].name.rfind("omp", 0) == 0)
      out.insert(t.event_types[t.instants.type[i]].name);
  return out;
}

// The critical waits of ~200 ms (the section's holder sleeps 200 ms), by thread.
std::map<uint32_t, long> LongCriticalWaits(const model::Trace& t) {
  std::map<uint32_t, long> out;
  for (size_t s : SlicesNamed(t, "omp critical"))
    if (t.slices.end[s] - t.slices.begin[s] >= 50'000'000) ++out[t.slices.thread[s]];
  return out;
}

TEST(OmpGomp, RegionsAndImplicitTasksWithThreadNums) {
  PLX_REQUIRE_GCC_PROGRAM();
  TempDir dir;
  Traced run;
  ASSERT_TRUE(RunTraced(dir, &run, kGcc)) << run.why;
  const model::Trace& t = run.trace;
  ASSERT_EQ(run.log.counts.at("team"), 4);

  const std::vector<size_t> regions = SlicesNamed(t, "omp parallel");
  ASSERT_EQ(static_cast<long>(regions.size()), run.log.counts.at("regions"));
  std::set<uint32_t> region_threads;
  for (size_t s : regions)
    region_threads.insert(t.slices.thread[s]);
  ASSERT_EQ(region_threads.size(), 1u);

  // Each implicit task starts with its thread number: 0..3 once per region,
  // 0 on the starting thread inside its "omp parallel".
  const std::vector<size_t> tasks = SlicesNamed(t, "omp implicit task");
  EXPECT_EQ(static_cast<long>(tasks.size()), run.log.counts.at("implicit_tasks"));
  const std::vector<size_t> nums = InstantsNamed(t, "omp thread num");
  EXPECT_EQ(nums.size(), tasks.size());
  std::map<int64_t, long> per_num;
  for (size_t s : tasks) {
    const uint32_t th = t.slices.thread[s];
    int64_t num = -1;
    for (size_t n : nums) {
      if (t.instants.thread[n] == th && t.instants.time[n] >= t.slices.begin[s] &&
          t.instants.time[n] <= t.slices.end[s]) {
        num = t.instants.int_value[n];
        break;
      }
    }
    ++per_num[num];
    if (num != 0) continue;
    EXPECT_EQ(region_threads.count(th), 1u) << "thread 0 is the starting thread";
    bool inside = false;
    for (size_t r : regions)
      inside |= t.slices.begin[r] <= t.slices.begin[s] && t.slices.end[s] <= t.slices.end[r];
    EXPECT_TRUE(inside) << "thread 0's implicit task inside its omp parallel";
  }
  const std::map<int64_t, long> expected = {{0, 5}, {1, 5}, {2, 5}, {3, 5}};
  EXPECT_EQ(per_num, expected);
}

TEST(OmpGomp, DynamicLoopChunksAreTheProgramsOwn) {
  PLX_REQUIRE_GCC_PROGRAM();
  TempDir dir;
  Traced run;
  ASSERT_TRUE(RunTraced(dir, &run, kGcc)) << run.why;
  const model::Trace& t = run.trace;

  // gcc runs schedule(static, n) loops inline, calling nothing: the static
  // loop has no "omp for"; the dynamic loop's is on each of the 4 threads.
  EXPECT_EQ(Count(t, "omp for"), 4);
  const Log::Chunks logged = LoopChunks(run.log.chunks, kDynamicLoop);
  EXPECT_EQ(TracedChunks(t, kDynamicLoop), logged);
  EXPECT_EQ(Coverage(TracedChunks(t, kDynamicLoop)), std::vector<int>(kIters, 1));
  EXPECT_EQ(InstantsNamed(t, "omp chunk first").size(), 8u);
  EXPECT_EQ(Count(t, "omp chunk"), 8) << "each dynamic chunk timed";

  // The iteration-space view (analysis/omp_loops): one loop, measured.
  const analysis::OmpLoops loops = analysis::ComputeOmpLoops(t);
  ASSERT_EQ(loops.loops.size(), 1u);
  const analysis::OmpLoop& l = loops.loops[0];
  EXPECT_EQ(l.threads, 4u);
  EXPECT_EQ(l.first, 0);
  EXPECT_EQ(l.last, kIters - 1);
  EXPECT_EQ(l.iterations, static_cast<uint64_t>(kIters));
  EXPECT_TRUE(l.dynamic);
  EXPECT_EQ(l.chunk_end - l.chunk_begin, 8u);
  for (size_t i = l.chunk_begin; i < l.chunk_end; ++i)
    EXPECT_FALSE(loops.chunks[i].estimated);
  EXPECT_EQ(loops.unpaired_instants, 0u);
  EXPECT_EQ(loops.tasks_without_region, 0u);
  EXPECT_EQ(loops.loops_without_task, 0u);
}

TEST(OmpGomp, BarriersTasksAndCriticalWaits) {
  PLX_REQUIRE_GCC_PROGRAM();
  TempDir dir;
  Traced run;
  ASSERT_TRUE(RunTraced(dir, &run, kGcc)) << run.why;
  const model::Trace& t = run.trace;
  const Log& log = run.log;

  // The explicit barriers on each thread; a single's closing GOMP_barrier is
  // an implicit barrier.
  ExpectBarriersOnEveryTeamThread(t, log);
  EXPECT_EQ(Count(t, "omp single"), 2) << "one executor per single";
  std::set<uint32_t> implicit_barrier_threads;
  for (size_t s : SlicesNamed(t, "omp implicit barrier"))
    implicit_barrier_threads.insert(t.slices.thread[s]);
  EXPECT_EQ(static_cast<long>(implicit_barrier_threads.size()), log.counts.at("team"));

  // Tasks: created once, run once, with the same ids; one taskwait.
  std::set<int64_t> created, begun;
  for (size_t i : InstantsNamed(t, "omp task create"))
    created.insert(t.instants.int_value[i]);
  for (size_t i : InstantsNamed(t, "omp task begin"))
    begun.insert(t.instants.int_value[i]);
  EXPECT_EQ(static_cast<long>(created.size()), log.counts.at("tasks"));
  EXPECT_EQ(InstantsNamed(t, "omp task create").size(), created.size());
  EXPECT_EQ(begun, created);
  EXPECT_EQ(Count(t, "omp task"), log.counts.at("tasks"));
  EXPECT_EQ(Count(t, "omp taskwait"), 1);

  // The three threads that found the critical section held waited for it.
  const std::map<uint32_t, long> waits = LongCriticalWaits(t);
  EXPECT_EQ(waits.size(), 3u);
  for (const auto& [thread, n] : waits)
    EXPECT_EQ(n, 1) << thread;
  std::set<uint32_t> starting;
  for (size_t s : SlicesNamed(t, "omp parallel"))
    starting.insert(t.slices.thread[s]);
  for (uint32_t th : starting)
    EXPECT_EQ(waits.count(th), 0u) << "the holder never waits";
}

TEST(OmpGomp, OpenmpOffRecordsNoOpenmp) {
  PLX_REQUIRE_GCC_PROGRAM();
  TempDir dir;
  const std::string trace = dir.File("off.plx"), log_path = dir.File("log.txt");
  const testing::RunResult r = omp_test::Record(log_path, trace, {"PLX_OPENMP=0"}, kGcc);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Log log = omp_test::ReadLog(log_path);
  EXPECT_EQ(log.counts.at("tasks"), 12) << "the program ran to its end";
  if (!std::filesystem::exists(trace)) return;
  const model::Trace t = testing::LoadTraceFile(trace);
  EXPECT_EQ(OmpNames(t), std::set<std::string>{});
}

// Both runtimes give the same views of the same program: the same states per
// kind of thread, the same events, the same counts, and the same dynamic
// loop in the iteration-space view. (gcc's static loop alone is not seen.)
TEST(OmpGomp, SameViewsAsClang) {
  PLX_REQUIRE_GCC_PROGRAM();
  PLX_REQUIRE_CLANG_PROGRAM();
  TempDir dir;
  Traced gcc, clang;
  ASSERT_TRUE(RunTraced(dir, &gcc, kGcc)) << gcc.why;
  ASSERT_TRUE(RunTraced(dir, &clang, omp_test::kClangProgram)) << clang.why;
  EXPECT_EQ(OmpNames(gcc.trace), OmpNames(clang.trace));
  EXPECT_EQ(StatesPerKind(gcc.trace), StatesPerKind(clang.trace));
  for (const char* state : {"omp parallel", "omp implicit task", "omp barrier", "omp task",
                            "omp taskwait", "omp single", "omp chunk"})
    EXPECT_EQ(Count(gcc.trace, state), Count(clang.trace, state)) << state;
  EXPECT_EQ(LongCriticalWaits(gcc.trace).size(), LongCriticalWaits(clang.trace).size());
  EXPECT_EQ(Count(clang.trace, "omp for"), 8) << "static and dynamic loop, 4 threads";
  EXPECT_EQ(Count(gcc.trace, "omp for"), 4) << "the dynamic loop, 4 threads";

  EXPECT_EQ(Coverage(TracedChunks(gcc.trace, kDynamicLoop)),
            Coverage(LoopChunks(TracedChunks(clang.trace), kDynamicLoop)));
  const analysis::OmpLoops g = analysis::ComputeOmpLoops(gcc.trace);
  const analysis::OmpLoops c = analysis::ComputeOmpLoops(clang.trace);
  ASSERT_EQ(g.loops.size(), 1u);
  ASSERT_EQ(c.loops.size(), 2u);
  const analysis::OmpLoop& gl = g.loops[0];
  const analysis::OmpLoop& cl = c.loops[kDynamicLoop];
  EXPECT_EQ(gl.threads, cl.threads);
  EXPECT_EQ(gl.first, cl.first);
  EXPECT_EQ(gl.last, cl.last);
  EXPECT_EQ(gl.iterations, cl.iterations);
  EXPECT_EQ(gl.dynamic, cl.dynamic);
  EXPECT_EQ(gl.chunk_end - gl.chunk_begin, cl.chunk_end - cl.chunk_begin);
}

// programs/gomp_constructs.c: a guided loop counting down over a long, a
// runtime-scheduled loop over unsigned long long past LONG_MAX, an ordered
// dynamic loop, sections, a taskgroup, tasks with a copy function, single
// copyprivate, a contended omp_set_lock and a task reduction over a region.
TEST(OmpGomp, OtherConstructs) {
  PLX_REQUIRE_GCC_PROGRAM();
  TempDir dir;
  Traced run;
  ASSERT_TRUE(RunTraced(dir, &run, kConstructs)) << run.why;
  const model::Trace& t = run.trace;
  const Log& log = run.log;
  EXPECT_EQ(log.counts.at("in_order"), 1);
  EXPECT_EQ(log.counts.at("vla_ok"), 2) << "tasks get their firstprivate copies";
  EXPECT_EQ(log.counts.at("copied"), 4);
  EXPECT_EQ(log.counts.at("sum"), 28) << "the task reduction's region gets its reductions";
  EXPECT_EQ(Count(t, "omp parallel"), 2);

  // The loops' chunks in logical iterations: each iteration once, on the
  // thread that ran it (the program logs one line per iteration).
  using Owners = std::map<std::pair<int, long>, int>;  // (loop, iteration) -> thread num
  Owners logged, traced;
  for (const auto& [key, chunks] : log.chunks)
    for (const auto& [first, last] : chunks)
      logged[{key.first, first}] = key.second;
  for (const auto& [key, chunks] : TracedChunks(t)) {
    for (const auto& [first, last] : chunks) {
      EXPECT_LE(first, last);
      for (long i = first; i <= last; ++i)
        EXPECT_TRUE(traced.insert({{key.first, i}, key.second}).second)
            << "loop " << key.first << " iteration " << i << " twice";
    }
  }
  EXPECT_EQ(traced, logged);
  EXPECT_EQ(logged.size(), 34u + 50u + 40u);
  EXPECT_EQ(Count(t, "omp for"), 3 * 4);
  EXPECT_EQ(static_cast<size_t>(Count(t, "omp chunk")), InstantsNamed(t, "omp chunk first").size());

  EXPECT_EQ(log.counts.at("sections"), 3);
  EXPECT_EQ(Count(t, "omp sections"), 4) << "one per thread";
  EXPECT_EQ(Count(t, "omp taskgroup"), 1);
  EXPECT_EQ(Count(t, "omp taskwait"), 1);
  EXPECT_EQ(Count(t, "omp single"), 3) << "two singles, one copyprivate";
  EXPECT_EQ(log.counts.at("taskgroup_tasks"), 4);
  EXPECT_EQ(Count(t, "omp task"), 4 + 2 + 8);
  std::set<int64_t> created, begun;
  for (size_t i : InstantsNamed(t, "omp task create"))
    created.insert(t.instants.int_value[i]);
  for (size_t i : InstantsNamed(t, "omp task begin"))
    begun.insert(t.instants.int_value[i]);
  EXPECT_EQ(created.size(), 14u);
  EXPECT_EQ(begun, created);

  // The three threads that found the lock held (100 ms) waited for it.
  std::set<uint32_t> waiters;
  for (size_t s : SlicesNamed(t, "omp_set_lock"))
    if (t.slices.end[s] - t.slices.begin[s] >= 50'000'000) waiters.insert(t.slices.thread[s]);
  EXPECT_EQ(waiters.size(), 3u);
  for (size_t s : SlicesNamed(t, "omp parallel"))
    EXPECT_EQ(waiters.count(t.slices.thread[s]), 0u) << "the holder never waits";
}

// gcc's code on libomp (which exports the GOMP_* entry points too): the OMPT
// tool records it, the GOMP_* wrappers pass through, nothing twice.
TEST(OmpGomp, OnLibompRecordedOnce) {
  PLX_REQUIRE_GCC_PROGRAM();
  PLX_REQUIRE_CLANG_PROGRAM();
  TempDir dir;
  Traced run;
  ASSERT_TRUE(RunTraced(dir, &run, kGccOnLibomp)) << run.why;
  const model::Trace& t = run.trace;
  const Log& log = run.log;
  EXPECT_EQ(Count(t, "omp parallel"), log.counts.at("regions"));
  EXPECT_EQ(Count(t, "omp implicit task"), log.counts.at("implicit_tasks"));
  EXPECT_EQ(InstantsNamed(t, "omp thread num").size(),
            static_cast<size_t>(log.counts.at("implicit_tasks")));
  EXPECT_EQ(Count(t, "omp task"), log.counts.at("tasks"));
  EXPECT_EQ(static_cast<long>(InstantsNamed(t, "omp task create").size()), log.counts.at("tasks"));
  EXPECT_EQ(Count(t, "omp taskwait"), 1);
  EXPECT_EQ(Count(t, "omp single"), 2);
  EXPECT_EQ(Count(t, "omp chunk"), 8);
  EXPECT_EQ(TracedChunks(t, kDynamicLoop), LoopChunks(log.chunks, kDynamicLoop));
  EXPECT_EQ(LongCriticalWaits(t).size(), 3u);
}

}  // namespace
}  // namespace plx
