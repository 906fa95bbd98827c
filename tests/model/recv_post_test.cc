// recv_post records (kind 16) load into Trace::recv_posts: one row per posted
// receive or probe, sorted by thread then time, communicators resolved per
// process like the message table's.
#include <gtest/gtest.h>

#include <memory>

#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "model/load_trace.h"
#include "support/test_support.h"

namespace plx::model {
namespace {

using format::RecvPostRecord;
using format::TraceWriter;

// Process 0 posts three receives and a probe on one thread and one receive on
// a second thread; process 1 posts one receive. Events are written out of
// thread order to show the loader's sorting.
Trace LoadPosts(testing::TempDir& dir, std::unique_ptr<format::TraceFile>* file) {
  const std::string path = dir.File("posts.plx");
  auto w = TraceWriter::Create(path);
  EXPECT_TRUE(w.ok());
  TraceWriter& tw = **w;
  for (uint32_t p = 0; p < 2; ++p) {
    tw.Def(p, format::StringDef{1, "MPI_COMM_WORLD"});
    tw.Def(p, format::StringDef{2, "split"});
    tw.Def(p, format::ProcessDef{100 + p, p, 0, 0, 0, 0});
    tw.Def(p, format::CommunicatorDef{1, 1, 0, 1, {}});
    tw.Def(p, format::CommunicatorDef{2, 2, 0, 9, {}});
  }
  tw.Event(1, 0, 120, RecvPostRecord{1, 0, 5, 1});
  tw.Event(0, 1, 50, RecvPostRecord{1, 1, 3, 4});
  tw.Event(0, 0, 100, RecvPostRecord{1, 1, 7, 1});
  tw.Event(0, 0, 200, RecvPostRecord{2, -1, -1, 2});  // any source, any tag
  tw.Event(0, 0, 300, RecvPostRecord{1, 1, 7, 0});    // a probe
  tw.Event(0, 0, 400, RecvPostRecord{7, 1, 0, 3});    // undefined communicator
  EXPECT_TRUE(tw.Finish().ok());
  *file = std::move(format::TraceFile::Open(path)).value();
  auto trace = LoadTrace(**file);
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  return trace.ok() ? std::move(trace).value() : Trace();
}

TEST(RecvPostTest, PostsLandInTheirTableWithEveryField) {
  testing::TempDir dir;
  std::unique_ptr<format::TraceFile> file;
  const Trace t = LoadPosts(dir, &file);
  const RecvPostTable& r = t.recv_posts;
  ASSERT_EQ(r.size(), 6u);
  ASSERT_EQ(r.thread.size(), 6u);
  ASSERT_EQ(r.comm.size(), 6u);
  ASSERT_EQ(r.peer.size(), 6u);
  ASSERT_EQ(r.tag.size(), 6u);
  ASSERT_EQ(r.match.size(), 6u);

  // Process 0, stream 0 first (threads sort by process, then stream).
  EXPECT_EQ(t.threads[r.thread[0]].process, 0u);
  EXPECT_EQ(t.threads[r.thread[0]].file_stream, 0u);
  EXPECT_EQ(r.time[0], 100);
  EXPECT_EQ(t.communicators[r.comm[0]].name, "MPI_COMM_WORLD");
  EXPECT_EQ(t.communicators[r.comm[0]].process, 0u);
  EXPECT_EQ(r.peer[0], 1);
  EXPECT_EQ(r.tag[0], 7);
  EXPECT_EQ(r.match[0], 1u);

  EXPECT_EQ(r.time[1], 200);
  EXPECT_EQ(t.communicators[r.comm[1]].name, "split");
  EXPECT_EQ(t.communicators[r.comm[1]].global_id, 9u);
  EXPECT_EQ(r.peer[1], -1);
  EXPECT_EQ(r.tag[1], -1);
  EXPECT_EQ(r.match[1], 2u);

  EXPECT_EQ(r.time[2], 300);
  EXPECT_EQ(r.match[2], 0u);

  EXPECT_EQ(r.time[3], 400);
  EXPECT_EQ(r.comm[3], kNone);
  EXPECT_EQ(r.match[3], 3u);
  EXPECT_EQ(t.stats.undefined_refs, 1u);

  // Then process 0's stream 1, then process 1.
  EXPECT_EQ(t.threads[r.thread[4]].file_stream, 1u);
  EXPECT_EQ(r.time[4], 50);
  EXPECT_EQ(r.tag[4], 3);
  EXPECT_EQ(r.match[4], 4u);
  EXPECT_EQ(t.threads[r.thread[5]].process, 1u);
  EXPECT_EQ(r.time[5], 120);
  EXPECT_EQ(t.communicators[r.comm[5]].process, 1u);
  EXPECT_EQ(r.peer[5], 0);
  EXPECT_EQ(r.tag[5], 5);

  // Posts are neither messages nor unknown kinds.
  EXPECT_EQ(t.messages.size(), 0u);
  EXPECT_EQ(t.stats.unknown_record_kinds, 0u);
  EXPECT_EQ(t.stats.records, 6u);
}

}  // namespace
}  // namespace plx::model
