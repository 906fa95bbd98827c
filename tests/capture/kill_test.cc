// A traced program killed with SIGKILL (no handler runs) leaves a readable
// trace holding everything older than PLX_FLUSH_MS. Runs alone (RUN_SERIAL):
// the guarantee is about time, and a loaded machine would blur it.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include "capture/check_pattern.h"
#include "capture/ticks.h"
#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

TEST(Kill, SigkillLosesAtMostTheFlushInterval) {
  TempDir dir;
  const std::string path = dir.File("kill.plx");
  constexpr int kFlushMs = 100;
  ChildProcess child({BuildPath("tests/capture/capture_child"), "loop", "2"},
                     {"PLX_OUTPUT=" + path, "PLX_FLUSH_MS=" + std::to_string(kFlushMs),
                      "ASAN_OPTIONS=detect_leaks=0"});
  ASSERT_TRUE(child.started());
  std::string line;
  ASSERT_TRUE(child.ReadLine(&line, 60000));
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const int64_t kill_ns = static_cast<int64_t>(capture::MonotonicNs());
  child.Signal(SIGKILL);
  RunResult r = child.Wait();
  ASSERT_EQ(r.signal, SIGKILL);

  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  PatternResult result = CheckPattern(**file, 2, 1u << 30);
  EXPECT_TRUE(result.error.empty()) << result.error;
  ASSERT_EQ(result.threads.size(), 2u);
  for (const auto& [t, c] : result.threads) {
    SCOPED_TRACE("thread " + std::to_string(t));
    EXPECT_GT(c.pattern_records, 100u);
    // The thread recorded up to the kill; what is missing is younger than the interval.
    EXPECT_GE(c.last_ns, kill_ns - kFlushMs * 1'000'000)
        << "last record " << (kill_ns - c.last_ns) / 1'000'000 << " ms before the kill";
  }
}

}  // namespace
}  // namespace plx::testing
