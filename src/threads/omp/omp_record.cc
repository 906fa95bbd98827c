// The recording side of the OpenMP tool, through the capture runtime's fast
// path (capture/fast_path.h) like src/threads/record.cc does for pthreads.
#include "threads/omp/omp_record.h"

#include <cerrno>

#include "capture/fast_path.h"
#include "capture/registry.h"
#include "capture/runtime.h"
#include "capture/state_records.h"
#include "threads/process_kind.h"
#include "threads/record.h"

namespace plx::omp {
namespace cap = plx::capture;

namespace {

constexpr int kMaxDepth = 32;
// The states open on this thread, innermost last, with the handle recorded at
// their enter (0: not recorded). Depth may pass kMaxDepth: deeper states are
// not recorded but still counted.
thread_local const Def* tls_open[kMaxDepth] PLX_TLS;
thread_local uint32_t tls_recorded[kMaxDepth] PLX_TLS;
thread_local int tls_depth PLX_TLS = 0;

// 0: not decided; 1: never record; 2: only while the runtime runs (MPI); 3: start it.
std::atomic<int> g_mode{0};
std::atomic<bool> g_ompt_tool{false};

int Mode() {
  int mode = g_mode.load(std::memory_order_acquire);
  if (__builtin_expect(mode != 0, 1)) return mode;
  cap::Runtime& rt = cap::Runtime::Get();
  if (!rt.ChooseClock() || !rt.config().openmp) {
    mode = 1;
  } else {
    // The pthread layer's decision; kOff there means PLX_THREADS=0 or a
    // launcher: then never start the runtime from here either.
    mode = threads::DecideMode() == threads::Mode::kAuto ? 3 : 2;
  }
  g_mode.store(mode, std::memory_order_release);
  return mode;
}

uint32_t Handle(Def& d) {
  uint32_t h = d.handle.load(std::memory_order_acquire);
  if (__builtin_expect(h != 0, 1)) return h;
  cap::Runtime& rt = cap::Runtime::Get();
  if (!rt.running()) return 0;
  const int saved = errno;
  try {
    h = d.event ? rt.registry().EventType(d.name, d.category, 0)
                : rt.registry().State(d.name, PLX_COLOR_AUTO, d.category);
    rt.RefreshMask();
    d.handle.store(h, std::memory_order_release);
  } catch (...) {  // bad_alloc: not recorded
    h = 0;
  }
  errno = saved;
  return h;
}

void EmitLeave(uint32_t h) {
  if (h != 0) cap::LeaveState(h);
}

}  // namespace

bool Enabled() {
  return Mode() != 1;
}

bool MayRecord() {
  const int mode = Mode();
  if (mode == 1) return false;
  if (__builtin_expect(cap::g_mask.load(std::memory_order_relaxed) != 0, 1)) return true;
  if (mode != 3) return false;
  // As a call from this library's code, so the pthread layer takes the
  // runtime's own thread (made by Init, under its lock) as internal.
  threads::SyncState none{"", {}};
  threads::Blocking inside(none, reinterpret_cast<const void*>(&MayRecord));
  return cap::Runtime::Get().EnsureInit();
}

void NoteOmptTool() {
  g_ompt_tool.store(true, std::memory_order_release);
}

bool OmptTool() {
  return g_ompt_tool.load(std::memory_order_acquire);
}

void Enter(Def& state) {
  uint32_t h = 0;
  if (MayRecord()) {
    h = Handle(state);
    if (h != 0 && !cap::Selected(cap::HandleCategory(h))) h = 0;
  }
  if (tls_depth < kMaxDepth) {
    tls_open[tls_depth] = &state;
    tls_recorded[tls_depth] = h;
    if (h != 0) cap::EnterState(h);
  }
  ++tls_depth;
}

void Leave(Def& state) {
  const int top = tls_depth < kMaxDepth ? tls_depth : kMaxDepth;
  int i = top - 1;
  while (i >= 0 && tls_open[i] != &state)
    --i;
  if (i < 0) {
    if (tls_depth > kMaxDepth) --tls_depth;  // an unrecorded deep state
    return;
  }
  for (int j = top - 1; j >= i; --j)
    EmitLeave(tls_recorded[j]);
  tls_depth = i;
}

bool IsOpen(const Def& state) {
  for (int i = (tls_depth < kMaxDepth ? tls_depth : kMaxDepth) - 1; i >= 0; --i)
    if (tls_open[i] == &state) return true;
  return false;
}

void EnterLeaveSince(Def& state, uint64_t tick) {
  if (!MayRecord()) return;
  const uint32_t h = Handle(state);
  if (h == 0) return;
  cap::EnterStateAt(tick, h);
  EmitLeave(h);
}

void Instant(Def& event, int64_t value) {
  if (!MayRecord()) return;
  const uint32_t h = Handle(event);
  if (h != 0)
    cap::Emit2(cap::HandleCategory(h), cap::MakeW0(cap::kRawEventInt, cap::HandleId(h)), 0,
               static_cast<uint64_t>(value), 0);
}

uint64_t Now() {
  return cap::ReadTicks();
}

uint64_t NowNs() {
  return cap::MonotonicNs();
}

}  // namespace plx::omp
