// Counters on a real program (programs/counters_program.c): samples at every
// state change (their values bracket the work of the state), periodic samples
// inside a long state, counting mode (counts per period add up to the total),
// the CPU each thread ran on (PLX_SCHED), and one clear line for counters the
// machine or kernel cannot give. Tests that need perf_event skip with the
// reason where the kernel forbids it; hardware counters skip where the
// machine has none.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "support/trace_loading.h"

namespace plx {
namespace {

using testing::BuildPath;
using testing::RunProgram;
using testing::RunResult;
using testing::TempDir;

#ifdef PLX_SANITIZE_BUILD
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// Page faults a program takes to write one byte to each of `pages` fresh
// pages: one each, plus ASan's shadow pages (1/8) in sanitizer builds, plus
// a few of its own.
double MaxFaults(long pages) {
  return static_cast<double>(pages + (kSanitized ? pages / 8 : 0) + 64);
}

// errno of opening one user-space event for this thread, 0 when it opens.
int ProbeEvent(uint32_t type, uint64_t config) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = type;
  attr.config = config;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  const long fd = ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (fd < 0) return errno;
  ::close(static_cast<int>(fd));
  return 0;
}

#define SKIP_WITHOUT_PERF()                                                                     \
  do {                                                                                          \
    const int err = ProbeEvent(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);                   \
    if (err != 0)                                                                               \
      GTEST_SKIP() << "perf_event_open is not allowed here (" << std::strerror(err)             \
                   << "); see /proc/sys/kernel/perf_event_paranoid: counters cannot be tested"; \
  } while (0)

struct Traced {
  RunResult result;
  model::Trace trace;
};

Traced Record(const std::vector<std::string>& args, std::vector<std::string> env) {
  TempDir dir;
  const std::string path = dir.path() + "/counters.plx";
  std::vector<std::string> argv = {BuildPath("tests/counters/counters_program")};
  argv.insert(argv.end(), args.begin(), args.end());
  env.push_back("PLX_OUTPUT=" + path);
  Traced run;
  run.result = RunProgram(argv, env);
  EXPECT_EQ(run.result.exit_code, 0) << run.result.output;
  run.trace = testing::LoadTraceFile(path);
  return run;
}

uint32_t CounterId(const model::Trace& t, const std::string& name) {
  for (uint32_t i = 0; i < t.counters.size(); ++i)
    if (t.counters[i].name == name) return i;
  return UINT32_MAX;
}

struct Sample {
  uint32_t thread;
  int64_t time;
  double value;
};

// The samples of counter `name`, by thread then time (file order).
std::vector<Sample> Samples(const model::Trace& t, const std::string& name) {
  const uint32_t id = CounterId(t, name);
  std::vector<Sample> out;
  const model::CounterTable& c = t.counter_samples;
  for (size_t i = 0; i < c.size(); ++i)
    if (c.counter[i] == id) out.push_back({c.thread[i], c.time[i], c.value[i]});
  std::stable_sort(out.begin(), out.end(), [](const Sample& a, const Sample& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.time < b.time;
  });
  return out;
}

struct Slice {
  uint32_t thread;
  int64_t begin, end;
};

std::vector<Slice> Slices(const model::Trace& t, const std::string& state) {
  std::vector<Slice> out;
  for (size_t i = 0; i < t.slices.size(); ++i)
    if (t.states[t.slices.state[i]].name == state)
      out.push_back({t.slices.thread[i], t.slices.begin[i], t.slices.end[i]});
  return out;
}

// The last sample at or before `time` on `thread` (samples of one counter).
const Sample* AtOrBefore(const std::vector<Sample>& s, uint32_t thread, int64_t time) {
  const Sample* found = nullptr;
  for (const Sample& x : s)
    if (x.thread == thread && x.time <= time) found = &x;
  return found;
}

size_t CountOn(const std::vector<Sample>& s, uint32_t thread) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [&](const Sample& x) { return x.thread == thread; }));
}

