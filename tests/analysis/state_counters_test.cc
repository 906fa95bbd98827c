// ComputeStateCounters on scripted traces: a counter sampled just before every
// state record (as PLX_COUNTERS does) gives each state its inclusive and
// exclusive amount; slices before the first sample are not measured; samples
// of other threads and other counters do not count; per process and thread.
#include "analysis/state_counters.h"

#include <gtest/gtest.h>

#include "script_trace.h"

namespace plx::analysis {
namespace {

using testing::LoadScript;

uint32_t StateId(const model::Trace& t, const std::string& name) {
  for (uint32_t i = 0; i < t.states.size(); ++i)
    if (t.states[i].name == name) return i;
  ADD_FAILURE() << "no state " << name;
  return 0;
}

uint32_t CounterId(const model::Trace& t, const std::string& name) {
  for (uint32_t i = 0; i < t.counters.size(); ++i)
    if (t.counters[i].name == name) return i;
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

// Thread 0: solve [100, 900] holds two kernel calls; instructions sampled
// just before each record. Thread 1: one kernel, whose first sample comes
// after its begin (not measured), then a measured one. Another counter on
// thread 0 must not mix in.
const char* kScript = R"(
process 0 pid=1
process 1 pid=2
thread 0 0 tid=1
thread 1 0 tid=2
state 0 1 solve
state 0 2 kernel
state 1 1 solve
state 1 2 kernel
counter_def 0 1 instructions
counter_def 0 2 cache-misses
counter_def 1 1 instructions
counter 0 0 t=99 instructions value=1000
counter 0 0 t=99 cache-misses value=5
enter 0 0 t=100 solve
counter 0 0 t=199 instructions value=1100
enter 0 0 t=200 kernel
counter 0 0 t=299 instructions value=1600
counter 0 0 t=299 cache-misses value=900
leave 0 0 t=300 kernel
counter 0 0 t=399 instructions value=1650
enter 0 0 t=400 kernel
counter 0 0 t=450 instructions value=1700
counter 0 0 t=599 instructions value=2050
leave 0 0 t=600 kernel
counter 0 0 t=899 instructions value=2150
leave 0 0 t=900 solve
enter 1 0 t=100 kernel
counter 1 0 t=150 instructions value=7
leave 1 0 t=200 kernel
counter 1 0 t=299 instructions value=10
enter 1 0 t=300 kernel
counter 1 0 t=399 instructions value=40
leave 1 0 t=400 kernel
)";

TEST(StateCounters, InclusiveAndExclusivePerState) {
  const model::Trace t = LoadScript(kScript);
  const StateCounterReport r = ComputeStateCounters(t, CounterId(t, "instructions"));
  const StateCounterSums& solve = r.all[StateId(t, "solve")];
  const StateCounterSums& kernel = r.all[StateId(t, "kernel")];
  // solve: 2150 - 1000 = 1150 inclusive; its kernels took 500 and 400.
  EXPECT_EQ(solve.measured, 1u);
  EXPECT_DOUBLE_EQ(solve.total, 1150);
  EXPECT_DOUBLE_EQ(solve.self, 1150 - 500 - 400);
  // kernel: 500 and 400 on thread 0 (the periodic sample at 450 inside does
  // not matter), 30 on thread 1; thread 1's first kernel had no sample yet.
  EXPECT_EQ(kernel.measured, 3u);
  EXPECT_DOUBLE_EQ(kernel.total, 500 + 400 + 30);
  EXPECT_DOUBLE_EQ(kernel.self, 500 + 400 + 30);
}

TEST(StateCounters, PerProcessAndThread) {
  const model::Trace t = LoadScript(kScript);
  const StateCounterReport r = ComputeStateCounters(t, CounterId(t, "instructions"));
  const uint32_t kernel = StateId(t, "kernel");
  ASSERT_EQ(r.processes.size(), 2u);
  ASSERT_EQ(r.threads.size(), 2u);
  EXPECT_DOUBLE_EQ(r.processes[0][kernel].total, 900);
  EXPECT_DOUBLE_EQ(r.processes[1][kernel].total, 30);
  EXPECT_EQ(r.threads[1][kernel].measured, 1u);
  EXPECT_EQ(r.threads[1][StateId(t, "solve")].measured, 0u);
}

TEST(StateCounters, EachCounterOnItsOwn) {
  const model::Trace t = LoadScript(kScript);
  const StateCounterReport r = ComputeStateCounters(t, CounterId(t, "cache-misses"));
  // Samples at 99 and 299 only: the first kernel took 895, the second none
  // (both ends see the sample of 299); solve took 895 in all, 0 of it its own.
  EXPECT_DOUBLE_EQ(r.all[StateId(t, "kernel")].total, 895);
  EXPECT_DOUBLE_EQ(r.all[StateId(t, "solve")].total, 895);
  EXPECT_DOUBLE_EQ(r.all[StateId(t, "solve")].self, 0);
  // Thread 1 has no cache-misses samples: nothing measured there.
  EXPECT_EQ(r.threads[1][StateId(t, "kernel")].measured, 0u);
}

TEST(StateCounters, NoSuchCounterMeasuresNothing) {
  const model::Trace t = LoadScript(kScript);
  const StateCounterReport r = ComputeStateCounters(t, 99);
  ASSERT_EQ(r.all.size(), t.states.size());
  for (const StateCounterSums& s : r.all)
    EXPECT_EQ(s.measured, 0u);
}

}  // namespace
}  // namespace plx::analysis
