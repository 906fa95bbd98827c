// The C API of parallax.h over the runtime. Recording functions are the fast
// path: a category test, a slot reservation, stores. Exceptions never leave.
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "capture/fast_path.h"
#include "capture/registry.h"
#include "capture/runtime.h"
#include "capture/state_records.h"
#include "parallax/parallax.h"

using plx::capture::Commit;
using plx::capture::Emit2;
using plx::capture::HandleCategory;
using plx::capture::HandleId;
using plx::capture::MakeW0;
using plx::capture::ReadTicks;
using plx::capture::ReserveN;
using plx::capture::Runtime;
using plx::capture::Selected;
using plx::capture::Slot;
using plx::capture::ThreadStream;
namespace cap = plx::capture;

namespace {

thread_local uint64_t tls_lamport PLX_TLS = 0;

// Calls that need no handle start the runtime themselves.
inline bool SelectedOrStart(uint32_t category) {
  if (PLX_LIKELY(Selected(category))) return true;
  return Runtime::Get().EnsureInit() && Selected(category);
}

uint32_t RegisterSrcloc(plx_srcloc* loc, bool event, int value_kind) {
  if (!Runtime::Get().EnsureInit()) return 0;
  try {
    const uint32_t h = Runtime::Get().registry().Srcloc(loc, event, value_kind);
    Runtime::Get().RefreshMask();
    return h;
  } catch (...) {
    return 0;
  }
}

inline uint32_t SrclocHandle(plx_srcloc* loc, bool event, int value_kind) {
  uint32_t h = __atomic_load_n(&loc->id, __ATOMIC_ACQUIRE);
  if (PLX_UNLIKELY(h == 0)) h = RegisterSrcloc(loc, event, value_kind);
  return h;
}

void EmitString(uint32_t handle, uint32_t callsite, const char* text, size_t length) {
  if (handle == 0 || !Selected(HandleCategory(handle))) return;
  const uint32_t n =
      static_cast<uint32_t>(length < cap::kMaxStringBytes ? length : cap::kMaxStringBytes);
  ThreadStream* s;
  Slot* slot = ReserveN(&s, cap::StringSlots(n));
  if (slot == nullptr) return;
  slot[0] = Slot{ReadTicks(), MakeW0(cap::kRawEventString, HandleId(handle)), callsite};
  auto* bytes = reinterpret_cast<uint8_t*>(slot + 1);
  std::memcpy(bytes, &n, 4);
  if (n > 0) std::memcpy(bytes + 4, text, n);
  Commit(s, cap::StringSlots(n));
}

void EmitMessage(cap::RawKind kind, plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes,
                 uint64_t clock) {
  if (!SelectedOrStart(cap::kCatComm)) return;
  cap::EmitMessage(kind, comm, peer, tag, bytes, clock, 0);
}

// The define functions: start the runtime, register, let g_mask include a new
// category; never let an exception (bad_alloc) cross the C API.
template <typename Register>
uint32_t Define(const char* name, Register reg) {
  if (name == nullptr || !Runtime::Get().EnsureInit()) return 0;
  try {
    const uint32_t h = reg(Runtime::Get().registry());
    Runtime::Get().RefreshMask();
    return h;
  } catch (...) {
    return 0;
  }
}

// A two-slot record carrying a 64-bit value (int bits or double bits).
inline void EmitValue(uint32_t handle, cap::RawKind kind, uint32_t callsite, uint64_t bits) {
  if (handle != 0) Emit2(HandleCategory(handle), MakeW0(kind, HandleId(handle)), callsite, bits, 0);
}

inline uint64_t Bits(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return bits;
}

uint32_t AnnotationType() {
  static std::atomic<uint32_t> handle{0};
  uint32_t h = handle.load(std::memory_order_acquire);
  if (h == 0 && Runtime::Get().EnsureInit()) {
    h = Runtime::Get().registry().EventType("annotation", nullptr, 3);
    handle.store(h, std::memory_order_release);
  }
  return h;
}

}  // namespace

