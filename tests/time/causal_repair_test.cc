// Causal repair: exact shifts on hand-built models (one late receive, a
// far-away event left alone, ramps in between, collectives, self times), and
// random skewed traces written and loaded like real ones: no violation left,
// every state's duration within 1 % or 1 us of the simulated truth.
#include "time/causal_repair.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "format/trace_file.h"
#include "model/load_trace.h"
#include "model_builder.h"
#include "skewed_trace.h"
#include "support/test_support.h"

namespace plx::time {
namespace {

using testing::ModelBuilder;

RepairReport Repair(model::Trace* t, RepairOptions o = {}) {
  StatusOr<RepairReport> r = RepairCausality(t, o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : RepairReport{};
}

// Rank 0 sends at 1010 inside MPI_Send [1000, 1100]; rank 1 receives at 990
// inside MPI_Recv [500, 1000]: 20 ns before the send.
ModelBuilder LateReceive() {
  ModelBuilder b(2);
  b.Slice(0, "MPI_Send", 1000, 1100);
  b.Send(0, 1010, 1);
  b.Slice(1, "MPI_Recv", 500, 1000);
  b.Recv(1, 990, 0);
  return b;
}

TEST(CausalRepairTest, CountsReceivesBeforeTheirSends) {
  ModelBuilder b = LateReceive();
  const Violations v = CountViolations(b.trace());
  EXPECT_EQ(v.messages, 1u);
  EXPECT_EQ(v.collectives, 0u);
  EXPECT_EQ(v.total(), 1u);
}

TEST(CausalRepairTest, OneLateReceiveShiftsItsThreadByTheViolationPlusLatency) {
  ModelBuilder b = LateReceive();
  model::Trace& t = b.trace();
  const RepairReport r = Repair(&t);
  EXPECT_EQ(r.violations_before, 1u);
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_TRUE(r.converged);
  // The only anchor on rank 1 moves by 20 + 100 ns; with nothing else to pin
  // the thread, all of it moves alike.
  EXPECT_EQ(t.messages.time[1], 1110);
  EXPECT_EQ(t.slices.begin[1], 620);
  EXPECT_EQ(t.slices.end[1], 1120);
  EXPECT_EQ(t.slices.self_ns[1], 500);
  EXPECT_EQ(t.messages.time[0], 1010);  // the sender stays
  EXPECT_EQ(t.slices.begin[0], 1000);
  EXPECT_EQ(t.threads[1].begin_ns, 620);
  EXPECT_EQ(t.threads[1].end_ns, 1120);
  EXPECT_EQ(t.begin_ns, 620);
  EXPECT_EQ(t.end_ns, 1120);
  ASSERT_EQ(r.repairs.size(), 1u);
  EXPECT_EQ(r.repairs[0].thread, 1u);
  EXPECT_EQ(r.repairs[0].row, 1u);
  EXPECT_EQ(r.repairs[0].send_row, 0u);
  EXPECT_EQ(r.repairs[0].time_ns, 990);
  EXPECT_EQ(r.repairs[0].violation_ns, 20);
  EXPECT_EQ(r.repairs[0].shift_ns, 120);
  EXPECT_EQ(r.max_shift_ns, 120);
  EXPECT_EQ(r.events_moved, 3u);  // receive, slice begin and end
  EXPECT_EQ(r.max_duration_change_ns, 0);
  EXPECT_EQ(r.thread_max_shift_ns, (std::vector<int64_t>{0, 120}));
}

TEST(CausalRepairTest, MinLatencyIsAnOption) {
  ModelBuilder b = LateReceive();
  RepairOptions o;
  o.min_latency_ns = 0;
  const RepairReport r = Repair(&b.trace(), o);
  EXPECT_EQ(b.trace().messages.time[1], 1010);
  EXPECT_EQ(r.repairs[0].shift_ns, 20);
}

TEST(CausalRepairTest, ShiftFadesOverDistanceAndIsInterpolatedBetweenEvents) {
  ModelBuilder b = LateReceive();
  // A second message 1 ms later, on time: its receive is 1 ms from the
  // raised one, further than 120 ns / 0.5 %, so it stays.
  b.Slice(0, "MPI_Send", 1'000'000, 1'000'100);
  b.Send(0, 1'000'010, 1);
  b.Slice(1, "work", 500'990, 500'990);  // halfway between the receives
  b.Slice(1, "MPI_Recv", 1'000'500, 1'000'995);
  b.Recv(1, 1'000'990, 0);
  model::Trace& t = b.trace();
  const RepairReport r = Repair(&t);
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_EQ(t.messages.time[1], 1110);       // raised by 120
  EXPECT_EQ(t.messages.time[3], 1'000'990);  // not raised
  EXPECT_EQ(t.slices.begin[3], 501'050);     // 120 * 1/2
  EXPECT_EQ(t.slices.begin[4], 1'000'500);   // 120 * 490 / 10^6 rounds to 0
  EXPECT_EQ(t.slices.end[4], 1'000'995);     // after the last anchor: its shift, 0
  EXPECT_EQ(t.slices.begin[1], 620);         // before the first anchor: its shift
}

TEST(CausalRepairTest, RaisingAReceiveRampsUpTheSendsBeforeIt) {
  // Rank 1 receives at 20'000 what rank 0 sent at 30'000: 10 us late. The
  // send rank 1 made 10 us earlier goes up with it, less 0.5 % of 10 us
  // (backward amortisation), and makes rank 2's receive of it late in turn.
  ModelBuilder b(3);
  b.Send(0, 30'000, 1);  // row 0
  b.Send(1, 10'000, 2);  // row 1
  b.Recv(1, 20'000, 0);  // row 2
  b.Recv(2, 12'000, 1);  // row 3
  model::Trace& t = b.trace();
  const RepairReport r = Repair(&t);
  EXPECT_EQ(r.violations_before, 1u);
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(t.messages.time[0], 30'000);
  EXPECT_EQ(t.messages.time[2], 30'100);           // shift 10'100
  EXPECT_EQ(t.messages.time[1], 10'000 + 10'050);  // shift 10'100 - 50
  EXPECT_EQ(t.messages.time[3], 20'150);           // shift 8'150
  ASSERT_EQ(r.repairs.size(), 1u);                 // rank 2's receive was on time before
  EXPECT_EQ(r.repairs[0].row, 2u);
}

TEST(CausalRepairTest, AllreduceEndsAfterEveryoneBegan) {
  // Rank 1's allreduce call [100, 400] ends before rank 0's [500, 900] began.
  ModelBuilder b(2);
  b.Slice(0, "MPI_Allreduce", 500, 900);
  b.Collective(0, 850);
  b.Slice(1, "MPI_Allreduce", 100, 400);
  b.Collective(1, 350);
  model::Trace& t = b.trace();
  EXPECT_EQ(CountViolations(t).collectives, 1u);
  const RepairReport r = Repair(&t);
  EXPECT_EQ(r.before.collectives, 1u);
  EXPECT_EQ(r.violations_after, 0u);
  // Rank 1's call end must reach 500 + 100: shifted by 200, and so are its
  // begin (slope limit 0.5 % of 300 ns = 1 ns) and its record.
  EXPECT_EQ(t.slices.end[1], 600);
  EXPECT_EQ(t.slices.begin[1], 299);
  EXPECT_EQ(t.slices.begin[0], 500);
  ASSERT_EQ(r.repairs.size(), 1u);
  EXPECT_EQ(r.repairs[0].kind, CausalConstraints::Kind::kCollective);
  EXPECT_EQ(r.repairs[0].row, 1u);
  EXPECT_EQ(r.repairs[0].violation_ns, 100);
  EXPECT_EQ(r.repairs[0].shift_ns, 200);
}

TEST(CausalRepairTest, BroadcastOnlyWaitsForTheRoot) {
  // Root 1 begins at 500; rank 0's call ends at 400 (violation), rank 2's
  // ends at 700 (fine). Rank 0 beginning late is no problem for anyone.
  ModelBuilder b(3);
  b.Slice(0, "MPI_Bcast", 100, 400);
  b.Collective(0, 390, 2, 1);
  b.Slice(1, "MPI_Bcast", 500, 550);
  b.Collective(1, 540, 2, 1);
  b.Slice(2, "MPI_Bcast", 0, 700);
  b.Collective(2, 690, 2, 1);
  const Violations v = CountViolations(b.trace());
  EXPECT_EQ(v.collectives, 1u);
}

TEST(CausalRepairTest, NonblockingCollectivesInWaitsAreNotConstrained) {
  ModelBuilder b(2);
  b.Slice(0, "MPI_Wait", 500, 900);
  b.Collective(0, 850);
  b.Slice(1, "MPI_Wait", 100, 400);
  b.Collective(1, 350);
  EXPECT_EQ(CountViolations(b.trace()).total(), 0u);
}

TEST(CausalRepairTest, SelfTimesFollowTheChangedDurations) {
  // A receive inside a nested call: the repair ramps through the parent.
  ModelBuilder b(2);
  b.Send(0, 100'000, 1);
  b.Slice(1, "main", 0, 200'000);
  b.Slice(1, "MPI_Recv", 40'000, 60'000, 1);
  b.Recv(1, 50'000, 0);
  b.Send(1, 150'000, 0);  // never received: unmatched
  model::Trace& t = b.trace();
  const RepairReport r = Repair(&t);
  EXPECT_EQ(r.violations_after, 0u);
  for (size_t i = 0; i < t.slices.size(); ++i) {
    int64_t children = 0;
    for (size_t j = i + 1; j < t.slices.size() && t.slices.depth[j] > t.slices.depth[i]; ++j)
      if (t.slices.depth[j] == t.slices.depth[i] + 1)
        children += t.slices.end[j] - t.slices.begin[j];
    EXPECT_EQ(t.slices.self_ns[i], t.slices.end[i] - t.slices.begin[i] - children) << i;
  }
  EXPECT_EQ(t.messages.time[1], 100'100);
}

TEST(CausalRepairTest, BadOptionsAreErrors) {
  ModelBuilder b = LateReceive();
  RepairOptions o;
  o.min_latency_ns = -1;
  EXPECT_FALSE(RepairCausality(&b.trace(), o).ok());
  o = {};
  o.max_slope = 1;
  EXPECT_FALSE(RepairCausality(&b.trace(), o).ok());
  EXPECT_FALSE(RepairCausality(nullptr).ok());
}

TEST(CausalRepairTest, ContradictoryMatchingStopsAtTheLimit) {
  // Each receive precedes, on its own thread, the send of the other message:
  // no shift can satisfy both.
  ModelBuilder b(2);
  b.Recv(0, 100, 1);
  b.Send(0, 200, 1);
  b.Recv(1, 100, 0);
  b.Send(1, 200, 0);
  RepairOptions o;
  o.max_updates = 1000;
  const RepairReport r = Repair(&b.trace(), o);
  EXPECT_FALSE(r.converged);
  EXPECT_GT(r.violations_after, 0u);
}

// Random traces on skewed, drifting clocks with imperfect offset measurements.
class SkewedTraceTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(SkewedTraceTest, NoViolationsLeftAndDurationsKept) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("skewed.plx");
  testing::SkewedTraceOptions o;
  o.seed = GetParam();
  o.ranks = 3 + static_cast<uint32_t>(GetParam() % 4);
  StatusOr<testing::SkewedTrace> truth = testing::WriteSkewedTrace(path, o);
  ASSERT_TRUE(truth.ok()) << truth.status().message();
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  StatusOr<model::Trace> loaded = model::LoadTrace(**file);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  model::Trace& t = *loaded;
  ASSERT_EQ(t.threads.size(), o.ranks);
  ASSERT_EQ(t.messages.size(), 2 * truth->messages);

  const RepairReport r = Repair(&t);
  EXPECT_GT(r.before.messages, 0u) << "the loader's correction leaves violations";
  EXPECT_EQ(r.violations_after, 0u);
  EXPECT_EQ(CountViolations(t).total(), 0u);
  EXPECT_TRUE(r.converged);

  // Every state's duration against the simulated truth.
  for (uint32_t th = 0; th < t.threads.size(); ++th) {
    const auto& want = truth->slices[t.processes[t.threads[th].process].rank];
    std::vector<uint32_t> rows;
    for (uint32_t i = 0; i < t.slices.size(); ++i)
      if (t.slices.thread[i] == th) rows.push_back(i);
    ASSERT_EQ(rows.size(), want.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      const int64_t d = t.slices.end[rows[k]] - t.slices.begin[rows[k]];
      const int64_t d_true = want[k].end - want[k].begin;
      EXPECT_EQ(t.states[t.slices.state[rows[k]]].name, want[k].state);
      const double allowed = std::max(0.01 * static_cast<double>(d_true), 1000.0);
      EXPECT_LT(std::abs(static_cast<double>(d - d_true)), allowed)
          << "rank " << th << " slice " << k << " " << want[k].state;
    }
    // Thread order kept.
    for (size_t k = 1; k < rows.size(); ++k)
      EXPECT_LE(t.slices.begin[rows[k - 1]], t.slices.begin[rows[k]]);
  }
  for (size_t i = 1; i < t.messages.size(); ++i) {
    if (t.messages.thread[i] == t.messages.thread[i - 1]) {
      EXPECT_LE(t.messages.time[i - 1], t.messages.time[i]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, SkewedTraceTest, ::testing::Range<uint64_t>(1, 21));

}  // namespace
}  // namespace plx::time
