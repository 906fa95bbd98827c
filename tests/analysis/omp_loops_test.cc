// ComputeOmpLoops on scripted OpenMP traces laid out as docs/openmp.md says
// the tool records them: a static loop (chunk times spread) with a thread
// that got no chunk, a dynamic loop (chunk states) whose team overlaps the
// previous region's tasks, a one-thread region, two loops in a region, nested
// regions, damaged chunk records and a trace with no OpenMP at all.
#include "analysis/omp_loops.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "script_trace.h"

namespace plx::analysis {
namespace {

using testing::LoadScript;

// One process, three threads, the OpenMP states and instants.
std::string Preamble() {
  return R"(
process 0 pid=9
thread 0 0 tid=9
thread 0 1 tid=10
thread 0 2 tid=11
state 0 1 "omp parallel"
state 0 2 "omp implicit task"
state 0 3 "omp for"
state 0 4 "omp chunk"
state 0 5 work
event_type 0 1 "omp thread num" kind=int
event_type 0 2 "omp chunk first" kind=int
event_type 0 3 "omp chunk last" kind=int
)";
}

// "event ..." lines of one chunk pair on a thread at t.
std::string Pair(int thread, int t, int first, int last) {
  const std::string at = "0 " + std::to_string(thread) + " t=" + std::to_string(t);
  return "event " + at + " \"omp chunk first\" value=" + std::to_string(first) + "\nevent " + at +
         " \"omp chunk last\" value=" + std::to_string(last) + "\n";
}

// (thread, thread_num, first, last, begin, end, estimated) of a loop's chunks.
using Chunks = std::vector<std::tuple<uint32_t, int64_t, int64_t, int64_t, int64_t, int64_t, bool>>;

Chunks ChunksOf(const OmpLoops& r, size_t loop) {
  Chunks out;
  const OmpLoop& l = r.loops[loop];
  for (size_t i = l.chunk_begin; i < l.chunk_end; ++i) {
    const OmpChunk& c = r.chunks[i];
    out.emplace_back(c.thread, c.thread_num, c.first, c.last, c.begin_ns, c.end_ns, c.estimated);
  }
  return out;
}

// Region 1 (thread 0 starts it, three threads): schedule(static, 2) over
// iterations 0..10; thread 2 gets none. Region 2 (two threads): a dynamic
// loop of four chunks. Thread 1's task of region 1 ends only after region 2
// began, as libomp reports a worker's task end when the next region forks.
std::string TwoRegions() {
  return Preamble() + R"(
enter 0 0 t=1000 "omp parallel"
enter 0 0 t=1100 "omp implicit task"
event 0 0 t=1100 "omp thread num" value=0
enter 0 0 t=1200 "omp for"
)" + Pair(0, 1200, 0, 1) +
         Pair(0, 1200, 4, 5) + Pair(0, 1200, 8, 9) + R"(
leave 0 0 t=1800 "omp for"
leave 0 0 t=9000 "omp implicit task"
leave 0 0 t=10000 "omp parallel"
enter 0 1 t=1300 "omp implicit task"
event 0 1 t=1300 "omp thread num" value=1
enter 0 1 t=1400 "omp for"
)" + Pair(1, 1400, 2, 3) +
         Pair(1, 1400, 6, 7) + Pair(1, 1400, 10, 10) + R"(
leave 0 1 t=1900 "omp for"
leave 0 1 t=11050 "omp implicit task"
enter 0 2 t=1500 "omp implicit task"
event 0 2 t=1500 "omp thread num" value=2
enter 0 2 t=1500 "omp for"
leave 0 2 t=1550 "omp for"
leave 0 2 t=10200 "omp implicit task"
enter 0 0 t=11000 "omp parallel"
enter 0 0 t=11010 "omp implicit task"
event 0 0 t=11010 "omp thread num" value=0
enter 0 0 t=11020 "omp for"
enter 0 0 t=11030 "omp chunk"
)" + Pair(0, 11030, 0, 3) +
         R"(
leave 0 0 t=12000 "omp chunk"
enter 0 0 t=12000 "omp chunk"
)" + Pair(0, 12000, 8, 11) +
         R"(
