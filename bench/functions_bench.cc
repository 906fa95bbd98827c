// Cost of function tracing per instrumented call (one enter + leave pair, the
// -finstrument-functions hooks of src/threads/functions): a tiny function
// traced, excluded by PLX_FUNCTIONS_EXCLUDE, with recording switched off, and
// the same function built without instrumentation. Burst: the ring is emptied
// (timer paused) before it fills, as in a program whose writer keeps up.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "parallax/parallax.h"

extern "C" {
int traced_tiny(int x);
int excluded_tiny(int x);
int plain_tiny(int x);
}

namespace {

constexpr int kBatch = 1000;     // calls per timed iteration
constexpr int kFlushEvery = 40;  // 40 x 1000 x 2 slots < the default ring

template <int (*F)(int)>
void Calls(benchmark::State& state) {
  int since_flush = 0, v = 0;
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i)
      v = F(v);
    benchmark::DoNotOptimize(v);
    if (++since_flush == kFlushEvery) {
      state.PauseTiming();
      plx_flush();
      since_flush = 0;
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

void Uninstrumented(benchmark::State& state) {
  Calls<plain_tiny>(state);
}
BENCHMARK(Uninstrumented);

void Traced(benchmark::State& state) {
  Calls<traced_tiny>(state);
}
BENCHMARK(Traced);

void Excluded(benchmark::State& state) {
  Calls<excluded_tiny>(state);
}
BENCHMARK(Excluded);

void RecordingOff(benchmark::State& state) {
  plx_control(0);
  Calls<traced_tiny>(state);
  plx_control(1);
}
BENCHMARK(RecordingOff);

}  // namespace

int main(int argc, char** argv) {
  // Before the first hook reads the settings.
  ::setenv("PLX_FUNCTIONS_EXCLUDE", "excluded_*", 1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
