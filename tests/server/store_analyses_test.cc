// A trace served from its file answers the analysis panels as the in-memory
// server does: on every test trace (support/test_traces.h), /waits,
// /critical-path, /diagnostics, /anomalies and /matrix give the in-memory
// answers byte for byte, with a budget so small that every decoded chunk is
// evicted at once. Before the analyses are made they answer 503, to retry.
#include <gtest/gtest.h>

#include <string>

#include "server/api.h"
#include "server/served_trace.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::server {
namespace {

class StoreAnalysesTest : public testing::TestTracesSuite {};

TEST_F(StoreAnalysesTest, AnalysesAreTheInMemoryAnalyses) {
  testing::TempDir index;
  int compared = 0, with_waits = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    TraceStore served;
    StoreServing serving;
    serving.index.dir = index.path();
    serving.memory_bytes = 64 << 10;
    ServedTrace& memory = served.Add(tt.path);
    memory.Load({});
    if (!memory.ready()) continue;
    ServedTrace& file = served.Add(tt.path);
    file.ServeLargeFromFile(serving, 0);
    file.Load({});
    ASSERT_TRUE(file.ready()) << file.progress().error;
    if (!file.from_store()) continue;
    ASSERT_NE(file.store_timeline().analyses(), nullptr);
    Api api(served);
    // The longest waits the file keeps are all there are, or more than asked.
    const std::string limit = std::to_string(StoreAnalyses::kLongestWaits);
    for (const auto& [endpoint, query] :
         {std::pair{"waits", "limit=" + limit}, std::pair{"critical-path", std::string()},
          std::pair{"diagnostics", "limit=" + limit}, std::pair{"anomalies", std::string()},
          std::pair{"matrix", std::string("kind=messages")},
          std::pair{"matrix", std::string("kind=rma")}}) {
      const ApiResponse want = api.Handle("/traces/" + memory.id() + "/" + endpoint, query);
      const ApiResponse got = api.Handle("/traces/" + file.id() + "/" + endpoint, query);
      ASSERT_EQ(want.status, 200) << endpoint << ": " << want.body;
      EXPECT_EQ(got.status, want.status) << endpoint << ": " << got.body;
      EXPECT_EQ(got.body, want.body) << endpoint;
      ++compared;
    }
    if (!memory.waits().instances.empty()) ++with_waits;
    const ApiResponse percentile =
        api.Handle("/traces/" + file.id() + "/anomalies", "method=percentile");
    EXPECT_EQ(percentile.status, 501) << percentile.body;
  }
  EXPECT_GT(compared, 30);
  EXPECT_GT(with_waits, 2);
}

TEST_F(StoreAnalysesTest, TheAnalysesAnswerRetryUntilMade) {
  testing::TempDir index;
  const testing::TestTrace* mpi = nullptr;
  for (const testing::TestTrace& tt : *traces_)
    if (tt.name.find("mpi") != std::string::npos) mpi = &tt;
  ASSERT_NE(mpi, nullptr);
  TraceStore served;
  StoreServing serving;
  serving.index.dir = index.path();
  ServedTrace& t = served.Add(mpi->path);
  t.ServeLargeFromFile(serving, 0);
  // As a server loads it: ready once the timeline is, the analyses after.
  bool checked = false;
  t.Load([&](const LoadProgressInfo& p) {
    if (p.status != LoadStatus::kReady || checked) return;
    checked = true;
    Api api(served);
    const ApiResponse waits = api.Handle("/traces/" + t.id() + "/waits", "");
    EXPECT_EQ(waits.status, 503) << waits.body;
    EXPECT_TRUE(waits.retry_after);
    EXPECT_NE(waits.body.find("/waits"), std::string::npos) << waits.body;
  });
  EXPECT_TRUE(checked);
  Api api(served);
  EXPECT_EQ(api.Handle("/traces/" + t.id() + "/waits", "").status, 200);
  const ApiResponse search = api.Handle("/traces/" + t.id() + "/search", "q=MPI");
  EXPECT_EQ(search.status, 501) << search.body;
  EXPECT_NE(search.body.find("served from its file"), std::string::npos) << search.body;
}

}  // namespace
}  // namespace plx::server
