// The API handlers on a real (small) trace file, loaded as the server loads
// it: every endpoint's answer, and a clear 400/404/503 for bad requests.
#include "server/api/api.h"

#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "server/api.gen.h"
#include "server/api/query_params.h"
#include "server/api_test_trace.h"

namespace plx::server {
namespace {

using nlohmann::json;

class ApiTest : public ::testing::Test {
 protected:
  ApiTest() : store_(testing::LoadedApiTestStore(dir_)), api_(*store_) {}

  json Get(std::string_view path, std::string_view query = "") {
    const ApiResponse r = api_.Handle(path, query);
    EXPECT_EQ(r.status, 200) << path << "?" << query << ": " << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    return json::parse(r.body);
  }

  // The status and error message of a request that must fail.
  std::pair<int, std::string> Fail(std::string_view path, std::string_view query = "") {
    const ApiResponse r = api_.Handle(path, query);
    EXPECT_NE(r.status, 200) << path << "?" << query;
    return {r.status, json::parse(r.body).value("error", "")};
  }

  testing::TempDir dir_;
  std::unique_ptr<TraceStore> store_;
  Api api_;
};

TEST_F(ApiTest, ListsTracesWithTheirStatus) {
  const json j = Get("/traces");
  EXPECT_EQ(j["api_version"], 1);
  ASSERT_EQ(j["traces"].size(), 1u);
  EXPECT_EQ(j["traces"][0]["id"], "t");
  EXPECT_EQ(j["traces"][0]["name"], "t.plx");
  EXPECT_EQ(j["traces"][0]["status"], "ready");
  EXPECT_TRUE(j["traces"][0]["error"].is_null());
}

TEST_F(ApiTest, SummaryDescribesRowsStatesAndCounters) {
  const json j = Get("/traces/t/summary");
  EXPECT_EQ(j["duration"], 11000);
  EXPECT_EQ(j["slices"], 4);
  EXPECT_EQ(j["messages"], 1);
  ASSERT_EQ(j["processes"].size(), 2u);
  EXPECT_EQ(j["processes"][1]["name"], "rank 1");
  EXPECT_EQ(j["processes"][1]["threads"], json::array({1}));
  ASSERT_EQ(j["threads"].size(), 2u);
  EXPECT_EQ(j["threads"][0]["max_depth"], 1);  // MPI_Send inside compute
  EXPECT_EQ(j["threads"][1]["end"], 11000);
  bool compute = false;
  for (const json& s : j["states"]) {
    EXPECT_EQ(s["color"], "");  // none recorded: the viewer's palette picks one
    compute |= s["name"] == "compute" && s["category"] == "";
  }
  EXPECT_TRUE(compute);
  ASSERT_EQ(j["counters"].size(), 1u);
  EXPECT_EQ(j["counters"][0]["name"], "heap");
  EXPECT_EQ(j["counters"][0]["min"], 100);
  EXPECT_EQ(j["counters"][0]["max"], 300);
  EXPECT_EQ(j["counters"][0]["samples"], 2);
}

TEST_F(ApiTest, SearchFindsSlicesByPartOfTheirName) {
  const json j = Get("/traces/t/search", "q=COMP");
  EXPECT_EQ(j["total"], 2);
  ASSERT_EQ(j["slices"].size(), 2u);
  EXPECT_EQ(j["slices"][0]["begin"], 0);     // rank 0's, at model time 1000
  EXPECT_EQ(j["slices"][1]["begin"], 5000);  // rank 1's
  EXPECT_EQ(j["slices"][1]["row"], 1);
  const json later = Get("/traces/t/search", "q=comp&from=1");
  EXPECT_EQ(later["slices"].size(), 1u);
  EXPECT_EQ(Get("/traces/t/search", "q=nothing")["slices"].size(), 0u);
}

TEST_F(ApiTest, DetailsOfASliceNameItsSourceLine) {
  const json found = Get("/traces/t/search", "q=compute&limit=1");
  const json j = Get("/traces/t/details",
                     "kind=slice&id=" + std::to_string(found["slices"][0]["id"].get<int>()));
  EXPECT_EQ(j["name"], "compute");
  EXPECT_EQ(j["begin"], 0);
  EXPECT_EQ(j["end"], 9000);
  EXPECT_EQ(j["callsite"]["file"], "solver.cc");
  EXPECT_EQ(j["callsite"]["line"], 42);
  EXPECT_NE(j["fields"].dump().find("solver.cc:42"), std::string::npos);
}

TEST_F(ApiTest, TileCarriesSlicesInstantsArrowsAndCounters) {
  const ApiResponse r =
      api_.Handle("/traces/t/tile", "rows=0,1&from=0&to=11000&width=1100&counters=0");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type, "application/octet-stream");
  wire::TileHeader h;
  ASSERT_GE(r.body.size(), sizeof h);
  std::memcpy(&h, r.body.data(), sizeof h);
  EXPECT_EQ(h.magic, 0x544c5850u);
  EXPECT_EQ(h.slices, 4u);
  EXPECT_EQ(h.instants, 1u);
  EXPECT_EQ(h.arrows, 1u);
  EXPECT_EQ(h.points, 2u);
  EXPECT_EQ(r.body.size(), sizeof h + 4 * sizeof(wire::TileSlice) + sizeof(wire::TileInstant) +
                               sizeof(wire::TileArrow) + 2 * sizeof(wire::TileCounterPoint));
  wire::TileArrow arrow;
  std::memcpy(&arrow,
              r.body.data() + sizeof h + 4 * sizeof(wire::TileSlice) + sizeof(wire::TileInstant),
              sizeof arrow);
  EXPECT_EQ(arrow.send, 2500);
  EXPECT_EQ(arrow.recv, 4000);
  // The arrow's ref names the send for /details.
  const json m = Get("/traces/t/details", "kind=message&id=" + std::to_string(arrow.ref));
  EXPECT_EQ(m["kind"], "message");
  EXPECT_NE(m["fields"].dump().find("64 bytes"), std::string::npos);
  EXPECT_NE(m["fields"].dump().find("rank 1"), std::string::npos);
  // Replay steps land on receives too: a receive's details are its message's.
  int receives_shown_as_the_message = 0;
  for (int id = 0; id < 16; ++id) {
    if (id == static_cast<int>(arrow.ref)) continue;
    const ApiResponse d = api_.Handle("/traces/t/details", "kind=message&id=" + std::to_string(id));
    if (d.status == 200 && json::parse(d.body)["id"] == arrow.ref) ++receives_shown_as_the_message;
  }
  EXPECT_EQ(receives_shown_as_the_message, 1);
}

TEST_F(ApiTest, AnalysisEndpointsAnswer) {
  const json stats = Get("/traces/t/stats");
  EXPECT_EQ(stats["scope"], "all");
  ASSERT_FALSE(stats["rows"].empty());
  EXPECT_EQ(stats["rows"][0]["name"], "compute");  // most total time
  EXPECT_EQ(stats["rows"][0]["count"], 2);
  EXPECT_EQ(Get("/traces/t/stats", "thread=1")["scope"], "thread 1");
  EXPECT_FALSE(Get("/traces/t/stats", "callsites=1")["rows"][0]["callsite"].is_null());
  EXPECT_TRUE(stats["selection"].is_null());
  // An area: thread 1 over trace times [0, 2000]: the first 2000 ns of its
  // MPI_Recv, none of its compute; thread 0's compute is not in it.
  const json area = Get("/traces/t/stats", "from=0&to=2000&rows=1");
  EXPECT_EQ(area["selection"], (json{{"from", 0}, {"to", 2000}, {"rows", 1}}));
  EXPECT_EQ(area["thread_time"], 2000);
  ASSERT_EQ(area["rows"].size(), 1u) << area.dump();
  EXPECT_EQ(area["rows"][0]["name"], "MPI_Recv");
  EXPECT_EQ(area["rows"][0]["count"], 1);
  EXPECT_EQ(area["rows"][0]["total"], 2000);
  EXPECT_EQ(area["rows"][0]["self"], 2000);
  // The one message (sent at trace time 2500, received at 4000) is in an
  // area holding both ends, not in one holding only the send.
  EXPECT_EQ(Get("/traces/t/matrix", "from=2000&to=4000")["total_count"], 1);
  EXPECT_EQ(Get("/traces/t/matrix", "from=2000&to=3999")["total_count"], 0);
  EXPECT_EQ(Get("/traces/t/matrix", "rows=0")["total_count"], 0);
  EXPECT_TRUE(Get("/traces/t/matrix")["selection"].is_null());

  const json h = Get("/traces/t/histogram",
                     "state=" + std::to_string(stats["rows"][0]["state"].get<int>()) + "&bins=4");
  EXPECT_EQ(h["counts"].size(), 4u);
  EXPECT_EQ(h["edges"].size(), 5u);
  EXPECT_EQ(h["total"], 2);
  EXPECT_TRUE(h["area"].is_null());

  const json mountain = Get("/traces/t/mountain", "buckets=11");
  EXPECT_EQ(mountain["buckets"], 11);
  ASSERT_FALSE(mountain["values"].empty());
  EXPECT_EQ(mountain["values"][0].size(), 11u);

  const json matrix = Get("/traces/t/matrix");
  EXPECT_EQ(matrix["labels"], json::array({"rank 0", "rank 1"}));
  EXPECT_EQ(matrix["count"][0][1], 1);
  EXPECT_EQ(matrix["bytes"][0][1], 64);
  EXPECT_EQ(matrix["total_count"], 1);

  const json path = Get("/traces/t/critical-path");
  EXPECT_EQ(path["length"], 11000);
  EXPECT_FALSE(path["segments"].empty());

  const json d = Get("/traces/t/diagnostics");
  EXPECT_EQ(d["repair"]["violations_after"], 0);
  bool late_sender = false;
  for (const json& f : d["findings"]) {
    if (f["kind"] != "late-sender") continue;
    late_sender = true;
    EXPECT_EQ(f["row"], 1);
    EXPECT_EQ(f["begin"], 0);
    EXPECT_EQ(f["end"], 2000);  // MPI_Recv waited from 1000 until the send began at 3000
    EXPECT_EQ(f["cost"], 2000);
    // 2 µs lost: under the 10 µs floor of a warning (analysis/finding_severity.h).
    EXPECT_EQ(f["severity"], "info");
  }
  EXPECT_TRUE(late_sender) << d.dump();

  const json waits = Get("/traces/t/waits");
  EXPECT_EQ(waits["total"]["late_sender"], 2000);
  EXPECT_EQ(waits["processes"][1]["waits"]["late_sender"], 2000);
  EXPECT_EQ(waits["processes"][0]["waits"]["total"], 0);
  ASSERT_EQ(waits["longest"].size(), 1u);
  EXPECT_EQ(waits["longest"][0]["kind"], "late-sender");
  EXPECT_EQ(waits["longest"][0]["cause_row"], 0);
  EXPECT_EQ(waits["callsites"][0]["name"], "MPI_Recv");

  EXPECT_EQ(Get("/traces/t/anomalies")["method"], "robust");
  EXPECT_EQ(Get("/traces/t/processes").size(), 2u);
}

TEST_F(ApiTest, HistogramOfAnArea) {
  // compute: [0, 9000] on row 0 and [5000, 11000] on row 1 (trace times).
  const std::string path = "/traces/t/histogram";
  const std::string state =  // compute, the state with the most time
      "state=" + std::to_string(Get("/traces/t/stats")["rows"][0]["state"].get<int>());
  json h = Get(path, state + "&rows=1");
  EXPECT_EQ(h["area"], (json{{"from", 0}, {"to", 11000}, {"rows", 1}}));
  EXPECT_EQ(h["total"], 1);
  EXPECT_EQ(h["min"], 6000);  // the whole duration, not the part in the area
  // Both ends of the window are in it: row 1's compute begins at 5000.
  h = Get(path, state + "&from=0&to=5000&rows=1");
  EXPECT_EQ(h["total"], 1);
  EXPECT_EQ(h["max"], 6000);
  EXPECT_EQ(Get(path, state + "&from=0&to=4999&rows=1")["total"], 0);
  // Row 0's ends at 9000; rows 0-1 as a range.
  h = Get(path, state + "&from=9000&to=9000&rows=0-1&bins=2");
  EXPECT_EQ(h["total"], 2);
  EXPECT_EQ(h["counts"], json::array({1, 1}));
  EXPECT_EQ(h["area"]["rows"], 2);
  EXPECT_EQ(Get(path, state + "&from=9001")["total"], 1);
  EXPECT_EQ(Get(path, state + "&from=9001")["selected"], 0);
}

TEST_F(ApiTest, BadRequestsSayWhatWasWrong) {
  auto expect = [&](std::string_view path, std::string_view query, int status,
                    std::string_view words) {
    const auto [code, message] = Fail(path, query);
    EXPECT_EQ(code, status) << path << "?" << query;
    EXPECT_NE(message.find(words), std::string::npos) << message;
  };
  expect("/traces/t/tile", "from=0&to=1&width=10", 400, "parameter 'rows' is required");
  expect("/traces/t/tile", "rows=0&from=0&to=1&width=0", 400, "parameter 'width'");
  expect("/traces/t/tile", "rows=0&from=5&to=1&width=10", 400, "parameter 'to'");
  expect("/traces/t/tile", "rows=7&from=0&to=1&width=10", 400, "no row 7");
  expect("/traces/t/tile", "rows=0,x&from=0&to=1&width=10", 400, "parameter 'rows'");
  expect("/traces/t/tile", "rows=0&from=nan&to=1&width=10", 400, "parameter 'from'");
  expect("/traces/t/details", "kind=bar&id=1", 400, "parameter 'kind'");
  expect("/traces/t/details", "kind=slice&id=99", 404, "no slice 99");
  expect("/traces/t/histogram", "state=999", 400, "parameter 'state'");
  expect("/traces/t/histogram", "state=0&method=magic", 400, "parameter 'method'");
  expect("/traces/t/histogram", "state=0&rows=7", 400, "no row 7");
  expect("/traces/t/histogram", "state=0&rows=0,x", 400, "parameter 'rows'");
  expect("/traces/t/histogram", "state=0&from=5&to=1", 400, "parameter 'to'");
  expect("/traces/t/search", "q=%zz", 400, "%-escape");
  expect("/traces/t/stats", "process=0&thread=0", 400, "at most one");
  expect("/traces/t/stats", "from=5&to=1", 400, "parameter 'to'");
  expect("/traces/t/stats", "rows=7", 400, "no row 7");
  expect("/traces/t/stats", "rows=0,x", 400, "parameter 'rows'");
  expect("/traces/t/stats", "from=nan", 400, "parameter 'from'");
  expect("/traces/t/matrix", "kind=rma&from=0", 400, "parameter 'kind'");
  expect("/traces/t/matrix", "rows=9", 400, "no row 9");
  expect("/traces/t/nothing", "", 404, "no such endpoint");
  expect("/traces/x/summary", "", 404, "no such trace: 'x'");
  expect("/other", "", 404, "no such endpoint");
}

TEST(ApiLoadingTest, AFileThatCannotBeLoadedAnswers503WithTheReason) {
  testing::TempDir dir;
  const std::string path = dir.File("broken.plx");
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("not a trace", f);
    std::fclose(f);
  }
  TraceStore store;
  ServedTrace& trace = store.Add(path);
  Api api(store);
  const ApiResponse loading = api.Handle("/traces/broken/summary", "");
  EXPECT_EQ(loading.status, 503);
  EXPECT_TRUE(loading.retry_after);
  trace.Load({});
  const ApiResponse failed = api.Handle("/traces/broken/summary", "");
  EXPECT_EQ(failed.status, 503);
  EXPECT_FALSE(failed.retry_after);
  EXPECT_NE(failed.body.find("failed to load"), std::string::npos) << failed.body;
  const json list = json::parse(api.Handle("/traces", "").body);
  EXPECT_EQ(list["traces"][0]["status"], "failed");
  EXPECT_FALSE(list["traces"][0]["error"].get<std::string>().empty());
}

