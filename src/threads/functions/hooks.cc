// The -finstrument-functions hooks: every instrumented function calls
// __cyg_profile_func_enter at entry and __cyg_profile_func_exit before it
// returns; these definitions override glibc's empty ones. Per call: a guard,
// a lookup in the function table, the thread's call stack, one ring slot.
//
// Enter records: (closes of frames whose exits were skipped) + enter(state, callsite).
// Exit records: (closes of frames whose exits were skipped) + leave(state), or
// nothing when the function is not on the thread's call stack (excluded, or
// entered while recording was off).
#include <atomic>
#include <cstdint>

#include "capture/fast_path.h"
#include "capture/registry.h"
#include "capture/runtime.h"
#include "capture/state_records.h"
#include "threads/functions/call_stack.h"
#include "threads/functions/resolver.h"

namespace plx::functions {

namespace {

namespace cap = plx::capture;

thread_local bool tls_busy PLX_TLS = false;  // inside a hook: hooks do nothing

PLX_NO_INSTRUMENT inline void EmitLeave(uint32_t handle) {
  cap::LeaveState(handle);
}

// Pops the frames that cannot be callers of a call whose hook runs at `sp`:
// their functions were left without an exit hook (longjmp, or an exception
// through clang-built code). A frame entered deeper in the thread's own stack
// is gone; one entered at the same position is the caller only when the call
// is inlined into it, and then both hooks got the same call_site. `call_site`
// 0 (an exit) leaves frames at the same position alone.
PLX_NO_INSTRUMENT void CloseSkipped(CallStack* st, uintptr_t sp, uintptr_t call_site) {
  while (st->depth > 0) {
    const Frame& top = st->frames[st->depth - 1];
    if (!st->Comparable(top.sp, sp) || top.sp > sp ||
        (top.sp == sp && (call_site == 0 || top.call_site == call_site)))
      return;
    --st->depth;
    EmitLeave(top.handle);
  }
}

PLX_NO_INSTRUMENT void Enter(uintptr_t fn, uintptr_t sp, uintptr_t call_site) {
  const int mode = g_mode.load(std::memory_order_acquire);
  if (PLX_UNLIKELY(mode != kOn)) {
    if (mode == kOff || (mode == kWaiting && !cap::Runtime::Get().running()) || !Setup()) return;
  }
  const FunctionEntry* e = g_table.Find(fn);
  if (PLX_UNLIKELY(e == nullptr) && (e = ResolveFirstCall(fn)) == nullptr) return;
  const uint32_t h = e->handle;
  if (h == 0 || !cap::Selected(cap::HandleCategory(h))) return;
  CallStack* st = tls_call_stack;
  if (PLX_UNLIKELY(st == nullptr) && (st = MakeThreadCallStack()) == nullptr) return;
  if (st->depth > 0 && st->overflow == 0) {
    const Frame& top = st->frames[st->depth - 1];
    if (PLX_UNLIKELY(top.sp < sp || (top.sp == sp && top.call_site != call_site)))
      CloseSkipped(st, sp, call_site);
  }
  if (PLX_UNLIKELY(st->depth >= st->capacity)) {
    if (st->capacity != 0) ++st->overflow;
    return;
  }
  cap::SampleAtStateChange();
  cap::ThreadStream* s;
  cap::Slot* slot = cap::Reserve1(&s);
  if (PLX_UNLIKELY(slot == nullptr)) return;
  *slot = cap::Slot{cap::ReadTicks(), cap::MakeW0(cap::kRawEnter, cap::HandleId(h)), e->callsite};
  cap::Commit(s, 1);
  st->frames[st->depth++] = Frame{fn, sp, call_site, h};
}

PLX_NO_INSTRUMENT void ExitSlow(CallStack* st, uintptr_t fn, uintptr_t sp) {
  if (st->overflow > 0) {  // beyond kMaxDepth: count traced exits off
    const FunctionEntry* e = g_table.Find(fn);
    if (e != nullptr && e->handle != 0) --st->overflow;
    return;
  }
  CloseSkipped(st, sp, 0);
  // This function's innermost frame among those entered from the same stack
  // position (functions inlined into one another, some left without an exit),
  // or from above it when the function has grown its frame since (alloca).
  uint32_t i = st->depth;
  while (i > 0 && st->frames[i - 1].address != fn && st->frames[i - 1].sp == sp)
    --i;
  if (i == 0) return;
  const Frame& f = st->frames[i - 1];
  if (f.address != fn || !(f.sp == sp || (st->Comparable(f.sp, sp) && f.sp > sp)))
    return;  // not on the stack: excluded, or entered while recording was off
  while (st->depth >= i) {
    --st->depth;
    EmitLeave(st->frames[st->depth].handle);
  }
}

PLX_NO_INSTRUMENT inline void Exit(uintptr_t fn, uintptr_t sp) {
  CallStack* st = tls_call_stack;
  if (st == nullptr || st->depth == 0) return;
  const Frame& top = st->frames[st->depth - 1];
  if (PLX_LIKELY(top.address == fn && top.sp == sp && st->overflow == 0)) {
    --st->depth;
    EmitLeave(top.handle);
    return;
  }
  ExitSlow(st, fn, sp);
}

}  // namespace

}  // namespace plx::functions

// The hooks' own frame address is the stack position compared across calls:
// each instrumented function calls both hooks from its own frame.
extern "C" {

__attribute__((visibility("default"), no_instrument_function)) void __cyg_profile_func_enter(
    void* fn, void* call_site) {
  using plx::functions::tls_busy;
  if (PLX_UNLIKELY(tls_busy)) return;
  tls_busy = true;
  plx::functions::Enter(reinterpret_cast<uintptr_t>(fn),
                        reinterpret_cast<uintptr_t>(__builtin_frame_address(0)),
                        reinterpret_cast<uintptr_t>(call_site));
  tls_busy = false;
}

__attribute__((visibility("default"), no_instrument_function)) void __cyg_profile_func_exit(
    void* fn, void* call_site) {
  using plx::functions::tls_busy;
  if (PLX_UNLIKELY(tls_busy)) return;
  tls_busy = true;
  plx::functions::Exit(reinterpret_cast<uintptr_t>(fn),
                       reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
  tls_busy = false;
}

}  // extern "C"
