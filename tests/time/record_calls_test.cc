// EnclosingSlices on hand-built models: innermost slice, siblings, records
// outside any slice, unsorted records, parent and child beginning together.
#include "time/record_calls.h"

#include <gtest/gtest.h>

#include "model/trace.h"

namespace plx::time {
namespace {

using model::kNone;

void AddSlice(model::Trace* t, uint32_t thread, int64_t begin, int64_t end, uint16_t depth) {
  model::SliceTable& s = t->slices;
  s.thread.push_back(thread);
  s.begin.push_back(begin);
  s.end.push_back(end);
  s.state.push_back(0);
  s.callsite.push_back(kNone);
  s.depth.push_back(depth);
  s.self_ns.push_back(0);
  s.flags.push_back(0);
}

model::Trace TwoThreads() {
  model::Trace t;
  t.processes.resize(1);
  t.threads.resize(2);
  AddSlice(&t, 0, 0, 100, 0);    // 0 main
  AddSlice(&t, 0, 10, 20, 1);    // 1 MPI_Send
  AddSlice(&t, 0, 30, 60, 1);    // 2 work
  AddSlice(&t, 0, 40, 50, 2);    // 3 MPI_Recv inside work
  AddSlice(&t, 0, 200, 300, 0);  // 4 after a gap
  AddSlice(&t, 1, 5, 15, 0);     // 5 other thread
  return t;
}

TEST(EnclosingSlicesTest, InnermostSliceOnTheRecordsThread) {
  const model::Trace t = TwoThreads();
  const std::vector<uint32_t> thread = {0, 0, 0, 0, 0, 0, 0, 1, 1};
  const std::vector<int64_t> time = {12, 25, 45, 55, 150, 250, 100, 5, 16};
  EXPECT_EQ(EnclosingSlices(t, thread, time),
            (std::vector<uint32_t>{1, 0, 3, 2, kNone, 4, 0, 5, kNone}));
}

TEST(EnclosingSlicesTest, BoundsAreInclusive) {
  const model::Trace t = TwoThreads();
  EXPECT_EQ(EnclosingSlices(t, {0, 0, 0}, {10, 20, 50}), (std::vector<uint32_t>{1, 1, 3}));
}

TEST(EnclosingSlicesTest, RecordsInAnyOrder) {
  const model::Trace t = TwoThreads();
  EXPECT_EQ(EnclosingSlices(t, {1, 0, 0, 0}, {5, 250, 45, 12}),
            (std::vector<uint32_t>{5, 4, 3, 1}));
}

TEST(EnclosingSlicesTest, ChildBeginningWithItsParentIsInnermostWhateverTheRowOrder) {
  model::Trace t;
  t.processes.resize(1);
  t.threads.resize(1);
  AddSlice(&t, 0, 10, 20, 1);  // child first
  AddSlice(&t, 0, 10, 90, 0);
  EXPECT_EQ(EnclosingSlices(t, {0, 0}, {15, 50}), (std::vector<uint32_t>{0, 1}));
}

TEST(EnclosingSlicesTest, NoSlicesOrNoRecords) {
  model::Trace t;
  t.threads.resize(1);
  EXPECT_EQ(EnclosingSlices(t, {0}, {5}), (std::vector<uint32_t>{kNone}));
  EXPECT_TRUE(EnclosingSlices(TwoThreads(), {}, {}).empty());
}

}  // namespace
}  // namespace plx::time
