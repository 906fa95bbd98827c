// /series (time in states per row and bucket, the viewer's derived series):
// the small trace's buckets to the ns; over the catalogue of test traces,
// in memory and from the file, every row's buckets add up to the /stats
// self (and total) time of the states on that row over the window; bad
// parameters answer 400.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "served_both_ways.h"
#include "server/api/api.h"
#include "server/api_test_trace.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::server {
namespace {

using nlohmann::json;

json Get(Api& api, const std::string& path, const std::string& query) {
  const ApiResponse r = api.Handle(path, query);
  EXPECT_EQ(r.status, 200) << path << "?" << query << ": " << r.body;
  return r.status == 200 ? json::parse(r.body) : json::object();
}

std::vector<int64_t> Row(const json& answer, size_t r) {
  return answer["values"].at(r).get<std::vector<int64_t>>();
}

// Rank 0 (row 0): compute [0, 9000) holding MPI_Send [2000, 3000); rank 1
// (row 1): MPI_Recv [0, 5000), compute [5000, 11000) (trace times).
TEST(SeriesTest, SmallTraceBuckets) {
  testing::TempDir dir;
  auto store = testing::LoadedApiTestStore(dir);
  Api api(*store);
  const json a = Get(api, "/traces/t/series", "states=MPI_*&from=0&to=10000&buckets=4");
  EXPECT_EQ(a["unit"], "thread");
  EXPECT_EQ(a["time"], "self");
  EXPECT_EQ(a["states"], json::array({"MPI_Send", "MPI_Recv", "MPI_Ssend", "MPI_Barrier",
                                      "MPI_Bcast", "MPI_Reduce"}));
  EXPECT_EQ(a["edges"], json::array({0, 2500, 5000, 7500, 10000}));
  EXPECT_EQ(a["rows"], json::array({0, 1}));
  EXPECT_EQ(Row(a, 0), (std::vector<int64_t>{500, 500, 0, 0}));
  EXPECT_EQ(Row(a, 1), (std::vector<int64_t>{2500, 2500, 0, 0}));
  // Self time of compute on rank 0 excludes the send; inclusive does not.
  const json self = Get(api, "/traces/t/series", "states=compute&rows=0&buckets=2&to=10000");
  EXPECT_EQ(self["rows"], json::array({0}));
  EXPECT_EQ(Row(self, 0), (std::vector<int64_t>{4000, 4000}));
  const json incl =
      Get(api, "/traces/t/series", "states=compute&rows=0&buckets=2&to=10000&time=inclusive");
  EXPECT_EQ(Row(incl, 0), (std::vector<int64_t>{5000, 4000}));
  // Per process: one row per rank (one thread each here); uneven edges.
  const json p = Get(api, "/traces/t/series", "states=MPI_Recv&unit=process&to=1000&buckets=3");
  EXPECT_EQ(p["rows"], json::array({0, 1}));
  EXPECT_EQ(p["labels"].size(), 2u);
  EXPECT_EQ(p["edges"], json::array({0, 333, 666, 1000}));
  EXPECT_EQ(Row(p, 0), (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(Row(p, 1), (std::vector<int64_t>{333, 333, 334}));
}

TEST(SeriesTest, BadParametersAnswer400) {
  testing::TempDir dir;
  auto store = testing::LoadedApiTestStore(dir);
  Api api(*store);
  for (const char* q :
       {"", "states=MPI_Send&category=x", "states=nothing", "states=MPI_*,",
        "category=no-such-category", "states=MPI_*&buckets=0", "states=MPI_*&buckets=1025",
        "states=MPI_*&from=10&to=5", "states=MPI_*&from=5&to=5", "states=MPI_*&rows=7",
        "states=MPI_*&rows=x", "states=MPI_*&unit=rank", "states=MPI_*&time=wall",
        "states=MPI_*&from=abc"}) {
    const ApiResponse r = api.Handle("/traces/t/series", q);
    EXPECT_EQ(r.status, 400) << q << ": " << r.body;
    EXPECT_NE(r.body.find("parameter"), std::string::npos) << q << ": " << r.body;
  }
}

class SeriesTracesTest : public testing::TestTracesSuite {};

// Every row's buckets add up to /stats over the window on that row.
TEST_F(SeriesTracesTest, BucketsAddUpToStats) {
  testing::TempDir index;
  int checked = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    Api api(both.served);
    const model::Trace& t = both.memory->trace();
    if (t.states.empty() || t.threads.empty()) continue;
    const std::string state = t.states[0].name;
    if (state.empty() || state.find_first_of(",*&%+=") != std::string::npos) continue;
    const double duration = static_cast<double>(t.end_ns - t.begin_ns);
    for (ServedTrace* served : {both.memory, both.file}) {
      const std::string base = "/traces/" + served->id();
      for (const auto& [from, to] :
           {std::pair{0.0, duration}, std::pair{duration / 3, duration * 0.8}}) {
        if (!(to > from)) continue;
        const std::string window = "from=" + std::to_string(static_cast<int64_t>(from)) +
                                   "&to=" + std::to_string(static_cast<int64_t>(to));
        for (const char* time : {"self", "inclusive"}) {
          const json s = Get(api, base + "/series",
                             "states=" + state + "&buckets=7&time=" + time + "&" + window);
          ASSERT_EQ(s["rows"].size(), t.threads.size());
          for (size_t r = 0; r < s["rows"].size(); ++r) {
            const int64_t row = s["rows"][r].get<int64_t>();
            int64_t sum = 0;
            for (int64_t v : Row(s, r))
              sum += v;
            const json stats =
                Get(api, base + "/stats",
                    window + "&rows=" + std::to_string(row) + "&thread=" + std::to_string(row));
            int64_t expected = 0;
            for (const json& st : stats["rows"])
              if (st["state"] == 0) expected = st[std::string(time) == "self" ? "self" : "total"];
            EXPECT_EQ(sum, expected)
                << served->id() << " row " << row << " " << time << " " << window;
            if (expected != 0) ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace plx::server
