// ComputeStateStats / SortStateStats against hand-computed numbers, on traces
// built directly in the model (no file, no loader).
#include "analysis/state_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace plx::analysis {
namespace {

using model::Trace;

class StateStatsTest : public ::testing::Test {
 protected:
  uint32_t State(const std::string& name) {
    trace_.states.push_back({name, model::kNone, 0});
    return static_cast<uint32_t>(trace_.states.size() - 1);
  }
  uint32_t Thread(uint32_t process, int64_t begin, int64_t end) {
    while (trace_.processes.size() <= process)
      trace_.processes.emplace_back();
    model::Thread t;
    t.process = process;
    t.begin_ns = begin;
    t.end_ns = end;
    t.records = 2;
    trace_.threads.push_back(t);
    return static_cast<uint32_t>(trace_.threads.size() - 1);
  }
  // Rows must come sorted by thread, as the loader makes them.
  void Slice(uint32_t thread, uint32_t state, int64_t begin, int64_t end, int64_t self) {
    model::SliceTable& s = trace_.slices;
    s.thread.push_back(thread);
    s.begin.push_back(begin);
    s.end.push_back(end);
    s.state.push_back(state);
    s.callsite.push_back(model::kNone);
    s.depth.push_back(0);
    s.self_ns.push_back(self);
    s.flags.push_back(0);
  }
  static const StateStats* Find(const StateStatsScope& scope, uint32_t state) {
    for (const StateStats& s : scope.states)
      if (s.state == state) return &s;
    return nullptr;
  }

