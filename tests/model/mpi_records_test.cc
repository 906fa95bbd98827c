// The records MPI tracing adds: the `match` column of messages, collectives,
// and communicators with a global id and member ranks.
#include <gtest/gtest.h>

#include <memory>

#include "base/varint.h"
#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "model/def_merger.h"
#include "model/load_trace.h"
#include "support/test_support.h"

namespace plx::model {
namespace {

using format::TraceWriter;

// Two processes (ranks 0 and 1), each with MPI_COMM_WORLD (global id 1, ranks
// 0 1), a split communicator (global id 9, ranks 1 0) and MPI_COMM_SELF (local).
class MpiRecordsTest : public ::testing::Test {
 protected:
  Trace Load() {
    const std::string path = dir_.File("t.plx");
    auto w = TraceWriter::Create(path);
    EXPECT_TRUE(w.ok());
    TraceWriter& tw = **w;
    uint8_t world[2 * kMaxVarintBytes], split[2 * kMaxVarintBytes];
    const auto world_size = PutUvarint(PutUvarint(world, 0), 1) - world;
    const auto split_size = PutUvarint(PutUvarint(split, 1), 0) - split;
    for (uint32_t p = 0; p < 2; ++p) {
      tw.Def(p, format::StringDef{1, "MPI_COMM_WORLD"});
      tw.Def(p, format::StringDef{2, "split"});
      tw.Def(p, format::StringDef{3, "MPI_COMM_SELF"});
      tw.Def(p, format::ProcessDef{100 + p, p, 0, 0, 0, 0});
      tw.Def(p,
             format::CommunicatorDef{
                 1, 1, 0, 1, std::string_view(reinterpret_cast<const char*>(world), world_size)});
      tw.Def(p,
             format::CommunicatorDef{
                 2, 2, 0, 9, std::string_view(reinterpret_cast<const char*>(split), split_size)});
      tw.Def(p, format::CommunicatorDef{3, 3, 0, 0, {}});
    }
    tw.Event(0, 0, 100, format::SendRecord{1, 1, 7, 64, 0, 1});
    tw.Event(0, 0, 200, format::SendRecord{2, 1, 7, 64, 0, 2});
    tw.Event(0, 0, 300, format::CollectiveRecord{8, 1, -1, 8, 16});
    tw.Event(0, 0, 400, format::CollectiveRecord{2, 2, 1, 0, 32});
    tw.Event(0, 0, 500, format::CollectiveRecord{99, 7, 0, 0, 0});  // unknown op, undefined comm
    tw.Event(1, 0, 150, format::RecvRecord{1, 0, 7, 64, 0, 2});
    tw.Event(1, 0, 250, format::RecvRecord{2, 0, 7, 64, 0, 0});
    tw.Event(1, 0, 300, format::CollectiveRecord{8, 1, -1, 8, 16});
    EXPECT_TRUE(tw.Finish().ok());
    file_ = std::move(format::TraceFile::Open(path)).value();
    auto trace = LoadTrace(*file_);
    EXPECT_TRUE(trace.ok()) << trace.status().message();
    return trace.ok() ? std::move(trace).value() : Trace();
  }

  testing::TempDir dir_;
  std::unique_ptr<format::TraceFile> file_;
};

TEST_F(MpiRecordsTest, MessagesKeepTheirMatchSequence) {
  Trace t = Load();
  ASSERT_EQ(t.messages.size(), 4u);
  ASSERT_EQ(t.messages.match.size(), 4u);
  EXPECT_EQ(t.messages.match[0], 1u);
  EXPECT_EQ(t.messages.match[1], 2u);
  EXPECT_EQ(t.messages.is_send[2], 0);
  EXPECT_EQ(t.messages.match[2], 2u);
  EXPECT_EQ(t.messages.match[3], 0u);  // none recorded
}

TEST_F(MpiRecordsTest, CollectivesLandInTheirTable) {
  Trace t = Load();
  const CollectiveTable& c = t.collectives;
  ASSERT_EQ(c.size(), 4u);
  ASSERT_EQ(c.thread.size(), 4u);
  EXPECT_EQ(c.time[0], 300);
  EXPECT_EQ(c.op[0], 8);  // allreduce
  EXPECT_EQ(t.communicators[c.comm[0]].name, "MPI_COMM_WORLD");
  EXPECT_EQ(c.root[0], -1);
  EXPECT_EQ(c.sent[0], 8u);
  EXPECT_EQ(c.received[0], 16u);
  EXPECT_EQ(c.op[1], 2);  // bcast
  EXPECT_EQ(t.communicators[c.comm[1]].name, "split");
  EXPECT_EQ(c.root[1], 1);
  EXPECT_EQ(c.received[1], 32u);
  EXPECT_EQ(c.op[2], 13);  // unknown ops count as "other"
  EXPECT_EQ(c.comm[2], kNone);
  EXPECT_EQ(t.threads[c.thread[3]].process, 1u);
  EXPECT_EQ(t.stats.undefined_refs, 1u);
}

TEST_F(MpiRecordsTest, CommunicatorsHaveGlobalIdsAndMembers) {
  Trace t = Load();
  ASSERT_EQ(t.communicators.size(), 6u);  // per process
  for (uint32_t p = 0; p < 2; ++p) {
    const Communicator* world = &t.communicators[3 * p];
    EXPECT_EQ(world->process, p);
    EXPECT_EQ(world->name, "MPI_COMM_WORLD");
    EXPECT_EQ(world->global_id, 1u);
    EXPECT_EQ(t.communicators[3 * p + 1].global_id, 9u);
    EXPECT_EQ(t.communicators[3 * p + 2].global_id, 0u);
    EXPECT_TRUE(t.communicators[3 * p + 2].members.empty());
    EXPECT_EQ(world->members, (std::vector<int64_t>{0, 1}));
    EXPECT_EQ(t.communicators[3 * p + 1].members, (std::vector<int64_t>{1, 0}));
  }
  // Each list is kept once, however many processes define it.
  EXPECT_TRUE(t.communicators[0].members.SharesWith(t.communicators[3].members));
  EXPECT_TRUE(t.communicators[1].members.SharesWith(t.communicators[4].members));
  EXPECT_FALSE(t.communicators[0].members.SharesWith(t.communicators[1].members));
}

}  // namespace
}  // namespace plx::model
