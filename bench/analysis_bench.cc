// The analysis engine on a large synthetic MPI trace (mpi_trace_gen.h):
// events per second through load + causal repair, state statistics, the
// communication matrix, wait states and the critical path, one core each.
// PLX_BENCH_EVENTS sets the trace size (default 100 million events);
// PLX_BENCH_DIR where the generated trace is kept between runs.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "analysis/state_stats.h"
#include "bench/mpi_trace_gen.h"
#include "format/trace_file.h"
#include "model/load_trace.h"

namespace {

uint64_t BenchEvents() {
  const char* v = std::getenv("PLX_BENCH_EVENTS");
  return v && *v ? std::strtoull(v, nullptr, 10) : 100'000'000;
}

const plx::format::TraceFile& File() {
  static std::unique_ptr<plx::format::TraceFile> file = [] {
    auto f = plx::format::TraceFile::Open(plx::bench::CachedMpiTrace(BenchEvents()));
    if (!f.ok()) {
      std::fprintf(stderr, "error: %s\n", f.status().message().c_str());
      std::exit(1);
    }
    return std::move(*f);
  }();
  return *file;
}

// The loaded trace, shared by the analyses (loaded once, outside their timing).
const plx::model::Trace& Loaded() {
  static plx::model::Trace trace = [] {
    auto t = plx::model::LoadTrace(File());
    if (!t.ok()) {
      std::fprintf(stderr, "error: %s\n", t.status().message().c_str());
      std::exit(1);
    }
    return std::move(*t);
  }();
  return trace;
}

void Report(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(File().total_records()));
  state.counters["events"] = static_cast<double>(File().total_records());
}

void LoadTrace(benchmark::State& state) {
  for (auto _ : state) {
    auto trace = plx::model::LoadTrace(File());
    if (!trace.ok()) state.SkipWithError(trace.status().message().c_str());
    benchmark::DoNotOptimize(trace->slices.size());
  }
  Report(state);
}
BENCHMARK(LoadTrace)->Unit(benchmark::kMillisecond)->Iterations(1);

void StateStatistics(benchmark::State& state) {
  const plx::model::Trace& trace = Loaded();
  for (auto _ : state) {
    plx::analysis::StateStatsReport report = plx::analysis::ComputeStateStats(trace);
    benchmark::DoNotOptimize(report.all.states.size());
  }
  Report(state);
}
BENCHMARK(StateStatistics)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
