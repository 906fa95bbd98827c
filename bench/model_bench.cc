// Loading the demo trace (demo_trace.h) into the columnar model, and the state
// statistics over it: records per second on one core.
#include <benchmark/benchmark.h>

#include "analysis/state_stats.h"
#include "demo_trace.h"
#include "model/load_trace.h"

namespace {

void LoadModel(benchmark::State& state) {
  const plx::format::TraceFile& file = plx::bench::DemoTrace();
  for (auto _ : state) {
    auto trace = plx::model::LoadTrace(file);
    if (!trace.ok()) state.SkipWithError(trace.status().message().c_str());
    benchmark::DoNotOptimize(trace->slices.size());
  }
  state.SetItemsProcessed(state.iterations() * file.total_records());
  state.counters["records"] = static_cast<double>(file.total_records());
}
BENCHMARK(LoadModel)->Unit(benchmark::kMillisecond);

void StateStatistics(benchmark::State& state) {
  const plx::format::TraceFile& file = plx::bench::DemoTrace();
  auto trace = plx::model::LoadTrace(file);
  for (auto _ : state) {
    plx::analysis::StateStatsReport report = plx::analysis::ComputeStateStats(*trace);
    benchmark::DoNotOptimize(report.all.states.size());
  }
  state.SetItemsProcessed(state.iterations() * trace->slices.size());
  state.counters["slices"] = static_cast<double>(trace->slices.size());
}
BENCHMARK(StateStatistics)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
