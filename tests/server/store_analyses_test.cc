// A trace served from its file answers the analysis panels as the in-memory
// server does: on every test trace (support/test_traces.h), /waits,
// /critical-path, /diagnostics, /anomalies (robust and percentile), /matrix,
// /histogram (with either selection) and /search give the in-memory
// answers byte for byte, with a budget so small that every decoded chunk is
// evicted at once (before they are made they answer 503, to retry:
// store_timeline_test.cc); the next start reads them, and the statistics,
// from the trace's index. The mountain range of a wide window comes from
// bins of the whole trace (the same time in each state), of a narrow one
// from its chunks (the in-memory answer). The statistics, matrices and
// duration histograms of a window and some rows (an area selected in the
// viewer) are the in-memory ones, a window over everything the whole
// trace's.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "served_both_ways.h"
#include "server/api/api.h"
#include "server/api/served_trace.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::server {
namespace {

class StoreAnalysesTest : public testing::TestTracesSuite {};

TEST_F(StoreAnalysesTest, AnalysesAreTheInMemoryAnalyses) {
  testing::TempDir index;
  int compared = 0, with_waits = 0, reread = 0, histograms = 0, searches = 0, percentiles = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    ServedTrace& memory = *both.memory;
    ServedTrace& file = *both.file;
    ASSERT_NE(file.store_timeline().analyses(), nullptr);
    Api api(both.served);
    // The longest waits the file keeps are all there are, or more than asked.
    const std::string limit = std::to_string(StoreTimeline::kLongestWaits);
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
    // Duration histograms, with the robust selection (a pass each) and a
    // percentile selection (two more).
    for (size_t state = 0; state < memory.trace().states.size() && state < 6; ++state)
      for (const std::string params :
           {"", "&bins=7&log=1", "&bins=1&limit=3", "&method=percentile&percentile=90&limit=5"}) {
        const std::string query = "state=" + std::to_string(state) + params;
        const ApiResponse want = api.Handle("/traces/" + memory.id() + "/histogram", query);
        const ApiResponse got = api.Handle("/traces/" + file.id() + "/histogram", query);
        ASSERT_EQ(want.status, 200) << query << ": " << want.body;
        EXPECT_EQ(got.body, want.body) << "histogram?" << query;
        ++histograms;
      }
    // Search: the earliest matches from a time on, from each thread's chunks.
    const model::Trace& defs = memory.trace();
    const std::string middle = std::to_string((defs.end_ns - defs.begin_ns) / 2);
    for (size_t state = 0; state < defs.states.size() && state < 4; ++state)
      for (const std::string& params :
           {std::string(), std::string("&limit=3"), "&from=" + middle + "&limit=7"}) {
        const std::string query = "q=" + defs.states[state].name.substr(0, 3) + params;
        const ApiResponse want = api.Handle("/traces/" + memory.id() + "/search", query);
        const ApiResponse got = api.Handle("/traces/" + file.id() + "/search", query);
        ASSERT_EQ(want.status, 200) << query << ": " << want.body;
        EXPECT_EQ(got.body, want.body) << "search?" << query;
        ++searches;
      }
    if (!memory.waits().instances.empty()) ++with_waits;
    // Percentile anomalies: two passes over the file, FindAnomalies' answer.
    for (const std::string query : {"method=percentile", "method=percentile&percentile=50&limit=20",
                                    "method=percentile&percentile=99.9"}) {
      const ApiResponse want = api.Handle("/traces/" + memory.id() + "/anomalies", query);
      const ApiResponse got = api.Handle("/traces/" + file.id() + "/anomalies", query);
      ASSERT_EQ(want.status, 200) << query << ": " << want.body;
      EXPECT_EQ(got.body, want.body) << "anomalies?" << query;
      if (want.body.find("\"total\":0}") == std::string::npos) ++percentiles;
    }
    // The last four answers are kept: the same options again cost nothing;
    // past four others, the first is made again, the same.
    analysis::AnomalyOptions p99;
    p99.method = analysis::AnomalyMethod::kPercentile;
    const auto kept = file.store_timeline().Anomalies(p99);
    EXPECT_EQ(file.store_timeline().Anomalies(p99).get(), kept.get());
    for (double p : {10.0, 20.0, 30.0, 40.0}) {
      analysis::AnomalyOptions other = p99;
      other.percentile = p;
      EXPECT_NE(file.store_timeline().Anomalies(other).get(), kept.get());
    }
    const auto made = file.store_timeline().Anomalies(p99);
    EXPECT_NE(made.get(), kept.get());
    EXPECT_EQ(made->size(), kept->size());
    EXPECT_FALSE(file.store_timeline().statistics_reused());
    EXPECT_FALSE(file.store_timeline().analyses_reused());

    // The next start reads the statistics, the mountain range's bins and
    // the analyses from the trace's index: the same answers, no pass.
    ServedTrace* again = both.FromFile(tt.path, index.path());
    ASSERT_NE(again, nullptr);
    ASSERT_NE(again->store_timeline().analyses(), nullptr);
    EXPECT_TRUE(again->store_timeline().statistics_reused());
    EXPECT_TRUE(again->store_timeline().analyses_reused());
    for (const auto& [endpoint, query] :
         {std::pair{"waits", "limit=" + limit}, std::pair{"critical-path", std::string()},
          std::pair{"diagnostics", "limit=" + limit}, std::pair{"anomalies", std::string()},
          std::pair{"matrix", std::string("kind=messages")},
          std::pair{"matrix", std::string("kind=rma")}, std::pair{"stats", std::string()},
          std::pair{"stats", std::string("callsites=1")},
          std::pair{"stats", std::string("thread=0")},
          std::pair{"mountain", std::string("buckets=64")}}) {
      const ApiResponse first = api.Handle("/traces/" + file.id() + "/" + endpoint, query);
      const ApiResponse next = api.Handle("/traces/" + again->id() + "/" + endpoint, query);
      EXPECT_EQ(first.status, 200) << endpoint << "?" << query << ": " << first.body;
      EXPECT_EQ(next.body, first.body) << endpoint << "?" << query;
      ++reread;
    }
  }
  EXPECT_GT(compared, 30);
  EXPECT_GT(with_waits, 2);
  EXPECT_GT(reread, 40);
  EXPECT_GT(histograms, 50);
  EXPECT_GT(percentiles, 0) << "no test trace has a percentile anomaly";
  EXPECT_GT(searches, 40);
}

