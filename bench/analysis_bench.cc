// The analysis engine on a large synthetic MPI trace (mpi_trace_gen.h):
// events per second through load, load + causal repair, and each analysis
// `parallax report` runs (on the repaired trace, as report does), one core
// each. Items are the trace's event records throughout, so the rates compare.
// PLX_BENCH_EVENTS sets the trace size (default 100 million events);
// PLX_BENCH_DIR where the generated trace is kept between runs.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/comm_matrix.h"
#include "analysis/critical_path.h"
#include "analysis/deadlock.h"
#include "analysis/state_stats.h"
#include "analysis/wait_states.h"
#include "bench/mpi_trace_gen.h"
#include "format/trace_file.h"
#include "model/load_trace.h"
#include "time/causal_repair.h"

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

// The loaded and repaired trace, shared by the analyses (made once, outside
// their timing).
const plx::model::Trace& Loaded() {
  static plx::model::Trace trace = [] {
    auto t = plx::model::LoadTrace(File());
    if (!t.ok()) {
      std::fprintf(stderr, "error: %s\n", t.status().message().c_str());
      std::exit(1);
    }
    auto r = plx::time::RepairCausality(&*t);
    if (!r.ok()) {
      std::fprintf(stderr, "error: %s\n", r.status().message().c_str());
      std::exit(1);
    }
    return std::move(*t);
  }();
  return trace;
}

// The wait states of the shared trace, for the critical path.
const plx::analysis::WaitStatesReport& Waits() {
  static const plx::analysis::WaitStatesReport waits = plx::analysis::ComputeWaitStates(Loaded());
  return waits;
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

void LoadAndRepair(benchmark::State& state) {
  uint64_t violations = 0;
  for (auto _ : state) {
    auto trace = plx::model::LoadTrace(File());
    if (!trace.ok()) {
      state.SkipWithError(trace.status().message().c_str());
      break;
    }
    auto repair = plx::time::RepairCausality(&*trace);
    if (!repair.ok()) {
      state.SkipWithError(repair.status().message().c_str());
      break;
    }
    violations = repair->violations_before;
    benchmark::DoNotOptimize(repair->events_moved);
  }
  Report(state);
  state.counters["violations"] = static_cast<double>(violations);
}
BENCHMARK(LoadAndRepair)->Unit(benchmark::kMillisecond)->Iterations(1);

void StateStatistics(benchmark::State& state) {
  const plx::model::Trace& trace = Loaded();
  for (auto _ : state) {
    plx::analysis::StateStatsReport report = plx::analysis::ComputeStateStats(trace);
    benchmark::DoNotOptimize(report.all.states.size());
  }
  Report(state);
}
BENCHMARK(StateStatistics)->Unit(benchmark::kMillisecond)->Iterations(1);

void CommMatrix(benchmark::State& state) {
  const plx::model::Trace& trace = Loaded();
  for (auto _ : state) {
    plx::analysis::CommMatrix matrix = plx::analysis::ComputeCommMatrix(trace);
    benchmark::DoNotOptimize(matrix);
  }
  Report(state);
}
BENCHMARK(CommMatrix)->Unit(benchmark::kMillisecond)->Iterations(1);

void WaitStates(benchmark::State& state) {
  const plx::model::Trace& trace = Loaded();
  for (auto _ : state) {
    plx::analysis::WaitStatesReport waits = plx::analysis::ComputeWaitStates(trace);
    benchmark::DoNotOptimize(waits.all.count);
  }
  Report(state);
}
BENCHMARK(WaitStates)->Unit(benchmark::kMillisecond)->Iterations(1);

// Given the wait states (what `parallax report` has already computed).
void CriticalPath(benchmark::State& state) {
  const plx::model::Trace& trace = Loaded();
  const plx::analysis::WaitStatesReport& waits = Waits();
  for (auto _ : state) {
    plx::analysis::CriticalPath path = plx::analysis::ComputeCriticalPath(trace, waits);
    benchmark::DoNotOptimize(path.segments.size());
  }
  Report(state);
}
BENCHMARK(CriticalPath)->Unit(benchmark::kMillisecond)->Iterations(1);

void Anomalies(benchmark::State& state) {
  const plx::model::Trace& trace = Loaded();
  for (auto _ : state) {
    std::vector<plx::analysis::Anomaly> found = plx::analysis::FindAnomalies(trace);
    benchmark::DoNotOptimize(found.size());
  }
  Report(state);
}
BENCHMARK(Anomalies)->Unit(benchmark::kMillisecond)->Iterations(1);

void Deadlocks(benchmark::State& state) {
  const plx::model::Trace& trace = Loaded();
  for (auto _ : state) {
    plx::analysis::DeadlockReport report = plx::analysis::DetectDeadlocks(trace);
    benchmark::DoNotOptimize(report.blocked.size());
  }
  Report(state);
}
BENCHMARK(Deadlocks)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