  Trace trace_;
};

TEST_F(StateStatsTest, OneThreadByHand) {
  const uint32_t a = State("A"), b = State("B");
  const uint32_t t = Thread(0, 0, 200);
  Slice(t, a, 0, 10, 10);
  Slice(t, a, 20, 40, 15);  // a 5 ns B nested inside
  Slice(t, b, 30, 35, 5);
  Slice(t, a, 100, 160, 60);
  const StateStatsReport r = ComputeStateStats(trace_);
  ASSERT_EQ(r.all.states.size(), 2u);
  const StateStats& sa = r.all.states[0];
  EXPECT_EQ(sa.state, a);
  EXPECT_EQ(sa.count, 3u);
  EXPECT_EQ(sa.total_ns, 90);
  EXPECT_EQ(sa.self_ns, 85);
  EXPECT_EQ(sa.min_ns, 10);
  EXPECT_EQ(sa.max_ns, 60);
  EXPECT_DOUBLE_EQ(sa.mean_ns, 30.0);
  // Population stddev of 10, 20, 60: sqrt((400 + 100 + 900) / 3).
  EXPECT_NEAR(sa.stddev_ns, std::sqrt(1400.0 / 3.0), 1e-9);
  EXPECT_DOUBLE_EQ(sa.share, 85.0 / 200.0);
  const StateStats& sb = r.all.states[1];
  EXPECT_EQ(sb.count, 1u);
  EXPECT_EQ(sb.stddev_ns, 0.0);
  EXPECT_DOUBLE_EQ(sb.share, 5.0 / 200.0);
  EXPECT_EQ(r.all.thread_time_ns, 200);
  ASSERT_EQ(r.threads.size(), 1u);
  EXPECT_EQ(r.threads[0].states.size(), 2u);
  ASSERT_EQ(r.processes.size(), 1u);
  EXPECT_EQ(r.processes[0].thread_time_ns, 200);
}

TEST_F(StateStatsTest, ThreadsMergeIntoProcessesAndAll) {
  const uint32_t a = State("A"), b = State("B");
  const uint32_t t0 = Thread(0, 0, 100);   // process 0
  const uint32_t t1 = Thread(0, 50, 90);   // process 0
  const uint32_t t2 = Thread(1, 10, 110);  // process 1
  Slice(t0, a, 0, 4, 4);
  Slice(t0, a, 10, 18, 8);
  Slice(t1, a, 50, 62, 12);
  Slice(t1, b, 70, 80, 10);
  Slice(t2, a, 10, 26, 16);
  const StateStatsReport r = ComputeStateStats(trace_);
  // Process 0's A: durations 4, 8, 12 -> mean 8, stddev sqrt(32/3).
  const StateStats* p0a = Find(r.processes[0], a);
  ASSERT_NE(p0a, nullptr);
  EXPECT_EQ(p0a->count, 3u);
  EXPECT_EQ(p0a->total_ns, 24);
  EXPECT_DOUBLE_EQ(p0a->mean_ns, 8.0);
  EXPECT_NEAR(p0a->stddev_ns, std::sqrt(32.0 / 3.0), 1e-9);
  EXPECT_EQ(r.processes[0].thread_time_ns, 100 + 40);
  EXPECT_DOUBLE_EQ(p0a->share, 24.0 / 140.0);
  EXPECT_EQ(Find(r.processes[1], b), nullptr);
  // All A: 4, 8, 12, 16 -> mean 10, variance (36 + 4 + 4 + 36) / 4 = 20.
  const StateStats* all_a = Find(r.all, a);
  ASSERT_NE(all_a, nullptr);
  EXPECT_EQ(all_a->count, 4u);
  EXPECT_EQ(all_a->min_ns, 4);
  EXPECT_EQ(all_a->max_ns, 16);
  EXPECT_NEAR(all_a->stddev_ns, std::sqrt(20.0), 1e-9);
  EXPECT_EQ(r.all.thread_time_ns, 240);
  EXPECT_DOUBLE_EQ(all_a->share, 40.0 / 240.0);
  // Per thread: t1 has A and B, t2 only A.
  EXPECT_EQ(r.threads[t1].states.size(), 2u);
  EXPECT_EQ(r.threads[t2].states.size(), 1u);
  EXPECT_DOUBLE_EQ(r.threads[t2].states[0].share, 16.0 / 100.0);
}

TEST_F(StateStatsTest, VarianceStaysExactForLongDurations) {
  const uint32_t a = State("A");
  const uint32_t t0 = Thread(0, 0, 4000000000000);
  const uint32_t t1 = Thread(1, 0, 4000000000000);
  Slice(t0, a, 0, 1000000000001, 1);
  Slice(t1, a, 0, 1000000000003, 1);
  const StateStatsReport r = ComputeStateStats(trace_);
  EXPECT_NEAR(r.all.states[0].stddev_ns, 1.0, 1e-6);
  EXPECT_DOUBLE_EQ(r.all.states[0].mean_ns, 1000000000002.0);
}

TEST_F(StateStatsTest, EmptyTraceAndThreadsWithoutRecords) {
  State("A");
  Thread(0, 0, 0);
  trace_.threads[0].records = 0;
  const StateStatsReport r = ComputeStateStats(trace_);
  EXPECT_TRUE(r.all.states.empty());
  EXPECT_EQ(r.all.thread_time_ns, 0);
  ASSERT_EQ(r.threads.size(), 1u);
  EXPECT_TRUE(r.threads[0].states.empty());
}

TEST_F(StateStatsTest, SortOrders) {
  const uint32_t x = State("x"), y = State("y"), z = State("z");
  const uint32_t t = Thread(0, 0, 1000);
  Slice(t, x, 0, 100, 100);   // 1 slice: total 100, max 100
  Slice(t, y, 100, 130, 30);  // 3 slices of y: total 90, self 90
  Slice(t, y, 130, 160, 30);
  Slice(t, y, 160, 190, 30);
  Slice(t, z, 200, 300, 50);  // total 100 like x, self 50
  std::vector<StateStats> rows = ComputeStateStats(trace_).all.states;
  auto names = [&] {
    std::string s;
    for (const StateStats& r : rows)
      s += trace_.states[r.state].name;
    return s;
  };
  SortStateStats(trace_, StateOrder::kTotal, &rows);
  EXPECT_EQ(names(), "xzy");  // x and z tie at 100: by name
  SortStateStats(trace_, StateOrder::kSelf, &rows);
  EXPECT_EQ(names(), "xyz");
  SortStateStats(trace_, StateOrder::kCount, &rows);
  EXPECT_EQ(names(), "yxz");
  SortStateStats(trace_, StateOrder::kMean, &rows);
  EXPECT_EQ(names(), "xzy");
  SortStateStats(trace_, StateOrder::kMax, &rows);
  EXPECT_EQ(names(), "xzy");
  SortStateStats(trace_, StateOrder::kName, &rows);
  EXPECT_EQ(names(), "xyz");
}

TEST_F(StateStatsTest, PerCallsite) {
  const uint32_t a = State("A"), b = State("B");
  trace_.callsites.push_back({"x.c", 10, "f"});
  trace_.callsites.push_back({"x.c", 20, "g"});
  const uint32_t t = Thread(0, 0, 1000);
  Slice(t, a, 0, 10, 10);    // A at callsite 1
  Slice(t, a, 20, 50, 30);   // A at callsite 0
  Slice(t, b, 60, 64, 4);    // B at callsite 1 (a callsite shared by two states)
  Slice(t, a, 70, 90, 20);   // A at callsite 1
  Slice(t, a, 100, 101, 1);  // A, callsite unknown
  Slice(t, a, 110, 112, 2);  // A, callsite id 7 is undefined: counts as unknown
  trace_.slices.callsite = {1, 0, 1, 1, model::kNone, 7};
  const std::vector<StateStats> rows = ComputeCallsiteStats(trace_);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].state, a);
  EXPECT_EQ(rows[0].callsite, 0u);
  EXPECT_EQ(rows[0].count, 1u);
  EXPECT_EQ(rows[0].total_ns, 30);
  EXPECT_EQ(rows[1].state, a);
  EXPECT_EQ(rows[1].callsite, 1u);
  EXPECT_EQ(rows[1].count, 2u);
  EXPECT_EQ(rows[1].total_ns, 30);
  EXPECT_EQ(rows[1].min_ns, 10);
  EXPECT_EQ(rows[1].max_ns, 20);
  EXPECT_DOUBLE_EQ(rows[1].mean_ns, 15.0);
  EXPECT_DOUBLE_EQ(rows[1].stddev_ns, 5.0);
  EXPECT_DOUBLE_EQ(rows[1].share, 30.0 / 1000.0);
  EXPECT_EQ(rows[2].state, a);
  EXPECT_EQ(rows[2].callsite, model::kNone);
  EXPECT_EQ(rows[2].count, 2u);
  EXPECT_EQ(rows[2].total_ns, 3);
  EXPECT_EQ(rows[3].state, b);
  EXPECT_EQ(rows[3].callsite, 1u);
  EXPECT_EQ(rows[3].count, 1u);
  // The per-state rows are unaffected and carry no callsite.
  const StateStatsReport r = ComputeStateStats(trace_);
  ASSERT_EQ(r.all.states.size(), 2u);
  EXPECT_EQ(r.all.states[0].count, 5u);
  EXPECT_EQ(r.all.states[0].callsite, model::kNone);
}

TEST(StateCallsiteKeysTest, IdsAreDenseAndStable) {
  StateCallsiteKeys keys(3, 2);
  EXPECT_EQ(keys.Id(0, 1), 0u);
  EXPECT_EQ(keys.Id(2, 1), 1u);
  EXPECT_EQ(keys.Id(0, model::kNone), 2u);
  EXPECT_EQ(keys.Id(0, 99), 2u);  // out-of-range callsite: same as unknown
  EXPECT_EQ(keys.Id(0, 1), 0u);
  EXPECT_EQ(keys.Id(2, 1), 1u);
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys.state(1), 2u);
  EXPECT_EQ(keys.callsite(1), 1u);
  EXPECT_EQ(keys.callsite(2), model::kNone);
}

}  // namespace
}  // namespace plx::analysis