leave 0 0 t=13000 "omp chunk"
leave 0 0 t=15000 "omp for"
leave 0 0 t=19000 "omp implicit task"
leave 0 0 t=20000 "omp parallel"
enter 0 1 t=11100 "omp implicit task"
event 0 1 t=11100 "omp thread num" value=1
enter 0 1 t=11110 "omp for"
enter 0 1 t=11120 "omp chunk"
)" + Pair(1, 11120, 4, 7) +
         R"(
leave 0 1 t=12500 "omp chunk"
enter 0 1 t=12500 "omp chunk"
)" + Pair(1, 12500, 12, 15) +
         R"(
leave 0 1 t=14000 "omp chunk"
leave 0 1 t=15000 "omp for"
leave 0 1 t=20500 "omp implicit task"
)";
}

TEST(OmpLoopsTest, StaticChunksShareTheirThreadsLoopByIterations) {
  const model::Trace t = LoadScript(TwoRegions());
  const OmpLoops r = ComputeOmpLoops(t);
  ASSERT_EQ(r.loops.size(), 2u);
  const OmpLoop& l = r.loops[0];
  EXPECT_EQ(l.begin_ns, 1200);
  EXPECT_EQ(l.end_ns, 1900);
  EXPECT_EQ(l.threads, 3u);  // thread 2, which got no chunk, is in the team
  EXPECT_FALSE(l.dynamic);
  EXPECT_EQ(l.first, 0);
  EXPECT_EQ(l.last, 10);
  EXPECT_EQ(l.iterations, 11u);
  EXPECT_EQ(l.k, 0u);
  EXPECT_EQ(t.states[t.slices.state[l.region]].name, "omp parallel");
  // By first iteration; thread 0's 600 ns for three 2-iteration chunks,
  // thread 1's 500 ns for 2, 2 and 1 iterations.
  EXPECT_EQ(ChunksOf(r, 0), (Chunks{{0, 0, 0, 1, 1200, 1400, true},
                                    {1, 1, 2, 3, 1400, 1600, true},
                                    {0, 0, 4, 5, 1400, 1600, true},
                                    {1, 1, 6, 7, 1600, 1800, true},
                                    {0, 0, 8, 9, 1600, 1800, true},
                                    {1, 1, 10, 10, 1800, 1900, true}}));
  EXPECT_EQ(r.tasks_without_region, 0u);
  EXPECT_EQ(r.loops_without_task, 0u);
  EXPECT_EQ(r.unpaired_instants, 0u);
}

TEST(OmpLoopsTest, DynamicChunksTakeTheirChunkStatesTimes) {
  const model::Trace t = LoadScript(TwoRegions());
  const OmpLoops r = ComputeOmpLoops(t);
  ASSERT_EQ(r.loops.size(), 2u);
  const OmpLoop& l = r.loops[1];
  EXPECT_TRUE(l.dynamic);
  // Thread 1's task of region 1 overlaps region 2 but is not in its team.
  EXPECT_EQ(l.threads, 2u);
  EXPECT_EQ(l.begin_ns, 11020);
  EXPECT_EQ(l.end_ns, 15000);
  EXPECT_EQ(l.iterations, 16u);
  EXPECT_EQ(l.last, 15);
  EXPECT_EQ(ChunksOf(r, 1), (Chunks{{0, 0, 0, 3, 11030, 12000, false},
                                    {1, 1, 4, 7, 11120, 12500, false},
                                    {0, 0, 8, 11, 12000, 13000, false},
                                    {1, 1, 12, 15, 12500, 14000, false}}));
  EXPECT_EQ(r.chunks.size(), 10u);
}

