// The thread views' endpoints (/cpus, /loops) on a small trace file loaded
// as the server loads it: the JSON shape of both answers, ranges, limits,
// 400s naming the parameter, a trace with neither kind of data, and a
// replaced (live) trace answering from its new snapshot.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "server/api/api.h"
#include "server/api_test_trace.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::server {
namespace {

using nlohmann::json;

// Two threads of one process; trace time 0 is model time 1000, the end is
// 2000. Region 1: a static loop (iterations 0..15 in chunks of 4, threads 0
// and 1). Region 2: a dynamic loop of two 8-iteration chunks. `cpu`: thread
// 0 on CPU 0, then 1; thread 1 on CPU 1, then 0.
std::string ThreadsScript() {
  auto pair = [](int th, int t, int first, int last) {
    const std::string at = "0 " + std::to_string(th) + " t=" + std::to_string(t);
    return "event " + at + " \"omp chunk first\" value=" + std::to_string(first) + "\nevent " + at +
           " \"omp chunk last\" value=" + std::to_string(last) + "\n";
  };
  return R"(
process 0 pid=5
thread 0 0 tid=5
thread 0 1 tid=6
state 0 1 "omp parallel"
state 0 2 "omp implicit task"
state 0 3 "omp for"
state 0 4 "omp chunk"
event_type 0 1 "omp thread num" kind=int
event_type 0 2 "omp chunk first" kind=int
event_type 0 3 "omp chunk last" kind=int
counter_def 0 1 cpu unit=cpu kind=int
counter 0 0 t=1000 cpu value=0
enter 0 0 t=1000 "omp parallel"
enter 0 0 t=1010 "omp implicit task"
event 0 0 t=1010 "omp thread num" value=0
enter 0 0 t=1100 "omp for"
)" + pair(0, 1100, 0, 3) +
         pair(0, 1100, 8, 11) + R"(
leave 0 0 t=1500 "omp for"
leave 0 0 t=1600 "omp implicit task"
leave 0 0 t=1700 "omp parallel"
counter 0 0 t=1800 cpu value=1
enter 0 0 t=2000 "omp parallel"
enter 0 0 t=2010 "omp implicit task"
event 0 0 t=2010 "omp thread num" value=0
enter 0 0 t=2100 "omp for"
enter 0 0 t=2110 "omp chunk"
)" + pair(0, 2110, 0, 7) +
         R"(
leave 0 0 t=2500 "omp chunk"
leave 0 0 t=2600 "omp for"
leave 0 0 t=2700 "omp implicit task"
leave 0 0 t=2800 "omp parallel"
counter 0 1 t=1050 cpu value=1
enter 0 1 t=1050 "omp implicit task"
event 0 1 t=1050 "omp thread num" value=1
enter 0 1 t=1150 "omp for"
)" + pair(1, 1150, 4, 7) +
         pair(1, 1150, 12, 15) + R"(
leave 0 1 t=1450 "omp for"
leave 0 1 t=2050 "omp implicit task"
counter 0 1 t=2060 cpu value=0
enter 0 1 t=2060 "omp implicit task"
event 0 1 t=2060 "omp thread num" value=1
enter 0 1 t=2120 "omp for"
enter 0 1 t=2130 "omp chunk"
)" + pair(1, 2130, 8, 15) +
         R"(
leave 0 1 t=2590 "omp chunk"
leave 0 1 t=2600 "omp for"
leave 0 1 t=3000 "omp implicit task"
)";
}

std::set<std::string> Keys(const json& j) {
  std::set<std::string> out;
  for (const auto& [key, value] : j.items())
    out.insert(key);
  return out;
}

class ApiThreadsTest : public ::testing::Test {
 protected:
  ApiThreadsTest() : api_(store_) {
    const std::string path = dir_.File("threads.plx");
    const Status written = testing::WriteTraceScript(ThreadsScript(), path);
    EXPECT_TRUE(written.ok()) << written.message();
    store_.Add(path).Load({});
    EXPECT_TRUE(store_.traces()[0]->ready()) << store_.traces()[0]->progress().error;
  }

  json Get(std::string_view path, std::string_view query = "") {
    const ApiResponse r = api_.Handle(path, query);
    EXPECT_EQ(r.status, 200) << path << "?" << query << ": " << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    return json::parse(r.body);
  }

