#include "interop/csv/csv.h"

#include <gtest/gtest.h>

#include "interop_test_trace.h"
#include "support/test_support.h"

namespace plx::interop {
namespace {

using testing::ReadFile;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

TEST(CsvTest, WritesStatesMessagesAndCounters) {
  testing::TempDir dir;
  model::Trace t;
  testing::WriteInteropTestTrace(dir.File("t.plx"), &t);
  uint64_t last = 0;
  ASSERT_TRUE(
      ExportCsv(t, dir.File("out.csv"), [&](uint64_t done, uint64_t) { last = done; }).ok());
  EXPECT_EQ(last, t.slices.size() + t.messages.size() + t.counter_samples.size());

  const auto states = Lines(ReadFile(dir.File("out.states.csv")));
  ASSERT_EQ(states.size(), 1 + t.slices.size());
  EXPECT_EQ(states[0],
            "process,rank,thread,thread_name,state,category,depth,begin_ns,end_ns,duration_ns,"
            "self_ns");
  // Rank 0's outer compute slice and the first solve step inside it.
  EXPECT_EQ(states[1], "0,0,0,main,compute,,0,0,5000,5000,1800");
  EXPECT_EQ(states[2], "0,0,0,main,solve step,,1,0,1000,1000,1000");
  EXPECT_NE(ReadFile(dir.File("out.states.csv")).find(",MPI_Send,comm,1,1600,1700,100,100"),
            std::string::npos);
  // The worker thread's name needs no quotes; a comma would.
  EXPECT_NE(ReadFile(dir.File("out.states.csv")).find("0,0,1,worker 1,worker task,"),
            std::string::npos);

  const auto messages = Lines(ReadFile(dir.File("out.messages.csv")));
  ASSERT_EQ(messages.size(), 1 + 4u);  // 4 paired messages, none unmatched
  EXPECT_EQ(messages[0],
            "send_process,send_thread,recv_process,recv_thread,comm,tag,bytes,send_ns,recv_ns");
  EXPECT_EQ(messages[1], "0,0,1,2,MPI_COMM_WORLD,7,64,1650,1660");
  EXPECT_EQ(messages[3], "0,0,2,3,even ranks,0,8,1950,1990");
  EXPECT_EQ(messages[4], "0,0,0,1,threads,3,16,2100,2600");

  const auto counters = Lines(ReadFile(dir.File("out.counters.csv")));
  ASSERT_EQ(counters.size(), 1 + t.counter_samples.size());
  EXPECT_EQ(counters[0], "process,rank,thread,thread_name,counter,unit,time_ns,value");
  EXPECT_NE(
      ReadFile(dir.File("out.counters.csv")).find("0,0,0,main,memory used,bytes,150,1048576.5"),
      std::string::npos);
  EXPECT_NE(ReadFile(dir.File("out.counters.csv")).find("0,0,0,main,PAPI_TOT_INS,,150,123456789"),
            std::string::npos);
}

TEST(CsvTest, QuotesFieldsWithCommasAndQuotes) {
  testing::TempDir dir;
  const Status written = testing::WriteTraceScript(
      "process 0\nthread 0 0 name=\"a, \\\"b\\\"\"\nstate 0 1 \"x,y\"\n"
      "enter 0 0 t=10 \"x,y\"\nleave 0 0 t=20 \"x,y\"\n",
      dir.File("q.plx"));
  ASSERT_TRUE(written.ok()) << written.message();
  model::Trace t;
  testing::LoadPlx(dir.File("q.plx"), &t);
  ASSERT_TRUE(ExportCsv(t, dir.File("q.csv")).ok());
  const auto states = Lines(ReadFile(dir.File("q.states.csv")));
  ASSERT_EQ(states.size(), 2u);
  EXPECT_EQ(states[1].substr(0, 4), "0,,0");
  EXPECT_NE(states[1].find(",\"x,y\","), std::string::npos) << states[1];
}

TEST(CsvTest, NamesTheFileItCannotWrite) {
  testing::TempDir dir;
  model::Trace t;
  testing::WriteInteropTestTrace(dir.File("t.plx"), &t);
  const Status s = ExportCsv(t, dir.File("missing/out.csv"));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("missing/out.states.csv"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace plx::interop
