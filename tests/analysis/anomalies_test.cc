// FindAnomalies: the robust default stays quiet on noisy but normal loops and
// finds iterations several times slower; call-site groups, pooling, sample
// minimum, unclosed slices and the opt-in percentile method, on exact values.
#include "analysis/anomalies.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "stats_test_trace.h"

namespace plx::analysis {
namespace {

constexpr int64_t kMs = 1'000'000;

// A deterministic stand-in for a loaded 2-core machine: ~5 ms iterations with
// +-10% jitter and, every 23rd iteration, a preemption adding 1.5x - 2.2x.
std::vector<int64_t> NoisyIterations(int n) {
  std::vector<int64_t> d;
  uint64_t x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    const double jitter = static_cast<double>(x >> 40) / static_cast<double>(1u << 24);  // 0..1
    double ms = 4.5 + jitter;
    if (i % 23 == 7) ms += 7.5 + 3.5 * jitter;
    d.push_back(static_cast<int64_t>(ms * kMs));
  }
  return d;
}

// One thread running `state` back to back with the durations.
std::vector<uint32_t> Loop(testing::StatsTestTrace* t, uint32_t thread, uint32_t state,
                           const std::vector<int64_t>& durations, int64_t start = 0,
                           uint32_t callsite = model::kNone) {
  std::vector<uint32_t> rows;
  int64_t time = start;
  for (int64_t d : durations) {
    rows.push_back(t->Slice(thread, state, time, time + d, 0, callsite));
    time += d;
  }
  return rows;
}

TEST(AnomaliesTest, CleanNoisyLoopFlagsNothing) {
  testing::StatsTestTrace t;
  const uint32_t compute = t.State("compute");
  const uint32_t th = t.Thread(t.Process());
  Loop(&t, th, compute, NoisyIterations(200));
  EXPECT_TRUE(FindAnomalies(t.trace).empty());
}

TEST(AnomaliesTest, SlowIterationsAreFlaggedInScoreOrder) {
  testing::StatsTestTrace t;
  const uint32_t compute = t.State("compute");
  const uint32_t th = t.Thread(t.Process());
  std::vector<int64_t> d = NoisyIterations(200);
  d[50] = 25 * kMs;   // 5x
  d[120] = 50 * kMs;  // 10x
  d[180] = 30 * kMs;  // 6x
  const std::vector<uint32_t> rows = Loop(&t, th, compute, d);
  const std::vector<Anomaly> found = FindAnomalies(t.trace);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].slice, rows[120]);
  EXPECT_EQ(found[1].slice, rows[180]);
  EXPECT_EQ(found[2].slice, rows[50]);
  const Anomaly& a = found[0];
  EXPECT_EQ(a.state, compute);
  EXPECT_EQ(a.thread, th);
  EXPECT_EQ(a.process, 0u);
  EXPECT_EQ(a.callsite, model::kNone);
  EXPECT_FALSE(a.by_callsite);
  EXPECT_EQ(a.duration_ns, 50 * kMs);
  EXPECT_EQ(a.begin_ns, t.trace.slices.begin[rows[120]]);
  EXPECT_EQ(a.group_size, 200u);
  EXPECT_EQ(a.method, AnomalyMethod::kRobust);
  EXPECT_GT(a.median_ns, 4.5 * kMs);
  EXPECT_LT(a.median_ns, 5.5 * kMs);
  EXPECT_GT(a.score, found[1].score);
  EXPECT_DOUBLE_EQ(a.limit_ns, 4 * a.median_ns);  // the ratio is the binding bound here
  EXPECT_NEAR(a.score, (50 * kMs - a.median_ns) / (1.4826 * a.mad_ns), 1e-9);
}

TEST(AnomaliesTest, ExactMedianMadAndScore) {
  testing::StatsTestTrace t;
  const uint32_t s = t.State("s");
  const uint32_t th = t.Thread(t.Process());
  // 20 slices: 10 of 10 ms, 9 of 12 ms, one of 100 ms. Median 11 ms
  // (between 10 and 12), deviations 1 ms x 19 and 89 ms: MAD 1 ms.
  std::vector<int64_t> d(10, 10 * kMs);
  d.insert(d.end(), 9, 12 * kMs);
  d.push_back(100 * kMs);
  Loop(&t, th, s, d);
  const std::vector<Anomaly> found = FindAnomalies(t.trace);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_DOUBLE_EQ(found[0].median_ns, 11.0 * kMs);
  EXPECT_DOUBLE_EQ(found[0].mad_ns, 1.0 * kMs);
  EXPECT_DOUBLE_EQ(found[0].score, 89.0 * kMs / (1.4826 * kMs));
  EXPECT_DOUBLE_EQ(found[0].limit_ns, 44.0 * kMs);
  // One sample fewer: the group is too small to judge.
  AnomalyOptions o;
  o.min_samples = 21;
  EXPECT_TRUE(FindAnomalies(t.trace, o).empty());
  // Without ratio and excess bounds the z score decides: 12 ms is z 0.67.
  o = AnomalyOptions();
  o.min_ratio = 0;
  o.min_excess_ns = 0;
  o.threshold = 1.0;
  EXPECT_EQ(FindAnomalies(t.trace, o).size(), 1u);
  o.threshold = 0.5;
  EXPECT_EQ(FindAnomalies(t.trace, o).size(), 10u);
}

