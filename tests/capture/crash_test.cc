// A traced program that crashes (SIGSEGV, SIGBUS, abort) or is terminated
// (SIGTERM) leaves a readable trace of everything recorded before the signal.
#include <gtest/gtest.h>
#include <signal.h>

#include "capture/check_pattern.h"
#include "capture/ticks.h"
#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

constexpr uint32_t kThreads = 3;
constexpr uint64_t kIterations = 3000;

std::string Child() {
  return BuildPath("tests/capture/capture_child");
}

// Under ASan its own handlers would take these signals first.
const char* kAsanOptions =
    "ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigfpe=0:detect_leaks=0";

void ExpectWholePattern(const std::string& path) {
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_FALSE((*file)->report().used_index) << "a crashed writer cannot have written the index";
  EXPECT_FALSE((*file)->report().truncated);
  PatternResult result = CheckPattern(**file, kThreads, kIterations);
  EXPECT_TRUE(result.error.empty()) << result.error;
  ASSERT_EQ(result.threads.size(), kThreads);
  for (const auto& [t, c] : result.threads) {
    SCOPED_TRACE("thread " + std::to_string(t));
    EXPECT_TRUE(c.begin_seen);
    EXPECT_EQ(c.pattern_records, kIterations * kRecordsPerIteration);
    EXPECT_EQ(c.checksum, PatternThreadChecksum(t, kThreads, kIterations));
  }
}

class Crash : public ::testing::TestWithParam<std::pair<const char*, int>> {};

TEST_P(Crash, TraceHoldsEverythingRecordedBeforeTheSignal) {
  const auto [mode, signal] = GetParam();
  TempDir dir;
  const std::string path = dir.File("crash.plx");
  RunResult r = RunProgram({Child(), mode, std::to_string(kThreads), std::to_string(kIterations)},
                           {"PLX_OUTPUT=" + path, kAsanOptions});
  ASSERT_EQ(r.signal, signal) << "exit " << r.exit_code << ": " << r.output;
  ExpectWholePattern(path);
}

INSTANTIATE_TEST_SUITE_P(Signals, Crash,
                         ::testing::Values(std::make_pair("segv", SIGSEGV),
                                           std::make_pair("bus", SIGBUS),
                                           std::make_pair("abort", SIGABRT)));

TEST(Crash, SigtermFromOutside) {
  TempDir dir;
  const std::string path = dir.File("term.plx");
  ChildProcess child({Child(), "term", std::to_string(kThreads), std::to_string(kIterations)},
                     {"PLX_OUTPUT=" + path, kAsanOptions});
  ASSERT_TRUE(child.started());
  std::string line;
  ASSERT_TRUE(child.ReadLine(&line, 60000));
  ASSERT_EQ(line, "ready");
  child.Signal(SIGTERM);
  RunResult r = child.Wait();
  ASSERT_EQ(r.signal, SIGTERM) << r.output;
  ExpectWholePattern(path);
}

}  // namespace
}  // namespace plx::testing
