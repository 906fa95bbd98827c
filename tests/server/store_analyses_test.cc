// A trace served from its file answers the analysis panels as the in-memory
// server does: on every test trace (support/test_traces.h), /waits,
// /critical-path, /diagnostics, /anomalies and /matrix give the in-memory
// answers byte for byte, with a budget so small that every decoded chunk is
// evicted at once (before they are made they answer 503, to retry:
// store_timeline_test.cc).
#include <gtest/gtest.h>

#include <string>

#include "served_both_ways.h"
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
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    ServedTrace& memory = *both.memory;
    ServedTrace& file = *both.file;
    ASSERT_NE(file.store_timeline().analyses(), nullptr);
    Api api(both.served);
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

}  // namespace
}  // namespace plx::server
