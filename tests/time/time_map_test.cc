// ThreadTimeMap arithmetic (interpolation, constant ends, rounding) and
// ApplyTimeMaps moving every time column of a model, keeping rows sorted.
#include "time/time_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "model_builder.h"

namespace plx::time {
namespace {

TEST(ThreadTimeMapTest, InterpolatesBetweenAnchorsAndHoldsBeyond) {
  const ThreadTimeMap m{{1000, 2000, 3000}, {100, 300, 0}};
  EXPECT_EQ(m.Apply(0), 100);
  EXPECT_EQ(m.Apply(1000), 1100);
  EXPECT_EQ(m.Apply(1500), 1700);
  EXPECT_EQ(m.Apply(2000), 2300);
  EXPECT_EQ(m.Apply(2999), 2999);  // 0.3 rounds to 0
  EXPECT_EQ(m.Apply(2995), 2996);  // 300 + round(-298.5)
  EXPECT_EQ(m.Apply(5000), 5000);
  EXPECT_EQ(m.ShiftAt(1250), 150);
  EXPECT_FALSE(m.is_identity());
  EXPECT_TRUE((ThreadTimeMap{{5}, {0}}).is_identity());
  EXPECT_EQ(ThreadTimeMap{}.Apply(42), 42);
}

// The hinted lookup (ApplyTimeMaps' cursor) answers as the plain one for
// times in any order: ascending runs, steps back, before the first anchor.
TEST(ThreadTimeMapTest, HintedLookupAgreesInAnyOrder) {
  std::mt19937_64 rng(7);
  ThreadTimeMap m;
  for (int64_t i = 0, t = 100; i < 200; ++i, t += 1 + static_cast<int64_t>(rng() % 50)) {
    m.anchors.push_back(t);
    m.shifts.push_back(static_cast<int64_t>(rng() % 40));
  }
  std::vector<int64_t> times;
  for (int64_t t = 0; t < m.anchors.back() + 100; t += 3)
    times.push_back(t);  // ascending: the cursor's fast path
  for (int i = 0; i < 2000; ++i)
    times.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(m.anchors.back() + 200)));
  size_t hint = ThreadTimeMap::kBeforeFirst;
  for (int64_t t : times)
    ASSERT_EQ(m.Apply(t, &hint), m.Apply(t)) << "t = " << t;
}

TEST(ApplyTimeMapsTest, MovesEveryTable) {
  testing::ModelBuilder b(2);
  b.Slice(0, "main", 0, 1000);
  b.Slice(0, "inner", 100, 200, 1);
  b.Send(0, 150, 1);
  b.Collective(0, 900);
  model::Trace& t = b.trace();
  t.instants.thread = {0};
  t.instants.time = {500};
  t.counter_samples.thread = {0, 1};
  t.counter_samples.time = {600, 600};
  t.rma.thread = {0};
  t.rma.time = {700};
  t.controls.thread = {0};
  t.controls.time = {800};
  t.recv_posts.thread = {0};
  t.recv_posts.time = {50};
  // Thread 0: +10 at 0, +110 at 1000 (10 % slope, to see it); thread 1 stays.
  const std::vector<ThreadTimeMap> maps = {{{0, 1000}, {10, 110}}, {}};
  const TimeMapStats s = ApplyTimeMaps(maps, &t);
  EXPECT_EQ(t.slices.begin, (std::vector<int64_t>{10, 120}));
  EXPECT_EQ(t.slices.end, (std::vector<int64_t>{1110, 230}));
  EXPECT_EQ(t.slices.self_ns, (std::vector<int64_t>{1100 - 110, 110}));
  EXPECT_EQ(t.messages.time[0], 175);
  EXPECT_EQ(t.collectives.time[0], 1000);
  EXPECT_EQ(t.instants.time[0], 560);
  EXPECT_EQ(t.counter_samples.time, (std::vector<int64_t>{670, 600}));
  EXPECT_EQ(t.rma.time[0], 780);
  EXPECT_EQ(t.controls.time[0], 890);
  EXPECT_EQ(t.recv_posts.time[0], 65);
  EXPECT_EQ(t.threads[0].begin_ns, 10);
  EXPECT_EQ(t.threads[0].end_ns, 1110);
  EXPECT_EQ(t.begin_ns, 10);
  EXPECT_EQ(t.end_ns, 1110);
  EXPECT_EQ(s.events_moved, 11u);
  EXPECT_EQ(s.max_shift_ns, 110);
  EXPECT_EQ(s.max_duration_change_ns, 100);
  EXPECT_DOUBLE_EQ(s.max_relative_change, 0.1);  // the 100 ns slice is under 1 us
}

}  // namespace
}  // namespace plx::time