TEST(AnomaliesTest, IdenticalDurationsUseTheMedianFloor) {
  testing::StatsTestTrace t;
  const uint32_t s = t.State("s");
  const uint32_t th = t.Thread(t.Process());
  std::vector<int64_t> d(30, 2 * kMs);
  d[3] = 9 * kMs;
  Loop(&t, th, s, d);
  const std::vector<Anomaly> found = FindAnomalies(t.trace);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].mad_ns, 0.0);
  EXPECT_DOUBLE_EQ(found[0].score, 7.0 * kMs / (0.01 * 2 * kMs));  // sigma = 1% of the median
}

TEST(AnomaliesTest, CallsiteGroupsAndPooling) {
  testing::StatsTestTrace t;
  const uint32_t s = t.State("MPI_Recv");
  const uint32_t fast = t.Callsite("a.c", 10), slow = t.Callsite("a.c", 20),
                 rare = t.Callsite("a.c", 30);
  const uint32_t th = t.Thread(t.Process());
  // Callsite `fast` takes 1 ms, `slow` 10 ms, both normal. A 10 ms call at
  // `fast` is an anomaly only against its own call site.
  std::vector<int64_t> fast_d(30, 1 * kMs);
  fast_d[7] = 10 * kMs;
  const std::vector<uint32_t> fast_rows = Loop(&t, th, s, fast_d, 0, fast);
  Loop(&t, th, s, std::vector<int64_t>(30, 10 * kMs), 100 * kMs, slow);
  // `rare` has 5 slices: pooled with the slices of unknown call site.
  Loop(&t, th, s, std::vector<int64_t>(5, 3 * kMs), 500 * kMs, rare);
  const std::vector<uint32_t> pooled_rows =
      Loop(&t, th, s,
           {3 * kMs, 3 * kMs, 3 * kMs, 3 * kMs, 3 * kMs, 3 * kMs, 3 * kMs, 3 * kMs, 3 * kMs,
            3 * kMs, 3 * kMs, 3 * kMs, 3 * kMs, 3 * kMs, 40 * kMs},
           600 * kMs);
  const std::vector<Anomaly> found = FindAnomalies(t.trace);
  ASSERT_EQ(found.size(), 2u);
  // Pooled group: 19 x 3 ms and 40 ms; sigma = 1% of 3 ms; score 37 / 0.03.
  EXPECT_EQ(found[0].slice, pooled_rows.back());
  EXPECT_FALSE(found[0].by_callsite);
  EXPECT_EQ(found[0].group_size, 20u);
  EXPECT_EQ(found[0].callsite, model::kNone);
  EXPECT_EQ(found[1].slice, fast_rows[7]);
  EXPECT_TRUE(found[1].by_callsite);
  EXPECT_EQ(found[1].callsite, fast);
  EXPECT_EQ(found[1].group_size, 30u);
  EXPECT_DOUBLE_EQ(found[1].median_ns, 1.0 * kMs);

  AnomalyOptions only;
  only.state = t.State("other");
  EXPECT_TRUE(FindAnomalies(t.trace, only).empty());
}

TEST(AnomaliesTest, UnclosedSlicesAreIgnored) {
  testing::StatsTestTrace t;
  const uint32_t s = t.State("s");
  const uint32_t th = t.Thread(t.Process());
  Loop(&t, th, s, std::vector<int64_t>(25, 5 * kMs));
  t.Slice(th, s, 200 * kMs, 900 * kMs, 0, model::kNone, model::SliceTable::kUnclosed);
  EXPECT_TRUE(FindAnomalies(t.trace).empty());
}

TEST(AnomaliesTest, PercentileCutOff) {
  testing::StatsTestTrace t;
  const uint32_t s = t.State("s");
  const uint32_t th = t.Thread(t.Process());
  std::vector<int64_t> d;
  for (int i = 100; i >= 1; --i)
    d.push_back(i * kMs);  // 100 .. 1 ms
  Loop(&t, th, s, d);
  EXPECT_TRUE(FindAnomalies(t.trace).empty());  // the robust method sees no outlier
  AnomalyOptions o;
  o.method = AnomalyMethod::kPercentile;
  o.percentile = 95;
  const std::vector<Anomaly> found = FindAnomalies(t.trace, o);
  ASSERT_EQ(found.size(), 5u);  // 96 .. 100 ms, above the 95th value (95 ms)
  EXPECT_EQ(found[0].duration_ns, 100 * kMs);
  EXPECT_EQ(found[4].duration_ns, 96 * kMs);
  EXPECT_EQ(found[0].method, AnomalyMethod::kPercentile);
  EXPECT_DOUBLE_EQ(found[0].limit_ns, 95.0 * kMs);
  EXPECT_DOUBLE_EQ(found[0].median_ns, 50.5 * kMs);
  EXPECT_DOUBLE_EQ(found[0].mad_ns, 25.0 * kMs);
  EXPECT_DOUBLE_EQ(found[0].score, 49.5 / (1.4826 * 25.0));
  EXPECT_STREQ(AnomalyMethodName(o.method), "percentile");
}

}  // namespace
}  // namespace plx::analysis
