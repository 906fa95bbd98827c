// Running programs/omp_program.c traced (`parallax record`, or linked with
// the library in sanitizer builds), reading what it logged and finding the
// OpenMP records in the trace: shared by the tests of tests/omp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "support/test_support.h"
#include "support/trace_loading.h"

namespace plx::omp_test {

#ifdef PLX_SANITIZE_BUILD
inline constexpr bool kLinked = true;  // no preloading an instrumented library
#else
inline constexpr bool kLinked = false;
#endif

/// The clang build of the program (libomp); omp_program_gcc is the gcc build
/// (libgomp), omp_program_gcc_libomp gcc's code linked with libomp.
inline constexpr const char* kClangProgram = "omp_program";

/// Runs tests/omp/`program` traced into `trace`, logging to `log`: `parallax
/// record` (the preload library), or in sanitizer builds the program linked
/// with it (`program`_linked). Four threads (OMP_NUM_THREADS=4) plus `env`.
inline testing::RunResult Record(const std::string& log, const std::string& trace,
                                 std::vector<std::string> env = {},
                                 const std::string& program = kClangProgram) {
  using testing::BuildPath;
  env.push_back("ASAN_OPTIONS=detect_leaks=0");
  env.push_back("OMP_NUM_THREADS=4");
  if (kLinked) {
    env.push_back("PLX_TRACE=1");
    env.push_back("PLX_OUTPUT=" + trace);
    return testing::RunProgram({BuildPath("tests/omp/" + program + "_linked"), log}, env);
  }
  env.push_back("PLX_MPI_LIBDIR=" + BuildPath("src/mpi"));
  return testing::RunProgram({BuildPath("src/cli/parallax"), "record", "-o", trace, "--",
                              BuildPath("tests/omp/" + program), log},
                             env);
}

/// What the program logged.
struct Log {
  using Chunks = std::map<std::pair<int, int>, std::vector<std::pair<long, long>>>;
  Chunks chunks;  // (loop, thread num) -> [first, last] in the order it ran them
  std::map<std::string, long> counts;
};

inline Log ReadLog(const std::string& path) {
  Log log;
  std::ifstream in(path);
  std::string key;
  while (in >> key) {
    if (key == "chunk") {
      int loop = 0, tid = 0;
      long lo = 0, hi = 0;
      in >> loop >> tid >> lo >> hi;
      log.chunks[{loop, tid}].push_back({lo, hi});
    } else {
      in >> log.counts[key];
    }
  }
  return log;
}

/// The program traced with OpenMP recording on: what it logged, the trace.
struct Traced {
  Log log;
  model::Trace trace;
  std::string path;  // the trace file (in the caller's directory)
  std::string why;   // when it did not run or left no trace
};

/// Runs `program` traced into `dir`; false (with `why`) when it failed.
inline bool RunTraced(const testing::TempDir& dir, Traced* out,
                      const std::string& program = kClangProgram) {
  out->path = dir.File(program + ".plx");
  const std::string log_path = dir.File(program + ".log");
  const testing::RunResult r = Record(log_path, out->path, {}, program);
  if (r.exit_code != 0 || !std::filesystem::exists(out->path)) {
    out->why = "exit " + std::to_string(r.exit_code) + ": " + r.output;
    return false;
  }
  out->log = ReadLog(log_path);
  out->trace = testing::LoadTraceFile(out->path);
  return true;
}

/// The slices of state `name`, by thread then begin.
inline std::vector<size_t> SlicesNamed(const model::Trace& t, const std::string& name) {
  std::vector<size_t> out;
  for (size_t i = 0; i < t.slices.size(); ++i)
    if (t.states[t.slices.state[i]].name == name) out.push_back(i);
  return out;
}

/// The instants of event `name`, by time.
// The explicit barriers: `omp barrier` slices on each of the team's threads,
// as many on each as the program's log counted.
inline void ExpectBarriersOnEveryTeamThread(const model::Trace& t, const Log& log) {
  std::map<uint32_t, long> barriers;
  for (size_t s : SlicesNamed(t, "omp barrier"))
    ++barriers[t.slices.thread[s]];
  EXPECT_EQ(static_cast<long>(barriers.size()), log.counts.at("team"));
  for (const auto& [thread, n] : barriers)
    EXPECT_EQ(n, log.counts.at("barriers")) << thread;
}

inline std::vector<size_t> InstantsNamed(const model::Trace& t, const std::string& name) {
  std::vector<size_t> out;
  for (size_t i = 0; i < t.instants.size(); ++i)
    if (t.event_types[t.instants.type[i]].name == name) out.push_back(i);
  std::stable_sort(out.begin(), out.end(),
                   [&](size_t a, size_t b) { return t.instants.time[a] < t.instants.time[b]; });
  return out;
}

/// The chunks the trace shows: per "omp for" slice (its loop: `first_loop`
/// plus k for the k-th on its thread; its thread num: the last "omp thread
/// num" before it) the pairs of "omp chunk first" / "omp chunk last"
/// instants inside it, paired on their thread (threads' chunks interleave).
inline Log::Chunks TracedChunks(const model::Trace& t, int first_loop = 0) {
  const std::vector<size_t> nums = InstantsNamed(t, "omp thread num");
  std::map<uint32_t, std::vector<size_t>> firsts, lasts;  // per thread, by time
  for (size_t i : InstantsNamed(t, "omp chunk first"))
    firsts[t.instants.thread[i]].push_back(i);
  for (size_t i : InstantsNamed(t, "omp chunk last"))
    lasts[t.instants.thread[i]].push_back(i);
  for (const auto& [thread, list] : firsts)
    EXPECT_EQ(list.size(), lasts[thread].size()) << "thread " << thread;
  std::map<uint32_t, int> loops_seen;  // per thread, from first_loop
  Log::Chunks out;
  for (size_t s : SlicesNamed(t, "omp for")) {  // sorted by thread, then begin
    const uint32_t th = t.slices.thread[s];
    const int64_t b = t.slices.begin[s], e = t.slices.end[s];
    int tid = -1;
    for (size_t n : nums)
      if (t.instants.thread[n] == th && t.instants.time[n] <= b) tid = t.instants.int_value[n];
    const int loop = first_loop + loops_seen[th]++;
    auto& chunks = out[{loop, tid}];
    const std::vector<size_t>& f = firsts[th];
    const std::vector<size_t>& l = lasts[th];
    for (size_t i = 0; i < f.size() && i < l.size(); ++i) {
      if (t.instants.time[f[i]] < b || t.instants.time[f[i]] > e) continue;
      EXPECT_GE(t.instants.time[l[i]], t.instants.time[f[i]]);
      chunks.push_back({t.instants.int_value[f[i]], t.instants.int_value[l[i]]});
    }
    if (chunks.empty()) out.erase({loop, tid});  // a thread that got none
  }
  return out;
}

}  // namespace plx::omp_test
