// Running programs/omp_program.c traced (`parallax record`, or linked with
// the library in sanitizer builds) and reading what it logged: shared by the
// tests of tests/omp.
#pragma once

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

/// Runs the program traced into `trace`, logging to `log`: `parallax
/// record` (the preload library), or in sanitizer builds the program linked
/// with it. Four threads (OMP_NUM_THREADS=4) plus `env`.
inline testing::RunResult Record(const std::string& log, const std::string& trace,
                                 std::vector<std::string> env = {}) {
  using testing::BuildPath;
  env.push_back("ASAN_OPTIONS=detect_leaks=0");
  env.push_back("OMP_NUM_THREADS=4");
  if (kLinked) {
    env.push_back("PLX_TRACE=1");
    env.push_back("PLX_OUTPUT=" + trace);
    return testing::RunProgram({BuildPath("tests/omp/omp_program_linked"), log}, env);
  }
  env.push_back("PLX_MPI_LIBDIR=" + BuildPath("src/mpi"));
  return testing::RunProgram({BuildPath("src/cli/parallax"), "record", "-o", trace, "--",
                              BuildPath("tests/omp/omp_program"), log},
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

/// Runs the program traced into `dir`; false (with `why`) when it failed.
inline bool RunTraced(const testing::TempDir& dir, Traced* out) {
  out->path = dir.File("omp.plx");
  const std::string log_path = dir.File("log.txt");
  const testing::RunResult r = Record(log_path, out->path);
  if (r.exit_code != 0 || !std::filesystem::exists(out->path)) {
    out->why = "exit " + std::to_string(r.exit_code) + ": " + r.output;
    return false;
  }
  out->log = ReadLog(log_path);
  out->trace = testing::LoadTraceFile(out->path);
  return true;
}

}  // namespace plx::omp_test