TEST(TraceStoreTest, IdsAreUrlSafeAndUnique) {
  TraceStore store;
  EXPECT_EQ(store.Add("/x/run one.plx").id(), "run_one");
  EXPECT_EQ(store.Add("/y/run one.plx").id(), "run_one-2");
  EXPECT_EQ(store.Add("trace").id(), "trace");
  EXPECT_EQ(store.Find("run_one-2")->path(), "/y/run one.plx");
  EXPECT_EQ(store.Find("none"), nullptr);
}

// Every list's size is capped, so no request can ask for an answer of
// hundreds of MB: a limit above kMaxListLimit is a 400 naming the parameter.
TEST_F(ApiTest, ListLimitsAreCapped) {
  const std::vector<std::pair<std::string, std::string>> lists = {
      {"/traces/t/histogram", "state=0&limit="},
      {"/traces/t/anomalies", "limit="},
      {"/traces/t/waits", "limit="},
      {"/traces/t/critical-path", "limit="},
      {"/traces/t/diagnostics", "limit="},
      {"/traces/t/at", "t=0&limit="},
      {"/traces/t/lamport", "limit="},
      {"/traces/t/cpus", "limit="},
      {"/traces/t/loops", "limit="},
      {"/traces/t/loops", "chunk_limit="}};
  const std::string cap = std::to_string(kMaxListLimit);
  const std::string above = std::to_string(kMaxListLimit + 1);
  for (const auto& [path, query] : lists) {
    const auto [status, error] = Fail(path, query + above);
    EXPECT_EQ(status, 400) << path << "?" << query << above;
    const size_t amp = query.rfind('&');
    const size_t from = amp == std::string::npos ? 0 : amp + 1;
    const std::string name = query.substr(from, query.size() - 1 - from);  // before '='

    EXPECT_NE(error.find(name), std::string::npos) << path << ": " << error;
    EXPECT_NE(error.find(cap), std::string::npos) << path << ": " << error;
    EXPECT_EQ(api_.Handle(path, query + cap).status, 200) << path << "?" << query << cap;
  }
}

}  // namespace
}  // namespace plx::server
