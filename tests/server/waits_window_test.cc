// /waits-window (from, to, rows: the timeline's waits overlay): the waits
// it lists are those of the whole trace's list that overlap the window on
// those rows, the longest when capped; every row's wait is the sum of its
// waits clipped to the window; the file answers as memory does; without
// parameters it covers the whole trace, as many waits as /waits counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
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

using Span = std::tuple<int64_t, double, double, std::string>;  // row, begin, end, kind

Span SpanOf(const json& w) {
  return {w["row"].get<int64_t>(), w["begin"].get<double>(), w["end"].get<double>(),
          w["kind"].get<std::string>()};
}

std::vector<Span> Sorted(const json& waits) {
  std::vector<Span> out;
  for (const json& w : waits)
    out.push_back(SpanOf(w));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(WaitsWindowTest, WholeTraceByDefault) {
  testing::TempDir dir;
  auto store = testing::LoadedApiTestStore(dir);
  Api api(*store);
  const json all = Get(api, "/traces/t/waits-window", "");
  EXPECT_EQ(all["from"], 0);
  EXPECT_EQ(all["to"], 11000);
  EXPECT_EQ(all["rows"], 2);
  EXPECT_EQ(all["matched"], Get(api, "/traces/t/waits", "")["total"]["count"]);
  EXPECT_EQ(all["waits"].size(), 1u);
}

TEST(WaitsWindowTest, SmallTraceWindows) {
  // Rank 1's MPI_Recv waited [0, 2000] (trace time) for rank 0's send.
  testing::TempDir dir;
  auto store = testing::LoadedApiTestStore(dir);
  Api api(*store);
  const json a = Get(api, "/traces/t/waits-window", "from=500&to=1500");
  ASSERT_EQ(a["waits"].size(), 1u) << a.dump();
  EXPECT_EQ(a["matched"], 1);
  EXPECT_EQ(a["complete"], true);
  EXPECT_EQ(a["waits"][0]["row"], 1);
  EXPECT_EQ(a["waits"][0]["kind"], "late-sender");
  EXPECT_EQ(a["waits"][0]["begin"], 0);
  EXPECT_EQ(a["waits"][0]["end"], 2000);
  EXPECT_EQ(a["waits"][0]["cause_row"], 0);
  EXPECT_EQ(a["waits"][0]["slice"]["row"], 1);
  ASSERT_EQ(a["rows_waiting"].size(), 2u);
  EXPECT_EQ(a["rows_waiting"][1]["wait"], 1000);  // clipped to the window
  EXPECT_EQ(a["rows_waiting"][1]["run_wait"], 2000);
  EXPECT_EQ(a["rows_waiting"][0]["wait"], 0);
  // Rank 0 never waits: it is not compared; rank 1 alone is.
  EXPECT_EQ(a["imbalance"]["units"], 1);
  EXPECT_EQ(a["imbalance"]["max_row"], 1);
  EXPECT_EQ(a["imbalance"]["max"], 1000);

  const json later = Get(api, "/traces/t/waits-window", "from=2001&to=9000");
  EXPECT_EQ(later["matched"], 0);
  EXPECT_TRUE(later["waits"].empty());
  EXPECT_EQ(later["rows_waiting"][1]["wait"], 0);
  EXPECT_EQ(later["rows_waiting"][1]["run_wait"], 2000);

  const json row0 = Get(api, "/traces/t/waits-window", "rows=0");
  EXPECT_EQ(row0["matched"], 0);
  ASSERT_EQ(row0["rows_waiting"].size(), 1u);
  EXPECT_EQ(row0["rows_waiting"][0]["row"], 0);
  EXPECT_EQ(row0["imbalance"]["max_row"], 1);  // compared over every row

  EXPECT_EQ(api.Handle("/traces/t/waits-window", "from=10&to=5").status, 400);
  EXPECT_EQ(api.Handle("/traces/t/waits-window", "rows=7").status, 400);
  EXPECT_EQ(api.Handle("/traces/t/waits-window", "limit=-1").status, 400);
}

class WaitsWindowTracesTest : public testing::TestTracesSuite {};

TEST_F(WaitsWindowTracesTest, WindowIsTheFullListFiltered) {
  testing::TempDir index;
  int checked = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    Api api(both.served);
    const std::string path = "/traces/" + both.memory->id() + "/waits-window";
    const json full = Get(api, path, "from=-1e15&to=1e15&limit=100000");
    EXPECT_EQ(full["complete"], true);
    EXPECT_EQ(full["matched"],
              Get(api, "/traces/" + both.memory->id() + "/waits", "")["total"]["count"]);
    ASSERT_EQ(full["waits"].size(), full["matched"].get<size_t>());
    if (full["waits"].size() < 3) continue;
    ++checked;
    const size_t threads = both.memory->trace().threads.size();
    double lo = 1e300, hi = -1e300;
    std::map<int64_t, double> run;
    for (const json& w : full["waits"]) {
      lo = std::min(lo, w["begin"].get<double>());
      hi = std::max(hi, w["end"].get<double>());
      run[w["row"].get<int64_t>()] += w["end"].get<double>() - w["begin"].get<double>();
    }
    // Windows across the waits' span, on every row and on every other row.
    for (int part = 0; part < 4; ++part)
      for (const bool odd : {false, true}) {
        const double from = lo + (hi - lo) * part / 4, to = lo + (hi - lo) * (part + 1.5) / 4;
        std::string rows;
        for (size_t r = odd ? 1 : 0; r < threads; r += odd ? 2 : 1)
          rows += (rows.empty() ? "" : ",") + std::to_string(r);
        if (rows.empty()) continue;
        const auto asked = [&](int64_t row) { return !odd || row % 2 == 1; };
        const std::string q = "from=" + std::to_string(static_cast<int64_t>(from)) +
                              "&to=" + std::to_string(static_cast<int64_t>(to)) + "&rows=" + rows;
        SCOPED_TRACE(q);
        const json win = Get(api, path, q + "&limit=100000");
        const double f = std::floor(from), t = std::floor(to);
        json want = json::array();
        std::map<int64_t, double> clipped;
        for (const json& w : full["waits"]) {
          const double b = w["begin"], e = w["end"];
          if (b > t || e < f) continue;
          clipped[w["row"].get<int64_t>()] += std::max(0.0, std::min(e, t) - std::max(b, f));
          if (asked(w["row"])) want.push_back(w);
        }
        EXPECT_EQ(win["matched"], want.size());
        EXPECT_EQ(Sorted(win["waits"]), Sorted(want));
        double max = 0;
        for (const json& r : win["rows_waiting"]) {
          const int64_t row = r["row"];
          EXPECT_TRUE(asked(row)) << row;
          EXPECT_EQ(r["wait"].get<double>(), clipped[row]) << row;
          EXPECT_EQ(r["run_wait"].get<double>(), run[row]) << row;
        }
        for (const auto& [row, ns] : clipped)
          max = std::max(max, ns);
        EXPECT_EQ(win["imbalance"]["max"].get<double>(), max);

        // Capped: the longest of them, longest first, the count still all.
        const json few = Get(api, path, q + "&limit=2");
        EXPECT_EQ(few["matched"], want.size());
        ASSERT_EQ(few["waits"].size(), std::min<size_t>(2, want.size()));
        std::vector<double> lengths;
        for (const json& w : want)
          lengths.push_back(w["end"].get<double>() - w["begin"].get<double>());
        std::sort(lengths.rbegin(), lengths.rend());
        for (size_t i = 0; i < few["waits"].size(); ++i)
          EXPECT_EQ(few["waits"][i]["end"].get<double>() - few["waits"][i]["begin"].get<double>(),
                    lengths[i]);

        // From the file: the same answer (these traces keep all their waits).
        const ApiResponse file =
            api.Handle("/traces/" + both.file->id() + "/waits-window", q + "&limit=100000");
        EXPECT_EQ(file.status, 200);
        EXPECT_EQ(json::parse(file.body), win);
      }
  }
  EXPECT_GT(checked, 1);
}

}  // namespace
}  // namespace plx::server
