// The sampling itself: per-thread state in TLS, counter records through the
// capture fast path, ring samples converted from CLOCK_MONOTONIC to ticks.
#include <sched.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "capture/fast_path.h"
#include "capture/sampling.h"
#include "counters/event_table.h"
#include "counters/perf_group.h"
#include "parallax/parallax.h"

namespace plx::counters {
namespace {

namespace cap = plx::capture;

constexpr size_t kRingPages = 16;  // 64 KiB: about 900 samples of 3 counters

// Set by Start, read-only afterwards.
struct Settings {
  std::vector<EventSpec> events;  // the ones that could be opened
  std::vector<uint32_t> handles;  // their counters
  uint32_t cpu_handle = 0;        // "cpu" (PLX_SCHED), or 0
  uint64_t period_ns = 0;         // periodic samples (0 = none)
  bool per_period = false;        // PLX_COUNTER_MODE=period
  cap::SyncPair base{};           // for CLOCK_MONOTONIC -> ticks
};
Settings g;
std::atomic<uint64_t> g_lost{0};
std::atomic<bool> g_ring_warned{false};

struct ThreadCounters {
  PerfGroup group;
  int last_cpu = -1;
  uint64_t last_tick = 0;
  uint64_t previous[kMaxEvents] = {};  // PLX_COUNTER_MODE=period: totals at the last sample
};

thread_local ThreadCounters* tls_counters PLX_TLS = nullptr;
thread_local bool tls_done PLX_TLS = false;

// The tick of a CLOCK_MONOTONIC time in the recent past.
uint64_t TickOf(uint64_t ns) {
  const cap::SyncPair now = cap::TakeSyncPair();
  if (cap::g_clock_kind == cap::ClockKind::kMonotonic || now.ns <= g.base.ns) return ns;
  const double ticks_per_ns =
      static_cast<double>(now.tick - g.base.tick) / static_cast<double>(now.ns - g.base.ns);
  const double back = ns < now.ns ? static_cast<double>(now.ns - ns) * ticks_per_ns : 0.0;
  return now.tick - static_cast<uint64_t>(back);
}

void EmitCounter(uint64_t tick, uint32_t handle, uint64_t value) {
  cap::Emit2At(tick, cap::HandleCategory(handle),
               cap::MakeW0(cap::kRawCounterInt, cap::HandleId(handle)), 0, value, 0);
}

void EmitCpu(ThreadCounters* t, uint64_t tick, int cpu) {
  if (g.cpu_handle == 0 || cpu < 0 || cpu == t->last_cpu) return;
  t->last_cpu = cpu;
  EmitCounter(tick, g.cpu_handle, static_cast<uint64_t>(cpu));
}

void EmitValues(ThreadCounters* t, uint64_t tick, const uint64_t* values) {
  for (size_t i = 0; i < g.handles.size(); ++i) {
    if (!t->group.counted(i)) continue;
    uint64_t v = values[i];
    if (g.per_period) {
      const uint64_t total = v;
      v = total >= t->previous[i] ? total - t->previous[i] : 0;
      t->previous[i] = total;
    }
    EmitCounter(tick, g.handles[i], v);
  }
}

// The periodic samples the kernel wrote since the last call, oldest first.
void DrainRing(ThreadCounters* t) {
  RingSample sample;
  while (t->group.NextSample(&sample)) {
    uint64_t tick = TickOf(sample.time_ns);
    if (tick < t->last_tick) tick = t->last_tick;
    t->last_tick = tick;
    if (sample.valid) EmitValues(t, tick, sample.values);
    EmitCpu(t, tick, static_cast<int>(sample.cpu));
  }
  if (const uint64_t lost = t->group.TakeLost(); lost > 0)
    g_lost.fetch_add(lost, std::memory_order_relaxed);
}

ThreadCounters* Setup() {
  if (tls_done) return nullptr;
  auto* t = new (std::nothrow) ThreadCounters();
  if (t == nullptr) return nullptr;
  tls_counters = t;
  if (!g.events.empty() || (g.period_ns > 0 && g.cpu_handle != 0)) {
    std::string error;
    t->group.Open(g.events, g.period_ns, kRingPages, &error);
    // Events were checked at Start: what fails now (the ring) is told once.
    if (!error.empty() && !g_ring_warned.exchange(true))
      std::fprintf(stderr, "parallax: %s\n", error.c_str());
  }
  return t;
}

// Before each state record (g_state_sampler).
void AtStateChange() {
  // Attach first: its buffer's page faults must not count in this thread's
  // first state (attaching opens the group, ThreadStarted).
  if (PLX_UNLIKELY(cap::tls_stream == nullptr) && cap::AttachThread() == nullptr) return;
  ThreadCounters* t = tls_counters;
  if (PLX_UNLIKELY(t == nullptr) && (t = Setup()) == nullptr) return;
  if (t->group.pending()) DrainRing(t);
  if (!g.per_period && !g.handles.empty() && t->group.open()) {
    uint64_t values[kMaxEvents];
    if (t->group.Read(values)) {
      t->last_tick = cap::ReadTicks();
      EmitValues(t, t->last_tick, values);
    }
  }
  if (g.cpu_handle != 0) {
    const int cpu = ::sched_getcpu();
    if (cpu != t->last_cpu) EmitCpu(t, cap::ReadTicks(), cpu);
  }
}

uint32_t Start(const capture::Config& config, capture::Registry& registry) {
  g = Settings{};
  std::vector<std::string> errors;
  const std::vector<EventSpec> named = ParseEventList(config.counters, &errors);
  for (const EventSpec& e : named) {
    PerfGroup probe;
    std::string error;
    if (probe.Open({e}, 0, 0, &error) && probe.counted(0)) {
      g.events.push_back(e);
    } else {
      errors.push_back("PLX_COUNTERS: " + error);
    }
  }
  if (g.events.size() > kMaxEvents) {
    errors.push_back("PLX_COUNTERS: more than 16 counters; the rest are left out");
    g.events.resize(kMaxEvents);
  }
  for (const std::string& e : errors)
    std::fprintf(stderr, "parallax: %s\n", e.c_str());
  g.per_period = config.count_per_period && !g.events.empty();
  g.period_ns = static_cast<uint64_t>(config.sample_ms) * 1'000'000u;
  if (g.per_period && g.period_ns == 0) {
    std::fprintf(stderr, "parallax: PLX_COUNTER_MODE=period needs PLX_SAMPLE_MS > 0; using 10\n");
    g.period_ns = 10'000'000;
  }
  for (const EventSpec& e : g.events) {
    const char* unit = e.is_time ? "ns" : "events";
    g.handles.push_back(registry.Counter(e.name, unit, PLX_INT));
  }
  if (config.sched) g.cpu_handle = registry.Counter("cpu", "cpu", PLX_INT);
  if (g.events.empty() && g.cpu_handle == 0) return 0;
  if (g.events.empty() && g.period_ns > 0) {  // PLX_SCHED alone: is periodic sampling allowed?
    PerfGroup probe;
    std::string error;
    if (!probe.Open({}, g.period_ns, 1, &error)) {
      std::fprintf(stderr, "parallax: PLX_SCHED: CPUs at state changes only; periodic %s\n",
                   error.c_str());
      g.period_ns = 0;
    }
  }
  g.base = cap::TakeSyncPair();
  cap::g_state_sampler = &AtStateChange;
  return 1u << cap::kSampleBit;
}

void ThreadStarted() {
  if (cap::g_state_sampler != &AtStateChange || tls_counters != nullptr) return;
  if (ThreadCounters* t = Setup()) EmitCpu(t, cap::ReadTicks(), ::sched_getcpu());
}

void ThreadDone() {
  ThreadCounters* t = tls_counters;
  if (t == nullptr) return;
  AtStateChange();  // the last periodic samples, the totals at the end
  uint64_t values[kMaxEvents];
  if (g.per_period && t->group.open() && t->group.Read(values))  // the last part of a period
    EmitValues(t, cap::ReadTicks(), values);
  tls_counters = nullptr;
  tls_done = true;
  delete t;
}

void Stop() {
  const uint64_t lost = g_lost.exchange(0);
  if (lost > 0)
    std::fprintf(stderr,
                 "parallax: %llu periodic counter samples were lost: a thread ran too long "
                 "without a state change for its sample buffer (%zu KiB)\n",
                 static_cast<unsigned long long>(lost), kRingPages * 4);
}

}  // namespace
}  // namespace plx::counters

namespace plx::capture {

uint32_t StartSampling(const Config& config, Registry& registry) {
  return counters::Start(config, registry);
}
void SamplingThreadStarted() {
  counters::ThreadStarted();
}
void SamplingThreadDone() {
  counters::ThreadDone();
}
void StopSampling() {
  counters::Stop();
}

}  // namespace plx::capture