// Per state, the innermost thread-time of the whole profile (values x
// bucket width, summed over the buckets).
std::map<int64_t, double> ThreadTime(const nlohmann::json& mountain) {
  std::map<int64_t, double> out;
  const double width = (mountain["to"].get<double>() - mountain["from"].get<double>()) /
                       mountain["buckets"].get<double>();
  for (size_t i = 0; i < mountain["states"].size(); ++i)
    for (const auto& v : mountain["values"][i])
      out[mountain["states"][i].get<int64_t>()] += v.get<double>() * width;
  return out;
}

TEST_F(StoreAnalysesTest, TheMountainRangeComesFromBinsOrFromTheWindowsChunks) {
  testing::TempDir index;
  int exact = 0, binned = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    Api api(both.served);
    const auto ask = [&](const ServedTrace& t, const std::string& q) {
      return api.Handle("/traces/" + t.id() + "/mountain", q);
    };
    // The whole trace: from the bins, the same time in each state.
    for (const char* q : {"buckets=1", "buckets=7", "buckets=200"}) {
      const ApiResponse want = ask(*both.memory, q), got = ask(*both.file, q);
      ASSERT_EQ(want.status, 200) << want.body;
      ASSERT_EQ(got.status, 200) << got.body;
      const auto w = ThreadTime(nlohmann::json::parse(want.body));
      const auto g = ThreadTime(nlohmann::json::parse(got.body));
      ASSERT_EQ(g.size(), w.size()) << q;
      for (const auto& [state, ns] : w)
        EXPECT_NEAR(g.at(state), ns, 1e-6 * ns + 1e-3) << q << " state " << state;
      ++binned;
    }
    // Windows a 100th of the trace: from the chunks, the in-memory answer.
    const model::Trace& t = both.memory->trace();
    const double span = static_cast<double>(t.end_ns - t.begin_ns) / 100;
    for (int k = 0; k < 5 && span >= 1; ++k) {
      const std::string q = "buckets=50&from=" + std::to_string(span * k * 20) +
                            "&to=" + std::to_string(span * (k * 20 + 1));
      const ApiResponse want = ask(*both.memory, q), got = ask(*both.file, q);
      EXPECT_EQ(got.status, want.status) << q;
      EXPECT_EQ(got.body, want.body) << q;
      ++exact;
    }
  }
  EXPECT_GT(binned, 10);
  EXPECT_GT(exact, 10);
}

