// Cost of the recording calls, next to the floor measured in the same binary:
// two TSC reads and two 16-byte stores to a thread-local buffer.
//
// "Burst" numbers are the recording call itself: the ring is emptied (timer
// paused) before it fills, as in a program whose background writer keeps up.
// "Sustained" numbers let the ring fill, so they include the program's own
// flushes when it records faster than the writer thread drains.
#include <benchmark/benchmark.h>
#include <x86intrin.h>

#include <cstdlib>
#include <string>

#include "parallax/parallax.h"

namespace {

// Records per timed iteration, and iterations between ring flushes (burst).
constexpr int kBatch = 1000;
constexpr int kFlushEvery = 40;  // 40 x 1000 x up to 3 slots < 262,144 slots

struct alignas(16) FloorSlot {
  uint64_t tick;
  uint64_t payload;
};
thread_local FloorSlot floor_buffer[1 << 14];
thread_local uint64_t floor_head = 0;

void FloorTwoTscTwoStores(benchmark::State& state) {
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i) {
      floor_buffer[floor_head++ & ((1 << 14) - 1)] = {__rdtsc(), 1};
      floor_buffer[floor_head++ & ((1 << 14) - 1)] = {__rdtsc(), 2};
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(FloorTwoTscTwoStores)->Threads(1)->Threads(2);

// Runs `body` kBatch times per iteration; flushes the ring outside the timer.
template <typename Body>
void Burst(benchmark::State& state, Body body) {
  int since_flush = 0;
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i)
      body(i);
    if (++since_flush == kFlushEvery) {
      state.PauseTiming();
      plx_flush();
      since_flush = 0;
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}

template <typename Body>
void Sustained(benchmark::State& state, Body body) {
  for (auto _ : state)
    for (int i = 0; i < kBatch; ++i)
      body(i);
  state.SetItemsProcessed(state.iterations() * kBatch);
}

plx_state_t State() {
  static plx_state_t s = plx_state_define("bench.state", PLX_COLOR_AUTO, nullptr);
  return s;
}
plx_event_t Event() {
  static plx_event_t e = plx_event_define("bench.event", nullptr);
  return e;
}

void StateEnterLeave(benchmark::State& state) {
  const plx_state_t s = State();
  Burst(state, [s](int) {
    plx_state_enter(s);
    plx_state_leave(s);
  });
}
BENCHMARK(StateEnterLeave)->Threads(1)->Threads(2);

void ScopeEnterLeave(benchmark::State& state) {
  static plx_srcloc loc = PLX_SRCLOC_INIT("bench.scope", PLX_COLOR_AUTO, nullptr);
  Burst(state, [](int) {
    plx_scope_enter(&loc);
    plx_scope_leave(&loc);
  });
}
BENCHMARK(ScopeEnterLeave);

void InstantEventInt(benchmark::State& state) {
  const plx_event_t e = Event();
  Burst(state, [e](int i) { plx_event_int(e, i); });
}
BENCHMARK(InstantEventInt);

void MessageSend(benchmark::State& state) {
  Burst(state, [](int i) { plx_send(PLX_COMM_WORLD, 1, i, 64, 0); });
}
BENCHMARK(MessageSend)->Threads(1)->Threads(2);

void LamportMessageSend(benchmark::State& state) {
  Burst(state, [](int i) { benchmark::DoNotOptimize(plx_msg_send(PLX_COMM_WORLD, 1, i, 64)); });
}
BENCHMARK(LamportMessageSend);

void StateEnterLeaveSustained(benchmark::State& state) {
  const plx_state_t s = State();
  Sustained(state, [s](int) {
    plx_state_enter(s);
    plx_state_leave(s);
  });
}
BENCHMARK(StateEnterLeaveSustained)->Threads(1)->Threads(2);

void StateEnterLeaveOff(benchmark::State& state) {
  const plx_state_t s = State();
  plx_control(0);
  Sustained(state, [s](int) {
    plx_state_enter(s);
    plx_state_leave(s);
  });
  plx_control(1);
}
BENCHMARK(StateEnterLeaveOff);

// The runtime's write path: ring slots -> records -> zstd chunks -> file.
// Each iteration records a mix (states, events, messages, counters) untimed,
// then times plx_flush() writing it out.
void DrainToFile(benchmark::State& state) {
  const plx_state_t s = State();
  const plx_event_t e = Event();
  static plx_counter_t c = plx_counter_define("bench.counter", nullptr, PLX_INT);
  constexpr int kRecords = 60000;  // 6 records per round; fits a 4 MiB ring
  plx_flush();
  for (auto _ : state) {
    state.PauseTiming();
    for (int i = 0; i < kRecords / 6; ++i) {
      plx_state_enter(s);
      plx_event_int(e, i);
      plx_counter_int(c, i & 63);
      plx_send(PLX_COMM_WORLD, i & 7, i, 64 + (i & 255), 0);
      plx_recv(PLX_COMM_WORLD, i & 7, i, 64 + (i & 255), 0);
      plx_state_leave(s);
    }
    state.ResumeTiming();
    plx_flush();
  }
  state.SetItemsProcessed(state.iterations() * kRecords);
}
BENCHMARK(DrainToFile)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  // Trace into a scratch file unless told otherwise; the runtime starts on first use.
  // A long flush interval keeps the background writer out of the timings: rings
  // are emptied by plx_flush (untimed, burst) or by the thread itself (sustained).
  ::setenv("PLX_OUTPUT", "/tmp/plx-capture-bench.plx", 0);
  ::setenv("PLX_FLUSH_MS", "60000", 0);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (plx_init() != 0) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
