// Many threads record a known pattern through libparallax.so in a child
// process; the trace must hold exactly what was recorded, in order, with
// sane times — with the default buffer, a tiny one, and in drop mode.
#include <gtest/gtest.h>

#include <map>

#include "capture/check_pattern.h"
#include "capture/ticks.h"
#include "format/trace_file.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

std::string Child() {
  return BuildPath("tests/capture/capture_child");
}

struct Spawned {
  std::string path;
  uint64_t before_ns = 0;
  uint64_t after_ns = 0;
};

Spawned RunStress(const TempDir& dir, uint32_t threads, uint64_t iterations,
                  std::vector<std::string> env) {
  Spawned s;
  s.path = dir.File("stress.plx");
  env.push_back("PLX_OUTPUT=" + s.path);
  s.before_ns = capture::MonotonicNs();
  RunResult r =
      RunProgram({Child(), "stress", std::to_string(threads), std::to_string(iterations)}, env);
  s.after_ns = capture::MonotonicNs();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return s;
}

TEST(Stress, EightThreadsMillionRecordsEachReadBackExactly) {
  TempDir dir;
  constexpr uint32_t kThreads = 8;
  constexpr uint64_t kIterations = 100000;  // 1,000,000 pattern records per thread
  Spawned s = RunStress(dir, kThreads, kIterations, {});
  auto file = format::TraceFile::Open(s.path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_TRUE((*file)->report().used_index);
  EXPECT_TRUE((*file)->report().problems.empty());
  PatternResult result = CheckPattern(**file, kThreads, kIterations);
  ASSERT_EQ(result.threads.size(), kThreads) << result.error;
  EXPECT_TRUE(result.error.empty()) << result.error;
  const uint64_t expected_sum = PatternChecksum(kThreads, kIterations);
  for (const auto& [t, c] : result.threads) {
    SCOPED_TRACE("thread " + std::to_string(t));
    EXPECT_EQ(c.pattern_records, kIterations * kRecordsPerIteration);
    EXPECT_EQ(c.checksum, PatternThreadChecksum(t, kThreads, kIterations));
    EXPECT_TRUE(c.begin_seen);
    EXPECT_TRUE(c.end_seen);
    EXPECT_EQ(c.lost, 0u);
    EXPECT_GE(c.first_ns, static_cast<int64_t>(s.before_ns));
    EXPECT_LE(c.last_ns, static_cast<int64_t>(s.after_ns));
  }
  EXPECT_EQ(result.checksum_sum, expected_sum);
}

TEST(Stress, TinyBufferWrapsAndFlushesFromTheThread) {
  TempDir dir;
  Spawned s = RunStress(dir, 3, 20000, {"PLX_BUFFER=64K"});
  auto file = format::TraceFile::Open(s.path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  PatternResult result = CheckPattern(**file, 3, 20000);
  EXPECT_TRUE(result.error.empty()) << result.error;
  ASSERT_EQ(result.threads.size(), 3u);
  uint64_t flushes = 0;
  for (const auto& [t, c] : result.threads) {
    EXPECT_EQ(c.pattern_records, 20000 * kRecordsPerIteration);
    EXPECT_EQ(c.checksum, PatternThreadChecksum(t, 3, 20000));
    flushes += c.flush_states;
  }
  // 200,000 records of up to 3 slots do not fit 4,096 slots: threads had to flush.
  EXPECT_GT(flushes, 0u);
}

TEST(Stress, DropModeCountsWhatItDrops) {
  TempDir dir;
  Spawned s = RunStress(dir, 2, 50000, {"PLX_BUFFER=64K", "PLX_FULL=drop", "PLX_FLUSH_MS=2000"});
  auto file = format::TraceFile::Open(s.path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  PatternResult result = CheckPattern(**file, 2, 50000);
  EXPECT_TRUE(result.error.empty()) << result.error;
  uint64_t lost = 0;
  for (const auto& [t, c] : result.threads) {
    // Every record is either in the file or counted by a `lost` record.
    EXPECT_EQ(c.pattern_records + c.lost, 50000 * kRecordsPerIteration);
    lost += c.lost;
  }
  EXPECT_GT(lost, 0u) << "a 64 KiB ring with a 0.5 s writer period should overflow";
}

class StressClock : public ::testing::TestWithParam<const char*> {};

TEST_P(StressClock, TimesFallInsideTheRun) {
  TempDir dir;
  Spawned s = RunStress(dir, 2, 2000, {std::string("PLX_CLOCK=") + GetParam()});
  auto file = format::TraceFile::Open(s.path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  PatternResult result = CheckPattern(**file, 2, 2000);
  EXPECT_TRUE(result.error.empty()) << result.error;
  for (const auto& [t, c] : result.threads) {
    EXPECT_GE(c.first_ns, static_cast<int64_t>(s.before_ns));
    EXPECT_LE(c.last_ns, static_cast<int64_t>(s.after_ns));
    EXPECT_LT(c.first_ns, c.last_ns);
  }
}

INSTANTIATE_TEST_SUITE_P(Clocks, StressClock, ::testing::Values("tsc", "monotonic"));

TEST(Stress, UncompressedTraceReadsTheSame) {
  TempDir dir;
  Spawned s = RunStress(dir, 2, 5000, {"PLX_COMPRESS=none"});
  auto file = format::TraceFile::Open(s.path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  for (const format::ChunkInfo& c : (*file)->event_chunks())
    EXPECT_EQ(c.header.codec, format::Codec::kNone);
  PatternResult result = CheckPattern(**file, 2, 5000);
  EXPECT_TRUE(result.error.empty()) << result.error;
  for (const auto& [t, c] : result.threads)
    EXPECT_EQ(c.checksum, PatternThreadChecksum(t, 2, 5000));
}

}  // namespace
}  // namespace plx::testing
