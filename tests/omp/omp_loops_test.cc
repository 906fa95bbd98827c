// The iteration-space view's data on a real OpenMP program
// (programs/omp_program.c: a schedule(static, 4) and a schedule(dynamic, 8)
// loop of 64 iterations, 4 threads) traced with `parallax record`: the loops
// the analysis finds, and the /loops answer of the API, must hold exactly the
// chunks the program logged per thread, in the order each thread ran them.
#include "analysis/omp_loops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "omp_run.h"
#include "server/api/api.h"
#include "support/test_support.h"

namespace plx {
namespace {

using nlohmann::json;
using omp_test::Log;

// One chunk as the tests compare it.
struct Chunk {
  int thread_num = -1;
  long first = 0, last = 0;
  double begin = 0;
};

// A loop's chunks keyed like the program's log: (loop, thread num) -> the
// [first, last] of its chunks in the order that thread ran them (by begin).
void AddChunks(int loop, std::vector<Chunk> chunks, Log::Chunks* out) {
  std::stable_sort(chunks.begin(), chunks.end(),
                   [](const Chunk& a, const Chunk& b) { return a.begin < b.begin; });
  for (const Chunk& c : chunks)
    (*out)[{loop, c.thread_num}].push_back({c.first, c.last});
}

TEST(OmpLoops, ChunksPerThreadAreTheProgramsOwn) {
  testing::TempDir dir;
  omp_test::Traced run;
  ASSERT_TRUE(omp_test::RunTraced(dir, &run)) << run.why;
  ASSERT_EQ(run.log.counts.at("team"), 4);

  // Through the analysis.
  const analysis::OmpLoops loops = analysis::ComputeOmpLoops(run.trace);
  ASSERT_EQ(loops.loops.size(), 2u) << "the static loop, then the dynamic one";
  Log::Chunks analysed;
  for (size_t k = 0; k < loops.loops.size(); ++k) {
    const analysis::OmpLoop& l = loops.loops[k];
    EXPECT_EQ(l.threads, 4u);
    EXPECT_EQ(l.first, 0);
    EXPECT_EQ(l.last, 63);
    EXPECT_EQ(l.iterations, 64u);
    EXPECT_EQ(l.dynamic, k == 1);
    std::vector<Chunk> chunks;
    for (size_t i = l.chunk_begin; i < l.chunk_end; ++i) {
      const analysis::OmpChunk& c = loops.chunks[i];
      EXPECT_EQ(c.estimated, k == 0);
      EXPECT_LE(l.begin_ns, c.begin_ns);
      EXPECT_LE(c.begin_ns, c.end_ns);
      EXPECT_LE(c.end_ns, l.end_ns);
      chunks.push_back(
          {static_cast<int>(c.thread_num), c.first, c.last, static_cast<double>(c.begin_ns)});
    }
    AddChunks(static_cast<int>(k), std::move(chunks), &analysed);
  }
  EXPECT_EQ(analysed, run.log.chunks);
  EXPECT_EQ(loops.unpaired_instants, 0u);
  EXPECT_EQ(loops.tasks_without_region, 0u);
  EXPECT_EQ(loops.loops_without_task, 0u);

  // Through the API, as `parallax serve` answers it.
  server::TraceStore store;
  store.Add(run.path).Load({});
  ASSERT_TRUE(store.traces()[0]->ready()) << store.traces()[0]->progress().error;
  server::Api api(store);
  const std::string base = "/traces/" + store.traces()[0]->id() + "/loops";
  const server::ApiResponse list = api.Handle(base, "");
  ASSERT_EQ(list.status, 200) << list.body;
  const json j = json::parse(list.body);
  ASSERT_EQ(j["total"], 2);
  ASSERT_EQ(j["loops"].size(), 2u);
  EXPECT_EQ(j["loops"][0]["schedule"], "static");
  EXPECT_EQ(j["loops"][1]["schedule"], "dynamic");
  Log::Chunks served;
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(j["loops"][k]["id"], k);
    EXPECT_EQ(j["loops"][k]["threads"], 4);
    EXPECT_EQ(j["loops"][k]["iterations"], 64);
    EXPECT_EQ(j["loops"][k]["chunks"], k == 0 ? 16 : 8);
    const server::ApiResponse one = api.Handle(base, "loop=" + std::to_string(k));
    ASSERT_EQ(one.status, 200) << one.body;
    std::vector<Chunk> chunks;
    long previous_first = -1;
    const json answer = json::parse(one.body);
    for (const json& c : answer["chunks"]) {
      EXPECT_GT(c["first"].get<long>(), previous_first) << "by first iteration";
      previous_first = c["first"].get<long>();
      chunks.push_back({c["thread_num"].get<int>(), c["first"].get<long>(), c["last"].get<long>(),
                        c["begin"].get<double>()});
    }
    AddChunks(k, std::move(chunks), &served);
  }
  EXPECT_EQ(served, run.log.chunks);
}

}  // namespace
}  // namespace plx