TEST_F(StoreAnalysesTest, SelectionStatisticsAndMatricesAreTheInMemoryOnes) {
  testing::TempDir index;
  int compared = 0, nonempty = 0, matrices = 0, with_messages = 0, area_histograms = 0,
      area_anomalies = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    Api api(both.served);
    const model::Trace& t = both.memory->trace();
    const int64_t span = t.end_ns - t.begin_ns;
    const std::string last = std::to_string(t.threads.size() - 1);
    const auto at = [&](int64_t part) { return std::to_string(span * part / 8); };
    for (const std::string& q :
         {"from=" + at(2) + "&to=" + at(6), "from=" + at(1) + "&to=" + at(3) + "&rows=0," + last,
          "rows=" + last, "from=" + at(4) + "&callsites=1", "to=" + at(5) + "&process=0",
          "from=" + at(3) + "&to=" + at(7) + "&thread=0&rows=0"}) {
      const ApiResponse want = api.Handle("/traces/" + both.memory->id() + "/stats", q);
      const ApiResponse got = api.Handle("/traces/" + both.file->id() + "/stats", q);
      ASSERT_EQ(want.status, 200) << q << ": " << want.body;
      EXPECT_EQ(got.body, want.body) << "stats?" << q;
      const nlohmann::json j = nlohmann::json::parse(want.body);
      EXPECT_FALSE(j["selection"].is_null()) << q;
      if (!j["rows"].empty()) ++nonempty;
      ++compared;
    }
    // The matrix of an area: the messages both of whose records are in it.
    for (const std::string& q :
         {"from=" + at(1) + "&to=" + at(7), "from=" + at(0) + "&to=" + at(4) + "&rows=0," + last,
          "rows=" + last}) {
      const ApiResponse want = api.Handle("/traces/" + both.memory->id() + "/matrix", q);
      const ApiResponse got = api.Handle("/traces/" + both.file->id() + "/matrix", q);
      ASSERT_EQ(want.status, 200) << q << ": " << want.body;
      EXPECT_EQ(got.body, want.body) << "matrix?" << q;
      if (nlohmann::json::parse(want.body)["total_count"] != 0) ++with_messages;
      ++matrices;
    }
    // The duration histogram of an area: its rows' slices over its window,
    // whole, and the anomalous ones among them.
    for (size_t state = 0; state < t.states.size() && state < 4; ++state)
      for (const std::string& area :
           {"from=" + at(2) + "&to=" + at(5), "from=" + at(1) + "&to=" + at(6) + "&rows=0," + last,
            "rows=" + last}) {
        for (const std::string params : {"", "&bins=9&log=1&method=percentile&percentile=90"}) {
          const std::string q = "state=" + std::to_string(state) + "&" + area + params;
          const ApiResponse want = api.Handle("/traces/" + both.memory->id() + "/histogram", q);
          const ApiResponse got = api.Handle("/traces/" + both.file->id() + "/histogram", q);
          ASSERT_EQ(want.status, 200) << q << ": " << want.body;
          EXPECT_EQ(got.body, want.body) << "histogram?" << q;
          const nlohmann::json j = nlohmann::json::parse(want.body);
          if (j["total"] != 0) ++area_histograms;
          // The anomalous slices listed are the whole trace's that the area covers.
          const nlohmann::json all = nlohmann::json::parse(
              api.Handle("/traces/" + both.memory->id() + "/histogram",
                         "state=" + std::to_string(state) + params + "&limit=100000")
                  .body);
          const nlohmann::json& a = j["area"];
          const std::string rows = area.find("rows=") == std::string::npos
                                       ? ""
                                       : "," + area.substr(area.find("rows=") + 5) + ",";
          size_t in = 0;
          for (const nlohmann::json& s : all["selection"])
            if ((rows.empty() ||
                 rows.find("," + s["slice"]["row"].dump() + ",") != std::string::npos) &&
                s["slice"]["begin"] <= a["to"] && s["slice"]["end"] >= a["from"])
              ++in;
          EXPECT_EQ(j["selected"], in) << q;
          if (in > 0) ++area_anomalies;
        }
      }
    // A window over everything: the whole trace's rows and thread time.
    const auto whole =
        nlohmann::json::parse(api.Handle("/traces/" + both.file->id() + "/stats", "").body);
    auto all = nlohmann::json::parse(
        api.Handle("/traces/" + both.file->id() + "/stats", "from=0&to=" + std::to_string(span))
            .body);
    EXPECT_EQ(all["selection"]["rows"], t.threads.size());
    all["selection"] = nullptr;
    EXPECT_EQ(all, whole);
  }
  EXPECT_GT(compared, 30);
  EXPECT_GT(nonempty, 20);
  EXPECT_GT(matrices, 15);
  EXPECT_GT(with_messages, 4);
  EXPECT_GT(area_histograms, 20);
  EXPECT_GT(area_anomalies, 2);
}

}  // namespace
}  // namespace plx::server
