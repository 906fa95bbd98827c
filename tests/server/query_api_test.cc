// /query and /query-cancel on the API test trace, loaded into memory and
// served from its file: rows as the other endpoints tell them (slice ids
// /details takes, times in trace time), the columns that hold slice ids,
// limits, one-line 400s, and a running query stopped by /query-cancel.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "server/api/api.h"
#include "server/api_test_trace.h"
#include "support/trace_script.h"

namespace plx::server {
namespace {

using nlohmann::json;

std::string Escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '_' || c == '.' || c == '-') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

class QueryApiTest : public ::testing::TestWithParam<bool> {
 protected:
  QueryApiTest() {
    const std::string path = dir_.File("t.plx");
    const Status written = testing::WriteTraceScript(testing::ApiTestScript(), path);
    EXPECT_TRUE(written.ok()) << written.message();
    ServedTrace& t = store_.Add(path);
    if (GetParam()) {  // served from its file, as a trace over the memory budget
      StoreServing serving;
      serving.index.dir = dir_.path();
      t.ServeLargeFromFile(serving, 0);
    }
    t.Load({});
    EXPECT_TRUE(t.ready()) << t.progress().error;
    EXPECT_EQ(t.from_store(), GetParam());
  }

  ApiResponse Ask(const std::string& sql, const std::string& more = "") {
    return api_.Handle("/traces/t/query", "sql=" + Escape(sql) + more);
  }
  json Rows(const std::string& sql, const std::string& more = "") {
    const ApiResponse r = Ask(sql, more);
    EXPECT_EQ(r.status, 200) << sql << ": " << r.body;
    return json::parse(r.body);
  }

  testing::TempDir dir_;
  TraceStore store_;
  Api api_{store_};
};

TEST_P(QueryApiTest, RowsNameSlicesAsTheOtherEndpointsDo) {
  const json j = Rows("SELECT id, state, begin, end FROM slices ORDER BY id");
  EXPECT_EQ(j["columns"], json::array({"id", "state", "begin", "end"}));
  EXPECT_EQ(j["slice_columns"], json::array({0}));
  EXPECT_EQ(j["truncated"], false);
  ASSERT_EQ(j["rows"].size(), 4u);
  for (const json& row : j["rows"]) {
    const ApiResponse d =
        api_.Handle("/traces/t/details", "kind=slice&id=" + std::to_string(row[0].get<int>()));
    ASSERT_EQ(d.status, 200) << d.body;
    const json details = json::parse(d.body);
    EXPECT_EQ(details["name"], row[1]);
    EXPECT_EQ(details["begin"], row[2]);
    EXPECT_EQ(details["end"], row[3]);
  }
  // Slice ids through joins and the analyses' tables; none in an aggregate.
  EXPECT_EQ(Rows("SELECT m.tag, m.recv_slice, s.state FROM messages m JOIN slices s "
                 "ON s.id = m.send_slice")["slice_columns"],
            json::array({1}));
  EXPECT_EQ(Rows("SELECT count(*) FROM slices")["slice_columns"], json::array());
  EXPECT_EQ(Rows("SELECT NULL AS a, 1.5 AS b, 'x' AS c")["rows"],
            json::parse(R"([[null, 1.5, "x"]])"));
}

TEST_P(QueryApiTest, LimitsAndErrors) {
  const json two = Rows("SELECT id FROM slices", "&limit=2");
  EXPECT_EQ(two["rows"].size(), 2u);
  EXPECT_EQ(two["truncated"], true);
  const auto error = [&](const std::string& sql, const std::string& more = "") {
    const ApiResponse r = Ask(sql, more);
    EXPECT_EQ(r.status, 400) << sql;
    return json::parse(r.body)["error"].get<std::string>();
  };
  EXPECT_EQ(error("SELECT nope FROM slices"), "query: no such column: nope");
  EXPECT_EQ(error("CREATE TABLE x(a)"), "query: only statements that read are allowed here");
  EXPECT_EQ(error("ATTACH 'x.db' AS x"), "query: only statements that read are allowed here");
  EXPECT_EQ(error("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
                  "SELECT count(*) FROM n",
                  "&timeout_ms=50"),
            "query: stopped after 50 ms");
  EXPECT_EQ(api_.Handle("/traces/t/query", "").status, 400);
  EXPECT_EQ(api_.Handle("/traces/t/query", "sql=x&limit=0").status, 400);
  EXPECT_EQ(api_.Handle("/traces/t/query", "sql=x&timeout_ms=600000").status, 400);
}

TEST_P(QueryApiTest, CancelStopsTheQueryItNames) {
  EXPECT_EQ(json::parse(api_.Handle("/traces/t/query-cancel", "id=q1").body)["cancelled"], false);
  std::future<ApiResponse> running = std::async(std::launch::async, [&] {
    return Ask(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
        "SELECT count(*) FROM n",
        "&timeout_ms=60000&id=q1");
  });
  bool cancelled = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!cancelled && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(json::parse(api_.Handle("/traces/t/query-cancel", "id=other").body)["cancelled"],
              false);
    cancelled = json::parse(api_.Handle("/traces/t/query-cancel", "id=q1").body)["cancelled"];
  }
  EXPECT_TRUE(cancelled);
  const ApiResponse r = running.get();
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(json::parse(r.body)["error"], "query: cancelled");
  // The next query runs as usual.
  EXPECT_EQ(Rows("SELECT count(*) FROM slices")["rows"], json::parse("[[4]]"));
}

INSTANTIATE_TEST_SUITE_P(InMemoryAndFromFile, QueryApiTest, ::testing::Bool());

}  // namespace
}  // namespace plx::server