TEST(Counters, SampledAtEveryStateChangeAndBracketTheWork) {
  SKIP_WITHOUT_PERF();
  constexpr long kPages = 2000, kTicks = 300;
  const Traced run = Record({"faults", std::to_string(kPages), std::to_string(kTicks)},
                            {"PLX_COUNTERS=page-faults,task-clock", "PLX_SAMPLE_MS=0"});
  const model::Trace& t = run.trace;
  const std::vector<Sample> faults = Samples(t, "page-faults");
  const std::vector<Sample> clock = Samples(t, "task-clock");
  ASSERT_FALSE(faults.empty()) << run.result.output;
  EXPECT_EQ(t.counters[CounterId(t, "page-faults")].unit, "events");
  EXPECT_EQ(t.counters[CounterId(t, "task-clock")].unit, "ns");
  const std::vector<Slice> touch = Slices(t, "touch");
  ASSERT_EQ(touch.size(), 1u);
  const uint32_t thread = touch[0].thread;
  // One sample per state record (enter and leave of 1 + kTicks states) and
  // one when the runtime finishes.
  EXPECT_EQ(CountOn(faults, thread), 2u * (1 + kTicks) + 1);
  EXPECT_EQ(CountOn(clock, thread), 2u * (1 + kTicks) + 1);
  // The samples taken at the enter and at the leave of "touch" bracket its
  // page faults: one per page written (small pages, no huge pages).
  const Sample* before = AtOrBefore(faults, thread, touch[0].begin);
  const Sample* after = AtOrBefore(faults, thread, touch[0].end);
  ASSERT_NE(before, nullptr);
  ASSERT_NE(after, nullptr);
  EXPECT_GE(after->value - before->value, kPages);
  EXPECT_LE(after->value - before->value, MaxFaults(kPages));
  for (size_t i = 1; i < clock.size(); ++i) {  // totals never go back
    if (clock[i].thread == clock[i - 1].thread) {
      EXPECT_GE(clock[i].value, clock[i - 1].value);
    }
  }
}

TEST(Counters, PeriodicSamplesInsideALongState) {
  SKIP_WITHOUT_PERF();
  const Traced run = Record({"spin", "300"}, {"PLX_COUNTERS=task-clock", "PLX_SAMPLE_MS=10"});
  const std::vector<Sample> clock = Samples(run.trace, "task-clock");
  const std::vector<Slice> spin = Slices(run.trace, "spin");
  ASSERT_EQ(spin.size(), 1u) << run.result.output;
  std::vector<double> inside;
  for (const Sample& s : clock)
    if (s.thread == spin[0].thread && s.time > spin[0].begin && s.time < spin[0].end)
      inside.push_back(s.value);
  // 300 ms of CPU time sampled every 10 ms of it: about 30 samples, each
  // about 10 ms of task-clock after the one before.
  EXPECT_GE(inside.size(), 25u);
  EXPECT_LE(inside.size(), 32u);
  std::vector<double> steps;
  for (size_t i = 1; i < inside.size(); ++i)
    steps.push_back(inside[i] - inside[i - 1]);
  ASSERT_FALSE(steps.empty());
  std::sort(steps.begin(), steps.end());
  EXPECT_NEAR(steps[steps.size() / 2], 10e6, 1e6);
}

TEST(Counters, CountingModeRecordsCountsPerPeriodThatAddUp) {
  SKIP_WITHOUT_PERF();
  constexpr long kPages = 3000;  // in 10 batches, 3 ms of CPU time after each
  const Traced counting =
      Record({"spread", std::to_string(kPages)},
             {"PLX_COUNTERS=page-faults", "PLX_SAMPLE_MS=1", "PLX_COUNTER_MODE=period"});
  const Traced totals =
      Record({"spread", std::to_string(kPages)}, {"PLX_COUNTERS=page-faults", "PLX_SAMPLE_MS=0"});
  const std::vector<Sample> per_period = Samples(counting.trace, "page-faults");
  const std::vector<Sample> at_changes = Samples(totals.trace, "page-faults");
  ASSERT_FALSE(per_period.empty()) << counting.result.output;
  ASSERT_FALSE(at_changes.empty()) << totals.result.output;
  // One record per millisecond of CPU time (30 ms and more) and one at the
  // end, not one per state change (40 state records).
  const std::vector<Slice> spin = Slices(counting.trace, "spin");
  ASSERT_EQ(spin.size(), 10u);
  size_t in_spins = 0;
  for (const Sample& s : per_period)
    for (const Slice& sl : spin)
      if (s.time > sl.begin && s.time < sl.end) ++in_spins;
  EXPECT_GE(in_spins, 20u) << counting.result.output;
  // Each record is the count of its period: no period holds all the faults,
  // and the counts add up to the thread's total (the last total of the run
  // that sampled at state changes, give or take the program's own few
  // page faults around them).
  double sum = 0, largest = 0;
  for (const Sample& s : per_period) {
    sum += s.value;
    largest = std::max(largest, s.value);
  }
  EXPECT_LE(largest, kPages / 2);
  EXPECT_GE(sum, kPages);
  EXPECT_NEAR(sum, at_changes.back().value, 200);
}

