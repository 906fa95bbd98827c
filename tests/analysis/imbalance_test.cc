// ComputeImbalance: a static farm with one slow worker, a balanced MPI-like
// case, ordering by time lost, and the threads fallback of one-process traces.
#include "analysis/imbalance.h"

#include <gtest/gtest.h>

#include "stats_test_trace.h"

namespace plx::analysis {
namespace {

TEST(ImbalanceTest, StaticFarmWithOneSlowWorker) {
  testing::StatsTestTrace t;
  const uint32_t compute = t.State("compute"), wait = t.State("wait");
  const uint32_t p = t.Process();
  const uint32_t master = t.Thread(p);
  const uint32_t w[4] = {t.Thread(p), t.Thread(p), t.Thread(p), t.Thread(p)};
  t.Slice(master, wait, 0, 300);
  // Each worker does 10 tasks of 10 ns; worker 2 is 3x slower.
  for (int i = 0; i < 4; ++i) {
    const int64_t d = i == 2 ? 30 : 10;
    for (int k = 0; k < 10; ++k)
      t.Slice(w[i], compute, k * d, (k + 1) * d);
  }
  const ImbalanceReport r = ComputeImbalance(t.trace);
  EXPECT_TRUE(r.by_thread);
  ASSERT_EQ(r.rows.size(), 2u);
  const ImbalanceRow& c = r.rows[0];  // compute loses 300 - 150 = 150; wait 0 (one unit)
  EXPECT_EQ(c.state, compute);
  EXPECT_EQ(c.units, 4u);  // the master never computes: not compared
  EXPECT_EQ(c.time_ns, (std::vector<int64_t>{0, 100, 100, 300, 100}));
  EXPECT_EQ(c.max_ns, 300);
  EXPECT_EQ(c.max_unit, w[2]);
  EXPECT_EQ(c.min_ns, 100);
  EXPECT_EQ(c.min_unit, w[0]);
  EXPECT_DOUBLE_EQ(c.mean_ns, 150.0);
  EXPECT_DOUBLE_EQ(c.lost_ns, 150.0);
  EXPECT_DOUBLE_EQ(c.imbalance, 0.5);
  EXPECT_DOUBLE_EQ(c.percent, 100.0);
  const ImbalanceRow& s = r.rows[1];
  EXPECT_EQ(s.state, wait);
  EXPECT_EQ(s.units, 1u);
  EXPECT_EQ(s.lost_ns, 0.0);
  EXPECT_EQ(s.imbalance, 0.0);
}

TEST(ImbalanceTest, OverProcessesSortedByTimeLost) {
  testing::StatsTestTrace t;
  const uint32_t a = t.State("a"), b = t.State("b"), c = t.State("c");
  for (int i = 0; i < 3; ++i)
    t.Thread(t.Process(i), 0, 1000);
  // a: 10, 20, 30 (lost 10); b: 100, 100, 400 (lost 200); c: 50 each (lost 0).
  const int64_t at[3] = {10, 20, 30}, bt[3] = {100, 100, 400};
  for (uint32_t i = 0; i < 3; ++i) {
    t.Slice(i, a, 0, at[i]);
    t.Slice(i, b, 100, 100 + bt[i]);
    t.Slice(i, c, 600, 650);
  }
  const ImbalanceReport r = ComputeImbalance(t.trace);
  EXPECT_FALSE(r.by_thread);
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[0].state, b);
  EXPECT_DOUBLE_EQ(r.rows[0].lost_ns, 200.0);
  EXPECT_DOUBLE_EQ(r.rows[0].imbalance, 0.5);
  EXPECT_DOUBLE_EQ(r.rows[0].percent, 100.0);
  EXPECT_EQ(r.rows[0].max_unit, 2u);
  EXPECT_EQ(r.rows[0].min_unit, 0u);  // a tie: the lowest index
  EXPECT_EQ(r.rows[1].state, a);
  EXPECT_DOUBLE_EQ(r.rows[1].imbalance, 10.0 / 30.0);
  EXPECT_DOUBLE_EQ(r.rows[1].percent, 50.0);
  EXPECT_EQ(r.rows[2].state, c);
  EXPECT_EQ(r.rows[2].lost_ns, 0.0);
  EXPECT_EQ(r.rows[2].units, 3u);
}

TEST(ImbalanceTest, EmptyTrace) {
  testing::StatsTestTrace t;
  EXPECT_TRUE(ComputeImbalance(t.trace).rows.empty());
}

}  // namespace
}  // namespace plx::analysis