extern "C" {

int plx_init(void) {
  return Runtime::Get().EnsureInit() ? 0 : -1;
}
void plx_finalize(void) {
  Runtime::Get().Finalize();
}
void plx_flush(void) {
  Runtime::Get().Flush();
}
void plx_control(int on) {
  Runtime::Get().Control(on != 0);
}
int plx_enabled(void) {
  return cap::g_mask.load(std::memory_order_relaxed) != 0 ? 1 : 0;
}

const char* plx_output_path(void) {
  Runtime& rt = Runtime::Get();
  // PLX_OUTPUT=- (live only) writes no file.
  if (!rt.running() || rt.output_path() == "-") return nullptr;
  return rt.output_path().c_str();
}

plx_state_t plx_state_define(const char* name, uint32_t color, const char* category) {
  return Define(name, [&](cap::Registry& r) { return r.State(name, color, category); });
}

void plx_state_enter(plx_state_t state) {
  if (state != 0) cap::EnterState(state);
}

void plx_state_leave(plx_state_t state) {
  if (state != 0) cap::LeaveState(state);
}

void plx_scope_enter(plx_srcloc* loc) {
  const uint32_t h = SrclocHandle(loc, false, 0);
  if (h != 0) cap::EnterState(h, __atomic_load_n(&loc->callsite, __ATOMIC_RELAXED));
}

void plx_scope_leave(plx_srcloc* loc) {
  const uint32_t h = SrclocHandle(loc, false, 0);
  if (h != 0) cap::LeaveState(h);
}

plx_event_t plx_event_define(const char* name, const char* category) {
  return Define(name, [&](cap::Registry& r) { return r.EventType(name, category, 0); });
}

void plx_event_int(plx_event_t event, int64_t value) {
  EmitValue(event, cap::kRawEventInt, 0, static_cast<uint64_t>(value));
}

void plx_event_double(plx_event_t event, double value) {
  EmitValue(event, cap::kRawEventDouble, 0, Bits(value));
}

void plx_event_string(plx_event_t event, const char* text) {
  if (text != nullptr) EmitString(event, 0, text, std::strlen(text));
}

void plx_mark_int(plx_srcloc* loc, int64_t value) {
  const uint32_t h = SrclocHandle(loc, true, 1);
  EmitValue(h, cap::kRawEventInt, __atomic_load_n(&loc->callsite, __ATOMIC_RELAXED),
            static_cast<uint64_t>(value));
}

void plx_mark_double(plx_srcloc* loc, double value) {
  const uint32_t h = SrclocHandle(loc, true, 2);
  EmitValue(h, cap::kRawEventDouble, __atomic_load_n(&loc->callsite, __ATOMIC_RELAXED),
            Bits(value));
}

void plx_mark_string(plx_srcloc* loc, const char* text) {
  const uint32_t h = SrclocHandle(loc, true, 3);
  if (text != nullptr)
    EmitString(h, __atomic_load_n(&loc->callsite, __ATOMIC_RELAXED), text, std::strlen(text));
}

void plx_annotatev(const char* format, va_list args) {
  const uint32_t h = AnnotationType();
  if (h == 0 || format == nullptr || !Selected(HandleCategory(h))) return;
  char buf[cap::kMaxStringBytes + 1];
  int n = std::vsnprintf(buf, sizeof buf, format, args);
  if (n < 0) return;
  EmitString(h, 0, buf,
             static_cast<size_t>(n) < sizeof buf ? static_cast<size_t>(n) : sizeof buf - 1);
}

void plx_annotate(const char* format, ...) {
  va_list args;
  va_start(args, format);
  plx_annotatev(format, args);
  va_end(args);
}

void plx_mark_printf(plx_srcloc* loc, const char* format, ...) {
  const uint32_t h = SrclocHandle(loc, true, 3);
  if (h == 0 || format == nullptr || !Selected(HandleCategory(h))) return;
  char buf[cap::kMaxStringBytes + 1];
  va_list args;
  va_start(args, format);
  int n = std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  if (n < 0) return;
  EmitString(h, __atomic_load_n(&loc->callsite, __ATOMIC_RELAXED), buf,
             static_cast<size_t>(n) < sizeof buf ? static_cast<size_t>(n) : sizeof buf - 1);
}

plx_comm_t plx_comm_define(const char* name, int kind) {
  return Define(name, [&](cap::Registry& r) { return r.Communicator(name, kind); });
}

void plx_send(plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes, uint64_t clock) {
  EmitMessage(cap::kRawSend, comm, peer, tag, bytes, clock);
}

void plx_recv(plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes, uint64_t clock) {
  EmitMessage(cap::kRawRecv, comm, peer, tag, bytes, clock);
}

uint64_t plx_msg_send(plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes) {
  const uint64_t clock = ++tls_lamport;
  EmitMessage(cap::kRawSend, comm, peer, tag, bytes, clock);
  return clock;
}

void plx_msg_recv(plx_comm_t comm, int32_t peer, int32_t tag, uint64_t bytes,
                  uint64_t carried_clock) {
  tls_lamport = (carried_clock > tls_lamport ? carried_clock : tls_lamport) + 1;
  EmitMessage(cap::kRawRecv, comm, peer, tag, bytes, carried_clock);
}

uint64_t plx_lamport_clock(void) {
  return tls_lamport;
}

plx_counter_t plx_counter_define(const char* name, const char* unit, int kind) {
  return Define(name, [&](cap::Registry& r) { return r.Counter(name, unit, kind); });
}

void plx_counter_int(plx_counter_t counter, int64_t value) {
  EmitValue(counter, cap::kRawCounterInt, 0, static_cast<uint64_t>(value));
}

void plx_counter_double(plx_counter_t counter, double value) {
  EmitValue(counter, cap::kRawCounterDouble, 0, Bits(value));
}

void plx_rma(int op, plx_comm_t comm, int32_t origin, int32_t target, uint64_t bytes) {
  if (!SelectedOrStart(cap::kCatComm)) return;
  const uint64_t ranks =
      static_cast<uint32_t>(origin) | (static_cast<uint64_t>(static_cast<uint32_t>(target)) << 32);
  Emit2(cap::kCatComm, MakeW0(cap::kRawRma, comm & cap::kMaxArg), static_cast<uint32_t>(op), ranks,
        bytes);
}

void plx_process_name(const char* name) {
  Define(name, [&](cap::Registry& r) {
    r.ProcessName(name);
    return 0u;
  });
}

void plx_thread_name(const char* name) {
  if (name == nullptr) return;
  ThreadStream* s = cap::tls_stream ? cap::tls_stream : cap::AttachThread();
  if (s == nullptr) return;
  try {
    Runtime::Get().registry().Stream(s->id, s->tid, name);
  } catch (...) {
  }
}

uint32_t plx_thread_id(void) {
  ThreadStream* s = cap::tls_stream ? cap::tls_stream : cap::AttachThread();
  return s ? s->id : UINT32_MAX;
}

}  // extern "C"
