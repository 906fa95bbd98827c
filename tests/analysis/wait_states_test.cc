// ComputeWaitStates on small MPI traces written as trace scripts: late sender,
// late receiver (with and without recv_post records), barrier, bcast and
// reduce waits, each against numbers worked out by hand.
#include "analysis/wait_states.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "script_trace.h"
#include "support/mpi_scripts.h"

namespace plx::analysis {
namespace {

using testing::kLateSenderScript;
using testing::LoadScript;
using testing::MpiScriptPreamble;

TEST(WaitStatesTest, LateSenderWaitsFiftyMicroseconds) {
  const model::Trace t = LoadScript(MpiScriptPreamble(2) + kLateSenderScript);
  const WaitStatesReport r = ComputeWaitStates(t);
  EXPECT_EQ(r.all.late_sender_ns, 50000);
  EXPECT_EQ(r.all.late_receiver_ns, 0);
  EXPECT_EQ(r.all.collective_ns, 0);
  EXPECT_EQ(r.all.count, 1u);
  ASSERT_EQ(r.processes.size(), 2u);
  EXPECT_EQ(r.processes[0].total_ns(), 0);
  EXPECT_EQ(r.processes[1].late_sender_ns, 50000);
  ASSERT_EQ(r.instances.size(), 1u);
  const WaitInstance& w = r.instances[0];
  EXPECT_EQ(w.kind, WaitKind::kLateSender);
  EXPECT_EQ(t.states[t.slices.state[w.slice]].name, "MPI_Recv");
  EXPECT_EQ(w.begin_ns, 50000);
  EXPECT_EQ(w.end_ns(), 100000);
  EXPECT_EQ(t.threads[w.cause_thread].process, 0u);
  ASSERT_EQ(r.callsites.size(), 1u);
  EXPECT_EQ(t.states[r.callsites[0].state].name, "MPI_Recv");
  EXPECT_EQ(r.callsites[0].totals.late_sender_ns, 50000);
}

// Rank 1 posts its receive 20005 ns after rank 0 entered MPI_Ssend, which
// returns only after that.
constexpr char kSsend[] = R"(
enter 0 0 t=0 MPI_Ssend
send 0 0 t=10 comm=world peer=1 tag=0 bytes=8 match=1
leave 0 0 t=30000 MPI_Ssend
enter 1 0 t=0 compute
leave 1 0 t=20000 compute
enter 1 0 t=20000 MPI_Recv
)";

TEST(WaitStatesTest, LateReceiverHoldsSsendUntilThePost) {
  const model::Trace t = LoadScript(MpiScriptPreamble(2) + kSsend + R"(
post 1 0 t=20005 comm=world peer=0 tag=0 match=1
recv 1 0 t=29000 comm=world peer=0 tag=0 bytes=8 match=1
leave 1 0 t=29500 MPI_Recv
)");
  const WaitStatesReport r = ComputeWaitStates(t);
  EXPECT_EQ(r.all.late_receiver_ns, 20005);
  EXPECT_EQ(r.all.late_sender_ns, 0);
  EXPECT_EQ(r.processes[0].late_receiver_ns, 20005);
  EXPECT_EQ(r.processes[1].total_ns(), 0);
  ASSERT_EQ(r.instances.size(), 1u);
  EXPECT_EQ(t.states[t.slices.state[r.instances[0].slice]].name, "MPI_Ssend");
  EXPECT_EQ(t.threads[r.instances[0].cause_thread].process, 1u);
}

TEST(WaitStatesTest, LateReceiverWithoutPostsUsesTheReceiveCallsBegin) {
  const model::Trace t = LoadScript(MpiScriptPreamble(2) + kSsend + R"(
recv 1 0 t=29000 comm=world peer=0 tag=0 bytes=8 match=1
leave 1 0 t=29500 MPI_Recv
)");
  const WaitStatesReport r = ComputeWaitStates(t);
  EXPECT_EQ(r.all.late_receiver_ns, 20000);
  EXPECT_EQ(r.all.total_ns(), 20000);
}

TEST(WaitStatesTest, BarrierMembersWaitForTheLastToArrive) {
  const model::Trace t = LoadScript(MpiScriptPreamble(3) + R"(
enter 0 0 t=100 MPI_Barrier
collective 0 0 t=699 op=1 comm=world
leave 0 0 t=700 MPI_Barrier
enter 1 0 t=300 MPI_Barrier
collective 1 0 t=709 op=1 comm=world
leave 1 0 t=710 MPI_Barrier
enter 2 0 t=600 MPI_Barrier
collective 2 0 t=719 op=1 comm=world
leave 2 0 t=720 MPI_Barrier
)");
  const WaitStatesReport r = ComputeWaitStates(t);
  EXPECT_EQ(r.all.collective_ns, 800);
  EXPECT_EQ(r.all.count, 2u);
  EXPECT_EQ(r.processes[0].collective_ns, 500);
  EXPECT_EQ(r.processes[1].collective_ns, 300);
  EXPECT_EQ(r.processes[2].collective_ns, 0);
  ASSERT_EQ(r.instances.size(), 2u);
  EXPECT_EQ(t.threads[r.instances[0].cause_thread].process, 2u);
  EXPECT_EQ(r.threads[t.slices.thread[r.instances[1].slice]].collective_ns, 300);
}

TEST(WaitStatesTest, BcastWaitsForTheRootAndReduceRootForTheLast) {
  const model::Trace t = LoadScript(MpiScriptPreamble(3) + R"(
enter 0 0 t=1000 MPI_Bcast
collective 0 0 t=1599 op=2 comm=world root=0 sent=16
leave 0 0 t=1600 MPI_Bcast
enter 0 0 t=2000 MPI_Reduce
collective 0 0 t=2699 op=7 comm=world root=2 sent=8
leave 0 0 t=2700 MPI_Reduce
enter 1 0 t=200 MPI_Bcast
collective 1 0 t=1699 op=2 comm=world root=0 received=8
leave 1 0 t=1700 MPI_Bcast
enter 1 0 t=2600 MPI_Reduce
collective 1 0 t=2699 op=7 comm=world root=2 sent=8
leave 1 0 t=2700 MPI_Reduce
enter 2 0 t=1500 MPI_Bcast
collective 2 0 t=1799 op=2 comm=world root=0 received=8
leave 2 0 t=1800 MPI_Bcast
enter 2 0 t=2100 MPI_Reduce
collective 2 0 t=2899 op=7 comm=world root=2 sent=8 received=24
leave 2 0 t=2900 MPI_Reduce
)");
  const WaitStatesReport r = ComputeWaitStates(t);
  // Rank 1 entered the bcast 800 ns before the root; rank 2 after it. The
  // reduce's root (rank 2) waited from 2100 for rank 1 at 2600.
  EXPECT_EQ(r.processes[0].collective_ns, 0);
  EXPECT_EQ(r.processes[1].collective_ns, 800);
  EXPECT_EQ(r.processes[2].collective_ns, 500);
  EXPECT_EQ(r.all.collective_ns, 1300);
  ASSERT_EQ(r.callsites.size(), 2u);
  EXPECT_EQ(t.states[r.callsites[0].state].name, "MPI_Bcast");
  EXPECT_EQ(r.callsites[0].totals.collective_ns, 800);
  EXPECT_EQ(t.states[r.callsites[1].state].name, "MPI_Reduce");
}

TEST(WaitStatesTest, TraceWithoutMpiHasNoWaits) {
  const model::Trace t =
      LoadScript(MpiScriptPreamble(1) + "enter 0 0 t=0 compute\nleave 0 0 t=10 compute\n");
  const WaitStatesReport r = ComputeWaitStates(t);
  EXPECT_EQ(r.all.total_ns(), 0);
  EXPECT_TRUE(r.instances.empty());
  EXPECT_EQ(r.processes.size(), 1u);
}

// What another process found comes as bytes: merged, the report is the
// one built in one place; cut bytes are an error and merge nothing.
TEST(WaitStatesTest, SavedBuildersMergeAsBuildersDo) {
  const model::Trace t = LoadScript(MpiScriptPreamble(2) + kLateSenderScript);
  const WaitInstance a{0, WaitKind::kLateSender, 10, 40, 1, 0, 0};
  const WaitInstance b{1, WaitKind::kCollective, 70, 25, 0, 0, 0};
  WaitStatesBuilder whole(t);
  whole.Add(a, 0, 2, 7);
  whole.Add(b, 1, 4, model::kNone);
  WaitStatesBuilder here(t), there(t);
  here.Add(a, 0, 2, 7);
  there.Add(b, 1, 4, model::kNone);
  const std::string saved = there.Save();
  EXPECT_FALSE(here.MergeSaved(saved.substr(0, saved.size() - 1)).ok());
  EXPECT_FALSE(here.MergeSaved(saved + "x").ok());
  ASSERT_TRUE(here.MergeSaved(saved).ok());
  const WaitStatesReport x = std::move(whole).Finish(), y = std::move(here).Finish();
  EXPECT_EQ(y.all.count, 2u);
  EXPECT_EQ(y.all.total_ns(), x.all.total_ns());
  EXPECT_EQ(y.processes[1].collective_ns, 25);
  ASSERT_EQ(y.callsites.size(), x.callsites.size());
  for (size_t i = 0; i < x.callsites.size(); ++i) {
    EXPECT_EQ(y.callsites[i].state, x.callsites[i].state);
    EXPECT_EQ(y.callsites[i].totals.total_ns(), x.callsites[i].totals.total_ns());
  }
  ASSERT_EQ(y.instances.size(), 2u);
  EXPECT_EQ(y.instances[1].wait_ns, 25);
}

}  // namespace
}  // namespace plx::analysis
