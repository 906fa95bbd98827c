// ComputeCpuSchedule and SelectCpuSpans on scripted traces with a `cpu`
// counter: spans per thread, repeated samples merged, migrations, the last
// span ending at the thread's last record, invalid samples, range queries.
#include "analysis/cpu_schedule.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "script_trace.h"

namespace plx::analysis {
namespace {

using testing::LoadScript;

// (cpu, thread, begin, end) of every span, in schedule order.
using Spans = std::vector<std::tuple<uint32_t, uint32_t, int64_t, int64_t>>;

Spans SpansOf(const CpuSchedule& s) {
  Spans out;
  for (const CpuSpan& span : s.spans)
    out.emplace_back(span.cpu, span.thread, span.begin_ns, span.end_ns);
  return out;
}

// One process, two threads with `cpu` samples and a `cycles` counter that is
// not a CPU number; thread 0 ends at 500 (its thread_end), thread 1 at 450.
std::string TwoThreads() {
  return R"(
process 0 pid=7
thread 0 0 tid=7
thread 0 1 tid=8
state 0 1 work
counter_def 0 1 cpu unit=cpu kind=int
counter_def 0 2 cycles unit=count kind=int
counter 0 0 t=100 cpu value=1
counter 0 0 t=150 cycles value=5
counter 0 0 t=200 cpu value=1
counter 0 0 t=300 cpu value=2
enter 0 0 t=310 work
leave 0 0 t=490 work
thread_end 0 0 t=500
counter 0 1 t=150 cpu value=1
counter 0 1 t=160 cycles value=9
counter 0 1 t=400 cpu value=0
enter 0 1 t=410 work
leave 0 1 t=450 work
)";
}

TEST(CpuScheduleTest, SpansRunFromSampleToNextChangeOrTheThreadsEnd) {
  const model::Trace t = LoadScript(TwoThreads());
  const CpuSchedule s = ComputeCpuSchedule(t);
  EXPECT_TRUE(s.has_data);
  // By cpu, then begin. Thread 0's samples at 100 and 200 (both CPU 1) are
  // one span; each thread's last span ends at its last record.
  EXPECT_EQ(SpansOf(s),
            (Spans{{0, 1, 400, 450}, {1, 0, 100, 300}, {1, 1, 150, 400}, {2, 0, 300, 500}}));
  EXPECT_EQ(s.cpus, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(s.cpu_offsets, (std::vector<size_t>{0, 1, 3, 4}));
  EXPECT_EQ(s.migrations, 2u);  // thread 0: 1 -> 2, thread 1: 1 -> 0
  EXPECT_EQ(s.invalid_samples, 0u);
}

TEST(CpuScheduleTest, InvalidSamplesEndTheSpanWithoutAMigration) {
  const model::Trace t = LoadScript(R"(
process 0
thread 0 0
counter_def 0 1 cpu unit=cpu kind=int
counter 0 0 t=10 cpu value=3
counter 0 0 t=20 cpu value=-1
counter 0 0 t=30 cpu value=3
counter 0 0 t=40 cpu value=5
counter 0 0 t=50 cpu value=3
)");
  const CpuSchedule s = ComputeCpuSchedule(t);
  EXPECT_EQ(s.invalid_samples, 1u);
  // The last span is zero-length: the sample at 50 is the thread's last record.
  EXPECT_EQ(SpansOf(s), (Spans{{3, 0, 10, 20}, {3, 0, 30, 40}, {3, 0, 50, 50}, {5, 0, 40, 50}}));
  EXPECT_EQ(s.migrations, 2u);  // 3 -> 5 -> 3; 3, invalid, 3 is no migration
}

TEST(CpuScheduleTest, NoCpuCounterMeansNoData) {
  // A counter named cpu whose unit is not "cpu" (a usage percentage) is not
  // the scheduling counter.
  const model::Trace t = LoadScript(R"(
process 0
thread 0 0
counter_def 0 1 cpu unit=% kind=double
counter 0 0 t=10 cpu value=12.5
counter 0 0 t=20 cpu value=2
)");
  const CpuSchedule s = ComputeCpuSchedule(t);
  EXPECT_FALSE(s.has_data);
  EXPECT_TRUE(s.spans.empty());
  EXPECT_TRUE(s.cpus.empty());
  bool truncated = true;
  EXPECT_TRUE(SelectCpuSpans(s, 0, 100, 10, &truncated).empty());
  EXPECT_FALSE(truncated);
}

TEST(CpuScheduleTest, SelectFindsOverlappingSpansUpToTheLimit) {
  const model::Trace t = LoadScript(TwoThreads());
  const CpuSchedule s = ComputeCpuSchedule(t);
  bool truncated = true;
  // [350, 420]: thread 1 on CPU 0 (from 400), thread 1 on CPU 1 (to 400),
  // thread 0 on CPU 2; thread 0's CPU 1 span ended at 300.
  EXPECT_EQ(SelectCpuSpans(s, 350, 420, 10, &truncated), (std::vector<size_t>{0, 2, 3}));
  EXPECT_FALSE(truncated);
  // Touching ends count: [300, 300] holds both spans meeting there.
  EXPECT_EQ(SelectCpuSpans(s, 300, 300, 10, &truncated), (std::vector<size_t>{1, 2, 3}));
  EXPECT_EQ(SelectCpuSpans(s, 0, 1000, 2, &truncated), (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(truncated);
  EXPECT_EQ(SelectCpuSpans(s, 0, 1000, 4, &truncated).size(), 4u);
  EXPECT_FALSE(truncated);
  EXPECT_TRUE(SelectCpuSpans(s, 600, 700, 10, &truncated).empty());
  EXPECT_TRUE(SelectCpuSpans(s, 420, 350, 10, &truncated).empty());  // to < from
}

TEST(CpuScheduleTest, ALongSpanDoesNotHideLaterOnesOnItsCpu) {
  // Thread 0 stays on CPU 0 for the whole run; thread 1 visits CPU 0 briefly
  // twice. A window after thread 1's first visit must skip that visit (which
  // ended) and still find the long span and the second visit.
  const model::Trace t = LoadScript(R"(
process 0
thread 0 0
thread 0 1
counter_def 0 1 cpu unit=cpu kind=int
counter 0 0 t=0 cpu value=0
thread_end 0 0 t=1000
counter 0 1 t=10 cpu value=0
counter 0 1 t=20 cpu value=1
counter 0 1 t=500 cpu value=0
counter 0 1 t=510 cpu value=1
thread_end 0 1 t=900
)");
  const CpuSchedule s = ComputeCpuSchedule(t);
  ASSERT_EQ(
      SpansOf(s),
      (Spans{
          {0, 0, 0, 1000}, {0, 1, 10, 20}, {0, 1, 500, 510}, {1, 1, 20, 500}, {1, 1, 510, 900}}));
  EXPECT_EQ(s.max_end, (std::vector<int64_t>{1000, 1000, 1000, 500, 900}));
  bool truncated = false;
  EXPECT_EQ(SelectCpuSpans(s, 100, 505, 10, &truncated), (std::vector<size_t>{0, 2, 3}));
  EXPECT_EQ(s.migrations, 3u);
}

}  // namespace
}  // namespace plx::analysis