TEST(OmpLoopsTest, SelectFindsLoopsOverlappingARange) {
  const OmpLoops r = ComputeOmpLoops(LoadScript(TwoRegions()));
  bool truncated = true;
  EXPECT_EQ(SelectOmpLoops(r, 0, 5000, 10, &truncated), (std::vector<size_t>{0}));
  EXPECT_FALSE(truncated);
  EXPECT_EQ(SelectOmpLoops(r, 1900, 11020, 10, &truncated), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(SelectOmpLoops(r, 12000, 12000, 10, &truncated), (std::vector<size_t>{1}));
  EXPECT_TRUE(SelectOmpLoops(r, 2000, 11000, 10, &truncated).empty());
  EXPECT_EQ(SelectOmpLoops(r, 0, 99999, 1, &truncated), (std::vector<size_t>{0}));
  EXPECT_TRUE(truncated);
}

TEST(OmpLoopsTest, AOneThreadRegion) {
  const model::Trace t = LoadScript(Preamble() + R"(
enter 0 1 t=50 work
enter 0 0 t=100 "omp parallel"
enter 0 0 t=110 "omp implicit task"
event 0 0 t=110 "omp thread num" value=0
enter 0 0 t=200 "omp for"
)" + Pair(0, 200, 0, 99) + R"(
leave 0 0 t=1200 "omp for"
leave 0 0 t=1300 "omp implicit task"
leave 0 0 t=1400 "omp parallel"
leave 0 1 t=2000 work
)");
  const OmpLoops r = ComputeOmpLoops(t);
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].threads, 1u);
  EXPECT_EQ(r.loops[0].iterations, 100u);
  EXPECT_EQ(ChunksOf(r, 0), (Chunks{{0, 0, 0, 99, 200, 1200, true}}));
}

TEST(OmpLoopsTest, TheKthForOfEachTaskIsLoopK) {
  // Two loops in one region; thread 1 reaches the second while thread 0 is
  // still in the first (nowait), so ids follow the loops' earliest begins.
  const model::Trace t = LoadScript(Preamble() + R"(
enter 0 0 t=100 "omp parallel"
enter 0 0 t=110 "omp implicit task"
event 0 0 t=110 "omp thread num" value=0
enter 0 0 t=200 "omp for"
)" + Pair(0, 200, 0, 4) + R"(
leave 0 0 t=900 "omp for"
enter 0 0 t=950 "omp for"
)" + Pair(0, 950, 0, 1) + R"(
leave 0 0 t=1000 "omp for"
leave 0 0 t=1100 "omp implicit task"
leave 0 0 t=1200 "omp parallel"
enter 0 1 t=120 "omp implicit task"
event 0 1 t=120 "omp thread num" value=1
enter 0 1 t=210 "omp for"
)" + Pair(1, 210, 5, 9) + R"(
leave 0 1 t=300 "omp for"
enter 0 1 t=310 "omp for"
)" + Pair(1, 310, 2, 3) + R"(
leave 0 1 t=400 "omp for"
leave 0 1 t=1150 "omp implicit task"
)");
  const OmpLoops r = ComputeOmpLoops(t);
  ASSERT_EQ(r.loops.size(), 2u);
  EXPECT_EQ(r.loops[0].k, 0u);
  EXPECT_EQ(r.loops[1].k, 1u);
  EXPECT_EQ(r.loops[0].region, r.loops[1].region);
  EXPECT_EQ(r.loops[1].begin_ns, 310);
  EXPECT_EQ(r.loops[1].end_ns, 1000);
  EXPECT_EQ(ChunksOf(r, 0), (Chunks{{0, 0, 0, 4, 200, 900, true}, {1, 1, 5, 9, 210, 300, true}}));
  EXPECT_EQ(ChunksOf(r, 1), (Chunks{{0, 0, 0, 1, 950, 1000, true}, {1, 1, 2, 3, 310, 400, true}}));
}