  // A 400 whose one-line message names `param`.
  void ExpectBad(std::string_view path, std::string_view query, const std::string& param) {
    const ApiResponse r = api_.Handle(path, query);
    EXPECT_EQ(r.status, 400) << path << "?" << query << ": " << r.body;
    const std::string error = json::parse(r.body).value("error", "");
    EXPECT_NE(error.find("'" + param + "'"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }

  testing::TempDir dir_;
  TraceStore store_;
  Api api_;
};

TEST_F(ApiThreadsTest, CpusListsSpansByCpuThenBegin) {
  const json j = Get("/traces/threads/cpus");
  EXPECT_EQ(Keys(j),
            (std::set<std::string>{"has_data", "cpus", "spans", "migrations", "truncated"}));
  EXPECT_EQ(j["has_data"], true);
  EXPECT_EQ(j["cpus"], json::array({0, 1}));
  EXPECT_EQ(j["migrations"], 2);
  EXPECT_EQ(j["truncated"], false);
  // Trace time; each thread's last span ends at its last record.
  EXPECT_EQ(j["spans"], json::parse(R"([
    {"cpu": 0, "row": 0, "begin": 0, "end": 800},
    {"cpu": 0, "row": 1, "begin": 1060, "end": 2000},
    {"cpu": 1, "row": 1, "begin": 50, "end": 1060},
    {"cpu": 1, "row": 0, "begin": 800, "end": 1800}])"));
}

TEST_F(ApiThreadsTest, CpusRangeAndLimit) {
  const json j = Get("/traces/threads/cpus", "from=900&to=1000");
  ASSERT_EQ(j["spans"].size(), 2u);
  EXPECT_EQ(j["spans"][0]["begin"], 50);
  EXPECT_EQ(j["spans"][1]["begin"], 800);
  EXPECT_EQ(j["cpus"], json::array({0, 1})) << "the CPUs of the whole trace";
  // Fractions round inward: [800.5, 1059.5] misses the spans that end at 800
  // and begin at 1060.
  EXPECT_EQ(Get("/traces/threads/cpus", "from=800.5&to=1059.5")["spans"].size(), 2u);
  EXPECT_EQ(Get("/traces/threads/cpus", "from=799.5&to=1060")["spans"].size(), 4u);
  const json limited = Get("/traces/threads/cpus", "limit=3");
  EXPECT_EQ(limited["spans"].size(), 3u);
  EXPECT_EQ(limited["truncated"], true);
  EXPECT_EQ(Get("/traces/threads/cpus", "limit=4")["truncated"], false);
  EXPECT_EQ(Get("/traces/threads/cpus", "from=5000&to=6000")["spans"].size(), 0u);
}

TEST_F(ApiThreadsTest, LoopsListsLoopsAndTheChunksOfOne) {
  const json j = Get("/traces/threads/loops");
  EXPECT_EQ(Keys(j),
            (std::set<std::string>{"total", "loops", "chunks", "chunks_truncated", "truncated"}));
  EXPECT_EQ(j["total"], 2);
  EXPECT_EQ(j["truncated"], false);
  EXPECT_EQ(j["chunks_truncated"], false);
  EXPECT_EQ(j["chunks"], json::array()) << "no loop asked for";
  EXPECT_EQ(j["loops"], json::parse(R"([
    {"id": 0, "process": 0, "begin": 100, "end": 500, "first": 0, "last": 15,
     "iterations": 16, "threads": 2, "chunks": 4, "schedule": "static"},
    {"id": 1, "process": 0, "begin": 1100, "end": 1600, "first": 0, "last": 15,
     "iterations": 16, "threads": 2, "chunks": 2, "schedule": "dynamic"}])"));

  // Static: each thread's loop shared by its chunks' iterations, estimated.
  EXPECT_EQ(Get("/traces/threads/loops", "loop=0")["chunks"], json::parse(R"([
    {"row": 0, "thread_num": 0, "first": 0, "last": 3, "begin": 100, "end": 300, "estimated": true},
    {"row": 1, "thread_num": 1, "first": 4, "last": 7, "begin": 150, "end": 300, "estimated": true},
    {"row": 0, "thread_num": 0, "first": 8, "last": 11, "begin": 300, "end": 500, "estimated": true},
    {"row": 1, "thread_num": 1, "first": 12, "last": 15, "begin": 300, "end": 450, "estimated": true}])"));
  // Dynamic: the chunk states' times.
  EXPECT_EQ(Get("/traces/threads/loops", "loop=1")["chunks"], json::parse(R"([
    {"row": 0, "thread_num": 0, "first": 0, "last": 7, "begin": 1110, "end": 1500, "estimated": false},
    {"row": 1, "thread_num": 1, "first": 8, "last": 15, "begin": 1130, "end": 1590, "estimated": false}])"));
}

TEST_F(ApiThreadsTest, LoopsRangeAndLimit) {
  const json later = Get("/traces/threads/loops", "from=1000&loop=0");
  ASSERT_EQ(later["loops"].size(), 1u);
  EXPECT_EQ(later["loops"][0]["id"], 1);
  EXPECT_EQ(later["total"], 2);
  EXPECT_EQ(later["chunks"].size(), 4u) << "a loop's chunks whatever the range";
  const json limited = Get("/traces/threads/loops", "limit=1");
  ASSERT_EQ(limited["loops"].size(), 1u);
  EXPECT_EQ(limited["loops"][0]["id"], 0);
  EXPECT_EQ(limited["truncated"], true);
  EXPECT_EQ(Get("/traces/threads/loops", "from=600&to=1000")["loops"].size(), 0u);
  // The first chunks by first iteration, when the loop has more than asked for.
  const json first = Get("/traces/threads/loops", "loop=0&chunk_limit=3");
  ASSERT_EQ(first["chunks"].size(), 3u);
  EXPECT_EQ(first["chunks"][2]["first"], 8);
  EXPECT_EQ(first["chunks_truncated"], true);
  EXPECT_EQ(Get("/traces/threads/loops", "loop=0&chunk_limit=4")["chunks_truncated"], false);
}

TEST_F(ApiThreadsTest, BadParametersAre400sNamingThem) {
  for (const char* endpoint : {"/traces/threads/cpus", "/traces/threads/loops"}) {
    ExpectBad(endpoint, "from=abc", "from");
    ExpectBad(endpoint, "to=nan", "to");
    ExpectBad(endpoint, "from=10&to=5", "to");
    ExpectBad(endpoint, "limit=0", "limit");
    ExpectBad(endpoint, "limit=1.5", "limit");
  }
  ExpectBad("/traces/threads/cpus", "limit=100001", "limit");
  ExpectBad("/traces/threads/loops", "limit=100001", "limit");
  ExpectBad("/traces/threads/loops", "loop=2", "loop");
  ExpectBad("/traces/threads/loops", "loop=-2", "loop");
  ExpectBad("/traces/threads/loops", "loop=x", "loop");
  ExpectBad("/traces/threads/loops", "loop=0&chunk_limit=0", "chunk_limit");
  EXPECT_EQ(Get("/traces/threads/cpus", "limit=100000")["spans"].size(), 4u);
}

TEST_F(ApiThreadsTest, ATraceWithoutSchedulingOrOpenmpData) {
  testing::TempDir dir;
  const auto store = testing::LoadedApiTestStore(dir);
  Api api(*store);
  const ApiResponse cpus = api.Handle("/traces/t/cpus", "");
  ASSERT_EQ(cpus.status, 200) << cpus.body;
  EXPECT_EQ(json::parse(cpus.body), json::parse(R"({"has_data": false, "cpus": [], "spans": [],
                                                    "migrations": 0, "truncated": false})"));
  const ApiResponse loops = api.Handle("/traces/t/loops", "");
  ASSERT_EQ(loops.status, 200) << loops.body;
  EXPECT_EQ(
      json::parse(loops.body),
      json::parse(
          R"({"total": 0, "loops": [], "chunks": [], "chunks_truncated": false, "truncated": false})"));
  EXPECT_EQ(api.Handle("/traces/t/loops", "loop=0").status, 400);
}

TEST(ApiSummaryNames, ThreadsOfAProcessThatReadTheSameAreToldApart) {
  // Five `zstd` rows could not be told apart: a name shared in a process
  // gets the tid, and a tid shared too (imported traces) the position.
  testing::TempDir dir;
  const std::string path = dir.File("names.plx");
  ASSERT_TRUE(testing::WriteTraceScript(R"(
process 0 pid=5
process 1 pid=6
thread 0 0 tid=5 name=main
thread 0 1 tid=7 name=zstd
thread 0 2 tid=8 name=zstd
thread 0 3 tid=9 name=zstd
thread 0 4 tid=9 name=zstd
thread 1 0 tid=6 name=zstd
thread 1 1 tid=10
thread 1 2 tid=11
state 0 1 work
state 0 2 hot color=#ff0000
enter 0 0 t=1000 work
leave 0 0 t=2000 work
)",
                                        path)
                  .ok());
  TraceStore store;
  store.Add(path).Load({});
  ASSERT_TRUE(store.traces()[0]->ready()) << store.traces()[0]->progress().error;
  Api api(store);
  const ApiResponse r = api.Handle("/traces/names/summary", "");
  ASSERT_EQ(r.status, 200) << r.body;
  const json summary = json::parse(r.body);
  std::vector<std::string> names;
  for (const auto& t : summary["threads"])
    names.push_back(t["name"]);
  // Only a recorded colour is sent; the viewer's palette colours the rest.
  EXPECT_EQ(summary["states"][0]["color"], "");
  EXPECT_EQ(summary["states"][1]["color"], "#ff0000");
  EXPECT_EQ(names,
            (std::vector<std::string>{"main", "zstd (tid 7)", "zstd (tid 8)", "zstd (tid 9 #1)",
                                      "zstd (tid 9 #2)", "zstd", "thread 10", "thread 11"}));
}

TEST_F(ApiThreadsTest, AReplacedTraceAnswersFromItsNewSnapshot) {
  // As a live trace's snapshots replace each other under one id: the cached
  // analyses of the old one must not answer for the new one.
  EXPECT_EQ(Get("/traces/threads/loops")["total"], 2);
  EXPECT_EQ(Get("/traces/threads/cpus")["spans"].size(), 4u);
  const std::string path = dir_.File("next.plx");
  ASSERT_TRUE(testing::WriteTraceScript(testing::ApiTestScript(), path).ok());
  auto next = std::make_shared<ServedTrace>("threads", path);
  next->Load({});
  ASSERT_TRUE(next->ready());
  store_.Replace(next);
  EXPECT_EQ(Get("/traces/threads/loops")["total"], 0);
  EXPECT_EQ(Get("/traces/threads/cpus")["has_data"], false);
}

}  // namespace
}  // namespace plx::server