TEST(Counters, SchedRecordsTheCpuOfEachStateChange) {
  const Traced run = Record({"migrate", "40"}, {"PLX_SCHED=1", "PLX_SAMPLE_MS=0"});
  if (run.result.output.find("one cpu") != std::string::npos)
    GTEST_SKIP() << "this process may run on one CPU only: no migration to record";
  // The CPUs the program pinned itself to, in order, without repeats.
  std::vector<double> expected;
  std::istringstream lines(run.result.output);
  std::string word;
  int cpu;
  while (lines >> word >> cpu)
    if (word == "cpu" && (expected.empty() || expected.back() != cpu)) expected.push_back(cpu);
  ASSERT_EQ(expected.size(), 40u) << run.result.output;
  const std::vector<Sample> cpus = Samples(run.trace, "cpu");
  const std::vector<Slice> on = Slices(run.trace, "on cpu");
  ASSERT_EQ(on.size(), 40u);
  EXPECT_EQ(run.trace.counters[CounterId(run.trace, "cpu")].unit, "cpu");
  // At each state the thread ran where it was pinned: the cpu counter's
  // value at the state's enter is that CPU.
  for (size_t i = 0; i < on.size(); ++i) {
    const Sample* s = AtOrBefore(cpus, on[i].thread, on[i].begin);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->value, expected[i]) << "state " << i;
  }
  // A sample only when the CPU changed.
  for (size_t i = 1; i < cpus.size(); ++i) {
    if (cpus[i].thread == cpus[i - 1].thread) {
      EXPECT_NE(cpus[i].value, cpus[i - 1].value);
    }
  }
}

TEST(Counters, EachThreadHasItsOwnCounts) {
  SKIP_WITHOUT_PERF();
  constexpr long kThreads = 4, kPages = 500;
  const Traced run = Record({"threads", std::to_string(kThreads), std::to_string(kPages)},
                            {"PLX_COUNTERS=page-faults", "PLX_SAMPLE_MS=0"});
  const std::vector<Sample> faults = Samples(run.trace, "page-faults");
  const std::vector<Slice> touch = Slices(run.trace, "touch");
  ASSERT_EQ(touch.size(), static_cast<size_t>(kThreads)) << run.result.output;
  for (const Slice& s : touch) {
    const Sample* before = AtOrBefore(faults, s.thread, s.begin);
    const Sample* after = AtOrBefore(faults, s.thread, s.end);
    ASSERT_NE(before, nullptr);
    ASSERT_NE(after, nullptr);
    // Another thread's faults are not in this thread's counter.
    EXPECT_GE(after->value - before->value, kPages);
    EXPECT_LE(after->value - before->value, MaxFaults(kPages));
  }
}