TEST(OmpLoopsTest, NestedRegionsKeepTheirTeamsApart) {
  // Outer region (thread 0 starts it; team: threads 0 and 1). Thread 1, in
  // its outer loop, starts an inner region (team: threads 1 and 2) with its
  // own loop: the inner chunks must not join the outer loop.
  const model::Trace t = LoadScript(Preamble() + R"(
enter 0 0 t=100 "omp parallel"
enter 0 0 t=110 "omp implicit task"
event 0 0 t=110 "omp thread num" value=0
enter 0 0 t=200 "omp for"
)" + Pair(0, 200, 0, 4) + R"(
leave 0 0 t=300 "omp for"
leave 0 0 t=4900 "omp implicit task"
leave 0 0 t=5000 "omp parallel"
enter 0 1 t=150 "omp implicit task"
event 0 1 t=150 "omp thread num" value=1
enter 0 1 t=210 "omp for"
)" + Pair(1, 210, 5, 9) + R"(
enter 0 1 t=300 "omp parallel"
enter 0 1 t=310 "omp implicit task"
event 0 1 t=310 "omp thread num" value=0
enter 0 1 t=320 "omp for"
)" + Pair(1, 320, 0, 1) + R"(
leave 0 1 t=1000 "omp for"
leave 0 1 t=2900 "omp implicit task"
leave 0 1 t=3000 "omp parallel"
leave 0 1 t=4000 "omp for"
leave 0 1 t=5100 "omp implicit task"
enter 0 2 t=400 "omp implicit task"
event 0 2 t=400 "omp thread num" value=1
enter 0 2 t=410 "omp for"
)" + Pair(2, 410, 2, 3) + R"(
leave 0 2 t=900 "omp for"
leave 0 2 t=3100 "omp implicit task"
)");
  const OmpLoops r = ComputeOmpLoops(t);
  ASSERT_EQ(r.loops.size(), 2u);
  EXPECT_EQ(r.loops[0].threads, 2u);
  EXPECT_EQ(r.loops[1].threads, 2u);
  EXPECT_NE(r.loops[0].region, r.loops[1].region);
  EXPECT_EQ(ChunksOf(r, 0), (Chunks{{0, 0, 0, 4, 200, 300, true}, {1, 1, 5, 9, 210, 4000, true}}));
  EXPECT_EQ(ChunksOf(r, 1), (Chunks{{1, 0, 0, 1, 320, 1000, true}, {2, 1, 2, 3, 410, 900, true}}));
  EXPECT_EQ(r.unpaired_instants, 0u);
}

TEST(OmpLoopsTest, RecordsThatFitNowhereAreCounted) {
  // A first without its last; a pair outside any loop; a task and its loop
  // with no region anywhere (recording began inside it).
  const model::Trace t = LoadScript(Preamble() + R"(
enter 0 0 t=100 "omp parallel"
enter 0 0 t=110 "omp implicit task"
event 0 0 t=110 "omp thread num" value=0
enter 0 0 t=200 "omp for"
event 0 0 t=200 "omp chunk first" value=0
)" + Pair(0, 210, 1, 1) + R"(
leave 0 0 t=300 "omp for"
)" + Pair(0, 310, 2, 2) + R"(
leave 0 0 t=400 "omp implicit task"
leave 0 0 t=500 "omp parallel"
enter 0 1 t=600 "omp implicit task"
enter 0 1 t=610 "omp for"
)" + Pair(1, 610, 0, 9) + R"(
leave 0 1 t=700 "omp for"
leave 0 1 t=800 "omp implicit task"
)");
  const OmpLoops r = ComputeOmpLoops(t);
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(ChunksOf(r, 0), (Chunks{{0, 0, 1, 1, 200, 300, true}}));
  EXPECT_EQ(r.unpaired_instants, 3u);  // the lone first, the pair outside
  EXPECT_EQ(r.tasks_without_region, 1u);
  EXPECT_EQ(r.loops_without_task, 1u);
}

TEST(OmpLoopsTest, NoOpenmpNoLoops) {
  const model::Trace t = LoadScript(testing::MpiScriptPreamble(2) + R"(
enter 0 0 t=100 compute
leave 0 0 t=200 compute
enter 1 0 t=100 compute
leave 1 0 t=300 compute
)");
  const OmpLoops r = ComputeOmpLoops(t);
  EXPECT_TRUE(r.loops.empty());
  EXPECT_TRUE(r.chunks.empty());
  bool truncated = true;
  EXPECT_TRUE(SelectOmpLoops(r, 0, 1000, 10, &truncated).empty());
  EXPECT_FALSE(truncated);
  EXPECT_TRUE(ComputeOmpLoops(model::Trace{}).loops.empty());
}

}  // namespace
}  // namespace plx::analysis
