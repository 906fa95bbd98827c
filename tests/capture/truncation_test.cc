// Traces written by the runtime itself, cut at every chunk boundary +-1 and at
// random offsets: each cut opens with exactly the whole chunks before it (the
// reader's promise for files cut short by a crash, docs/format.md).
#include <gtest/gtest.h>
#include <signal.h>

#include "format/trace_file.h"
#include "format/truncation_check.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

std::string Child() {
  return BuildPath("tests/capture/capture_child");
}

// A small ring makes the threads flush often: many chunks in a small file.
const char* kSmallRing = "PLX_BUFFER=64K";

TEST(RealTrace, EveryCutOfAFinishedTraceOpensWithTheWholeChunksBeforeIt) {
  TempDir dir;
  const std::string path = dir.File("finished.plx");
  RunResult r = RunProgram({Child(), "stress", "3", "1500"}, {"PLX_OUTPUT=" + path, kSmallRing});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_TRUE((*file)->report().used_index);
  ASSERT_GE((*file)->event_chunks().size(), 10u) << "want a trace of many chunks";
  format::testing::CheckEveryCut(path, 200, 7);
}

TEST(RealTrace, EveryCutOfACrashedTraceOpensWithTheWholeChunksBeforeIt) {
  TempDir dir;
  const std::string path = dir.File("crashed.plx");
  RunResult r =
      RunProgram({Child(), "segv", "3", "1500"},
                 {"PLX_OUTPUT=" + path, kSmallRing, "ASAN_OPTIONS=handle_segv=0:detect_leaks=0"});
  ASSERT_EQ(r.signal, SIGSEGV) << r.output;
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_FALSE((*file)->report().used_index);
  format::testing::CheckEveryCut(path, 200, 11);
}

}  // namespace
}  // namespace plx::testing