TEST(Counters, HardwareCountersOrAClearMessage) {
  SKIP_WITHOUT_PERF();
  constexpr long kIterations = 10'000'000;
  const Traced run = Record({"loop", std::to_string(kIterations)},
                            {"PLX_COUNTERS=instructions,task-clock", "PLX_SAMPLE_MS=0"});
  const int err = ProbeEvent(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
  if (err != 0) {
    // The trace is still written, with what could be counted, and one line
    // says which counter is missing and why.
    EXPECT_NE(run.result.output.find("counter 'instructions' unavailable"), std::string::npos)
        << run.result.output;
    EXPECT_EQ(CounterId(run.trace, "instructions"), UINT32_MAX);
    EXPECT_FALSE(Samples(run.trace, "task-clock").empty());
    GTEST_SKIP() << "this machine has no hardware instruction counter (" << std::strerror(err)
                 << "; usual in virtual machines): checked the message only";
  }
  const std::vector<Sample> instructions = Samples(run.trace, "instructions");
  const std::vector<Slice> loop = Slices(run.trace, "loop");
  ASSERT_EQ(loop.size(), 1u);
  const Sample* before = AtOrBefore(instructions, loop[0].thread, loop[0].begin);
  const Sample* after = AtOrBefore(instructions, loop[0].thread, loop[0].end);
  ASSERT_NE(before, nullptr);
  ASSERT_NE(after, nullptr);
  // Each iteration is at least the add, a compare and a branch.
  EXPECT_GE(after->value - before->value, 3.0 * kIterations);
  EXPECT_LE(after->value - before->value, 6.0 * kIterations);
}

TEST(Counters, UnknownNamesAreToldAndTheRestIsKept) {
  SKIP_WITHOUT_PERF();
  const Traced run =
      Record({"faults", "10", "1"}, {"PLX_COUNTERS=bogus-event,page-faults", "PLX_SAMPLE_MS=0"});
  EXPECT_NE(run.result.output.find("PLX_COUNTERS: unknown counter 'bogus-event'"),
            std::string::npos)
      << run.result.output;
  EXPECT_EQ(CounterId(run.trace, "bogus-event"), UINT32_MAX);
  EXPECT_FALSE(Samples(run.trace, "page-faults").empty());
}

// `parallax record` (the preload library) on a pthread program: the counters
// follow every thread, sampled at each of its pthread waits.
TEST(Counters, RecordSamplesEveryThreadOfAPthreadProgram) {
#ifdef PLX_SANITIZE_BUILD
  GTEST_SKIP() << "sanitizer build: an instrumented library cannot be preloaded";
#endif
  SKIP_WITHOUT_PERF();
  TempDir dir;
  const std::string trace = dir.File("sync.plx");
  const RunResult r =
      RunProgram({BuildPath("src/cli/parallax"), "record", "-o", trace, "--counters",
                  "page-faults,task-clock", "--sample-ms", "0", "--sched", "--",
                  BuildPath("tests/threads/sync_program"), dir.File("counts.txt")},
                 {"PLX_MPI_LIBDIR=" + BuildPath("src/mpi")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const model::Trace t = testing::LoadTraceFile(trace);
  const std::vector<Sample> clock = Samples(t, "task-clock");
  const std::vector<Sample> cpus = Samples(t, "cpu");
  std::vector<size_t> records(t.threads.size(), 0);
  for (size_t i = 0; i < t.slices.size(); ++i)
    records[t.slices.thread[i]] += 2;
  size_t threads_with_states = 0;
  for (uint32_t th = 0; th < t.threads.size(); ++th) {
    if (records[th] == 0) continue;
    ++threads_with_states;
    // A sample before each state record, and one at the thread's end.
    EXPECT_GE(CountOn(clock, th), records[th]) << t.threads[th].name;
    EXPECT_GE(CountOn(cpus, th), 1u) << t.threads[th].name;
  }
  EXPECT_GE(threads_with_states, 3u);
}

TEST(Counters, BadSettingsKeepTheirDefaults) {
  const Traced run =
      Record({"faults", "10", "1"}, {"PLX_SAMPLE_MS=soon", "PLX_COUNTER_MODE=often"});
  EXPECT_NE(run.result.output.find("PLX_SAMPLE_MS=soon: expected"), std::string::npos)
      << run.result.output;
  EXPECT_NE(run.result.output.find("PLX_COUNTER_MODE=often: expected changes or period"),
            std::string::npos);
  EXPECT_EQ(run.trace.counter_samples.size(), 0u);  // nothing asked for, nothing sampled
}

}  // namespace
}  // namespace plx
