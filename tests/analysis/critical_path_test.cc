// ComputeCriticalPath on a chain of late messages across three ranks and on a
// single thread, against segments and state times worked out by hand.
#include "analysis/critical_path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "script_trace.h"
#include "support/mpi_scripts.h"

namespace plx::analysis {
namespace {

using testing::kLateChainScript;
using testing::LoadScript;
using testing::MpiScriptPreamble;

int64_t StateNs(const model::Trace& t, const CriticalPath& path, const std::string& name) {
  for (const PathStateTime& s : path.states)
    if (s.state != model::kNone && t.states[s.state].name == name) return s.ns;
  return -1;
}

// The chain of support/mpi_scripts.h: the path is rank 0's compute, rank 1's
// from the end of its wait, then rank 2's.
TEST(CriticalPathTest, FollowsAChainOfLateMessages) {
  const model::Trace t = LoadScript(MpiScriptPreamble(3) + kLateChainScript);
  const WaitStatesReport waits = ComputeWaitStates(t);
  ASSERT_EQ(waits.all.late_sender_ns, 900 + 2800);
  const CriticalPath path = ComputeCriticalPath(t, waits);
  EXPECT_EQ(path.length_ns, 4000);
  ASSERT_EQ(path.segments.size(), 3u);
  const int64_t expected[3][3] = {{0, 0, 1000}, {1, 1000, 3000}, {2, 3000, 4000}};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.threads[path.segments[i].thread].process, expected[i][0]) << i;
    EXPECT_EQ(path.segments[i].begin_ns, expected[i][1]) << i;
    EXPECT_EQ(path.segments[i].end_ns, expected[i][2]) << i;
  }
  ASSERT_EQ(path.processes.size(), 3u);
  EXPECT_EQ(path.processes[0], 1000);
  EXPECT_EQ(path.processes[1], 2000);
  EXPECT_EQ(path.processes[2], 1000);
  // compute: 1000 (rank 0) + 1950 (rank 1 from 1050) + 800 (rank 2 from 3200);
  // MPI_Recv: rank 1's 50 ns after its wait, rank 2's 200 ns.
  ASSERT_EQ(path.states.size(), 2u);
  EXPECT_EQ(StateNs(t, path, "compute"), 3750);
  EXPECT_EQ(StateNs(t, path, "MPI_Recv"), 250);
  EXPECT_EQ(path.states[0].ns, 3750);
}

TEST(CriticalPathTest, OneThreadIsItsOwnPathWithGapsOutsideStates) {
  const model::Trace t = LoadScript(MpiScriptPreamble(1) + R"(
enter 0 0 t=0 compute
enter 0 0 t=10 MPI_Send
leave 0 0 t=30 MPI_Send
leave 0 0 t=50 compute
thread_end 0 0 t=80
)");
  const CriticalPath path = ComputeCriticalPath(t, ComputeWaitStates(t));
  EXPECT_EQ(path.length_ns, 80);
  ASSERT_EQ(path.segments.size(), 1u);
  EXPECT_EQ(path.segments[0].begin_ns, 0);
  EXPECT_EQ(path.segments[0].end_ns, 80);
  EXPECT_EQ(StateNs(t, path, "compute"), 30);
  EXPECT_EQ(StateNs(t, path, "MPI_Send"), 20);
  ASSERT_EQ(path.states.size(), 3u);
  EXPECT_EQ(path.states[1].state, model::kNone);
  EXPECT_EQ(path.states[1].ns, 30);
}

// Threads swept in two places (two processes of parallax-mpi) and merged
// through bytes give the path's state times of one sweep; cut bytes are an
// error and merge nothing.
TEST(CriticalPathTest, StateTimesSweptApartMergeThroughBytes) {
  const model::Trace t = LoadScript(MpiScriptPreamble(3) + kLateChainScript);
  const WaitStatesReport waits = ComputeWaitStates(t);
  const std::vector<PathSegment> segments = WalkCriticalPath(t, IndexWaitEnds(t, waits.instances));
  const model::SliceTable& s = t.slices;
  const auto sweep = [&](PathStateTimes* times, uint32_t thread) {
    const auto begin = std::lower_bound(s.thread.begin(), s.thread.end(), thread);
    const auto end = std::upper_bound(s.thread.begin(), s.thread.end(), thread);
    times->AddSlices(thread, s, static_cast<size_t>(begin - s.thread.begin()),
                     static_cast<size_t>(end - s.thread.begin()));
    times->EndThread(thread);
  };
  PathStateTimes here(t, segments), there(t, segments);
  sweep(&here, 0);
  sweep(&there, 1);
  sweep(&there, 2);
  const std::string saved = there.Save();
  EXPECT_FALSE(here.MergeSaved(saved.substr(0, saved.size() - 2)).ok());
  ASSERT_TRUE(here.MergeSaved(saved).ok());
  const CriticalPath path = here.Finish();
  EXPECT_EQ(StateNs(t, path, "compute"), 3750);
  EXPECT_EQ(StateNs(t, path, "MPI_Recv"), 250);
  ASSERT_EQ(path.states.size(), 2u);  // nothing counted twice as outside every state
}

// Each thread's wait ends come out by end, ties by slice, kind and record,
// whether they arrive sorted, as a few sorted runs, or in no order at all.
TEST(CriticalPathTest, WaitEndsAreOrderedByEndWithinEachThread) {
  const auto end = [](int64_t ns, uint32_t slice, uint32_t record, uint32_t cause) {
    WaitEnd e;
    e.end_ns = ns;
    e.slice = slice;
    e.record = record;
    e.cause = cause;
    return e;
  };
  std::vector<std::vector<WaitEnd>> threads(3);
  for (uint32_t i = 0; i < 10; ++i)  // sorted
    threads[0].push_back(end(100 * i, i, i, i));
  for (uint32_t i = 0; i < 10; ++i)  // two sorted runs
    threads[1].push_back(end(100 * (i % 5) + 50 * (i / 5), i, i, i));
  for (uint32_t i = 0; i < 200; ++i)  // scrambled, with equal ends
    threads[2].push_back(end((i * 37) % 101, 200 - i, i, i));
  std::vector<std::vector<WaitEnd>> copy = threads;
  const ThreadWaitEnds w = IndexWaitEnds(&copy);
  ASSERT_EQ(w.first, (std::vector<uint32_t>{0, 10, 20, 220}));
  for (uint32_t t = 0; t < 3; ++t) {
    std::vector<WaitEnd>& v = threads[t];
    std::sort(v.begin(), v.end(), [](const WaitEnd& a, const WaitEnd& b) {
      return a.end_ns != b.end_ns ? a.end_ns < b.end_ns : a.slice < b.slice;
    });
    for (uint32_t k = 0; k < v.size(); ++k) {
      EXPECT_EQ(w.end[w.first[t] + k], v[k].end_ns) << t << " " << k;
      EXPECT_EQ(w.cause[w.first[t] + k], v[k].cause) << t << " " << k;
    }
  }
}

}  // namespace
}  // namespace plx::analysis
