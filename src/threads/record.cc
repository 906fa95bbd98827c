// The recording side of the wrappers, through the capture runtime's fast path
// (capture/fast_path.h) in category "sync", like src/mpi/hooks.cc for MPI.
#include "threads/record.h"

#include <cerrno>
#include <cstring>

#include "capture/fast_path.h"
#include "capture/registry.h"
#include "capture/runtime.h"
#include "capture/state_records.h"
#include "threads/process_kind.h"
#include "threads/real.h"

namespace plx::threads {
namespace cap = plx::capture;

namespace {

std::atomic<int> g_mode{static_cast<int>(Mode::kUnset)};
uintptr_t g_own_begin = 0, g_own_end = 0;

thread_local int tls_depth PLX_TLS = 0;          // > 0: inside a wrapper or the runtime
thread_local bool tls_internal PLX_TLS = false;  // one of the runtime's threads

constexpr int kMaxInternal = 16;
std::atomic<pthread_t> g_internal[kMaxInternal];
std::atomic<int> g_internal_count{0};

SyncState g_exit_event{"pthread_exit", {}};

void RememberInternal() {
  const int i = g_internal_count.fetch_add(1, std::memory_order_acq_rel);
  if (i < kMaxInternal) g_internal[i].store(::pthread_self(), std::memory_order_release);
}

// The settings are read at the first call that could record, not at load, so
// a program may still set PLX_* variables before its first thread or wait.
int CurrentMode() {
  int mode = g_mode.load(std::memory_order_acquire);
  if (__builtin_expect(mode == static_cast<int>(Mode::kUndecided), 0)) {
    mode = static_cast<int>(DecideMode());
    int expected = static_cast<int>(Mode::kUndecided);
    if (!g_mode.compare_exchange_strong(expected, mode)) mode = expected;
  }
  return mode;
}

// Whether this thread may record now; starts the runtime in kAuto mode.
bool MayRecord() {
  const int mode = CurrentMode();
  if (mode < static_cast<int>(Mode::kMpi)) return false;
  if (__builtin_expect(cap::Selected(cap::kCatSync), 1)) return true;
  if (mode != static_cast<int>(Mode::kAuto)) return false;
  return cap::Runtime::Get().EnsureInit() && cap::Selected(cap::kCatSync);
}

uint32_t Define(SyncState& s, bool event) {
  cap::Runtime& rt = cap::Runtime::Get();
  if (!rt.running()) return 0;
  try {
    const uint32_t h = event ? rt.registry().EventType(s.name, "sync", 0)
                             : rt.registry().State(s.name, PLX_COLOR_AUTO, "sync");
    rt.RefreshMask();
    s.handle.store(h, std::memory_order_release);
    return h;
  } catch (...) {  // bad_alloc: not recorded
    return 0;
  }
}

inline uint32_t Handle(SyncState& s, bool event) {
  const uint32_t h = s.handle.load(std::memory_order_acquire);
  return h != 0 ? h : Define(s, event);
}

}  // namespace

bool Bypassed(const void* caller) {
  const uintptr_t c = reinterpret_cast<uintptr_t>(caller);
  return tls_depth != 0 || tls_internal || cap::tls_runtime_busy ||
         (c >= g_own_begin && c < g_own_end);
}

Blocking::Blocking(SyncState& state, const void* caller) {
  if (Bypassed(caller)) {
    ++tls_depth;
    return;
  }
  ++tls_depth;
  const int saved = errno;
  if (MayRecord()) {
    const uint32_t h = Handle(state, false);
    if (h != 0) {
      handle_ = h;
      cap::EnterState(h);
    }
  }
  errno = saved;
}

Blocking::~Blocking() {
  if (handle_ != 0) {
    const int saved = errno;
    cap::LeaveState(handle_);
    errno = saved;
  }
  --tls_depth;
}

void RecordExit(void* value, const void* caller) {
  if (Bypassed(caller)) return;
  ++tls_depth;
  if (MayRecord()) {
    const uint32_t h = Handle(g_exit_event, true);
    if (h != 0)
      cap::Emit2(cap::HandleCategory(h), cap::MakeW0(cap::kRawEventInt, cap::HandleId(h)), 0,
                 static_cast<uint64_t>(reinterpret_cast<uintptr_t>(value)), 0);
  }
  --tls_depth;
}

void ThreadStarted(bool internal) {
  if (internal) {
    tls_internal = true;
    RememberInternal();
    return;
  }
  cap::tls_attach_tick = cap::ReadTicks();  // its thread_begin, whenever it first records
}

void ThreadEnding() {
  if (tls_internal || tls_depth != 0 || cap::tls_stream != nullptr) return;
  ++tls_depth;
  const int saved = errno;
  if (MayRecord()) cap::AttachThread();
  errno = saved;
  --tls_depth;
}

void ThreadNamed(const char* name) {
  if (std::strncmp(name, "plx-", 4) == 0) {
    if (!tls_internal) {
      tls_internal = true;
      RememberInternal();
    }
    return;
  }
  cap::ThreadStream* s = cap::tls_stream;
  if (s == nullptr || tls_internal || tls_depth != 0) return;
  ++tls_depth;
  cap::Runtime& rt = cap::Runtime::Get();
  if (rt.running()) {
    try {
      rt.registry().Stream(s->id, s->tid, name);
    } catch (...) {
    }
  }
  --tls_depth;
}

bool IsInternalThread(pthread_t t) {
  const int n = g_internal_count.load(std::memory_order_acquire);
  for (int i = 0; i < n && i < kMaxInternal; ++i)
    if (::pthread_equal(g_internal[i].load(std::memory_order_acquire), t)) return true;
  return false;
}

}  // namespace plx::threads

// Finds the real functions and this library's code once it is loaded;
// wrappers called earlier (by constructors of the libraries below it) only
// pass through.
__attribute__((constructor)) static void PlxThreadsStart() {
  using namespace plx::threads;
  ++tls_depth;
  ResolveReal();
  FindOwnCode(&g_own_begin, &g_own_end);
  g_mode.store(static_cast<int>(Mode::kUndecided), std::memory_order_release);
  --tls_depth;
}
