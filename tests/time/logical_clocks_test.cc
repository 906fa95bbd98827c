// Logical clocks: exact Lamport and vector clock values on hand-built models
// (a message, a chain through three ranks, an allreduce, a receive recorded
// before its send on a cycle), and properties on random skewed traces: every
// send's clock is below its receive's, clocks never decrease along a thread.
#include "time/logical_clocks.h"

#include <gtest/gtest.h>

#include <memory>

#include "format/trace_file.h"
#include "model/load_trace.h"
#include "model_builder.h"
#include "skewed_trace.h"
#include "support/test_support.h"
#include "time/message_pairs.h"

namespace plx::time {
namespace {

using testing::ModelBuilder;
using V = std::vector<uint32_t>;

// Rank 0: MPI_Send [10, 30] with the send at 20. Rank 1: work [0, 5], then
// MPI_Recv [6, 50] with the receive at 45.
ModelBuilder OneMessage() {
  ModelBuilder b(2);
  b.Slice(0, "MPI_Send", 10, 30);
  b.Send(0, 20, 1);
  b.Slice(1, "work", 0, 5);
  b.Slice(1, "MPI_Recv", 6, 50);
  b.Recv(1, 45, 0);
  return b;
}

TEST(ThreadEventsTest, NestedSlicesAndRecordsInOrder) {
  ModelBuilder b(1);
  b.Slice(0, "outer", 0, 100);
  b.Slice(0, "inner", 0, 50, 1);
  b.Send(0, 50, 0);
  b.Slice(0, "next", 50, 100, 1);
  const ThreadEvents ev = BuildThreadEvents(b.trace());
  using T = ThreadEvents::Type;
  ASSERT_EQ(ev.size(), 7u);
  EXPECT_EQ(ev.type, (std::vector<T>{T::kSliceBegin, T::kSliceBegin, T::kMessage, T::kSliceEnd,
                                     T::kSliceBegin, T::kSliceEnd, T::kSliceEnd}));
  EXPECT_EQ(ev.row, (std::vector<uint32_t>{0, 1, 0, 1, 2, 2, 0}));
}

TEST(LamportClocksTest, OneMessage) {
  ModelBuilder b = OneMessage();
  const LamportClocks c = ComputeLamportClocks(b.trace());
  // Rank 0: begin 1, send 2, end 3. Rank 1: 1, 2, begin 3, recv max(3, 2)+1 = 4, end 5.
  EXPECT_EQ(c.slice_begin, (std::vector<uint64_t>{1, 1, 3}));
  EXPECT_EQ(c.slice_end, (std::vector<uint64_t>{3, 2, 5}));
  EXPECT_EQ(c.message, (std::vector<uint64_t>{2, 4}));
  EXPECT_EQ(c.forced, 0u);
  EXPECT_EQ(c.At(1, 44), 3u);
  EXPECT_EQ(c.At(1, 45), 4u);
  EXPECT_EQ(c.At(1, -1), 0u);
  EXPECT_EQ(c.At(0, 1000), 3u);
}

TEST(LamportClocksTest, ReceiveTakesTheLaterSendersClock) {
  // Rank 0 has done many events before sending; rank 1 receives early on.
  ModelBuilder b(2);
  for (int i = 0; i < 5; ++i)
    b.Slice(0, "w", i * 10, i * 10 + 5);
  b.Send(0, 60, 1);      // row 0: rank 0's 11th event
  b.Recv(0, 100, 1, 7);  // row 1: the answer, max(11, 13) + 1
  b.Recv(1, 0, 0);       // row 2: recorded before the send (skewed clocks): 12
  b.Send(1, 1, 0, 7);    // row 3: the answer: 13
  const LamportClocks c = ComputeLamportClocks(b.trace());
  EXPECT_EQ(c.message, (std::vector<uint64_t>{11, 14, 12, 13}));
  EXPECT_EQ(c.forced, 0u);
}

TEST(LamportClocksTest, ChainThroughThreeRanks) {
  ModelBuilder b(3);
  b.Send(0, 10, 1);  // 1
  b.Recv(1, 20, 0);  // 2
  b.Send(1, 30, 2);  // 3
  b.Slice(2, "w", 0, 5);
  b.Recv(2, 40, 1);  // max(2, 3) + 1 = 4
  const LamportClocks lc = ComputeLamportClocks(b.trace());
  EXPECT_EQ(lc.message, (std::vector<uint64_t>{1, 2, 3, 4}));
  const VectorClocks vc = ComputeVectorClocks(b.trace());
  ASSERT_EQ(vc.width, 3u);
  EXPECT_EQ(V(vc.Message(0), vc.Message(0) + 3), (V{1, 0, 0}));
  EXPECT_EQ(V(vc.Message(1), vc.Message(1) + 3), (V{1, 1, 0}));
  EXPECT_EQ(V(vc.Message(2), vc.Message(2) + 3), (V{1, 2, 0}));
  EXPECT_EQ(V(vc.Message(3), vc.Message(3) + 3), (V{1, 2, 3}));
  EXPECT_EQ(vc.At(2, 39), (V{0, 0, 2}));
  EXPECT_EQ(vc.At(2, 40), (V{1, 2, 3}));
  EXPECT_EQ(vc.At(2, 1000), (V{1, 2, 3}));
  EXPECT_EQ(vc.At(0, 5), (V{0, 0, 0}));
  EXPECT_TRUE(VectorLessEqual(vc.Message(0), vc.Message(3), 3));
  EXPECT_FALSE(VectorLessEqual(vc.Message(3), vc.Message(0), 3));
}

TEST(LamportClocksTest, CollectiveSynchronisesEveryone) {
  ModelBuilder b(3);
  b.Slice(0, "a", 0, 1);
  b.Slice(0, "b", 2, 3);
  b.Collective(0, 10);  // rank 0 has 4 events before: 5
  b.Collective(1, 10);
  b.Slice(1, "c", 20, 30);
  b.Collective(2, 10);
  const LamportClocks c = ComputeLamportClocks(b.trace());
  EXPECT_EQ(c.collective, (std::vector<uint64_t>{5, 5, 5}));
  EXPECT_EQ(c.slice_begin[2], 6u);
  const VectorClocks vc = ComputeVectorClocks(b.trace());
  for (uint32_t row = 0; row < 3; ++row) {
    const uint32_t* v = vc.collective.data() + row * 3;
    EXPECT_EQ(V(v, v + 3), (V{5, 1, 1})) << row;
  }
  EXPECT_EQ(vc.At(1, 25), (V{5, 2, 1}));
}

TEST(LamportClocksTest, CycleIsBrokenAndCounted) {
  // Each receive precedes, on its thread, the send of the other message.
  ModelBuilder b(2);
  b.Recv(0, 100, 1);
  b.Send(0, 200, 1);
  b.Recv(1, 100, 0);
  b.Send(1, 200, 0);
  const LamportClocks c = ComputeLamportClocks(b.trace());
  EXPECT_EQ(c.forced, 1u);
  // Rank 0 (earliest, lowest) goes first: its receive counts as local (1),
  // its send 2; rank 1 receives it: 3, sends 4.
  EXPECT_EQ(c.message, (std::vector<uint64_t>{1, 2, 3, 4}));
}

class LogicalClocksPropertyTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(LogicalClocksPropertyTest, SendsBeforeReceivesAndMonotoneThreads) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("t.plx");
  testing::SkewedTraceOptions o;
  o.seed = GetParam();
  o.ranks = 2 + static_cast<uint32_t>(GetParam() % 5);
  o.actions = 150;
  ASSERT_TRUE(testing::WriteSkewedTrace(path, o).ok());
  auto file = format::TraceFile::Open(path);
  ASSERT_TRUE(file.ok());
  StatusOr<model::Trace> t = model::LoadTrace(**file);
  ASSERT_TRUE(t.ok());
  const LamportClocks lc = ComputeLamportClocks(*t);
  const VectorClocks vc = ComputeVectorClocks(*t);
  EXPECT_EQ(lc.forced, 0u);
  EXPECT_EQ(vc.forced, 0u);
  const MessagePairs pairs = MatchMessages(*t);
  ASSERT_FALSE(pairs.pairs.empty());
  for (const MessagePair& p : pairs.pairs) {
    EXPECT_LT(lc.message[p.send], lc.message[p.recv]);
    EXPECT_TRUE(VectorLessEqual(vc.Message(p.send), vc.Message(p.recv), vc.width));
    EXPECT_FALSE(VectorLessEqual(vc.Message(p.recv), vc.Message(p.send), vc.width));
  }
  for (uint32_t th = 0; th < t->threads.size(); ++th) {
    for (uint32_t e = lc.events.first[th] + 1; e < lc.events.first[th + 1]; ++e)
      EXPECT_LT(lc.value[e - 1], lc.value[e]);
  }
  // Vector clocks at times agree with the clocks of the records there.
  for (uint32_t row = 0; row < t->messages.size(); ++row) {
    const std::vector<uint32_t> at = vc.At(t->messages.thread[row], t->messages.time[row]);
    EXPECT_TRUE(VectorLessEqual(vc.Message(row), at.data(), vc.width));
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, LogicalClocksPropertyTest, ::testing::Range<uint64_t>(1, 11));

}  // namespace
}  // namespace plx::time
