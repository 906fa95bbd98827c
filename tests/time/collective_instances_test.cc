// GroupCollectives on hand-built models: k-th record per process and
// communicator, communicators matched by global id or by name, records on
// undefined communicators left out, instances numbered by earliest record.
#include "time/collective_instances.h"

#include <gtest/gtest.h>

#include <string>

#include "model/trace.h"

namespace plx::time {
namespace {

using model::kNone;

// Processes 0..n-1 with one thread each (thread i = process i).
model::Trace Processes(uint32_t n) {
  model::Trace t;
  for (uint32_t i = 0; i < n; ++i) {
    t.processes.push_back({});
    t.processes.back().rank = i;
    t.threads.push_back({});
    t.threads.back().process = i;
  }
  return t;
}

// A communicator of process p: global id g (0 = none), name, members 0..size-1.
uint32_t AddComm(model::Trace* t, uint32_t p, uint64_t g, const std::string& name, uint32_t size) {
  model::Communicator c;
  c.process = p;
  c.global_id = g;
  c.name = name;
  for (uint32_t i = 0; i < size; ++i)
    c.members.push_back(i);
  t->communicators.push_back(c);
  return static_cast<uint32_t>(t->communicators.size() - 1);
}

void AddCollective(model::Trace* t, uint32_t thread, int64_t time, uint32_t comm) {
  model::CollectiveTable& c = t->collectives;
  c.thread.push_back(thread);
  c.time.push_back(time);
  c.op.push_back(1);
  c.comm.push_back(comm);
  c.root.push_back(-1);
  c.sent.push_back(0);
  c.received.push_back(0);
}

std::vector<uint32_t> RowsOf(const CollectiveInstances& g, uint32_t i) {
  return {g.rows.begin() + g.first[i], g.rows.begin() + g.first[i + 1]};
}

TEST(GroupCollectivesTest, KthRecordOfEachProcessPerCommunicator) {
  model::Trace t = Processes(2);
  const uint32_t w0 = AddComm(&t, 0, 77, "MPI_COMM_WORLD", 2);
  const uint32_t w1 = AddComm(&t, 1, 77, "MPI_COMM_WORLD", 2);
  const uint32_t s0 = AddComm(&t, 0, 99, "split", 2);
  const uint32_t s1 = AddComm(&t, 1, 99, "split", 2);
  AddCollective(&t, 0, 100, w0);     // row 0: world #0
  AddCollective(&t, 0, 200, s0);     // row 1: split #0
  AddCollective(&t, 0, 300, w0);     // row 2: world #1
  AddCollective(&t, 1, 150, w1);     // row 3: world #0
  AddCollective(&t, 1, 160, s1);     // row 4: split #0 (a different order across comms is fine)
  AddCollective(&t, 1, 310, w1);     // row 5: world #1
  AddCollective(&t, 1, 400, kNone);  // row 6: undefined communicator
  const CollectiveInstances g = GroupCollectives(t);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(RowsOf(g, 0), (std::vector<uint32_t>{0, 3}));  // earliest 100
  EXPECT_EQ(RowsOf(g, 1), (std::vector<uint32_t>{1, 4}));  // earliest 160
  EXPECT_EQ(RowsOf(g, 2), (std::vector<uint32_t>{2, 5}));  // earliest 300
  EXPECT_EQ(g.instance_of, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2, kNone}));
  EXPECT_EQ(g.expected, (std::vector<uint32_t>{2, 2, 2}));
}

TEST(GroupCollectivesTest, CommunicatorsWithoutGlobalIdMatchByName) {
  model::Trace t = Processes(3);
  const uint32_t a0 = AddComm(&t, 0, 0, "world", 0);
  const uint32_t a1 = AddComm(&t, 1, 0, "world", 0);
  const uint32_t b2 = AddComm(&t, 2, 0, "other", 0);
  AddCollective(&t, 0, 10, a0);
  AddCollective(&t, 1, 12, a1);
  AddCollective(&t, 2, 11, b2);
  const CollectiveInstances g = GroupCollectives(t);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(RowsOf(g, 0), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(RowsOf(g, 1), (std::vector<uint32_t>{2}));
  EXPECT_EQ(g.expected, (std::vector<uint32_t>{0, 0}));  // members unknown
}

TEST(GroupCollectivesTest, AMissingParticipantLeavesAnIncompleteInstance) {
  model::Trace t = Processes(3);
  uint32_t comm[3];
  for (uint32_t p = 0; p < 3; ++p)
    comm[p] = AddComm(&t, p, 5, "MPI_COMM_WORLD", 3);
  for (uint32_t p = 0; p < 3; ++p)
    AddCollective(&t, p, 10 + p, comm[p]);
  AddCollective(&t, 0, 50, comm[0]);  // rank 1 and 2 never reach the second one
  const CollectiveInstances g = GroupCollectives(t);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(RowsOf(g, 0).size(), 3u);
  EXPECT_EQ(RowsOf(g, 1), (std::vector<uint32_t>{3}));
  EXPECT_EQ(g.expected[1], 3u);
}

TEST(GroupCollectivesTest, EmptyTrace) {
  const CollectiveInstances g = GroupCollectives(model::Trace{});
  EXPECT_EQ(g.size(), 0u);
  EXPECT_TRUE(g.rows.empty());
}

}  // namespace
}  // namespace plx::time
