// The pthread interposition on real programs: programs/sync_program.c counts
// its own contended locks, waits, barriers and threads, and the trace taken
// with `parallax record` must hold exactly those (and nothing for the
// uncontended locks it makes by the thousand); PLX_THREADS=0 and a PLX_LEVEL
// without "sync" record none; xz -T2 (Debian's, not written for this) shows
// its worker threads and their waits.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "support/test_support.h"
#include "support/trace_loading.h"

namespace plx {
namespace {

using testing::BuildPath;
using testing::RunProgram;
using testing::RunResult;
using testing::TempDir;

#ifdef PLX_SANITIZE_BUILD
constexpr bool kLinked = true;  // no preloading an instrumented library
#else
constexpr bool kLinked = false;
#endif

const std::set<std::string> kSyncStates = {
    "pthread_mutex_lock", "pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "sem_wait",
    "pthread_cond_wait",  "pthread_barrier_wait",  "pthread_create",        "pthread_join"};

// Runs `command` traced into `trace`: `parallax record` (the preload library),
// or in sanitizer builds the program linked with it. `env` adds variables.
RunResult Record(std::vector<std::string> command, const std::string& trace,
                 std::vector<std::string> env = {}, const std::string& level = "") {
  env.push_back("ASAN_OPTIONS=detect_leaks=0");
  if (kLinked) {
    env.push_back("PLX_TRACE=1");
    env.push_back("PLX_OUTPUT=" + trace);
    if (!level.empty()) env.push_back("PLX_LEVEL=" + level);
    return RunProgram(command, env);
  }
  std::vector<std::string> argv = {BuildPath("src/cli/parallax"), "record", "-o", trace};
  if (!level.empty()) argv.insert(argv.end(), {"--level", level});
  argv.push_back("--");
  argv.insert(argv.end(), command.begin(), command.end());
  env.push_back("PLX_MPI_LIBDIR=" + BuildPath("src/mpi"));
  return RunProgram(argv, env);
}

using Key = std::pair<std::string, std::string>;  // (state, thread name)

std::map<Key, long> RecordedSyncStates(const model::Trace& t) {
  std::map<Key, long> out;
  for (size_t i = 0; i < t.slices.size(); ++i) {
    const std::string& name = t.states[t.slices.state[i]].name;
    if (kSyncStates.count(name)) ++out[{name, t.threads[t.slices.thread[i]].name}];
  }
  return out;
}

long SyncSlices(const model::Trace& t) {
  long n = 0;
  for (const auto& [key, count] : RecordedSyncStates(t))
    n += count;
  return n;
}

std::string SyncProgram() {
  return BuildPath(kLinked ? "tests/threads/sync_program_linked" : "tests/threads/sync_program");
}

TEST(SyncTrace, CountsAreTheProgramsOwn) {
  TempDir dir;
  const std::string trace = dir.File("sync.plx"), counts = dir.File("counts.txt");
  RunResult r = Record({SyncProgram(), counts}, trace);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(std::filesystem::exists(trace)) << r.output;

  std::map<Key, long> expected;
  long threads = 0, exits_42 = 0;
  std::ifstream in(counts);
  std::string state, thread;
  long n = 0;
  while (in >> state >> thread >> n) {
    if (state == "threads")
      threads = n;
    else if (state == "exit_value_42")
      exits_42 = n;
    else if (state != "pthread_exit")
      expected[{state, thread}] = n;
  }
  ASSERT_GT(threads, 10);
  ASSERT_EQ(exits_42, 2);

  const model::Trace t = testing::LoadTraceFile(trace);
  ASSERT_EQ(t.processes.size(), 1u);
  // Every thread the program made, none of the runtime's (plx-writer).
  ASSERT_EQ(static_cast<long>(t.threads.size()), threads);
  std::set<std::string> names;
  for (const model::Thread& th : t.threads) {
    names.insert(th.name);
    EXPECT_EQ(th.name.rfind("plx-", 0), std::string::npos) << th.name;
  }
  for (const char* name : {"mtx-0", "rw-1", "sem-0", "bar-2", "cond-0", "exit-0", "exit-3"})
    EXPECT_TRUE(names.count(name)) << name << " has no stream";

  // Exactly the contended acquisitions and the waits the program counted, on
  // the threads that made them; nothing else (1000s of uncontended locks).
  EXPECT_EQ(RecordedSyncStates(t), expected);

  // pthread_exit: one instant per call, carrying the exit value.
  long exits = 0;
  for (size_t i = 0; i < t.instants.size(); ++i) {
    if (t.event_types[t.instants.type[i]].name != "pthread_exit") continue;
    ++exits;
    EXPECT_EQ(t.instants.int_value[i], 42);
    EXPECT_EQ(t.threads[t.instants.thread[i]].name.rfind("exit-", 0), 0u);
  }
  EXPECT_EQ(exits, 2);
}

TEST(SyncTrace, ThreadsOffRecordsNothing) {
  TempDir dir;
  const std::string trace = dir.File("off.plx"), counts = dir.File("counts.txt");
  RunResult r = Record({SyncProgram(), counts}, trace, {"PLX_THREADS=0"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(counts));  // the program ran to its end
  // Nothing starts the runtime in a program without MPI or plx_* calls.
  EXPECT_FALSE(std::filesystem::exists(trace)) << r.output;
}

TEST(SyncTrace, LevelWithoutSyncRecordsNoSyncStates) {
  TempDir dir;
  const std::string trace = dir.File("level.plx"), counts = dir.File("counts.txt");
  RunResult r = Record({SyncProgram(), counts}, trace, {}, "all,-sync");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  if (!std::filesystem::exists(trace)) return;  // nothing at all recorded: fine too
  EXPECT_EQ(SyncSlices(testing::LoadTraceFile(trace)), 0);
}

// Debian's xz, multithreaded: 4 MB of words in 512 KiB blocks, two workers.
TEST(SyncTrace, XzWorkersAndTheirWaitsAreVisible) {
  if (kLinked) GTEST_SKIP() << "sanitizer build: the library cannot be preloaded into xz";
  if (!std::filesystem::exists("/usr/bin/xz")) GTEST_SKIP() << "xz is not installed";
  TempDir dir;
  const std::string data = dir.File("words.txt"), trace = dir.File("xz.plx");
  {
    std::ofstream out(data);
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 700000; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      out << std::string(2 + x % 7, static_cast<char>('a' + (x >> 8) % 10)) << (x >> 20) % 997
          << ' ';
    }
  }
  RunResult r = Record({"/usr/bin/xz", "-T2", "--block-size=512KiB", "-k", "-f", data}, trace);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  RunResult check = RunProgram({"/usr/bin/xz", "-t", data + ".xz"});
  EXPECT_EQ(check.exit_code, 0) << "the traced xz wrote a damaged file: " << check.output;

  const model::Trace t = testing::LoadTraceFile(trace);
  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_GE(t.threads.size(), 3u) << "the main thread and two workers";
  std::map<uint32_t, long> waits_per_thread;
  long creates = 0;
  for (size_t i = 0; i < t.slices.size(); ++i) {
    const std::string& name = t.states[t.slices.state[i]].name;
    if (name == "pthread_create") ++creates;
    if (name == "pthread_cond_wait" || name == "pthread_mutex_lock")
      ++waits_per_thread[t.slices.thread[i]];
  }
  EXPECT_EQ(creates, 2);
  EXPECT_GE(waits_per_thread.size(), 2u) << "lock or condition waits on more than one thread";
}

}  // namespace
}  // namespace plx
