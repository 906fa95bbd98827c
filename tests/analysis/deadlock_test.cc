// DetectDeadlocks on traces that end with MPI calls still open: two ranks
// that both receive first, a cycle through three ranks (a receive, a
// synchronous send, a receive), and blocked calls that form no cycle.
#include "analysis/deadlock.h"

#include <gtest/gtest.h>

#include <string>

#include "script_trace.h"

namespace plx::analysis {
namespace {

using testing::LoadScript;
using testing::MpiScriptPreamble;

std::string CallName(const model::Trace& t, const BlockedCall& b) {
  return t.states[t.slices.state[b.slice]].name;
}

TEST(DeadlockTest, TwoRanksThatBothReceiveFirst) {
  const model::Trace t = LoadScript(MpiScriptPreamble(2) + R"(
enter 0 0 t=100 MPI_Recv
post 0 0 t=110 comm=world peer=1 tag=7 match=1
enter 1 0 t=200 MPI_Recv
post 1 0 t=210 comm=world peer=0 tag=7 match=1
)");
  const DeadlockReport r = DetectDeadlocks(t);
  ASSERT_EQ(r.blocked.size(), 2u);
  ASSERT_EQ(r.deadlocks.size(), 1u);
  EXPECT_EQ(r.deadlocks[0].ranks, (std::vector<int64_t>{0, 1}));
  ASSERT_EQ(r.deadlocks[0].calls.size(), 2u);
  EXPECT_TRUE(r.not_in_cycle.empty());
  for (int i = 0; i < 2; ++i) {
    const BlockedCall& b = r.blocked[r.deadlocks[0].calls[i]];
    EXPECT_EQ(b.rank, i);
    EXPECT_EQ(CallName(t, b), "MPI_Recv");
    EXPECT_EQ(b.since_ns, 100 * (i + 1));
    EXPECT_EQ(b.waits_for, (std::vector<int64_t>{1 - i}));
    ASSERT_NE(b.comm, model::kNone);
    EXPECT_EQ(t.communicators[b.comm].name, "world");
    EXPECT_EQ(b.tag, 7);
  }
}

TEST(DeadlockTest, ThreeRankCycleThroughASynchronousSend) {
  const model::Trace t = LoadScript(MpiScriptPreamble(3) + R"(
enter 0 0 t=100 MPI_Recv
post 0 0 t=110 comm=world peer=1 tag=0 match=1
enter 1 0 t=100 MPI_Ssend
send 1 0 t=110 comm=world peer=2 tag=3 bytes=8 match=1
enter 2 0 t=100 MPI_Recv
post 2 0 t=110 comm=world peer=0 tag=0 match=1
)");
  const DeadlockReport r = DetectDeadlocks(t);
  ASSERT_EQ(r.deadlocks.size(), 1u);
  EXPECT_EQ(r.deadlocks[0].ranks, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(r.deadlocks[0].calls.size(), 3u);
  ASSERT_EQ(r.blocked.size(), 3u);
  EXPECT_EQ(CallName(t, r.blocked[1]), "MPI_Ssend");
  EXPECT_EQ(r.blocked[1].waits_for, (std::vector<int64_t>{2}));
  EXPECT_EQ(r.blocked[1].tag, 3);
  EXPECT_EQ(r.blocked[2].waits_for, (std::vector<int64_t>{0}));
}

TEST(DeadlockTest, BlockedCallsWithoutACycle) {
  // Rank 0 waits for a message rank 1 never sends, and rank 1 finished; rank
  // 2 sits in a barrier the others never entered. Nobody waits for rank 2.
  const model::Trace t = LoadScript(MpiScriptPreamble(3) + R"(
enter 0 0 t=100 MPI_Recv
post 0 0 t=110 comm=world peer=1 tag=0 match=1
enter 1 0 t=0 compute
leave 1 0 t=500 compute
thread_end 1 0 t=500
enter 2 0 t=300 MPI_Barrier
)");
  const DeadlockReport r = DetectDeadlocks(t);
  EXPECT_TRUE(r.deadlocks.empty());
  ASSERT_EQ(r.blocked.size(), 2u);
  EXPECT_EQ(r.not_in_cycle, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(r.blocked[0].waits_for, (std::vector<int64_t>{1}));
  EXPECT_EQ(CallName(t, r.blocked[1]), "MPI_Barrier");
  EXPECT_EQ(r.blocked[1].since_ns, 300);
  // Neither rank 0 nor rank 1 is in the barrier.
  EXPECT_EQ(r.blocked[1].waits_for, (std::vector<int64_t>{0, 1}));
}

TEST(DeadlockTest, AnySourceReceiveWaitsForEveryOtherMember) {
  const model::Trace t = LoadScript(MpiScriptPreamble(3) + R"(
enter 0 0 t=100 MPI_Recv
post 0 0 t=110 comm=world peer=-1 tag=-1 match=1
enter 1 0 t=100 MPI_Recv
post 1 0 t=110 comm=world peer=0 tag=0 match=1
enter 2 0 t=0 compute
)");
  const DeadlockReport r = DetectDeadlocks(t);
  ASSERT_EQ(r.blocked.size(), 2u);  // rank 2's compute is not a communication call
  EXPECT_EQ(r.blocked[0].waits_for, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(r.blocked[0].tag, -1);
  ASSERT_EQ(r.deadlocks.size(), 1u);
  EXPECT_EQ(r.deadlocks[0].ranks, (std::vector<int64_t>{0, 1}));
}

TEST(DeadlockTest, CompletedReceivesAndClosedCallsAreNotBlocked) {
  const model::Trace t = LoadScript(MpiScriptPreamble(2) + R"(
enter 0 0 t=0 MPI_Send
send 0 0 t=10 comm=world peer=1 tag=0 bytes=8 match=1
leave 0 0 t=20 MPI_Send
enter 1 0 t=0 MPI_Recv
post 1 0 t=5 comm=world peer=0 tag=0 match=1
recv 1 0 t=30 comm=world peer=0 tag=0 bytes=8 match=1
leave 1 0 t=40 MPI_Recv
)");
  const DeadlockReport r = DetectDeadlocks(t);
  EXPECT_TRUE(r.blocked.empty());
  EXPECT_TRUE(r.deadlocks.empty());
}

}  // namespace
}  // namespace plx::analysis
