// The server's timeline engine on the large synthetic MPI trace
// (mpi_trace_gen.h): building the TimelineIndex (time, memory), then tile
// latency at 10 zoom levels from the whole trace down to a millionth of it,
// 1600 px wide, all rows with arrows and 16 rows; median and worst per level.
// Then the replay endpoints' work (/at, /step, /find, /lamport: ReplayIndex,
// replay_search.h, lamport_window.h) at 25 moments spread over the trace.
// PLX_BENCH_EVENTS sets the trace size (default 100 million events);
// PLX_BENCH_DIR where the generated trace is kept between runs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "bench/mpi_trace_gen.h"
#include "format/trace_file.h"
#include "model/load_trace.h"
#include "server/api.gen.h"
#include "server/timeline/lamport_window.h"
#include "server/timeline/replay_index.h"
#include "server/timeline/replay_search.h"
#include "server/timeline/tile_builder.h"
#include "server/timeline/timeline_index.h"
#include "time/causal_repair.h"
#include "time/logical_clocks.h"
#include "time/message_pairs.h"

namespace {

constexpr int kZoomLevels = 10;
constexpr int kQueriesPerLevel = 25;
constexpr uint32_t kWidth = 1600;

uint64_t BenchEvents() {
  const char* v = std::getenv("PLX_BENCH_EVENTS");
  return v && *v ? std::strtoull(v, nullptr, 10) : 100'000'000;
}

[[noreturn]] void Fail(const plx::Status& s) {
  std::fprintf(stderr, "error: %s\n", s.message().c_str());
  std::exit(1);
}

// The loaded, repaired trace and its message pairs (made once, untimed).
struct Loaded {
  std::unique_ptr<plx::format::TraceFile> file;
  plx::model::Trace trace;
  plx::time::MessagePairs pairs;
};

const Loaded& Trace() {
  static Loaded loaded = [] {
    Loaded l;
    auto f = plx::format::TraceFile::Open(plx::bench::CachedMpiTrace(BenchEvents()));
    if (!f.ok()) Fail(f.status());
    l.file = std::move(*f);
    auto t = plx::model::LoadTrace(*l.file);
    if (!t.ok()) Fail(t.status());
    l.trace = std::move(*t);
    auto r = plx::time::RepairCausality(&l.trace);
    if (!r.ok()) Fail(r.status());
    l.pairs = plx::time::MatchMessages(l.trace);
    return l;
  }();
  return loaded;
}

struct BuildResult {
  double seconds = 0;
  size_t bytes = 0;
};
BuildResult g_build;

const plx::server::TimelineIndex& Index() {
  static plx::server::TimelineIndex index = [] {
    const Loaded& l = Trace();
    const auto t0 = std::chrono::steady_clock::now();
    plx::server::TimelineIndex i = plx::server::TimelineIndex::Build(l.trace, l.pairs);
    g_build.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    g_build.bytes = i.memory_bytes();
    return i;
  }();
  return index;
}

void BuildIndex(benchmark::State& state) {
  const Loaded& l = Trace();
  for (auto _ : state) {
    plx::server::TimelineIndex index = plx::server::TimelineIndex::Build(l.trace, l.pairs);
    benchmark::DoNotOptimize(index.memory_bytes());
  }
  const plx::server::TimelineIndex& index = Index();  // the shared one, for the table
  state.counters["events"] = static_cast<double>(l.file->total_records());
  state.counters["slices"] = static_cast<double>(l.trace.slices.size());
  state.counters["messages"] = static_cast<double>(l.pairs.pairs.size());
  state.counters["index_MB"] = static_cast<double>(index.memory_bytes()) / 1e6;
  state.counters["bytes_per_slice"] =
      static_cast<double>(index.memory_bytes()) / std::max<double>(1, l.trace.slices.size());
}
BENCHMARK(BuildIndex)->Unit(benchmark::kMillisecond)->Iterations(1);

struct LevelResult {
  double span_ns = 0;
  double median_ms[2] = {0, 0}, worst_ms[2] = {0, 0};
  double mean_kb[2] = {0, 0};
  double mean_slices[2] = {0, 0}, mean_arrows[2] = {0, 0};  // records per tile
};
LevelResult g_levels[kZoomLevels];

// Tiles at zoom level `state.range(0)` (span = duration / 10^(level * 6 / 9))
// at windows spread over the trace; range(1) = 0: all rows, 1: 16 rows.
void Tile(benchmark::State& state) {
  const plx::server::TimelineIndex& index = Index();
  const plx::model::Trace& trace = Trace().trace;
  const int level = static_cast<int>(state.range(0));
  const int few = static_cast<int>(state.range(1));
  const double duration = static_cast<double>(trace.end_ns - trace.begin_ns);
  const double span = duration / std::pow(10.0, level * 6.0 / (kZoomLevels - 1));
  plx::server::TileRequest request;
  request.width = kWidth;
  const uint32_t rows = index.rows();
  for (uint32_t r = 0; r < (few ? std::min(16u, rows) : rows); ++r)
    request.rows.push_back(r);
  std::vector<double> ms;
  double bytes = 0, slices = 0, arrows = 0;
  for (auto _ : state) {
    ms.clear();
    bytes = slices = arrows = 0;
    for (int q = 0; q < kQueriesPerLevel; ++q) {
      // Windows evenly spread, with a fixed odd offset so they do not align
      // with iterations.
      const double start = (duration - span) * (q + 0.37) / kQueriesPerLevel;
      request.from = std::max(0.0, start);
      request.to = request.from + span;
      std::string out;
      const auto t0 = std::chrono::steady_clock::now();
      const plx::Status s = plx::server::BuildTile(index, request, &out);
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (!s.ok()) state.SkipWithError(s.message().c_str());
      bytes += static_cast<double>(out.size());
      if (out.size() >= sizeof(plx::server::wire::TileHeader)) {
        plx::server::wire::TileHeader h;
        std::memcpy(static_cast<void*>(&h), out.data(), sizeof(h));
        slices += h.slices;
        arrows += h.arrows;
      }
    }
  }
  std::sort(ms.begin(), ms.end());
  LevelResult& r = g_levels[level];
  r.span_ns = span;
  r.median_ms[few] = ms[ms.size() / 2];
  r.worst_ms[few] = ms.back();
  r.mean_kb[few] = bytes / static_cast<double>(ms.size()) / 1e3;
  r.mean_slices[few] = slices / static_cast<double>(ms.size());
  r.mean_arrows[few] = arrows / static_cast<double>(ms.size());
  state.counters["span_ns"] = span;
  state.counters["median_ms"] = r.median_ms[few];
  state.counters["worst_ms"] = r.worst_ms[few];
  state.counters["tile_kB"] = r.mean_kb[few];
}
BENCHMARK(Tile)
    ->ArgsProduct({benchmark::CreateDenseRange(0, kZoomLevels - 1, 1), {0, 1}})
    ->ArgNames({"zoom", "rows16"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// --- Replay -----------------------------------------------------------------

struct ReplayResult {
  double build_s = 0, build_mb = 0, clocks_s = 0;
  // Per query kind: median and worst ms over the moments.
  struct Row {
    const char* name = "";
    double median_ms = 0, worst_ms = 0, per_query = 0;  // per_query: answer size or rate
    const char* unit = "";
  };
  std::vector<Row> rows;
};
ReplayResult g_replay;

const plx::server::ReplayIndex& Replay() {
  static plx::server::ReplayIndex replay = [] {
    const plx::server::TimelineIndex& index = Index();
    const auto t0 = std::chrono::steady_clock::now();
    plx::server::ReplayIndex r = plx::server::ReplayIndex::Build(index, Trace().pairs);
    g_replay.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    g_replay.build_mb = static_cast<double>(r.memory_bytes()) / 1e6;
    return r;
  }();
  return replay;
}

// Times `query(moment)` at kQueriesPerLevel moments spread over the trace;
// adds a row with the median and worst ms and the mean of what it returns.
template <typename Query>
void TimeQueries(const char* name, const char* unit, const Query& query) {
  const plx::model::Trace& trace = Trace().trace;
  std::vector<double> ms;
  double sum = 0;
  for (int q = 0; q < kQueriesPerLevel; ++q) {
    const int64_t t =
        trace.begin_ns + static_cast<int64_t>(static_cast<double>(trace.end_ns - trace.begin_ns) *
                                              (q + 0.37) / kQueriesPerLevel);
    const auto t0 = std::chrono::steady_clock::now();
    sum += query(t);
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  g_replay.rows.push_back({name, ms[ms.size() / 2], ms.back(), sum / kQueriesPerLevel, unit});
}

void ReplayQueries(benchmark::State& state) {
  using namespace plx::server;
  const ReplayIndex& replay = Replay();
  const plx::model::Trace& trace = Trace().trace;
  for (auto _ : state) {
    g_replay.rows.clear();
    // /at: every row's innermost slice, every counter track, in-flight list.
    std::vector<ReplayIndex::InFlight> flying;
    TimeQueries("at (all rows, counters, in flight)", "in flight", [&](int64_t t) {
      uint64_t found = 0;
      for (uint32_t row = 0; row < replay.rows(); ++row)
        found += replay.SliceAt(row, t) != plx::model::kNone;
      for (uint32_t k = 0; k < replay.timeline().counter_tracks().size(); ++k)
        found += replay.SampleAt(k, t) != plx::model::kNone;
      benchmark::DoNotOptimize(found);
      return static_cast<double>(replay.InFlightAt(t, 10000, &flying));
    });
    TimeQueries("step forward, all rows", "", [&](int64_t t) {
      return static_cast<double>(StepEvent(replay, t, true, {}).found);
    });
    TimeQueries("step back, all rows", "", [&](int64_t t) {
      return static_cast<double>(StepEvent(replay, t, false, {}).found);
    });
    TimeQueries("step forward, 1 row", "", [&](int64_t t) {
      return static_cast<double>(StepEvent(replay, t, true, {0}).found);
    });
    // 1000 steps in a row from each moment (a replay running event by event).
    TimeQueries("1000 steps forward", "", [&](int64_t t) {
      for (int k = 0; k < 1000; ++k)
        t = StepEvent(replay, t, true, {}).time;
      return 1.0;
    });
    // /find: triggers that fire rarely, so the scan runs far; the rate is
    // records passed (all rows, from t to the hit) per second.
    auto slices_between = [&](int64_t a, int64_t b) {
      double n = 0;
      for (uint32_t row = 0; row < replay.rows(); ++row) {
        const ReplayIndex::Range r = replay.slices(row);
        const auto first = trace.slices.begin.begin() + static_cast<ptrdiff_t>(r.begin);
        const auto last = trace.slices.begin.begin() + static_cast<ptrdiff_t>(r.end);
        n += static_cast<double>(std::upper_bound(first, last, b) -
                                 std::upper_bound(first, last, a));
      }
      return n;
    };
    Trigger longest;
    longest.kind = EventKind::kState;
    longest.ns = replay.max_duration(plx::model::kNone) * 9 / 10;
    double passed = 0, seconds = 0;
    TimeQueries("find state > 0.9 longest", "M slices/s", [&](int64_t t) {
      const auto t0 = std::chrono::steady_clock::now();
      const EventHit hit = FindEvent(replay, longest, t, true, INT64_MAX);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      passed += slices_between(t - longest.ns, hit.found ? hit.time - longest.ns : trace.end_ns);
      return 0.0;
    });
    g_replay.rows.back().per_query = passed / std::max(seconds, 1e-9) / 1e6;
    // Every message of the synthetic trace has the same size: the next send.
    Trigger message;
    message.kind = EventKind::kMessage;
    message.bytes = replay.max_send_bytes() - 1;
    TimeQueries("find message (the next send)", "", [&](int64_t t) {
      return static_cast<double>(FindEvent(replay, message, t, true, INT64_MAX).found);
    });
    // /lamport: the clocks once, then windows of 1/1000 of the trace.
    const auto c0 = std::chrono::steady_clock::now();
    const plx::time::LamportClocks clocks = plx::time::ComputeLamportClocks(trace);
    g_replay.clocks_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
    const int64_t span = (trace.end_ns - trace.begin_ns) / 1000;
    TimeQueries("lamport window 1/1000, limit 20000", "slices+messages", [&](int64_t t) {
      const LamportWindow w = SelectLamportWindow(replay, t, t + span, {}, 20000);
      uint64_t sum = 0;
      for (uint32_t id : w.slices)
        sum += clocks.slice_begin[id] + clocks.slice_end[id];
      for (const auto& p : w.messages)
        sum += clocks.message[p.send] + clocks.message[p.recv];
      benchmark::DoNotOptimize(sum);
      return static_cast<double>(w.slices.size() + w.messages.size());
    });
    TimeQueries("lamport whole trace, limit 20000", "slices+messages", [&](int64_t) {
      const LamportWindow w = SelectLamportWindow(replay, trace.begin_ns, trace.end_ns, {}, 20000);
      return static_cast<double>(w.slices.size() + w.messages.size());
    });
  }
  state.counters["replay_index_MB"] = g_replay.build_mb;
}
BENCHMARK(ReplayQueries)->Unit(benchmark::kMillisecond)->Iterations(1);

void PrintSummary() {
  if (g_build.bytes == 0) return;
  const Loaded& l = Trace();
  std::printf("\nTimeline index: %llu events, %zu slices, %zu messages, %u rows\n",
              static_cast<unsigned long long>(l.file->total_records()), l.trace.slices.size(),
              l.pairs.pairs.size(), Index().rows());
  std::printf("  build %.2f s, %.1f MB (%.1f bytes per slice)\n", g_build.seconds,
              static_cast<double>(g_build.bytes) / 1e6,
              static_cast<double>(g_build.bytes) / std::max<double>(1, l.trace.slices.size()));
  uint64_t lanes = 0, max_lane = 0;
  for (uint32_t row = 0; row < Index().rows(); ++row)
    for (uint16_t d = 0; d <= Index().max_depth(row); ++d)
      if (const auto* lane = Index().lane(row, d); lane && lane->count) {
        ++lanes;
        max_lane = std::max<uint64_t>(max_lane, lane->count);
      }
  std::printf("  %llu lanes (row, depth) with slices, the largest %llu slices\n",
              static_cast<unsigned long long>(lanes), static_cast<unsigned long long>(max_lane));
  std::printf("\n%4s %14s | %-34s | %-34s\n", "zoom", "span (ns)",
              "all rows: median/worst ms, kB, sl/ar", "16 rows: median/worst ms, kB, sl/ar");
  for (int z = 0; z < kZoomLevels; ++z) {
    const LevelResult& r = g_levels[z];
    if (r.span_ns == 0) continue;
    std::printf("%4d %14.0f | %6.2f %6.2f %7.1f %6.0f %6.0f | %6.2f %6.2f %7.1f %6.0f %6.0f\n", z,
                r.span_ns, r.median_ms[0], r.worst_ms[0], r.mean_kb[0], r.mean_slices[0],
                r.mean_arrows[0], r.median_ms[1], r.worst_ms[1], r.mean_kb[1], r.mean_slices[1],
                r.mean_arrows[1]);
  }
  if (g_replay.rows.empty()) return;
  std::printf("\nReplay index: build %.2f s, %.1f MB; Lamport clocks %.2f s\n", g_replay.build_s,
              g_replay.build_mb, g_replay.clocks_s);
  std::printf("%-38s %10s %10s %14s\n", "query (25 moments)", "median ms", "worst ms", "mean");
  for (const ReplayResult::Row& r : g_replay.rows)
    std::printf("%-38s %10.3f %10.3f %14.1f %s\n", r.name, r.median_ms, r.worst_ms, r.per_query,
                r.unit);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  PrintSummary();
  return 0;
}
